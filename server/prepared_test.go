package server_test

// A value bound to a prepared statement's ? (go-sql-driver/mysql sends integers
// as BIGINT and strings as strings, in COM_STMT_EXECUTE) is written into its
// column exactly as the literal of the same value is: the same stored value,
// the same notes and warnings, the same error.

import (
	"fmt"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestPreparedValuesAsLiterals(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE prep")
	c := tn.Conn(t, n.DB("prep"))
	tn.Exec(t, c, "CREATE TABLE ints (i INT)")
	tn.Exec(t, c, "CREATE TABLE decs (id INT PRIMARY KEY, d DECIMAL(6,2))")
	tn.Exec(t, c, "CREATE TABLE strs (id INT PRIMARY KEY, v VARCHAR(3))")
	tn.Exec(t, c, "CREATE TABLE dts (id INT PRIMARY KEY, d DATE, y YEAR)")
	tn.Exec(t, c, "CREATE TABLE es (id INT PRIMARY KEY, e ENUM('s','m','l'), s SET('a','b','c'), en ENUM('x','y') NOT NULL)")

	// '12abc' into INT under strict mode: 1265, as the literal (not 1366).
	tn.ExecError(t, c, 1265, "01000", "INSERT INTO ints (i) VALUES (?)", "12abc")
	tn.ExecError(t, c, 1265, "01000", "INSERT INTO ints (i) VALUES ('12abc')")

	cases := []struct {
		name, insert string
		args         []any
		warnings     string
		check        string
		want         string
	}{
		{"decimal rounded", "INSERT INTO decs (id, d) VALUES (?, ?)", []any{11, "12.3456"}, "1265", "SELECT d FROM decs WHERE id = 11", "12.35"},
		{"varchar trailing spaces", "INSERT INTO strs (id, v) VALUES (?, ?)", []any{4, "abc "}, "1265", "SELECT CONCAT('[', v, ']') FROM strs WHERE id = 4", "[abc]"},
		{"year 69", "INSERT INTO dts (id, y) VALUES (?, ?)", []any{11, 69}, "", "SELECT y FROM dts WHERE id = 11", "2069"},
		{"year 70", "INSERT INTO dts (id, y) VALUES (?, ?)", []any{12, 70}, "", "SELECT y FROM dts WHERE id = 12", "1970"},
		{"date with a time", "INSERT INTO dts (id, d) VALUES (?, ?)", []any{15, "2024-02-29 13:45:59"}, "1265", "SELECT d FROM dts WHERE id = 15", "2024-02-29"},
		{"enum and set under IGNORE", "INSERT IGNORE INTO es (id, e, s, en) VALUES (?, ?, ?, ?)", []any{7, "xl", "a,e", "z"}, "1265,1265,1265",
			"SELECT CONCAT('[', e, '|', e + 0, '|', s, '|', en, ']') FROM es WHERE id = 7", "[|0|a|]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The prepared statement, then the same text with literals in a
			// second row: both answers must be the same.
			res := tn.Exec(t, c, tc.insert, tc.args...)
			if n, _ := res.RowsAffected(); n != 1 {
				t.Errorf("prepared: %d rows affected, want 1", n)
			}
			if got := warningCodes(t, c); got != tc.warnings {
				t.Errorf("prepared: warnings %q, want %q", got, tc.warnings)
			}
			if got := tn.String(t, c, tc.check); got != tc.want {
				t.Errorf("prepared: %s = %q, want %q", tc.check, got, tc.want)
			}
			id := tc.args[0].(int) + 100
			lits := []string{fmt.Sprint(id)}
			for _, a := range tc.args[1:] {
				if s, ok := a.(string); ok {
					lits = append(lits, "'"+s+"'")
				} else {
					lits = append(lits, fmt.Sprint(a))
				}
			}
			text := strings.Replace(tc.insert, strings.Repeat("?, ", len(tc.args)-1)+"?", strings.Join(lits, ", "), 1)
			tn.Exec(t, c, text)
			if got := warningCodes(t, c); got != tc.warnings {
				t.Errorf("text: warnings %q, want %q", got, tc.warnings)
			}
			check := strings.Replace(tc.check, fmt.Sprintf("id = %d", tc.args[0]), fmt.Sprintf("id = %d", id), 1)
			if got := tn.String(t, c, check); got != tc.want {
				t.Errorf("text: %s = %q, want %q", check, got, tc.want)
			}
		})
	}

	// An ENUM compared with bound numbers: by its index, as with literals.
	got := tn.Rows(t, c, "SELECT id FROM es WHERE e IN (?, ?) OR e BETWEEN ? AND ? ORDER BY id", 0, 9, 5, 6)
	if len(got) != 2 || got[0][0] != "7" || got[1][0] != "107" {
		t.Errorf("ENUM IN/BETWEEN with bound numbers: %v, want rows 7 and 107", got)
	}
}
