package compiler

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// ONLY_FULL_GROUP_BY (on in MySQL 8.4's default sql_mode): an aggregated query
// block's select list may name a column outside an aggregate only if the column
// is functionally dependent on the GROUP BY columns: named there, or in a table
// whose PRIMARY KEY or a UNIQUE key of NOT NULL columns is, or equal (in WHERE or
// an inner join's ON, ANDed at the top) to a constant or to such a column.
// SQLite answers such a query with a value of some row; MySQL refuses it (1055,
// or 1140 without GROUP BY).
//
// The check errs on the side of answering: a block over a derived table, a view,
// a CTE or a generated column, or that uses WITH ROLLUP, is not checked, and
// HAVING and ORDER BY are not checked, so that binlite refuses only what MySQL
// surely refuses.

// groupKey names a column of a source of the block.
type groupKey struct{ source, column string }

// checkFullGroupBy returns MySQL's error for a select list that is not
// functionally dependent on x's GROUP BY, nil when it is or is not checked.
func (e *emitter) checkFullGroupBy(x *ast.SelectStmt, s *scope) error {
	if e.c.mode.NoOnlyFullGroupBy || x.Fields == nil {
		return nil
	}
	if x.GroupBy == nil && !aggregates(x.Fields) {
		return nil
	}
	for _, src := range s.sources {
		if src.def == nil || isCTE(e, src) {
			return nil
		}
		for i := range src.def.Columns {
			if src.def.Columns[i].Generated != nil {
				return nil
			}
		}
	}
	covered := map[groupKey]bool{}
	var groupTexts []string
	if x.GroupBy != nil {
		for _, it := range x.GroupBy.Items {
			g := e.groupItem(it.Expr, x.Fields, s)
			if g == nil {
				return nil // a position or alias this check does not follow
			}
			if cn, ok := g.(*ast.ColumnNameExpr); ok {
				if k, ok := e.columnKey(cn.Name, s); ok {
					covered[k] = true
					continue
				}
			}
			groupTexts = append(groupTexts, e.exprText(g, s))
		}
	}
	var eqs [][2]ast.ExprNode
	if x.Where != nil {
		equalities(x.Where, &eqs)
	}
	if x.From != nil && !onEqualities(x.From.TableRefs, &eqs) {
		return nil
	}
	e.closeDependencies(covered, eqs, s)
	for i, f := range x.Fields.Fields {
		if f.WildCard != nil {
			if x.GroupBy == nil {
				return nil
			}
			for _, src := range s.sources {
				if f.WildCard.Table.O != "" && !strings.EqualFold(f.WildCard.Table.O, src.name) {
					continue
				}
				for _, c := range src.def.Columns {
					if !covered[groupKey{strings.ToLower(src.name), strings.ToLower(c.Name)}] {
						return e.notGrouped(i+1, src, c.Name, true)
					}
				}
			}
			continue
		}
		text := e.exprText(f.Expr, s)
		if slices.Contains(groupTexts, text) {
			continue
		}
		var bad *ast.ColumnName
		f.Expr.Accept(&nonAggregated{fn: func(cn *ast.ColumnName) {
			if bad != nil {
				return
			}
			if k, ok := e.columnKey(cn, s); ok && !covered[k] {
				bad = cn
			}
		}})
		if bad != nil {
			src := s.sources[e.sourceIndex(bad, s)]
			return e.notGrouped(i+1, src, bad.Name.O, x.GroupBy != nil)
		}
	}
	return nil
}

func isCTE(e *emitter, src source) bool {
	for _, n := range e.ctes {
		if strings.EqualFold(n, src.name) {
			return true
		}
	}
	return false
}

// notGrouped is MySQL's error for select-list expression n naming column col of
// src: 1055 with GROUP BY, 1140 without.
func (e *emitter) notGrouped(n int, src source, col string, grouped bool) error {
	name := src.schema
	if name == "" {
		name = e.c.db
	}
	name += "." + src.def.Name + "." + col
	if !grouped {
		return mysqlerr.New(mysqlerr.ErMixOfGroupFuncAndFields, "In aggregated query without GROUP BY, expression #%d of SELECT list contains nonaggregated column '%s'; this is incompatible with sql_mode=only_full_group_by", n, name)
	}
	return mysqlerr.New(mysqlerr.ErWrongFieldWithGroup, "Expression #%d of SELECT list is not in GROUP BY clause and contains nonaggregated column '%s' which is not functionally dependent on columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by", n, name)
}

// groupItem is what a GROUP BY item groups by: a select-list position or alias
// stands for that item's expression. nil: not followed.
func (e *emitter) groupItem(x ast.ExprNode, fields *ast.FieldList, s *scope) ast.ExprNode {
	switch g := x.(type) {
	case *ast.PositionExpr:
		if g.P != nil || g.N < 1 || g.N > len(fields.Fields) || fields.Fields[g.N-1].WildCard != nil {
			return nil
		}
		return fields.Fields[g.N-1].Expr
	case *ast.ColumnNameExpr:
		if g.Name.Table.O == "" {
			if _, ok := e.columnKey(g.Name, s); !ok {
				for _, f := range fields.Fields {
					if strings.EqualFold(f.AsName.O, g.Name.Name.O) {
						return f.Expr
					}
				}
				return nil
			}
		}
	}
	return x
}

