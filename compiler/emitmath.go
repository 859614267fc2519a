package compiler

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// mathCall renders MySQL's numeric functions whose result depends on their
// argument's type (manual 14.6.2): exact for integers and decimals, doubles
// otherwise. It reports false for the others.
func (e *emitter) mathCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	switch name {
	case "round", "truncate", "abs", "floor", "ceil", "ceiling", "log", "atan":
		// a date or time argument is its number
		for i, a := range x.Args {
			if e.typeOf(a, s).isTemporal() {
				c := *x
				c.Args = append([]ast.ExprNode(nil), x.Args...)
				c.Args[i] = tnum(a)
				x = &c
			}
		}
	}
	switch name {
	case "round", "truncate":
		if !e.arity(name, x, map[bool]int{true: 1, false: 2}[name == "round"], 2) {
			return true
		}
		t := e.typeOf(x.Args[0], s)
		fn := "binlite_dec_" + name
		switch {
		case t.isDecimal() || t.isInt():
			// exact: half away from zero (ROUND), toward zero (TRUNCATE)
		case name == "truncate":
			e.w("CAST(")
			defer e.w(" AS REAL)")
		default:
			// MySQL rounds a double (or a string read as one) half to even (rint),
			// SQLite half away from zero.
			fn = "binlite_round_double"
		}
		if t.Wide() {
			// back to the stored form: ROUND(18446744073709551615, -1) is beyond it (1690)
			e.w("binlite_u64_from(")
			defer e.w(", " + sqlString(e.exprText(x, s)) + ")")
		} else if t.isInt() {
			if d, ok := intLiteral(x.Args[len(x.Args)-1]); len(x.Args) == 1 || ok && d >= 0 {
				e.expr(x.Args[0], s) // an integer has no digits after the point
				return true
			}
			// the exact decimal result is an integer, which its type says it is
			e.w("CAST(")
			defer e.w(" AS INTEGER)")
		}
		e.w(fn + "(")
		if t.isDecimal() || t.isInt() {
			e.decArg(x.Args[0], s)
		} else {
			e.realArgIfString(x.Args[0], s)
		}
		e.w(", ")
		if len(x.Args) == 2 {
			e.expr(x.Args[1], s)
		} else {
			e.w("0")
		}
		e.w(")")
	case "abs":
		if !e.arity(name, x, 1, 1) {
			return true
		}
		if e.typeOf(x.Args[0], s).isDecimal() {
			e.decCall("binlite_dec_abs", s, "", x.Args[0])
			return true
		}
		e.w("abs(")
		e.realArgIfString(x.Args[0], s)
		e.w(")")
	case "floor", "ceil", "ceiling":
		if !e.arity(name, x, 1, 1) {
			return true
		}
		fn := "floor"
		if name != "floor" {
			fn = "ceil"
		}
		t := e.typeOf(x.Args[0], s)
		switch r := e.typeOf(x, s); {
		case t.isInt():
			e.expr(x.Args[0], s)
		case t.isDecimal() && r.isInt():
			e.w("CAST(")
			e.decCall("binlite_dec_"+fn, s, "", x.Args[0])
			e.w(" AS INTEGER)")
		case t.isDecimal():
			e.decCall("binlite_dec_"+fn, s, "", x.Args[0])
		default:
			e.w("binlite_" + fn + "(")
			e.realArg(x.Args[0], s)
			e.w(")")
		}
	case "pi":
		if !e.arity(name, x, 0, 0) {
			return true
		}
		e.w("3.141592653589793")
	case "log":
		if !e.arity(name, x, 1, 2) {
			return true
		}
		fn := map[int]string{1: "binlite_ln", 2: "binlite_log"}[len(x.Args)]
		e.w(fn + "(")
		for i, a := range x.Args {
			if i > 0 {
				e.w(", ")
			}
			e.realArg(a, s)
		}
		e.w(")")
	case "atan":
		if !e.arity(name, x, 1, 2) {
			return true
		}
		e.w("binlite_atan(")
		for i, a := range x.Args {
			if i > 0 {
				e.w(", ")
			}
			e.realArg(a, s)
		}
		e.w(")")
	case "rand":
		if !e.arity(name, x, 0, 1) {
			return true
		}
		if len(x.Args) == 0 {
			e.w("rand()")
			return true
		}
		// RAND(seed): MySQL's generator seeded once per statement (a constant
		// seed) or per row.
		e.w("binlite_rand(")
		e.expr(x.Args[0], s)
		e.w(", " + strconv.FormatBool(isConstant(x.Args[0])) + ")")
	default:
		return false
	}
	return true
}

// realArgIfString renders x, a string read as a DOUBLE (MySQL's ABS('-2') is
// the double 2).
func (e *emitter) realArgIfString(x ast.ExprNode, s *scope) {
	if e.typeOf(x, s).isString() {
		e.w("CAST(")
		e.expr(x, s)
		e.w(" AS REAL)")
		return
	}
	e.realArg(x, s)
}

// isConstant: x has the same value on every row (literals and operators on
// them).
func isConstant(x ast.ExprNode) bool {
	switch x := x.(type) {
	case *driver.ValueExpr:
		return true
	case *ast.ParenthesesExpr:
		return isConstant(x.Expr)
	case *ast.UnaryOperationExpr:
		return isConstant(x.V)
	case *ast.BinaryOperationExpr:
		return isConstant(x.L) && isConstant(x.R)
	}
	return false
}
