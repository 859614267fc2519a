package compiler

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	mp "github.com/binlite/binlite/mysqlproto"
)

// GROUP BY g1, ..., gn WITH ROLLUP (manual 14.19.2): SQLite has no ROLLUP, so
// the query block is the union of its n+1 groupings, by all n items, by the
// first n-1, ... by none, where a rolled-up item (and every reference to it
// outside an aggregate, GROUPING() included) is NULL. The rows come in MySQL's
// order: by the group values ascending, each group's super-aggregate after its
// rows, unless the query orders them itself.

// rollup renders a query block with WITH ROLLUP.
func (e *emitter) rollup(x *ast.SelectStmt, outer *scope) {
	if x.Distinct || x.With != nil || len(x.WindowSpecs) > 0 || x.SelectIntoOpt != nil || x.From == nil {
		e.fail(notYet("WITH ROLLUP with DISTINCT, WITH, windows, INTO or no FROM"))
		return
	}
	s := e.c.newScope(x.From, outer)
	if err := e.checkFullGroupBy(x, s); err != nil {
		e.fail(err)
		return
	}
	e.fieldOut = nil
	e.rollupFields = x.Fields
	items := x.GroupBy.Items
	n := len(items)
	groups := make([]ast.ExprNode, n)
	keys := make([]string, n)
	for i, it := range items {
		g := e.groupItem(it.Expr, x.Fields, s)
		if g == nil || it.Desc {
			e.fail(notYet("WITH ROLLUP of this GROUP BY item"))
			return
		}
		groups[i], keys[i] = g, e.exprText(g, s)
	}
	// The select list's columns, by the names the inner blocks give them.
	names := make([]string, len(x.Fields.Fields))
	seen := map[string]bool{}
	for i, f := range x.Fields.Fields {
		switch {
		case f.WildCard != nil:
			e.fail(notYet("WITH ROLLUP with *"))
			return
		case f.AsName.O != "":
			names[i] = f.AsName.O
		case isColumn(f.Expr):
			names[i] = f.Expr.(*ast.ColumnNameExpr).Name.Name.O
		default:
			names[i] = strings.TrimSpace(f.Text())
		}
		if seen[strings.ToLower(names[i])] || names[i] == "" {
			e.fail(notYet("WITH ROLLUP with two columns of one name"))
			return
		}
		seen[strings.ToLower(names[i])] = true
	}
	for _, f := range x.Fields.Fields {
		if f.AsName.O != "" {
			s.aliases = append(s.aliases, namedType{f.AsName.O, e.typeOf(f.Expr, s)})
		}
	}
	e.w("SELECT ")
	for i, name := range names {
		if i > 0 {
			e.w(", ")
		}
		e.w(quoteIdent(name))
	}
	e.w(" FROM (")
	for level := 0; level <= n; level++ {
		if level > 0 {
			e.w(" UNION ALL ")
		}
		kept := n - level
		e.rolled = map[string]bool{}
		for _, k := range keys[kept:] {
			e.rolled[k] = true
		}
		e.w("SELECT ")
		for i, f := range x.Fields.Fields {
			if i > 0 {
				e.w(", ")
			}
			e.expr(f.Expr, s)
			e.w(" AS " + quoteIdent(names[i]))
		}
		for i, g := range groups {
			e.w(", ")
			e.exprStored(g, s)
			e.w(" AS binlite_g" + strconv.Itoa(i))
		}
		e.w(", " + strconv.Itoa(level) + " AS binlite_level FROM ")
		e.tableRefs(x.From.TableRefs, s)
		if x.Where != nil {
			e.rolled = nil // WHERE sees the rows, not the groups
			e.w(" WHERE ")
			e.expr(x.Where, s)
			e.rolled = map[string]bool{}
			for _, k := range keys[kept:] {
				e.rolled[k] = true
			}
		}
		if kept > 0 {
			rolled := e.rolled
			e.rolled = nil
			e.w(" GROUP BY ")
			for i, g := range groups[:kept] {
				if i > 0 {
					e.w(", ")
				}
				e.exprStored(g, s)
			}
			e.rolled = rolled
		}
		if x.Having != nil {
			e.w(" HAVING ")
			e.expr(x.Having.Expr, s)
		}
	}
	e.rolled = nil
	e.w(")")
	e.w(" ORDER BY ")
	if x.OrderBy != nil {
		for i, it := range x.OrderBy.Items {
			if i > 0 {
				e.w(", ")
			}
			i, ok := rollupOrderColumn(it.Expr, names)
			if !ok {
				e.fail(notYet("WITH ROLLUP ordered by an expression"))
				return
			}
			e.w(quoteIdent(names[i]) + e.orderCollation(x.Fields.Fields[i].Expr, s))
			if it.Desc {
				e.w(" DESC")
			}
		}
	} else {
		for i, g := range groups {
			if i > 0 {
				e.w(", ")
			}
			// the super-aggregate rows after the group's
			e.w("binlite_level >= " + strconv.Itoa(n-i) + ", binlite_g" + strconv.Itoa(i) + e.orderCollation(g, s))
		}
	}
	e.limit(x.Limit, s)
}

// rollupOrderColumn is the output column an ORDER BY item of a ROLLUP query
// names: a position, an alias, or a selected column.
func rollupOrderColumn(x ast.ExprNode, names []string) (int, bool) {
	switch o := x.(type) {
	case *ast.PositionExpr:
		if o.P == nil && o.N >= 1 && o.N <= len(names) {
			return o.N - 1, true
		}
	case *ast.ColumnNameExpr:
		for i, name := range names {
			if o.Name.Table.O == "" && strings.EqualFold(name, o.Name.Name.O) {
				return i, true
			}
		}
	}
	return 0, false
}

// orderCollation is how a group value orders outside its query block: a
// DECIMAL as a number, a string by its collation.
func (e *emitter) orderCollation(g ast.ExprNode, s *scope) string {
	t := e.typeOf(g, s)
	switch {
	case t.isDecimal():
		return " COLLATE binlite_decimal"
	case t.isString() && t.Type != mp.TypeJSON:
		if coll, _ := e.c.derivation(g, s); coll != "binary" {
			return " COLLATE " + sqliteCollation(coll)
		}
	}
	return ""
}

// rolledUp renders x as NULL where it is a group item rolled up in the
// grouping being rendered (outside an aggregate).
func (e *emitter) rolledUp(x ast.ExprNode, s *scope) bool {
	if e.rolled == nil || e.aggDepth > 0 {
		return false
	}
	switch x.(type) {
	case *ast.ColumnNameExpr, *ast.FuncCallExpr, *ast.BinaryOperationExpr, *ast.UnaryOperationExpr, *ast.FuncCastExpr:
	default:
		return false
	}
	if !e.rolled[e.exprText(x, s)] {
		return false
	}
	e.w("NULL")
	return true
}

// grouping renders GROUPING(g, ...): a bit per argument, 1 where it is rolled
// up (the first argument the highest bit).
func (e *emitter) grouping(x *ast.FuncCallExpr, s *scope) {
	if e.rolled == nil || len(x.Args) == 0 {
		e.unsupported("GROUPING outside WITH ROLLUP")
		return
	}
	n := 0
	for _, a := range x.Args {
		n <<= 1
		if g := e.groupItem(a, e.rollupFields, s); g != nil && e.rolled[e.exprText(g, s)] {
			n |= 1
		}
	}
	e.w(strconv.Itoa(n))
}
