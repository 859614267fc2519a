package catalog

import (
	"strings"
	"testing"
)

// BIGINT UNSIGNED (and BIT(64)) columns take the stored form of package u64 from
// 2^63 (an 8-byte BLOB from X'80...'), unless an expression SQLite evaluates reads
// the column, which would compute with the BLOB: then such values are 1235.
func TestWideValueChecks(t *testing.T) {
	def, err := Build(parseCreate(t, "CREATE TABLE w (id INT PRIMARY KEY, u BIGINT UNSIGNED DEFAULT 18446744073709551615, r BIGINT UNSIGNED, g BIGINT AS (r + 1), b BIT(64) DEFAULT b'1000000000000000000000000000000000000000000000000000000000000000', s BIGINT)"), "")
	if err != nil {
		t.Fatal(err)
	}
	checks := strings.Join(def.ValueChecks(), "\n")
	for _, want := range []string{
		`CONSTRAINT "binlite:integer:u" CHECK ("u" IS NULL OR typeof("u") = 'integer' OR typeof("u") = 'blob' AND length("u") = 8 AND "u" >= X'8000000000000000')`,
		`CONSTRAINT "binlite:range:u" CHECK ("u" IS NULL OR "u" >= 0)`,
		`CONSTRAINT "binlite:wide:r" CHECK ("r" IS NULL OR typeof("r") <> 'blob')`,
		`CONSTRAINT "binlite:integer:s" CHECK ("s" IS NULL OR typeof("s") = 'integer')`,
	} {
		if !strings.Contains(checks, want) {
			t.Errorf("checks lack %s:\n%s", want, checks)
		}
	}
	if strings.Contains(checks, "binlite:wide:u") || strings.Contains(checks, "binlite:wide:b") {
		t.Errorf("a column no expression reads is refused its wide values:\n%s", checks)
	}
	if code, _, msg, ok := CheckError("binlite:wide:r"); !ok || code != 1235 || !strings.Contains(msg, "column 'r'") {
		t.Errorf("CheckError(wide) = %d %q %v", code, msg, ok)
	}
	u, _ := def.Column("u")
	b, _ := def.Column("b")
	if got := u.SQLiteDefault(); got != "X'ffffffffffffffff'" {
		t.Errorf("DEFAULT 18446744073709551615 is %s in SQLite", got)
	}
	if got := b.SQLiteDefault(); got != "X'8000000000000000'" {
		t.Errorf("DEFAULT b'100...' of BIT(64) is %s in SQLite", got)
	}
}
