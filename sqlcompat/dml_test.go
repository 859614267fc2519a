package sqlcompat

import (
	"reflect"
	"testing"
)

func TestQueryTranslation(t *testing.T) {
	tests := []struct {
		sql, want string
		kind      QueryKind
	}{
		// sysbench 1.0.20 oltp_common.lua
		{"SELECT c FROM sbtest1 WHERE id=?", "SELECT c FROM sbtest1 WHERE id=?", Select},
		{"SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", Select},
		{"SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", Select},
		{"SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", Select},
		{"SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", Select},
		{"UPDATE sbtest1 SET k=k+1 WHERE id=?", "UPDATE sbtest1 SET k=k+1 WHERE id=?", Update},
		{"UPDATE sbtest1 SET c=? WHERE id=?", "UPDATE sbtest1 SET c=? WHERE id=?", Update},
		{"DELETE FROM sbtest1 WHERE id=?", "DELETE FROM sbtest1 WHERE id=?", Delete},
		{"INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (binlite_autoinc(?), ?, ?, ?)", Insert},
		{"INSERT INTO sbtest1(k, c, pad) VALUES(1,'a','b'),(2,'c','d')", `INSERT INTO sbtest1(k, c, pad, "id") VALUES(1,'a','b', binlite_autoinc(NULL)),(2,'c','d', binlite_autoinc(NULL))`, Insert},

		// identifiers, strings, comments
		{"SELECT `c`, `we\"ird` FROM `sbtest1`", `SELECT "c", "we""ird" FROM "sbtest1"`, Select},
		{`SELECT "a\"b", 'it\'s', 'x''y', "\n"`, "SELECT 'a\"b', 'it''s', 'x''y', '\n'", Select},
		{"SELECT x'AB', b'101', 0x1F", "SELECT X'AB', 5, X'1F'", Select},
		{"SELECT /*!40001 SQL_NO_CACHE */ * FROM t", "SELECT * FROM t", Select},
		{"SELECT 1 /* c */ + 2 # tail", "SELECT 1 + 2", Select},
		{"SELECT a || b, a && b, a <=> b, !a FROM t", "SELECT a OR b, a AND b, a IS b, NOT a FROM t", Select},
		{"SELECT CAST(a AS SIGNED), CAST(b AS UNSIGNED INTEGER), CAST(c AS CHAR(10)), CONVERT(d, CHAR) FROM t",
			"SELECT CAST(a AS INTEGER), CAST(b AS INTEGER), CAST(c AS TEXT), CONVERT(d, CHAR) FROM t", Select},
		{"SELECT c FROM t WHERE c = 'a' COLLATE utf8mb4_bin", "SELECT c FROM t WHERE c = 'a'", Select},
		{"SELECT _utf8mb4'x' AS y", "SELECT 'x' AS y", Select},

		// variables and context functions, with MySQL column names
		{"SELECT @@version_comment LIMIT 1", `SELECT 'binlite' AS "@@version_comment" LIMIT 1`, Select},
		{"select @@session.autocommit", `select 1 AS "@@session.autocommit"`, Select},
		{"SELECT @@max_allowed_packet, @@global.max_allowed_packet", `SELECT 4194304 AS "@@max_allowed_packet", 67108864 AS "@@global.max_allowed_packet"`, Select},
		{"SELECT DATABASE()", `SELECT 'sbtest' AS "DATABASE()"`, Select},
		{"SELECT database() AS db, CONNECTION_ID() cid", `SELECT 'sbtest' AS db, 42 cid`, Select},
		{"SELECT @x, @unset", `SELECT 7 AS "@x", NULL AS "@unset"`, Select},
		{"SELECT @@autocommit + 1", `SELECT 1 + 1 AS "@@autocommit + 1"`, Select},
		{"SELECT NOW(), UNIX_TIMESTAMP(), VERSION()", "SELECT NOW(), UNIX_TIMESTAMP(), VERSION()", Select},
		{"SELECT LAST_INSERT_ID()", `SELECT 9 AS "LAST_INSERT_ID()"`, Select},
		{"SELECT c FROM t WHERE id = LAST_INSERT_ID()", "SELECT c FROM t WHERE id = 9", Select},
		{"SELECT (SELECT DATABASE()) AS d", `SELECT (SELECT 'sbtest' AS "DATABASE()") AS d`, Select},

		// stripped MySQL-only clauses
		{"SELECT c FROM sbtest1 WHERE id=? FOR UPDATE", "SELECT c FROM sbtest1 WHERE id=?", Select},
		{"SELECT c FROM t WHERE id=1 FOR SHARE SKIP LOCKED", "SELECT c FROM t WHERE id=1", Select},
		{"SELECT c FROM t WHERE id=1 FOR UPDATE OF t NOWAIT", "SELECT c FROM t WHERE id=1", Select},
		{"SELECT c FROM t LOCK IN SHARE MODE", "SELECT c FROM t", Select},
		{"SELECT SQL_CALC_FOUND_ROWS HIGH_PRIORITY c FROM t USE INDEX (k) IGNORE KEY FOR ORDER BY (c) WHERE 1", "SELECT c FROM t WHERE 1", Select},
		{"SELECT STRAIGHT_JOIN a FROM t1 STRAIGHT_JOIN t2 ON t1.x = t2.x", "SELECT a FROM t1 JOIN t2 ON t1.x = t2.x", Select},
		{"SELECT 1 FROM DUAL", "SELECT 1", Select},
		{"INSERT LOW_PRIORITY IGNORE INTO t2 (a) VALUES (1)", "INSERT OR IGNORE INTO t2 (a) VALUES (1)", Insert},
		{"INSERT DELAYED t2 VALUES (1)", "INSERT t2 VALUES (1)", Insert},
		{"REPLACE INTO t2 (a, b) VALUES (1, 2)", "REPLACE INTO t2 (a, b) VALUES (1, 2)", Replace},
		{"UPDATE IGNORE t2 SET a = 1", "UPDATE OR IGNORE t2 SET a = 1", Update},
		{"UPDATE LOW_PRIORITY t2 SET t2.a = 1 WHERE t2.b = 2", "UPDATE t2 SET a = 1 WHERE t2.b = 2", Update},
		{"DELETE QUICK IGNORE FROM t2 WHERE a = 1", "DELETE FROM t2 WHERE a = 1", Delete},
		{"DELETE FROM t2", "DELETE FROM t2", Delete},

		// upserts and INSERT ... SET
		{"INSERT INTO t2 (a, b) VALUES (1, 2) ON DUPLICATE KEY UPDATE b = VALUES(b), c = c + 1",
			`INSERT INTO t2 (a, b) VALUES (1, 2) ON CONFLICT DO UPDATE SET b = excluded."b", c = c + 1`, Insert},
		{"INSERT INTO t2 (a, b) VALUES (1, 2) AS new ON DUPLICATE KEY UPDATE b = new.b",
			`INSERT INTO t2 (a, b) VALUES (1, 2) ON CONFLICT DO UPDATE SET b = excluded.b`, Insert},
		{"INSERT INTO t2 (a) SELECT a FROM t3 ON DUPLICATE KEY UPDATE a = VALUES(a)",
			`INSERT INTO t2 (a) SELECT a FROM t3 WHERE true ON CONFLICT DO UPDATE SET a = excluded."a"`, Insert},
		{"INSERT INTO t2 SET a=1, `b`='x'", `INSERT INTO t2 ("a", "b") VALUES (1, 'x')`, Insert},
		{"INSERT INTO t2 SET a=? ON DUPLICATE KEY UPDATE a=VALUES(a)", `INSERT INTO t2 ("a") VALUES (?) ON CONFLICT DO UPDATE SET a=excluded."a"`, Insert},

		// qualified names
		{"SELECT c FROM sbtest.sbtest1 WHERE id=1", "SELECT c FROM sbtest1 WHERE id=1", Select},
		{"SELECT sbtest.t.c FROM `sbtest`.`t`", `SELECT t.c FROM "t"`, Select},
		{"SELECT a FROM other.t2, sbtest.t3 JOIN `db2`.t4 ON 1", `SELECT a FROM other.t2, t3 JOIN "db2".t4 ON 1`, Select},
		{"INSERT INTO sbtest.t2 (a) SELECT a FROM other.t2", "INSERT INTO t2 (a) SELECT a FROM other.t2", Insert},
		{"SELECT a FROM (SELECT a FROM sbtest.t2) AS x", "SELECT a FROM (SELECT a FROM t2) AS x", Select},

		{"(SELECT 1) UNION (SELECT 2)", "(SELECT 1) UNION (SELECT 2)", Select},
		{"WITH x AS (SELECT 1 AS a) SELECT a FROM x", "WITH x AS (SELECT 1 AS a) SELECT a FROM x", Select},
		{"DO 1", "SELECT 1", Other},
	}
	for _, tt := range tests {
		q := mustQuery(t, tt.sql)
		if q.SQLite != tt.want || q.Kind != tt.kind {
			t.Errorf("Parse(%q)\n got %s %q\nwant %s %q", tt.sql, q.Kind, q.SQLite, tt.kind, tt.want)
		}
		if q.ReadOnly != (tt.kind == Select) {
			t.Errorf("Parse(%q).ReadOnly = %v", tt.sql, q.ReadOnly)
		}
	}
}

