package compiler

import (
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
)

// A string MySQL reads as a number gives the number it starts with, and
// warning 1292 when more than spaces follows it ('1x', 'abc', ''). For a
// string literal the compiler knows that already: the warning is the
// statement's (Emitted.Warnings), given once per literal however often the
// SQL names it.

// stringLiteral is x's text when x is a character string literal.
func stringLiteral(x ast.ExprNode) (*driver.ValueExpr, string, bool) {
	v, ok := unparen(x).(*driver.ValueExpr)
	if !ok || v.Kind() != driver.KindString || v.Type.GetCharset() == "binary" {
		return nil, "", false
	}
	return v, v.GetString(), true
}

// warnOnce records a literal's conversion warning the first time.
func (e *emitter) warnOnce(v *driver.ValueExpr, w mysqlerr.Warning) {
	if e.warned == nil {
		e.warned = map[*driver.ValueExpr]bool{}
	}
	if e.warned[v] {
		return
	}
	e.warned[v] = true
	e.notes = append(e.notes, w)
}

// doubleLiteral warns when a string literal read as a DOUBLE has more than a
// number (and spaces) in it.
func (e *emitter) doubleLiteral(x ast.ExprNode) {
	v, s, ok := stringLiteral(x)
	if !ok || cleanNumber(s, false) {
		return
	}
	e.warnOnce(v, mysqlerr.Warn(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect DOUBLE value: '%s'", s))
}

// cleanNumber: s is a number (an integer when integer) between spaces.
func cleanNumber(s string, integer bool) bool {
	t := strings.TrimLeft(s, " \t\n\r")
	var n int
	if integer {
		n = intPrefix(t)
	} else {
		n = floatPrefix(t)
	}
	return n > 0 && strings.TrimRight(t[n:], " \t\n\r") == ""
}

// intPrefix is the length of the integer (sign and digits) s starts with, 0
// for none.
func intPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start {
		return 0
	}
	return i
}

// floatPrefix is the length of the decimal number (with a point, an exponent)
// s starts with, 0 for none.
func floatPrefix(s string) int { return len(decimal.NumberPrefix(s)) }

// signedLiteral is CAST(s AS SIGNED) of a string literal as MySQL computes it:
// the integer s starts with (clipped to BIGINT), and warning 1292 when more
// follows it or it is beyond BIGINT.
func (e *emitter) signedLiteral(x ast.ExprNode) (string, bool) {
	v, s, ok := stringLiteral(x)
	if !ok {
		return "", false
	}
	t := strings.TrimLeft(s, " \t\n\r")
	n := intPrefix(t)
	var r int64
	clean := n > 0 && strings.TrimRight(t[n:], " \t\n\r") == ""
	if n > 0 {
		var err error
		r, err = strconv.ParseInt(t[:n], 10, 64)
		if err != nil {
			clean = false
			r = math.MaxInt64
			if t[0] == '-' {
				r = math.MinInt64
			}
		}
	}
	if !clean {
		e.warnOnce(v, mysqlerr.Warn(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect INTEGER value: '%s'", s))
	}
	if r == math.MinInt64 {
		return "(-9223372036854775807 - 1)", true
	}
	return strconv.FormatInt(r, 10), true
}
