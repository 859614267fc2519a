package engine

import (
	"runtime"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

var testSource, _ = gtid.ParseUUID("99999999-2222-3333-4444-555555555555")

func insertTx(db string, seq uint64) *binlog.Transaction {
	return &binlog.Transaction{GTID: gtid.GTID{UUID: testSource, Seq: seq}, Schemas: []string{db}, Events: []binlog.Event{&binlog.RowsEvent{
		Schema: db, Table: "t", Columns: []string{"id", "v"}, PK: []int{0},
		Rows: []binlog.RowChange{{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(int64(seq)), binlog.IntValue(1)}}},
	}}}
}

// awaitCommit waits until p's transaction is committed without waiting on it: a
// coordinator waiting for an apply would itself end the run the test watches.
func awaitCommit(t *testing.T, p *Pending, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !p.Ready() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not committed within 10s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func waitReady(t *testing.T, p *Pending, within time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := p.Wait()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(within):
		t.Fatalf("apply not committed within %v", within)
	}
}

// waitWorker waits until a worker of st reports what ok looks for.
func waitWorker(t *testing.T, st *ApplyStream, ok func(WorkerStatus) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, w := range st.Workers() {
			if ok(w.Status()) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("worker state not reached within 5s")
		}
		runtime.Gosched()
	}
}

// While the coordinator says it is dispatching, a schema's run of replicated
// transactions stays open (uncommitted, invisible); when it stops, the run commits.
// The hold limit is an hour so that it cannot end the run during the checks.
func TestRunHeldWhileFeeding(t *testing.T) {
	te := openTest(t, t.TempDir(), func(o *Options) { o.RunHold = time.Hour })
	defer te.close(t)
	setup(t, te.Engine, "d")
	st := NewApplyStream(2)
	st.SetFeeding(true)
	var ps []*Pending
	for seq := uint64(1); seq <= 3; seq++ {
		p, err := te.ApplyAsync(st, insertTx("d", seq))
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	// The writer has taken the last of them into its open run.
	waitWorker(t, st, func(ws WorkerStatus) bool { return ws.Applying.Seq == 3 })
	for i, p := range ps {
		if p.Ready() {
			t.Fatalf("apply %d answered while the run is held open", i+1)
		}
	}
	if n := scalar(t, te.Engine, "d", "SELECT COUNT(*) FROM t"); n != int64(0) {
		t.Fatalf("%v rows visible before the run committed", n)
	}
	st.SetFeeding(false)
	for _, p := range ps {
		waitReady(t, p, 5*time.Second)
	}
	if n := scalar(t, te.Engine, "d", "SELECT COUNT(*) FROM t"); n != int64(3) {
		t.Fatalf("%v rows after the run committed, want 3", n)
	}
	if !te.log.Contains(gtid.GTID{UUID: testSource, Seq: 3}) {
		t.Fatal("the replica's binary log lacks the applied transactions")
	}
}

// With one worker slot and a coordinator that never stops dispatching, a run held open
// for one schema does not keep another schema's transactions waiting for ever: the
// waiting writer makes the holder commit and hand the slot over. The hold limit is an
// hour, so only the hand-over can end a's run (nobody waits for a's apply).
func TestRunReleasedForWaitingSchema(t *testing.T) {
	te := openTest(t, t.TempDir(), func(o *Options) { o.RunHold = time.Hour })
	defer te.close(t)
	setup(t, te.Engine, "a")
	setup(t, te.Engine, "b")
	st := NewApplyStream(1)
	st.SetFeeding(true)
	pa, err := te.ApplyAsync(st, insertTx("a", 1))
	if err != nil {
		t.Fatal(err)
	}
	waitWorker(t, st, func(ws WorkerStatus) bool { return ws.Schema == "a" }) // a holds the only slot
	pb, err := te.ApplyAsync(st, insertTx("b", 2))
	if err != nil {
		t.Fatal(err)
	}
	awaitCommit(t, pa, "a's run although b waits for the only worker slot")
	waitReady(t, pa, 5*time.Second)
	waitReady(t, pb, 5*time.Second)
	for _, db := range []string{"a", "b"} {
		if n := scalar(t, te.Engine, db, "SELECT COUNT(*) FROM t"); n != int64(1) {
			t.Fatalf("%s: %v rows, want 1", db, n)
		}
	}
}

// A run held open while the coordinator keeps dispatching, with nobody waiting for its
// applies or for a worker slot, commits by the hold limit at the latest.
func TestRunCommittedByHoldLimit(t *testing.T) {
	te := openTest(t, t.TempDir(), func(o *Options) { o.RunHold = 50 * time.Millisecond })
	defer te.close(t)
	setup(t, te.Engine, "a")
	st := NewApplyStream(2)
	st.SetFeeding(true)
	pa, err := te.ApplyAsync(st, insertTx("a", 1))
	if err != nil {
		t.Fatal(err)
	}
	awaitCommit(t, pa, "the held run with a 50ms hold limit")
	if n := scalar(t, te.Engine, "a", "SELECT COUNT(*) FROM t"); n != int64(1) {
		t.Fatalf("a: %v rows after the hold limit, want 1", n)
	}
	waitReady(t, pa, 5*time.Second)
}

// A coordinator waiting for one apply makes only that apply's writer commit its held
// run; the other schemas' runs stay open while the coordinator is still dispatching.
func TestWaitCommitsOnlyItsRun(t *testing.T) {
	te := openTest(t, t.TempDir(), func(o *Options) { o.RunHold = time.Hour })
	defer te.close(t)
	setup(t, te.Engine, "a")
	setup(t, te.Engine, "b")
	st := NewApplyStream(2)
	st.SetFeeding(true)
	pa, err := te.ApplyAsync(st, insertTx("a", 1))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := te.ApplyAsync(st, insertTx("b", 2))
	if err != nil {
		t.Fatal(err)
	}
	waitWorker(t, st, func(ws WorkerStatus) bool { return ws.Schema == "a" && ws.Applying.Seq == 1 })
	waitWorker(t, st, func(ws WorkerStatus) bool { return ws.Schema == "b" && ws.Applying.Seq == 2 })
	waitReady(t, pa, 5*time.Second) // held for an hour unless the wait releases it
	if pb.Ready() {
		t.Fatal("b's run committed although nobody waits for it and feeding goes on")
	}
	if n := scalar(t, te.Engine, "b", "SELECT COUNT(*) FROM t"); n != int64(0) {
		t.Fatalf("b: %v rows visible while its run is held", n)
	}
	if n := scalar(t, te.Engine, "a", "SELECT COUNT(*) FROM t"); n != int64(1) {
		t.Fatalf("a: %v rows after its apply was answered, want 1", n)
	}
	st.SetFeeding(false)
	waitReady(t, pb, 5*time.Second)
}
