package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/temporal"
)

// MySQL's result types of its date and time functions: a DATE, DATETIME(fsp)
// or TIME(fsp) worked out from the arguments' types, as MySQL resolves them
// (DATE_ADD of a DATE by days is a DATE, by hours a DATETIME; of a string, a
// VARCHAR).

func dateType() ColType { return columnType(catalog.Type{Base: "date"}) }

func datetimeType(fsp int) ColType {
	return columnType(catalog.Type{Base: "datetime", Scale: min(max(fsp, 0), 6)})
}

func timeType(fsp int) ColType {
	return columnType(catalog.Type{Base: "time", Scale: min(max(fsp, 0), 6)})
}

// kindName names a temporal type for the engine's functions: "date",
// "datetime" (TIMESTAMP too), "time", or "" for any other type (its value is
// read by its content).
func kindName(t ColType) string {
	switch t.Type {
	case mp.TypeDate:
		return "date"
	case mp.TypeDatetime, mp.TypeTimestamp:
		return "datetime"
	case mp.TypeTime:
		return "time"
	}
	return ""
}

// precision is MySQL's datetime_precision() (asTime: time_precision()) of an
// argument: a temporal value's fsp, the fractional digits a string literal
// writes, a number's scale, six for anything else.
func (c *compiler) precision(x ast.ExprNode, s *scope, asTime bool) int {
	if v, ok := x.(*driver.ValueExpr); ok {
		switch v.Kind() {
		case driver.KindString:
			c.valueTyped = true
			var p temporal.Parsed
			var ok bool
			if asTime {
				p, ok = temporal.ParseTime(v.GetString())
			} else {
				p, ok = temporal.ParseDatetime(v.GetString())
			}
			if ok {
				return p.Frac
			}
			return 0
		case driver.KindInt64, driver.KindUint64, driver.KindNull:
			return 0
		case driver.KindMysqlDecimal:
			return min(int(literalType(v).Decimals), 6)
		}
		return 6
	}
	t := c.expr(x, s)
	switch {
	case t.isTemporal():
		return int(t.Decimals)
	case t.isInt():
		return 0
	case t.isDecimal():
		return min(int(t.Decimals), 6)
	}
	return 6
}

// decimals is MySQL's Item::decimals of a number argument, at most six: an
// integer's 0, a DECIMAL's scale, six for floats and strings.
func (c *compiler) decimals(x ast.ExprNode, s *scope) int {
	if v, ok := x.(*driver.ValueExpr); ok {
		switch v.Kind() {
		case driver.KindInt64, driver.KindUint64, driver.KindNull:
			return 0
		case driver.KindMysqlDecimal:
			return min(int(literalType(v).Decimals), 6)
		}
		return 6
	}
	t := c.expr(x, s)
	switch {
	case t.isInt():
		return 0
	case t.isDecimal(), t.isTemporal():
		return min(int(t.Decimals), 6)
	}
	return 6
}

// constFsp is the fractional digits a function's optional constant argument
// asks for (NOW(3)).
func (c *compiler) constFsp(x *ast.FuncCallExpr, i int) int {
	if i < len(x.Args) {
		if v, ok := x.Args[i].(*driver.ValueExpr); ok {
			c.valueTyped = true
			return min(max(int(v.GetInt64()), 0), 6)
		}
	}
	return 0
}

// timeUnit is the unit argument of DATE_ADD, EXTRACT, TIMESTAMPDIFF.
func timeUnit(x ast.ExprNode) (temporal.Unit, bool) {
	tu, ok := x.(*ast.TimeUnitExpr)
	if !ok {
		return "", false
	}
	return temporal.ParseUnit(tu.Unit.String())
}

// dateAddType is DATE_ADD's result: see MySQL's Item_date_add_interval.
func (c *compiler) dateAddType(x *ast.FuncCallExpr, s *scope) ColType {
	if len(x.Args) != 3 {
		return ColType{}
	}
	u, ok := timeUnit(x.Args[2])
	if !ok {
		return ColType{}
	}
	ifsp := 0
	if u.HasMicros() {
		ifsp = 6
	} else if u == temporal.Second {
		ifsp = c.decimals(x.Args[1], s)
	}
	t := c.expr(x.Args[0], s)
	switch kindName(t) {
	case "datetime":
		return datetimeType(max(int(t.Decimals), ifsp))
	case "date":
		if u.DateOnly() {
			return dateType()
		}
		return datetimeType(ifsp)
	case "time":
		return timeType(max(int(t.Decimals), ifsp))
	}
	if !t.Known() {
		return ColType{}
	}
	r := typeVarchar
	r.Length = 29 * 4
	return r
}

