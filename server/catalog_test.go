package server_test

// The catalog of MySQL table definitions, end to end: what CREATE TABLE declared
// is what SHOW CREATE TABLE and SHOW COLUMNS show (MySQL 8.4's text), across
// restarts, with AUTO_INCREMENT=N honoured and TRUNCATE resetting the counter.

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

const catalogDDL = "CREATE TABLE t1 (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) COMMENT 'who', d DECIMAL(20,6) DEFAULT 1.5, e ENUM('a','b') NOT NULL DEFAULT 'b', flag BOOL DEFAULT TRUE, created TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, j JSON, UNIQUE KEY (name), CHECK (d >= 0)) AUTO_INCREMENT=100 COMMENT='people'"

// catalogShow is MySQL 8.4's SHOW CREATE TABLE for catalogDDL, with the counter
// at next.
func catalogShow(table, next string) string {
	return "CREATE TABLE `" + table + "` (\n" +
		"  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n" +
		"  `name` varchar(50) DEFAULT NULL COMMENT 'who',\n" +
		"  `d` decimal(20,6) DEFAULT '1.500000',\n" +
		"  `e` enum('a','b') NOT NULL DEFAULT 'b',\n" +
		"  `flag` tinyint(1) DEFAULT '1',\n" +
		"  `created` timestamp NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n" +
		"  `j` json DEFAULT NULL,\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  UNIQUE KEY `name` (`name`),\n" +
		"  CONSTRAINT `t1_chk_1` CHECK ((`d` >= 0))\n" +
		") ENGINE=InnoDB AUTO_INCREMENT=" + next + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='people'"
}

func showCreate(t *testing.T, q tn.Querier, table string) string {
	t.Helper()
	r := tn.Rows(t, q, "SHOW CREATE TABLE "+table)
	if len(r) != 1 || len(r[0]) != 2 {
		t.Fatalf("SHOW CREATE TABLE %s: %v", table, r)
	}
	return r[0][1]
}

func TestCatalogShowCreateTable(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	tn.Exec(t, db, "CREATE DATABASE cat")
	c := tn.Conn(t, n.DB("cat"))
	tn.Exec(t, c, catalogDDL)
	if got, want := showCreate(t, c, "t1"), catalogShow("t1", "100"); got != want {
		t.Fatalf("SHOW CREATE TABLE:\n%s\nwant (MySQL 8.4):\n%s", got, want)
	}
	// AUTO_INCREMENT=100 is where ids start; the counter moves on.
	tn.Exec(t, c, "INSERT INTO t1 (name) VALUES ('ann'), ('bob')")
	if got := tn.Rows(t, c, "SELECT id FROM t1 ORDER BY id"); len(got) != 2 || got[0][0] != "100" || got[1][0] != "101" {
		t.Fatalf("ids after AUTO_INCREMENT=100: %v", got)
	}
	if got, want := showCreate(t, c, "t1"), catalogShow("t1", "102"); got != want {
		t.Errorf("after two inserts:\n%s", got)
	}
	cols := tn.Rows(t, c, "SHOW COLUMNS FROM t1")
	wantCols := [][]string{
		{"id", "bigint unsigned", "NO", "PRI", "NULL", "auto_increment"},
		{"name", "varchar(50)", "YES", "UNI", "NULL", ""},
		{"d", "decimal(20,6)", "YES", "", "1.500000", ""},
		{"e", "enum('a','b')", "NO", "", "b", ""},
		{"flag", "tinyint(1)", "YES", "", "1", ""},
		{"created", "timestamp", "YES", "", "CURRENT_TIMESTAMP", "DEFAULT_GENERATED on update CURRENT_TIMESTAMP"},
		{"j", "json", "YES", "", "NULL", ""},
	}
	if len(cols) != len(wantCols) {
		t.Fatalf("SHOW COLUMNS: %v", cols)
	}
	for i := range cols {
		if strings.Join(cols[i], "|") != strings.Join(wantCols[i], "|") {
			t.Errorf("SHOW COLUMNS row %d = %v, want %v", i, cols[i], wantCols[i])
		}
	}

	// The definition is in the schema file: a restart shows the same.
	n.Restart()
	c = tn.Conn(t, n.DB("cat"))
	if got, want := showCreate(t, c, "t1"), catalogShow("t1", "102"); got != want {
		t.Errorf("after a restart:\n%s", got)
	}

	// TRUNCATE resets the counter, as InnoDB does.
	tn.Exec(t, c, "TRUNCATE TABLE t1")
	tn.Exec(t, c, "INSERT INTO t1 (name) VALUES ('cy')")
	if got := tn.String(t, c, "SELECT id FROM t1"); got != "1" {
		t.Errorf("first id after TRUNCATE = %s, want 1", got)
	}

	// ALTER TABLE ... AUTO_INCREMENT = N moves the counter (never below what the
	// table used) and COMMENT changes the comment; both keep the definition.
	tn.Exec(t, c, "ALTER TABLE t1 AUTO_INCREMENT = 500")
	tn.Exec(t, c, "ALTER TABLE t1 COMMENT = 'folk'")
	tn.Exec(t, c, "INSERT INTO t1 (name) VALUES ('dee')")
	if got := tn.String(t, c, "SELECT MAX(id) FROM t1"); got != "500" {
		t.Errorf("id after AUTO_INCREMENT = 500: %s", got)
	}
	if got := showCreate(t, c, "t1"); !strings.Contains(got, "AUTO_INCREMENT=501 ") || !strings.Contains(got, "COMMENT='folk'") || !strings.Contains(got, "`e` enum('a','b')") {
		t.Errorf("after ALTER TABLE options:\n%s", got)
	}
	tn.Exec(t, c, "DELETE FROM t1 WHERE id = 500")
	tn.Exec(t, c, "ALTER TABLE t1 COMMENT = 'people'")

	// RENAME carries the definition; DROP removes it, and a new table of the
	// old name gets its own.
	tn.Exec(t, c, "RENAME TABLE t1 TO t2")
	if got, want := showCreate(t, c, "t2"), catalogShow("t2", "501"); got != want {
		t.Errorf("after RENAME:\n%s", got)
	}
	tn.Exec(t, c, "DROP TABLE t2")
	tn.Exec(t, c, "CREATE TABLE t2 (a INT)")
	if got := showCreate(t, c, "t2"); got != "CREATE TABLE `t2` (\n  `a` int DEFAULT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci" {
		t.Errorf("a new t2:\n%s", got)
	}
	// IF NOT EXISTS on an existing table changes nothing, definition included.
	tn.Exec(t, c, "CREATE TABLE IF NOT EXISTS t2 (b VARCHAR(3))")
	if got := showCreate(t, c, "t2"); !strings.Contains(got, "`a` int DEFAULT NULL") || strings.Contains(got, "`b`") {
		t.Errorf("after CREATE TABLE IF NOT EXISTS of an existing table:\n%s", got)
	}
	// Internal tables stay internal.
	for _, r := range tn.Rows(t, c, "SHOW TABLES") {
		if strings.HasPrefix(r[0], "binlite_") || strings.HasPrefix(r[0], "sqlite_") {
			t.Errorf("SHOW TABLES lists %s", r[0])
		}
	}
}

