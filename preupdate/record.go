package preupdate

import (
	"encoding/binary"
	"math"

	"github.com/binlite/binlite/binlog"
)

// Change is one row change decoded from a recording. Old and New alias the recording.
type Change struct {
	Op       int
	Depth    int // 0: the statement's own change; more: a trigger's or a foreign key action's
	DB       string
	Table    string
	Old, New []binlog.Value
}

// Decode calls fn for every change in a recording, in order.
func Decode(b []byte, fn func(c *Change) error) error {
	d := decoder{b: b}
	var c Change
	for len(d.b) > 0 {
		c.Op = int(d.u8())
		c.Depth = int(d.u8())
		c.DB = d.str()
		c.Table = d.str()
		n := int(d.u32())
		if d.err != nil || n > len(d.b) {
			return errShort
		}
		c.Old, c.New = nil, nil
		if c.Op == OpDelete || c.Op == OpUpdate {
			c.Old = d.image(n)
		}
		if c.Op == OpInsert || c.Op == OpUpdate {
			c.New = d.image(n)
		}
		if d.err != nil {
			return d.err
		}
		if err := fn(&c); err != nil {
			return err
		}
	}
	return nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.err = errShort
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u8() byte {
	if p := d.take(1); p != nil {
		return p[0]
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

func (d *decoder) str() string { return string(d.take(int(d.u32()))) }

func (d *decoder) image(n int) []binlog.Value {
	img := make([]binlog.Value, n)
	for i := range img {
		switch d.u8() {
		case TypeInteger:
			img[i] = binlog.Value{Kind: binlog.KindInt, Int: int64(d.u64())}
		case TypeFloat:
			img[i] = binlog.Value{Kind: binlog.KindReal, Real: math.Float64frombits(d.u64())}
		case TypeText:
			img[i] = binlog.Value{Kind: binlog.KindText, Bytes: d.take(int(d.u32()))}
		case TypeBlob:
			img[i] = binlog.Value{Kind: binlog.KindBlob, Bytes: d.take(int(d.u32()))}
		case TypeNull:
			img[i] = binlog.Value{Kind: binlog.KindNull}
		default:
			d.err = errShort
		}
		if d.err != nil {
			return nil
		}
	}
	return img
}
