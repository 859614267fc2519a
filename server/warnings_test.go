package server_test

// The diagnostics area: what a statement noted (values rounded or cut, deprecated
// syntax, IF [NOT] EXISTS) or its error, in SHOW WARNINGS, SHOW ERRORS,
// @@warning_count and the OK packet's warning count.

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestWarnings(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE w")
	c := tn.Conn(t, n.DB("w"))
	show := func() string {
		var out []string
		for _, r := range tn.Rows(t, c, "SHOW WARNINGS") {
			out = append(out, strings.Join(r, " "))
		}
		return strings.Join(out, "; ")
	}
	tn.Exec(t, c, "CREATE TABLE d (id INT(11) PRIMARY KEY, d DECIMAL(5,2), dt DATE)")
	if got := show(); got != "Warning 1681 Integer display width is deprecated and will be removed in a future release." {
		t.Errorf("after CREATE TABLE with a display width: %s", got)
	}
	tn.Exec(t, c, "INSERT INTO d VALUES (1, 1.005, '2024-02-29 13:00:00'), (2, 2.5, '2024-03-01')")
	if got := show(); got != "Note 1265 Data truncated for column 'd' at row 1; Note 1265 Data truncated for column 'dt' at row 1" {
		t.Errorf("after rounding and cutting: %s", got)
	}
	if got := tn.String(t, c, "SELECT @@warning_count"); got != "2" {
		t.Errorf("@@warning_count = %s, want 2", got)
	}
	if got := tn.Rows(t, c, "SELECT d, dt FROM d WHERE id = 1"); got[0][0] != "1.01" || got[0][1] != "2024-02-29" {
		t.Errorf("stored %v", got)
	}
	tn.Exec(t, c, "DROP TABLE IF EXISTS nosuch")
	if got := show(); got != "Note 1051 Unknown table 'w.nosuch'" {
		t.Errorf("after DROP TABLE IF EXISTS of a missing table: %s", got)
	}
	tn.Exec(t, c, "CREATE TABLE IF NOT EXISTS d (x INT)")
	if got := show(); got != "Note 1050 Table 'd' already exists" {
		t.Errorf("after CREATE TABLE IF NOT EXISTS of a table that exists: %s", got)
	}
	tn.QueryError(t, c, 1146, "42S02", "SELECT * FROM nosuch")
	if got := show(); got != "Error 1146 Table 'w.nosuch' doesn't exist" {
		t.Errorf("after an error: %s", got)
	}
	if got := tn.String(t, c, "SELECT @@error_count"); got != "1" {
		t.Errorf("@@error_count = %s, want 1", got)
	}
	tn.Exec(t, c, "SELECT 1")
	if got := show(); got != "" {
		t.Errorf("after a clean statement: %s", got)
	}
}
