package engine

import (
	"fmt"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
)

// registerBytes registers the functions that give binary strings MySQL's
// fixed-length forms.
func registerBytes(c *sqlite3.SQLiteConn) error {
	for name, fn := range map[string]any{
		"binlite_binary_pad":  binaryPad,
		"binlite_binary_cast": binaryCast,
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
