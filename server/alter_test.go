package server_test

// ALTER TABLE that changes a table's shape, end to end on a real server: the
// rows survive each rebuild converted as MySQL converts them, SHOW CREATE TABLE
// prints MySQL 8.4's text after every step, keys, the AUTO_INCREMENT counter, ON
// UPDATE and foreign keys keep working, and an ALTER that fails under strict
// sql_mode leaves the table, its rows and its definition as they were.

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func joinRows(rows [][]string) string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, "|"))
	}
	return strings.Join(out, "; ")
}

func TestAlterTableRebuild(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE alt")
	c := tn.Conn(t, n.DB("alt"))
	tn.Exec(t, c, "CREATE TABLE items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL, qty INT, price DECIMAL(8,2) DEFAULT 1.50, KEY (name))")
	tn.Exec(t, c, "INSERT INTO items (name, qty, price) VALUES ('apple', 3, 0.5), ('pear', NULL, 2)")
	tn.Exec(t, c, "INSERT INTO items (name, qty) VALUES ('plum', 7)")
	tn.Exec(t, c, "INSERT INTO items (name, qty, price) VALUES ('gone', 1, 1)")
	tn.Exec(t, c, "DELETE FROM items WHERE name = 'gone'") // the counter stays at 5

	// Columns placed where the statement says: instant in MySQL, 0 rows affected.
	if got := tn.Affected(t, c, "ALTER TABLE items ADD COLUMN note VARCHAR(10) DEFAULT 'n' AFTER name, ADD COLUMN pos INT FIRST"); got != 0 {
		t.Errorf("ADD COLUMN ... AFTER/FIRST: %d rows affected, want 0", got)
	}
	if got := joinRows(tn.Rows(t, c, "SELECT * FROM items ORDER BY id")); got != "NULL|1|apple|n|3|0.50; NULL|2|pear|n|NULL|2.00; NULL|3|plum|n|7|1.50" {
		t.Errorf("rows after ADD COLUMN: %s", got)
	}

	// NULL into NOT NULL under strict mode: MySQL copies for the type change, so 1265.
	tn.ExecError(t, c, 1265, "01000", "ALTER TABLE items MODIFY qty BIGINT NOT NULL DEFAULT 0")
	tn.Exec(t, c, "UPDATE items SET qty = 0 WHERE qty IS NULL")
	if got := tn.Affected(t, c, "ALTER TABLE items MODIFY qty BIGINT NOT NULL DEFAULT 0"); got != 3 {
		t.Errorf("MODIFY to another type: %d rows affected, want the 3 copied", got)
	}

	// A rename and a wider VARCHAR: the key follows the column.
	if got := tn.Affected(t, c, "ALTER TABLE items CHANGE name title VARCHAR(30) NOT NULL"); got != 0 {
		t.Errorf("CHANGE name title VARCHAR(30): %d rows affected, want 0", got)
	}
	if got := tn.String(t, c, "SELECT id FROM items WHERE title = 'PEAR'"); got != "2" {
		t.Errorf("lookup by the renamed column: %s", got)
	}

	// A CHECK checks the rows already there.
	tn.ExecError(t, c, 3819, "HY000", "ALTER TABLE items ADD CONSTRAINT few CHECK (qty < 5)")
	if got := tn.Affected(t, c, "ALTER TABLE items ADD CONSTRAINT few CHECK (qty < 10)"); got != 3 {
		t.Errorf("ADD CHECK: %d rows affected, want 3", got)
	}
	tn.ExecError(t, c, 3819, "HY000", "INSERT INTO items (title, qty) VALUES ('many', 50)")
	tn.Exec(t, c, "ALTER TABLE items DROP CHECK few, DROP COLUMN pos")
	tn.Exec(t, c, "INSERT INTO items (title, qty) VALUES ('many', 50)")
	// A NOT NULL column without a default, added in place: the rows there get
	// 0; an INSERT that leaves it out is refused under strict mode.
	tn.Exec(t, c, "ALTER TABLE items ADD COLUMN n INT NOT NULL")
	tn.ExecError(t, c, 1364, "HY000", "INSERT INTO items (title) VALUES ('x')")
	if got := tn.String(t, c, "SELECT SUM(n) FROM items"); got != "0" {
		t.Errorf("SUM(n) of the rows there: %s", got)
	}
	tn.Exec(t, c, "ALTER TABLE items DROP COLUMN n")
	if got := tn.String(t, c, "SELECT id FROM items WHERE title = 'many'"); got != "5" {
		t.Errorf("the AUTO_INCREMENT counter after the rebuilds gave %s, want 5", got)
	}

	const want = "CREATE TABLE `items` (\n" +
		"  `id` int NOT NULL AUTO_INCREMENT,\n" +
		"  `title` varchar(30) NOT NULL,\n" +
		"  `note` varchar(10) DEFAULT 'n',\n" +
		"  `qty` bigint NOT NULL DEFAULT '0',\n" +
		"  `price` decimal(8,2) DEFAULT '1.50',\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  KEY `name` (`title`)\n" +
		") ENGINE=InnoDB AUTO_INCREMENT=6 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"
	if got := showCreate(t, c, "items"); got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	if got := joinRows(tn.Rows(t, c, "SELECT * FROM items ORDER BY id")); got != "1|apple|n|3|0.50; 2|pear|n|0|2.00; 3|plum|n|7|1.50; 5|many|n|50|1.50" {
		t.Errorf("rows: %s", got)
	}

	// Columns SQLite's ADD COLUMN cannot add: a key, a default expression that
	// reads another column (each row gets its own), a STORED expression.
	tn.Exec(t, c, "ALTER TABLE items ADD COLUMN code INT UNIQUE, ADD COLUMN twice BIGINT DEFAULT (qty * 2), ADD COLUMN thrice BIGINT AS (qty * 3) STORED")
	if got := joinRows(tn.Rows(t, c, "SELECT id, code, twice, thrice FROM items ORDER BY id")); got != "1|NULL|6|9; 2|NULL|0|0; 3|NULL|14|21; 5|NULL|100|150" {
		t.Errorf("rows after ADD COLUMN with a key and expressions: %s", got)
	}
	tn.Exec(t, c, "UPDATE items SET code = id")
	tn.ExecError(t, c, 1062, "23000", "UPDATE items SET code = 1")
	tn.Exec(t, c, "ALTER TABLE items DROP COLUMN code, DROP COLUMN twice, DROP COLUMN thrice")

	// ADD/DROP PRIMARY KEY.
	tn.Exec(t, c, "CREATE TABLE pk (a INT, b VARCHAR(5))")
	tn.Exec(t, c, "INSERT INTO pk VALUES (1, 'x'), (2, 'y')")
	tn.Exec(t, c, "ALTER TABLE pk ADD PRIMARY KEY (a)")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO pk VALUES (1, 'z')")
	tn.ExecError(t, c, 1048, "23000", "UPDATE pk SET a = NULL")
	if got := tn.Affected(t, c, "ALTER TABLE pk DROP PRIMARY KEY"); got != 2 {
		t.Errorf("DROP PRIMARY KEY: %d rows affected, want 2", got)
	}
	tn.Exec(t, c, "INSERT INTO pk VALUES (1, 'z')")
	if got := showCreate(t, c, "pk"); got != "CREATE TABLE `pk` (\n  `a` int NOT NULL,\n  `b` varchar(5) DEFAULT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci" {
		t.Errorf("SHOW CREATE TABLE pk:\n%s", got)
	}

	// ON UPDATE CURRENT_TIMESTAMP survives a rebuild.
	tn.Exec(t, c, "CREATE TABLE stamped (id INT PRIMARY KEY, v INT, at DATETIME DEFAULT '2000-01-01 00:00:00' ON UPDATE CURRENT_TIMESTAMP)")
	tn.Exec(t, c, "INSERT INTO stamped (id, v) VALUES (1, 1)")
	tn.Exec(t, c, "ALTER TABLE stamped MODIFY v BIGINT, ADD COLUMN w INT FIRST")
	tn.Exec(t, c, "UPDATE stamped SET v = 2")
	if got := tn.String(t, c, "SELECT at FROM stamped"); got == "2000-01-01 00:00:00" {
		t.Errorf("ON UPDATE CURRENT_TIMESTAMP after the rebuild: at is still %s", got)
	}

	// Foreign keys: the parent rebuilt keeps refusing what it refused.
	tn.Exec(t, c, "CREATE TABLE parent (id INT PRIMARY KEY, label VARCHAR(5))")
	tn.Exec(t, c, "CREATE TABLE child (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES parent (id))")
	tn.Exec(t, c, "INSERT INTO parent VALUES (1, 'a')")
	tn.Exec(t, c, "INSERT INTO child VALUES (1, 1)")
	tn.Exec(t, c, "ALTER TABLE parent MODIFY label VARCHAR(50) NOT NULL, ADD COLUMN extra INT FIRST")
	tn.ExecError(t, c, 1451, "23000", "DELETE FROM parent WHERE id = 1")
	tn.ExecError(t, c, 1452, "23000", "INSERT INTO child VALUES (2, 9)")
	tn.Exec(t, c, "ALTER TABLE child ADD COLUMN note TEXT AFTER id")
	tn.ExecError(t, c, 1452, "23000", "INSERT INTO child (id, pid) VALUES (2, 9)")

	// The definitions are in the schema file.
	n.Restart()
	c = tn.Conn(t, n.DB("alt"))
	if got := showCreate(t, c, "items"); got != want {
		t.Errorf("SHOW CREATE TABLE after a restart:\n%s", got)
	}
}

