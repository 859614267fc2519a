package engine

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// gates stop the goroutine that reaches a test point, once per point, until the
// test opens the gate.
type gates struct {
	mu     sync.Mutex
	g      map[string]*gate
	counts map[string]int
}

type gate struct {
	reached, open chan struct{}
	used          bool
}

func newGates(points ...string) *gates {
	gs := &gates{g: map[string]*gate{}, counts: map[string]int{}}
	gs.arm(points...)
	return gs
}

// arm sets up gates at points, each stopping the next goroutine that reaches it.
func (gs *gates) arm(points ...string) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	for _, p := range points {
		gs.g[p] = &gate{reached: make(chan struct{}), open: make(chan struct{})}
	}
}

func (gs *gates) hook(point string) {
	gs.mu.Lock()
	gs.counts[point]++
	g := gs.g[point]
	if g == nil || g.used {
		gs.mu.Unlock()
		return
	}
	g.used = true
	gs.mu.Unlock()
	close(g.reached)
	<-g.open
}

func (gs *gates) wait(t *testing.T, point string) {
	t.Helper()
	gs.mu.Lock()
	g := gs.g[point]
	gs.mu.Unlock()
	select {
	case <-g.reached:
	case <-time.After(testWait):
		t.Fatalf("%s not reached", point)
	}
}

func (gs *gates) release(point string) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	close(gs.g[point].open)
}

// waitCount waits until point has been reached n times.
func (gs *gates) waitCount(t *testing.T, point string, n int) {
	t.Helper()
	waitFor(t, func() bool {
		gs.mu.Lock()
		defer gs.mu.Unlock()
		return gs.counts[point] >= n
	})
}

// expectOverlap makes the writer of db send its next group to the log stage even
// with nothing queued, as if many statements had arrived during recent log writes
// and those were quick (they may not be on a loaded machine).
func expectOverlap(t *testing.T, e *Engine, db string) {
	t.Helper()
	s, err := e.schema(db)
	if err != nil {
		t.Fatal(err)
	}
	o := s.w.submit(&job{kind: jobCall, call: func(*sqliteConn) error {
		s.w.lastGroup, s.w.pipe.logWait, s.w.pipe.arrivals = 1000, 0, 1000
		return nil
	}}, testWait)
	if o.err != nil {
		t.Fatal(o.err)
	}
}

// sent is a statement queued on a writer by the test itself, so that statements
// reach the writer in the order they are sent.
type sent struct{ j *job }

func send(t *testing.T, e *Engine, db, sql string, args ...any) sent {
	t.Helper()
	s, err := e.schema(db)
	if err != nil {
		t.Fatal(err)
	}
	j := &job{kind: jobExec, stmt: Stmt{SQL: sql, Args: args}, done: make(chan outcome, 1)}
	s.w.jobs <- j
	return sent{j}
}

func (s sent) finished() bool { return len(s.j.done) > 0 }

func (s sent) wait(t *testing.T) (Result, error) {
	t.Helper()
	select {
	case o := <-s.j.done:
		return o.res, o.err
	case <-time.After(testWait):
		t.Fatal("statement still running")
	}
	return Result{}, nil
}

