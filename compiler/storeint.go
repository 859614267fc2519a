package compiler

import (
	"math"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// MySQL's codes for a value an integer column cannot keep as given.
const (
	codeOutOfRange = 1264 // ER_WARN_DATA_OUT_OF_RANGE
	codeTruncated  = 1265 // WARN_DATA_TRUNCATED: a number followed by other text
	codeBadInteger = 1366 // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: no number at all
)

// intRange is the values an integer column type holds; ok=false for other types.
func intRange(ty catalog.Type) (lo, hi *big.Int, ok bool) {
	bits := map[string]uint{"tinyint": 8, "smallint": 16, "mediumint": 24, "int": 32, "bigint": 64}[ty.Base]
	if bits == 0 {
		return nil, nil, false
	}
	one := big.NewInt(1)
	if ty.Unsigned {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one), true
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
	return new(big.Int).Neg(new(big.Int).Lsh(one, bits-1)), hi, true
}

// storeInt is what an integer column keeps of literal v, as MySQL converts it:
// a decimal or float rounds half away from zero, a string is read as a number
// (leading spaces skipped, what follows the number cut: code 1265; no number at
// all: 0, code 1366), and a value out of the type's range is the nearest end
// (code 1264). code 0: kept as converted. ok=false: not an integer column, or a
// literal this conversion leaves to the value checks.
func storeInt(ty catalog.Type, v *driver.ValueExpr) (val *big.Int, code uint16, ok bool) {
	lo, hi, isInt := intRange(ty)
	if !isInt || ty.Zerofill {
		return nil, 0, false
	}
	switch v.Kind() {
	case driver.KindInt64:
		val = big.NewInt(v.GetInt64())
	case driver.KindUint64:
		val = new(big.Int).SetUint64(v.GetUint64())
	case driver.KindMysqlDecimal:
		val, ok = roundedInt(v.GetMysqlDecimal().String())
		if !ok {
			return nil, 0, false
		}
	case driver.KindFloat64, driver.KindFloat32:
		f := v.GetFloat64()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, 0, false
		}
		val, _ = big.NewFloat(math.Round(f)).Int(nil)
	case driver.KindString:
		if v.Type.GetCharset() == "binary" {
			return nil, 0, false
		}
		s := strings.TrimLeft(v.GetString(), " \t\n\r")
		num := decimal.NumberPrefix(s)
		if num == "" {
			val, code = new(big.Int), codeBadInteger
			break
		}
		val, ok = roundedInt(num)
		if !ok {
			return nil, 0, false
		}
		if strings.TrimRight(s[len(num):], " ") != "" {
			code = codeTruncated
		}
	default:
		return nil, 0, false
	}
	switch {
	case val.Cmp(lo) < 0:
		val, code = lo, codeOutOfRange
	case val.Cmp(hi) > 0:
		val, code = hi, codeOutOfRange
	}
	return val, code, true
}

// roundedInt rounds a decimal number's text half away from zero.
func roundedInt(s string) (*big.Int, bool) {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return nil, false
	}
	var r apd.Decimal
	if _, err := apd.BaseContext.WithPrecision(400).Quantize(&r, d, 0); err != nil {
		return nil, false
	}
	n, ok := new(big.Int).SetString(r.Text('f'), 10)
	return n, ok
}

// intLiteral renders literal x written into integer column col, with MySQL's
// error (or, under IGNORE or without strict mode, warning) for what it had to change. It returns false
// when x is not a literal it converts.
func (e *emitter) intLiteral(x *driver.ValueExpr, col *catalog.Column, row int) bool {
	val, code, ok := storeInt(col.Type, x)
	if !ok {
		return false
	}
	if code != 0 {
		var msg string
		switch code {
		case codeOutOfRange:
			msg = "Out of range value for column '%s' at row %d"
		case codeTruncated:
			msg = "Data truncated for column '%s' at row %d"
		default:
			msg = "Incorrect integer value: '" + strings.ReplaceAll(x.GetString(), "%", "%%") + "' for column '%s' at row %d"
		}
		if !e.adjust {
			e.fail(mysqlerr.New(code, msg, col.Name, row))
			return true
		}
		e.notes = append(e.notes, mysqlerr.Warn(code, msg, col.Name, row))
	}
	if val.Sign() >= 0 && val.IsUint64() {
		e.w(u64.Literal(val.Uint64())) // BIGINT UNSIGNED from 2^63: the stored form
	} else {
		e.w(val.String())
	}
	return true
}
