package session

import (
	"math"

	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
)

// writeStmt is the engine's statement for a translated write: an INSERT or REPLACE
// into a table with an AUTO_INCREMENT column has its values handed out by the
// engine (engine.AutoInc), and foreign_key_checks=0 goes along.
func (s *Session) writeStmt(q *sqlcompat.Query, db string, args []any) engine.Stmt {
	st := engine.Stmt{SQL: q.SQLite, Args: args, Upsert: q.Kind == sqlcompat.Insert || q.Kind == sqlcompat.Replace,
		NoFKChecks: s.vars.Int("foreign_key_checks") == 0, Then: q.Then, EachRow: q.EachRow, RowsApart: q.RowsApart,
		Tables: q.Tables}
	// What the row locks of concurrent transactions may rely on: an IGNORE write
	// leaves out a row that meets another transaction's uncommitted key without
	// touching it, so it counts as reading the whole table.
	ignores := q.IgnoreDuplicates || q.CountsRows || q.RowsApart
	st.Values = q.ValuesOnly && len(q.Tables) == 1 && !ignores
	if !ignores {
		st.Key, st.Point = pointKey(q.Point, args)
	}
	// Only a table with an AUTO_INCREMENT column generates ids: SQLite's rowid of
	// any other table is not an insert id.
	if st.Upsert && len(q.Tables) > 0 {
		if _, ok := s.env.Engine.AutoIncColumn(db, q.Tables[0]); ok {
			st.AutoInc = &engine.AutoInc{Table: q.Tables[0], Rows: q.InsertRows}
		}
	}
	return st
}

// afterWrite keeps what a write tells the session: its LAST_INSERT_ID() (the first
// AUTO_INCREMENT value it generated for a row it wrote, or LAST_INSERT_ID(expr)),
// the warnings it raised while it ran, and MySQL's 1062 warning for each row
// INSERT IGNORE left out.
func (s *Session) afterWrite(q *sqlcompat.Query, res engine.Result) {
	if res.SetsLastID {
		s.lastID = res.LastID
	}
	s.executionWarnings(res.Warnings, res.LostWarnings)
	rows, done := uint64(q.InsertRows), res.AffectedRows
	if q.CountsRows {
		rows, done = res.Counted, res.Written
	}
	if left := rows - min(rows, done+refused(res.Warnings)); (q.IgnoreDuplicates || q.CountsRows) && left > 0 {
		// SQLite does not say which key each row hit, nor its value.
		for range left {
			s.notes = append(s.notes, mysqlerr.Warn(mysqlerr.ErDupEntry, "Duplicate entry for a unique key of table '%s'", q.Tables[0]))
		}
	}
}

// afterRead keeps the LAST_INSERT_ID(expr) a query ran, and its warnings.
func (s *Session) afterRead(rows *engine.Rows) {
	if rows.SetsLastID {
		s.lastID = rows.LastID
	}
	s.executionWarnings(rows.Warnings, rows.LostWarnings)
}

// refused counts the rows an INSERT IGNORE left out that a CHECK constraint or
// a foreign key refused: the others it left out were duplicates.
func refused(ws []mysqlerr.Warning) uint64 {
	n := uint64(0)
	for _, w := range ws {
		if w.Code == mysqlerr.ErCheckConstraint || w.Code == mysqlerr.ErNoReferencedRow {
			n++
		}
	}
	return n
}

// pointKey is the primary key a point write (sqlcompat.Query.Point) pins, with
// its ? values bound; ok false when a value is not an integer.
func pointKey(ps []sqlcompat.PointValue, args []any) (key []int64, ok bool) {
	if len(ps) == 0 {
		return nil, false
	}
	key = make([]int64, len(ps))
	for i, p := range ps {
		if p.Param < 0 {
			key[i] = p.Value
			continue
		}
		if p.Param >= len(args) {
			return nil, false
		}
		switch v := args[p.Param].(type) {
		case int64:
			key[i] = v
		case uint64:
			if v > math.MaxInt64 {
				return nil, false
			}
			key[i] = int64(v)
		case int:
			key[i] = int64(v)
		default:
			return nil, false
		}
	}
	return key, true
}