// A strict-mode ALTER whose copy meets a value the new column cannot hold
// fails with MySQL's error and changes nothing: not the rows, not the
// definition, not the SQLite table. Without strict mode the same ALTER keeps
// what fits, with MySQL's warnings.
func TestAlterTableStrictFailureChangesNothing(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE alt")
	c := tn.Conn(t, n.DB("alt"))
	tn.Exec(t, c, "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10), n INT)")
	tn.Exec(t, c, "INSERT INTO t VALUES (1, 'abc', 1), (2, 'abcdefgh', 300), (3, NULL, 3)")
	before, rows := showCreate(t, c, "t"), joinRows(tn.Rows(t, c, "SELECT * FROM t ORDER BY id"))

	me := tn.ExecError(t, c, 1265, "01000", "ALTER TABLE t MODIFY s VARCHAR(3)")
	if !strings.Contains(me.Message, "'s' at row 2") {
		t.Errorf("1265 message: %s", me.Message)
	}
	tn.ExecError(t, c, 1264, "22003", "ALTER TABLE t MODIFY n TINYINT")
	tn.ExecError(t, c, 1138, "22004", "ALTER TABLE t MODIFY s VARCHAR(10) NOT NULL")
	tn.ExecError(t, c, 1366, "HY000", "ALTER TABLE t MODIFY s INT")

	if got := showCreate(t, c, "t"); got != before {
		t.Errorf("SHOW CREATE TABLE after the failed ALTERs:\n%s\nwant:\n%s", got, before)
	}
	if got := joinRows(tn.Rows(t, c, "SELECT * FROM t ORDER BY id")); got != rows {
		t.Errorf("rows after the failed ALTERs: %s, want %s", got, rows)
	}
	tn.Exec(t, c, "INSERT INTO t VALUES (4, 'abcdefghij', 4)") // still VARCHAR(10)

	// Without strict mode MySQL keeps what fits and warns.
	tn.Exec(t, c, "SET SESSION sql_mode = ''")
	if got := tn.Affected(t, c, "ALTER TABLE t MODIFY s VARCHAR(3)"); got != 4 {
		t.Errorf("non-strict ALTER: %d rows affected, want 4", got)
	}
	if got := joinRows(tn.Rows(t, c, "SHOW WARNINGS")); got != "Warning|1265|Data truncated for column 's' at row 2; Warning|1265|Data truncated for column 's' at row 4" {
		t.Errorf("warnings: %s", got)
	}
	if got := joinRows(tn.Rows(t, c, "SELECT s FROM t ORDER BY id")); got != "abc; abc; NULL; abc" {
		t.Errorf("rows after the non-strict ALTER: %s", got)
	}
}

