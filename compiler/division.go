package compiler

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	mp "github.com/binlite/binlite/mysqlproto"
)

// division renders x / y, x DIV y and x MOD y. SQLite divides by zero into NULL
// as MySQL does, but MySQL also warns, or fails a write under strict mode
// (emitter.divZero): a divisor that may be zero makes the division one of the
// engine's (package sqlitec), which answers as MySQL does, a NULL operand
// included (NULL without a word).
func (e *emitter) division(x *ast.BinaryOperationExpr, s *scope) {
	lt, rt := e.typeOf(x.L, s), e.typeOf(x.R, s)
	zero := e.divZero != 0 && !nonZeroLiteral(x.R)
	mode := ", " + strconv.Itoa(e.divZero)
	text := func() string { return ", " + sqlString(e.exprText(x, s)) }
	ints := lt.isInt() && rt.isInt()
	t := arith(x.Op, lt, rt)
	switch {
	case lt.Type == mp.TypeNull || rt.Type == mp.TypeNull:
		e.w("NULL") // NULL / 0 is NULL without a warning
	case x.Op == opcode.Div && t.isDecimal():
		// exact, rounded to MySQL's scale (the dividend's + div_precision_increment)
		// MySQL keeps a quotient's digits in groups of nine and rounds to the
		// result's scale only at the end (2 / 3 * 3 is 2.0000).
		fn, extra := "binlite_dec_div", ", "+strconv.Itoa((int(t.Decimals)+8)/9*9)
		if zero {
			fn, extra = "binlite_div_dec", extra+mode
		}
		e.decCall(fn, s, extra, x.L, x.R)
	case x.Op == opcode.Div && zero:
		e.operandsAs(e.realArg, "binlite_div(", x, s, mode+text()+")")
	case x.Op == opcode.Div:
		// MySQL's / never divides integers as integers.
		e.checked("binlite_double", x, s, func() { e.operandsAs(e.realArg, "(", x, s, ")", " * 1.0 / ") })
	case x.Op == opcode.Mod && t.isDecimal():
		e.decCall("binlite_dec_mod", s, mode, x.L, x.R)
	case x.Op == opcode.Mod && !ints:
		e.operandsAs(e.realArg, "binlite_fmod(", x, s, mode+")")
	case x.Op == opcode.Mod && (lt.Wide() || rt.Wide()):
		// exact over the stored form (emitu64.go)
		e.u64Call("binlite_u64_mod", x, s, mode)
	case ints && (lt.Wide() || rt.Wide()):
		e.u64Call("binlite_u64_intdiv", x, s, mode)
	case x.Op == opcode.Mod && zero:
		e.operands("binlite_mod(", x, s, mode+")")
	case x.Op == opcode.Mod:
		e.operands("(", x, s, ")", " % ")
	case ints && zero:
		e.operands("binlite_intdiv(", x, s, mode+text()+")")
	case ints:
		// -9223372036854775808 DIV -1 is beyond BIGINT
		e.checked(e.arithCheck(x, t, s), x, s, func() { e.operands("(", x, s, ")", " / ") })
	case zero:
		e.operands("CAST(binlite_div(", x, s, mode+text()+") AS INTEGER)")
	default:
		e.operands("CAST((", x, s, ") AS INTEGER)", " * 1.0 / ")
	}
}

// operands renders open, x's operands (separated by sep[0], a comma by default),
// then close.
func (e *emitter) operands(open string, x *ast.BinaryOperationExpr, s *scope, close string, sep ...string) {
	e.operandsAs(e.expr, open, x, s, close, sep...)
}

// operandsAs is operands with each rendered by render.
func (e *emitter) operandsAs(render func(ast.ExprNode, *scope), open string, x *ast.BinaryOperationExpr, s *scope, close string, sep ...string) {
	between := ", "
	if len(sep) > 0 {
		between = sep[0]
	}
	e.w(open)
	render(x.L, s)
	e.w(between)
	render(x.R, s)
	e.w(close)
}
