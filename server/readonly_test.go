package server_test

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// TestReadOnlyTransactions: START TRANSACTION READ ONLY and the session's
// transaction_read_only refuse writes with 1792 and keep reads; READ WRITE and
// the default write.
func TestReadOnlyTransactions(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE ro")
	c := tn.Conn(t, n.DB("ro"))
	tn.Exec(t, c, "CREATE TABLE t (id INT PRIMARY KEY)")
	tn.Exec(t, c, "START TRANSACTION READ ONLY")
	tn.Rows(t, c, "SELECT id FROM t")
	tn.ExecError(t, c, 1792, "25006", "INSERT INTO t VALUES (1)")
	tn.Exec(t, c, "COMMIT")
	tn.Exec(t, c, "START TRANSACTION READ WRITE")
	tn.Exec(t, c, "INSERT INTO t VALUES (2)")
	tn.Exec(t, c, "COMMIT")
	tn.Exec(t, c, "SET SESSION TRANSACTION READ ONLY")
	tn.ExecError(t, c, 1792, "25006", "UPDATE t SET id = 3")
	tn.Exec(t, c, "SET autocommit = 0")
	tn.ExecError(t, c, 1792, "25006", "DELETE FROM t")
	tn.Exec(t, c, "ROLLBACK")
	tn.Exec(t, c, "SET autocommit = 1")
	tn.Exec(t, c, "SET SESSION TRANSACTION READ WRITE")
	tn.Exec(t, c, "INSERT INTO t VALUES (4)")
	if got := tn.Rows(t, c, "SELECT id FROM t ORDER BY id"); len(got) != 2 || got[0][0] != "2" || got[1][0] != "4" {
		t.Errorf("rows %v, want 2 and 4", got)
	}
}
