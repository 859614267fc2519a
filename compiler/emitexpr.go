package compiler

import (
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/u64"
)

// binaryOps are the operators SQLite spells as MySQL does (the operands are
// parenthesised, so precedence never differs).
var binaryOps = map[opcode.Op]string{
	opcode.LogicAnd: "AND", opcode.LogicOr: "OR",
	opcode.GE: ">=", opcode.LE: "<=", opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.GT: ">",
	opcode.NullEQ: "IS",
	opcode.Plus:   "+", opcode.Minus: "-", opcode.Mul: "*",
	opcode.And: "&", opcode.Or: "|", opcode.LeftShift: "<<", opcode.RightShift: ">>",
}

// contextFunctions have values that belong to the session (or change with it):
// the session gives their values (contextfuncs.go); a call it does not answer
// stays with sqlcompat, which substitutes them.
var contextFunctions = set("database", "schema", "user", "session_user", "system_user",
	"current_user", "connection_id", "version", "last_insert_id", "row_count", "found_rows",
	"current_role")

// expr renders one expression in s's scope. A BIGINT UNSIGNED value is never
// its stored form here: where no rule of emitu64.go reads it, a value of 2^63 or
// more fails with 1235 (binlite_u64).
func (e *emitter) expr(x ast.ExprNode, s *scope) {
	if e.err != nil || e.rolledUp(x, s) {
		return
	}
	if e.yieldsStored(x, s) {
		e.strictU64(x, s)
		return
	}
	e.exprStored(x, s)
}

