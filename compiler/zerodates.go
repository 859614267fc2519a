package compiler

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/temporal"
)

// where renders a WHERE condition. MySQL finds the zero date of a NOT NULL
// DATE or DATETIME column with IS NULL there (8.4 manual 14.4.2, IS NULL: for
// ODBC applications), in any AND/OR branch of the condition; elsewhere IS NULL
// is false for it.
func (e *emitter) where(x ast.ExprNode, s *scope) {
	if !e.zeroNullIn(x, s) {
		e.expr(x, s)
		return
	}
	switch v := x.(type) {
	case *ast.ParenthesesExpr:
		e.w("(")
		e.where(v.Expr, s)
		e.w(")")
	case *ast.BinaryOperationExpr:
		op := " AND "
		if v.Op == opcode.LogicOr {
			op = " OR "
		}
		e.w("(")
		e.where(v.L, s)
		e.w(op)
		e.where(v.R, s)
		e.w(")")
	case *ast.IsNullExpr:
		k, fsp := temporal.Date, 0
		if t := e.typeOf(v.Expr, s); t.Type != mp.TypeDate && t.Type != mp.TypeNewDate {
			k, fsp = temporal.Datetime, int(t.Decimals)
		}
		e.w("(")
		e.expr(v.Expr, s)
		e.w(" IS NULL OR ")
		e.expr(v.Expr, s)
		e.w(" = " + sqlString(temporal.ZeroText(k, fsp)) + ")")
	}
}

// zeroNullIn reports whether x holds, through AND, OR and parentheses, an IS
// NULL that finds zero dates (see where).
func (e *emitter) zeroNullIn(x ast.ExprNode, s *scope) bool {
	switch v := x.(type) {
	case *ast.ParenthesesExpr:
		return e.zeroNullIn(v.Expr, s)
	case *ast.BinaryOperationExpr:
		return (v.Op == opcode.LogicAnd || v.Op == opcode.LogicOr) && (e.zeroNullIn(v.L, s) || e.zeroNullIn(v.R, s))
	case *ast.IsNullExpr:
		cn, ok := v.Expr.(*ast.ColumnNameExpr)
		if v.Not || !ok || s == nil || !s.tableColumn(cn.Name) {
			return false
		}
		t := e.typeOf(v.Expr, s)
		return t.Flags&mp.NotNullFlag != 0 && (t.Type == mp.TypeDate || t.Type == mp.TypeNewDate || t.Type == mp.TypeDatetime)
	}
	return false
}