// columnKey resolves a column name to a source of s (this block, not an outer
// one); false if it names none or is ambiguous.
func (e *emitter) columnKey(cn *ast.ColumnName, s *scope) (groupKey, bool) {
	i := e.sourceIndex(cn, s)
	if i < 0 {
		return groupKey{}, false
	}
	c, _ := s.sources[i].def.Column(cn.Name.O)
	return groupKey{strings.ToLower(s.sources[i].name), strings.ToLower(c.Name)}, true
}

func (e *emitter) sourceIndex(cn *ast.ColumnName, s *scope) int {
	found := -1
	for i, src := range s.sources {
		if cn.Table.O != "" && !strings.EqualFold(cn.Table.O, src.name) {
			continue
		}
		if src.def == nil {
			return -1
		}
		if _, ok := src.def.Column(cn.Name.O); ok {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// closeDependencies adds to covered what it determines: equalities with a
// constant or a covered column, and every column of a source whose primary key
// or NOT NULL unique key is covered, until nothing more is added.
func (e *emitter) closeDependencies(covered map[groupKey]bool, eqs [][2]ast.ExprNode, s *scope) {
	for changed := true; changed; {
		changed = false
		add := func(k groupKey) {
			if !covered[k] {
				covered[k], changed = true, true
			}
		}
		for _, eq := range eqs {
			l, lok := e.eqSide(eq[0], s)
			r, rok := e.eqSide(eq[1], s)
			switch {
			case lok && l == nil && rok && r != nil:
				add(*r)
			case rok && r == nil && lok && l != nil:
				add(*l)
			case lok && rok && l != nil && r != nil && covered[*l]:
				add(*r)
			case lok && rok && l != nil && r != nil && covered[*r]:
				add(*l)
			}
		}
		for _, src := range s.sources {
			name := strings.ToLower(src.name)
			if !keyCovered(src.def, name, covered) {
				continue
			}
			for _, c := range src.def.Columns {
				add(groupKey{name, strings.ToLower(c.Name)})
			}
		}
	}
}

// eqSide reads one side of an equality: a column of this block (key), a
// constant (nil, true), or neither (false).
func (e *emitter) eqSide(x ast.ExprNode, s *scope) (*groupKey, bool) {
	switch v := x.(type) {
	case *ast.ParenthesesExpr:
		return e.eqSide(v.Expr, s)
	case *driver.ValueExpr, *driver.ParamMarkerExpr:
		return nil, true
	case *ast.ColumnNameExpr:
		if k, ok := e.columnKey(v.Name, s); ok {
			return &k, true
		}
	}
	return nil, false
}

func keyCovered(def *catalog.Table, source string, covered map[groupKey]bool) bool {
	for _, ix := range def.Indexes {
		if ix.Kind != catalog.KindPrimary && ix.Kind != catalog.KindUnique {
			continue
		}
		all := len(ix.Parts) > 0
		for _, p := range ix.Parts {
			c, ok := def.Column(p.Column)
			if p.Column == "" || p.Length > 0 || !ok || c.Nullable || !covered[groupKey{source, strings.ToLower(c.Name)}] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// equalities collects the a = b terms ANDed at the top of x.
func equalities(x ast.ExprNode, out *[][2]ast.ExprNode) {
	switch v := x.(type) {
	case *ast.ParenthesesExpr:
		equalities(v.Expr, out)
	case *ast.BinaryOperationExpr:
		switch v.Op {
		case opcode.LogicAnd:
			equalities(v.L, out)
			equalities(v.R, out)
		case opcode.EQ:
			*out = append(*out, [2]ast.ExprNode{v.L, v.R})
		}
	}
}

// onEqualities collects the equalities of inner joins' ON conditions; false for
// a FROM this check does not follow (an outer join, USING, NATURAL).
func onEqualities(n ast.ResultSetNode, out *[][2]ast.ExprNode) bool {
	switch x := n.(type) {
	case *ast.Join:
		if x.Right == nil {
			return onEqualities(x.Left, out)
		}
		if x.Tp != ast.CrossJoin || x.NaturalJoin || len(x.Using) > 0 {
			return false
		}
		if !onEqualities(x.Left, out) || !onEqualities(x.Right, out) {
			return false
		}
		if x.On != nil {
			equalities(x.On.Expr, out)
		}
		return true
	case *ast.TableSource:
		_, ok := x.Source.(*ast.TableName)
		return ok
	}
	return false
}

// aggregates reports whether a select list has an aggregate outside subqueries.
func aggregates(fields *ast.FieldList) bool {
	found := false
	for _, f := range fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(&aggregateFinder{found: &found})
		}
	}
	return found
}

type aggregateFinder struct{ found *bool }

func (v *aggregateFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		*v.found = true
		return n, true
	case *ast.SubqueryExpr, *ast.WindowFuncExpr:
		return n, true
	}
	return n, false
}

func (v *aggregateFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// nonAggregated visits the column names of an expression outside aggregates,
// window functions, ANY_VALUE() and subqueries.
type nonAggregated struct{ fn func(*ast.ColumnName) }

func (v *nonAggregated) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		v.fn(x.Name)
	case *ast.AggregateFuncExpr, *ast.WindowFuncExpr, *ast.SubqueryExpr:
		return n, true
	case *ast.FuncCallExpr:
		if x.FnName.L == "any_value" || x.FnName.L == "grouping" {
			return n, true
		}
	}
	return n, false
}

func (v *nonAggregated) Leave(n ast.Node) (ast.Node, bool) { return n, true }
