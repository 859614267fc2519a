package compiler

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// A multi-table UPDATE or DELETE that writes several tables is several SQLite
// statements (Emitted.Then): the join is evaluated once into a temporary table
// of the rowids of each base table it joins (multiRows), then each written table
// is changed through those rowids, so that writing one table cannot change which
// rows of the next the join finds. The temporary table is the writer
// connection's own (temp schema: never captured nor logged) and is dropped by
// the last statement.

const multiRows = "temp.`binlite_multi`"

// joinedTable is one base table of a multi-table statement's join.
type joinedTable struct {
	name  string // alias, or table name
	table string // rendered table reference
	def   *catalog.Table
	col   string // its rowid's column in multiRows
}

// snapshotJoin renders the statement that fills multiRows with the rowids of
// the join's base tables for each row the join and where give. It returns the
// tables, or false after failing.
func (e *emitter) snapshotJoin(refs ast.ResultSetNode, where ast.ExprNode, s *scope) ([]joinedTable, bool) {
	var tables []joinedTable
	for _, src := range s.sources {
		_, tn := findSource(refs, src.name)
		if tn == nil || src.def == nil {
			continue // a derived table: nothing of it is written
		}
		if !rowidSafe(src.def) {
			e.fail(notYet("multi-table write over a table with a rowid column"))
			return nil, false
		}
		tables = append(tables, joinedTable{name: src.name, table: e.tableName(tn), def: src.def, col: "r" + strconv.Itoa(len(tables))})
	}
	e.w("CREATE TEMP TABLE `binlite_multi` AS SELECT ")
	for i, t := range tables {
		if i > 0 {
			e.w(", ")
		}
		e.w(quoteIdent(t.name) + ".rowid AS " + t.col)
	}
	e.w(" FROM ")
	e.tableRefs(refs, s)
	if where != nil {
		e.w(" WHERE ")
		e.expr(where, s)
	}
	e.split()
	return tables, e.err == nil
}

func findJoined(tables []joinedTable, name string) *joinedTable {
	for i := range tables {
		if strings.EqualFold(tables[i].name, name) {
			return &tables[i]
		}
	}
	return nil
}

// multiUpdateMany renders an UPDATE over a join that writes several tables
// (targets, in the order the SET list first names them; byTarget holds each
// one's assignments). A value that reads a column another target's assignment
// changes is refused: MySQL's answer depends on the order it happens to write
// the tables in.
func (e *emitter) multiUpdateMany(x *ast.UpdateStmt, s *scope, targets []string, byTarget map[string][]*ast.Assignment) {
	for _, t := range targets {
		for _, a := range byTarget[strings.ToLower(t)] {
			for _, other := range targets {
				if other != t && readsAssigned(a.Expr, other, byTarget[strings.ToLower(other)], s, e) {
					e.fail(mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'multi-table UPDATE whose values read a column it changes in another table'"))
					return
				}
			}
		}
	}
	tables, ok := e.snapshotJoin(x.TableRefs.TableRefs, x.Where, s)
	if !ok {
		return
	}
	for _, t := range targets {
		jt := findJoined(tables, t)
		if jt == nil {
			e.fail(notYet("multi-table UPDATE target"))
			return
		}
		if e.c.tz != 0 && localOnUpdate(jt.def) {
			e.fail(notYet("UPDATE of a DATETIME ON UPDATE CURRENT_TIMESTAMP in a time zone other than UTC"))
			return
		}
		list := byTarget[strings.ToLower(t)]
		e.w("UPDATE ")
		if x.IgnoreErr {
			e.w("OR IGNORE ")
		}
		alias := quoteIdent(jt.name)
		e.w(jt.table + " AS " + alias)
		e.setList(list, jt.name, jt.def, s)
		if onlyReads(list, jt.name, s) {
			e.w(" WHERE " + alias + ".rowid IN (SELECT " + jt.col + " FROM " + multiRows + ")")
			e.split()
			continue
		}
		// The values read other tables of the join: they come back by rowid.
		e.w(" FROM " + multiRows + " AS `binlite_m`")
		for i := range tables {
			o := &tables[i]
			if o == jt || !readsTable(list, o.name, s) {
				continue
			}
			e.w(" LEFT JOIN " + o.table + " AS " + quoteIdent(o.name) + " ON " + quoteIdent(o.name) + ".rowid = `binlite_m`." + o.col)
		}
		for _, src := range s.sources {
			if findJoined(tables, src.name) == nil && readsTable(list, src.name, s) {
				e.fail(notYet("multi-table UPDATE whose values read a derived table"))
				return
			}
		}
		e.w(" WHERE " + alias + ".rowid = `binlite_m`." + jt.col)
		e.split()
	}
	e.w("DROP TABLE " + multiRows)
}

// multiDeleteMany renders DELETE t1, t2, ... FROM a join: children before their
// parents, so that a foreign key between two of the tables does not refuse the
// parent's delete while its children are still there.
func (e *emitter) multiDeleteMany(x *ast.DeleteStmt, s *scope) {
	tables, ok := e.snapshotJoin(x.TableRefs.TableRefs, x.Where, s)
	if !ok {
		return
	}
	var targets []*joinedTable
	for _, tn := range x.Tables.Tables {
		jt := findJoined(tables, tn.Name.O)
		if jt == nil {
			e.fail(mysqlerr.New(mysqlerr.ErUnknownTable, "Unknown table '%s' in MULTI DELETE", tn.Name.O))
			return
		}
		if !slices.Contains(targets, jt) {
			targets = append(targets, jt)
		}
	}
	slices.SortStableFunc(targets, func(a, b *joinedTable) int {
		switch {
		case references(a.def, b.def):
			return -1
		case references(b.def, a.def):
			return 1
		}
		return 0
	})
	for _, jt := range targets {
		e.w("DELETE FROM " + jt.table + " WHERE rowid IN (SELECT " + jt.col + " FROM " + multiRows + ")")
		e.split()
	}
	e.w("DROP TABLE " + multiRows)
}

// references reports whether child has a foreign key to parent.
func references(child, parent *catalog.Table) bool {
	for _, fk := range child.ForeignKeys {
		if strings.EqualFold(fk.RefTable, parent.Name) {
			return true
		}
	}
	return false
}

// readsTable reports whether the assignments' values read a column of the
// source named name.
func readsTable(list []*ast.Assignment, name string, s *scope) bool {
	read := false
	for _, a := range list {
		a.Expr.Accept(&columnVisitor{fn: func(cn *ast.ColumnName) {
			if cn.Table.O != "" {
				read = read || strings.EqualFold(cn.Table.O, name)
				return
			}
			for _, src := range s.sources {
				if !strings.EqualFold(src.name, name) {
					continue
				}
				if src.def == nil {
					read = true // unknown columns: assume it does
				} else if _, ok := src.def.Column(cn.Name.O); ok {
					read = true
				}
			}
		}})
	}
	return read
}

// readsAssigned reports whether x reads a column of target that assigned changes.
func readsAssigned(x ast.ExprNode, target string, assigned []*ast.Assignment, s *scope, e *emitter) bool {
	read := false
	x.Accept(&columnVisitor{fn: func(cn *ast.ColumnName) {
		owner := cn.Table.O
		if owner == "" {
			owner = e.ownerOf(cn.Name.O, s)
		}
		if !strings.EqualFold(owner, target) {
			return
		}
		for _, a := range assigned {
			if strings.EqualFold(a.Column.Name.O, cn.Name.O) {
				read = true
			}
		}
	}})
	return read
}