// exprStored renders x; a BIGINT UNSIGNED value may be in its stored form (the
// BLOB of package u64 from 2^63 up): for the callers that read that form.
func (e *emitter) exprStored(x ast.ExprNode, s *scope) {
	if e.err != nil || e.rolledUp(x, s) {
		return
	}
	if y, ok := e.typedRewrite(x, s); ok {
		x = y // ENUM/SET read as numbers, JSON compared as JSON (emitenum.go)
	}
	switch x := x.(type) {
	case *ast.ParenthesesExpr:
		e.w("(")
		e.exprStored(x.Expr, s)
		e.w(")")
	case *driver.ValueExpr:
		e.value(x)
	case *driver.ParamMarkerExpr:
		e.w("?" + strconv.Itoa(e.params[x.Offset]))
	case *ast.ColumnNameExpr:
		if e.localTimestamp(x, s) {
			return
		}
		e.column(x.Name)
	case *ast.BinaryOperationExpr:
		e.binary(x, s)
	case *ast.UnaryOperationExpr:
		e.unary(x, s)
	case *ast.IsNullExpr:
		e.w("(")
		e.exprStored(x.Expr, s)
		if x.Not {
			e.w(" IS NOT NULL)")
		} else {
			e.w(" IS NULL)")
		}
	case *ast.IsTruthExpr:
		e.w("(")
		e.expr(x.Expr, s)
		e.w(" IS ")
		if x.Not {
			e.w("NOT ")
		}
		if x.True != 0 {
			e.w("TRUE)")
		} else {
			e.w("FALSE)")
		}
	case *ast.BetweenExpr:
		if e.temporalBetween(x, s) || e.u64Between(x, s) {
			return
		}
		operand := e.expr
		if e.decimalValue(x.Expr, s) {
			operand = e.decText
		}
		e.w("(")
		operand(x.Expr, s)
		if x.Not {
			e.w(" NOT")
		}
		e.w(" BETWEEN ")
		operand(x.Left, s)
		e.w(" AND ")
		operand(x.Right, s)
		e.w(")")
	case *ast.PatternInExpr:
		if e.temporalIn(x, s) || e.u64In(x, s) {
			return
		}
		if x.Sel == nil && e.decimalValue(x.Expr, s) {
			e.w("(")
			e.decText(x.Expr, s)
			if x.Not {
				e.w(" NOT")
			}
			e.w(" IN (")
			for i, v := range x.List {
				if i > 0 {
					e.w(", ")
				}
				e.decText(v, s)
			}
			e.w("))")
			return
		}
		// A subquery's integers compare with an integer on stored forms.
		typed := x.Sel != nil && e.intSubquery(x.Expr, x.Sel, s)
		e.w("(")
		if typed {
			e.exprStored(x.Expr, s)
		} else {
			e.expr(x.Expr, s)
		}
		if x.Not {
			e.w(" NOT")
		}
		e.w(" IN ")
		if x.Sel != nil {
			e.subqueryOut(x.Sel, s, typed)
		} else {
			e.w("(")
			e.list(x.List, s)
			e.w(")")
		}
		e.w(")")
	case *ast.PatternLikeOrIlikeExpr:
		if !x.IsLike {
			e.fail(notYet("ILIKE"))
			return
		}
		e.w("(")
		e.digitArg(x.Expr, s)
		if x.Not {
			e.w(" NOT")
		}
		e.w(" LIKE ")
		e.expr(x.Pattern, s)
		// MySQL's LIKE escapes with \ unless told otherwise; SQLite's has no escape.
		if esc := e.likeEscape(x); esc != "" {
			e.w(" ESCAPE " + sqlString(esc))
		}
		e.w(")")
	case *ast.PatternRegexpExpr:
		e.regexpMatch(x, s)
	case *ast.CaseExpr:
		e.caseExpr(x, s)
	case *ast.RowExpr:
		e.w("(")
		e.list(x.Values, s)
		e.w(")")
	case *ast.SubqueryExpr:
		e.scalarSubquery(x, s)
	case *ast.ExistsSubqueryExpr:
		if x.Not {
			e.w("NOT ")
		}
		e.w("EXISTS ")
		e.subqueryOut(x.Sel, s, true) // its values are not read
	case *ast.CompareSubqueryExpr:
		typed := e.intSubquery(x.L, x.R, s)
		left := e.expr
		if typed {
			left = e.exprStored
		}
		switch {
		case x.Op == opcode.EQ && !x.All:
			e.w("(")
			left(x.L, s)
			e.w(" IN ")
		case x.Op == opcode.NE && x.All:
			e.w("(")
			left(x.L, s)
			e.w(" NOT IN ")
		default:
			e.fail(notYet("comparison with ANY/ALL"))
			return
		}
		e.subqueryOut(x.R, s, typed)
		e.w(")")
	case *ast.PositionExpr:
		if x.P != nil {
			e.fail(notYet("ORDER BY ?"))
			return
		}
		e.w(strconv.Itoa(x.N))
	case *ast.ValuesExpr:
		if !e.excluded {
			e.fail(notYet("VALUES() outside ON DUPLICATE KEY UPDATE"))
			return
		}
		if !e.valuesNoted {
			e.valuesNoted = true
			e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErWarnDeprecatedSyntax, "'VALUES function' is deprecated and will be removed in a future release. Please use an alias (INSERT INTO ... VALUES (...) AS alias) and replace VALUES(col) in the ON DUPLICATE KEY UPDATE clause with alias.col instead"))
		}
		if e.readsUTC(&ast.ColumnNameExpr{Name: x.Column.Name}, s) {
			e.w("binlite_tz_local(excluded." + quoteIdent(x.Column.Name.Name.O) + ", " + e.tz() + ")")
			return
		}
		e.w("excluded." + quoteIdent(x.Column.Name.Name.O))
	case *ast.SetCollationExpr:
		c, ok := collation.Lookup(x.Collate)
		if !ok {
			e.fail(mysqlerr.New(mysqlerr.ErUnknownCollation, "Unknown collation: '%s'", x.Collate))
			return
		}
		e.w("(")
		e.expr(x.Expr, s)
		e.w(" COLLATE " + c.SQLiteName() + ")")
	case *ast.FuncCallExpr:
		e.call(x, s)
	case *ast.AggregateFuncExpr:
		e.aggregate(x, s)
	case *ast.FuncCastExpr:
		e.cast(x, s)
	default:
		e.fail(notYet("%T", x))
	}
}

func (e *emitter) list(xs []ast.ExprNode, s *scope) {
	for i, x := range xs {
		if i > 0 {
			e.w(", ")
		}
		e.expr(x, s)
	}
}

// subquery renders a scalar subquery, whose reader types its value.
func (e *emitter) subquery(x ast.ExprNode, s *scope) { e.subqueryOut(x, s, true) }

// subqueryOut renders a subquery; typed: its reader knows its columns' types, so
// a BIGINT UNSIGNED one may be given in the stored form (see emitu64.go).
func (e *emitter) subqueryOut(x ast.ExprNode, s *scope, typed bool) {
	sq, ok := x.(*ast.SubqueryExpr)
	if !ok {
		e.fail(notYet("subquery %T", x))
		return
	}
	e.w("(")
	e.fieldOut = nil
	if typed {
		e.fieldOut = e.outTypes(sq.Query, s)
	}
	switch q := sq.Query.(type) {
	case *ast.SelectStmt:
		e.selectStmt(q, s)
	case *ast.SetOprStmt:
		e.setOpr(q, s)
	default:
		e.fail(notYet("subquery %T", q))
	}
	e.w(")")
}

