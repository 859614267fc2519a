package engine

import (
	mysqlcatalog "github.com/binlite/binlite/catalog"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

type testEngine struct {
	*Engine
	log *binlog.Log
	dir string
}

func openTest(t *testing.T, dir string, with ...func(*Options)) *testEngine {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	u, _ := gtid.ParseUUID("11111111-2222-3333-4444-555555555555")
	l, err := binlog.Open(dir, binlog.Options{ServerUUID: u, ServerID: 1, SyncBinlog: 1, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Dir: dir, Log: l, Logger: logger, OnFatal: func(err error) { t.Errorf("fatal: %v", err) },
		TranslateDDL: func(_, sql string, _ func(string) *mysqlcatalog.Table) ([]string, error) { return []string{sql}, nil }}
	for _, f := range with {
		f(&opts)
	}
	e, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &testEngine{Engine: e, log: l, dir: dir}
}

func (te *testEngine) close(t *testing.T) {
	t.Helper()
	if err := te.Close(); err != nil {
		t.Fatal(err)
	}
	if err := te.log.Close(); err != nil {
		t.Fatal(err)
	}
}

// testWait is the queue wait of the tests' statements: long, so that a loaded
// machine does not turn a slow group commit into a lock wait timeout (1205).
const testWait = 30 * time.Second

func mustExec(t *testing.T, e *Engine, db, sql string, args ...any) Result {
	t.Helper()
	r, err := e.Exec(db, Stmt{SQL: sql, Args: args}, testWait)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return r
}

func scalar(t *testing.T, e *Engine, db, sql string) any {
	t.Helper()
	rows, err := e.Query(db, nil, sql, nil)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return rows.Values[0][0]
}

func setup(t *testing.T, e *Engine, db string) {
	t.Helper()
	if err := e.CreateSchema(db, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Exec(db, Stmt{SQL: "CREATE TABLE t (id INTEGER PRIMARY KEY, v INT)", DDL: []string{"CREATE TABLE t (id INTEGER PRIMARY KEY, v INT)"}}, testWait); err != nil {
		t.Fatal(err)
	}
}

// Concurrent autocommit statements share group commits, each gets its own GTID, and
// a failing statement fails alone.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (0, 0)")
	before := te.log.Stats()
	var wg sync.WaitGroup
	errs := make([]error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := i + 1
			if i%8 == 0 {
				id = 0 // duplicate key: must fail without touching the others
			}
			_, errs[i] = te.Exec("d", Stmt{SQL: "INSERT INTO t VALUES (?, ?)", Args: []any{id, i}}, testWait)
		}()
	}
	wg.Wait()
	failed := 0
	for i, err := range errs {
		if i%8 == 0 {
			if !mysqlerr.Is(err, mysqlerr.ErDupEntry) {
				t.Fatalf("statement %d: want 1062, got %v", i, err)
			}
			failed++
		} else if err != nil {
			t.Fatalf("statement %d: %v", i, err)
		}
	}
	after := te.log.Stats()
	if got := after.Transactions - before.Transactions; got != uint64(64-failed) {
		t.Fatalf("binlog transactions %d, want %d", got, 64-failed)
	}
	if after.Groups-before.Groups >= after.Transactions-before.Transactions {
		t.Fatalf("no grouping: %d groups for %d transactions", after.Groups-before.Groups, after.Transactions-before.Transactions)
	}
	if n := scalar(t, te.Engine, "d", "SELECT COUNT(*) FROM t"); n != int64(1+64-failed) {
		t.Fatalf("rows %v", n)
	}
}

// Two transactions that each hold a row the other wants, on two schemas: the
// second to wait gets 1213 at once and is rolled back; the first then proceeds.
func TestDeadlockDetected(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "a")
	setup(t, te.Engine, "b")
	t1, t2 := te.Begin(testWait), te.Begin(testWait)
	if _, err := t1.Exec("a", Stmt{SQL: "INSERT INTO t VALUES (1, 1)"}); err != nil {
		t.Fatal(err)
	}
	if _, err := t2.Exec("b", Stmt{SQL: "INSERT INTO t VALUES (1, 1)"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := t1.Exec("b", Stmt{SQL: "UPDATE t SET v = 2 WHERE id = 1"})
		done <- err
	}()
	// t1 now waits for t2's row in b; it must have registered before t2 asks for
	// t1's row in a, or t2 would be the one to wait (and t1 the victim).
	deadline := time.Now().Add(10 * time.Second)
	for {
		te.locks.mu.Lock()
		waiting := te.locks.waitsFor[t1] != nil
		te.locks.mu.Unlock()
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("t1 not seen waiting for b within 10s")
		}
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	_, err := t2.Exec("a", Stmt{SQL: "UPDATE t SET v = 3 WHERE id = 1"})
	if !mysqlerr.Is(err, mysqlerr.ErLockDeadlock) {
		t.Fatalf("want 1213, got %v", err)
	}
	// Detection is immediate; the bound is far below the 30s lock wait, which an
	// undetected deadlock would run into.
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("deadlock took %v to detect", el)
	}
	t2.Rollback() // as the session does on 1213: its row in b goes, t1 proceeds
	if err := <-done; err != nil {
		t.Fatalf("survivor: %v", err)
	}
	if _, err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := scalar(t, te.Engine, "b", "SELECT COUNT(*) FROM t"); n != int64(0) {
		t.Fatalf("b has %v rows; the victim's insert must be gone", n)
	}
	if n := scalar(t, te.Engine, "a", "SELECT COUNT(*) FROM t"); n != int64(1) {
		t.Fatalf("a has %v rows, want t1's", n)
	}
}

