package engine

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// ApplyStream is one replication channel's sequence of applies. Transactions of a
// stream are queued on their schema's writer without waiting (so they share group
// commits), in order per schema; the first failure stops the rest of the stream.
type ApplyStream struct {
	failed  atomic.Bool
	workers []*Worker
	idle    chan *Worker // free worker slots

	// A writer applying a run of the stream keeps its SQLite transaction open while
	// its queue is momentarily empty, as long as the coordinator is still dispatching
	// (feeding) and no other schema waits for a worker slot: a run then commits once
	// per many transactions instead of whenever the coordinator falls a little behind,
	// which costs far less WAL and checkpoint work per row. The coordinator stopping
	// to wait (relay log end, commit order, a multi-schema transaction) or a writer
	// asking for a slot wakes the holders through wake.
	feeding     atomic.Bool
	slotWaiters atomic.Int32
	wakeMu      sync.Mutex
	wake        chan struct{}

	// The coordinator waiting for an apply's outcome (Pending.Wait) sleeps on done;
	// writers answering the stream's jobs signal it only while waiting is set.
	waiting atomic.Bool
	done    chan struct{} // buffered 1
}

// finished is called after a job of the stream got its outcome.
func (st *ApplyStream) finished() {
	if st.waiting.Load() {
		select {
		case st.done <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// SetFeeding says whether the coordinator is dispatching transactions (true) or is
// about to block (false: waiting for the relay log or for earlier applies). Writers
// holding runs open commit them when feeding stops.
func (st *ApplyStream) SetFeeding(on bool) {
	if st.feeding.Load() == on {
		return // the common case, per transaction: no write to a line writers read
	}
	if st.feeding.Swap(on) && !on {
		st.kick()
	}
}

// wakeChan is closed at the next kick.
func (st *ApplyStream) wakeChan() <-chan struct{} {
	st.wakeMu.Lock()
	defer st.wakeMu.Unlock()
	if st.wake == nil {
		st.wake = make(chan struct{})
	}
	return st.wake
}

func (st *ApplyStream) kick() {
	st.wakeMu.Lock()
	if st.wake != nil {
		close(st.wake)
		st.wake = nil
	}
	st.wakeMu.Unlock()
}

// holdRun reports whether a writer should keep its run of the stream open while its
// queue is empty.
func (st *ApplyStream) holdRun() bool {
	return st.feeding.Load() && st.slotWaiters.Load() == 0 && !st.failed.Load()
}

// Failed reports whether an apply of the stream failed.
func (st *ApplyStream) Failed() bool { return st.failed.Load() }

// Logged reports whether g is in the binary log, so applied or being committed:
// an applier need not read that transaction.
func (e *Engine) Logged(g gtid.GTID) bool { return e.opts.Log.Contains(g) }

// Claim marks g as being applied; false means it is executed or already in flight.
func (e *Engine) Claim(g gtid.GTID) bool {
	e.claims.mu.Lock()
	defer e.claims.mu.Unlock()
	if e.claims.has(g) || e.opts.Log.Contains(g) {
		return false
	}
	e.claims.add(g)
	return true
}

// Unclaim releases a claim once the apply finished (applied or failed).
func (e *Engine) Unclaim(g gtid.GTID) {
	e.claims.mu.Lock()
	e.claims.remove(g)
	e.claims.mu.Unlock()
}

// Pending is a queued apply whose outcome arrives later.
type Pending struct {
	job
	w *writer
}

// Ready reports whether the outcome is available (Wait will not block).
func (p *Pending) Ready() bool { return p.fin.Load() }

// Wait returns the outcome of the apply. One goroutine (the stream's coordinator)
// waits on a stream's applies. The writer applying p stops holding its run open for
// more while someone waits (see ApplyStream); other writers keep theirs.
func (p *Pending) Wait() (Result, error) {
	if p.fin.Load() {
		return p.out.res, p.out.err
	}
	p.w.waited.Add(1)
	defer p.w.waited.Add(-1)
	p.stream.kick()
	st, dead := p.stream, p.w.dead
	for !p.fin.Load() {
		// Announce the wait, then look again: a writer finishing in between either
		// sees the announcement or its answer is seen here.
		st.waiting.Store(true)
		if p.fin.Load() {
			st.waiting.Store(false)
			break
		}
		select {
		case <-st.done:
		case <-dead:
			if p.state.CompareAndSwap(jobPending, jobCancelled) {
				st.waiting.Store(false)
				return Result{}, unknownDB(p.w.s.name)
			}
			dead = nil // taken before the writer stopped: its answer is coming
		}
		st.waiting.Store(false)
	}
	return p.out.res, p.out.err
}

// ApplyAsync queues a replicated transaction that touches one schema on that schema's
// writer and returns at once. Multi-schema transactions and CREATE/DROP DATABASE go
// through ApplySync.
func (e *Engine) ApplyAsync(st *ApplyStream, tx *binlog.Transaction) (*Pending, error) {
	if st == nil {
		return nil, fmt.Errorf("engine: %s: an asynchronous apply needs its stream", tx.GTID)
	}
	if len(tx.Schemas) != 1 || isSchemaLevel(tx) {
		return nil, fmt.Errorf("engine: %s must be applied synchronously", tx.GTID)
	}
	s, err := e.schema(tx.Schemas[0])
	if err != nil {
		return nil, err
	}
	p := &Pending{w: s.w}
	p.kind, p.apply, p.stream = jobApply, tx, st
	select {
	case s.w.jobs <- &p.job: // the queue has room: no two-way select per transaction
	default:
		select {
		case s.w.jobs <- &p.job:
		case <-s.w.dead:
			return nil, unknownDB(s.name)
		}
	}
	return p, nil
}

func isSchemaLevel(tx *binlog.Transaction) bool {
	for _, ev := range tx.Events {
		if q, ok := ev.(*binlog.QueryEvent); ok {
			if _, _, ok := schemaDDLName(q.SQL); ok {
				return true
			}
		}
	}
	return false
}

// ApplySync applies a replicated transaction that touches several schemas, or
// creates or drops a schema, keeping its GTID. Earlier queued applies of the same
// schemas complete first (their writers are FIFO).
func (e *Engine) ApplySync(st *ApplyStream, tx *binlog.Transaction) (Result, error) {
	if st != nil && st.failed.Load() {
		return Result{}, errStreamStopped
	}
	res, err := e.applySync(tx)
	if err != nil && st != nil {
		st.failed.Store(true)
	}
	return res, err
}

func (e *Engine) applySync(tx *binlog.Transaction) (Result, error) {
	for _, ev := range tx.Events {
		q, ok := ev.(*binlog.QueryEvent)
		if !ok {
			continue
		}
		verb, name, ok := schemaDDLName(q.SQL)
		if !ok {
			continue
		}
		if verb == "CREATE" {
			return Result{GTID: tx.GTID}, e.createSchema(name, false, tx)
		}
		return Result{GTID: tx.GTID}, e.dropSchema(name, true, tx)
	}
	t := e.Begin(0)
	for _, name := range tx.Schemas {
		l, err := t.leaseFor(name)
		if err != nil {
			t.Rollback()
			return Result{}, err
		}
		if err := l.w.applyEvents(tx.Events); err != nil {
			t.Rollback()
			return Result{}, err
		}
		l.events = append(l.events, eventsOf(tx.Events, name)...)
	}
	return t.commitAs(tx)
}

func eventsOf(evs []binlog.Event, schema string) []binlog.Event {
	var out []binlog.Event
	for _, ev := range evs {
		switch e := ev.(type) {
		case *binlog.RowsEvent:
			if e.Schema == schema {
				out = append(out, e)
			}
		case *binlog.QueryEvent:
			if e.Schema == schema {
				out = append(out, e)
			}
		}
	}
	return out
}
