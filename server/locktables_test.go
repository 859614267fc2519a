package server_test

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// TestLockTables: LOCK TABLES ... READ and FLUSH TABLES WITH READ LOCK keep other
// sessions' writes out until UNLOCK TABLES (they wait, here until
// innodb_lock_wait_timeout: 1205), refuse the locking session's writes (1099,
// 1100, 1223), and let it read; LOCK TABLES ... WRITE is 1235.
func TestLockTables(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE lk")
	a, b := tn.Conn(t, n.DB("lk")), tn.Conn(t, n.DB("lk"))
	tn.Exec(t, a, "CREATE TABLE t (id INT PRIMARY KEY)")
	tn.Exec(t, a, "CREATE TABLE u (id INT PRIMARY KEY)")
	tn.Exec(t, a, "INSERT INTO t VALUES (1)")
	tn.Exec(t, b, "SET SESSION innodb_lock_wait_timeout = 1")

	tn.Exec(t, a, "LOCK TABLES t READ")
	if got := tn.String(t, a, "SELECT COUNT(*) FROM t"); got != "1" {
		t.Errorf("count %s", got)
	}
	tn.ExecError(t, a, 1099, "HY000", "INSERT INTO t VALUES (2)")
	tn.ExecError(t, a, 1100, "HY000", "INSERT INTO u VALUES (2)")
	tn.ExecError(t, b, 1205, "HY000", "INSERT INTO t VALUES (3)")
	tn.Exec(t, a, "UNLOCK TABLES")
	tn.Exec(t, b, "INSERT INTO t VALUES (3)")

	tn.Exec(t, a, "FLUSH TABLES WITH READ LOCK")
	tn.ExecError(t, a, 1223, "HY000", "INSERT INTO u VALUES (1)")
	tn.ExecError(t, b, 1205, "HY000", "INSERT INTO u VALUES (4)")
	tn.Exec(t, a, "UNLOCK TABLES")
	tn.Exec(t, b, "INSERT INTO u VALUES (4)")

	tn.ExecError(t, a, 1235, "42000", "LOCK TABLES t WRITE")
}
