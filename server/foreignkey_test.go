package server_test

// Foreign keys as InnoDB enforces them: row by row, naming the constraint, a
// parent's failure (1451) told from a child's (1452), foreign_key_checks per
// session, and the DDL InnoDB refuses on referenced tables or bad definitions.

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func fkSchema(t *testing.T, s tn.Querier) {
	t.Helper()
	for _, q := range []string{
		"CREATE TABLE parents (id INT PRIMARY KEY, name VARCHAR(20))",
		"CREATE TABLE children (id INT PRIMARY KEY, parent_id INT, FOREIGN KEY (parent_id) REFERENCES parents (id) ON DELETE CASCADE ON UPDATE CASCADE)",
		"CREATE TABLE toys (id INT PRIMARY KEY, child_id INT, CONSTRAINT fk_toy FOREIGN KEY (child_id) REFERENCES children (id) ON DELETE SET NULL)",
		"CREATE TABLE pets (id INT PRIMARY KEY, parent_id INT NOT NULL, CONSTRAINT fk_pet FOREIGN KEY (parent_id) REFERENCES parents (id))",
		"INSERT INTO parents VALUES (1, 'p1'), (2, 'p2'), (3, 'p3')",
		"INSERT INTO children VALUES (10, 1), (11, 1), (20, 2)",
		"INSERT INTO toys VALUES (100, 10), (101, 11), (102, NULL)",
		"INSERT INTO pets VALUES (1000, 3)",
	} {
		tn.Exec(t, s, q)
	}
}

// TestForeignKeyErrors: a child row without parent is 1452, a referenced parent
// row deleted or re-keyed is 1451, each naming the constraint; actions cascade.
func TestForeignKeyErrors(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE fk")
		s := p.session(t, n, "fk")
		fkSchema(t, s)
		me := tn.ExecError(t, s, 1452, "23000", "INSERT INTO children VALUES (30, 99)")
		if want := "(`fk`.`children`, CONSTRAINT `children_ibfk_1` FOREIGN KEY (`parent_id`) REFERENCES `parents` (`id`) ON DELETE CASCADE ON UPDATE CASCADE)"; !strings.HasSuffix(me.Message, want) || !strings.HasPrefix(me.Message, "Cannot add or update a child row") {
			t.Errorf("1452 message %q, want it to end with %q", me.Message, want)
		}
		tn.ExecError(t, s, 1452, "23000", "INSERT INTO children VALUES (32, 2), (33, 98)")
		tn.ExecError(t, s, 1452, "23000", "UPDATE children SET parent_id = 42 WHERE id = 20")
		me = tn.ExecError(t, s, 1451, "23000", "DELETE FROM parents WHERE id = 3")
		if !strings.Contains(me.Message, "(`fk`.`pets`, CONSTRAINT `fk_pet` FOREIGN KEY (`parent_id`) REFERENCES `parents` (`id`))") || !strings.HasPrefix(me.Message, "Cannot delete or update a parent row") {
			t.Errorf("1451 message %q", me.Message)
		}
		tn.ExecError(t, s, 1451, "23000", "UPDATE parents SET id = 33 WHERE id = 3")
		tn.ExecError(t, s, 1451, "23000", "DELETE FROM parents")
		tn.ExecError(t, s, 1451, "23000", "REPLACE INTO parents VALUES (3, 'again')")
		if got := tn.String(t, s, "SELECT COUNT(*) FROM children"); got != "3" {
			t.Errorf("children after failed statements: %s, want 3", got)
		}
		// ON UPDATE CASCADE, then ON DELETE CASCADE, which sets the toys' child_id NULL.
		tn.Exec(t, s, "UPDATE parents SET id = 5 WHERE id = 1")
		if got := tn.String(t, s, "SELECT COUNT(*) FROM children WHERE parent_id = 5"); got != "2" {
			t.Errorf("children moved to parent 5: %s, want 2", got)
		}
		if got := tn.Affected(t, s, "DELETE FROM parents WHERE id = 5"); got != 1 {
			t.Errorf("DELETE of a parent with cascades: %d affected rows, want 1", got)
		}
		if got := tn.String(t, s, "SELECT COUNT(*) FROM toys WHERE child_id IS NULL"); got != "3" {
			t.Errorf("toys without child: %s, want 3", got)
		}
		tn.Exec(t, s, "UPDATE children SET parent_id = NULL WHERE id = 20")
		tn.Exec(t, s, "INSERT INTO children VALUES (31, NULL)")
	})
}

