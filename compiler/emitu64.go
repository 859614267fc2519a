package compiler

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/u64"
)

// BIGINT UNSIGNED (and BIT(64)) values from 2^63 up are kept as 8-byte
// big-endian BLOBs (package u64), which SQLite orders after every integer and
// among themselves as the numbers. The rule the emitter keeps: an expression
// whose MySQL type is BIGINT UNSIGNED (ColType.wide) yields its value in that
// stored form, and a reader of such an expression either reads the stored form
// (exprStored: comparisons with integers, ORDER BY, GROUP BY, MIN, MAX, COUNT,
// the select list a typed reader gets, the functions below) or decodes it: to
// exact decimal text for decimal arithmetic, SUM, AVG and text (binlite_u64_dec),
// to a DOUBLE where MySQL computes in doubles (binlite_u64_real). Every other
// reader goes through expr, which wraps the value in binlite_u64: a value of
// 2^63 or more fails there with 1235 instead of being computed with as a BLOB.
// The functions are package sqlitec's (C).

// storedFuncs pass a BIGINT UNSIGNED argument through (or compute one) in the
// stored form when their own type is BIGINT UNSIGNED.
var storedFuncs = set("ifnull", "coalesce", "if", "nullif", "abs", "round", "truncate")

// digitFuncs read a number argument as its decimal digits (MySQL converts it to
// text): a stored value is given to them as its digits.
var digitFuncs = set("concat", "concat_ws", "lpad", "rpad", "left", "right", "substr", "substring", "mid",
	"replace", "reverse", "repeat", "insert", "locate", "instr", "position", "upper", "lower", "ucase", "lcase",
	"trim", "ltrim", "rtrim", "quote", "char_length", "character_length", "bin", "oct", "substring_index")

// yieldsStored reports whether x's value may be in the stored form: x is
// BIGINT UNSIGNED and of a kind that passes stored values on.
func (e *emitter) yieldsStored(x ast.ExprNode, s *scope) bool {
	switch x := x.(type) {
	case *ast.ColumnNameExpr, *ast.ValuesExpr, *ast.CaseExpr, *ast.SubqueryExpr, *ast.ParenthesesExpr, *ast.FuncCastExpr:
	case *ast.BinaryOperationExpr:
		if !e.mayExceedInt64(x, s) {
			return false
		}
	case *driver.ValueExpr:
		return x.Kind() == driver.KindUint64 && x.GetUint64() > math.MaxInt64
	case *ast.UnaryOperationExpr:
		if x.Op != opcode.BitNeg && x.Op != opcode.Plus {
			return false
		}
	case *ast.FuncCallExpr:
		if !storedFuncs[x.FnName.L] {
			return false
		}
	case *ast.AggregateFuncExpr:
		switch strings.ToLower(x.F) {
		case "min", "max", "any_value":
		default:
			return false
		}
	default:
		return false
	}
	return e.typeOf(x, s).Wide()
}

// strictU64 renders x for a reader with no rule for the stored form.
func (e *emitter) strictU64(x ast.ExprNode, s *scope) {
	e.w("binlite_u64(")
	e.exprStored(x, s)
	e.w(", " + sqlString(e.exprText(x, s)) + ")")
}

// realArg renders x where MySQL reads it as a DOUBLE.
func (e *emitter) realArg(x ast.ExprNode, s *scope) {
	if e.typeOf(x, s).Wide() {
		e.w("binlite_u64_real(")
		e.exprStored(x, s)
		e.w(")")
		return
	}
	e.expr(x, s)
}

// digitArg renders x where MySQL reads it as text: a BIGINT UNSIGNED as its digits.
func (e *emitter) digitArg(x ast.ExprNode, s *scope) {
	if v, ok := x.(*driver.ValueExpr); ok && v.Kind() == driver.KindMysqlDecimal {
		// its digits as written (1.50), which SQLite's REAL would lose
		e.w(sqlString(v.GetMysqlDecimal().String()))
		return
	}
	if e.typeOf(x, s).Wide() {
		e.w("binlite_u64_dec(")
		e.exprStored(x, s)
		e.w(")")
		return
	}
	e.expr(x, s)
}

// signedArg renders an operand of SQLite's bit operators: a BIGINT UNSIGNED as the
// signed integer of its 64 bits.
func (e *emitter) signedArg(x ast.ExprNode, s *scope) {
	if e.typeOf(x, s).Wide() {
		e.w("binlite_u64_signed(")
		e.exprStored(x, s)
		e.w(")")
		return
	}
	e.expr(x, s)
}

