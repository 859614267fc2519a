package server_test

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// TestRepeatableRead: at REPEATABLE READ a transaction's plain SELECTs read the
// snapshot its first read took, whatever commits meanwhile; at READ COMMITTED
// each reads the latest; WITH CONSISTENT SNAPSHOT takes it at START TRANSACTION.
func TestRepeatableRead(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE rr")
	a, b := tn.Conn(t, n.DB("rr")), tn.Conn(t, n.DB("rr"))
	tn.Exec(t, a, "CREATE TABLE t (id INT PRIMARY KEY, k INT)")
	tn.Exec(t, a, "INSERT INTO t VALUES (1, 1)")
	read := func(want string) {
		t.Helper()
		if got := tn.String(t, a, "SELECT k FROM t WHERE id = 1"); got != want {
			t.Errorf("k = %s, want %s", got, want)
		}
	}

	tn.Exec(t, a, "START TRANSACTION")
	read("1")
	tn.Exec(t, b, "UPDATE t SET k = 2 WHERE id = 1")
	read("1") // the snapshot of the first read
	if got := tn.String(t, a, "SELECT COUNT(*) FROM t"); got != "1" {
		t.Errorf("count %s", got)
	}
	tn.Exec(t, b, "INSERT INTO t VALUES (2, 2)")
	if got := tn.String(t, a, "SELECT COUNT(*) FROM t"); got != "1" {
		t.Errorf("a phantom row: count %s", got)
	}
	tn.Exec(t, a, "COMMIT")
	read("2")

	tn.Exec(t, a, "START TRANSACTION WITH CONSISTENT SNAPSHOT")
	tn.Exec(t, b, "UPDATE t SET k = 3 WHERE id = 1")
	read("2") // taken at START TRANSACTION, before the update
	tn.Exec(t, a, "ROLLBACK")
	read("3")

	tn.Exec(t, a, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")
	tn.Exec(t, a, "BEGIN")
	read("3")
	tn.Exec(t, b, "UPDATE t SET k = 4 WHERE id = 1")
	read("4")
	tn.Exec(t, a, "COMMIT")

	tn.Exec(t, a, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ")
	tn.Exec(t, a, "SET autocommit = 0")
	read("4")
	tn.Exec(t, b, "UPDATE t SET k = 5 WHERE id = 1")
	read("4")
	tn.Exec(t, a, "COMMIT")
	read("5")
	tn.Exec(t, a, "SET autocommit = 1")
}
