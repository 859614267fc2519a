package compiler

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/collation"
	mp "github.com/binlite/binlite/mysqlproto"
)

// stringCall renders MySQL's string functions that need more than a plain call
// (funcs.go): those that compare by a collation (LOCATE, STRCMP, FIELD), take
// a keyword (TRIM ... FROM, CHAR ... USING, CONVERT ... USING), or read their
// argument by its MySQL type (HEX, LENGTH, FORMAT). It reports false for the
// others.
func (e *emitter) stringCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	if e.binaryCall(name, x, s) {
		return true
	}
	switch name {
	case "find_in_set":
		return e.findInSet(x, s)
	case "hex":
		if !e.arity(name, x, 1, 1) {
			return true
		}
		// A DECIMAL (exact text) is a number to MySQL's HEX: rounded, as a BIGINT.
		if e.typeOf(x.Args[0], s).isDecimal() {
			e.w("hex(round(")
			e.decArg(x.Args[0], s)
			e.w("))")
			return true
		}
		e.w("hex(")
		e.expr(x.Args[0], s)
		e.w(")")
	case "length", "octet_length", "bit_length":
		// MySQL's LENGTH counts bytes; SQLite's counts characters of text.
		if !e.arity(name, x, 1, 1) {
			return true
		}
		e.w("length(CAST(")
		e.digitArg(x.Args[0], s)
		e.w(" AS BLOB))")
		if name == "bit_length" {
			e.w(" * 8")
		}
	case "locate", "position", "instr":
		if !e.arity(name, x, 2, map[bool]int{true: 2, false: 3}[name != "locate"]) {
			return true
		}
		sub, str := x.Args[0], x.Args[1]
		if name == "instr" {
			sub, str = str, sub
		}
		e.w("binlite_locate(")
		e.digitArg(sub, s)
		e.w(", ")
		e.digitArg(str, s)
		if len(x.Args) == 3 {
			e.w(", ")
			e.expr(x.Args[2], s)
		}
		e.w(", " + sqlString(e.argCollation(s, x.Args[:2]...)) + ")")
	case "strcmp":
		if !e.arity(name, x, 2, 2) {
			return true
		}
		e.w("binlite_strcmp(")
		e.digitArg(x.Args[0], s)
		e.w(", ")
		e.digitArg(x.Args[1], s)
		e.w(", " + sqlString(e.argCollation(s, x.Args...)) + ")")
	case "trim":
		e.trim(x, s)
	case "field":
		e.fieldFunc(x, s)
	case "char_func":
		// CHAR(n, ... [USING cs]): the parser gives the character set last.
		if len(x.Args) < 2 {
			e.unsupported(name)
			return true
		}
		cs := "binary"
		if v, ok := x.Args[len(x.Args)-1].(*driver.ValueExpr); ok && v.Kind() == driver.KindString {
			cs = strings.ToLower(v.GetString())
		}
		switch cs {
		case "binary", "utf8mb4", "utf8mb3", "utf8", "ascii", "latin1":
		default:
			e.unsupported("CHAR ... USING " + cs)
			return true
		}
		e.w("binlite_char(" + sqlString(cs))
		for _, a := range x.Args[:len(x.Args)-1] {
			e.w(", ")
			e.expr(a, s)
		}
		e.w(")")
	case "format":
		if !e.arity(name, x, 2, 3) {
			return true
		}
		t := e.typeOf(x.Args[0], s)
		kind := "'r'"
		if t.isInt() || t.isDecimal() {
			kind = "'d'" // exact: rounded half away from zero
		}
		e.w("binlite_format(")
		if kind == "'d'" {
			e.decArg(x.Args[0], s)
		} else {
			e.realArg(x.Args[0], s)
		}
		e.w(", ")
		e.expr(x.Args[1], s)
		e.w(", ")
		if len(x.Args) == 3 {
			e.expr(x.Args[2], s)
		} else {
			e.w("'en_US'")
		}
		e.w(", " + kind + ")")
	case "convert":
		// CONVERT(x USING cs): the parser gives the character set second.
		if len(x.Args) != 2 {
			e.unsupported(name)
			return true
		}
		v, ok := x.Args[1].(*driver.ValueExpr)
		if !ok {
			e.unsupported(name)
			return true
		}
		switch strings.ToLower(v.GetString()) {
		case "binary":
			e.w("CAST(")
			e.digitArg(x.Args[0], s)
			e.w(" AS BLOB)")
		case "utf8mb4", "utf8mb3", "utf8":
			e.w("CAST(")
			e.digitArg(x.Args[0], s)
			e.w(" AS TEXT)")
		default:
			e.unsupported("CONVERT ... USING " + v.GetString())
		}
	case "charset", "collation", "coercibility":
		if !e.arity(name, x, 1, 1) {
			return true
		}
		coll, coer := e.c.derivation(x.Args[0], s)
		switch name {
		case "charset":
			cs := "binary"
			if c, ok := collation.Lookup(coll); ok {
				cs = c.Charset
			}
			e.w(sqlString(cs))
		case "collation":
			e.w(sqlString(coll))
		default:
			e.w(strconv.Itoa(coer))
		}
	default:
		return false
	}
	return true
}

// trim renders TRIM([BOTH | LEADING | TRAILING] [remstr] FROM s): SQLite's trim
// of spaces for the plain form, else binlite_trim, which removes whole
// remstrs (SQLite's trim(x, y) removes any character of y).
func (e *emitter) trim(x *ast.FuncCallExpr, s *scope) {
	if !e.arity("trim", x, 1, 3) {
		return
	}
	if len(x.Args) == 1 {
		e.w("trim(")
		e.digitArg(x.Args[0], s)
		e.w(")")
		return
	}
	mode := "0"
	if len(x.Args) == 3 {
		if d, ok := x.Args[2].(*ast.TrimDirectionExpr); ok {
			switch d.Direction {
			case ast.TrimLeading:
				mode = "1"
			case ast.TrimTrailing:
				mode = "2"
			}
		}
	}
	e.w("binlite_trim(")
	e.digitArg(x.Args[0], s)
	e.w(", ")
	e.digitArg(x.Args[1], s)
	e.w(", " + mode + ")")
}

// fieldFunc renders FIELD(x, a, b, ...): compared as strings by their collation
// when every argument is a string, else as numbers (manual 14.8).
func (e *emitter) fieldFunc(x *ast.FuncCallExpr, s *scope) {
	if !e.arity("field", x, 2, -1) {
		return
	}
	strs := true
	for _, a := range x.Args {
		t := e.typeOf(a, s)
		strs = strs && (t.isString() || t.Type == mp.TypeNull)
	}
	mode, coll := "'n'", "''"
	if strs {
		mode, coll = "'s'", sqlString(e.argCollation(s, x.Args...))
	}
	e.w("binlite_field(" + mode + ", " + coll)
	for _, a := range x.Args {
		e.w(", ")
		if strs {
			e.digitArg(a, s)
		} else {
			e.realArg(a, s)
		}
	}
	e.w(")")
}