// scalarSubquery renders a subquery that gives one value: MySQL refuses one that
// gives several rows (1242) where SQLite takes the first, so at most two of its
// rows go through binlite_scalar (engine/scalarsub.go). A subquery that cannot
// give two rows (an aggregate without GROUP BY, LIMIT 1, no FROM) is left as it is.
func (e *emitter) scalarSubquery(x *ast.SubqueryExpr, s *scope) {
	if oneRow(x.Query) {
		e.subquery(x, s)
		return
	}
	e.w("(WITH binlite_sub(v) AS ")
	e.subquery(x, s)
	e.w(" SELECT binlite_scalar(v) FROM (SELECT v FROM binlite_sub LIMIT 2))")
}

// oneRow reports whether a query gives one row at most whatever the data.
func oneRow(q ast.ResultSetNode) bool {
	sel, ok := q.(*ast.SelectStmt)
	if !ok {
		return false
	}
	if sel.Limit != nil && sel.Limit.Offset == nil {
		if v, ok := sel.Limit.Count.(*driver.ValueExpr); ok {
			switch n := v.GetValue().(type) {
			case uint64:
				return n <= 1
			case int64:
				return n <= 1
			}
		}
	}
	if sel.From == nil {
		return true
	}
	return sel.GroupBy == nil && sel.Having == nil && sel.Fields != nil && aggregates(sel.Fields)
}

// column renders a column reference; in an UPDATE's SET list, a column already
// assigned is its new value.
func (e *emitter) column(cn *ast.ColumnName) {
	if e.subst != nil && (cn.Table.O == "" || strings.EqualFold(cn.Table.O, e.target)) {
		if v, ok := e.subst[strings.ToLower(cn.Name.O)]; ok {
			e.w("(" + v + ")")
			return
		}
	}
	e.w(e.columnName(cn))
}

// value renders a literal.
func (e *emitter) value(v *driver.ValueExpr) {
	switch v.Kind() {
	case driver.KindNull:
		e.w("NULL")
	case driver.KindInt64:
		e.w(strconv.FormatInt(v.GetInt64(), 10))
	case driver.KindUint64:
		e.w(u64.Literal(v.GetUint64())) // from 2^63 the stored form: the literal is BIGINT UNSIGNED
	case driver.KindFloat32, driver.KindFloat64:
		e.w(floatLiteral(v.GetFloat64()))
	case driver.KindMysqlDecimal:
		e.w(v.GetMysqlDecimal().String())
	case driver.KindString:
		if v.Type.GetCharset() == "binary" {
			e.w(blobLiteral([]byte(v.GetString())))
		} else {
			e.w(sqlString(v.GetString()))
		}
	case driver.KindBytes:
		e.w(blobLiteral(v.GetBytes()))
	case driver.KindBinaryLiteral:
		if e.bitLiteral(v) {
			b := v.GetBytes()
			if len(b) > 8 {
				e.fail(notYet("bit literal wider than 64 bits"))
				return
			}
			var n uint64
			for _, c := range b {
				n = n<<8 | uint64(c)
			}
			e.w(strconv.FormatUint(n, 10))
		} else {
			e.w(blobLiteral(v.GetBytes()))
		}
	default:
		e.fail(notYet("literal kind %d", v.Kind()))
	}
}

// bitLiteral tells b'101' and 0b101 (numbers, as sqlcompat gives them) from hex
// literals (bytes) by their spelling in the text.
func (e *emitter) bitLiteral(v *driver.ValueExpr) bool {
	p := v.OriginTextPosition()
	if p < 0 || p >= len(e.sql) {
		return false
	}
	rest := e.sql[p:]
	return len(rest) > 1 && (rest[0] == 'b' || rest[0] == 'B') && rest[1] == '\'' ||
		strings.HasPrefix(rest, "0b")
}

func (e *emitter) typeOf(x ast.ExprNode, s *scope) ColType {
	if s == nil {
		s = &scope{}
	}
	return e.c.expr(x, s)
}

