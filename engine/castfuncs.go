package engine

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
	"github.com/binlite/binlite/u64"
)

// CAST and CONVERT to the targets SQLite's CAST does not give as MySQL does
// (manual 14.10): UNSIGNED of a value that is not an integer, CHAR(n), YEAR.
// Values that do not convert cleanly give MySQL's warnings.

type castFuncs struct {
	st  *stmtState
	buf scratch
}

func registerCasts(c *sqlite3.SQLiteConn, st *stmtState) error {
	f := &castFuncs{st: st}
	return registerFast(c, []fastFunc{
		{"binlite_cast_unsigned", 2, false, f.unsigned},
		{"binlite_cast_char", 2, false, f.char},
		{"binlite_cast_year", 2, false, f.year},
	})
}

// unsigned is binlite_cast_unsigned(x, kind): CAST(x AS UNSIGNED) of a double
// ('r'), an exact decimal ('d', its text) or a string ('s'): rounded (a string
// cut at its integer, warned about when more follows it), a negative value as
// its two's complement; the stored form of package u64.
func (f *castFuncs) unsigned(c sqlitec.Context, args []sqlitec.Value) {
	v := &args[0]
	kind := args[1].Bytes()
	switch v.Type() {
	case sqlitec.TypeNull:
		return
	case sqlitec.TypeInteger:
		storedResult(c, uint64(v.Int()))
		return
	case sqlitec.TypeFloat:
		storedResult(c, floatToUint64(v.Float()))
		return
	}
	s, _ := f.buf.text(v)
	if len(kind) == 1 && kind[0] == 'd' {
		r, ok := decimal.RoundTo(string(s), 0).(string)
		if !ok {
			return
		}
		if n, err := strconv.ParseInt(r, 10, 64); err == nil {
			storedResult(c, uint64(n))
			return
		}
		if n, err := strconv.ParseUint(r, 10, 64); err == nil {
			storedResult(c, n)
			return
		}
		if strings.HasPrefix(r, "-") {
			storedResult(c, 1<<63)
		} else {
			storedResult(c, math.MaxUint64)
		}
		return
	}
	text := strings.TrimLeft(string(s), " \t\n\r")
	neg := strings.HasPrefix(text, "-")
	digits := strings.TrimLeft(text, "+-")
	end := 0
	for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
		end++
	}
	n, err := strconv.ParseUint(digits[:end], 10, 64)
	clean := end > 0 && err == nil && strings.TrimRight(digits[end:], " \t\n\r") == "" && (len(text) == len(digits) || len(text) == len(digits)+1)
	if err != nil && end > 0 {
		n = math.MaxUint64
	}
	if !clean {
		f.st.warnf(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect INTEGER value: '%s'", s)
	}
	if neg {
		if clean {
			f.st.warnf(mysqlerr.ErUnknownError, "Cast to unsigned converted negative integer to it's positive complement")
		}
		n = -n
	}
	storedResult(c, n)
}

// storedResult gives a BIGINT UNSIGNED in its stored form.
func storedResult(c sqlitec.Context, n uint64) {
	if n <= math.MaxInt64 {
		c.ResultInt(int64(n))
		return
	}
	c.ResultBlob(u64.Blob(n))
}

// char is binlite_cast_char(x, n): CAST(x AS CHAR(n)), cut to n characters
// with warning 1292.
func (f *castFuncs) char(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	n, ok2 := intArg(&args[1])
	if !ok || !ok2 {
		return
	}
	if int64(utf8.RuneCount(s)) > n {
		f.st.warnf(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect CHAR(%d) value: '%s'", n, s)
		s = s[:byteOffset(s, int(n), false)]
	}
	c.ResultText(s)
}

// year is binlite_cast_year(x, kind): CAST(x AS YEAR) of a number ('n'), a
// string ('s') or a date's year ('t', the year already): 1 to 69 are 2001 to
// 2069, 70 to 99 are 1970 to 1999, a string's 0 is 2000, 1901 to 2155 are
// themselves; anything else is NULL with warning 1292.
func (f *castFuncs) year(c sqlitec.Context, args []sqlitec.Value) {
	v := &args[0]
	if v.IsNull() {
		return
	}
	kind := args[1].Bytes()
	var n int64
	str := len(kind) == 1 && kind[0] == 's'
	if str {
		s, _ := f.buf.text(v)
		t := strings.TrimSpace(string(s))
		end := 0
		for end < len(t) && t[end] >= '0' && t[end] <= '9' {
			end++
		}
		if end == 0 || end < len(t) {
			f.st.warnf(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect YEAR value: '%s'", s)
			if end == 0 {
				return
			}
		}
		n, _ = strconv.ParseInt(t[:end], 10, 64)
		if n == 0 {
			c.ResultInt(2000)
			return
		}
	} else {
		n, _ = intArg(v)
	}
	switch {
	case n == 0 && !str:
		c.ResultInt(0)
	case n >= 1 && n <= 69:
		c.ResultInt(n + 2000)
	case n >= 70 && n <= 99:
		c.ResultInt(n + 1900)
	case n >= 1901 && n <= 2155:
		c.ResultInt(n)
	default:
		s, _ := f.buf.text(v)
		f.st.warnf(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect YEAR value: '%s'", s)
	}
}
