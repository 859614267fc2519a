package sqlitec

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
	"testing"
)

// The unsigned 64-bit functions compute exactly over the stored form (an
// INTEGER below 2^63, an 8-byte big-endian BLOB from 2^63), give MySQL's 1690
// outside BIGINT UNSIGNED's range, and 1235 where a value cannot be used.
func TestUint64Functions(t *testing.T) {
	c := openConn(t)
	var warned []string
	if err := RegisterChecks(c, func(code uint16, msg string) { warned = append(warned, msg) }); err != nil {
		t.Fatal(err)
	}
	max := "X'FFFFFFFFFFFFFFFF'"
	min := "X'8000000000000000'"
	for q, want := range map[string]driver.Value{
		"binlite_u64_add(" + max + ", -1, 'e')":                                 []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe},
		"binlite_u64_add(9223372036854775807, 1, 'e')":                          []byte{0x80, 0, 0, 0, 0, 0, 0, 0},
		"binlite_u64_sub(" + min + ", 1, 'e')":                                  int64(9223372036854775807),
		"binlite_u64_mul(4294967296, 4294967295, 'e')":                          []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0},
		"binlite_u64_add(NULL, " + max + ", 'e')":                               nil,
		"binlite_u64_add('18446744073709551614', 1, 'e')":                       []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_intdiv(" + max + ", 2, 1, 'e')":                            int64(9223372036854775807),
		"binlite_u64_intdiv(2, -3, 1, 'e')":                                     int64(0),
		"binlite_u64_mod(" + max + ", 10, 1, 'e')":                              int64(5),
		"binlite_u64_mod(-7, " + max + ", 1, 'e')":                              int64(-7),
		"binlite_u64_dec(" + max + ")":                                          "18446744073709551615",
		"binlite_u64_neg(" + min + ", 'e')":                                     int64(-9223372036854775807 - 1),
		"binlite_u64_dec(5)":                                                    int64(5),
		"binlite_u64_real(" + min + ")":                                         9223372036854775808.0,
		"binlite_u64_key('18446744073709551615')":                               []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_key(' 42 ')":                                               int64(42),
		"binlite_u64_key(1e30)":                                                 []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_key(1.5)":                                                  1.5,
		"binlite_u64_key('abc')":                                                0.0, // the number it starts with, as MySQL compares
		"binlite_u64_key('18446744073709551615.000')":                           []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_store('18446744073709551614.5', 'c')":                      []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_store(1.5e19, 'c')":                                        []byte{0xd0, 0x2a, 0xb4, 0x86, 0xce, 0xdc, 0x00, 0x00},
		"binlite_u64_narrow(5, 'c')":                                            int64(5),
		"binlite_u64_store('abc', 'c')":                                         "abc",
		"binlite_u64_store('-0.4', 'c')":                                        int64(0),
		"binlite_u64_from('18446744073709551615', 'e')":                         []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_bits(-1)":                                                  []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64_bits(3)":                                                   int64(3),
		"binlite_u64_signed(" + max + ")":                                       int64(-1),
		"binlite_u64_shr(" + max + ", 1)":                                       int64(9223372036854775807),
		"binlite_u64_shr(-1, 63)":                                               int64(1),
		"binlite_u64_shl(1, 63)":                                                []byte{0x80, 0, 0, 0, 0, 0, 0, 0},
		"binlite_u64_shl(1, 64)":                                                int64(0),
		"binlite_u64_shl(1, -1)":                                                int64(0),
		"binlite_u64_cast(-1)":                                                  []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"binlite_u64(7, 'e')":                                                   int64(7),
		"binlite_u64(X'0102', 'e')":                                             []byte{1, 2},
		"CAST(" + max + " > 9223372036854775807 AS INTEGER)":                    int64(1), // the order the design relies on
		"CAST(" + min + " < X'8000000000000001' AS INTEGER)":                    int64(1),
		"CAST(binlite_u64_key(1e30) > " + max + " AS INTEGER)":                  int64(1),
		"CAST(binlite_u64_key('9223372036854775808') = " + min + " AS INTEGER)": int64(1),
	} {
		got := rows(t, c, "SELECT "+q)
		if !same(got[0][0], want) {
			t.Errorf("%s = %#v, want %#v", q, got[0][0], want)
		}
	}
	for q, want := range map[string]string{
		"binlite_u64_add(" + max + ", 1, '(u + 1)')":       "binlite-error:1690:BIGINT UNSIGNED value is out of range in '(u + 1)'",
		"binlite_u64_neg(X'8000000000000001', '-(u)')":     "binlite-error:1690:BIGINT value is out of range in '-(u)'",
		"binlite_u64_sub(1, 2, '(u - 2)')":                 "binlite-error:1690:BIGINT UNSIGNED value is out of range in '(u - 2)'",
		"binlite_u64_mul(" + max + ", " + max + ", 'm')":   "binlite-error:1690:",
		"binlite_u64_mul(2, -1, 'm')":                      "binlite-error:1690:",
		"binlite_u64_add(1e30, 1, 'r')":                    "binlite-error:1690:",
		"binlite_u64_intdiv(-10, 3, 1, 'd')":               "binlite-error:1690:",
		"binlite_u64_intdiv(1, 0, 2, 'd')":                 "binlite-error:1365:Division by 0",
		"binlite_u64_from('18446744073709551616', 'f')":    "binlite-error:1690:",
		"binlite_u64_store('18446744073709551615.5', 'c')": "binlite-error:1264:Out of range value for column 'c' at row 1",
		"binlite_u64_narrow(" + min + ", 'c')":             "binlite-error:1264:Out of range value for column 'c' at row 1",
		"binlite_u64_store(-1, 'c')":                       "binlite-error:1264:",
		"binlite_u64(" + max + ", '`t`.`u`')":              "binlite-error:1235:This version of binlite doesn't yet support 'computing with BIGINT UNSIGNED values above 9223372036854775807 here (`t`.`u`)'",
	} {
		if err := queryErr(c, "SELECT "+q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
	warned = nil
	if got := rows(t, c, "SELECT binlite_u64_intdiv(5, 0, 1, 'd'), binlite_u64_mod(5, 0, 1, 'm')"); got[0][0] != nil || got[0][1] != nil {
		t.Errorf("division by zero: %v", got)
	}
	if len(warned) != 2 {
		t.Errorf("division warnings: %q", warned)
	}
}

func same(a, b driver.Value) bool {
	ab, aok := a.([]byte)
	bb, bok := b.([]byte)
	if aok || bok {
		return aok && bok && string(ab) == string(bb)
	}
	return a == b
}

// A comparison of a BIGINT UNSIGNED column with a parameter's stored form still
// finds its rows through the column's index.
func TestUint64KeyUsesTheIndex(t *testing.T) {
	c := openConn(t)
	if err := RegisterChecks(c, func(uint16, string) {}); err != nil {
		t.Fatal(err)
	}
	execDriver(t, c, "CREATE TABLE t (id INTEGER PRIMARY KEY, u BIGINT UNSIGNED UNIQUE)")
	r, err := c.QueryContext(context.Background(), "EXPLAIN QUERY PLAN SELECT id FROM t WHERE u = binlite_u64_key(?1)", []driver.NamedValue{{Ordinal: 1, Value: "18446744073709551615"}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	row := make([]driver.Value, len(r.Columns()))
	if err := r.Next(row); err != nil || !strings.Contains(fmt.Sprint(row[3]), "INDEX") {
		t.Errorf("query plan: %v %v", row, err)
	}
}