func TestCreateTableLikeAndSelect(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE cts")
	c := tn.Conn(t, n.DB("cts"))
	tn.Exec(t, c, "CREATE TABLE p (id INT PRIMARY KEY)")
	tn.Exec(t, c, "CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL COMMENT 'who', amount DECIMAL(10,2) DEFAULT 0, pid INT, "+
		"UNIQUE KEY (name), CONSTRAINT positive CHECK (amount >= 0), FOREIGN KEY (pid) REFERENCES p (id)) COMMENT 'source'")
	tn.Exec(t, c, "INSERT INTO src (name, amount) VALUES ('a', 1.5), ('b', 2)")

	tn.Exec(t, c, "CREATE TABLE copy LIKE src")
	const want = "CREATE TABLE `copy` (\n" +
		"  `id` int NOT NULL AUTO_INCREMENT,\n" +
		"  `name` varchar(20) NOT NULL COMMENT 'who',\n" +
		"  `amount` decimal(10,2) DEFAULT '0.00',\n" +
		"  `pid` int DEFAULT NULL,\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  UNIQUE KEY `name` (`name`),\n" +
		"  KEY `pid` (`pid`),\n" +
		"  CONSTRAINT `copy_chk_1` CHECK ((`amount` >= 0))\n" +
		") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='source'"
	if got := showCreate(t, c, "copy"); got != want {
		t.Errorf("SHOW CREATE TABLE of the LIKE copy:\n%s\nwant:\n%s", got, want)
	}
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM copy"); got != 0 {
		t.Errorf("the LIKE copy has %d rows", got)
	}
	tn.Exec(t, c, "INSERT INTO copy (name, pid) VALUES ('x', 42)") // no foreign key
	tn.ExecError(t, c, 3819, "HY000", "INSERT INTO copy (name, amount) VALUES ('y', -1)")
	tn.ExecError(t, c, 1146, "42S02", "CREATE TABLE nope LIKE nosuch")

	if got := tn.Affected(t, c, "CREATE TABLE summary AS SELECT id, name, amount * 2 AS doubled, CONCAT(name, '!') AS shout FROM src"); got != 2 {
		t.Errorf("CREATE TABLE ... SELECT: %d rows affected, want 2", got)
	}
	if got := joinRows(tn.Rows(t, c, "SELECT * FROM summary ORDER BY id")); got != "1|a|3.00|a!; 2|b|4.00|b!" {
		t.Errorf("rows of the CREATE TABLE ... SELECT: %s", got)
	}
	sc := showCreate(t, c, "summary")
	for _, part := range []string{"`id` int NOT NULL DEFAULT '0'", "`name` varchar(20) NOT NULL COMMENT 'who'", "`shout` varchar(21) NOT NULL DEFAULT ''"} {
		if !strings.Contains(sc, part) {
			t.Errorf("SHOW CREATE TABLE summary has no %s:\n%s", part, sc)
		}
	}
	tn.ExecError(t, c, 1050, "42S01", "CREATE TABLE summary AS SELECT 1")

	// A definition of its own comes first; the query's columns fill it.
	tn.Exec(t, c, "CREATE TABLE keyed (id INT PRIMARY KEY, extra INT DEFAULT 7) SELECT id, name FROM src")
	if got := joinRows(tn.Rows(t, c, "SELECT * FROM keyed ORDER BY id")); got != "1|7|a; 2|7|b" {
		t.Errorf("rows of keyed: %s", got)
	}

	tn.ExecError(t, c, 1235, "42000", "CREATE TEMPORARY TABLE tmp LIKE src")
}

