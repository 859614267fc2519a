package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

func txnExec(t *testing.T, x *Txn, db, sql string, args ...any) Result {
	t.Helper()
	r, err := x.Exec(db, Stmt{SQL: sql, Args: args})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return r
}

func rowsOf(t *testing.T, e *Engine, db, sql string) string {
	t.Helper()
	rows, err := e.Query(db, nil, sql, nil)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return fmt.Sprint(rows.Values)
}

// waitParked waits until x's statement is parked on a row lock of another
// transaction (state, not time: the deadline only bounds a broken run).
func waitParked(t *testing.T, te *testEngine, x *Txn) {
	t.Helper()
	waitFor(t, func() bool {
		te.locks.mu.Lock()
		defer te.locks.mu.Unlock()
		return te.locks.waitsFor[x] != nil
	})
}

// Two transactions on different rows of one table proceed together: the second
// commits while the first stays open, and storage then holds the second's row and
// not the first's uncommitted one (rule 4); the first commits after.
func TestInterleavedDifferentRowsProceed(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (1, 10), (2, 20)")
	t1, t2 := te.Begin(testWait), te.Begin(testWait)
	txnExec(t, t1, "d", "UPDATE t SET v = 11 WHERE id = 1")
	txnExec(t, t2, "d", "UPDATE t SET v = 21 WHERE id = 2")
	txnExec(t, t2, "d", "INSERT INTO t VALUES (3, 30)")
	if _, err := t2.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, te.Engine, "d", "SELECT id, v FROM t ORDER BY id"); got != "[[1 10] [2 21] [3 30]]" {
		t.Fatalf("committed rows with t1 open: %s", got)
	}
	// More groups commit while t1 stays open: its row is taken out and put back.
	for i := 4; i < 8; i++ {
		mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (?, ?)", i, i*10)
	}
	if got := rowsOf(t, te.Engine, "d", "SELECT v FROM t WHERE id = 1"); got != "[[10]]" {
		t.Fatalf("a reader sees t1's uncommitted row: %s", got)
	}
	rows, err := t1.QueryTables("d", nil, "SELECT v FROM t WHERE id = 1", nil, nil, []string{"t"}, false)
	if err != nil || fmt.Sprint(rows.Values) != "[[11]]" {
		t.Fatalf("t1 reads its own change: %v %v", rows, err)
	}
	if _, err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, te.Engine, "d", "SELECT id, v FROM t WHERE id < 4 ORDER BY id"); got != "[[1 11] [2 21] [3 30]]" {
		t.Fatalf("after both commits: %s", got)
	}
}

// The same row: the second transaction waits and, once the first commits,
// works on the first's committed value.
func TestInterleavedSameRowWaits(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (1, 10)")
	t1, t2 := te.Begin(testWait), te.Begin(testWait)
	txnExec(t, t1, "d", "UPDATE t SET v = v + 1 WHERE id = 1")
	done := make(chan error, 1)
	go func() {
		_, err := t2.Exec("d", Stmt{SQL: "UPDATE t SET v = v * 10 WHERE id = 1"})
		done <- err
	}()
	waitParked(t, te, t2)
	if _, err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := t2.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, te.Engine, "d", "SELECT v FROM t"); got != "[[110]]" {
		t.Fatalf("v = %s, want (10+1)*10", got)
	}
}

// A wait longer than the lock wait timeout fails the statement with 1205; the
// transaction stays open and usable (innodb_rollback_on_timeout=OFF).
func TestInterleavedLockWaitTimeout(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (1, 10), (2, 20)")
	t1, t2 := te.Begin(testWait), te.Begin(50*time.Millisecond)
	txnExec(t, t1, "d", "DELETE FROM t WHERE id = 1")
	txnExec(t, t2, "d", "UPDATE t SET v = 22 WHERE id = 2")
	// Row 1 is gone in t1 only: the point UPDATE waits on its key (as the session
	// passes it), where running it would find no row.
	point := Stmt{SQL: "UPDATE t SET v = 12 WHERE id = 1", Tables: []string{"t"}, Point: true, Key: []int64{1}}
	if _, err := t2.Exec("d", point); !mysqlerr.Is(err, mysqlerr.ErLockWaitTimeout) {
		t.Fatalf("want 1205, got %v", err)
	}
	if _, err := t2.Commit(); err != nil {
		t.Fatal(err)
	}
	t1.Rollback()
	if got := rowsOf(t, te.Engine, "d", "SELECT id, v FROM t ORDER BY id"); got != "[[1 10] [2 22]]" {
		t.Fatalf("rows %s", got)
	}
}

// A cycle of waits fails the transaction whose wait closes it with 1213, rolled
// back; the other proceeds.
func TestInterleavedDeadlock(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (1, 10), (2, 20)")
	t1, t2 := te.Begin(testWait), te.Begin(testWait)
	txnExec(t, t1, "d", "UPDATE t SET v = 11 WHERE id = 1")
	txnExec(t, t2, "d", "UPDATE t SET v = 22 WHERE id = 2")
	done := make(chan error, 1)
	go func() {
		_, err := t1.Exec("d", Stmt{SQL: "UPDATE t SET v = 12 WHERE id = 2"})
		done <- err
	}()
	waitParked(t, te, t1)
	if _, err := t2.Exec("d", Stmt{SQL: "UPDATE t SET v = 21 WHERE id = 1"}); !mysqlerr.Is(err, mysqlerr.ErLockDeadlock) {
		t.Fatalf("want 1213, got %v", err)
	}
	t2.Rollback()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, te.Engine, "d", "SELECT id, v FROM t ORDER BY id"); got != "[[1 11] [2 12]]" {
		t.Fatalf("rows %s", got)
	}
}

// ROLLBACK restores every row exactly, across storage commits that took the
// transaction's changes out and put them back; ROLLBACK TO SAVEPOINT undoes the
// changes after the mark.
func TestInterleavedRollbackRestores(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	before := rowsOf(t, te.Engine, "d", "SELECT id, v FROM t ORDER BY id")
	t1, t2 := te.Begin(testWait), te.Begin(testWait)
	txnExec(t, t1, "d", "UPDATE t SET v = v + 1 WHERE id = 1")
	txnExec(t, t2, "d", "INSERT INTO t VALUES (9, 90)")
	if err := t1.Savepoint("s"); err != nil {
		t.Fatal(err)
	}
	txnExec(t, t1, "d", "DELETE FROM t WHERE id = 2")
	txnExec(t, t1, "d", "INSERT INTO t VALUES (4, 40)")
	if err := t1.RollbackTo("s"); err != nil {
		t.Fatal(err)
	}
	txnExec(t, t1, "d", "UPDATE t SET v = 33 WHERE id = 3")
	if _, err := t2.Commit(); err != nil { // a storage commit with t1 open
		t.Fatal(err)
	}
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (8, 80)")
	rows, err := t1.QueryTables("d", nil, "SELECT id, v FROM t WHERE id < 8 ORDER BY id", nil, nil, []string{"t"}, false)
	if err != nil || fmt.Sprint(rows.Values) != "[[1 11] [2 20] [3 33]]" {
		t.Fatalf("t1 sees %v %v", rows, err)
	}
	t1.Rollback()
	if got := rowsOf(t, te.Engine, "d", "SELECT id, v FROM t WHERE id < 8 ORDER BY id"); got != before {
		t.Fatalf("after rollback %s, want %s", got, before)
	}
	if got := rowsOf(t, te.Engine, "d", "SELECT count(*) FROM t"); got != "[[5]]" {
		t.Fatalf("rows: %s", got)
	}
}
