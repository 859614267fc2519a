package session

import (
	"strings"

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
// where SQLite could compute with it (u64.ComputedReads: anywhere but as a
// returned column, an ORDER BY or GROUP BY key, COUNT, MIN, MAX, IS NULL or a
// comparison with an integer constant, which stored forms answer exactly), it
// runs only if no row holds such a value in those columns; else it fails with
// 1235. The check is an engine.Guard: it runs in the statement's own SQLite
// transaction, so no write can slip in between, and scans a table only while it
// may hold such a value (the engine learns from every write). Tables that never
// held one (every table before binlite stored them) run as they always did; the
// columns a statement returns as they are are decoded by their declared type
// (decodeUint64).
func (s *Session) uint64Guard(text string, q *sqlcompat.Query, db string, compiled bool) *engine.Guard {
	var tables []engine.GuardTable
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
			gt := engine.GuardTable{Table: et.Name}
			if schema != db {
				gt.Schema = schema
			}
			for _, c := range et.Columns {
				wide := engine.WideDecl(c.DeclType)
				if et.Def != nil {
					if dc, ok := et.Def.Column(c.Name); ok {
						wide = dc.Type.Wide()
					}
				}
				if wide {
					gt.Wide = append(gt.Wide, c.Name)
				}
			}
			if len(gt.Wide) > 0 {
				tables = append(tables, gt)
			}
		}
	}
	if len(tables) == 0 {
		return nil
	}
	names, star, ok := u64.ComputedReads(text)
	var guarded []engine.GuardTable
	var named []string
	for _, gt := range tables {
		for _, c := range gt.Wide {
			if !ok || star || names[strings.ToLower(c)] {
				gt.Read = append(gt.Read, c)
				named = append(named, quoteName(gt.Table)+"."+quoteName(c))
			}
		}
		if len(gt.Read) > 0 {
			guarded = append(guarded, gt)
		}
	}
	if len(guarded) == 0 {
		return nil
	}
	return &engine.Guard{
		Tables: guarded,
		Err:    mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this statement over BIGINT UNSIGNED values above 9223372036854775807 (%s)'", strings.Join(named, ", ")),
	}
}