// TestForeignKeysRowByRow: InnoDB checks each row as it writes it, so a multi-row
// INSERT into a self-referencing table may not name a parent a later row adds,
// and a row may reference itself.
func TestForeignKeysRowByRow(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE fk")
	s := tn.Conn(t, n.DB("fk"))
	tn.Exec(t, s, "CREATE TABLE tree (id INT PRIMARY KEY, parent INT, FOREIGN KEY (parent) REFERENCES tree (id) ON DELETE CASCADE)")
	tn.Exec(t, s, "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 1)")
	tn.ExecError(t, s, 1452, "23000", "INSERT INTO tree VALUES (5, 6), (6, NULL)")
	tn.Exec(t, s, "INSERT INTO tree VALUES (6, NULL), (5, 6), (7, 7)")
	tn.Exec(t, s, "DELETE FROM tree WHERE id = 2") // and 3, through the cascade
	if got := tn.Rows(t, s, "SELECT id FROM tree ORDER BY id"); len(got) != 5 || got[1][0] != "4" {
		t.Errorf("tree after the cascade: %v, want 1 4 5 6 7", got)
	}
	// A self-referencing ON UPDATE CASCADE acts as RESTRICT in InnoDB.
	tn.Exec(t, s, "CREATE TABLE org (id INT PRIMARY KEY, boss INT, FOREIGN KEY (boss) REFERENCES org (id) ON UPDATE CASCADE)")
	tn.Exec(t, s, "INSERT INTO org VALUES (1, NULL), (2, 1)")
	tn.ExecError(t, s, 1451, "23000", "UPDATE org SET id = 10 WHERE id = 1")
	tn.ExecError(t, s, 1451, "23000", "DELETE FROM org WHERE id = 1")
}

// TestForeignKeyChecksOff: SET foreign_key_checks = 0 lets one session write
// orphans and delete referenced parents (without actions), inside a transaction
// too, while other sessions keep their checks.
func TestForeignKeyChecksOff(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE fk")
		s := p.session(t, n, "fk")
		other := p.session(t, n, "fk")
		fkSchema(t, s)
		tn.Exec(t, s, "SET foreign_key_checks = 0")
		tn.Exec(t, s, "INSERT INTO children VALUES (40, 77)")
		tn.ExecError(t, other, 1452, "23000", "INSERT INTO children VALUES (41, 77)")
		tn.Exec(t, s, "DELETE FROM parents WHERE id = 1") // no cascade while checks are off
		if got := tn.String(t, s, "SELECT COUNT(*) FROM children WHERE parent_id = 1"); got != "2" {
			t.Errorf("children of the deleted parent: %s, want 2 (no cascade)", got)
		}
		tn.Exec(t, s, "SET foreign_key_checks = 1")
		tn.ExecError(t, s, 1452, "23000", "INSERT INTO children VALUES (42, 77)")
		tn.Exec(t, s, "BEGIN")
		tn.Exec(t, s, "SET SESSION foreign_key_checks = 0")
		tn.Exec(t, s, "INSERT INTO children VALUES (43, 78)")
		tn.Exec(t, s, "SET SESSION foreign_key_checks = 1")
		tn.ExecError(t, s, 1452, "23000", "INSERT INTO children VALUES (44, 78)")
		tn.Exec(t, s, "COMMIT")
		if got := tn.String(t, s, "SELECT GROUP_CONCAT(id) FROM children WHERE id >= 40"); got != "40,43" {
			t.Errorf("orphans kept: %s, want 40,43", got)
		}
	})
}

