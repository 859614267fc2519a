package compiler

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/temporal"
)

// Comparisons of temporal values as MySQL makes them: as dates, datetimes or
// times, never as text ('2024-02-29 00:00:00' > '2024-02-29' is false). A
// DATE, DATETIME or TIMESTAMP column keeps its stored text on its side of the
// comparison, so that its index serves: the other side is turned into text
// that compares with the column's as the values do (temporal.Key).

// compareKind is the kind two values compare as when one is temporal: DATE with
// DATE as dates, a TIME with a TIME (or a non-temporal value) as times,
// anything else as datetimes. ok=false: neither is temporal.
func compareKind(ts ...ColType) (string, bool) {
	kinds := map[string]bool{}
	for _, t := range ts {
		if k := kindName(t); k != "" {
			kinds[k] = true
		}
	}
	switch {
	case len(kinds) == 0:
		return "", false
	case len(kinds) == 1 && kinds["date"]:
		return "date", true
	case len(kinds) == 1 && kinds["time"]:
		return "time", true
	}
	return "datetime", true
}

// temporalColumn is x as a table column of kind DATE, DATETIME or TIMESTAMP
// whose stored text compares by temporal.Key (and keeps its index), with its
// type; ok=false otherwise.
func (e *emitter) temporalColumn(x ast.ExprNode, s *scope) (*ast.ColumnNameExpr, ColType, bool) {
	cn, ok := x.(*ast.ColumnNameExpr)
	if !ok || s == nil || !s.tableColumn(cn.Name) || e.subst != nil {
		return nil, ColType{}, false
	}
	t := e.typeOf(x, s)
	switch kindName(t) {
	case "date", "datetime":
		return cn, t, true
	}
	return nil, ColType{}, false
}

// key renders the value x compares by against a column of type col (kind and
// fsp): a literal's key is worked out now, anything else's by binlite_tkey.
// Against a TIMESTAMP column the value is read in the session's zone and
// compared in UTC, as the column stores it.
func (e *emitter) key(x ast.ExprNode, s *scope, col ColType) {
	kind := kindName(col)
	fsp := int(col.Decimals)
	utc := col.Type == mp.TypeTimestamp && e.c.tz != 0
	if v, ok := e.literalDatetime(x); ok {
		if utc {
			v, ok = v.Shift(-e.c.tz)
		}
		if ok {
			e.w(sqlString(temporal.Key(v, temporalKind(kind), fsp)))
			return
		}
	}
	src := sqlKind(e.typeOf(x, s))
	e.w("binlite_tkey(")
	if utc {
		e.w("binlite_tz_utc(")
		e.expr(x, s)
		e.w(", " + src + ", 6, " + e.tz() + ")")
		src = "'datetime'"
	} else {
		e.expr(x, s)
	}
	e.w(", " + src + ", '" + kind + "', " + strconv.Itoa(fsp) + ")")
}

// keyOf renders a value's key in a comparison of kind (no column side).
func (e *emitter) keyOf(x ast.ExprNode, s *scope, kind string) {
	e.w("binlite_tkey(")
	e.expr(x, s)
	e.w(", " + sqlKind(e.typeOf(x, s)) + ", '" + kind + "', 6)")
}

func temporalKind(k string) temporal.Kind {
	switch k {
	case "date":
		return temporal.Date
	case "time":
		return temporal.Time
	}
	return temporal.Datetime
}

// literalDatetime reads a literal (string, number, DATE '...') as a DATE or
// DATETIME value, zero dates included (MySQL compares them); ok=false for
// anything else or an invalid one.
func (e *emitter) literalDatetime(x ast.ExprNode) (temporal.Value, bool) {
	switch v := x.(type) {
	case *driver.ValueExpr:
		switch v.Kind() {
		case driver.KindString:
			if v.Type.GetCharset() == "binary" {
				return temporal.Value{}, false
			}
			p, ok := temporal.ParseDatetimeZero(v.GetString())
			return p.Value, ok && !p.Trailing && !p.HasOffset
		case driver.KindInt64, driver.KindUint64, driver.KindMysqlDecimal:
			p, ok := temporal.FromNumberZero(e.literalText(v))
			return p.Value, ok
		}
	case *ast.FuncCallExpr:
		switch x.(*ast.FuncCallExpr).FnName.L {
		case ast.DateLiteral, ast.TimestampLiteral:
			if lit, ok := v.Args[0].(*driver.ValueExpr); ok {
				p, ok := temporal.ParseDatetimeZero(lit.GetString())
				return p.Value, ok && !p.Trailing
			}
		}
	}
	return temporal.Value{}, false
}

