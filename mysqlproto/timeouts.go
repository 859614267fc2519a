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
//
// Setting a deadline costs a trip through the runtime's timers, and a session sends
// a command every few microseconds when busy, so the Conn remembers the deadlines it
// set: bytes already buffered need none, and an idle or write deadline set moments
// ago is kept when renewing it would move it only a little later (keepDeadline).

// errIdleTimeout reports a session that sent no command within wait_timeout.
var errIdleTimeout = errors.New("idle longer than wait_timeout")

// keepDeadline reports whether a deadline set earlier may stand for a new one:
// it expires no later than the new one, and at most a tenth of the timeout d (and
// at most a second) sooner. A shorter timeout than before always sets the new one.
func keepDeadline(old, next time.Time, d time.Duration) bool {
	early := next.Sub(old)
	return !old.IsZero() && early >= 0 && early < min(d/10, time.Second)
}

// deadlines is what a Conn knows of the deadlines it set on its network connection.
type deadlines struct {
	read     time.Time
	readIdle bool // read is an idle deadline (wait_timeout), not a net_read one
	write    time.Time
}

func (c *Conn) setReadDeadline(t time.Time, idle bool) error {
	c.dl.readIdle = idle
	if t.Equal(c.dl.read) {
		return nil
	}
	c.dl.read = t
	if err := c.netConn.SetReadDeadline(t); err != nil {
		return fmt.Errorf("set read deadline: %w", err)
	}
	return nil
}

// extendRead prepares a read of need more bytes: when they are not buffered yet,
// the wait for them gets its own readTimeout (and no idle deadline still in place
// may cut it short).
func (c *Conn) extendRead(need int) error {
	if c.netConn == nil || c.r.Buffered() >= need {
		return nil
	}
	switch {
	case c.readTimeout > 0:
		return c.setReadDeadline(time.Now().Add(c.readTimeout), false)
	case c.dl.readIdle:
		return c.setReadDeadline(time.Time{}, false)
	}
	return nil
}

// readCommand reads the next command packet, waiting at most idle for it to begin
// and netRead for each later part; zero waits forever.
func (c *Conn) readCommand(idle, netRead time.Duration) ([]byte, error) {
	c.readTimeout = netRead
	defer func() { c.readTimeout = 0 }()
	if c.netConn != nil && c.r.Buffered() == 0 {
		if err := c.awaitCommand(idle); err != nil {
			return nil, err
		}
	}
	return c.ReadPacket()
}

// awaitCommand waits up to idle for the first byte of a command.
func (c *Conn) awaitCommand(idle time.Duration) error {
	var deadline time.Time
	if idle > 0 {
		deadline = time.Now().Add(idle)
		if c.dl.readIdle && keepDeadline(c.dl.read, deadline, idle) {
			deadline = c.dl.read
		}
	}
	if err := c.setReadDeadline(deadline, true); err != nil {
		return err
	}
	if _, err := c.r.Peek(1); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("read command: %w", errIdleTimeout)
		}
		return fmt.Errorf("read packet header: %w", err)
	}
	return nil
}

// clearReadDeadline lifts the read deadline before a command that may read side
// packets for as long as it runs (a binary-log dump reading semi-sync
// acknowledgements). Whatever such a command does to the deadline, it must leave
// none behind.
func (c *Conn) clearReadDeadline() error {
	if c.netConn == nil {
		return nil
	}
	return c.setReadDeadline(time.Time{}, false)
}

// timedWriter is the network side of a Conn's write buffer: each write to the
// socket gets writeTimeout to complete, so a client that stops reading a result is
// dropped instead of holding its session (and what it buffered) forever.
type timedWriter struct{ c *Conn }

func (w *timedWriter) Write(p []byte) (int, error) {
	c := w.c
	if d := c.writeTimeout; d > 0 {
		deadline := time.Now().Add(d)
		if !keepDeadline(c.dl.write, deadline, d) {
			if err := c.netConn.SetWriteDeadline(deadline); err != nil {
				return 0, fmt.Errorf("set write deadline: %w", err)
			}
			c.dl.write = deadline
		}
	}
	return c.netConn.Write(p)
}
