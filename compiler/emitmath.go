package compiler

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// mathCall renders MySQL's numeric functions whose SQLite namesake answers
// differently for exact values: it reports false for the others.
func (e *emitter) mathCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	switch name {
	case "round", "truncate":
		if len(x.Args) < 1 || len(x.Args) > 2 || name == "truncate" && len(x.Args) != 2 {
			return false
		}
		t := e.typeOf(x.Args[0], s)
		fn := "binlite_dec_" + name
		switch {
		case t.isDecimal() || t.isInt():
			// exact: half away from zero (ROUND), toward zero (TRUNCATE)
		case t.isApprox() && name == "truncate":
			e.w("CAST(")
			defer e.w(" AS REAL)")
		case t.isApprox():
			// MySQL rounds a double half to even (rint), SQLite half away from zero.
			fn = "binlite_round_double"
		default:
			return false
		}
		if t.Wide() {
			// back to the stored form: ROUND(18446744073709551615, -1) is beyond it (1690)
			e.w("binlite_u64_from(")
			defer e.w(", " + sqlString(e.exprText(x, s)) + ")")
		}
		e.w(fn + "(")
		e.decArg(x.Args[0], s)
		e.w(", ")
		if len(x.Args) == 2 {
			e.expr(x.Args[1], s)
		} else {
			e.w("0")
		}
		e.w(")")
		return true
	}
	return false
}
