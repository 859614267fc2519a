package engine

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
)

// registerBytes registers the functions that give binary strings MySQL's
// fixed-length forms.
func registerBytes(c *sqlite3.SQLiteConn) error {
	for name, fn := range map[string]any{
		"binlite_binary_pad":  binaryPad,
		"binlite_binary_cast": binaryCast,
		"hex":                 mysqlHex,
		"binlite_like_bytes":  likeBytes,
		"bin":                 func(v any) any { return inBase(v, 2) },
		"oct":                 func(v any) any { return inBase(v, 8) },
	} {
		if err := c.RegisterFunc(name, fn, true); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// bytesOf is a value's bytes as MySQL converts it to a binary string.
func bytesOf(v any) []byte {
	if b, ok := v.([]byte); ok {
		return b
	}
	return []byte(toText(v))
}

// binaryPad is binlite_binary_pad(value, n): what a BINARY(n) column keeps of a
// value, its bytes padded with NULs to n. A longer value is left for the value
// check to refuse (1406).
func binaryPad(v any, n int64) any {
	if isNull(v) {
		return nil
	}
	b := bytesOf(v)
	if int64(len(b)) >= n {
		return b
	}
	return append(append([]byte{}, b...), make([]byte, n-int64(len(b)))...)
}

// binaryCast is binlite_binary_cast(value, n): CAST(value AS BINARY(n)). MySQL
// cuts a longer value with a warning, which a function cannot give: refused.
func binaryCast(v any, n int64) (any, error) {
	if isNull(v) {
		return nil, nil
	}
	b := bytesOf(v)
	if int64(len(b)) > n {
		return nil, fnError(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CAST AS BINARY(%d) of a longer computed value'", n)
	}
	return binaryPad(b, n), nil
}

// mysqlHex is MySQL's HEX (in place of SQLite's, which answers an empty string for NULL and
// the digits' text for a number): a string's bytes, a number as a BIGINT (a
// double rounded half away from zero, a negative one in two's complement), NULL
// for NULL.
func mysqlHex(v any) any {
	switch x := v.(type) {
	case int64:
		return strings.ToUpper(strconv.FormatUint(uint64(x), 16))
	case float64:
		switch r := math.Round(x); {
		case r >= math.MaxUint64:
			return "FFFFFFFFFFFFFFFF"
		case r >= 0:
			return strings.ToUpper(strconv.FormatUint(uint64(r), 16))
		case r <= math.MinInt64:
			return "8000000000000000"
		default:
			return strings.ToUpper(strconv.FormatUint(uint64(int64(r)), 16))
		}
	}
	if isNull(v) {
		return nil
	}
	return strings.ToUpper(hex.EncodeToString(bytesOf(v)))
}

// likeBytes is binlite_like_bytes(value, pattern, escape): LIKE over binary
// strings, byte by byte and so case-sensitive (SQLite's LIKE folds ASCII case).
// An empty escape is none (ESCAPE ”, or NO_BACKSLASH_ESCAPES).
func likeBytes(v, pat any, esc string) any {
	if isNull(v) || isNull(pat) {
		return nil
	}
	return matchBytes(bytesOf(v), bytesOf(pat), esc)
}

func matchBytes(s, p []byte, esc string) bool {
	for len(p) > 0 {
		switch c := p[0]; {
		case c == '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if matchBytes(s[i:], p, esc) {
					return true
				}
			}
			return false
		case c == '_':
			if len(s) == 0 {
				return false
			}
			s, p = s[1:], p[1:]
		default:
			if esc != "" && c == esc[0] && len(p) > 1 {
				p = p[1:]
				c = p[0]
			}
			if len(s) == 0 || s[0] != c {
				return false
			}
			s, p = s[1:], p[1:]
		}
	}
	return len(s) == 0
}

// inBase is MySQL's BIN and OCT: a number (a BIGINT, negative ones in two's
// complement; a string read as the number it starts with) in base 2 or 8.
func inBase(v any, base int) any {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case float64:
		n = int64(x)
	default:
		if isNull(v) {
			return nil
		}
		num := numberStart(strings.TrimSpace(toText(v)))
		if u, err := strconv.ParseUint(num, 10, 64); err == nil {
			return strconv.FormatUint(u, base) // a BIGINT UNSIGNED's digits, exactly
		}
		f, _ := strconv.ParseFloat(num, 64)
		n = int64(f)
	}
	return strconv.FormatUint(uint64(n), base)
}

// numberStart is the longest prefix of s that reads as a decimal number.
func numberStart(s string) string {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	return s[:i]
}