func isCompare(op opcode.Op) bool {
	switch op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
		return true
	}
	return false
}

// keyRenderer renders one side of a comparison with a BIGINT UNSIGNED so that
// SQLite compares the stored forms: an integer as it is, a parameter or a string
// literal through binlite_u64_key (its stored form when it is a number of 2^63 or
// more), a hexadecimal literal as its number. ok=false for a side that is compared
// otherwise (a decimal, a double, a string column: decoded, see u64Compare).
func (e *emitter) keyRenderer(x ast.ExprNode, s *scope) (func(), bool) {
	if n, ok := hexValue(x); ok {
		return func() { e.w(u64.Literal(n)) }, true
	}
	t := e.typeOf(x, s)
	switch {
	case t.isInt() || isNullLiteral(x):
		return func() { e.exprStored(x, s) }, true
	case isParam(unparen(x)) || isStringLiteral(x):
		return func() {
			e.w("binlite_u64_key(")
			e.expr(x, s)
			e.w(")")
		}, true
	}
	return nil, false
}

// u64Keys gives the renderers of a comparison's sides when one is BIGINT
// UNSIGNED and both can be compared in the stored form.
func (e *emitter) u64Keys(l, r ast.ExprNode, s *scope) (func(), func(), bool) {
	if !e.typeOf(l, s).Wide() && !e.typeOf(r, s).Wide() {
		return nil, nil, false
	}
	lk, lok := e.keyRenderer(l, s)
	rk, rok := e.keyRenderer(r, s)
	return lk, rk, lok && rok
}

// u64Compare renders a comparison with a BIGINT UNSIGNED side: with an integer
// (of any type), a parameter or a string literal on the stored forms, which
// SQLite orders as the numbers (and an index serves); with a DECIMAL as exact
// decimals; with a DOUBLE or a string as doubles, as MySQL compares them. It
// reports false for other comparisons.
func (e *emitter) u64Compare(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	if !isCompare(x.Op) {
		return false
	}
	if e.u64RowCompare(x, op, s) {
		return true
	}
	lt, rt := e.typeOf(x.L, s), e.typeOf(x.R, s)
	if !lt.Wide() && !rt.Wide() {
		return false
	}
	if l, r, ok := e.u64Keys(x.L, x.R, s); ok {
		e.w("(")
		l()
		e.w(" " + op + " ")
		r()
		e.w(")")
		return true
	}
	other := rt
	if !lt.Wide() {
		other = lt
	}
	switch {
	case other.isDecimal() && x.Op != opcode.NullEQ:
		e.w("(")
		e.decCall("binlite_dec_cmp", s, "", x.L, x.R)
		e.w(" " + op + " 0)")
	case other.isApprox() || other.isString():
		side := func(y ast.ExprNode, t ColType) {
			if t.isString() {
				e.w("CAST(")
				e.expr(y, s)
				e.w(" AS REAL)")
				return
			}
			e.realArg(y, s)
		}
		e.w("(")
		side(x.L, lt)
		e.w(" " + op + " ")
		side(x.R, rt)
		e.w(")")
	default:
		return false // read through binlite_u64
	}
	return true
}

// u64RowCompare renders (a, b, ...) op (c, d, ...) with a BIGINT UNSIGNED in a
// pair whose every pair compares on stored forms (u64Keys).
func (e *emitter) u64RowCompare(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	lr, ok1 := unparen(x.L).(*ast.RowExpr)
	rr, ok2 := unparen(x.R).(*ast.RowExpr)
	if !ok1 || !ok2 || len(lr.Values) != len(rr.Values) {
		return false
	}
	var ls, rs []func()
	wide := false
	for i := range lr.Values {
		l, r := lr.Values[i], rr.Values[i]
		if !e.typeOf(l, s).Wide() && !e.typeOf(r, s).Wide() {
			ls = append(ls, func() { e.expr(l, s) })
			rs = append(rs, func() { e.expr(r, s) })
			continue
		}
		lk, rk, ok := e.u64Keys(l, r, s)
		if !ok {
			return false
		}
		wide = true
		ls, rs = append(ls, lk), append(rs, rk)
	}
	if !wide {
		return false
	}
	row := func(fs []func()) {
		e.w("(")
		for i, f := range fs {
			if i > 0 {
				e.w(", ")
			}
			f()
		}
		e.w(")")
	}
	e.w("(")
	row(ls)
	e.w(" " + op + " ")
	row(rs)
	e.w(")")
	return true
}

