package session

import (
	"strings"

	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/u64"
)

// uint64Guard keeps a statement the compiler's rules for BIGINT UNSIGNED do not
// cover from computing with the stored form of values of 2^63 or more (package
// u64: 8-byte BLOBs, which SQLite's own arithmetic, functions and conversions
// would read as something else). Such statements are sqlcompat's translations
// (compiled=false) and compiled statements over tables without a definition,
// whose columns' types the compiler does not know.
//
// The rule: when such a statement reads a BIGINT UNSIGNED (or BIT(64)) column
// where SQLite could compute with it (compiler.ComputedReads: anywhere but as a
// returned column, an ORDER BY or GROUP BY key, COUNT, MIN, MAX, IS NULL or a
// comparison with an integer constant, which stored forms answer exactly), it
// runs only if no row holds such a value in those columns; else it fails with
// 1235. The check is a Guard: it runs in the statement's own SQLite transaction,
// so no write can slip in between. Tables that never held such a value (every
// table before binlite stored them) run as they always did; the columns a
// statement returns as they are are decoded by their declared type
// (decodeUint64).
func (s *Session) uint64Guard(text string, q *sqlcompat.Query, db string, compiled bool) *engine.Guard {
	type wideColumn struct{ schema, table, column string }
	var cols []wideColumn
	for _, t := range q.Tables {
		for _, schema := range append([]string{db}, q.Schemas...) {
			if schema == "" {
				continue
			}
			sc, err := s.env.Engine.Schema(schema)
			if err != nil {
				continue
			}
			et := sc.Table(t)
			if et == nil {
				for _, n := range sc.Tables() {
					if strings.EqualFold(n, t) {
						et = sc.Table(n)
					}
				}
			}
			if et == nil || compiled && et.Def != nil {
				continue // compiled with the table's types: the compiler's rules hold
			}
			for _, c := range et.Columns {
				wide := wideDecl(c.DeclType)
				if et.Def != nil {
					if dc, ok := et.Def.Column(c.Name); ok {
						wide = dc.Type.Wide()
					}
				}
				if wide {
					cols = append(cols, wideColumn{schema, et.Name, c.Name})
				}
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	names, star, ok := compiler.ComputedReads(text)
	var conds, named []string
	for _, c := range cols {
		if ok && !star && !names[strings.ToLower(c.column)] {
			continue
		}
		table := quoteName(c.table)
		if c.schema != db {
			table = quoteName(c.schema) + "." + table
		}
		conds = append(conds, "EXISTS (SELECT 1 FROM "+table+" WHERE "+quoteName(c.column)+" >= "+u64.MinWide+")")
		named = append(named, quoteName(c.table)+"."+quoteName(c.column))
	}
	if len(conds) == 0 {
		return nil
	}
	return &engine.Guard{
		SQL: "SELECT 1 WHERE " + strings.Join(conds, " OR "),
		Err: mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this statement over BIGINT UNSIGNED values above 9223372036854775807 (%s)'", strings.Join(named, ", ")),
	}
}

// wideDecl: a SQLite declared type of a column that holds unsigned 64-bit values
// (the MySQL type binlite keeps in the table's SQLite definition).
func wideDecl(decl string) bool {
	d := strings.ToUpper(decl)
	return strings.Contains(d, "BIGINT") && strings.Contains(d, "UNSIGNED") || strings.ReplaceAll(d, " ", "") == "BIT(64)"
}

func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