func (e *emitter) binary(x *ast.BinaryOperationExpr, s *scope) {
	if e.temporalArith(x, s) || e.u64Bits(x, s) {
		return
	}
	switch x.Op {
	case opcode.Div, opcode.IntDiv, opcode.Mod:
		e.division(x, s)
		return
	case opcode.LogicXor:
		e.w("((")
		e.expr(x.L, s)
		e.w(" <> 0) <> (")
		e.expr(x.R, s)
		e.w(" <> 0))")
		return
	case opcode.Xor:
		e.w("((")
		e.expr(x.L, s)
		e.w(" | ")
		e.expr(x.R, s)
		e.w(") - (")
		e.expr(x.L, s)
		e.w(" & ")
		e.expr(x.R, s)
		e.w("))")
		return
	}
	op, ok := binaryOps[x.Op]
	if !ok {
		e.fail(notYet("operator %s", x.Op))
		return
	}
	if fn, ok := decimalOps[x.Op]; ok {
		if t := arith(x.Op, e.typeOf(x.L, s), e.typeOf(x.R, s)); t.isDecimal() {
			e.decCall(fn, s, "", x.L, x.R)
			return
		}
	}
	if e.u64Compare(x, op, s) || e.temporalCompare(x, op, s) || e.jsonCompare(x, op, s) || e.binaryCompare(x, op, s) || e.decimalCompare(x, op, s) {
		return
	}
	switch x.Op {
	case opcode.Plus, opcode.Minus, opcode.Mul:
		e.doubleLiteral(x.L)
		e.doubleLiteral(x.R)
		if e.paramArith(x, op, s) {
			return
		}
		t := e.typeOf(x, s)
		if e.u64Arith(x, t, s) {
			return
		}
		operand := e.expr
		if t.isApprox() {
			operand = func(y ast.ExprNode, s *scope) {
				if e.typeOf(y, s).isString() {
					e.stringAsDouble(y, s) // a string's number, warned about as MySQL does
					return
				}
				e.realArg(y, s) // a BIGINT UNSIGNED operand of DOUBLE arithmetic
			}
		}
		if check := e.arithCheck(x, t, s); check != "" {
			e.checked(check, x, s, func() {
				e.w("(")
				operand(x.L, s)
				e.w(" " + op + " ")
				operand(x.R, s)
				e.w(")")
			})
			return
		}
	}
	// MySQL compares a string with a number as numbers; SQLite would compare a
	// text literal with a number as text (and find them unequal).
	castL, castR := false, false
	switch x.Op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
		lt, rt := e.typeOf(x.L, s), e.typeOf(x.R, s)
		castL = plainString(lt) && numeric(rt)
		castR = plainString(rt) && numeric(lt)
	}
	e.w("(")
	e.operand(x.L, s, castL)
	e.w(" " + op + " ")
	e.operand(x.R, s, castR)
	switch x.Op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
		if !castL && !castR {
			e.connectionCollation(s, x.L, x.R)
		}
	}
	e.w(")")
}

// connectionCollation makes a comparison of strings neither of which is a table
// column compare by the connection's collation, as MySQL's does ('a' = 'A' is 1
// under a _ci collation); with a column, SQLite already uses the column's.
func (e *emitter) connectionCollation(s *scope, xs ...ast.ExprNode) {
	if e.c.collation == "" {
		return
	}
	c, ok := collation.Lookup(e.c.collation)
	if !ok {
		return
	}
	if bin, ok := e.binCollated(s, xs...); ok {
		c = bin // utf8mb4_bin results (JSON_UNQUOTE, ->>) win over the connection's
	}
	for _, x := range xs {
		t := e.typeOf(x, s)
		if !t.isString() || t.Charset == mp.CharsetBinary || e.isTableColumn(x, s) {
			return
		}
		if _, explicit := x.(*ast.SetCollationExpr); explicit {
			return
		}
	}
	e.w(" COLLATE " + c.SQLiteName())
}

// plainString: a string type that compares with a number as a number (ENUM and
// SET compare by their index instead).
func plainString(t ColType) bool {
	return t.isString() && t.Flags&(mp.EnumFlag|mp.SetFlag) == 0
}

func (e *emitter) operand(x ast.ExprNode, s *scope, asNumber bool) {
	if asNumber {
		e.stringAsDouble(x, s)
		return
	}
	e.expr(x, s)
}

// stringAsDouble renders a string MySQL reads as a DOUBLE: a literal as
// SQLite's CAST (warned about at compile time if it is no clean number), any
// other through binlite_to_double, which warns as MySQL does.
func (e *emitter) stringAsDouble(x ast.ExprNode, s *scope) {
	if _, _, lit := stringLiteral(x); lit {
		e.doubleLiteral(x)
		e.w("CAST(")
		e.expr(x, s)
		e.w(" AS REAL)")
		return
	}
	e.w("binlite_to_double(")
	e.expr(x, s)
	e.w(")")
}

