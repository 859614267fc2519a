package compiler

import (
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// selectStmt renders a query block; outer is the enclosing block's scope for a
// subquery (nil at the top).
func (e *emitter) selectStmt(x *ast.SelectStmt, outer *scope) {
	out := e.fieldOut
	e.fieldOut = nil // this block's reader's, not its subqueries'
	switch {
	case x.Kind == ast.SelectStmtKindTable && x.From != nil:
		// TABLE t [ORDER BY ...] [LIMIT ...] is SELECT * FROM t ...
		s := e.c.newScope(x.From, outer)
		e.w("SELECT ")
		if !e.u64Wildcard(&ast.WildCardField{}, s, out, 0) {
			e.w("*")
		}
		e.w(" FROM ")
		e.tableRefs(x.From.TableRefs, s)
		if x.OrderBy != nil {
			e.w(" ")
			e.orderBy(x.OrderBy, s)
		}
		e.limit(x.Limit, s)
		return
	case x.Kind != ast.SelectStmtKindSelect:
		e.fail(notYet("VALUES statement"))
		return
	case x.SelectIntoOpt != nil:
		e.fail(notYet("SELECT ... INTO"))
		return
	case x.GroupBy != nil && x.GroupBy.Rollup:
		e.rollup(x, outer)
		return
	case len(x.WindowSpecs) > 0:
		e.fail(notYet("WINDOW"))
		return
	}
	e.with(x.With, outer)
	s := e.c.newScope(x.From, outer)
	if err := e.checkFullGroupBy(x, s); err != nil {
		e.fail(err)
		return
	}
	e.w("SELECT ")
	if x.Distinct {
		e.w("DISTINCT ")
	}
	targets := e.insertTargets
	e.insertTargets = nil // the top query block's only, not its subqueries'
	col := 0              // the output column of the field
	for i, f := range x.Fields.Fields {
		if i > 0 {
			e.w(", ")
		}
		if f.WildCard == nil && i < len(targets) && targets[i] != nil {
			// INSERT ... SELECT: the value as the column stores it
			e.storedExpr(f.Expr, targets[i], s, 0)
			e.fieldAlias(f, s)
			col++
			continue
		}
		if f.WildCard != nil {
			if cols, ok := s.expand(f.WildCard); ok && !e.u64Wildcard(f.WildCard, s, out, col) {
				e.field(f, s)
				col += len(cols)
				continue
			} else if ok {
				col += len(cols)
				continue
			}
			out = nil // the columns after it are not known
			e.field(f, s)
			continue
		}
		switch {
		case fieldStored(out, col):
			e.exprStored(f.Expr, s)
			e.fieldAlias(f, s)
		case isColumn(f.Expr) && f.AsName.O == "" && e.yieldsStored(f.Expr, s):
			// read through binlite_u64 (emitu64.go): under the column's name
			e.expr(f.Expr, s)
			e.w(" AS " + quoteIdent(f.Expr.(*ast.ColumnNameExpr).Name.Name.O))
		default:
			e.field(f, s)
		}
		col++
	}
	if x.From != nil {
		e.w(" FROM ")
		e.tableRefs(x.From.TableRefs, s)
	}
	if x.Where != nil {
		e.w(" WHERE ")
		e.where(x.Where, s)
	}
	// HAVING and ORDER BY may name the select list's aliases.
	for _, f := range x.Fields.Fields {
		if f.AsName.O != "" && f.Expr != nil {
			s.aliases = append(s.aliases, namedType{f.AsName.O, e.typeOf(f.Expr, s)})
		}
	}
	if x.GroupBy != nil {
		e.w(" GROUP BY ")
		for i, it := range x.GroupBy.Items {
			if i > 0 {
				e.w(", ")
			}
			e.exprStored(it.Expr, s) // groups of stored values are the numbers' groups
			if it.Desc {
				e.fail(notYet("GROUP BY ... DESC"))
			}
		}
	}
	if x.Having != nil {
		e.w(" HAVING ")
		e.expr(x.Having.Expr, s)
	}
	if x.OrderBy != nil {
		e.w(" ")
		e.orderBy(x.OrderBy, s)
	}
	e.limit(x.Limit, s)
}

// field renders a select list item under the name MySQL gives its column: the
// alias, the column's name, or the expression's text as written.
func (e *emitter) field(f *ast.SelectField, s *scope) {
	if f.WildCard != nil {
		if e.wildcardLocal(f.WildCard, s) {
			return
		}
		if f.WildCard.Schema.O != "" && f.WildCard.Schema.O != e.c.db {
			e.w(quoteIdent(f.WildCard.Schema.O) + ".")
		}
		if f.WildCard.Table.O != "" {
			e.w(quoteIdent(f.WildCard.Table.O) + ".")
		}
		e.w("*")
		return
	}
	e.expr(f.Expr, s)
	e.fieldAlias(f, s)
}

// fieldAlias names a select item's column as MySQL does.
func (e *emitter) fieldAlias(f *ast.SelectField, s *scope) {
	switch {
	case f.AsName.O != "":
		e.w(" AS " + quoteIdent(f.AsName.O))
	case isColumn(f.Expr) && !e.readsUTC(f.Expr.(*ast.ColumnNameExpr), s):
	case isColumn(f.Expr):
		e.w(" AS " + quoteIdent(f.Expr.(*ast.ColumnNameExpr).Name.Name.O))
	default:
		name := strings.TrimSpace(f.Text())
		if name == "" {
			e.fail(notYet("a select item without its text"))
			return
		}
		e.w(" AS " + quoteIdent(name))
	}
}

func isColumn(x ast.ExprNode) bool {
	_, ok := x.(*ast.ColumnNameExpr)
	return ok
}

func (e *emitter) orderBy(o *ast.OrderByClause, s *scope) {
	e.w("ORDER BY ")
	for i, it := range o.Items {
		if i > 0 {
			e.w(", ")
		}
		if !e.timeOrder(it.Expr, s) {
			x := e.enumOrder(it.Expr, s)
			e.exprStored(x, s) // stored values order as the numbers do
			e.decimalOrder(x, s)
		}
		if it.Desc {
			e.w(" DESC")
		}
	}
}

func (e *emitter) limit(l *ast.Limit, s *scope) {
	if l == nil {
		return
	}
	e.w(" LIMIT ")
	if v, ok := l.Count.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 && v.GetUint64() > math.MaxInt64 {
		e.w(strconv.FormatInt(math.MaxInt64, 10)) // LIMIT 18446744073709551615: all rows
	} else {
		e.expr(l.Count, s)
	}
	if l.Offset != nil {
		e.w(" OFFSET ")
		e.expr(l.Offset, s)
	}
}

// with renders a WITH clause and makes its names visible as tables.
func (e *emitter) with(w *ast.WithClause, outer *scope) {
	if w == nil {
		return
	}
	e.w("WITH ")
	if w.IsRecursive {
		e.w("RECURSIVE ")
	}
	for i, cte := range w.CTEs {
		if i > 0 {
			e.w(", ")
		}
		e.ctes = append(e.ctes, cte.Name.O)
		e.w(quoteIdent(cte.Name.O))
		if len(cte.ColNameList) > 0 {
			e.w("(")
			for j, n := range cte.ColNameList {
				if j > 0 {
					e.w(", ")
				}
				e.w(quoteIdent(n.O))
			}
			e.w(")")
		}
		e.w(" AS ")
		e.subqueryOut(cte.Query, outer, false) // its readers do not type its columns
	}
	e.w(" ")
}

// setOpr renders UNION / EXCEPT / INTERSECT.
func (e *emitter) setOpr(x *ast.SetOprStmt, outer *scope) {
	out := e.fieldOut // every member's to the set operation's reader
	e.fieldOut = nil
	e.with(x.With, outer)
	if x.SelectList == nil || x.SelectList.With != nil || x.SelectList.OrderBy != nil || x.SelectList.Limit != nil {
		e.fail(notYet("nested set operation"))
		return
	}
	targets := e.insertTargets // every member's values go into the INSERT's columns
	for i, n := range x.SelectList.Selects {
		e.insertTargets, e.fieldOut = targets, out
		sel, ok := n.(*ast.SelectStmt)
		if !ok || sel.OrderBy != nil || sel.Limit != nil || sel.With != nil {
			e.fail(notYet("set operation member"))
			return
		}
		if i > 0 {
			if sel.AfterSetOperator == nil {
				e.fail(notYet("set operator"))
				return
			}
			switch *sel.AfterSetOperator {
			case ast.Union:
				e.w(" UNION ")
			case ast.UnionAll:
				e.w(" UNION ALL ")
			case ast.Except:
				e.w(" EXCEPT ")
			case ast.Intersect:
				e.w(" INTERSECT ")
			default:
				e.fail(notYet("EXCEPT/INTERSECT ALL"))
				return
			}
		}
		e.selectStmt(sel, outer)
	}
	// ORDER BY after a set operation names the result's columns.
	s := &scope{outer: outer}
	if x.OrderBy != nil {
		e.w(" ")
		e.orderBy(x.OrderBy, s)
	}
	e.limit(x.Limit, s)
}

// tableRefs renders a FROM clause's joins. SQLite accepts a parenthesised join
// as a table, so nesting is kept as MySQL parsed it.
func (e *emitter) tableRefs(n ast.ResultSetNode, s *scope) {
	switch x := n.(type) {
	case *ast.Join:
		if x.Right == nil {
			e.tableRefs(x.Left, s)
			return
		}
		e.tableRefs(x.Left, s)
		switch {
		case x.NaturalJoin && x.Tp == ast.LeftJoin:
			e.w(" NATURAL LEFT JOIN ")
		case x.NaturalJoin && x.Tp == ast.RightJoin:
			e.w(" NATURAL RIGHT JOIN ")
		case x.NaturalJoin:
			e.w(" NATURAL JOIN ")
		case x.Tp == ast.LeftJoin:
			e.w(" LEFT JOIN ")
		case x.Tp == ast.RightJoin:
			e.w(" RIGHT JOIN ")
		default:
			e.w(" JOIN ")
		}
		if j, ok := x.Right.(*ast.Join); ok && j.Right != nil {
			e.w("(")
			e.tableRefs(j, s)
			e.w(")")
		} else {
			e.tableRefs(x.Right, s)
		}
		switch {
		case x.On != nil:
			e.w(" ON ")
			e.expr(x.On.Expr, s)
		case len(x.Using) > 0:
			e.w(" USING (")
			for i, c := range x.Using {
				if i > 0 {
					e.w(", ")
				}
				e.w(quoteIdent(c.Name.O))
			}
			e.w(")")
		}
	case *ast.TableSource:
		if len(x.ColumnNames) > 0 || x.Lateral {
			e.fail(notYet("derived table column list / LATERAL"))
			return
		}
		switch src := x.Source.(type) {
		case *ast.TableName:
			e.w(e.tableName(src))
		case *ast.SelectStmt:
			e.w("(")
			e.fieldOut = e.outTypes(src, s.outer) // as the derived table's columns are typed
			e.selectStmt(src, s.outer)
			e.w(")")
		case *ast.SetOprStmt:
			e.w("(")
			e.fieldOut = e.outTypes(src, s.outer)
			e.setOpr(src, s.outer)
			e.w(")")
		default:
			e.fail(notYet("table source %T", src))
			return
		}
		if x.AsName.O != "" {
			e.w(" AS " + quoteIdent(x.AsName.O))
		}
	case *ast.TableName:
		e.w(e.tableName(x))
	default:
		e.fail(notYet("FROM %T", n))
	}
}

// targetTable finds the single table an UPDATE or DELETE writes: its name
// (SQL), the name its columns are qualified with, and its definition's source.
func (e *emitter) singleTable(n ast.ResultSetNode) (*ast.TableSource, *ast.TableName, bool) {
	j, ok := n.(*ast.Join)
	if !ok || j.Right != nil {
		return nil, nil, false
	}
	ts, ok := j.Left.(*ast.TableSource)
	if !ok {
		return nil, nil, false
	}
	tn, ok := ts.Source.(*ast.TableName)
	return ts, tn, ok
}

func itoa(n int) string { return strconv.Itoa(n) }