// u64Between renders x [NOT] BETWEEN a AND b with a BIGINT UNSIGNED among them on
// stored forms; false when one of them is not compared so.
func (e *emitter) u64Between(x *ast.BetweenExpr, s *scope) bool {
	if !e.typeOf(x.Expr, s).Wide() && !e.typeOf(x.Left, s).Wide() && !e.typeOf(x.Right, s).Wide() {
		return false
	}
	v, ok1 := e.keyRenderer(x.Expr, s)
	lo, ok2 := e.keyRenderer(x.Left, s)
	hi, ok3 := e.keyRenderer(x.Right, s)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	e.w("(")
	v()
	if x.Not {
		e.w(" NOT")
	}
	e.w(" BETWEEN ")
	lo()
	e.w(" AND ")
	hi()
	e.w(")")
	return true
}

// u64In renders x [NOT] IN (list) with a BIGINT UNSIGNED among them on stored
// forms; false when an item is not compared so.
func (e *emitter) u64In(x *ast.PatternInExpr, s *scope) bool {
	if x.Sel != nil {
		return false
	}
	wide := e.typeOf(x.Expr, s).Wide()
	for _, v := range x.List {
		wide = wide || e.typeOf(v, s).Wide()
	}
	if !wide {
		return false
	}
	l, ok := e.keyRenderer(x.Expr, s)
	if !ok {
		return false
	}
	items := make([]func(), len(x.List))
	for i, v := range x.List {
		if items[i], ok = e.keyRenderer(v, s); !ok {
			return false
		}
	}
	e.w("(")
	l()
	if x.Not {
		e.w(" NOT")
	}
	e.w(" IN (")
	for i, f := range items {
		if i > 0 {
			e.w(", ")
		}
		f()
	}
	e.w("))")
	return true
}

// intSubquery: x IN (subquery) compares integers, which stored forms compare
// as the numbers: x and the subquery's one column are integers.
func (e *emitter) intSubquery(x, sub ast.ExprNode, s *scope) bool {
	sq, ok := sub.(*ast.SubqueryExpr)
	if !ok || !e.typeOf(x, s).isInt() {
		return false
	}
	cols := e.outTypes(sq.Query, s)
	return len(cols) == 1 && cols[0].isInt()
}

// u64Ops are the engine's exact BIGINT UNSIGNED arithmetic.
var u64Ops = map[opcode.Op]string{opcode.Plus: "binlite_u64_add", opcode.Minus: "binlite_u64_sub", opcode.Mul: "binlite_u64_mul"}

// u64Arith renders a + b, a - b or a * b whose MySQL type is BIGINT UNSIGNED
// exactly (1690 outside [0, 2^64)), unless its operands' ranges prove it stays
// below 2^63, where SQLite's arithmetic (checked for a result below 0 by
// arithCheck) is the same.
func (e *emitter) u64Arith(x *ast.BinaryOperationExpr, t ColType, s *scope) bool {
	fn, ok := u64Ops[x.Op]
	if !ok || !t.Wide() || !e.mayExceedInt64(x, s) {
		return false
	}
	e.u64Call(fn, x, s, "")
	return true
}

// mayExceedInt64 reports whether binary operation x, of type BIGINT UNSIGNED,
// may have a value of 2^63 or more, which is then in the stored form: arithmetic
// whose operands' ranges do not prove otherwise, a shift, a bit operation on an
// operand that may be negative or BIGINT UNSIGNED (u64Bits).
func (e *emitter) mayExceedInt64(x *ast.BinaryOperationExpr, s *scope) bool {
	switch x.Op {
	case opcode.LeftShift, opcode.RightShift, opcode.Xor:
		return true
	case opcode.And, opcode.Or:
		return !e.nonNegative(x.L, s) || !e.nonNegative(x.R, s)
	case opcode.Plus, opcode.Minus, opcode.Mul, opcode.IntDiv, opcode.Mod:
		_, hi := e.intBounds(x, s)
		return !(hi < safeInt)
	}
	return false
}

// u64Call renders fn(a, b[, extra], expr) over a binary operation's operands in
// their stored form.
func (e *emitter) u64Call(fn string, x *ast.BinaryOperationExpr, s *scope, extra string) {
	e.w(fn + "(")
	e.exprStored(x.L, s)
	e.w(", ")
	e.exprStored(x.R, s)
	e.w(extra + ", " + sqlString(e.exprText(x, s)) + ")")
}

