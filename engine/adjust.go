package engine

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// Value adjustments: where MySQL stores what a column can hold of a computed value
// and warns, instead of failing the statement (sql_mode without strict mode, or a
// write with IGNORE), the compiler wraps the value with one of these. Literals are
// adjusted by the compiler itself; these take values known only while the
// statement runs. Each takes the column's implicit default (zero; NULL for a
// nullable column), which a NULL becomes with warning 1048, the column's name and
// the row number (0: count the rows, see rowNumber).

// MySQL's codes for an adjusted value.
const (
	codeOutOfRange = 1264 // ER_WARN_DATA_OUT_OF_RANGE
	codeTruncated  = 1265 // WARN_DATA_TRUNCATED
	codeBadValue   = 1366 // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
)

func (st *stmtState) adjusted(code uint16, format string, args ...any) {
	st.warn(mysqlerr.Warn(code, format, args...))
}

// orZero is what a NOT NULL column keeps of NULL: its implicit default.
func (st *stmtState) orZero(zero any, col string) any {
	if isNull(zero) {
		return nil // not a nil []byte: the driver would return an empty BLOB
	}
	st.adjusted(mysqlerr.ErBadNull, "Column '%s' cannot be null", col)
	return zero
}

// adjustNull is binlite_adjust_null(v, zero, col, row): v, or for NULL the
// column's implicit default.
func (st *stmtState) adjustNull(v, zero any, col string, row int64) any {
	st.rowNumber(col, row)
	if isNull(v) {
		return st.orZero(zero, col)
	}
	return v
}

// adjustInt is binlite_adjust_int(v, lo, hi, zero, col, row): what an integer
// column of range [lo, hi] keeps of v. A number is rounded half away from zero
// and out of range is the nearest end (1264); text is read as a number: what
// follows the number is cut (1265), no number at all is 0 (1366).
func (st *stmtState) adjustInt(v any, lo, hi int64, zero any, col string, row int64) any {
	if x, ok := v.(int64); ok && x >= lo && x <= hi {
		st.rowNumber(col, row)
		return x
	}
	r := st.adjustIntRange(v, big.NewInt(lo), big.NewInt(hi), zero, col, row)
	if n, ok := r.(*big.Int); ok {
		return n.Int64()
	}
	return r
}

// adjustIntRange is adjustInt for the range [lo, hi]: the integer (a *big.Int),
// or the column's implicit default for NULL.
func (st *stmtState) adjustIntRange(v any, lo, hi *big.Int, zero any, col string, row int64) any {
	n := st.rowNumber(col, row)
	clip := func(x *big.Int, code uint16) any {
		switch {
		case x.Cmp(lo) < 0:
			x, code = lo, codeOutOfRange
		case x.Cmp(hi) > 0:
			x, code = hi, codeOutOfRange
		}
		switch code {
		case codeOutOfRange:
			st.adjusted(code, "Out of range value for column '%s' at row %d", col, n)
		case codeTruncated:
			st.adjusted(code, "Data truncated for column '%s' at row %d", col, n)
		}
		return x
	}
	switch x := v.(type) {
	case int64:
		return clip(big.NewInt(x), 0)
	case float64:
		if math.IsNaN(x) {
			return clip(new(big.Int), codeOutOfRange)
		}
		if math.IsInf(x, 0) {
			x = math.Copysign(math.MaxFloat64, x)
		}
		i, _ := new(big.Float).SetFloat64(math.Round(x)).Int(nil)
		return clip(i, 0)
	case string, []byte:
		if isNull(x) {
			return st.orZero(zero, col)
		}
		s := toText(x)
		i, code := intFromText(s)
		if code == codeBadValue {
			st.adjusted(code, "Incorrect integer value: '%s' for column '%s' at row %d", s, col, n)
			return clip(new(big.Int), 0) // 0, or the end of the range nearest it
		}
		return clip(i, code)
	}
	return st.orZero(zero, col)
}

// adjustUint64 is binlite_adjust_u64(v, zero, col, row): what a BIGINT UNSIGNED
// column keeps of v, as adjustInt for the range [0, 2^64-1], in the stored form
// of package u64 (a BLOB from 2^63 up, which v may already be).
func (st *stmtState) adjustUint64(v any, zero any, col string, row int64) any {
	if n, ok := u64.Wide(v); ok {
		st.rowNumber(col, row)
		return u64.Blob(n)
	}
	if s, isText := v.(string); isText {
		// digits beyond int64: exactly, not through a float
		if n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64); err == nil {
			st.rowNumber(col, row)
			return u64.Stored(n)
		}
	}
	r := st.adjustIntRange(v, new(big.Int), new(big.Int).SetUint64(math.MaxUint64), zero, col, row)
	if n, ok := r.(*big.Int); ok {
		return u64.Stored(n.Uint64())
	}
	return r
}