// temporalCompare renders a comparison in which a value is temporal as MySQL
// compares it: as dates, datetimes or times, not as text. A DATE, DATETIME or
// TIMESTAMP column is compared as stored with the other side's key, so that
// its index serves.
func (e *emitter) temporalCompare(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	switch x.Op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
	default:
		return false
	}
	lt, rt := e.typeOf(x.L, s), e.typeOf(x.R, s)
	kind, ok := compareKind(lt, rt)
	if !ok {
		return false
	}
	if kind == "datetime" && lt.Type == rt.Type && lt.Decimals == rt.Decimals && (lt.Type == mp.TypeDatetime || lt.Type == mp.TypeTimestamp) ||
		kind == "date" && lt.Type == rt.Type {
		return false // the same spelling on both sides: text compares as MySQL
	}
	e.w("(")
	if kind != "time" {
		if cn, ct, ok := e.temporalColumn(x.L, s); ok {
			e.w(e.columnName(cn.Name) + " " + op + " ")
			e.key(x.R, s, ct)
			e.w(")")
			return true
		}
		if cn, ct, ok := e.temporalColumn(x.R, s); ok {
			e.key(x.L, s, ct)
			e.w(" " + op + " " + e.columnName(cn.Name) + ")")
			return true
		}
	}
	e.keyOf(x.L, s, kind)
	e.w(" " + op + " ")
	e.keyOf(x.R, s, kind)
	e.w(")")
	return true
}

// temporalBetween renders x [NOT] BETWEEN a AND b with a temporal value.
func (e *emitter) temporalBetween(x *ast.BetweenExpr, s *scope) bool {
	kind, ok := compareKind(e.typeOf(x.Expr, s), e.typeOf(x.Left, s), e.typeOf(x.Right, s))
	if !ok {
		return false
	}
	not := ""
	if x.Not {
		not = " NOT"
	}
	if cn, ct, ok := e.temporalColumn(x.Expr, s); ok && kind != "time" {
		e.w("(" + e.columnName(cn.Name) + not + " BETWEEN ")
		e.key(x.Left, s, ct)
		e.w(" AND ")
		e.key(x.Right, s, ct)
		e.w(")")
		return true
	}
	e.w("(")
	e.keyOf(x.Expr, s, kind)
	e.w(not + " BETWEEN ")
	e.keyOf(x.Left, s, kind)
	e.w(" AND ")
	e.keyOf(x.Right, s, kind)
	e.w(")")
	return true
}

// temporalIn renders x [NOT] IN (list) with a temporal value.
func (e *emitter) temporalIn(x *ast.PatternInExpr, s *scope) bool {
	if x.Sel != nil {
		return false
	}
	types := []ColType{e.typeOf(x.Expr, s)}
	for _, v := range x.List {
		types = append(types, e.typeOf(v, s))
	}
	kind, ok := compareKind(types...)
	if !ok || !types[0].isTemporal() {
		return false
	}
	not := ""
	if x.Not {
		not = " NOT"
	}
	cn, ct, isCol := e.temporalColumn(x.Expr, s)
	isCol = isCol && kind != "time"
	e.w("(")
	if isCol {
		e.w(e.columnName(cn.Name))
	} else {
		e.keyOf(x.Expr, s, kind)
	}
	e.w(not + " IN (")
	for i, v := range x.List {
		if i > 0 {
			e.w(", ")
		}
		if isCol {
			e.key(v, s, ct)
		} else {
			e.keyOf(v, s, kind)
		}
	}
	e.w("))")
	return true
}
