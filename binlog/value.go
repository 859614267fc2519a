package binlog

import (
	"encoding/binary"
	"math"
)

// Kind is a value's SQLite storage class.
type Kind uint8

// Storage classes; the numbers are the on-disk tags.
const (
	KindNull Kind = iota
	KindInt
	KindReal
	KindText
	KindBlob
)

// String names the storage class as the dump prints it.
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "NULL"
	case KindInt:
		return "INT"
	case KindReal:
		return "REAL"
	case KindText:
		return "TEXT"
	case KindBlob:
		return "BLOB"
	}
	return "KIND?"
}

// Value is one column value with its storage class. Text and Blob use Bytes.
// The zero Value is NULL.
type Value struct {
	Kind  Kind
	Int   int64
	Real  float64
	Bytes []byte
}

// Convenience constructors.
func NullValue() Value          { return Value{} }
func IntValue(v int64) Value    { return Value{Kind: KindInt, Int: v} }
func RealValue(v float64) Value { return Value{Kind: KindReal, Real: v} }
func TextValue(s string) Value  { return Value{Kind: KindText, Bytes: []byte(s)} }
func BlobValue(b []byte) Value  { return Value{Kind: KindBlob, Bytes: b} }

// Equal compares kind and content (reals bitwise, so NaN equals itself).
func (v Value) Equal(o Value) bool {
	if v.Kind != o.Kind {
		return false
	}
	switch v.Kind {
	case KindInt:
		return v.Int == o.Int
	case KindReal:
		return math.Float64bits(v.Real) == math.Float64bits(o.Real)
	case KindText, KindBlob:
		return string(v.Bytes) == string(o.Bytes)
	}
	return true
}

// ImagesEqual reports whether two row images hold the same values.
func ImagesEqual(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// appendValue writes tag byte + body: zigzag varint for ints, 8 bytes for
// reals, uvarint length + bytes for text/blob. Unknown kinds encode as NULL.
func appendValue(b []byte, v Value) []byte {
	switch v.Kind {
	case KindInt:
		return binary.AppendVarint(append(b, byte(KindInt)), v.Int)
	case KindReal:
		return appendFloat(append(b, byte(KindReal)), v.Real)
	case KindText, KindBlob:
		return appendBytes(append(b, byte(v.Kind)), v.Bytes)
	}
	return append(b, byte(KindNull))
}

// value decodes one value; Bytes alias the decoder's buffer, which the caller
// owns (DecodeEvent copies the payload once for rows events). It reads d.b directly
// rather than through u8, varint and bytes: a replica decodes eight values per
// updated row, and the calls were most of the cost.
func (d *decoder) value() Value {
	b := d.b
	if d.err != nil || len(b) == 0 {
		d.take(1) // records the shortage, unless an error already stuck
		return Value{}
	}
	k := Kind(b[0])
	b = b[1:]
	d.b = b
	switch k {
	case KindNull:
		return Value{}
	case KindInt:
		x, n := binary.Varint(b)
		if n <= 0 {
			d.fail("bad varint")
			return Value{}
		}
		d.b = b[n:]
		return Value{Kind: KindInt, Int: x}
	case KindReal:
		if len(b) < 8 {
			d.take(8)
			return Value{}
		}
		d.b = b[8:]
		return Value{Kind: KindReal, Real: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	case KindText, KindBlob:
		l, n := binary.Uvarint(b)
		if n <= 0 {
			d.fail("bad uvarint")
			return Value{}
		}
		b = b[n:]
		if l > uint64(len(b)) {
			d.fail("length %d exceeds remaining %d bytes", l, len(b))
			return Value{}
		}
		d.b = b[l:]
		// b is never nil here, so empty text stays distinguishable from nothing.
		return Value{Kind: k, Bytes: b[:l]}
	default:
		d.fail("unknown value kind %d", k)
		return Value{}
	}
}
