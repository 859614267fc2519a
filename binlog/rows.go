package binlog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
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

	// raw is the payload a decoded event came from: encoding it again (a replica's
	// relay log and its own binary log) copies these bytes instead. Decoded events
	// are never modified; code that builds events leaves raw nil.
	raw []byte
	// frame is the whole event (header, payload, checksum) when the decoder aliased
	// a file that is never rewritten (a relay log): written with the same server
	// id it is copied as is, keeping the source's timestamp as MySQL does for a
	// replica's own binary log, and its checksum need not be computed again.
	frame []byte
	// rows is the encoded row list of nrows changes when a deferring Reader read the
	// event (Rows is then empty until Load).
	rows  []byte
	nrows int
	// keep holds the file map that raw, frame, rows and the values refer to, when
	// the event was read from one: the map lives as long as the event.
	keep *mapping
}

// appendFrame appends the event's original frame when it can stand unchanged for
// an event from serverID; false means the caller encodes the event.
func (e *RowsEvent) appendFrame(b []byte, serverID uint32) ([]byte, bool) {
	if len(e.frame) < HeaderLen || binary.LittleEndian.Uint32(e.frame[10:]) != serverID {
		return b, false
	}
	return append(b, e.frame...), true
}

func (*RowsEvent) Type() EventType { return TypeRows }

func (e *RowsEvent) appendPayload(b []byte) []byte {
	if e.raw != nil {
		return append(b, e.raw...)
	}
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
	if e.rows != nil {
		return append(b, e.rows...) // still encoded (a deferring Reader): count and rows
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
	if !d.alias {
		// One copy of the payload backs every Bytes value, instead of one
		// allocation per text/blob.
		d.b = bytes.Clone(d.b)
	}
	payload := d.b
	e.decodeHead(d)
	if d.lazy && d.alias && d.err == nil {
		// Keep the row list encoded: Load decodes it where it is applied.
		rest := d.b
		if e.nrows = d.count(2); d.err == nil {
			e.rows, d.b = rest, nil
		}
	} else if n := d.count(2); n > 0 {
		var slab []Value
		if d.alias {
			e.Rows = d.takeRows(n)
			slab = d.slab
			defer func() { d.slab = slab }()
		} else {
			e.Rows = make([]RowChange, n)
			// Every image of the event comes from one slab.
			slab = make([]Value, 0, min(2*n*max(len(e.Columns), 1), len(d.b)))
		}
		d.rowList(e.Rows, &slab)
	}
	if d.err == nil {
		n := len(payload) - len(d.b)
		e.raw = payload[:n:n]
	}
}

// rowList reads len(rows) row changes, their images from slab.
func (d *decoder) rowList(rows []RowChange, slab *[]Value) {
	for i := range rows {
		r := &rows[i]
		r.Op = Op(d.u8())
		switch r.Op {
		case OpInsert:
			r.After = d.imageFrom(slab)
		case OpUpdate:
			r.Before = d.imageFrom(slab)
			r.After = d.imageFrom(slab)
		case OpDelete:
			r.Before = d.imageFrom(slab)
		default:
			d.fail("unknown row op %d", r.Op)
		}
		if d.err != nil {
			return
		}
	}
}

// InSchema returns a copy of e that belongs to schema (a replica's
// REPLICATE_REWRITE_DB): it is encoded anew, its rows as they are.
func (e *RowsEvent) InSchema(schema string) *RowsEvent {
	c := *e
	c.Schema, c.raw, c.frame = schema, nil, nil
	return &c
}

// RowCount is the number of row changes, decoded or not.
func (e *RowsEvent) RowCount() int {
	if e.rows != nil {
		return e.nrows
	}
	return len(e.Rows)
}

// RowBuffer is memory that Load reuses from one event to the next.
type RowBuffer struct {
	rows []RowChange
	vals []Value
}

// Load returns the event's row changes. Events read by a Reader that defers rows
// (DeferRows) decode them now, into buf: they stay valid until buf is used again,
// and refer to the reader's memory like every aliased event, so the caller keeps e
// reachable while it uses them. Other events return Rows. A malformed row list is
// ErrCorrupt.
func (e *RowsEvent) Load(buf *RowBuffer) ([]RowChange, error) {
	if e.rows == nil {
		return e.Rows, nil
	}
	d := decoder{b: e.rows, alias: true}
	n := d.count(2)
	if d.err == nil {
		buf.rows = slices.Grow(buf.rows[:0], n)[:n]
		clear(buf.rows)
		slab := slices.Grow(buf.vals[:0], 2*n*max(len(e.Columns), 1))
		d.rowList(buf.rows, &slab)
		if cap(slab) > cap(buf.vals) {
			buf.vals = slab[:0]
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing payload bytes", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: rows of %s.%s: %v", ErrCorrupt, e.Schema, e.Table, d.err)
	}
	return buf.rows, nil
}

// decodeHead reads schema, table, columns and primary key, shared with earlier events
// of the same shape when the decoder keeps names.
func (e *RowsEvent) decodeHead(d *decoder) {
	var key []byte
	if d.names != nil && d.err == nil {
		if n := rowsHeadLen(d.b); n > 0 {
			key = d.b[:n]
			if h, ok := d.names.heads[string(key)]; ok {
				e.Schema, e.Table, e.Columns, e.PK = h.schema, h.table, h.cols, h.pk
				d.b = d.b[n:]
				return
			}
		}
	}
	e.Schema = d.name()
	e.Table = d.name()
	if n := d.count(1); n > 0 {
		e.Columns = make([]string, n)
		for i := range e.Columns {
			e.Columns[i] = d.name()
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
	if key != nil && d.err == nil {
		if d.names.heads == nil || len(d.names.heads) >= maxNames {
			d.names.heads = make(map[string]rowsHead)
		}
		d.names.heads[string(key)] = rowsHead{e.Schema, e.Table, e.Columns, e.PK}
	}
}

// takeRows returns n zeroed row changes from the decoder's shared chunk.
func (d *decoder) takeRows(n int) []RowChange {
	if cap(d.rows)-len(d.rows) < n {
		d.rows = make([]RowChange, 0, max(n, rowChunk))
	}
	start := len(d.rows)
	d.rows = d.rows[:start+n]
	return d.rows[start : start+n : start+n]
}

// imageFrom reads an image into the slab (a fresh one when it is full).
func (d *decoder) imageFrom(slab *[]Value) []Value {
	n := d.count(1)
	if d.err != nil {
		return nil
	}
	if cap(*slab)-len(*slab) < n {
		size := 16
		if d.alias {
			size = valueChunk
		}
		*slab = make([]Value, 0, max(n, size))
	}
	start := len(*slab)
	for i := 0; i < n && d.err == nil; i++ {
		*slab = append(*slab, d.value())
	}
	end := len(*slab)
	return (*slab)[start:end:end]
}