// A transaction that the binary log holds but a schema never committed is re-applied
// at start-up (the crash window between binlog fsync and SQLite commit).
func TestRecoveryReappliesLoggedTransactions(t *testing.T) {
	dir := t.TempDir()
	te := openTest(t, dir)
	setup(t, te.Engine, "d")
	for i := range 10 {
		mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (?, ?)", i, i*10)
	}
	te.close(t)

	// Simulate the crash window: log transactions that storage never committed.
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	u, _ := gtid.ParseUUID("11111111-2222-3333-4444-555555555555")
	l, err := binlog.Open(dir, binlog.Options{ServerUUID: u, ServerID: 1, SyncBinlog: 1, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	var txs []*binlog.Transaction
	for i := 10; i < 15; i++ {
		txs = append(txs, &binlog.Transaction{Schemas: []string{"d"}, Events: []binlog.Event{&binlog.RowsEvent{
			Schema: "d", Table: "t", Columns: []string{"id", "v"}, PK: []int{0},
			Rows: []binlog.RowChange{{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(int64(i)), binlog.IntValue(int64(i * 10))}}},
		}}})
	}
	txs = append(txs, &binlog.Transaction{Schemas: []string{"d"}, Events: []binlog.Event{&binlog.RowsEvent{
		Schema: "d", Table: "t", Columns: []string{"id", "v"}, PK: []int{0},
		Rows: []binlog.RowChange{{Op: binlog.OpUpdate, Before: []binlog.Value{binlog.IntValue(3), binlog.IntValue(30)}, After: []binlog.Value{binlog.IntValue(3), binlog.IntValue(-3)}}},
	}}})
	if err := l.Commit(txs); err != nil {
		t.Fatal(err)
	}
	l.Close()

	te = openTest(t, dir)
	if n := scalar(t, te.Engine, "d", "SELECT COUNT(*) FROM t"); n != int64(15) {
		t.Fatalf("rows after recovery %v, want 15", n)
	}
	if v := scalar(t, te.Engine, "d", "SELECT v FROM t WHERE id = 3"); v != int64(-3) {
		t.Fatalf("update not re-applied: %v", v)
	}
	// A second start must not apply anything twice.
	te.close(t)
	te = openTest(t, dir)
	// Closed before t.TempDir removes the directory (a deferred te.close would
	// close the engine te named when the defer ran, and leave this one writing).
	defer te.close(t)
	if n := scalar(t, te.Engine, "d", "SELECT COUNT(*) FROM t"); n != int64(15) {
		t.Fatalf("rows after second start %v", n)
	}
}
