package server_test

import (
	"fmt"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
)

// txnNode starts a node with schema tx and table t (1,10) (2,20) (3,30); the
// statements of the tests below go through the Go driver (prepared where they
// carry arguments).
func txnNode(t *testing.T, opts ...tn.Option) (*tn.Node, func() tn.Querier) {
	n := tn.Start(t, opts...)
	tn.Exec(t, n.DB(""), "CREATE DATABASE tx")
	db := n.DB("tx")
	tn.Exec(t, db, "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)")
	tn.Exec(t, db, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	return n, func() tn.Querier { return tn.Conn(t, db) }
}

func tableRows(t *testing.T, q tn.Querier) string {
	return fmt.Sprint(tn.Rows(t, q, "SELECT id, v FROM t ORDER BY id"))
}

// waitWaiting waits until a session runs stmt (SHOW PROCESSLIST): it is parked
// on a lock. State, not time: the bound only ends a broken run.
func waitWaiting(t *testing.T, watch tn.Querier, stmt string) {
	t.Helper()
	tn.WaitFor(t, 60*time.Second, stmt+" waiting", func() (bool, string) {
		for _, r := range tn.Rows(t, watch, "SHOW PROCESSLIST") {
			if r[7] == stmt {
				return true, ""
			}
		}
		return false, "not in SHOW PROCESSLIST"
	})
}

// Two transactions update different rows: the second commits while the first
// stays open, and a reader sees the second's row and not the first's.
func TestTxnDifferentRowsProceedTogether(t *testing.T) {
	_, conn := txnNode(t)
	a, b, r := conn(), conn(), conn()
	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "UPDATE t SET v = ? WHERE id = ?", 11, 1)
	tn.Exec(t, b, "BEGIN")
	tn.Exec(t, b, "UPDATE t SET v = ? WHERE id = ?", 21, 2)
	tn.Exec(t, b, "COMMIT") // returns while a is open: no lease of the writer
	if got := tableRows(t, r); got != "[[1 10] [2 21] [3 30]]" {
		t.Fatalf("reader with a open: %s", got)
	}
	if got := tn.Int(t, a, "SELECT v FROM t WHERE id = 1"); got != 11 {
		t.Errorf("a reads its own change: %d", got)
	}
	tn.Exec(t, a, "COMMIT")
	if got := tableRows(t, r); got != "[[1 11] [2 21] [3 30]]" {
		t.Fatalf("after both commits: %s", got)
	}
}

// The same row: the second transaction waits for the first and then works on
// the first's committed value.
func TestTxnSameRowWaitsForCommit(t *testing.T) {
	_, conn := txnNode(t)
	a, b, watch := conn(), conn(), conn()
	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "UPDATE t SET v = v + 1 WHERE id = 1")
	tn.Exec(t, b, "BEGIN")
	const upd = "UPDATE t SET v = v * 10 WHERE id = 1"
	done := make(chan int64, 1)
	go func() {
		res, err := tn.TryExec(b, upd)
		if err != nil {
			t.Errorf("%s: %v", upd, err)
			done <- -1
			return
		}
		n, _ := res.RowsAffected()
		done <- n
	}()
	waitWaiting(t, watch, upd)
	tn.Exec(t, a, "COMMIT")
	if n := <-done; n != 1 {
		t.Fatalf("b's UPDATE changed %d rows, want 1", n)
	}
	if got := tn.Int(t, b, "SELECT v FROM t WHERE id = 1"); got != 110 {
		t.Errorf("b sees %d, want (10+1)*10", got)
	}
	tn.Exec(t, b, "COMMIT")
	if got := tableRows(t, watch); got != "[[1 110] [2 20] [3 30]]" {
		t.Errorf("rows %s", got)
	}
}