func TestQueryMetadata(t *testing.T) {
	tests := []struct {
		sql     string
		params  int
		schemas []string
		tables  []string
		zero    []int
	}{
		{"SELECT c FROM sbtest1 WHERE id=?", 1, nil, []string{"sbtest1"}, nil},
		{"INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", 4, nil, []string{"sbtest1"}, []int{0}},
		{"INSERT INTO sbtest1 (k, id) VALUES (?, ?), (?, ?)", 4, nil, []string{"sbtest1"}, []int{1, 3}},
		{"INSERT INTO sbtest.sbtest1 (`ID`, k) VALUES (?, 1)", 1, nil, []string{"sbtest1"}, []int{0}},
		{"INSERT INTO sbtest1 SET k = ?, id = ?", 2, nil, []string{"sbtest1"}, []int{1}},
		{"INSERT INTO other.sbtest1 (id) VALUES (?)", 1, []string{"other"}, []string{"sbtest1"}, nil},
		{"INSERT INTO sbtest1 VALUES (?, ?, ?, ?)", 4, nil, []string{"sbtest1"}, nil},
		{"SELECT a FROM o1.x JOIN o2.y ON 1, o1.z", 0, []string{"o1", "o2"}, []string{"x", "y", "z"}, nil},
		{"UPDATE o1.x SET a = ? WHERE b IN (SELECT b FROM y)", 1, []string{"o1"}, []string{"x", "y"}, nil},
		{"DELETE FROM t WHERE a = ?", 1, nil, []string{"t"}, nil},
	}
	for _, tt := range tests {
		q := mustQuery(t, tt.sql)
		if q.NumParams != tt.params || !reflect.DeepEqual(q.Schemas, tt.schemas) || !reflect.DeepEqual(q.Tables, tt.tables) || !reflect.DeepEqual(q.ZeroToNullParams, tt.zero) {
			t.Errorf("Parse(%q) = params %d schemas %q tables %q zero %v; want %d %q %q %v",
				tt.sql, q.NumParams, q.Schemas, q.Tables, q.ZeroToNullParams, tt.params, tt.schemas, tt.tables, tt.zero)
		}
	}
}