func visibleIDs(t *testing.T, e *Engine, db string) []int64 {
	t.Helper()
	rows, err := e.Query(db, nil, "SELECT id FROM t ORDER BY id", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, r := range rows.Values {
		ids = append(ids, r[0].(int64))
	}
	return ids
}

func loggedTxns(t *testing.T, l *binlog.Log) []*binlog.Transaction {
	t.Helper()
	var out []*binlog.Transaction
	if err := l.ScanTransactions("", func(_ string, tx *binlog.Transaction) error {
		out = append(out, tx)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// Group N+1 executes while group N is in the log stage; neither is visible to
// readers, nor answered, before both are durable and committed together; a
// statement of N+1 that fails on N's uncommitted row is answered only then, and is
// not logged.
func TestPipelineVisibilityAndOrder(t *testing.T) {
	gs := newGates(PointLogBegin, PointLogSynced)
	te := openTest(t, t.TempDir(), func(o *Options) { o.TestPoint = gs.hook })
	defer te.close(t)
	setup(t, te.Engine, "d")
	expectOverlap(t, te.Engine, "d")
	before := te.log.Stats()

	a := send(t, te.Engine, "d", "INSERT INTO t VALUES (1, 1)")
	gs.wait(t, PointLogBegin)                                     // group N = {a} is in the log stage, not written yet
	dup := send(t, te.Engine, "d", "INSERT INTO t VALUES (1, 9)") // a's row, uncommitted
	b := send(t, te.Engine, "d", "INSERT INTO t VALUES (2, 2)")
	gs.waitCount(t, PointAhead, 1) // b joined group N+1, after dup ran

	if ids := visibleIDs(t, te.Engine, "d"); len(ids) != 0 {
		t.Fatalf("readers see %v before anything is durable", ids)
	}
	gs.release(PointLogBegin)
	gs.wait(t, PointLogSynced) // N durable in the log; N+1 executed, not logged
	if got := te.log.Stats().Transactions - before.Transactions; got != 1 {
		t.Fatalf("log holds %d new transactions, want 1 (group N)", got)
	}
	if ids := visibleIDs(t, te.Engine, "d"); len(ids) != 0 {
		t.Fatalf("readers see %v before storage committed", ids)
	}
	for name, s := range map[string]sent{"a": a, "b": b, "duplicate": dup} {
		if s.finished() {
			t.Fatalf("%s answered before its commit", name)
		}
	}
	gs.release(PointLogSynced)

	ra, err := a.wait(t)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.wait(t)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dup.wait(t); !mysqlerr.Is(err, mysqlerr.ErDupEntry) {
		t.Fatalf("duplicate: want 1062, got %v", err)
	}
	if ra.GTID.Seq == 0 || rb.GTID.Seq != ra.GTID.Seq+1 {
		t.Fatalf("GTIDs %v, %v: want consecutive, in execution order", ra.GTID, rb.GTID)
	}
	if ids := visibleIDs(t, te.Engine, "d"); fmt.Sprint(ids) != "[1 2]" {
		t.Fatalf("rows %v, want [1 2]", ids)
	}
	if got := te.log.Stats().Transactions - before.Transactions; got != 2 {
		t.Fatalf("log holds %d new transactions, want 2 (the failed statement is not logged)", got)
	}
	if !te.Executed().Contains(rb.GTID) {
		t.Fatal("gtid_executed lacks the committed group")
	}
	st := te.CommitStats()
	if st.Overlapped < 1 || st.LogGroups < st.StorageCommits+1 {
		t.Fatalf("stats %+v: want an overlapped group and two log groups in one commit", st)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met")
		}
		time.Sleep(time.Millisecond)
	}
}

// A statement whose changes cannot be captured, in a group behind one in the log
// stage, undoes that group alone (its savepoint): the sealed group commits.
func TestPipelineCaptureFailureUndoesOpenGroupOnly(t *testing.T) {
	gs := newGates(PointLogBegin)
	te := openTest(t, t.TempDir(), func(o *Options) { o.TestPoint = gs.hook })
	defer te.close(t)
	setup(t, te.Engine, "d")
	s, _ := te.schema("d")
	// A table the writer's catalog does not know: writing it is a capture failure.
	if o := s.w.submit(&job{kind: jobCall, call: func(c *sqliteConn) error {
		_, err := c.exec("CREATE TABLE hidden (id INTEGER PRIMARY KEY)")
		return err
	}}, testWait); o.err != nil {
		t.Fatal(o.err)
	}
	expectOverlap(t, te.Engine, "d")

	a := send(t, te.Engine, "d", "INSERT INTO t VALUES (1, 1)")
	gs.wait(t, PointLogBegin)
	b := send(t, te.Engine, "d", "INSERT INTO t VALUES (2, 2)")
	gs.waitCount(t, PointAhead, 1)
	bad := send(t, te.Engine, "d", "INSERT INTO hidden VALUES (1)")
	if _, err := bad.wait(t); !errors.Is(err, errCapture) {
		t.Fatalf("write to a table outside the catalog: %v, want a capture failure", err)
	}
	gs.release(PointLogBegin)
	if _, err := a.wait(t); err != nil {
		t.Fatalf("sealed group: %v", err)
	}
	if _, err := b.wait(t); !errors.Is(err, errCapture) {
		t.Fatalf("statement of the undone group: %v, want the capture failure", err)
	}
	if ids := visibleIDs(t, te.Engine, "d"); fmt.Sprint(ids) != "[1]" {
		t.Fatalf("rows %v, want [1]", ids)
	}
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (3, 3)") // the writer goes on
	if n := len(loggedTxns(t, te.log)); n != 4 {               // CREATE DATABASE, CREATE TABLE, 1, 3
		t.Fatalf("log holds %d transactions, want 4", n)
	}
}

// Under a concurrent load with explicit transactions and DDL mixed in, every
// acknowledged row is stored and logged once, GTIDs are unique, and no commit holds
// more groups than the pipeline's depth.
func TestPipelineUnderLoad(t *testing.T) {
	for _, depth := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("depth%d", depth), func(t *testing.T) {
			te := openTest(t, t.TempDir(), func(o *Options) { o.PipelineDepth = func() int { return depth } })
			defer te.close(t)
			setup(t, te.Engine, "d")
			var wg sync.WaitGroup
			var acked, txns atomic.Int64
			errs := make(chan error, 64)
			for c := range 24 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 60 {
						id := c*1000 + i + 1
						if c%6 == 5 && i%5 == 0 {
							tx := te.Begin(testWait)
							_, err := tx.Exec("d", Stmt{SQL: "INSERT INTO t VALUES (?, ?)", Args: []any{id, -1}})
							if err == nil {
								_, err = tx.Exec("d", Stmt{SQL: "UPDATE t SET v = v + 1 WHERE id = ?", Args: []any{id}})
							}
							if err == nil {
								_, err = tx.Commit()
							} else {
								tx.Rollback()
							}
							if err != nil {
								errs <- err
								return
							}
							acked.Add(1)
							txns.Add(1)
							continue
						}
						if c == 0 && i%20 == 10 {
							q := fmt.Sprintf("CREATE TABLE x%d (id INTEGER PRIMARY KEY)", i)
							if _, err := te.Exec("d", Stmt{SQL: q, DDL: []string{q}}, testWait); err != nil {
								errs <- err
								return
							}
							txns.Add(1)
						}
						if _, err := te.Exec("d", Stmt{SQL: "INSERT INTO t VALUES (?, ?)", Args: []any{id, i}}, testWait); err != nil {
							errs <- err
							return
						}
						acked.Add(1)
						txns.Add(1)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if n := scalar(t, te.Engine, "d", "SELECT count(*) FROM t"); n != acked.Load() {
				t.Fatalf("%v rows, %d acknowledged", n, acked.Load())
			}
			txs := loggedTxns(t, te.log)
			seen := gtid.Set{}
			for _, tx := range txs {
				if seen.Contains(tx.GTID) {
					t.Fatalf("GTID %v logged twice", tx.GTID)
				}
				seen.Add(tx.GTID)
			}
			if got := int64(len(txs)) - 2; got != txns.Load() { // CREATE DATABASE, CREATE TABLE
				t.Fatalf("log holds %d transactions, want %d", got, txns.Load())
			}
			st := te.CommitStats()
			if st.LogGroups > uint64(depth)*st.StorageCommits || (depth == 1 && st.Overlapped != 0) {
				t.Fatalf("depth %d: %+v", depth, st)
			}
			t.Logf("depth %d: %+v", depth, st)
		})
	}
}

// When log writes are slow (a semi-sync round trip), groups are not overlapped:
// each would make the one before it wait twice.
func TestPipelineNoOverlapWhenLogIsSlow(t *testing.T) {
	te := openTest(t, t.TempDir(), func(o *Options) {
		o.AfterSync = func(int, string, int64) { time.Sleep(3 * maxOverlapWait / 2) }
	})
	defer te.close(t)
	setup(t, te.Engine, "d")
	start := te.CommitStats()
	var wg sync.WaitGroup
	for c := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (?, ?)", c*100+i+1, i)
			}
		}()
	}
	wg.Wait()
	if n := te.CommitStats().Overlapped - start.Overlapped; n > 1 {
		t.Fatalf("%d groups overlapped with slow log writes", n)
	}
}

