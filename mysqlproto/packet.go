package mysqlproto

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

// readChunk bounds how much memory a packet read reserves ahead of the bytes that
// actually arrived, so a lying header cannot force a large allocation.
const readChunk = 64 << 10

// Conn is the packet-level MySQL connection: framing, sequence ids and buffering.
// Writes are buffered until Flush; the server flushes once per command response.
// A Conn is used by one goroutine at a time.
type Conn struct {
	netConn   net.Conn // may be nil in tests that frame over plain streams
	r         *bufio.Reader
	w         *bufio.Writer
	seq       byte
	maxPacket int
	// readTimeout bounds each wait for the next part of a packet (header, then
	// every chunk); writeTimeout each wait for the peer to take more of what is
	// written. Zero leaves the connection's deadlines alone.
	readTimeout  time.Duration
	writeTimeout time.Duration
	dl           deadlines // set on netConn by this Conn (timeouts.go)

	out          io.Writer     // what w writes to (through the TLS layer once started)
	capabilities uint32        // negotiated with the client
	status       func() uint16 // server status flags for OK/EOF; nil = autocommit
}

func newConn(nc net.Conn, r io.Reader, w io.Writer, maxPacket int) *Conn {
	c := &Conn{
		netConn:   nc,
		r:         bufio.NewReaderSize(r, 16<<10),
		maxPacket: maxPacket,
	}
	if nc != nil && w == io.Writer(nc) {
		w = &timedWriter{c: c}
	}
	c.out = w
	c.w = bufio.NewWriterSize(w, 16<<10)
	return c
}

// NetConn returns the underlying network connection.
func (c *Conn) NetConn() net.Conn { return c.netConn }

// Capabilities returns the capability flags negotiated with the client.
func (c *Conn) Capabilities() uint32 { return c.capabilities }

// SetReadTimeout makes every later ReadPacket fail once it has waited d for the
// next part of a packet (0: wait forever).
func (c *Conn) SetReadTimeout(d time.Duration) { c.readTimeout = d }

// ResetSequence starts a new packet exchange (sequence id 0), as at each command.
func (c *Conn) ResetSequence() { c.seq = 0 }

// ReadPacket reads one logical payload, joining packets of the 16 MiB-1 maximum
// size. It fails with ER_NET_PACKETS_OUT_OF_ORDER on a bad sequence id and with
// ER_NET_PACKET_TOO_LARGE once the payload would exceed the maximum packet size,
// without reading (or allocating) the rest.
//
// The payload is one buffer that doubles as bytes arrive, up to what the headers
// announce: a large payload is copied about once on its way in, and a header that
// lies reserves no more than twice what actually arrived.
func (c *Conn) ReadPacket() ([]byte, error) {
	var payload []byte
	announced := 0
	for {
		var hdr [4]byte
		if err := c.extendRead(len(hdr)); err != nil {
			return nil, err
		}
		if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
			return nil, fmt.Errorf("read packet header: %w", err)
		}
		n := int(uint32(hdr[0]) | uint32(hdr[1])<<8 | uint32(hdr[2])<<16)
		if hdr[3] != c.seq {
			want := c.seq
			c.seq = hdr[3] + 1 // so that the ERR packet answers the packet received
			return nil, mysqlerr.New(mysqlerr.ErNetPacketsOutOfOrder,
				"Got packets out of order (sequence id %d, expected %d)", hdr[3], want)
		}
		c.seq++
		if c.maxPacket > 0 && announced+n > c.maxPacket {
			return nil, mysqlerr.New(mysqlerr.ErNetPacketTooLarge,
				"Got a packet bigger than 'max_allowed_packet' bytes")
		}
		announced += n
		for remaining := n; remaining > 0; {
			step := min(remaining, readChunk)
			if err := c.extendRead(step); err != nil {
				return nil, err
			}
			start := len(payload)
			if start+step > cap(payload) {
				grown := make([]byte, start, min(announced, max(2*start, start+step)))
				copy(grown, payload)
				payload = grown
			}
			payload = payload[:start+step]
			if _, err := io.ReadFull(c.r, payload[start:]); err != nil {
				return nil, fmt.Errorf("read packet payload: %w", err)
			}
			remaining -= step
		}
		if n < maxPacketChunk {
			if payload == nil {
				payload = []byte{}
			}
			return payload, nil
		}
	}
}

// WritePacket frames payload (splitting at 16 MiB-1) into the write buffer.
func (c *Conn) WritePacket(payload []byte) error {
	for {
		n := min(len(payload), maxPacketChunk)
		hdr := [4]byte{byte(n), byte(n >> 8), byte(n >> 16), c.seq}
		c.seq++
		if _, err := c.w.Write(hdr[:]); err != nil {
			return fmt.Errorf("write packet header: %w", err)
		}
		if _, err := c.w.Write(payload[:n]); err != nil {
			return fmt.Errorf("write packet payload: %w", err)
		}
		payload = payload[n:]
		// A chunk of exactly the maximum size must be followed by another packet,
		// possibly empty, so the reader knows where the payload ends.
		if n < maxPacketChunk {
			return nil
		}
	}
}

// Flush sends buffered packets.
func (c *Conn) Flush() error {
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("flush: %w", err)
	}
	return nil
}

// discardOutput drops unflushed packets (used when a handler panicked mid-response).
func (c *Conn) discardOutput() { c.w.Reset(c.out) }

func (c *Conn) statusFlags() uint16 {
	if c.status == nil {
		return StatusAutocommit
	}
	return c.status()
}

// WriteError writes err as an ERR packet (mysqlerr.From decides code and SQLSTATE).
func (c *Conn) WriteError(err error) error {
	me := mysqlerr.From(err)
	b := make([]byte, 0, 16+len(me.Message))
	b = append(b, headerErr)
	b = appendUint16(b, me.Code)
	if c.capabilities&ClientProtocol41 != 0 || c.capabilities == 0 {
		state := me.State
		if len(state) != 5 {
			state = mysqlerr.State(me.Code)
		}
		b = append(b, '#')
		b = append(b, state...)
	}
	b = append(b, me.Message...)
	return c.WritePacket(b)
}

// WriteOK writes an OK packet with the current server status flags.
func (c *Conn) WriteOK(affected, lastID uint64) error {
	return c.writeOK(headerOK, affected, lastID, c.statusFlags(), 0, "")
}

func (c *Conn) writeOK(header byte, affected, lastID uint64, status, warnings uint16, info string) error {
	b := make([]byte, 0, 16+len(info))
	b = append(b, header)
	b = appendLenEncInt(b, affected)
	b = appendLenEncInt(b, lastID)
	b = appendUint16(b, status)
	b = appendUint16(b, warnings)
	b = append(b, info...)
	return c.WritePacket(b)
}

// writeEOF writes an EOF packet, used between result-set parts by clients that
// did not negotiate CLIENT_DEPRECATE_EOF.
func (c *Conn) writeEOF(status, warnings uint16) error {
	b := []byte{headerEOF, 0, 0, 0, 0}
	b[1], b[2] = byte(warnings), byte(warnings>>8)
	b[3], b[4] = byte(status), byte(status>>8)
	return c.WritePacket(b)
}

// writeEnd terminates a result set: an OK packet with the EOF header under
// CLIENT_DEPRECATE_EOF, otherwise a classic EOF packet.
func (c *Conn) writeEnd(status, warnings uint16) error {
	if c.capabilities&ClientDeprecateEOF != 0 {
		return c.writeOK(headerEOF, 0, 0, status, warnings, "")
	}
	return c.writeEOF(status, warnings)
}
