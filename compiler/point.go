package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
)

// PointPart is one primary-key column's value in a point write (Emitted.Point):
// Param ≥ 0 is the 0-based ? it comes from, else the literal Value.
type PointPart struct {
	Param int
	Value int64
}

// point works out whether an UPDATE's or DELETE's WHERE pins the one row it may
// write by an integer primary key (id = ? [AND ...]) with nothing in the
// statement reading other rows (no subquery): the engine's row locks then need
// no wait for other transactions' changes elsewhere in the table. nil: not a
// point write.
func (e *emitter) point(stmt ast.Node, where ast.ExprNode, target string, def *catalog.Table) []PointPart {
	if where == nil || def == nil || hasSubquery(stmt) {
		return nil
	}
	var pk []string
	for _, ix := range def.Indexes {
		if ix.Kind != catalog.KindPrimary {
			continue
		}
		for _, p := range ix.Parts {
			col, ok := def.Column(p.Column)
			if p.Column == "" || !ok || !integerBase(col.Type.Base) || col.Type.Base == "bigint" && col.Type.Unsigned {
				return nil
			}
			pk = append(pk, p.Column)
		}
	}
	if len(pk) == 0 {
		return nil
	}
	parts := make([]PointPart, len(pk))
	found := make([]bool, len(pk))
	var conj func(x ast.ExprNode)
	conj = func(x ast.ExprNode) {
		b, ok := x.(*ast.BinaryOperationExpr)
		if !ok {
			return
		}
		if b.Op == opcode.LogicAnd {
			conj(b.L)
			conj(b.R)
			return
		}
		if b.Op != opcode.EQ {
			return
		}
		l, r := b.L, b.R
		if _, ok := l.(*ast.ColumnNameExpr); !ok {
			l, r = r, l
		}
		cn, ok := l.(*ast.ColumnNameExpr)
		if !ok || cn.Name.Schema.O != "" || cn.Name.Table.O != "" && !strings.EqualFold(cn.Name.Table.O, target) {
			return
		}
		i := -1
		for j, c := range pk {
			if strings.EqualFold(c, cn.Name.Name.O) {
				i = j
			}
		}
		if i < 0 {
			return
		}
		switch v := r.(type) {
		case *driver.ParamMarkerExpr:
			parts[i], found[i] = PointPart{Param: e.params[v.Offset] - 1}, true
		case *driver.ValueExpr:
			if v.Datum.Kind() == driver.KindInt64 {
				parts[i], found[i] = PointPart{Param: -1, Value: v.GetInt64()}, true
			}
		}
	}
	conj(where)
	for _, f := range found {
		if !f {
			return nil
		}
	}
	return parts
}

func integerBase(base string) bool {
	switch base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		return true
	}
	return false
}

func hasSubquery(n ast.Node) bool {
	v := &subqueryVisitor{}
	n.Accept(v)
	return v.found
}

type subqueryVisitor struct{ found bool }

func (v *subqueryVisitor) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.SubqueryExpr); ok {
		v.found = true
		return n, true
	}
	return n, false
}

func (v *subqueryVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }
