package compiler

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	mp "github.com/binlite/binlite/mysqlproto"
)

// MySQL's date and time functions, casts, arithmetic and comparisons of
// temporal values, and the session's time zone: the engine's functions
// (engine/temporalfuncs.go) do the work; the compiler passes them the MySQL
// types the values have (kindName), the result's type, and the session's
// offset from UTC (e.c.tz, part of the SQL cache's key).
//
// TIMESTAMP columns hold UTC: a reference reads binlite_tz_local(col, tz), and
// a value written into one goes through binlite_tz_utc, so that a replica in
// any zone stores the same text.

// sqlKind quotes a kind name for the engine's functions.
func sqlKind(t ColType) string { return "'" + kindName(t) + "'" }

func (e *emitter) tz() string { return strconv.Itoa(e.c.tz) }

// temporalCall renders MySQL's date and time functions that need more than their
// name (units, formats, time zones): it reports false for the others, which keep
// the registered function of their name.
func (e *emitter) temporalCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	if !temporalNames[name] && !isDateReader(name) && !isTimeReader(name) {
		return false
	}
	if name == "timestampadd" {
		y, ok := timestampAdd(x)
		if !ok {
			e.arity(name, x, 3, 3)
			return true
		}
		return e.temporalCall("date_add", y, s)
	}
	args := x.Args
	res := e.typeOf(x, s)
	fsp := strconv.Itoa(int(res.Decimals))
	arg := func(i int) { e.expr(args[i], s) }
	kindOf := func(i int) string { return sqlKind(e.typeOf(args[i], s)) }
	switch name {
	case "now", "localtime", "localtimestamp", "sysdate", "utc_timestamp":
		fn, zone := "binlite_now", e.tz()
		if name == "sysdate" {
			fn = "binlite_sysdate"
		}
		if name == "utc_timestamp" {
			zone = "0"
		}
		e.w(fn + "(" + strconv.Itoa(e.c.constFsp(x, 0)) + ", " + zone + ")")
	case "curdate", "utc_date":
		zone := e.tz()
		if name == "utc_date" {
			zone = "0"
		}
		e.w("binlite_curdate(" + zone + ")")
	case "curtime", "utc_time":
		zone := e.tz()
		if name == "utc_time" {
			zone = "0"
		}
		e.w("binlite_curtime(" + strconv.Itoa(e.c.constFsp(x, 0)) + ", " + zone + ")")
	case "date", "time":
		if len(args) != 1 {
			return false
		}
		e.w("binlite_cast(")
		arg(0)
		e.w(", " + kindOf(0) + ", '" + name + "', " + fsp + ", " + e.tz() + ")")
	case "timestamp":
		switch len(args) {
		case 1:
			e.w("binlite_cast(")
			arg(0)
			e.w(", " + kindOf(0) + ", 'datetime', " + fsp + ", " + e.tz() + ")")
		case 2:
			e.w("binlite_addtime(")
			arg(0)
			e.w(", " + kindOf(0) + ", ")
			arg(1)
			e.w(", 1, 'datetime', " + fsp + ")")
		default:
			return false
		}
	case "date_add", "date_sub", "adddate", "subdate":
		if len(args) != 3 {
			return false
		}
		u, ok := timeUnit(args[2])
		if !ok {
			e.fail(notYet("interval unit"))
			return true
		}
		sub := "0"
		if name == "date_sub" || name == "subdate" {
			sub = "1"
		}
		e.w("binlite_date_add(")
		arg(0)
		e.w(", " + kindOf(0) + ", " + sqlKind(res) + ", " + fsp + ", ")
		arg(1)
		e.w(", " + unitName(u) + ", " + sub + ")")
	case "addtime", "subtime":
		if len(args) != 2 {
			return false
		}
		sign := "1"
		if name == "subtime" {
			sign = "-1"
		}
		e.w("binlite_addtime(")
		arg(0)
		e.w(", " + kindOf(0) + ", ")
		arg(1)
		e.w(", " + sign + ", " + sqlKind(res) + ", " + fsp + ")")
	case "timediff":
		if len(args) != 2 {
			return false
		}
		e.w("binlite_timediff(")
		arg(0)
		e.w(", " + kindOf(0) + ", ")
		arg(1)
		e.w(", " + kindOf(1) + ", " + fsp + ")")
	case "timestampdiff":
		u, ok := timeUnit(args[0])
		if len(args) != 3 || !ok {
			return false
		}
		e.w("binlite_timestampdiff(" + unitName(u) + ", ")
		arg(1)
		e.w(", " + kindOf(1) + ", ")
		arg(2)
		e.w(", " + kindOf(2) + ")")
	case "extract":
		u, ok := timeUnit(args[0])
		if len(args) != 2 || !ok {
			return false
		}
		e.w("binlite_extract(" + unitName(u) + ", ")
		arg(1)
		e.w(", " + kindOf(1) + ")")
	case "str_to_date":
		if len(args) != 2 {
			return false
		}
		e.w("binlite_str_to_date(")
		arg(0)
		e.w(", ")
		arg(1)
		if f, ok := args[1].(*driver.ValueExpr); ok && f.Kind() == driver.KindString {
			e.w(", " + sqlKind(res) + ", " + fsp + ")")
		} else {
			e.w(", '', 6)")
		}
	case "sec_to_time":
		if len(args) != 1 {
			return false
		}
		e.w("binlite_sec_to_time(")
		arg(0)
		e.w(", " + fsp + ")")
	case "maketime":
		if len(args) != 3 {
			return false
		}
		e.w("binlite_maketime(")
		e.list(args, s)
		e.w(", " + fsp + ")")
	case "unix_timestamp":
		if len(args) == 0 {
			e.w("unix_timestamp()")
			return true
		}
		e.w("binlite_unix_timestamp(")
		arg(0)
		e.w(", " + kindOf(0) + ", " + e.tz() + ", " + strconv.Itoa(int(res.Decimals)) + ")")
	case "from_unixtime":
		if len(args) != 1 && len(args) != 2 {
			return false
		}
		e.w("binlite_from_unixtime(")
		arg(0)
		e.w(", " + e.tz() + ", " + fsp)
		if len(args) == 2 {
			e.w(", ")
			arg(1)
		}
		e.w(")")
	case "convert_tz":
		if len(args) != 3 {
			return false
		}
		e.w("binlite_convert_tz(")
		arg(0)
		e.w(", " + kindOf(0) + ", ")
		arg(1)
		e.w(", ")
		arg(2)
		e.w(", " + fsp + ")")
	case binliteTnum:
		t := e.typeOf(args[0], s)
		e.w(binliteTnum + "(")
		arg(0)
		e.w(", " + sqlKind(t) + ", " + strconv.Itoa(int(t.Decimals)) + ")")
	default:
		if !isDateReader(name) && !isTimeReader(name) || len(args) == 0 {
			return false
		}
		// A TIME read as a date is on today's date, a DATE read as a time is
		// midnight: what the value's text alone would not say.
		e.w(name + "(")
		for i := range args {
			if i > 0 {
				e.w(", ")
			}
			if i == 0 || name == "datediff" {
				e.readAs(args[i], s, isTimeReader(name))
			} else {
				arg(i)
			}
		}
		e.w(")")
	}
	return true
}

// temporalNames are the functions temporalCall renders itself.
var temporalNames = set("now", "localtime", "localtimestamp", "sysdate", "utc_timestamp", "curdate", "utc_date",
	"curtime", "utc_time", "date", "time", "timestamp", "date_add", "date_sub", "adddate", "subdate", "addtime",
	"subtime", "timediff", "timestampdiff", "extract", "str_to_date", "sec_to_time", "maketime", "unix_timestamp",
	"from_unixtime", "convert_tz", "timestampadd", binliteTnum)

// readAs renders a function's temporal argument so that its text is what the
// function reads: a TIME as a DATETIME on today's date for a date function, a
// DATE as a TIME for a time function.
func (e *emitter) readAs(x ast.ExprNode, s *scope, asTime bool) {
	k := kindName(e.typeOf(x, s))
	switch {
	case !asTime && k == "time":
		e.w("binlite_cast(")
		e.expr(x, s)
		e.w(", 'time', 'datetime', 6, " + e.tz() + ")")
	case asTime && k == "date":
		e.w("binlite_cast(")
		e.expr(x, s)
		e.w(", 'date', 'time', 0, " + e.tz() + ")")
	default:
		e.expr(x, s)
	}
}

// temporalCast renders CAST(x AS DATE|DATETIME|TIME), and a cast of a temporal
// value to a number (its number: CAST(d AS SIGNED) is 20240229).
func (e *emitter) temporalCast(x *ast.FuncCastExpr, s *scope) bool {
	tp := x.Tp
	kind := ""
	switch tp.GetType() {
	case mysql.TypeDate:
		kind = "date"
	case mysql.TypeDatetime:
		kind = "datetime"
	case mysql.TypeDuration:
		kind = "time"
	case mysql.TypeLonglong, mysql.TypeNewDecimal, mysql.TypeDouble, mysql.TypeFloat:
		if !e.typeOf(x.Expr, s).isTemporal() {
			return false
		}
		c := *x
		c.Expr = tnum(x.Expr)
		e.cast(&c, s)
		return true
	default:
		return false
	}
	fsp := 0
	if kind != "date" {
		fsp = min(max(tp.GetDecimal(), 0), 6)
	}
	e.w("binlite_cast(")
	e.expr(x.Expr, s)
	e.w(", " + sqlKind(e.typeOf(x.Expr, s)) + ", '" + kind + "', " + strconv.Itoa(fsp) + ", " + e.tz() + ")")
	return true
}

// tnum wraps a temporal value in numeric context in binlite_tnum.
func tnum(x ast.ExprNode) ast.ExprNode {
	return &ast.FuncCallExpr{FnName: ast.NewCIStr(binliteTnum), Args: []ast.ExprNode{x}}
}

// temporalArith renders arithmetic on temporal values with their numbers
// (MySQL's d + 0 is 20240229).
func (e *emitter) temporalArith(x *ast.BinaryOperationExpr, s *scope) bool {
	switch x.Op {
	case opcode.Plus, opcode.Minus, opcode.Mul, opcode.Div, opcode.IntDiv, opcode.Mod:
	default:
		return false
	}
	lt, rt := e.typeOf(x.L, s).isTemporal(), e.typeOf(x.R, s).isTemporal()
	if !lt && !rt {
		return false
	}
	c := *x
	if lt {
		c.L = tnum(x.L)
	}
	if rt {
		c.R = tnum(x.R)
	}
	e.binary(&c, s)
	return true
}

// localTimestamp renders a TIMESTAMP column read in a session whose zone is
// not UTC: its stored UTC text in the session's zone.
func (e *emitter) localTimestamp(cn *ast.ColumnNameExpr, s *scope) bool {
	if !e.readsUTC(cn, s) {
		return false
	}
	e.w("binlite_tz_local(")
	e.column(cn.Name)
	e.w(", " + e.tz() + ")")
	return true
}

// readsUTC: cn is a TIMESTAMP column whose UTC text must be moved to a session
// zone other than UTC.
func (e *emitter) readsUTC(cn *ast.ColumnNameExpr, s *scope) bool {
	if e.c.tz == 0 || s == nil || !s.tableColumn(cn.Name) {
		return false
	}
	t, _ := s.column(cn.Name)
	return t.Type == mp.TypeTimestamp
}

// timeOrder makes ORDER BY order a TIME value by its value: its text orders
// -00:00:01 after -00:00:02 and 100:00:00 before 13:00:00.
func (e *emitter) timeOrder(x ast.ExprNode, s *scope) bool {
	if _, pos := x.(*ast.PositionExpr); pos {
		return false
	}
	if cn, ok := x.(*ast.ColumnNameExpr); ok && (s == nil || !s.tableColumn(cn.Name)) {
		return false // an alias of the select list
	}
	if kindName(e.typeOf(x, s)) != "time" {
		return false
	}
	e.keyOf(x, s, "time")
	return true
}

// wildcardLocal renders SELECT * (or t.*) column by column when a TIMESTAMP
// column among them must be read in the session's zone.
func (e *emitter) wildcardLocal(w *ast.WildCardField, s *scope) bool {
	if e.c.tz == 0 || s == nil || w.Schema.O != "" {
		return false
	}
	has := false
	for _, src := range s.sources {
		if w.Table.O != "" && !strings.EqualFold(w.Table.O, src.name) || src.def == nil {
			continue
		}
		for i := range src.def.Columns {
			has = has || src.def.Columns[i].Type.Base == "timestamp"
		}
	}
	if !has {
		return false
	}
	n := 0
	for _, src := range s.sources {
		if w.Table.O != "" && !strings.EqualFold(w.Table.O, src.name) {
			continue
		}
		if src.def == nil {
			if n > 0 {
				e.w(", ")
			}
			n++
			e.w(quoteIdent(src.name) + ".*")
			continue
		}
		for i := range src.def.Columns {
			c := &src.def.Columns[i]
			if c.Invisible {
				continue
			}
			if n > 0 {
				e.w(", ")
			}
			n++
			ref := quoteIdent(src.name) + "." + quoteIdent(c.Name)
			if c.Type.Base == "timestamp" {
				e.w("binlite_tz_local(" + ref + ", " + e.tz() + ") AS " + quoteIdent(c.Name))
			} else {
				e.w(ref)
			}
		}
	}
	return true
}

// timeMinMax renders MIN and MAX of TIME values by their value (their text
// orders -00:00:01 above -00:00:02, 100:00:00 below 13:00:00).
func (e *emitter) timeMinMax(name string, x *ast.AggregateFuncExpr, s *scope) bool {
	if name != "min" && name != "max" || len(x.Args) != 1 || x.Distinct {
		return false
	}
	t := e.typeOf(x.Args[0], s)
	if kindName(t) != "time" {
		return false
	}
	e.w("binlite_time_of_key(" + name + "(")
	e.keyOf(x.Args[0], s, "time")
	e.w("), " + strconv.Itoa(int(t.Decimals)) + ")")
	return true
}

// timestampAdd is TIMESTAMPADD(unit, n, x) as the DATE_ADD(x, INTERVAL n unit)
// it is (manual 14.7).
func timestampAdd(x *ast.FuncCallExpr) (*ast.FuncCallExpr, bool) {
	if len(x.Args) != 3 {
		return nil, false
	}
	if _, ok := x.Args[0].(*ast.TimeUnitExpr); !ok {
		return nil, false
	}
	return &ast.FuncCallExpr{FnName: ast.NewCIStr("date_add"), Args: []ast.ExprNode{x.Args[2], x.Args[1], x.Args[0]}}, true
}
