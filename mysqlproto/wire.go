package mysqlproto

import (
	"encoding/binary"
	"errors"
)

// errShort is the sticky decode error of a reader that ran past its payload.
var errShort = errors.New("payload too short")

// appendLenEncInt appends a length-encoded integer.
func appendLenEncInt(b []byte, n uint64) []byte {
	switch {
	case n < 251:
		return append(b, byte(n))
	case n < 1<<16:
		return append(b, 0xfc, byte(n), byte(n>>8))
	case n < 1<<24:
		return append(b, 0xfd, byte(n), byte(n>>8), byte(n>>16))
	default:
		b = append(b, 0xfe)
		return binary.LittleEndian.AppendUint64(b, n)
	}
}

// appendLenEncString appends a length-encoded string.
func appendLenEncString(b []byte, s string) []byte {
	b = appendLenEncInt(b, uint64(len(s)))
	return append(b, s...)
}

func appendLenEncBytes(b []byte, s []byte) []byte {
	b = appendLenEncInt(b, uint64(len(s)))
	return append(b, s...)
}

func appendUint16(b []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(b, v) }
func appendUint32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }
func appendUint64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// reader decodes a payload with bounds checks; the first failure sticks in err so
// that callers can decode a whole structure and check once.
type reader struct {
	buf []byte
	pos int
	err error
}

func (r *reader) remaining() int { return len(r.buf) - r.pos }

func (r *reader) fail() {
	if r.err == nil {
		r.err = errShort
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > r.remaining() {
		r.fail()
		return nil
	}
	b := r.buf[r.pos : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) byte1() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *reader) uint16() uint16 {
	b := r.bytes(2)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

func (r *reader) uint24() uint32 {
	b := r.bytes(3)
	if b == nil {
		return 0
	}
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
}

func (r *reader) uint32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *reader) uint64() uint64 {
	b := r.bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// lenEncInt reads a length-encoded integer; the NULL marker 0xfb is an error here.
func (r *reader) lenEncInt() uint64 {
	switch first := r.byte1(); {
	case r.err != nil:
		return 0
	case first < 0xfb:
		return uint64(first)
	case first == 0xfc:
		return uint64(r.uint16())
	case first == 0xfd:
		return uint64(r.uint24())
	case first == 0xfe:
		return r.uint64()
	default:
		r.fail()
		return 0
	}
}

// lenEncBytes reads a length-encoded string without copying.
func (r *reader) lenEncBytes() []byte {
	n := r.lenEncInt()
	if r.err != nil {
		return nil
	}
	if n > uint64(r.remaining()) {
		r.fail()
		return nil
	}
	return r.bytes(int(n))
}

// nulString reads a NUL-terminated string; a missing terminator takes the rest.
func (r *reader) nulString() string {
	if r.err != nil {
		return ""
	}
	rest := r.buf[r.pos:]
	for i, c := range rest {
		if c == 0 {
			r.pos += i + 1
			return string(rest[:i])
		}
	}
	r.pos = len(r.buf)
	return string(rest)
}

// rest returns the unread remainder.
func (r *reader) rest() []byte {
	if r.err != nil {
		return nil
	}
	b := r.buf[r.pos:]
	r.pos = len(r.buf)
	return b
}
