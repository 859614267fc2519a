package compiler

import (
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/decimal"
	mp "github.com/binlite/binlite/mysqlproto"
)

// Arithmetic MySQL refuses or warns about where SQLite answers without a word: an
// integer result beyond BIGINT (SQLite makes it a REAL; MySQL fails with 1690), a
// BIGINT UNSIGNED result below zero (1690), a DOUBLE beyond its range (SQLite's
// infinity; 1690), a division by zero (NULL in both, but MySQL warns or, in a
// write under strict mode, fails with 1365). The emitter wraps such operations in
// the checks of package sqlitec (C functions, no Go call per row), and leaves
// alone the integer operations whose operands' ranges prove they cannot overflow
// (INT k + 1, sysbench's UPDATE): those cost nothing.

// safeInt bounds the results the checks may leave alone (BIGINT's range), with
// room for the rounding of the float64 bounds.
const safeInt = 0x1p63 - 0x1p20

// arithCheck is the check wrapped around arithmetic x whose MySQL result type is
// t ("" for none).
func (e *emitter) arithCheck(x ast.ExprNode, t ColType, s *scope) string {
	switch {
	case t.isApprox():
		return "binlite_double"
	case t.isInt():
		lo, hi := e.intBounds(x, s)
		if t.Flags&mp.UnsignedFlag != 0 {
			if lo >= 0 && hi < safeInt {
				return ""
			}
			return "binlite_uint"
		}
		if lo > -safeInt && hi < safeInt {
			return ""
		}
		return "binlite_int"
	}
	return ""
}

// checked renders x through render, wrapped in check (if any) with x's text for
// MySQL's message.
func (e *emitter) checked(check string, x ast.ExprNode, s *scope, render func()) {
	if check == "" {
		render()
		return
	}
	e.w(check + "(")
	render()
	e.w(", " + sqlString(e.exprText(x, s)) + ")")
}

// paramArith renders a + b, a - b or a * b whose type the compiler cannot know
// because an operand is a parameter (its type comes with each execution), and
// the other a plain value: the values are checked as they come (binlite_int_args).
func (e *emitter) paramArith(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	if e.typeOf(x, s).Known() {
		return false
	}
	l, r := unparen(x.L), unparen(x.R)
	_, lp := l.(*driver.ParamMarkerExpr)
	_, rp := r.(*driver.ParamMarkerExpr)
	if !(lp || rp) || !plainValue(l) || !plainValue(r) {
		return false
	}
	if e.typeOf(l, s).Wide() || e.typeOf(r, s).Wide() {
		// BIGINT UNSIGNED with the parameter: the engine's, exact (emitu64.go)
		e.w("binlite_u64_param_arith(" + sqlString(op) + ", ")
		e.exprStored(l, s)
		e.w(", ")
		e.exprStored(r, s)
		e.w(", " + sqlString(e.exprText(x, s)) + ")")
		return true
	}
	e.w("binlite_int_args((")
	e.expr(l, s)
	e.w(" " + op + " ")
	e.expr(r, s)
	e.w("), ")
	e.expr(l, s)
	e.w(", ")
	e.expr(r, s)
	e.w(", " + sqlString(e.exprText(x, s)) + ")")
	return true
}

func unparen(x ast.ExprNode) ast.ExprNode {
	for {
		p, ok := x.(*ast.ParenthesesExpr)
		if !ok {
			return x
		}
		x = p.Expr
	}
}

// plainValue: a parameter, a literal or a column, which costs nothing to read twice.
func plainValue(x ast.ExprNode) bool {
	switch x.(type) {
	case *driver.ParamMarkerExpr, *driver.ValueExpr, *ast.ColumnNameExpr:
		return true
	}
	return false
}

func nonZeroLiteral(x ast.ExprNode) bool {
	v, ok := x.(*driver.ValueExpr)
	switch {
	case !ok || !isNumber(v):
		return false
	case v.Kind() == driver.KindFloat64 || v.Kind() == driver.KindFloat32:
		return v.GetFloat64() != 0
	}
	return !isZeroLiteral(v)
}

