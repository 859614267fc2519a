package binlog

import (
	"bytes"
	"encoding/binary"
)

// Op is a row change's kind.
type Op uint8

// Row operations; the numbers are on disk.
const (
	OpInsert Op = 1
	OpUpdate Op = 2
	OpDelete Op = 3
)

// String names the operation as SQL does.
func (o Op) String() string {
	switch o {
	case OpInsert:
		return "INSERT"
	case OpUpdate:
		return "UPDATE"
	case OpDelete:
		return "DELETE"
	}
	return "OP?"
}

// RowChange is one row's before and after image. Before is nil for inserts
// and After is nil for deletes; the encoder ignores the image an op lacks.
type RowChange struct {
	Op     Op
	Before []Value
	After  []Value
}

// RowsEvent carries row changes of one table.
type RowsEvent struct {
	Schema, Table string
	Columns       []string
	PK            []int // indexes into Columns of the primary key, may be empty
	Rows          []RowChange
}

func (*RowsEvent) Type() EventType { return TypeRows }

func (e *RowsEvent) appendPayload(b []byte) []byte {
	b = appendStr(b, e.Schema)
	b = appendStr(b, e.Table)
	b = binary.AppendUvarint(b, uint64(len(e.Columns)))
	for _, c := range e.Columns {
		b = appendStr(b, c)
	}
	b = binary.AppendUvarint(b, uint64(len(e.PK)))
	for _, k := range e.PK {
		b = binary.AppendUvarint(b, uint64(k))
	}
	b = binary.AppendUvarint(b, uint64(len(e.Rows)))
	for i := range e.Rows {
		r := &e.Rows[i]
		b = append(b, byte(r.Op))
		if r.Op != OpInsert {
			b = appendImage(b, r.Before)
		}
		if r.Op != OpDelete {
			b = appendImage(b, r.After)
		}
	}
	return b
}

func appendImage(b []byte, img []Value) []byte {
	b = binary.AppendUvarint(b, uint64(len(img)))
	for _, v := range img {
		b = appendValue(b, v)
	}
	return b
}

func (e *RowsEvent) decodePayload(d *decoder) {
	// One copy of the payload backs every Bytes value, instead of one
	// allocation per text/blob.
	d.b = bytes.Clone(d.b)
	e.Schema = d.str()
	e.Table = d.str()
	if n := d.count(1); n > 0 {
		e.Columns = make([]string, n)
		for i := range e.Columns {
			e.Columns[i] = d.str()
		}
	}
	if n := d.count(1); n > 0 {
		e.PK = make([]int, n)
		for i := range e.PK {
			k := d.uvarint()
			if d.err == nil && k >= uint64(len(e.Columns)) {
				d.fail("primary key column %d of %d", k, len(e.Columns))
			}
			e.PK[i] = int(k)
		}
	}
	if n := d.count(2); n > 0 {
		e.Rows = make([]RowChange, n)
		for i := range e.Rows {
			r := &e.Rows[i]
			r.Op = Op(d.u8())
			switch r.Op {
			case OpInsert:
				r.After = d.image()
			case OpUpdate:
				r.Before = d.image()
				r.After = d.image()
			case OpDelete:
				r.Before = d.image()
			default:
				d.fail("unknown row op %d", r.Op)
			}
			if d.err != nil {
				return
			}
		}
	}
}

func (d *decoder) image() []Value {
	n := d.count(1)
	if d.err != nil {
		return nil
	}
	img := make([]Value, n)
	for i := range img {
		img[i] = d.value()
	}
	return img
}
