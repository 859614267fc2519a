package catalog

import (
	"strings"
	"testing"
)

// A text column's collation, as SQLite declares it: the column's own, its
// character set's default, the table's, or the database default; the BINARY
// attribute is the _bin collation; utf8 is utf8mb3.
func TestColumnCollations(t *testing.T) {
	def, err := Build(parseCreate(t, "CREATE TABLE t ("+
		"a VARCHAR(5), b VARCHAR(5) COLLATE utf8mb4_bin, c CHAR(2) CHARACTER SET latin1, d TEXT CHARSET utf8 COLLATE utf8_unicode_ci, "+
		"e VARCHAR(5) BINARY, f ENUM('x') CHARACTER SET ascii BINARY, g SET('y'), h VARBINARY(5), i BLOB, j JSON, k INT, "+
		"l VARCHAR(5) CHARACTER SET utf8mb4) COLLATE utf8mb4_unicode_ci"), "utf8mb4_general_ci")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "utf8mb4_unicode_ci", "b": "utf8mb4_bin", "c": "latin1_swedish_ci", "d": "utf8mb3_unicode_ci",
		"e": "utf8mb4_bin", "f": "ascii_bin", "g": "utf8mb4_unicode_ci", "h": "", "i": "", "j": "", "k": "", "l": "utf8mb4_unicode_ci"}
	for _, c := range def.Columns {
		if got := c.Type.SQLiteCollation(); got != want[c.Name] {
			t.Errorf("column %s: SQLite collation %q, want %q", c.Name, got, want[c.Name])
		}
	}
	if def.Columns[3].Type.Collation != "utf8mb3_unicode_ci" {
		t.Errorf("utf8_unicode_ci is kept as %q, MySQL 8.4 says utf8mb3_unicode_ci", def.Columns[3].Type.Collation)
	}
	// utf8mb4_0900_bin is SQLite's own byte order.
	def, err = Build(parseCreate(t, "CREATE TABLE t (a VARCHAR(5)) COLLATE utf8mb4_0900_bin"), "")
	if err != nil || def.Columns[0].Type.SQLiteCollation() != "BINARY" {
		t.Errorf("utf8mb4_0900_bin: %v, %v", def, err)
	}
}

func TestCollationErrors(t *testing.T) {
	for sql, code := range map[string]uint16{
		"CREATE TABLE t (a VARCHAR(5) CHARACTER SET latin1 COLLATE utf8mb4_bin)":   1253,
		"CREATE TABLE t (a VARCHAR(5)) CHARSET latin1 COLLATE utf8mb4_bin":         1253,
		"CREATE TABLE t (a VARCHAR(5)) COLLATE utf8mb4_bin CHARSET latin1":         1253,
		"CREATE TABLE t (a VARCHAR(5) COLLATE utf8mb4_de_pb_0900_ai_ci)":           1235,
		"CREATE TABLE t (a INT) COLLATE latin1_german2_ci":                         1235,
		"CREATE TABLE t (a VARCHAR(5) CHARACTER SET latin1 COLLATE latin1_bin)":    0,
		"CREATE TABLE t (a VARCHAR(5) CHARACTER SET utf8 COLLATE utf8mb3_bin)":     0,
		"CREATE TABLE t (a VARCHAR(5)) CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci": 0,
	} {
		_, err := Build(parseCreate(t, sql), "")
		if got := codeOf(err); got != code {
			t.Errorf("%s: error %d (%v), want %d", sql, got, err, code)
		}
	}
	if err := CheckCollation("utf8mb4_nosuch_ci"); codeOf(err) != 1273 {
		t.Errorf("an unknown collation: %v", err)
	}
	if err := CheckCollation("UTF8_GENERAL_CI"); err != nil {
		t.Errorf("utf8_general_ci: %v", err)
	}
}

// ENUM and SET values are stored as their members, matched under the column's
// collation; what names no member is left for the value check to refuse.
func TestStoreEnumSet(t *testing.T) {
	def, err := Build(parseCreate(t, "CREATE TABLE t (e ENUM('Small','large'), b ENUM('a','A') COLLATE utf8mb4_bin, s SET('a','b','c'))"), "utf8mb4_general_ci")
	if err != nil {
		t.Fatal(err)
	}
	e, b, s := def.Columns[0].Type, def.Columns[1].Type, def.Columns[2].Type
	for _, c := range []struct {
		ty      Type
		in, out string
		ok      bool
	}{
		{e, "SMALL", "Small", true}, {e, "large ", "large", true}, {e, "huge", "", false},
		{b, "A", "A", true}, {b, "a", "a", true},
		{s, "c,A,b,a", "a,b,c", true}, {s, "B", "b", true}, {s, "a,z", "", false}, {s, "", "", false},
	} {
		v, ok := c.ty.StoreText(c.in)
		if ok != c.ok || ok && v != c.out {
			t.Errorf("%s %q: stored %v, %v; want %q, %v", c.ty.Base, c.in, v, ok, c.out, c.ok)
		}
	}
	if checks := strings.Join(def.ValueChecks(), " "); !strings.Contains(checks, `"e" COLLATE BINARY IN ('Small', 'large')`) {
		t.Errorf("ENUM value check is not byte for byte: %s", checks)
	}
}
