package mysqlproto

import (
	"fmt"
	"io"

	"github.com/binlite/binlite/mysqlerr"
)

// Side packets travel outside the current command exchange: a semi-sync replica's
// acknowledgements, sent while its source streams the binary log. They do not take
// part in sequence numbering, so reading them on one goroutine while another writes
// the stream (or writing them between reads of the stream) disturbs neither.

// ReadSidePacket reads one packet of at most max bytes without checking or advancing
// the sequence id. Only one goroutine may read the connection.
func (c *Conn) ReadSidePacket(max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
		return nil, fmt.Errorf("read packet header: %w", err)
	}
	n := int(uint32(hdr[0]) | uint32(hdr[1])<<8 | uint32(hdr[2])<<16)
	if n > max {
		return nil, mysqlerr.New(mysqlerr.ErNetPacketTooLarge, "Got a packet bigger than %d bytes", max)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(c.r, p); err != nil {
		return nil, fmt.Errorf("read packet payload: %w", err)
	}
	return p, nil
}

// WriteSidePacket writes and flushes one packet with sequence id 0, leaving the
// exchange's sequence id as it was. Only one goroutine may write the connection.
func (c *Conn) WriteSidePacket(payload []byte) error {
	if len(payload) >= maxPacketChunk {
		return fmt.Errorf("side packet of %d bytes is too large", len(payload))
	}
	n := len(payload)
	hdr := [4]byte{byte(n), byte(n >> 8), byte(n >> 16), 0}
	if _, err := c.w.Write(hdr[:]); err != nil {
		return fmt.Errorf("write packet header: %w", err)
	}
	if _, err := c.w.Write(payload); err != nil {
		return fmt.Errorf("write packet payload: %w", err)
	}
	return c.Flush()
}