func (e *emitter) unary(x *ast.UnaryOperationExpr, s *scope) {
	switch x.Op {
	case opcode.Minus:
		if _, isLit := x.V.(*driver.ValueExpr); !isLit && e.typeOf(x.V, s).isDecimal() {
			e.decCall("binlite_dec_neg", s, "", x.V)
			return
		}
		if v, ok := x.V.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 && v.GetUint64() == 1<<63 {
			e.w("(-9223372036854775807 - 1)") // BIGINT's minimum, as an integer
			return
		}
		if e.typeOf(x.V, s).Wide() {
			e.w("binlite_u64_neg(")
			e.exprStored(x.V, s)
			e.w(", " + sqlString(e.exprText(x, s)) + ")")
			return
		}
		check := ""
		if e.typeOf(x.V, s).isInt() {
			if lo, _ := e.intBounds(x.V, s); !(lo > -safeInt) {
				check = "binlite_int" // -(-9223372036854775808) is beyond BIGINT
			}
		}
		e.checked(check, x, s, func() {
			e.w("(- ")
			e.expr(x.V, s)
			e.w(")")
		})
	case opcode.Plus:
		e.exprStored(x.V, s) // the operand's value and type
	case opcode.BitNeg:
		e.w("binlite_u64_bits((~ ")
		e.signedArg(x.V, s)
		e.w("))")
	case opcode.Not, opcode.Not2:
		e.w("(NOT ")
		e.expr(x.V, s)
		e.w(")")
	default:
		e.fail(notYet("operator %s", x.Op))
	}
}

// call renders a function call: MySQL's functions are registered with SQLite
// under their own names (engine/conn.go), so most keep their spelling.
func (e *emitter) call(x *ast.FuncCallExpr, s *scope) {
	name := x.FnName.L
	switch name {
	case ast.DateLiteral, ast.TimeLiteral, ast.TimestampLiteral:
		kind := map[string]string{ast.DateLiteral: "date", ast.TimeLiteral: "time", ast.TimestampLiteral: "datetime"}[name]
		v, ok := x.Args[0].(*driver.ValueExpr)
		if !ok || len(x.Args) != 1 {
			e.fail(notYet("temporal literal"))
			return
		}
		norm, ok := catalog.TemporalLiteral(kind, v.GetString())
		if !ok {
			up := strings.ToUpper(kind)
			if kind == "datetime" {
				up = "TIMESTAMP"
			}
			e.fail(mysqlerr.New(mysqlerr.ErWrongValue, "Incorrect %s value: '%s'", up, v.GetString()))
			return
		}
		e.w(sqlString(norm))
		return
	case "current_timestamp", "localtime", "localtimestamp":
		name = "now"
	case "current_date":
		name = "curdate"
	case "current_time":
		name = "curtime"
	case "substring", "mid":
		name = "substr"
	}
	if contextFunctions[name] && e.contextCall(name, x) {
		return
	}
	if contextFunctions[name] || x.Schema.O != "" {
		e.fail(notYet("function %s", name))
		return
	}
	if e.u64Function(name, x, s) {
		return
	}
	// Families of functions with their own rules, each in its own file.
	for _, family := range []func(string, *ast.FuncCallExpr, *scope) bool{e.temporalCall, e.stringCall, e.jsonCall, e.mathCall, e.flowCall, e.miscCall, e.plainCall} {
		if family(name, x, s) {
			return
		}
	}
	if isBuiltin(name) {
		e.unsupported(name)
		return
	}
	e.unknownFunction(x)
}

func (e *emitter) aggregate(x *ast.AggregateFuncExpr, s *scope) {
	e.aggDepth++
	defer func() { e.aggDepth-- }()
	name := strings.ToLower(x.F)
	switch name {
	case "count", "sum", "avg", "min", "max":
		if e.timeMinMax(name, x, s) {
			return
		}
		if (name == "min" || name == "max") && len(x.Args) == 1 && e.decimalValue(x.Args[0], s) {
			e.w(name + "(")
			e.decText(x.Args[0], s)
			e.w(")")
			return
		}
		if len(x.Args) != 1 || x.Order != nil {
			e.fail(notYet("%s with %d arguments", name, len(x.Args)))
			return
		}
		if (name == "sum" || name == "avg") && e.typeOf(x.Args[0], s).isTemporal() {
			c := *x
			c.Args = []ast.ExprNode{tnum(x.Args[0])}
			e.aggregate(&c, s)
			return
		}
		if at := e.typeOf(x.Args[0], s); (name == "sum" || name == "avg") && (at.isDecimal() || at.Wide()) {
			// exact over decimals; AVG at MySQL's scale (the argument's + 4)
			fn, extra := "binlite_dec_sum", ""
			if name == "avg" {
				fn, extra = "binlite_dec_avg", ", "+strconv.Itoa(int(e.c.aggregate(x, s).Decimals))
			}
			e.w(fn + "(")
			if x.Distinct {
				e.w("DISTINCT ")
			}
			e.decArg(x.Args[0], s)
			e.w(extra + ")")
			return
		}
		e.w(name + "(")
		if x.Distinct {
			e.w("DISTINCT ")
		}
		if v, ok := x.Args[0].(*driver.ValueExpr); ok && name == "count" && v.Kind() == driver.KindInt64 {
			e.w("*")
		} else {
			e.exprStored(x.Args[0], s) // COUNT, MIN and MAX read the stored form as the number
		}
		e.w(")")
	case "group_concat":
		e.groupConcat(x, s)
	case "bit_and", "bit_or", "bit_xor", "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp":
		if len(x.Args) != 1 || x.Order != nil {
			e.fail(notYet("%s with %d arguments", name, len(x.Args)))
			return
		}
		e.w(aggregateFuncs[name] + "(")
		if x.Distinct {
			e.w("DISTINCT ")
		}
		if strings.HasPrefix(name, "bit_") {
			e.exprStored(x.Args[0], s) // the stored form's bits are the number's
		} else {
			e.realArg(x.Args[0], s)
		}
		e.w(")")
	case "any_value":
		if len(x.Args) != 1 {
			e.fail(notYet("ANY_VALUE with %d arguments", len(x.Args)))
			return
		}
		e.exprStored(x.Args[0], s) // SQLite gives a bare value of one of the group's rows
	case "json_arrayagg", "json_objectagg":
		e.jsonAggregate(name, x, s)
	default:
		e.fail(notYet("aggregate %s", name))
	}
}

