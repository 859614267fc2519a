package server_test

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// MySQL functions binlite adds to SQLite behave as in MySQL, and a string literal's
// column is named by its value.
func TestMySQLFunctions(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	cols, rows := tn.Result(t, db, "SELECT 'x', REPEAT('ab', 3), LPAD('5', 3, '0'), RPAD('a', 3, '-'), LEFT('hello', 2), RIGHT('hello', 3), "+
		"CHAR_LENGTH('héllo'), REVERSE('abc'), FLOOR(2.7), CEIL(2.1), FLOOR(-2), POW(2, 10), SQRT(-1), CONCAT('a', NULL), CONCAT_WS('-', 'a', NULL, 'b'), IF(1 > 2, 'y', 'n')")
	if cols[0] != "x" {
		t.Errorf("SELECT 'x' names its column %q, want x", cols[0])
	}
	got := strings.Join(rows[0], "|")
	want := "x|ababab|005|a--|he|llo|5|cba|2|3|-2|1024|NULL|NULL|a-b|n"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
