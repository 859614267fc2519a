// Package u64 owns how binlite stores MySQL's unsigned 64-bit integers (BIGINT
// UNSIGNED, and BIT(64), whose values are the same numbers) in SQLite, whose
// integers are signed 64-bit.
//
// A value below 2^63 is an INTEGER, as it always was: files written before this
// form existed read the same, a rowid alias keeps its meaning, and the common case
// costs nothing. A value from 2^63 to 2^64-1 is an 8-byte big-endian BLOB (its
// first byte is 0x80 or more). SQLite never applies a column's affinity to a
// BLOB, orders every INTEGER and REAL before every TEXT and every TEXT before
// every BLOB, and compares BLOBs with memcmp; so in one column, or between two
// such columns, values order and compare exactly as the numbers do: PRIMARY KEY,
// UNIQUE, indexes, ORDER BY, GROUP BY, DISTINCT, MIN and MAX need nothing, and a
// comparison with an integer (a signed BIGINT is always below 2^63) is right as
// SQLite makes it.
//
// Everything else reads the stored form through the compiler, which knows which
// expressions are BIGINT UNSIGNED: it decodes them for arithmetic (the engine's
// binlite_u64_* functions, package sqlitec), for exact decimals, doubles and
// text, and where it has no rule it reads them through binlite_u64, which fails
// with 1235 on a value above 2^63-1 instead of computing with the BLOB.
//
// Rejected alternatives: storing v-2^63 as a signed INTEGER (an order-preserving
// bijection) would change every existing file and every rowid alias, and make
// every read of every BIGINT UNSIGNED column need decoding; TEXT digits would be
// converted to an inexact REAL by the column's INTEGER affinity; a REAL loses the
// low bits above 2^53.
package u64

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
)

// Size is the length of the BLOB form.
const Size = 8

// Stored is v as SQLite keeps it: an int64 below 2^63, else the BLOB form.
func Stored(v uint64) any {
	if v <= math.MaxInt64 {
		return int64(v)
	}
	return Blob(v)
}

// Blob is the BLOB form of v (meant for v >= 2^63).
func Blob(v uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, Size), v)
}

// Wide reads the BLOB form: ok=false for any other value.
func Wide(v any) (uint64, bool) {
	b, isBlob := v.([]byte)
	if !isBlob || len(b) != Size || b[0] < 0x80 {
		return 0, false
	}
	return binary.BigEndian.Uint64(b), true
}

// Value reads a stored value: a non-negative int64 or the BLOB form.
func Value(v any) (uint64, bool) {
	if n, ok := v.(int64); ok {
		return uint64(n), n >= 0
	}
	return Wide(v)
}

// Literal spells v's stored form as a SQLite literal.
func Literal(v uint64) string {
	if v <= math.MaxInt64 {
		return strconv.FormatUint(v, 10)
	}
	return "X'" + hex.EncodeToString(Blob(v)) + "'"
}

// MinWide is the least BLOB form as a SQLite literal: a stored value is at least
// this exactly when it is 2^63 or more.
const MinWide = "X'8000000000000000'"