// A group behind the sealed one that holds fewer clients is set aside: the sealed
// group commits and is answered without waiting for its log write, and its rows
// are applied again in the next transaction, with the results its statements gave.
func TestPipelineSetsAsideASmallerOpenGroup(t *testing.T) {
	gs := newGates()
	te := openTest(t, t.TempDir(), func(o *Options) { o.TestPoint = gs.hook })
	defer te.close(t)
	setup(t, te.Engine, "d")
	mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (10, 0)")
	expectOverlap(t, te.Engine, "d")
	gs.arm(PointLogBegin, PointStored)
	before := te.CommitStats()

	s, _ := te.schema("d")
	held, hold := make(chan struct{}), make(chan struct{})
	// Hold the writer so that the three statements of group N queue up together.
	go s.w.submit(&job{kind: jobCall, call: func(*sqliteConn) error {
		close(held)
		<-hold
		return nil
	}}, testWait)
	<-held
	n := []sent{
		send(t, te.Engine, "d", "INSERT INTO t VALUES (1, 1)"),
		send(t, te.Engine, "d", "INSERT INTO t VALUES (2, 2)"),
		send(t, te.Engine, "d", "UPDATE t SET v = v + 1 WHERE id = 10"),
	}
	close(hold)
	gs.wait(t, PointLogBegin) // N = the three, in the log stage
	b := send(t, te.Engine, "d", "UPDATE t SET v = v + 100 WHERE id IN (1, 10)")
	gs.waitCount(t, PointAhead, 1)
	gs.release(PointLogBegin)

	gs.wait(t, PointStored) // N committed without b
	if ids, v := visibleIDs(t, te.Engine, "d"), scalar(t, te.Engine, "d", "SELECT v FROM t WHERE id = 10"); fmt.Sprint(ids) != "[1 2 10]" || v != int64(1) {
		t.Errorf("after N's commit readers see rows %v and v=%v, want [1 2 10] and 1 (b set aside)", ids, v)
	}
	if b.finished() {
		t.Error("b answered with N")
	}
	gs.release(PointStored)
	var last gtid.GTID
	for i, s := range n {
		r, err := s.wait(t)
		if err != nil {
			t.Fatalf("N[%d]: %v", i, err)
		}
		last = r.GTID
	}
	rb, err := b.wait(t)
	if err != nil {
		t.Fatal(err)
	}
	if rb.AffectedRows != 2 || rb.GTID.Seq != last.Seq+1 {
		t.Errorf("b: %d rows, GTID %v; want 2 rows and the GTID after %v", rb.AffectedRows, rb.GTID, last)
	}
	if got := fmt.Sprint(scalar(t, te.Engine, "d", "SELECT group_concat(id || '=' || v, ' ') FROM (SELECT * FROM t ORDER BY id)")); got != "1=101 2=2 10=101" {
		t.Errorf("rows %s, want 1=101 2=2 10=101", got)
	}
	if st := te.CommitStats(); st.SetAside != before.SetAside+1 {
		t.Errorf("set aside %d times, want once", st.SetAside-before.SetAside)
	}
	txs := loggedTxns(t, te.log)
	if rows := txs[len(txs)-1].Events[0].(*binlog.RowsEvent).Rows; len(rows) != 2 {
		t.Errorf("b logged %d row changes, want 2", len(rows))
	}
}