// innodb_lock_wait_timeout=1: the waiting statement fails with 1205, its
// transaction stays open and commits what else it did.
func TestTxnLockWaitTimeout(t *testing.T) {
	_, conn := txnNode(t)
	a, b := conn(), conn()
	tn.Exec(t, b, "SET innodb_lock_wait_timeout = 1")
	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "DELETE FROM t WHERE id = 1")
	tn.Exec(t, b, "BEGIN")
	tn.Exec(t, b, "UPDATE t SET v = 22 WHERE id = 2")
	tn.ExecError(t, b, 1205, "HY000", "UPDATE t SET v = 0 WHERE id = 1")
	tn.Exec(t, b, "COMMIT")
	tn.Exec(t, a, "ROLLBACK")
	if got := tableRows(t, a); got != "[[1 10] [2 22] [3 30]]" {
		t.Errorf("rows %s", got)
	}
}

// Two transactions each wait for the other's row: the one whose wait closes the
// cycle gets 1213 and is rolled back; the other proceeds.
func TestTxnDeadlock(t *testing.T) {
	_, conn := txnNode(t)
	a, b, watch := conn(), conn(), conn()
	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "UPDATE t SET v = 11 WHERE id = 1")
	tn.Exec(t, b, "BEGIN")
	tn.Exec(t, b, "UPDATE t SET v = 22 WHERE id = 2")
	const upd = "UPDATE t SET v = 12 WHERE id = 2"
	done := make(chan error, 1)
	go func() {
		_, err := tn.TryExec(a, upd)
		done <- err
	}()
	waitWaiting(t, watch, upd)
	tn.ExecError(t, b, 1213, "40001", "UPDATE t SET v = 21 WHERE id = 1")
	if err := <-done; err != nil {
		t.Fatalf("the survivor: %v", err)
	}
	tn.Exec(t, a, "COMMIT")
	tn.Exec(t, b, "COMMIT") // nothing left of b's transaction
	if got := tableRows(t, watch); got != "[[1 11] [2 12] [3 30]]" {
		t.Errorf("rows %s", got)
	}
}

// ROLLBACK restores every row exactly, also after other transactions committed
// (storage commits that took its changes out and put them back).
func TestTxnRollbackRestoresRows(t *testing.T) {
	_, conn := txnNode(t)
	a, b := conn(), conn()
	before := tableRows(t, b)
	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "INSERT INTO t VALUES (4, 40)")
	tn.Exec(t, a, "UPDATE t SET v = 0 WHERE id = 2")
	tn.Exec(t, a, "DELETE FROM t WHERE id = 3")
	for i := 5; i < 9; i++ {
		tn.Exec(t, b, "INSERT INTO t VALUES (?, ?)", i*10, i)
		tn.Exec(t, b, "DELETE FROM t WHERE id = ?", i*10)
	}
	tn.Exec(t, a, "ROLLBACK")
	if got := tableRows(t, b); got != before {
		t.Errorf("after ROLLBACK %s, want %s", got, before)
	}
}

// Readers, autocommit or inside a transaction, never see another transaction's
// uncommitted rows, however many groups commit meanwhile.
func TestTxnReaderNeverSeesUncommitted(t *testing.T) {
	_, conn := txnNode(t)
	a, b, r := conn(), conn(), conn()
	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "UPDATE t SET v = 99 WHERE id = 1")
	tn.Exec(t, a, "INSERT INTO t VALUES (4, 40)")
	for i := range 5 {
		tn.Exec(t, b, "UPDATE t SET v = v + 1 WHERE id = 3")
		if got := tableRows(t, r); got != fmt.Sprintf("[[1 10] [2 20] [3 %d]]", 31+i) {
			t.Fatalf("reader sees %s", got)
		}
	}
	tn.Exec(t, r, "BEGIN")
	if got := tableRows(t, r); got != "[[1 10] [2 20] [3 35]]" {
		t.Fatalf("a transaction's snapshot sees %s", got)
	}
	tn.Exec(t, r, "COMMIT")
	tn.Exec(t, a, "ROLLBACK")
}
