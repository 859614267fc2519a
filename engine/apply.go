package engine

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// ErKeyNotFound is MySQL's HA_ERR_KEY_NOT_FOUND as replicas report it (1032).
const ErKeyNotFound uint16 = 1032

// ErRelayLogRead is ER_REPLICA_RELAY_LOG_READ_FAILURE (1594): an event that cannot be
// decoded.
const ErRelayLogRead uint16 = 1594

// applyCache keeps the INSERT/UPDATE/DELETE text for each table shape and the
// statements prepared from it, so applying a stream of row events builds no SQL and
// binds straight into prepared statements. DDL resets it (tables may change shape).
// Statements run through sqlitec on the writer's own connection: one call into C per
// row, with the arguments in C memory, instead of the driver's call per argument.
type applyCache struct {
	c      *sqlitec.Conn // the writer connection's handle and argument list
	shapes map[applyKey]*applyStmts
	last   *applyStmts // of lastKey: consecutive events mostly share a table
	lastK  applyKey
	stmts  []*sqlitec.Stmt  // every statement prepared, for reset
	rows   binlog.RowBuffer // reused for every deferred rows event
	// table finds the catalog entry of a table the rows go into (nil: none), whose
	// wideState learns of the values written (wide.go).
	table func(name string) *Table
}

type applyKey struct {
	table string
	cols  int
	pk    int
}

type applyStmts struct {
	ins, del applySQL
	upd      map[uint64]*applySQL // by the set of changed columns (bit i = column i)
}

// applySQL is one statement's text and, once used, its prepared statement.
type applySQL struct {
	q  string
	st *sqlitec.Stmt
}

func (ac *applyCache) get(ev *binlog.RowsEvent) *applyStmts {
	k := applyKey{ev.Table, len(ev.Columns), len(ev.PK)}
	if ac.last != nil && ac.lastK == k {
		return ac.last
	}
	if ac.shapes == nil {
		ac.shapes = map[applyKey]*applyStmts{}
	}
	st := ac.shapes[k]
	if st == nil {
		st = &applyStmts{}
		ac.shapes[k] = st
	}
	ac.last, ac.lastK = st, k
	return st
}

// reset closes the prepared statements and forgets every shape.
func (ac *applyCache) reset() {
	for _, st := range ac.stmts {
		st.Close()
	}
	ac.shapes, ac.stmts, ac.last = nil, nil, nil
}

// close releases the statements and the argument list.
func (ac *applyCache) close() {
	ac.reset()
	if ac.c != nil {
		ac.c.Close()
	}
}

// exec runs s (preparing it the first time) with the arguments collected in ac.c and
// returns the number of rows it changed.
func (ac *applyCache) exec(s *applySQL) (int64, error) {
	if s.st == nil {
		st, err := ac.c.Prepare(s.q)
		if err != nil {
			return 0, err
		}
		ac.stmts = append(ac.stmts, st)
		s.st = st
	}
	return s.st.Exec()
}

// arg adds v as the next argument, with its storage class.
func (ac *applyCache) arg(v binlog.Value) {
	switch v.Kind {
	case binlog.KindInt:
		ac.c.Int(v.Int)
	case binlog.KindReal:
		ac.c.Real(v.Real)
	case binlog.KindText:
		ac.c.Text(v.Bytes)
	case binlog.KindBlob:
		ac.c.Blob(v.Bytes)
	default:
		ac.c.Null()
	}
}

// keyArgs adds the arguments that locate the row of before (see keyWhere).
func (ac *applyCache) keyArgs(ev *binlog.RowsEvent, before []binlog.Value) {
	if len(ev.PK) == 0 {
		for _, v := range before {
			ac.arg(v)
		}
		return
	}
	for _, k := range ev.PK {
		ac.arg(before[k])
	}
}

