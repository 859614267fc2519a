package engine

import (
	"sync"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// Worker is one applier worker slot (replica_parallel_workers). A schema's writer holds
// a worker while it applies a run of replicated transactions and releases it when that
// run is committed, so the number of schemas applying at once is at most the number of
// workers; with one worker the stream is applied schema run by schema run, as MySQL's
// single SQL thread does, but each run still commits as one SQLite transaction.
type Worker struct {
	ID int

	mu        sync.Mutex
	st        WorkerStatus
	schemaNow string
}

// WorkerStatus is what performance_schema.replication_applier_status_by_worker shows.
// Commit timestamps are the source's, in µs since the epoch (0 = none); apply times
// are this node's (zero = none).
type WorkerStatus struct {
	ID          int
	Schema      string // schema being applied ("" when idle)
	Applying    gtid.GTID
	LastApplied gtid.GTID
	LastErrno   uint16
	LastError   string
	Applied     uint64

	ApplyingOriginalUS, ApplyingImmediateUS uint64
	ApplyingStart                           time.Time
	LastOriginalUS, LastImmediateUS         uint64
	LastStart, LastEnd                      time.Time
}

// Status returns a snapshot.
func (w *Worker) Status() WorkerStatus {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.st
	st.ID = w.ID
	st.Schema = w.schemaNow
	return st
}

func (w *Worker) start(schema string, tx *binlog.Transaction) {
	w.mu.Lock()
	w.schemaNow = schema
	w.applyingLocked(tx)
	w.mu.Unlock()
}

// applying moves the worker on to the next transaction of the run it applies.
func (w *Worker) applying(tx *binlog.Transaction) {
	w.mu.Lock()
	w.applyingLocked(tx)
	w.mu.Unlock()
}

func (w *Worker) applyingLocked(tx *binlog.Transaction) {
	w.st.Applying, w.st.ApplyingStart = tx.GTID, time.Now()
	w.st.ApplyingOriginalUS, w.st.ApplyingImmediateUS = tx.OriginalCommitUS, tx.ImmediateCommitUS
}

// lastApplied is what the status keeps of a run's last transaction: its GTID, the
// source's commit timestamps and when its apply began.
type lastApplied struct {
	gtid                    gtid.GTID
	originalUS, immediateUS uint64
	start                   time.Time
}

// applied counts a committed run of n transactions, last being its last one.
func (w *Worker) applied(n uint64, last *lastApplied) {
	w.mu.Lock()
	w.st.Applied += n
	w.st.LastApplied = last.gtid
	w.st.LastOriginalUS, w.st.LastImmediateUS = last.originalUS, last.immediateUS
	w.st.LastStart, w.st.LastEnd = last.start, time.Now()
	w.mu.Unlock()
}

// startedAt is when the worker began applying its current transaction.
func (w *Worker) startedAt() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.st.ApplyingStart
}

func (w *Worker) idleNow() {
	w.mu.Lock()
	w.st.Applying, w.schemaNow = gtid.GTID{}, ""
	w.st.ApplyingOriginalUS, w.st.ApplyingImmediateUS, w.st.ApplyingStart = 0, 0, time.Time{}
	w.mu.Unlock()
}

func (w *Worker) failed(g gtid.GTID, code uint16, msg string) {
	w.mu.Lock()
	w.st.LastErrno, w.st.LastError, w.st.Applying = code, msg, g
	w.mu.Unlock()
}

// NewApplyStream makes a stream applied by n workers (n <= 0 means one: the
// coordinator alone).
func NewApplyStream(n int) *ApplyStream {
	if n <= 0 {
		n = 1
	}
	st := &ApplyStream{idle: make(chan *Worker, n), done: make(chan struct{}, 1)}
	for i := 1; i <= n; i++ {
		w := &Worker{ID: i}
		st.workers = append(st.workers, w)
		st.idle <- w
	}
	return st
}

// Workers lists the stream's workers.
func (st *ApplyStream) Workers() []*Worker { return st.workers }

// takeWorker waits for a worker slot of the job's stream unless this writer holds one.
func (w *writer) takeWorker(j *job) {
	if w.worker != nil && w.workerStream != j.stream {
		w.flush() // another channel's run: commit it and give its worker back first
	}
	if j.stream == nil || j.stream.idle == nil || w.worker != nil {
		if w.worker != nil {
			w.worker.applying(j.apply)
		}
		return
	}
	select {
	case w.worker = <-j.stream.idle:
	default:
		// Every slot is taken: writers holding runs open must commit them now.
		j.stream.slotWaiters.Add(1)
		j.stream.kick()
		w.worker = <-j.stream.idle
		j.stream.slotWaiters.Add(-1)
	}
	w.workerStream = j.stream
	w.worker.start(w.s.name, j.apply)
}

// releaseWorker hands the slot back once the run it applied is committed.
func (w *writer) releaseWorker() {
	if w.worker == nil {
		return
	}
	w.worker.idleNow()
	w.workerStream.idle <- w.worker
	w.worker, w.workerStream, w.workerCount, w.workerLast = nil, nil, 0, nil
}
