package binlog

import (
	"encoding/binary"
	"fmt"
	"math"
)

// decoder reads a payload with bounds checks; the first error sticks and every
// later read returns zero values, so decode functions need no error plumbing.
type decoder struct {
	b   []byte
	err error
	// alias lets decoded values refer to b instead of a copy (the caller never
	// reuses the buffer); names, when set, shares repeated names between events.
	alias bool
	names *names
	// slab and rows, for a long-lived aliasing decoder (a Reader's), hand out the
	// row images and row lists of many events from shared chunks: one allocation
	// per chunk instead of two per event.
	slab []Value
	rows []RowChange
	// lazy (with alias) leaves rows events' row lists encoded (see RowsEvent.Load).
	lazy bool
	// keep is the map b comes from, if any: aliasing events hold it.
	keep *mapping
}

// Chunk sizes of a long-lived decoder's slabs.
const (
	valueChunk = 4096
	rowChunk   = 512
)

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.fail("need %d bytes, have %d", n, len(d.b))
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u8() uint8 {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if p := d.take(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a uvarint element count, rejecting counts that could not fit in
// the remaining bytes (each element takes at least minSize), so a corrupt
// count never drives a large allocation.
func (d *decoder) count(minSize int) int {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)/minSize) {
		d.fail("count %d exceeds remaining %d bytes", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)) {
		d.fail("length %d exceeds remaining %d bytes", n, len(d.b))
		return nil
	}
	return d.take(int(n))
}

func (d *decoder) str() string { return string(d.bytes()) }

// name reads a string that recurs from event to event (schema, table, column).
func (d *decoder) name() string {
	b := d.bytes()
	if d.names == nil {
		return string(b)
	}
	return d.names.intern(b)
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBytes(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendFloat(b []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}