// intBounds bounds the values of integer expression x: from its operands'
// bounds for arithmetic, else from its type (-Inf, +Inf when unknown).
func (e *emitter) intBounds(x ast.ExprNode, s *scope) (lo, hi float64) {
	switch x := x.(type) {
	case *ast.ParenthesesExpr:
		return e.intBounds(x.Expr, s)
	case *driver.ValueExpr:
		switch x.Kind() {
		case driver.KindInt64:
			v := float64(x.GetInt64())
			return v, v
		case driver.KindUint64:
			v := float64(x.GetUint64())
			return v, v
		}
	case *ast.UnaryOperationExpr:
		if x.Op == opcode.Minus && e.typeOf(x.V, s).isInt() {
			l, h := e.intBounds(x.V, s)
			return -h, -l
		}
	case *ast.BinaryOperationExpr:
		if !e.typeOf(x, s).isInt() {
			break
		}
		switch x.Op {
		case opcode.Plus, opcode.Minus, opcode.Mul, opcode.IntDiv, opcode.Mod:
			ll, lh := e.intBounds(x.L, s)
			rl, rh := e.intBounds(x.R, s)
			switch x.Op {
			case opcode.Plus:
				return ll + rl, lh + rh
			case opcode.Minus:
				return ll - rh, lh - rl
			case opcode.Mul:
				p := []float64{ll * rl, ll * rh, lh * rl, lh * rh}
				lo, hi = p[0], p[0]
				for _, v := range p {
					if math.IsNaN(v) {
						return math.Inf(-1), math.Inf(1)
					}
					lo, hi = min(lo, v), max(hi, v)
				}
				return lo, hi
			case opcode.IntDiv:
				m := max(math.Abs(ll), math.Abs(lh))
				return -m, m
			default: // the remainder is smaller than the divisor
				m := max(math.Abs(rl), math.Abs(rh))
				return -m, m
			}
		}
	}
	return typeBounds(e.typeOf(x, s))
}

// typeBounds bounds the values of an integer type.
func typeBounds(t ColType) (lo, hi float64) {
	unsigned := t.Flags&mp.UnsignedFlag != 0
	bits := 0
	switch t.Type {
	case mp.TypeTiny:
		bits = 8
	case mp.TypeShort:
		bits = 16
	case mp.TypeInt24:
		bits = 24
	case mp.TypeLong:
		bits = 32
	case mp.TypeYear:
		return 0, 2155
	case mp.TypeBit:
		if t.Length < 62 {
			return 0, math.Ldexp(1, int(t.Length)) - 1
		}
	case mp.TypeLongLong:
		// an expression's display width bounds its digits (a comparison's is 1)
		if t.Length > 0 && t.Length < 19 {
			hi = math.Pow(10, float64(t.Length)) - 1
			if unsigned {
				return 0, hi
			}
			return -(math.Pow(10, float64(t.Length-1)) - 1), hi
		}
	}
	if bits == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	if unsigned {
		return 0, math.Ldexp(1, bits) - 1
	}
	return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1
}

// exprText spells x as MySQL's messages name an expression: columns qualified by
// schema and table, operations in parentheses.
func (e *emitter) exprText(x ast.ExprNode, s *scope) string {
	var b strings.Builder
	e.printExpr(&b, x, s)
	return b.String()
}

var opText = map[opcode.Op]string{opcode.Plus: "+", opcode.Minus: "-", opcode.Mul: "*", opcode.Div: "/", opcode.IntDiv: "DIV", opcode.Mod: "%"}

func (e *emitter) printExpr(b *strings.Builder, x ast.ExprNode, s *scope) {
	switch x := x.(type) {
	case *ast.ParenthesesExpr:
		e.printExpr(b, x.Expr, s)
		return
	case *ast.ColumnNameExpr:
		b.WriteString(e.qualifiedColumn(x.Name, s))
		return
	case *ast.BinaryOperationExpr:
		if op, ok := opText[x.Op]; ok {
			b.WriteString("(")
			e.printExpr(b, x.L, s)
			b.WriteString(" " + op + " ")
			e.printExpr(b, x.R, s)
			b.WriteString(")")
			return
		}
	case *ast.UnaryOperationExpr:
		if x.Op == opcode.Minus {
			b.WriteString("-(")
			e.printExpr(b, x.V, s)
			b.WriteString(")")
			return
		}
	case *driver.ValueExpr:
		if p := x.OriginTextPosition(); isNumber(x) && p >= 0 && p < len(e.sql) {
			if num := decimal.NumberPrefix(e.sql[p:]); num != "" {
				b.WriteString(num) // as the statement spells it (1e308)
				return
			}
		}
		if isNumber(x) {
			b.WriteString(e.literalText(x))
			return
		}
	}
	if err := x.Restore(format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|format.RestoreNameBackQuotes, b)); err != nil {
		b.WriteString("?")
	}
}

// qualifiedColumn is `schema`.`table`.`column` for a column of a table of s.
func (e *emitter) qualifiedColumn(cn *ast.ColumnName, s *scope) string {
	for sc := s; sc != nil; sc = sc.outer {
		for _, src := range sc.sources {
			if cn.Table.O != "" && !strings.EqualFold(cn.Table.O, src.name) || src.def == nil {
				continue
			}
			if col, ok := src.def.Column(cn.Name.O); ok {
				return quoteIdent(src.schema) + "." + quoteIdent(src.name) + "." + quoteIdent(col.Name)
			}
		}
	}
	return e.columnName(cn)
}