// Temporary tables are the session's: invisible to other sessions, in front of
// the schema's table of the same name, never in the binary log, gone with the
// session.
func TestTemporaryTables(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE tmps")
	db := n.DB("tmps")
	c, other := tn.Conn(t, db), tn.Conn(t, db)
	tn.Exec(t, c, "CREATE TABLE shadow (id INT PRIMARY KEY, v VARCHAR(5))")
	tn.Exec(t, c, "INSERT INTO shadow VALUES (1, 'base')")
	gtids := tn.String(t, c, "SELECT @@gtid_executed")

	tn.Exec(t, c, "CREATE TEMPORARY TABLE tmp (a INT PRIMARY KEY, b VARCHAR(5))")
	if got := tn.Affected(t, c, "INSERT INTO tmp VALUES (1, 'one'), (2, 'two')"); got != 2 {
		t.Errorf("INSERT into the temporary table: %d rows affected", got)
	}
	tn.ExecError(t, c, 1406, "22001", "INSERT INTO tmp VALUES (3, 'toolong')")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO tmp VALUES (1, 'dup')")
	tn.Exec(t, c, "UPDATE tmp SET b = 'TWO' WHERE a = 2")
	if got := joinRows(tn.Rows(t, c, "SELECT a, b FROM tmp ORDER BY a")); got != "1|one; 2|TWO" {
		t.Errorf("temporary rows: %s", got)
	}
	if got := joinRows(tn.Rows(t, c, "SELECT t.b, s.v FROM tmp t JOIN shadow s ON s.id = t.a")); got != "one|base" {
		t.Errorf("temporary joined with the schema's table: %s", got)
	}
	tn.QueryError(t, other, 1146, "42S02", "SELECT a FROM tmp")
	tn.Exec(t, other, "CREATE TEMPORARY TABLE tmp (x INT)") // its own

	// In front of the schema's table of the same name, until dropped.
	tn.Exec(t, c, "CREATE TEMPORARY TABLE shadow (id INT PRIMARY KEY, v VARCHAR(5))")
	tn.Exec(t, c, "INSERT INTO shadow VALUES (7, 'temp')")
	if got := joinRows(tn.Rows(t, c, "SELECT id, v FROM shadow")); got != "7|temp" {
		t.Errorf("the temporary shadow: %s", got)
	}
	tn.Exec(t, c, "DROP TABLE shadow") // the temporary one
	if got := joinRows(tn.Rows(t, c, "SELECT id, v FROM shadow")); got != "1|base" {
		t.Errorf("the schema's shadow after dropping the temporary one: %s", got)
	}
	tn.ExecError(t, c, 1051, "42S02", "DROP TEMPORARY TABLE shadow")
	tn.ExecError(t, c, 1235, "42000", "INSERT INTO shadow SELECT a, b FROM tmp")

	if got := tn.String(t, c, "SELECT @@gtid_executed"); got != gtids {
		t.Errorf("temporary tables reached the binary log: gtid_executed %s, was %s", got, gtids)
	}
	if got := showCreate(t, c, "tmp"); got != "CREATE TEMPORARY TABLE `tmp` (\n  `a` int NOT NULL,\n  `b` varchar(5) DEFAULT NULL,\n  PRIMARY KEY (`a`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci" {
		t.Errorf("SHOW CREATE TABLE of the temporary table:\n%s", got)
	}
	tn.Exec(t, c, "DROP TEMPORARY TABLE tmp")
	tn.QueryError(t, c, 1146, "42S02", "SELECT a FROM tmp")
	if got := tn.Int(t, other, "SELECT COUNT(*) FROM tmp"); got != 0 {
		t.Errorf("the other session's temporary table: %d rows", got)
	}
}