// TestOnUpdateCurrentTimestamp: an UPDATE that does not set the column gives it
// the current time; one that sets it keeps the value it set.
func TestOnUpdateCurrentTimestamp(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE cat")
	c := tn.Conn(t, n.DB("cat"))
	tn.Exec(t, c, "CREATE TABLE t (id INT PRIMARY KEY, v INT, ts DATETIME DEFAULT '2000-01-01 00:00:00' ON UPDATE CURRENT_TIMESTAMP, ts3 TIMESTAMP(3) NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP(3))")
	tn.Exec(t, c, "INSERT INTO t (id, v) VALUES (1, 1), (2, 2), (3, 3)")
	if n := tn.Affected(t, c, "UPDATE t SET v = 5 WHERE id = 1"); n != 1 {
		t.Errorf("affected rows %d, want 1", n)
	}
	tn.Exec(t, c, "UPDATE t SET v = 6, ts = '2010-01-01 00:00:00' WHERE id = 2")
	// An UPDATE that changes nothing leaves the time alone, as in MySQL.
	if n := tn.Affected(t, c, "UPDATE t SET v = v WHERE id = 3"); n != 0 {
		t.Errorf("no-op update: %d affected rows, want 0", n)
	}
	got := tn.Rows(t, c, "SELECT id, ts > '2020-01-01', ts = '2010-01-01 00:00:00', ts3 IS NOT NULL, LENGTH(ts3) FROM t ORDER BY id")
	want := [][]string{{"1", "1", "0", "1", "23"}, {"2", "0", "1", "1", "23"}, {"3", "0", "0", "0", "NULL"}}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %v, want %v", i+1, got[i], want[i])
		}
	}
	// The trigger names every column: dropping one rebuilds the table with a
	// trigger for the columns left.
	tn.Exec(t, c, "ALTER TABLE t DROP COLUMN v")
	tn.Exec(t, c, "ALTER TABLE t ADD COLUMN w INT")
	tn.Exec(t, c, "UPDATE t SET w = 1 WHERE id = 3")
	if got := tn.String(t, c, "SELECT ts > '2020-01-01' FROM t WHERE id = 3"); got != "1" {
		t.Errorf("ON UPDATE CURRENT_TIMESTAMP after DROP COLUMN and ADD COLUMN: ts > 2020 is %s", got)
	}
}

// TestCatalogInvalidDefaults: MySQL refuses a default its column cannot hold, and
// nothing is created.
func TestCatalogInvalidDefaults(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE cat")
	c := tn.Conn(t, n.DB("cat"))
	for _, q := range []string{
		"CREATE TABLE bad (a TINYINT DEFAULT 300)",
		"CREATE TABLE bad (a INT UNSIGNED DEFAULT -1)",
		"CREATE TABLE bad (a VARCHAR(3) DEFAULT 'abcd')",
		"CREATE TABLE bad (a ENUM('x','y') DEFAULT 'z')",
		"CREATE TABLE bad (a DATE DEFAULT '2024-02-30')",
		"CREATE TABLE bad (a INT NOT NULL DEFAULT NULL)",
	} {
		tn.ExecError(t, c, 1067, "42000", q)
	}
	tn.ExecError(t, c, 1101, "42000", "CREATE TABLE bad (a TEXT DEFAULT 'x')")
	tn.QueryError(t, c, 1146, "42S02", "SELECT * FROM bad")
}