// temporalFunction types MySQL's date and time functions; ok=false for others.
func (c *compiler) temporalFunction(name string, x *ast.FuncCallExpr, s *scope) (ColType, bool) {
	arg := func(i int) ColType {
		if i < len(x.Args) {
			return c.expr(x.Args[i], s)
		}
		return ColType{}
	}
	switch name {
	case ast.DateLiteral, ast.TimeLiteral, ast.TimestampLiteral:
		lit, ok := x.Args[0].(*driver.ValueExpr)
		if !ok || len(x.Args) != 1 {
			return ColType{}, true
		}
		if name == ast.DateLiteral {
			return dateType(), true
		}
		frac := 0
		c.valueTyped = true
		if _, f, ok := strings.Cut(strings.TrimSpace(lit.GetString()), "."); ok {
			frac = len(f)
		}
		if name == ast.TimeLiteral {
			return timeType(frac), true
		}
		return datetimeType(frac), true
	case "now", "current_timestamp", "localtime", "localtimestamp", "sysdate", "utc_timestamp":
		return datetimeType(c.constFsp(x, 0)), true
	case "curdate", "current_date", "utc_date":
		return dateType(), true
	case "curtime", "current_time", "utc_time":
		return timeType(c.constFsp(x, 0)), true
	case "date", "last_day", "from_days", "makedate":
		return dateType(), true
	case "time":
		if len(x.Args) != 1 {
			return ColType{}, true
		}
		return timeType(c.precision(x.Args[0], s, true)), true
	case "timestamp":
		switch len(x.Args) {
		case 1:
			return datetimeType(c.precision(x.Args[0], s, false)), true
		case 2:
			return datetimeType(max(c.precision(x.Args[0], s, false), c.precision(x.Args[1], s, true))), true
		}
		return ColType{}, true
	case "date_add", "date_sub", "adddate", "subdate":
		return c.dateAddType(x, s), true
	case "timestampadd":
		if y, ok := timestampAdd(x); ok {
			return c.dateAddType(y, s), true
		}
		return ColType{}, true
	case "addtime", "subtime":
		if len(x.Args) != 2 {
			return ColType{}, true
		}
		t := arg(0)
		switch kindName(t) {
		case "time":
			return timeType(max(int(t.Decimals), c.precision(x.Args[1], s, true))), true
		case "datetime":
			return datetimeType(max(int(t.Decimals), c.precision(x.Args[1], s, true))), true
		}
		if !t.Known() {
			return ColType{}, true
		}
		r := typeVarchar
		r.Length = 29 * 4
		return r, true
	case "timediff":
		if len(x.Args) != 2 {
			return ColType{}, true
		}
		return timeType(max(c.precision(x.Args[0], s, true), c.precision(x.Args[1], s, true))), true
	case "convert_tz":
		if len(x.Args) != 3 {
			return ColType{}, true
		}
		return datetimeType(c.precision(x.Args[0], s, false)), true
	case "str_to_date":
		if len(x.Args) == 2 {
			if f, ok := x.Args[1].(*driver.ValueExpr); ok && f.Kind() == driver.KindString {
				c.valueTyped = true
				k, fsp := temporal.FormatKind(f.GetString())
				switch k {
				case temporal.Date:
					return dateType(), true
				case temporal.Time:
					return timeType(fsp), true
				}
				return datetimeType(fsp), true
			}
		}
		return datetimeType(6), true
	case "sec_to_time":
		if len(x.Args) != 1 {
			return ColType{}, true
		}
		return timeType(c.decimals(x.Args[0], s)), true
	case "maketime":
		if len(x.Args) != 3 {
			return ColType{}, true
		}
		return timeType(c.decimals(x.Args[2], s)), true
	case "from_unixtime":
		if len(x.Args) == 2 {
			return typeVarchar, true
		}
		if len(x.Args) != 1 {
			return ColType{}, true
		}
		return datetimeType(c.decimals(x.Args[0], s)), true
	case "unix_timestamp":
		if len(x.Args) == 0 {
			return intResult(true), true
		}
		if fsp := c.precision(x.Args[0], s, false); fsp > 0 {
			return decimalType(11+fsp, fsp, false), true
		}
		return typeBigint, true
	case "extract", "timestampdiff", "microsecond", "to_seconds", "time_to_sec", "datediff", "to_days",
		"dayofweek", "weekday", "dayofmonth", "dayofyear", "week", "weekofyear", "yearweek", "hour", "minute", "second",
		"year", "month", "day", "quarter", "period_add", "period_diff":
		return typeBigint, true
	case binliteTnum:
		return numericForm(arg(0)), true
	}
	return ColType{}, false
}

// binliteTnum names the engine's function that turns a temporal value into its
// number (d + 0); the compiler wraps temporal operands of arithmetic in it.
const binliteTnum = "binlite_tnum"

// numericForm is the type a temporal value has in numeric context: an integer
// (YYYYMMDD, YYYYMMDDHHMMSS, HHMMSS), or a decimal with its fractional digits.
func numericForm(t ColType) ColType {
	if !t.isTemporal() {
		return t
	}
	digits := map[byte]int{mp.TypeDate: 8, mp.TypeDatetime: 14, mp.TypeTimestamp: 14, mp.TypeTime: 7}[t.Type]
	if t.Decimals == 0 || t.Type == mp.TypeDate {
		r := typeBigint
		r.Length = uint32(digits)
		return r
	}
	return decimalType(digits+int(t.Decimals), int(t.Decimals), false)
}

// isDateReader: the function reads its first argument as a date (a TIME there
// is taken on today's date).
func isDateReader(name string) bool {
	switch name {
	case "date_format", "datediff", "last_day", "dayofweek", "weekday", "dayname", "monthname", "dayofmonth", "day",
		"dayofyear", "month", "year", "quarter", "week", "weekofyear", "yearweek", "to_days", "to_seconds":
		return true
	}
	return false
}

// isTimeReader: the function reads its argument as a time (a DATE is midnight).
func isTimeReader(name string) bool {
	switch name {
	case "time_format", "hour", "minute", "second", "microsecond", "time_to_sec":
		return true
	}
	return false
}

func unitName(u temporal.Unit) string { return "'" + strings.ToUpper(string(u)) + "'" }