func (e *emitter) cast(x *ast.FuncCastExpr, s *scope) {
	switch x.FunctionType {
	case ast.CastFunction, ast.CastConvertFunction:
	case ast.CastBinaryOperator:
		// BINARY x is CAST(x AS BINARY), deprecated since MySQL 8.0.27
		e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErWarnDeprecatedSyntax, "'BINARY expr' is deprecated and will be removed in a future release. Please use CAST instead"))
		e.w("CAST(")
		e.digitArg(x.Expr, s)
		e.w(" AS BLOB)")
		return
	default:
		e.fail(notYet("CAST function type %d", x.FunctionType))
		return
	}
	if e.temporalCast(x, s) {
		return
	}
	tp := x.Tp
	switch tp.GetType() {
	case mysql.TypeYear:
		// YEAR of a date is its year; numbers and strings by MySQL's rules
		t := e.typeOf(x.Expr, s)
		e.w("binlite_cast_year(")
		switch {
		case t.isTemporal():
			e.w("year(")
			e.readAs(x.Expr, s, false)
			e.w("), 'n')")
		case t.isString() || !t.Known():
			e.digitArg(x.Expr, s)
			e.w(", 's')")
		default:
			e.realArg(x.Expr, s)
			e.w(", 'n')")
		}
	case mysql.TypeLonglong:
		t := e.typeOf(x.Expr, s)
		if mysql.HasUnsignedFlag(tp.GetFlag()) {
			if !t.isInt() {
				// rounded, a negative value as its two's complement
				e.w("binlite_cast_unsigned(")
				switch {
				case t.isDecimal():
					e.decArg(x.Expr, s)
					e.w(", 'd')")
				case t.isApprox():
					e.expr(x.Expr, s)
					e.w(", 'r')")
				default:
					e.digitArg(x.Expr, s)
					e.w(", 's')")
				}
				return
			}
			e.w("binlite_u64_cast(") // a negative integer is its two's complement's value
			e.exprStored(x.Expr, s)
			e.w(")")
			return
		}
		if t.Wide() {
			e.signedArg(x.Expr, s) // the signed BIGINT of its 64 bits, as MySQL's
			return
		}
		if n, ok := e.signedLiteral(x.Expr); ok {
			e.w(n)
			return
		}
		// A decimal rounds half away from zero, a double half to even (rint);
		// a string is cut at its point, as MySQL converts them.
		e.w("CAST(")
		switch {
		case t.isDecimal():
			e.w("round(")
			e.expr(x.Expr, s)
			e.w(")")
		case t.isApprox():
			e.w("binlite_round_double(")
			e.expr(x.Expr, s)
			e.w(", 0)")
		case t.isString():
			// warned about when more than an integer is in it
			e.w("binlite_to_int(")
			e.expr(x.Expr, s)
			e.w(")")
		default:
			e.expr(x.Expr, s)
		}
		e.w(" AS INTEGER)")
	case mysql.TypeVarString, mysql.TypeString, mysql.TypeVarchar:
		if tp.GetFlen() > 0 && tp.GetCharset() == "binary" {
			e.binaryCast(x.Expr, tp.GetFlen(), s)
			return
		}
		if tp.GetFlen() > 0 {
			// cut to n characters with MySQL's warning
			e.w("binlite_cast_char(")
			e.digitArg(x.Expr, s)
			e.w(", " + strconv.Itoa(tp.GetFlen()) + ")")
			return
		}
		typ := "TEXT"
		if tp.GetCharset() == "binary" {
			typ = "BLOB"
		}
		e.w("CAST(")
		e.digitArg(x.Expr, s)
		e.w(" AS " + typ + ")")
	case mysql.TypeNewDecimal:
		p, d := tp.GetFlen(), tp.GetDecimal()
		if p <= 0 {
			p = 10 // MySQL's DECIMAL is DECIMAL(10,0)
		}
		if d < 0 {
			d = 0
		}
		e.decCall("binlite_cast_dec", s, ", "+strconv.Itoa(p)+", "+strconv.Itoa(d)+", "+sqlString(e.exprText(x, s)), x.Expr)
	case mysql.TypeDouble, mysql.TypeFloat:
		e.doubleLiteral(x.Expr)
		e.w("CAST(")
		e.realArg(x.Expr, s)
		e.w(" AS REAL)")
	case mysql.TypeJSON:
		e.jsonCast(x.Expr, s)
	default:
		e.fail(notYet("CAST AS %s", tp.String()))
	}
}

