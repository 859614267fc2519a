package server_test

// AUTO_INCREMENT values and insert ids as InnoDB and MySQL give them: what a
// statement reserves is used up even when rows fail or are skipped, a skipped row
// gives its value to the next row, LAST_INSERT_ID() is the first generated value a
// row was written with (or LAST_INSERT_ID(expr)), and the OK packet's insert id of
// ON DUPLICATE KEY UPDATE is the updated row's.

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func insertID(t *testing.T, s tn.Querier, q string, args ...any) int64 {
	t.Helper()
	id, err := tn.Exec(t, s, q, args...).LastInsertId()
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func TestAutoIncrementAsInnoDB(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE ai")
		s := p.session(t, n, "ai")
		tn.Exec(t, s, "CREATE TABLE acc (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(20) NOT NULL UNIQUE, visits INT NOT NULL DEFAULT 0)")
		check := func(q string, wantID int64) {
			t.Helper()
			if got := insertID(t, s, q); got != wantID {
				t.Errorf("%s: insert id %d, want %d", q, got, wantID)
			}
		}
		lastID := func(want string) {
			t.Helper()
			if got := tn.String(t, s, "SELECT LAST_INSERT_ID()"); got != want {
				t.Errorf("LAST_INSERT_ID() = %s, want %s", got, want)
			}
		}
		check("INSERT INTO acc (email) VALUES ('a')", 1)
		check("INSERT INTO acc (email) VALUES ('b'), ('c')", 2) // the first of the statement
		lastID("2")
		tn.ExecError(t, s, 1062, "23000", "INSERT INTO acc (email) VALUES ('a')") // uses up 4
		check("INSERT INTO acc SET email = 'd'", 5)
		// An explicit id is the OK packet's insert id but not LAST_INSERT_ID().
		check("INSERT INTO acc (id, email) VALUES (50, 'e')", 50)
		lastID("5")
		// INSERT IGNORE: the skipped first row gives its value to the next; the
		// statement reserved two.
		check("INSERT IGNORE INTO acc (email) VALUES ('a'), ('f')", 51)
		if got := tn.Rows(t, s, "SHOW WARNINGS"); len(got) != 1 || got[0][1] != "1062" {
			t.Errorf("warnings of INSERT IGNORE with a duplicate: %v, want one 1062", got)
		}
		check("INSERT INTO acc (email) VALUES ('g')", 53)
		// ON DUPLICATE KEY UPDATE that updates: the row's id; LAST_INSERT_ID() stays.
		check("INSERT INTO acc (email) VALUES ('b') ON DUPLICATE KEY UPDATE visits = visits + 1", 2)
		lastID("53")
		check("INSERT INTO acc (email) VALUES ('b') ON DUPLICATE KEY UPDATE visits = visits", 0)
		check("INSERT INTO acc (email) VALUES ('a'), ('b'), ('h') ON DUPLICATE KEY UPDATE visits = visits + 10", 56)
		check("INSERT INTO acc (email) VALUES ('i')", 59)
		check("INSERT INTO acc (email) VALUES ('c') ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)", 3)
		lastID("3")
		// LAST_INSERT_ID(expr) sets the value, in a query and in an UPDATE.
		if got := tn.String(t, s, "SELECT LAST_INSERT_ID(42)"); got != "42" {
			t.Errorf("LAST_INSERT_ID(42) = %s", got)
		}
		lastID("42")
		check("UPDATE acc SET visits = LAST_INSERT_ID(visits + 100) WHERE id = 1", 110) // a's visits were 10
		lastID("110")
		// 0 and NULL ask for the next value, as literals and as parameters.
		// (The upsert of 'c' used up 60.)
		check("INSERT INTO acc (id, email) VALUES (0, 'j')", 61)
		if got := insertID(t, s, "INSERT INTO acc (id, email) VALUES (?, ?)", 0, "k"); got != 62 {
			t.Errorf("insert with id parameter 0: insert id %d, want 62", got)
		}
		if got := insertID(t, s, "INSERT INTO acc (id, email) VALUES (?, ?)", nil, "l"); got != 63 {
			t.Errorf("insert with id parameter NULL: insert id %d, want 63", got)
		}
		// A table with INSERT triggers (a foreign key child) numbers its rows too.
		tn.Exec(t, s, "CREATE TABLE item (id INT AUTO_INCREMENT PRIMARY KEY, acc_id INT, FOREIGN KEY (acc_id) REFERENCES acc (id))")
		check("INSERT INTO item (acc_id) VALUES (1), (2), (3)", 1)
		check("INSERT INTO item (acc_id) VALUES (1)", 4)
		tn.ExecError(t, s, 1452, "23000", "INSERT INTO item (acc_id) VALUES (999)")
		check("INSERT INTO item (acc_id) VALUES (1)", 6)
		// A rolled back transaction does not give its values back either.
		tn.Exec(t, s, "BEGIN")
		check("INSERT INTO acc (email) VALUES ('m')", 64)
		tn.Exec(t, s, "ROLLBACK")
		check("INSERT INTO acc (email) VALUES ('m')", 65)
		// TRUNCATE starts over.
		tn.Exec(t, s, "TRUNCATE TABLE item")
		check("INSERT INTO item (acc_id) VALUES (1)", 1)
	})
}

func TestAutoIncrementLimits(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE ai")
	s := tn.Conn(t, n.DB("ai"))
	tn.ExecError(t, s, 1067, "42000", "CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY DEFAULT 5)")
	tn.Exec(t, s, "CREATE TABLE big (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, v INT)")
	tn.ExecError(t, s, 1235, "42000", "INSERT INTO big (id, v) VALUES (18446744073709551610, 1)")
	tn.ExecError(t, s, 1235, "42000", "INSERT INTO big (id, v) VALUES (?, 1)", uint64(18446744073709551610))
	if got := insertID(t, s, "INSERT INTO big (id, v) VALUES (9223372036854775806, 1)"); got != 9223372036854775806 {
		t.Errorf("insert id %d", got)
	}
	if got := insertID(t, s, "INSERT INTO big (v) VALUES (2)"); got != 9223372036854775807 {
		t.Errorf("insert id %d", got)
	}
	tn.ExecError(t, s, 1235, "42000", "INSERT INTO big (v) VALUES (3)")
}
