package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	mp "github.com/binlite/binlite/mysqlproto"
)

// The result types of MySQL's string and numeric functions, as its items
// resolve them (sql/item_strfunc.cc, item_func.cc): a string function's
// VARCHAR is as long as the characters it can give, worked out from its
// arguments' lengths and constant counts (a result that may be longer than
// 65,535 bytes is a MEDIUMTEXT or LONGTEXT), in its arguments' character set
// (binary when one is a binary string).

// maxBlobChars is MySQL's MAX_BLOB_WIDTH: the length of a result whose size a
// count decides at run time (REPEAT(s, n) of a column n).
const maxBlobChars = 4294967295

// charsOf is the characters an argument's text takes at most (its digits for
// a number); ok=false when not known.
func (c *compiler) charsOf(x ast.ExprNode, s *scope) (uint64, bool) {
	t := c.expr(x, s)
	if v, ok := x.(*driver.ValueExpr); ok && v.Kind() == driver.KindString {
		return uint64(utf8.RuneCount(v.GetBytes())), true
	}
	if t.isDecimal() || t.isInt() || t.isApprox() {
		if t.Length > 0 {
			return uint64(t.Length), true
		}
		return 21, true
	}
	return textLength(t)
}

// constInt is a constant integer argument's value.
func (c *compiler) constInt(x ast.ExprNode) (int64, bool) {
	n, ok := intLiteral(x)
	if ok {
		c.valueTyped = true
	}
	return int64(n), ok
}

// stringOf is a string result of at most chars characters over args.
func (c *compiler) stringOf(chars uint64, s *scope, args ...ast.ExprNode) ColType {
	return c.resultString(chars, s, args...)
}

