package server_test

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// TestViews: CREATE/ALTER/DROP VIEW, reads through views (joins, WHERE on a
// view's columns, views of views, aggregates), their result types, SHOW CREATE
// VIEW in MySQL's form, SHOW FULL TABLES, and the errors MySQL gives.
func TestViews(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE vw")
	db := n.DB("vw")
	for _, q := range []string{
		"CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10), d DECIMAL(6,2))",
		"CREATE TABLE u (a INT PRIMARY KEY, note VARCHAR(20))",
		"INSERT INTO t VALUES (1, 'one', 1.50), (2, 'two', 2.25), (3, 'three', NULL)",
		"INSERT INTO u VALUES (1, 'x'), (3, 'z')",
		"CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1",
		"CREATE VIEW vj (id, name, note) AS SELECT t.a, t.b, u.note FROM t JOIN u ON u.a = t.a",
		"CREATE VIEW vv AS SELECT b FROM v WHERE a < 3",
		"CREATE VIEW agg AS SELECT COUNT(*) AS n, SUM(d) AS total FROM t",
		"CREATE VIEW star AS SELECT * FROM t",
	} {
		tn.Exec(t, db, q)
	}
	for _, c := range []struct{ q, want string }{
		{"SELECT * FROM v ORDER BY a", "2|two\n3|three"},
		{"SELECT b FROM v WHERE a = 3", "three"},
		{"SELECT id, name, note FROM vj ORDER BY id", "1|one|x\n3|three|z"},
		{"SELECT * FROM vv", "two"},
		{"SELECT n, total FROM agg", "3|3.75"},
		{"SELECT v.b, u.note FROM v LEFT JOIN u ON u.a = v.a ORDER BY v.a", "two|NULL\nthree|z"},
		{"SELECT a, d FROM star WHERE d IS NOT NULL ORDER BY a", "1|1.50\n2|2.25"},
		{"SHOW FULL TABLES", "agg|VIEW\nstar|VIEW\nt|BASE TABLE\nu|BASE TABLE\nv|VIEW\nvj|VIEW\nvv|VIEW"},
		{"SHOW CREATE VIEW v", "v|CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS select `t`.`a` AS `a`,`t`.`b` AS `b` from `t` where (`t`.`a` > 1)|utf8mb4|utf8mb4_general_ci"},
	} {
		if got := flat(tn.Rows(t, db, c.q)); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.q, got, c.want)
		}
	}
	// Result types come from the compiler through the view.
	rows, err := db.Query("SELECT total, b FROM agg, v LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	cts, _ := rows.ColumnTypes()
	rows.Close()
	if cts[0].DatabaseTypeName() != "DECIMAL" || cts[1].DatabaseTypeName() != "VARCHAR" {
		t.Errorf("types through views: %s, %s", cts[0].DatabaseTypeName(), cts[1].DatabaseTypeName())
	}
	tn.ExecError(t, db, 1050, "42S01", "CREATE VIEW t AS SELECT 1")
	tn.ExecError(t, db, 1050, "42S01", "CREATE TABLE v (x INT)")
	if got := flat(tn.Rows(t, db, "SELECT * FROM v ORDER BY a")); got != "2|two\n3|three" {
		t.Errorf("the view after a refused CREATE TABLE of its name: %s", got)
	}
	tn.ExecError(t, db, 1347, "HY000", "DROP VIEW t")
	tn.ExecError(t, db, 1051, "42S02", "DROP TABLE v")
	tn.ExecError(t, db, 1146, "42S02", "CREATE VIEW bad AS SELECT * FROM nosuch")
	tn.ExecError(t, db, 1054, "42S22", "CREATE VIEW bad AS SELECT nosuch FROM t")
	tn.ExecError(t, db, 1235, "42000", "INSERT INTO v VALUES (9, 'nine')")
	tn.Exec(t, db, "CREATE OR REPLACE VIEW v AS SELECT a FROM t WHERE a = 1")
	if got := flat(tn.Rows(t, db, "SELECT * FROM v")); got != "1" {
		t.Errorf("replaced view: %s", got)
	}
	tn.Exec(t, db, "ALTER VIEW v AS SELECT b FROM t WHERE a = 2")
	if got := flat(tn.Rows(t, db, "SELECT * FROM v")); got != "two" {
		t.Errorf("altered view: %s", got)
	}
	tn.Exec(t, db, "RENAME TABLE vv TO vv2")
	tn.Exec(t, db, "DROP VIEW IF EXISTS vv2, nosuch")
	tn.ExecError(t, db, 1051, "42S02", "DROP VIEW vv2")
	if got := flat(tn.Rows(t, db, "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'vw' ORDER BY TABLE_NAME")); got != "agg|VIEW\nstar|VIEW\nt|BASE TABLE\nu|BASE TABLE\nv|VIEW\nvj|VIEW" {
		t.Errorf("information_schema.TABLES:\n%s", got)
	}
	if got := flat(tn.Rows(t, db, "SHOW COLUMNS FROM vj")); got != "id|int|NO||NULL|\nname|varchar(10)|YES||NULL|\nnote|varchar(20)|YES||NULL|" {
		t.Errorf("SHOW COLUMNS FROM vj:\n%s", got)
	}
}

// TestDumpViewTrigger: mariadb-dump writes a schema with a view and a trigger
// (the view as a placeholder table first, then CREATE VIEW; the trigger after
// its table's rows) and `mariadb < dump` restores both: the view reads the
// same, the trigger fires on the restored node.
func TestDumpViewTrigger(t *testing.T) {
	src := tn.Start(t)
	tn.Exec(t, src.DB(""), "CREATE DATABASE dv")
	db := src.DB("dv")
	for _, q := range []string{
		"CREATE TABLE t (id INT PRIMARY KEY, n INT)",
		"CREATE TABLE log (id INT PRIMARY KEY, n INT)",
		"INSERT INTO t VALUES (1, 10), (2, 20)",
		"CREATE VIEW big AS SELECT id, n FROM t WHERE n > 15",
		"CREATE TRIGGER t_ins AFTER INSERT ON t FOR EACH ROW INSERT INTO log VALUES (NEW.id, NEW.n)",
	} {
		tn.Exec(t, db, q)
	}
	dump := mariadbDump(t, src, "--skip-add-locks", "--databases", "dv")
	dst := tn.Start(t)
	if r := mariadb(t, dst, dump); r.exit != 0 {
		t.Fatalf("restore: exit %d: %s\n%s", r.exit, r.stderr, dump)
	}
	ddb := dst.DB("dv")
	tn.Exec(t, ddb, "INSERT INTO t VALUES (3, 30)")
	for _, c := range []struct{ q, want string }{
		{"SELECT * FROM big ORDER BY id", "2|20\n3|30"},
		{"SELECT * FROM log", "3|30"},
		{"SHOW CREATE VIEW big", flat(tn.Rows(t, db, "SHOW CREATE VIEW big"))},
		{"SELECT TRIGGER_NAME, EVENT_MANIPULATION, ACTION_TIMING, ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'dv'", "t_ins|INSERT|AFTER|INSERT INTO log VALUES (NEW.id, NEW.n)"},
	} {
		if got := flat(tn.Rows(t, ddb, c.q)); got != c.want {
			t.Errorf("restored: %s:\n%s\nwant\n%s", c.q, got, c.want)
		}
	}
}
