package engine

import (
	"fmt"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
)

// capture turns SQLite preupdate callbacks into binlog row events. It belongs to one
// writer connection; whoever currently drives that connection (the writer goroutine
// or a session holding a lease) points events at its own buffer.
type capture struct {
	schema string
	cat    catalog
	events *[]binlog.Event
	// floor is len(*events) when the current statement started: rows are merged only
	// into events of this statement, so undoing a statement or a savepoint is cutting
	// the slice back to a length taken between statements.
	floor int
	err   error // first capture failure of the current statement
}

// begin points capture at evs for one statement.
func (cp *capture) begin(evs *[]binlog.Event) {
	cp.events, cp.floor, cp.err = evs, len(*evs), nil
}

func (cp *capture) hook(d sqlite3.SQLitePreUpdateData) {
	if cp.events == nil || isInternalTable(d.TableName) {
		return
	}
	if d.DatabaseName != "main" {
		if cp.err == nil {
			cp.err = mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'writing to schema %s from a statement running in schema %s'", d.DatabaseName, cp.schema)
		}
		return
	}
	t := cp.cat[d.TableName]
	if t == nil || d.Count() != len(t.Columns) {
		if cp.err == nil {
			cp.err = fmt.Errorf("engine: row capture: table %s.%s not in catalog", cp.schema, d.TableName)
		}
		return
	}
	rc := binlog.RowChange{}
	switch d.Op {
	case sqlite3.SQLITE_INSERT:
		rc.Op = binlog.OpInsert
	case sqlite3.SQLITE_UPDATE:
		rc.Op = binlog.OpUpdate
	case sqlite3.SQLITE_DELETE:
		rc.Op = binlog.OpDelete
	default:
		return
	}
	if rc.Op != binlog.OpInsert {
		rc.Before = cp.image(t, d.Old)
	}
	if rc.Op != binlog.OpDelete {
		rc.After = cp.image(t, d.New)
	}
	evs := *cp.events
	if n := len(evs); n > cp.floor {
		if re, ok := evs[n-1].(*binlog.RowsEvent); ok && re.Table == t.Name && len(re.Columns) == len(t.Columns) {
			re.Rows = append(re.Rows, rc)
			return
		}
	}
	*cp.events = append(evs, &binlog.RowsEvent{
		Schema:  cp.schema,
		Table:   t.Name,
		Columns: t.names,
		PK:      t.PK,
		Rows:    []binlog.RowChange{rc},
	})
}

func (cp *capture) image(t *Table, read func(dest ...any) error) []binlog.Value {
	raw := make([]any, len(t.Columns))
	if err := read(raw...); err != nil {
		if cp.err == nil {
			cp.err = fmt.Errorf("engine: row capture %s.%s: %w", cp.schema, t.Name, err)
		}
		return nil
	}
	img := make([]binlog.Value, len(raw))
	for i, v := range raw {
		img[i] = toValue(v, t.Columns[i].aff)
	}
	return img
}

// toValue keeps SQLite's storage class. The hook hands TEXT and BLOB both as bytes, so
// the column's affinity decides: a BLOB-affinity column keeps bytes as BLOB, any other
// affinity as TEXT (SQLite converts text-like values into those columns as TEXT).
func toValue(v any, aff affinity) binlog.Value {
	switch x := v.(type) {
	case nil:
		return binlog.Value{Kind: binlog.KindNull}
	case int64:
		return binlog.Value{Kind: binlog.KindInt, Int: x}
	case float64:
		return binlog.Value{Kind: binlog.KindReal, Real: x}
	case []byte:
		if aff == affBlob {
			return binlog.Value{Kind: binlog.KindBlob, Bytes: x}
		}
		return binlog.Value{Kind: binlog.KindText, Bytes: x}
	case string:
		return binlog.Value{Kind: binlog.KindText, Bytes: []byte(x)}
	case bool:
		if x {
			return binlog.Value{Kind: binlog.KindInt, Int: 1}
		}
		return binlog.Value{Kind: binlog.KindInt, Int: 0}
	}
	return binlog.Value{Kind: binlog.KindText, Bytes: []byte(fmt.Sprint(v))}
}

// fromValue is the inverse, for binding captured values on apply.
func fromValue(v binlog.Value) any {
	switch v.Kind {
	case binlog.KindInt:
		return v.Int
	case binlog.KindReal:
		return v.Real
	case binlog.KindText:
		return string(v.Bytes)
	case binlog.KindBlob:
		if v.Bytes == nil {
			return []byte{}
		}
		return v.Bytes
	}
	return nil
}