// storedLiteral renders a literal written straight into a column as what the
// column keeps of it (see catalog.Type.StoreText and its siblings), with MySQL's
// note when digits are lost; row counts from 1. It returns false when x is not
// such a literal.
func (e *emitter) storedLiteral(x ast.ExprNode, col *catalog.Column, row int) bool {
	v, ok := x.(*driver.ValueExpr)
	if u, isNeg := x.(*ast.UnaryOperationExpr); isNeg && u.Op == opcode.Minus {
		// -2.5 is the minus operator on 2.5: the column keeps the negative number.
		if n, isNum := u.V.(*driver.ValueExpr); isNum && isNumber(n) {
			v, ok = &driver.ValueExpr{}, true
			v.SetValue("-" + e.literalText(n))
		}
	}
	if !ok {
		return false
	}
	ty := col.Type
	if e.ignoredLiteral(v, col, row) {
		return true
	}
	switch ty.Base {
	case "enum", "set":
		return e.enumLiteral(v, col, row)
	case "json":
		return e.jsonLiteral(v, col.Name)
	case "bit":
		// A hexadecimal literal written into a BIT column is its number; BIT(64)
		// keeps 2^63 and more in the stored form of package u64.
		if n, ok := hexValue(v); ok && ty.Wide() {
			e.w(u64.Literal(n))
			return true
		}
		if n, ok := hexNumber(v); ok {
			e.w(n)
			return true
		}
		if v.Kind() == driver.KindUint64 && ty.Wide() {
			e.w(u64.Literal(v.GetUint64()))
			return true
		}
	}
	if v.Kind() == driver.KindMysqlDecimal && (ty.IsTextual() || ty.IsBinary()) {
		// A decimal written into a string keeps its digits as written (1.50).
		if ty.IsBinary() {
			e.w(blobLiteral(ty.StoreBytes([]byte(e.literalText(v)))))
		} else {
			e.w(sqlString(e.literalText(v)))
		}
		return true
	}
	if _, _, isInt := intRange(ty); isInt && !ty.Zerofill {
		return e.intLiteral(v, col, row)
	}
	if temporalColumn(ty) {
		return e.temporalLiteral(v, col, row)
	}
	note := func(in, stored string) {
		if ty.Truncates(in, stored) {
			e.notes = append(e.notes, mysqlerr.Note(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
		}
	}
	switch v.Kind() {
	case driver.KindString:
		if v.Type.GetCharset() == "binary" {
			if !ty.IsBinary() {
				return false
			}
			e.w(blobLiteral(ty.StoreBytes([]byte(v.GetString()))))
			return true
		}
		in := v.GetString()
		if n, ok := ty.StoreNumber(in); ok && ty.Base == "decimal" {
			e.w(sqlString(n)) // exact decimal text (package decimal)
			note(in, n)
			return true
		}
		if sv, ok := ty.StoreText(in); ok {
			switch y := sv.(type) {
			case []byte:
				e.w(blobLiteral(y))
			case string:
				e.w(sqlString(y))
				note(in, y)
			}
			return true
		}
	case driver.KindBinaryLiteral:
		if ty.IsBinary() && !e.bitLiteral(v) {
			e.w(blobLiteral(ty.StoreBytes(v.GetBytes())))
			return true
		}
	case driver.KindInt64, driver.KindUint64, driver.KindMysqlDecimal, driver.KindFloat64:
		text := e.literalText(v)
		if n, ok := ty.StoreNumber(text); ok {
			if ty.Base == "decimal" {
				n = sqlString(n) // exact decimal text (package decimal)
			}
			e.w(n)
			note(text, strings.Trim(n, "'"))
			return true
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsInf(f, 0) {
			if sf, ok := ty.StoreFloat(f); ok {
				e.w(floatLiteral(sf))
				return true
			}
		}
	}
	return false
}

// literalText is a number literal's digits.
func (e *emitter) literalText(v *driver.ValueExpr) string {
	switch v.Kind() {
	case driver.KindInt64:
		return strconv.FormatInt(v.GetInt64(), 10)
	case driver.KindUint64:
		return strconv.FormatUint(v.GetUint64(), 10)
	case driver.KindMysqlDecimal:
		return v.GetMysqlDecimal().String()
	}
	return strconv.FormatFloat(v.GetFloat64(), 'g', -1, 64)
}

func isNumber(v *driver.ValueExpr) bool {
	switch v.Kind() {
	case driver.KindInt64, driver.KindUint64, driver.KindMysqlDecimal, driver.KindFloat64, driver.KindFloat32:
		return true
	}
	return false
}

// decimalOps are the arithmetic operators whose result is exact when MySQL types
// it DECIMAL (package decimal, registered by the engine).
var decimalOps = map[opcode.Op]string{opcode.Plus: "binlite_dec_add", opcode.Minus: "binlite_dec_sub", opcode.Mul: "binlite_dec_mul"}

// decCall renders fn(args..., extra) with decimal arguments.
func (e *emitter) decCall(fn string, s *scope, extra string, args ...ast.ExprNode) {
	e.w(fn + "(")
	for i, a := range args {
		if i > 0 {
			e.w(", ")
		}
		e.decArg(a, s)
	}
	e.w(extra + ")")
}

// decArg renders a decimal function's argument: a decimal literal (or an integer
// beyond BIGINT) as its exact text, which SQLite would read as a REAL.
func (e *emitter) decArg(x ast.ExprNode, s *scope) {
	if v, ok := x.(*driver.ValueExpr); ok {
		switch {
		case v.Kind() == driver.KindMysqlDecimal:
			e.w(sqlString(v.GetMysqlDecimal().String()))
			return
		case v.Kind() == driver.KindUint64 && v.GetUint64() > math.MaxInt64:
			e.w(sqlString(strconv.FormatUint(v.GetUint64(), 10)))
			return
		}
	}
	if u, ok := x.(*ast.UnaryOperationExpr); ok && u.Op == opcode.Minus {
		if v, ok := u.V.(*driver.ValueExpr); ok && isNumber(v) && v.Kind() != driver.KindFloat64 {
			e.w(sqlString("-" + e.literalText(v)))
			return
		}
	}
	if e.typeOf(x, s).Wide() {
		e.w("binlite_u64_dec(") // a BIGINT UNSIGNED as its exact digits
		e.exprStored(x, s)
		e.w(")")
		return
	}
	e.expr(x, s)
}

// decimalCompare renders a comparison with a DECIMAL side as exact decimal
// comparison, unless a side is a column: a column of exact DECIMAL text already
// compares by its collation (binlite_decimal) with what it is compared to, and
// keeps its index.
func (e *emitter) decimalCompare(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	switch x.Op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE:
	default:
		return false
	}
	lt, rt := e.typeOf(x.L, s), e.typeOf(x.R, s)
	if !(lt.isDecimal() || rt.isDecimal()) || lt.isApprox() || rt.isApprox() {
		return false
	}
	if e.isTableColumn(x.L, s) || e.isTableColumn(x.R, s) {
		return false
	}
	e.w("(")
	e.decCall("binlite_dec_cmp", s, "", x.L, x.R)
	e.w(" " + op + " 0)")
	return true
}

func (e *emitter) isTableColumn(x ast.ExprNode, s *scope) bool {
	cn, ok := x.(*ast.ColumnNameExpr)
	return ok && s != nil && s.tableColumn(cn.Name)
}

// decimalValue: x is a DECIMAL value that may be text (computed exactly, or a
// derived table's column) outside a table column, which orders by its
// collation.
func (e *emitter) decimalValue(x ast.ExprNode, s *scope) bool {
	return e.typeOf(x, s).isDecimal() && !e.isTableColumn(x, s)
}

// decText renders x as text ordered as a decimal number: SQLite compares a text
// with a number by type, not value, and text with text by the collation.
func (e *emitter) decText(x ast.ExprNode, s *scope) {
	e.w("(CAST(")
	e.decArg(x, s)
	e.w(" AS TEXT) COLLATE binlite_decimal)")
}

// decimalOrder makes ORDER BY order a DECIMAL value that may be text as a
// number, and a string that is not a column by the connection's collation.
func (e *emitter) decimalOrder(x ast.ExprNode, s *scope) {
	if _, pos := x.(*ast.PositionExpr); pos {
		return
	}
	if e.decimalValue(x, s) {
		e.w(" COLLATE binlite_decimal")
		return
	}
	if cn, ok := x.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
		return // a column, or an alias of the select list, ordered as selected
	}
	e.connectionCollation(s, x)
}