// TestAutoIncValues: every row's AUTO_INCREMENT value goes through
// binlite_autoinc (the engine hands out ids for NULL and 0), the column added
// when the statement leaves it out; other tables' values are left alone.
func TestAutoIncValues(t *testing.T) {
	tests := []struct {
		sql, want string
		rows      int
	}{
		{"INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, 5012, 'x', 'y')", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (binlite_autoinc(0), 5012, 'x', 'y')", 1},
		{"INSERT INTO sbtest1 (k, id) VALUES (1, '0'), (2, 5), (3,0)", "INSERT INTO sbtest1 (k, id) VALUES (1, binlite_autoinc('0')), (2, binlite_autoinc(5)), (3,binlite_autoinc(0))", 3},
		{"REPLACE INTO t (id) VALUES (0)", "REPLACE INTO t (id) VALUES (binlite_autoinc(0))", 1},
		{"INSERT INTO t SET id = 0, k = 0", `INSERT INTO t ("id", "k") VALUES (binlite_autoinc(0), 0)`, 1},
		{"INSERT INTO t SET k = 1", `INSERT INTO t ("k", "id") VALUES (1, binlite_autoinc(NULL))`, 1},
		{"INSERT INTO t (k) VALUES (1), (2)", `INSERT INTO t (k, "id") VALUES (1, binlite_autoinc(NULL)), (2, binlite_autoinc(NULL))`, 2},
		{"INSERT INTO t2 (id) VALUES (0)", "INSERT INTO t2 (id) VALUES (0)", 1},
		{"INSERT INTO t (id) VALUES (0 + 0)", "INSERT INTO t (id) VALUES (binlite_autoinc(0 + 0))", 1},
		{"INSERT INTO t (k) SELECT k FROM t2", "INSERT INTO t (k) SELECT k FROM t2", 0},
	}
	for _, tt := range tests {
		if q := mustQuery(t, tt.sql); q.SQLite != tt.want || q.InsertRows != tt.rows {
			t.Errorf("Parse(%q)\n got %q (%d rows)\nwant %q (%d rows)", tt.sql, q.SQLite, q.InsertRows, tt.want, tt.rows)
		}
	}
}

// TestDivisionKeepsNames: / divides without truncating, and a select item that
// holds one keeps its MySQL text as its column name.
func TestDivisionKeepsNames(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT a/b, a / b ratio, SUM(a)/COUNT(*) FROM t": `SELECT a* 1.0 /b AS "a/b", a * 1.0 / b ratio, SUM(a)* 1.0 /COUNT(*) AS "SUM(a)/COUNT(*)" FROM t`,
		"SELECT 7 / 2 AS half":                            `SELECT 7 * 1.0 / 2 AS half`,
		"SELECT id FROM t WHERE a / b > 1":                `SELECT id FROM t WHERE a * 1.0 / b > 1`,
	} {
		st, err := Parse(in, testCtx())
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := st.(*Query).SQLite; got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
}