// u64Bits renders MySQL's bit operators, whose result is BIGINT UNSIGNED: a
// shift over 64 unsigned bits; &, | and ^ on the operands' 64 bits, a result
// SQLite gives negative taken as its unsigned value. An & or | of operands that
// are never negative is left as SQLite spells it.
func (e *emitter) u64Bits(x *ast.BinaryOperationExpr, s *scope) bool {
	switch x.Op {
	case opcode.LeftShift, opcode.RightShift:
		fn := "binlite_u64_shl("
		if x.Op == opcode.RightShift {
			fn = "binlite_u64_shr("
		}
		e.w(fn)
		e.exprStored(x.L, s)
		e.w(", ")
		e.exprStored(x.R, s)
		e.w(")")
		return true
	case opcode.And, opcode.Or, opcode.Xor:
	default:
		return false
	}
	if !e.mayExceedInt64(x, s) {
		return false
	}
	e.w("binlite_u64_bits(")
	if x.Op == opcode.Xor {
		e.w("((")
		e.signedArg(x.L, s)
		e.w(" | ")
		e.signedArg(x.R, s)
		e.w(") - (")
		e.signedArg(x.L, s)
		e.w(" & ")
		e.signedArg(x.R, s)
		e.w(")))")
		return true
	}
	e.w("(")
	e.signedArg(x.L, s)
	e.w(map[opcode.Op]string{opcode.And: " & ", opcode.Or: " | "}[x.Op])
	e.signedArg(x.R, s)
	e.w("))")
	return true
}

// nonNegative: x is an integer below 2^63 and never negative.
func (e *emitter) nonNegative(x ast.ExprNode, s *scope) bool {
	if f, ok := unparen(x).(*ast.FuncCallExpr); ok && (f.FnName.L == fnEnumIndex || f.FnName.L == fnSetMask) {
		return true // an ENUM's index, a SET's bit mask (emitenum.go)
	}
	t := e.typeOf(x, s)
	if t.Flags&(mp.EnumFlag|mp.SetFlag) != 0 {
		return true // read as its index or bit mask
	}
	if !t.isInt() || t.Wide() {
		return false
	}
	lo, hi := e.intBounds(x, s)
	return lo >= 0 && hi < safeInt
}

// u64Function renders the functions with a rule for BIGINT UNSIGNED arguments:
// IFNULL, COALESCE, IF and NULLIF pass them on stored, ABS of one is itself, HEX
// reads the stored form's bytes (which are the number's), CAST to a number or
// text decodes it. It reports false for the others.
func (e *emitter) u64Function(name string, x *ast.FuncCallExpr, s *scope) bool {
	switch name {
	case "ifnull", "coalesce", "if", "nullif":
		if !e.typeOf(x, s).Wide() {
			return false
		}
		if name == "nullif" && (len(x.Args) != 2 || !e.typeOf(x.Args[1], s).isInt()) {
			return false
		}
		e.w(name + "(")
		for i, a := range x.Args {
			if i > 0 {
				e.w(", ")
			}
			if name == "if" && i == 0 {
				e.expr(a, s)
			} else {
				e.exprStored(a, s)
			}
		}
		e.w(")")
		return true
	case "abs":
		if len(x.Args) != 1 || !e.typeOf(x.Args[0], s).Wide() {
			return false
		}
		e.exprStored(x.Args[0], s)
		return true
	case "hex":
		if len(x.Args) != 1 || !e.typeOf(x.Args[0], s).Wide() {
			return false
		}
		e.w("hex(")
		e.exprStored(x.Args[0], s)
		e.w(")")
		return true
	}
	return false
}

// argList renders a function's arguments: a BIGINT UNSIGNED as its digits where
// the function reads text, as a DOUBLE where it computes in doubles.
func (e *emitter) argList(name string, xs []ast.ExprNode, s *scope) {
	for i, x := range xs {
		if i > 0 {
			e.w(", ")
		}
		switch {
		case digitFuncs[name]:
			e.digitArg(x, s)
		case doubleFuncs[name]:
			e.realArg(x, s)
		default:
			e.expr(x, s)
		}
	}
}

// fieldStored reports whether the select list's output column i may give its
// reader the stored form: the reader knows the column is BIGINT UNSIGNED.
func fieldStored(out []ColType, i int) bool { return i < len(out) && out[i].Wide() }

// outTypes are a query's result types as a reader that types them (a derived
// table, a scalar subquery, the client) sees them; nil when not known.
func (e *emitter) outTypes(q ast.ResultSetNode, outer *scope) []ColType {
	cols := e.c.queryColumns(q, outer)
	if cols == nil {
		return nil
	}
	out := make([]ColType, len(cols))
	for i, c := range cols {
		out[i] = c.t
	}
	return out
}

