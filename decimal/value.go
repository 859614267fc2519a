package decimal

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// ctx has room for MySQL's 65 digits and the intermediate results of products.
var ctx = apd.BaseContext.WithPrecision(200)

// Parse reads a SQLite value as a decimal: integers, reals (by their shortest
// exact spelling), and text or bytes that spell a number (surrounding spaces
// allowed). ok=false for NULL and anything else.
func Parse(v any) (*apd.Decimal, bool) {
	switch x := v.(type) {
	case int64:
		return apd.New(x, 0), true
	case float64:
		d, _, err := apd.NewFromString(strconv.FormatFloat(x, 'g', -1, 64))
		return d, err == nil
	case string:
		return parseText(x)
	case []byte:
		if x == nil {
			return nil, false // NULL, as the driver passes it
		}
		return parseText(string(x))
	}
	return nil, false
}

// isNull reports whether a is SQL NULL: nil, or the nil []byte mattn/go-sqlite3
// passes a Go function for NULL.
func isNull(a any) bool {
	if a == nil {
		return true
	}
	b, ok := a.([]byte)
	return ok && b == nil
}

func parseText(s string) (*apd.Decimal, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	d, _, err := apd.NewFromString(s)
	if err != nil || d.Form != apd.Finite {
		return nil, false
	}
	return d, true
}

// Text is d's canonical spelling: fixed point, no exponent, no "-0".
func Text(d *apd.Decimal) string {
	if d.IsZero() {
		d.Negative = false
	}
	return d.Text('f')
}

// Round is d rounded half away from zero to scale digits after the point.
func Round(d *apd.Decimal, scale int) (*apd.Decimal, bool) {
	var r apd.Decimal
	if _, err := ctx.Quantize(&r, d, int32(-scale)); err != nil {
		return nil, false
	}
	return &r, true
}

// Fits reports whether d, at its scale, has at most precision-scale digits
// before the point, and is not negative for an UNSIGNED column.
func Fits(d *apd.Decimal, precision, scale int, unsigned bool) bool {
	if unsigned && d.Negative && !d.IsZero() {
		return false
	}
	var abs apd.Decimal
	abs.Abs(d)
	limit := apd.New(1, int32(precision-scale))
	return abs.Cmp(limit) < 0
}

// Compare orders two values as numbers; text that is not a number sorts after
// every number, by its bytes.
func Compare(a, b string) int {
	da, oka := parseText(a)
	db, okb := parseText(b)
	switch {
	case oka && okb:
		return da.Cmp(db)
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}