// Foreign keys keep what they need: InnoDB refuses to drop a referenced column
// or the only index a foreign key is checked through, and follows a renamed one.
func TestAlterTableForeignKeys(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE fks")
	c := tn.Conn(t, n.DB("fks"))
	tn.Exec(t, c, "CREATE TABLE parent (id INT PRIMARY KEY, code INT, UNIQUE KEY (code))")
	tn.Exec(t, c, "CREATE TABLE child (id INT PRIMARY KEY, pcode INT, FOREIGN KEY (pcode) REFERENCES parent (code))")
	tn.ExecError(t, c, 1829, "HY000", "ALTER TABLE parent DROP COLUMN code")
	tn.ExecError(t, c, 1553, "HY000", "ALTER TABLE parent DROP INDEX code")
	tn.ExecError(t, c, 1828, "HY000", "ALTER TABLE child DROP COLUMN pcode")
	tn.Exec(t, c, "ALTER TABLE child RENAME INDEX pcode TO by_code")
	tn.Exec(t, c, "ALTER TABLE parent RENAME COLUMN code TO ref")
	tn.Exec(t, c, "INSERT INTO parent VALUES (1, 10)")
	tn.Exec(t, c, "INSERT INTO child VALUES (1, 10)")
	tn.ExecError(t, c, 1452, "23000", "INSERT INTO child VALUES (2, 11)")
	if got := showCreate(t, c, "child"); !strings.Contains(got, "KEY `by_code` (`pcode`)") || !strings.Contains(got, "REFERENCES `parent` (`ref`)") {
		t.Errorf("SHOW CREATE TABLE child after the renames:\n%s", got)
	}
	tn.Exec(t, c, "ALTER TABLE child DROP FOREIGN KEY child_ibfk_1")
	tn.Exec(t, c, "INSERT INTO child VALUES (2, 11)")
	if got := showCreate(t, c, "child"); strings.Contains(got, "FOREIGN KEY") || !strings.Contains(got, "KEY `by_code` (`pcode`)") {
		t.Errorf("SHOW CREATE TABLE child after DROP FOREIGN KEY:\n%s", got)
	}
}