// u64Wildcard renders SELECT * or t.* whose columns include a BIGINT UNSIGNED
// one the reader does not get as such (out, from column first): as the column
// list, that one read through binlite_u64. It reports false when * can stay.
func (e *emitter) u64Wildcard(w *ast.WildCardField, s *scope, out []ColType, first int) bool {
	if s == nil || w.Schema.O != "" {
		return false
	}
	cols, ok := s.expand(w)
	if !ok {
		return false
	}
	needed := false
	for k, c := range cols {
		needed = needed || c.t.Wide() && !fieldStored(out, first+k)
	}
	if !needed {
		return false
	}
	n, k := 0, 0
	for _, src := range s.sources {
		if w.Table.O != "" && !strings.EqualFold(w.Table.O, src.name) {
			continue
		}
		var names []namedType
		local := map[string]bool{} // TIMESTAMP columns shown in the session's zone
		if src.def != nil {
			for i := range src.def.Columns {
				if c := &src.def.Columns[i]; !c.Invisible {
					names = append(names, namedType{c.Name, FromColumn(c)})
					local[c.Name] = c.Type.Base == "timestamp" && e.c.tz != 0
				}
			}
		} else {
			names = src.cols
		}
		for _, c := range names {
			if n > 0 {
				e.w(", ")
			}
			n++
			ref := quoteIdent(src.name) + "." + quoteIdent(c.name)
			switch {
			case local[c.name]:
				e.w("binlite_tz_local(" + ref + ", " + e.tz() + ") AS " + quoteIdent(c.name))
			case !c.t.Wide() || fieldStored(out, first+k):
				e.w(ref)
			default:
				e.w("binlite_u64(" + ref + ", " + sqlString(ref) + ") AS " + quoteIdent(c.name))
			}
			k++
		}
	}
	return true
}

// hexValue is a hexadecimal (or bit) literal's number, as MySQL reads it in a
// numeric context: its bytes big-endian.
func hexValue(x ast.ExprNode) (uint64, bool) {
	v, ok := x.(*driver.ValueExpr)
	if !ok || v.Kind() != driver.KindBinaryLiteral || len(v.GetBytes()) > 8 {
		return 0, false
	}
	var b [8]byte
	copy(b[8-len(v.GetBytes()):], v.GetBytes())
	return binary.BigEndian.Uint64(b[:]), true
}

func isStringLiteral(x ast.ExprNode) bool {
	v, ok := unparen(x).(*driver.ValueExpr)
	return ok && v.Kind() == driver.KindString && v.Type.GetCharset() != "binary"
}

// caseExpr renders CASE: a value compared with its WHEN values on stored forms
// when all are integers, the results in the stored form when the CASE itself is
// BIGINT UNSIGNED.
func (e *emitter) caseExpr(x *ast.CaseExpr, s *scope) {
	value := e.expr
	if x.Value != nil && e.typeOf(x.Value, s).isInt() {
		keyed := true
		for _, wc := range x.WhenClauses {
			keyed = keyed && e.typeOf(wc.Expr, s).isInt()
		}
		if keyed {
			value = e.exprStored
		}
	}
	result := e.expr
	if e.typeOf(x, s).Wide() {
		result = e.exprStored
	}
	e.w("CASE")
	if x.Value != nil {
		e.w(" ")
		value(x.Value, s)
	}
	for _, wc := range x.WhenClauses {
		e.w(" WHEN ")
		if x.Value != nil {
			value(wc.Expr, s)
		} else {
			e.expr(wc.Expr, s)
		}
		e.w(" THEN ")
		result(wc.Result, s)
	}
	if x.ElseClause != nil {
		e.w(" ELSE ")
		result(x.ElseClause, s)
	}
	e.w(" END")
}

// storedU64 renders a computed value written into a BIGINT UNSIGNED or BIT(64)
// column, where the statement does not adjust values: an integer as it is (the
// value checks refuse a negative one, 1264), a decimal, a double or a value of a
// type the compiler does not know (a parameter's arithmetic) rounded half away
// from zero into the stored form (binlite_u64_store, 1264 outside the range;
// text that is no number is left to the value checks). It reports false for
// other values (strings), which go in as they are.
func (e *emitter) storedU64(x ast.ExprNode, col *catalog.Column, s *scope) bool {
	t := e.typeOf(x, s)
	switch {
	case t.isInt():
		e.exprStored(x, s)
	case (t.isDecimal() || t.isApprox() || !t.Known() && !isParam(unparen(x))) && col.Type.Base == "bigint":
		e.w("binlite_u64_store(")
		e.decArg(x, s)
		e.w(", " + sqlString(col.Name) + ")")
	default:
		return false
	}
	return true
}
