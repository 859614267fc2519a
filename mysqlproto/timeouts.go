package mysqlproto

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// Timeouts follow MySQL's: a wait for the first byte of a command is bounded by
// wait_timeout (the session is idle), every later wait for more of a packet by
// net_read_timeout, and every wait for the client to take more of a response by
// net_write_timeout. Each wait has its own deadline, as each read() and write() has
// in MySQL, so a large packet on a slow link is not cut short while it progresses;
// the handshake instead has one deadline for the whole of it (connect_timeout), so
// a client that trickles bytes before logging in cannot stay.

// errIdleTimeout reports a session that sent no command within wait_timeout.
var errIdleTimeout = errors.New("idle longer than wait_timeout")

// extendRead gives the next read its own readTimeout.
func (c *Conn) extendRead() error {
	if c.readTimeout <= 0 || c.netConn == nil {
		return nil
	}
	if err := c.netConn.SetReadDeadline(time.Now().Add(c.readTimeout)); err != nil {
		return fmt.Errorf("set read deadline: %w", err)
	}
	return nil
}

// readCommand reads the next command packet, waiting at most idle for it to begin
// and netRead for each later part; zero waits forever. Once it returns, the
// connection has no read deadline left, so the command runs (and may read side
// packets) undisturbed.
func (c *Conn) readCommand(idle, netRead time.Duration) ([]byte, error) {
	if c.netConn == nil || (idle <= 0 && netRead <= 0) {
		c.readTimeout = 0
		return c.ReadPacket()
	}
	defer c.netConn.SetReadDeadline(time.Time{})
	c.readTimeout = 0
	if c.r.Buffered() == 0 {
		var deadline time.Time
		if idle > 0 {
			deadline = time.Now().Add(idle)
		}
		if err := c.netConn.SetReadDeadline(deadline); err != nil {
			return nil, fmt.Errorf("set read deadline: %w", err)
		}
		if _, err := c.r.Peek(1); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, fmt.Errorf("read command: %w", errIdleTimeout)
			}
			return nil, fmt.Errorf("read packet header: %w", err)
		}
	}
	c.readTimeout = netRead
	defer func() { c.readTimeout = 0 }()
	return c.ReadPacket()
}

// timedWriter is the network side of a Conn's write buffer: each write to the
// socket gets writeTimeout to complete, so a client that stops reading a result is
// dropped instead of holding its session (and what it buffered) forever.
type timedWriter struct{ c *Conn }

func (w *timedWriter) Write(p []byte) (int, error) {
	nc := w.c.netConn
	if d := w.c.writeTimeout; d > 0 {
		if err := nc.SetWriteDeadline(time.Now().Add(d)); err != nil {
			return 0, fmt.Errorf("set write deadline: %w", err)
		}
	}
	return nc.Write(p)
}
