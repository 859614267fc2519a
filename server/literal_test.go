package server_test

// MySQL's literals keep their meaning: 0x.. and _binary '..' are bytes, DATE and
// TIMESTAMP literals are normalised (and refused when they are not dates).

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestLiterals(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE lit")
		s := p.session(t, n, "lit")
		tn.Exec(t, s, "CREATE TABLE b (id INT PRIMARY KEY, v BLOB, d DATE, ts DATETIME)")
		tn.Exec(t, s, "INSERT INTO b VALUES (1, 0x414243, DATE '20240315', TIMESTAMP '2024-01-02 03:04:05'), (2, _binary 'a\\0b', DATE '2024-3-5', NULL), (3, 0xABC, NULL, NULL)")
		got := tn.Rows(t, s, "SELECT id, HEX(v), LENGTH(v), d, ts FROM b ORDER BY id")
		want := [][]string{
			{"1", "414243", "3", "2024-03-15", "2024-01-02 03:04:05"},
			{"2", "610062", "3", "2024-03-05", "NULL"},
			{"3", "0ABC", "2", "NULL", "NULL"},
		}
		for i := range want {
			for j := range want[i] {
				if got[i][j] != want[i][j] {
					t.Errorf("row %d: %v, want %v", i, got[i], want[i])
					break
				}
			}
		}
		tn.ExecError(t, s, 1525, "HY000", "INSERT INTO b (id, d) VALUES (9, DATE '2024-02-30')")
		tn.QueryError(t, s, 1525, "HY000", "SELECT DATE 'soon'")
	})
}

// TestTimeZoneSetting: the zones binlite follows (UTC's names, offsets) are
// taken; a named zone is refused with 1235 (binlite has no zone database,
// rather than accepted and ignored), an invalid one with 1298.
func TestTimeZoneSetting(t *testing.T) {
	n := tn.Start(t)
	c := tn.Conn(t, n.DB(""))
	for _, z := range []string{"SYSTEM", "+00:00", "+05:30", "-13:59", "+14:00", "UTC"} {
		tn.Exec(t, c, "SET time_zone = '"+z+"'")
	}
	if got := tn.String(t, c, "SELECT @@session.time_zone"); got != "UTC" {
		t.Errorf("@@session.time_zone = %s, want UTC", got)
	}
	tn.ExecError(t, c, 1298, "HY000", "SET time_zone = '+14:01'")
	tn.ExecError(t, c, 1235, "42000", "SET GLOBAL time_zone = 'Europe/Paris'")
	tn.ExecError(t, c, 1298, "HY000", "SET time_zone = 'bogus'")
	if got := tn.String(t, c, "SELECT @@session.time_zone"); got != "UTC" {
		t.Errorf("a refused SET changed @@session.time_zone to %s", got)
	}
}
