package binlog

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

const (
	// HeaderLen is the fixed event header: length u32, type u8, flags u8,
	// timestamp u32, server_id u32.
	HeaderLen = 14
	// ChecksumLen is the trailing CRC32C.
	ChecksumLen = 4
	// MinEventLen is the smallest valid event (empty payload).
	MinEventLen = HeaderLen + ChecksumLen
	// MaxEventLen bounds an event so a corrupt length never drives a huge allocation.
	MaxEventLen = 1 << 30
	// Magic opens every binlog file.
	Magic = "\xfebin"
	// FirstEventPos is where the first event (Format_description) starts.
	FirstEventPos = int64(len(Magic))
)

// castagnoli is read-only after initialization.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// EventHeader is an event's fixed header plus where the event sits.
type EventHeader struct {
	Length    uint32
	Type      EventType
	Flags     uint8
	Timestamp uint32 // unix seconds
	ServerID  uint32
	CRC       uint32
	File      string // set by readers
	Pos       int64  // offset of the event's first byte
	EndPos    int64  // offset just past the checksum (MySQL's end_log_pos)
}

// AppendEvent appends one framed event (header, payload, CRC32C) to dst.
// It allocates only if dst must grow.
func AppendEvent(dst []byte, ev Event, timestamp, serverID uint32) []byte {
	start := len(dst)
	dst = appendHeader(dst, ev.Type(), timestamp, serverID)
	return finishEvent(ev.appendPayload(dst), start)
}

// appendHeader starts an event at len(dst); finishEvent(dst, start) completes it once
// the payload follows. Callers that know the event's type use the pair directly, so the
// event need not escape to the heap as an Event.
func appendHeader(dst []byte, t EventType, timestamp, serverID uint32) []byte {
	dst = append(dst, 0, 0, 0, 0, byte(t), 0)
	dst = binary.LittleEndian.AppendUint32(dst, timestamp)
	return binary.LittleEndian.AppendUint32(dst, serverID)
}

func finishEvent(dst []byte, start int) []byte {
	n := len(dst) - start + ChecksumLen
	binary.LittleEndian.PutUint32(dst[start:], uint32(n))
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// peekLength validates the length field at the start of b.
func peekLength(b []byte) (uint32, error) {
	if len(b) < 4 {
		return 0, ErrTruncated
	}
	n := binary.LittleEndian.Uint32(b)
	if n < MinEventLen || n > MaxEventLen {
		return 0, fmt.Errorf("%w: length %d outside %d..%d", ErrCorrupt, n, MinEventLen, MaxEventLen)
	}
	return n, nil
}

// DecodeEvent decodes the event at the start of b (b may hold more bytes
// after it). The returned header's EndPos is the event length; Pos is 0.
// The event does not alias b.
func DecodeEvent(b []byte) (EventHeader, Event, error) {
	return decodeEvent(b, &decoder{})
}

// decodeEvent is DecodeEvent with a decoder the caller may reuse (it escapes through
// the events' decode methods, so one per reader saves an allocation per event): with
// d.alias the event may refer to b (the caller never changes it), and d.names shares
// recurring names between the events of one reader.
func decodeEvent(b []byte, d *decoder) (EventHeader, Event, error) {
	n, err := peekLength(b)
	if err != nil {
		return EventHeader{}, nil, err
	}
	if uint64(n) > uint64(len(b)) {
		if len(b) >= HeaderLen && !EventType(b[4]).known() {
			return EventHeader{}, nil, fmt.Errorf("%w: unknown event type %d", ErrCorrupt, b[4])
		}
		return EventHeader{}, nil, fmt.Errorf("%w: need %d bytes, have %d", ErrTruncated, n, len(b))
	}
	b = b[:n]
	h := EventHeader{
		Length:    n,
		Type:      EventType(b[4]),
		Flags:     b[5],
		Timestamp: binary.LittleEndian.Uint32(b[6:]),
		ServerID:  binary.LittleEndian.Uint32(b[10:]),
		CRC:       binary.LittleEndian.Uint32(b[n-4:]),
		EndPos:    int64(n),
	}
	if got := crc32.Checksum(b[:n-4], castagnoli); got != h.CRC {
		return h, nil, fmt.Errorf("%w: checksum 0x%08x, stored 0x%08x", ErrCorrupt, got, h.CRC)
	}
	ev := h.Type.newEvent()
	if ev == nil {
		return h, nil, fmt.Errorf("%w: unknown event type %d", ErrCorrupt, h.Type)
	}
	d.b, d.err = b[HeaderLen:n-4], nil
	ev.decodePayload(d)
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing payload bytes", len(d.b))
	}
	if d.err != nil {
		return h, nil, fmt.Errorf("%w: %s payload: %v", ErrCorrupt, h.Type, d.err)
	}
	if re, ok := ev.(*RowsEvent); ok && d.alias {
		re.frame, re.keep = b[:n:n], d.keep
	}
	return h, ev, nil
}