// TestForeignKeyDDL: DROP TABLE (3730) and TRUNCATE (1701) of a referenced table,
// and CREATE TABLE with a FOREIGN KEY InnoDB cannot create.
func TestForeignKeyDDL(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE fk")
	s := tn.Conn(t, n.DB("fk"))
	fkSchema(t, s)
	tn.ExecError(t, s, 3730, "HY000", "DROP TABLE parents")
	tn.ExecError(t, s, 1701, "42000", "TRUNCATE TABLE parents")
	tn.ExecError(t, s, 1824, "HY000", "CREATE TABLE badfk (a INT, FOREIGN KEY (a) REFERENCES nosuch (id))")
	tn.ExecError(t, s, 3780, "HY000", "CREATE TABLE badfk (a VARCHAR(5), FOREIGN KEY (a) REFERENCES parents (id))")
	tn.ExecError(t, s, 3780, "HY000", "CREATE TABLE badfk (a INT UNSIGNED, FOREIGN KEY (a) REFERENCES parents (id))")
	tn.ExecError(t, s, 1822, "HY000", "CREATE TABLE badfk (a VARCHAR(20), FOREIGN KEY (a) REFERENCES parents (name))")
	tn.ExecError(t, s, 3734, "HY000", "CREATE TABLE badfk (a INT, FOREIGN KEY (a) REFERENCES parents (nosuch))")
	tn.ExecError(t, s, 1830, "HY000", "CREATE TABLE badfk (a INT NOT NULL, FOREIGN KEY (a) REFERENCES parents (id) ON DELETE SET NULL)")
	tn.ExecError(t, s, 1235, "42000", "CREATE TABLE badfk (a INT, FOREIGN KEY (a) REFERENCES other.parents (id))")
	tn.Exec(t, s, "CREATE TABLE named (id INT PRIMARY KEY, n VARCHAR(20), KEY (n))")
	tn.ExecError(t, s, 6125, "HY000", "CREATE TABLE badfk (a VARCHAR(20), FOREIGN KEY (a) REFERENCES named (n))")
	// MySQL 8.4 ignores a column's own REFERENCES clause.
	tn.Exec(t, s, "CREATE TABLE inline (a INT REFERENCES parents (id))")
	tn.Exec(t, s, "INSERT INTO inline VALUES (99)")
	// The key MySQL adds for a foreign key exists, and neither it nor the parent's
	// unique key may go while the constraint needs it.
	if got := tn.Rows(t, s, "SHOW CREATE TABLE children")[0][1]; !strings.Contains(got, "KEY `parent_id` (`parent_id`)") {
		t.Errorf("SHOW CREATE TABLE children has no key on parent_id:\n%s", got)
	}
	tn.ExecError(t, s, 1553, "HY000", "DROP INDEX parent_id ON children")
	tn.Exec(t, s, "CREATE TABLE uparent (id INT PRIMARY KEY, code INT, UNIQUE KEY uc (code))")
	tn.Exec(t, s, "CREATE TABLE uchild (c INT, CONSTRAINT fk_u FOREIGN KEY (c) REFERENCES uparent (code))")
	tn.ExecError(t, s, 1553, "HY000", "DROP INDEX uc ON uparent")
	tn.ExecError(t, s, 1553, "HY000", "ALTER TABLE uchild DROP INDEX fk_u")
	// A child and its parent may go together; TRUNCATE of a self-referencing table is fine.
	tn.Exec(t, s, "DROP TABLE toys, children")
	tn.Exec(t, s, "CREATE TABLE tree (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES tree (id))")
	tn.Exec(t, s, "INSERT INTO tree VALUES (1, NULL), (2, 1)")
	tn.Exec(t, s, "TRUNCATE TABLE tree")
	// With the checks off: a parent that does not exist yet, and dropping one in use.
	tn.Exec(t, s, "SET foreign_key_checks = 0")
	tn.Exec(t, s, "CREATE TABLE later (a INT, FOREIGN KEY (a) REFERENCES nosuch (id))")
	tn.Exec(t, s, "TRUNCATE TABLE parents")
	tn.Exec(t, s, "DROP TABLE parents")
	tn.Exec(t, s, "SET foreign_key_checks = 1")
	tn.ExecError(t, s, 1452, "23000", "INSERT INTO pets VALUES (1001, 3)")
	tn.ExecError(t, s, 1452, "23000", "INSERT INTO later VALUES (1)")
	tn.Exec(t, s, "INSERT INTO later VALUES (NULL)")
	// The parent arrives: the constraint works again.
	tn.Exec(t, s, "CREATE TABLE nosuch (id INT PRIMARY KEY)")
	tn.Exec(t, s, "INSERT INTO nosuch VALUES (1)")
	tn.Exec(t, s, "INSERT INTO later VALUES (1)")
	tn.ExecError(t, s, 1451, "23000", "DELETE FROM nosuch")
	// Renamed tables keep their constraints.
	tn.Exec(t, s, "RENAME TABLE nosuch TO origin")
	tn.ExecError(t, s, 1451, "23000", "DELETE FROM origin")
	tn.ExecError(t, s, 1452, "23000", "INSERT INTO later VALUES (2)")
}