// intFromText reads text as MySQL reads it into an integer column: leading spaces
// skipped, the number rounded half away from zero; code 1265 when other text
// follows it, 1366 when there is no number.
func intFromText(s string) (*big.Int, uint16) {
	t := strings.TrimLeft(s, " \t\n\r")
	num := decimal.NumberPrefix(t)
	if num == "" {
		return new(big.Int), codeBadValue
	}
	var code uint16
	if strings.TrimRight(t[len(num):], " ") != "" {
		code = codeTruncated
	}
	d, _, err := apd.NewFromString(num)
	if err != nil {
		return new(big.Int), codeBadValue
	}
	if d.Exponent > 400 { // far beyond any column: keep only the sign
		return new(big.Int).Mul(big.NewInt(int64(d.Sign())), new(big.Int).Lsh(big.NewInt(1), 70)), code
	}
	r, ok := decimal.Round(d, 0)
	if !ok {
		return new(big.Int), codeBadValue
	}
	i, ok := new(big.Int).SetString(r.Text('f'), 10)
	if !ok {
		return new(big.Int), codeBadValue
	}
	return i, code
}

// adjustText is binlite_adjust_text(v, limit, bytes, zero, col, row): what a
// string column holding limit characters (bytes=1: bytes) keeps of v: longer
// text is cut (1265; a Note when only spaces are cut).
func (st *stmtState) adjustText(v any, limit, bytes int64, zero any, col string, row int64) any {
	n := st.rowNumber(col, row)
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		if x == nil {
			return st.orZero(zero, col)
		}
		s = string(x)
	case int64:
		s = strconv.FormatInt(x, 10)
	case nil:
		return st.orZero(zero, col)
	default:
		return v // left to the column's check
	}
	var cut string
	switch {
	case bytes != 0 && int64(len(s)) > limit:
		cut = s[:limit]
		if _, isText := v.(string); isText {
			for len(cut) > 0 && !utf8.ValidString(cut) {
				cut = cut[:len(cut)-1] // not inside a character
			}
		}
	case bytes == 0 && int64(len(s)) > limit && int64(utf8.RuneCountInString(s)) > limit:
		i, k := 0, int64(0)
		for k < limit {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			k++
		}
		cut = s[:i]
	default:
		return v
	}
	if strings.TrimRight(s[len(cut):], " ") == "" {
		st.warn(mysqlerr.Note(codeTruncated, "Data truncated for column '%s' at row %d", col, n))
	} else {
		st.adjusted(codeTruncated, "Data truncated for column '%s' at row %d", col, n)
	}
	if b, isBytes := v.([]byte); isBytes {
		return b[:len(cut)]
	}
	return cut
}

// adjustDecimal is binlite_adjust_dec(v, precision, scale, unsigned, zero, col,
// row): what an exact DECIMAL(precision, scale) column keeps of v: rounded to the
// scale (a Note 1265 when digits are lost), beyond the range the largest value of
// its sign (1264; 0 for a negative value of an UNSIGNED column); text is read as
// a number (what follows it cut, 1265; none at all is 0, 1366).
func (st *stmtState) adjustDecimal(v any, precision, scale, unsigned int64, zero any, col string, row int64) any {
	n := st.rowNumber(col, row)
	if isNull(v) {
		return st.orZero(zero, col)
	}
	d, ok := decimal.Parse(v)
	var code uint16
	if !ok {
		s := toText(v)
		num := decimal.NumberPrefix(strings.TrimLeft(s, " \t\n\r"))
		if d, ok = decimal.Parse(num); !ok {
			st.adjusted(codeBadValue, "Incorrect decimal value: '%s' for column '%s' at row %d", s, col, n)
			d = new(apd.Decimal)
		} else {
			code = codeTruncated
		}
	}
	r, ok := decimal.Round(d, int(scale))
	switch {
	case !ok || !decimal.Fits(r, int(precision), int(scale), unsigned != 0):
		code = codeOutOfRange
		if unsigned != 0 && d.Negative {
			r = new(apd.Decimal)
		} else {
			c, _ := decimal.Parse(decimal.Cast(sign(d), precision, scale))
			r = c
		}
		r, _ = decimal.Round(r, int(scale))
	case code == 0 && r.Cmp(d) != 0:
		st.warn(mysqlerr.Note(codeTruncated, "Data truncated for column '%s' at row %d", col, n))
	}
	switch code {
	case codeOutOfRange:
		st.adjusted(code, "Out of range value for column '%s' at row %d", col, n)
	case codeTruncated:
		st.adjusted(code, "Data truncated for column '%s' at row %d", col, n)
	}
	return decimal.Text(r)
}

// sign is a number far beyond any DECIMAL column, of d's sign (for Cast's clip).
func sign(d *apd.Decimal) string {
	if d.Negative {
		return "-1e80"
	}
	return "1e80"
}
