package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/sqlitec"
)

// The built-in functions added by issue 13 run on sqlitec's Go functions: each
// call reads its arguments from memory C filled, without reflection or an
// interface value per argument, and a connection's functions share one scratch
// buffer for the text they build (SQLite copies a result, and a connection
// steps one statement at a time, so the buffer is free again at each call).

// fastFunc is one function for sqlitec.RegisterFunc.
type fastFunc struct {
	name  string
	nargs int // -1: any number
	pure  bool
	fn    sqlitec.Func
}

func registerFast(c *sqlite3.SQLiteConn, fns []fastFunc) error {
	for _, f := range fns {
		if err := sqlitec.RegisterFunc(c, f.name, f.nargs, f.pure, f.fn); err != nil {
			return fmt.Errorf("register %s: %w", f.name, err)
		}
	}
	return nil
}

// scratch is a connection's buffer for results being built.
type scratch struct{ buf, num []byte }

// reset returns the empty buffer.
func (s *scratch) reset() []byte { return s.buf[:0] }

// keep stores a grown buffer for the next call.
func (s *scratch) keep(b []byte) []byte {
	if cap(b) <= 1<<20 {
		s.buf = b[:0]
	}
	return b
}

// text is a string argument's bytes as MySQL converts the value to a string:
// TEXT and BLOB as they are (SQLite's, valid during the call), an integer's
// digits, a double in MySQL's spelling. ok=false for NULL.
func (s *scratch) text(v *sqlitec.Value) ([]byte, bool) {
	switch v.Type() {
	case sqlitec.TypeText, sqlitec.TypeBlob:
		return v.Bytes(), true
	case sqlitec.TypeInteger:
		s.num = strconv.AppendInt(s.num[:0], v.Int(), 10)
		return s.num, true
	case sqlitec.TypeFloat:
		s.num = appendDouble(s.num[:0], v.Float())
		return s.num, true
	}
	return nil, false
}

// textCopy is text(v) in a buffer of its own, for a function with two
// arguments that may both be numbers.
func textCopy(v *sqlitec.Value) ([]byte, bool) {
	switch v.Type() {
	case sqlitec.TypeText, sqlitec.TypeBlob:
		return v.Bytes(), true
	case sqlitec.TypeInteger:
		return strconv.AppendInt(nil, v.Int(), 10), true
	case sqlitec.TypeFloat:
		return appendDouble(nil, v.Float()), true
	}
	return nil, false
}

// isBinary: the value is a binary string (a BLOB), whose positions and lengths
// MySQL counts in bytes.
func isBinary(v *sqlitec.Value) bool { return v.Type() == sqlitec.TypeBlob }

// result gives b as TEXT, or as a BLOB when binary.
func result(c sqlitec.Context, b []byte, binary bool) {
	if binary {
		c.ResultBlob(b)
		return
	}
	c.ResultText(b)
}

// intArg reads an integer argument as MySQL's val_int does: a double rounded
// half to even, a string by the number it starts with. ok=false for NULL.
func intArg(v *sqlitec.Value) (int64, bool) {
	switch v.Type() {
	case sqlitec.TypeInteger:
		return v.Int(), true
	case sqlitec.TypeFloat:
		return roundToInt(v.Float()), true
	case sqlitec.TypeText, sqlitec.TypeBlob:
		return stringToInt(v.Bytes()), true
	}
	return 0, false
}

// roundToInt rounds a double to an integer as MySQL's val_int does (rint:
// half to even), clipped to BIGINT.
func roundToInt(f float64) int64 {
	r := math.RoundToEven(f)
	switch {
	case math.IsNaN(r):
		return 0
	case r >= math.MaxInt64:
		return math.MaxInt64
	case r <= math.MinInt64:
		return math.MinInt64
	}
	return int64(r)
}

// stringToInt is the integer a string starts with (after spaces): its digits,
// or the number rounded when it has a fraction or an exponent; 0 for none.
func stringToInt(b []byte) int64 {
	s := strings.TrimLeft(string(b), " \t\n\r")
	end := numberPrefix(s)
	if end == 0 {
		return 0
	}
	if n, err := strconv.ParseInt(s[:end], 10, 64); err == nil {
		return n
	}
	f, _ := strconv.ParseFloat(s[:end], 64)
	return roundToInt(f)
}

// floatArg reads a number argument as MySQL's val_real does; ok=false for NULL.
func floatArg(v *sqlitec.Value) (float64, bool) {
	switch v.Type() {
	case sqlitec.TypeInteger:
		return float64(v.Int()), true
	case sqlitec.TypeFloat:
		return v.Float(), true
	case sqlitec.TypeText, sqlitec.TypeBlob:
		s := strings.TrimLeft(string(v.Bytes()), " \t\n\r")
		f, _ := strconv.ParseFloat(s[:numberPrefix(s)], 64)
		return f, true
	}
	return 0, false
}

// numberPrefix is the length of the decimal number (sign, digits, point,
// exponent) s starts with.
func numberPrefix(s string) int { return len(decimal.NumberPrefix(s)) }

// appendDouble spells a double as MySQL converts one to a string (my_gcvt):
// its shortest exact digits, in fixed point while the decimal point falls
// within 15 places of the first digit either way, else with an exponent (1e15,
// 2.5e-20).
func appendDouble(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.AppendFloat(dst, f, 'g', -1, 64)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	i := strings.LastIndexByte(string(e), 'e')
	exp, _ := strconv.Atoi(string(e[i+1:]))
	if decpt := exp + 1; decpt > -15 && decpt <= 15 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	dst = append(dst, e[:i+1]...)
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}