// builtinType types the string and numeric functions of funcs.go; ok=false for
// other names.
func (c *compiler) builtinType(name string, x *ast.FuncCallExpr, s *scope) (ColType, bool) {
	args := x.Args
	chars := func(i int) uint64 {
		if i >= len(args) {
			return 0
		}
		n, ok := c.charsOf(args[i], s)
		if !ok {
			return maxBlobChars
		}
		return n
	}
	switch name {
	case "upper", "lower", "ucase", "lcase", "reverse", "ltrim", "rtrim", "trim", "substring_index", "soundex":
		if len(args) == 0 {
			return ColType{}, true
		}
		n := chars(0)
		if name == "soundex" {
			n = max(n, 4)
		}
		return c.stringOf(n, s, args[0]), true
	case "substr", "substring", "mid":
		if len(args) < 2 {
			return ColType{}, true
		}
		n := chars(0)
		if len(args) == 3 {
			if k, ok := c.constInt(args[2]); ok {
				n = uint64(max(min(k, int64(n)), 0))
			}
		}
		return c.stringOf(n, s, args[0]), true
	case "left", "right":
		if len(args) != 2 {
			return ColType{}, true
		}
		n := chars(0)
		if k, ok := c.constInt(args[1]); ok {
			n = uint64(max(min(k, int64(n)), 0))
		}
		return c.stringOf(n, s, args[0]), true
	case "lpad", "rpad":
		if len(args) != 3 {
			return ColType{}, true
		}
		n := uint64(maxBlobChars)
		if k, ok := c.constInt(args[1]); ok {
			n = uint64(max(k, 0))
		}
		return c.stringOf(n, s, args[0], args[2]), true
	case "repeat":
		if len(args) != 2 {
			return ColType{}, true
		}
		n := uint64(maxBlobChars)
		if k, ok := c.constInt(args[1]); ok {
			n = chars(0) * uint64(max(k, 0))
		}
		return c.stringOf(n, s, args[0]), true
	case "space":
		n := uint64(maxBlobChars)
		if len(args) == 1 {
			if k, ok := c.constInt(args[0]); ok {
				n = uint64(max(k, 0))
			}
		}
		return c.stringOf(n, s), true
	case "replace":
		if len(args) != 3 {
			return ColType{}, true
		}
		n := chars(0)
		if from, to := chars(1), chars(2); to > from && from > 0 {
			n = n * to / from
		}
		return c.stringOf(n, s, args...), true
	case "insert_func":
		if len(args) != 4 {
			return ColType{}, true
		}
		return c.stringOf(chars(0)+chars(3), s, args[0], args[3]), true
	case "elt":
		var n uint64
		for i := 1; i < len(args); i++ {
			n = max(n, chars(i))
		}
		if len(args) < 2 {
			return ColType{}, true
		}
		return c.stringOf(n, s, args[1:]...), true
	case "quote":
		if len(args) != 1 {
			return ColType{}, true
		}
		return c.stringOf(2*chars(0)+2, s, args[0]), true
	case "md5":
		return c.asciiString(32), true
	case "sha1", "sha":
		return c.asciiString(40), true
	case "sha2":
		if n, ok := c.constInt(args[len(args)-1]); len(args) == 2 && ok && !validSHA2(int(n)) {
			return stringResult(0, mp.CharsetBinary), true // NULL, of no character set
		}
		return c.asciiString(128), true
	case "to_base64":
		return c.asciiString((chars(0)+2)/3*4 + chars(0)/57), true
	case "from_base64":
		return stringResult((chars(0)+3)/4*3, mp.CharsetBinary), true
	case "unhex":
		return stringResult((chars(0)+1)/2, mp.CharsetBinary), true
	case "bin", "oct", "conv":
		return c.asciiString(64), true
	case "char_func":
		n := uint64(4 * max(len(args)-1, 0))
		if v, ok := args[len(args)-1].(*driver.ValueExpr); ok && v.Kind() == driver.KindString && !strings.EqualFold(v.GetString(), "binary") {
			return stringResult(n, typeVarchar.Charset), true
		}
		return stringResult(n, mp.CharsetBinary), true
	case "format":
		n := chars(0)
		d := uint64(30)
		if len(args) > 1 {
			if k, ok := c.constInt(args[1]); ok {
				d = uint64(min(max(k, 0), 30))
			}
		}
		return c.asciiString(n + n/3 + 2 + d), true
	case "make_set":
		var n uint64
		for i := 1; i < len(args); i++ {
			n += chars(i) + 1
		}
		return c.stringOf(n, s, args...), true
	case "export_set":
		if len(args) < 3 {
			return ColType{}, true
		}
		return c.stringOf(64*(max(chars(1), chars(2))+max(chars(3), 1)), s, args[1:]...), true
	case "inet_ntoa":
		return c.asciiString(31), true
	case "inet6_aton":
		return stringResult(16, mp.CharsetBinary), true
	case "inet6_ntoa":
		return c.asciiString(39), true
	case "uuid", "bin_to_uuid":
		return stringResult(36, collationID("utf8mb3_general_ci")), true
	case "uuid_to_bin":
		return stringResult(16, mp.CharsetBinary), true
	case "random_bytes":
		return stringResult(1024, mp.CharsetBinary), true
	case "regexp_replace":
		if len(args) < 3 {
			return ColType{}, true
		}
		return c.stringOf(maxBlobChars, s, args[0], args[1]), true
	case "regexp_substr":
		if len(args) < 2 {
			return ColType{}, true
		}
		return c.stringOf(chars(0), s, args[0], args[1]), true
	case "convert":
		if len(args) != 2 {
			return ColType{}, true
		}
		if v, ok := args[1].(*driver.ValueExpr); ok && strings.EqualFold(v.GetString(), "binary") {
			return stringResult(chars(0), mp.CharsetBinary), true
		}
		return stringResult(chars(0), typeVarchar.Charset), true
	case "charset", "collation":
		return stringResult(64, collationID("utf8mb3_general_ci")), true
	case "get_format":
		return c.asciiString(17), true
	case "regexp_like", "regexp_instr", "coercibility", "interval", "sign", "is_uuid", "is_ipv4", "is_ipv6",
		"is_ipv4_compat", "is_ipv4_mapped", "strcmp", "field", "bit_length", "isnull":
		t := typeBigint
		if name == "regexp_like" || name == "strcmp" || name == "isnull" || strings.HasPrefix(name, "is_") {
			t.Length = 1
		}
		return t, true
	case "bit_count", "grouping":
		return typeBigint, true
	case "pi":
		t := typeDouble
		t.Decimals = 6
		return t, true
	case "atan2", "cot":
		return typeDouble, true
	case "abs":
		t := c.exprOr(args, 0, s)
		switch {
		case t.isInt():
			return intResult(t.Flags&mp.UnsignedFlag != 0), true
		case t.isDecimal():
			t.Flags &^= mp.NotNullFlag | mp.AutoIncrementFlag | mp.PriKeyFlag | mp.UniqueKeyFlag | mp.MultipleKeyFlag
			return t, true
		case t.Type == mp.TypeNull:
			r := typeDouble
			r.Decimals = 0 // NULL's decimals
			return r, true
		case t.isApprox() || t.isString():
			return typeDouble, true
		}
		return ColType{}, true
	case "floor", "ceil", "ceiling":
		return floorType(c.exprOr(args, 0, s)), true
	case "any_value":
		if len(args) != 1 {
			return ColType{}, true
		}
		t := c.expr(args[0], s)
		t.Flags &^= mp.AutoIncrementFlag | mp.PriKeyFlag | mp.UniqueKeyFlag | mp.MultipleKeyFlag
		return t, true
	}
	return ColType{}, false
}

// exprOr types argument i, the zero type when there is none: an ENUM or SET
// as its number, a date or time as a string (which MySQL's numeric functions
// read as a DOUBLE).
func (c *compiler) exprOr(args []ast.ExprNode, i int, s *scope) ColType {
	if i >= len(args) {
		return ColType{}
	}
	t := enumView(c.expr(args[i], s))
	if t.isTemporal() {
		return typeVarchar
	}
	return t
}

// asciiString is a string of digits and letters MySQL gives in the
// connection's character set (HEX, MD5, CONV, FORMAT).
func (c *compiler) asciiString(chars uint64) ColType {
	return stringResult(min(chars, maxBlobChars), typeVarchar.Charset)
}

// floorType is FLOOR's and CEILING's type (Item_func_int_val): an integer's,
// a double for doubles and strings, and for a DECIMAL(p, s) a BIGINT when its
// whole part (with one more digit when it has a fraction) has at most 18
// digits, else DECIMAL of those digits.
func floorType(t ColType) ColType {
	switch {
	case t.isInt():
		return intResult(t.Flags&mp.UnsignedFlag != 0)
	case t.isDecimal():
		p, sc := t.precisionScale()
		digits := p - sc
		if sc > 0 {
			digits++
		}
		if digits+1 < 20 {
			return typeBigint
		}
		return decimalType(digits, 0, false)
	case t.isApprox() || t.isString() || t.Type == mp.TypeNull:
		return typeDouble
	}
	return ColType{}
}
