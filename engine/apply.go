package engine

import (
	"fmt"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
)

// ErKeyNotFound is MySQL's HA_ERR_KEY_NOT_FOUND as replicas report it (1032).
const ErKeyNotFound uint16 = 1032

// applyCache keeps the INSERT/UPDATE/DELETE text for each table shape, so applying a
// stream of row events builds no SQL.
type applyCache map[applyKey]*applyStmts

type applyKey struct {
	table string
	cols  int
	pk    int
}

type applyStmts struct {
	ins, del string
	upd      map[uint64]string // by the set of changed columns (bit i = column i)
}

func (ac *applyCache) get(ev *binlog.RowsEvent) *applyStmts {
	if *ac == nil {
		*ac = applyCache{}
	}
	k := applyKey{ev.Table, len(ev.Columns), len(ev.PK)}
	if st := (*ac)[k]; st != nil {
		return st
	}
	st := &applyStmts{}
	(*ac)[k] = st
	return st
}

// applyRows replays one captured rows event on a schema's writer connection: the
// replica applier and start-up recovery both come here. Rows are located by primary
// key, or by the whole before image when the table has none.
func (ac *applyCache) applyRows(c *sqliteConn, ev *binlog.RowsEvent) error {
	cached := ac.get(ev)
	ins, del := cached.ins, cached.del
	defer func() { cached.ins, cached.del = ins, del }()
	for i := range ev.Rows {
		r := &ev.Rows[i]
		var (
			q    string
			args []any
		)
		switch r.Op {
		case binlog.OpInsert:
			if ins == "" {
				ins = insertSQL(ev)
			}
			q, args = ins, values(r.After)
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
			if cached.upd == nil {
				cached.upd = map[uint64]string{}
			}
			if q = cached.upd[mask]; q == "" {
				q = updateSQL(ev, mask)
				cached.upd[mask] = q
			}
			args = make([]any, 0, len(r.After)+len(ev.PK))
			for i, v := range r.After {
				if mask&(1<<uint(i)) != 0 || i >= 64 {
					args = append(args, fromValue(v))
				}
			}
			args = append(args, keyArgs(ev, r.Before)...)
		case binlog.OpDelete:
			if del == "" {
				del = "DELETE FROM " + quoteIdent(ev.Table) + " WHERE " + keyWhere(ev)
			}
			q, args = del, keyArgs(ev, r.Before)
		default:
			return fmt.Errorf("engine: apply %s.%s: unknown row operation %d", ev.Schema, ev.Table, r.Op)
		}
		res, err := c.exec(q, args...)
		if err != nil {
			me, _ := mysqlerr.As(translateError(err, ev.Schema))
			return mysqlerr.New(me.Code, "Could not execute %s rows event on table %s.%s; %s", opName(r.Op), ev.Schema, ev.Table, me.Message)
		}
		if r.Op != binlog.OpInsert {
			if n, _ := res.RowsAffected(); n != 1 {
				return mysqlerr.New(ErKeyNotFound, "Could not execute %s rows event on table %s.%s; Can't find record in '%s'", opName(r.Op), ev.Schema, ev.Table, ev.Table)
			}
		}
	}
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

func values(img []binlog.Value) []any {
	out := make([]any, len(img))
	for i, v := range img {
		out[i] = fromValue(v)
	}
	return out
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

func keyArgs(ev *binlog.RowsEvent, before []binlog.Value) []any {
	if len(ev.PK) == 0 {
		return values(before)
	}
	out := make([]any, len(ev.PK))
	for i, k := range ev.PK {
		out[i] = fromValue(before[k])
	}
	return out
}

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
