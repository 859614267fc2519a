package server_test

// Values a column cannot hold are refused with MySQL's error (strict mode, MySQL
// 8.4's default), on every write path and in both protocols, and change nothing.

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestValueChecksStrict(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE vc")
		s := p.session(t, n, "vc")
		tn.Exec(t, s, "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a TINYINT, b TINYINT UNSIGNED, c VARCHAR(3), d DATE, e ENUM('x','y'), f DECIMAL(5,2), g JSON, h DATETIME, i INT, k BIT(3), bn VARBINARY(2))")
		tn.Exec(t, s, "INSERT INTO t (id, a, b, c, d, e, f, g, h, i, k, bn) VALUES (1, 127, 255, 'abc', '2024-02-29', 'y', 999.99, '{\"a\": 1}', '2024-01-01 10:00:00', -2147483648, 7, x'0001')")
		for _, tc := range []struct {
			sql   string
			args  []any
			code  uint16
			state string
		}{
			{"INSERT INTO t (id, a) VALUES (2, 300)", nil, 1264, "22003"},
			{"INSERT INTO t (id, a) VALUES (?, ?)", []any{2, 128}, 1264, "22003"},
			{"INSERT INTO t (id, b) VALUES (2, -1)", nil, 1264, "22003"},
			{"INSERT INTO t (id, c) VALUES (2, 'abcdef')", nil, 1406, "22001"},
			{"INSERT INTO t (id, c) VALUES (?, ?)", []any{2, "abcd"}, 1406, "22001"},
			{"INSERT INTO t (id, d) VALUES (2, 'not a date')", nil, 1292, "22007"},
			{"INSERT INTO t (id, d) VALUES (2, '2023-02-29')", nil, 1292, "22007"},
			{"INSERT INTO t (id, d) VALUES (2, '0000-00-00')", nil, 1292, "22007"},
			{"INSERT INTO t (id, e) VALUES (2, 'z')", nil, 1265, "01000"},
			{"INSERT INTO t (id, f) VALUES (2, 1000)", nil, 1264, "22003"},
			{"INSERT INTO t (id, g) VALUES (2, '{bad')", nil, 3140, "22032"},
			{"INSERT INTO t (id, h) VALUES (2, '2024-13-01 00:00:00')", nil, 1292, "22007"},
			{"INSERT INTO t (id, i) VALUES (2, 'abc')", nil, 1366, "HY000"},
			{"INSERT INTO t (id, k) VALUES (2, 8)", nil, 1406, "22001"},
			{"INSERT INTO t (id, bn) VALUES (2, x'000102')", nil, 1406, "22001"},
			// Every write path: UPDATE with an expression, a multi-row INSERT whose
			// last row is bad (none of it stays), INSERT ... SELECT, upsert.
			{"UPDATE t SET a = a + 1 WHERE id = 1", nil, 1264, "22003"},
			{"INSERT INTO t (id, a) VALUES (3, 1), (4, 2), (5, 1000)", nil, 1264, "22003"},
			{"INSERT INTO t (id, a) SELECT id + 10, a * 2 FROM t", nil, 1264, "22003"},
			{"INSERT INTO t (id, c) VALUES (1, 'x') ON DUPLICATE KEY UPDATE c = CONCAT(c, 'zz')", nil, 1406, "22001"},
		} {
			tn.ExecError(t, s, tc.code, tc.state, tc.sql, tc.args...)
		}
		if got := tn.Rows(t, s, "SELECT COUNT(*), MAX(a), MAX(c) FROM t"); got[0][0] != "1" || got[0][1] != "127" || got[0][2] != "abc" {
			t.Errorf("after the refused writes: %v, want the one row unchanged", got)
		}
		// What fits is taken, at the limits.
		tn.Exec(t, s, "INSERT INTO t (id, a, b, c, i) VALUES (6, -128, 0, '', 2147483647)")
		tn.Exec(t, s, "UPDATE t SET a = a - 1 WHERE id = 1")
	})
}