// applyRows replays one captured rows event on a schema's writer connection: the
// replica applier and start-up recovery both come here. Rows are located by primary
// key, or by the whole before image when the table has none.
func (ac *applyCache) applyRows(ev *binlog.RowsEvent) error {
	rows, err := ev.Load(&ac.rows)
	if err != nil {
		return mysqlerr.New(ErRelayLogRead, "Relay log read failure: Could not parse relay log event entry. %v", err)
	}
	cached := ac.get(ev)
	for i := range rows {
		r := &rows[i]
		var q *applySQL
		ac.c.ResetArgs()
		switch r.Op {
		case binlog.OpInsert:
			ac.noteWide(ev.Table, r.After)
			if cached.ins.q == "" {
				cached.ins.q = insertSQL(ev)
			}
			q = &cached.ins
			for _, v := range r.After {
				ac.arg(v)
			}
		case binlog.OpUpdate:
			// Only the columns that changed: rewriting an unchanged rowid or indexed
			// column would make SQLite move the row or its index entries.
			mask, all := changedColumns(r.Before, r.After)
			if mask == 0 && !all {
				continue
			}
			if all {
				mask = ^uint64(0)
			}
			ac.noteWide(ev.Table, r.After)
			if cached.upd == nil {
				cached.upd = map[uint64]*applySQL{}
			}
			if q = cached.upd[mask]; q == nil {
				q = &applySQL{q: updateSQL(ev, mask)}
				cached.upd[mask] = q
			}
			for i, v := range r.After {
				if mask&(1<<uint(i)) != 0 || i >= 64 {
					ac.arg(v)
				}
			}
			ac.keyArgs(ev, r.Before)
		case binlog.OpDelete:
			if cached.del.q == "" {
				cached.del.q = "DELETE FROM " + quoteIdent(ev.Table) + " WHERE " + keyWhere(ev)
			}
			q = &cached.del
			ac.keyArgs(ev, r.Before)
		default:
			return fmt.Errorf("engine: apply %s.%s: unknown row operation %d", ev.Schema, ev.Table, r.Op)
		}
		n, err := ac.exec(q)
		if err != nil {
			me, _ := mysqlerr.As(translateError(err, ev.Schema))
			return mysqlerr.New(me.Code, "Could not execute %s rows event on table %s.%s; %s", opName(r.Op), ev.Schema, ev.Table, me.Message)
		}
		if r.Op != binlog.OpInsert {
			if n != 1 {
				return mysqlerr.New(ErKeyNotFound, "Could not execute %s rows event on table %s.%s; Can't find record in '%s'", opName(r.Op), ev.Schema, ev.Table, ev.Table)
			}
		}
	}
	runtime.KeepAlive(ev) // the rows' bytes may be the event's file map
	return nil
}

func opName(op binlog.Op) string {
	switch op {
	case binlog.OpUpdate:
		return "Update"
	case binlog.OpDelete:
		return "Delete"
	}
	return "Write"
}

func insertSQL(ev *binlog.RowsEvent) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(quoteIdent(ev.Table))
	b.WriteString(" (")
	for i, c := range ev.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(c))
	}
	b.WriteString(") VALUES (")
	b.WriteString(strings.TrimSuffix(strings.Repeat("?, ", len(ev.Columns)), ", "))
	b.WriteString(")")
	return b.String()
}

// changedColumns returns a bitmask of the columns whose value differs; all is set
// when a column beyond the 64th changed (then every column is written).
func changedColumns(before, after []binlog.Value) (mask uint64, all bool) {
	for i := range after {
		if i < len(before) && before[i].Equal(after[i]) {
			continue
		}
		if i >= 64 {
			return 0, true
		}
		mask |= 1 << uint(i)
	}
	return mask, false
}

func updateSQL(ev *binlog.RowsEvent, mask uint64) string {
	var b strings.Builder
	b.WriteString("UPDATE ")
	b.WriteString(quoteIdent(ev.Table))
	b.WriteString(" SET ")
	n := 0
	for i, c := range ev.Columns {
		if i < 64 && mask&(1<<uint(i)) == 0 {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(quoteIdent(c))
		b.WriteString(" = ?")
	}
	b.WriteString(" WHERE ")
	b.WriteString(keyWhere(ev))
	return b.String()
}

// keyWhere locates a row by primary key; without one, by the full before image (the
// first matching row, as MySQL does for tables without a key).
func keyWhere(ev *binlog.RowsEvent) string {
	var b strings.Builder
	if len(ev.PK) > 0 {
		for i, k := range ev.PK {
			if i > 0 {
				b.WriteString(" AND ")
			}
			b.WriteString(quoteIdent(ev.Columns[k]))
			b.WriteString(" = ?")
		}
		return b.String()
	}
	b.WriteString("rowid = (SELECT rowid FROM ")
	b.WriteString(quoteIdent(ev.Table))
	b.WriteString(" WHERE ")
	for i, c := range ev.Columns {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(quoteIdent(c))
		b.WriteString(" IS ?")
	}
	b.WriteString(" LIMIT 1)")
	return b.String()
}

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
