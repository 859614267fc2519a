package engine

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/preupdate"
	"github.com/binlite/binlite/sqlitec"
)

type jobKind uint8

const (
	jobExec     jobKind = iota // an autocommit statement (DML or DDL)
	jobLease                   // an explicit transaction takes the writer
	jobApply                   // a replicated transaction with its source GTID
	jobCall                    // run a function with the group flushed and no transaction open
	jobStop                    // flush and close the writer
	jobTxn                     // a statement, read or end of an interleaved explicit transaction
	jobUnlogged                // an autocommit statement under sql_log_bin=0 (unlogged.go)
)

const (
	jobPending int32 = iota
	jobTaken
	jobCancelled
)

type job struct {
	kind   jobKind
	state  atomic.Int32
	stmt   Stmt
	txn    txnJob
	apply  *binlog.Transaction
	stream *ApplyStream
	call   func(c *sqliteConn) error
	done   chan outcome
	// timer bounds the submitter's wait (lock wait timeout); kept with the job when
	// the job is reused (Engine.Exec).
	timer *time.Timer
	// A job of an apply stream is answered in place instead of through done: out,
	// then fin; its coordinator is woken only while it waits (ApplyStream.finished).
	// That saves a channel and two channel operations per replicated transaction.
	out outcome
	fin atomic.Bool
}

// replyTo is where an outcome goes: a channel, or an apply stream's job.
type replyTo struct {
	ch chan outcome
	j  *job
}

func (r replyTo) send(o outcome) {
	if r.j != nil {
		r.j.out = o
		r.j.fin.Store(true)
		r.j.stream.finished()
		return
	}
	r.ch <- o
}

func (j *job) reply() replyTo {
	if j.done == nil && j.stream != nil {
		return replyTo{j: j}
	}
	return replyTo{ch: j.done}
}

type outcome struct {
	res   Result
	rows  *Rows
	hold  *extHold
	err   error
	lease *lease
}

type deferred struct {
	reply replyTo
	o     outcome
}

// member is one MySQL transaction inside the writer's open group.
type member struct {
	tx     *binlog.Transaction // a replicated transaction (its GTID kept), logged as it came
	events []binlog.Event      // otherwise: the captured events (the binary log assigns the GTID)
	res    Result
	reply  replyTo
	// pend are its rows' lock keys, pending until its group is durable.
	pend []lockKey
}

// writer owns the single write connection of a schema. Its goroutine executes jobs;
// consecutive autocommit statements share one SQLite transaction (the group) and one
// binary-log write, and are answered together once both are durable/committed.
type writer struct {
	s     *Schema
	c     *sqliteConn
	cap   capture
	jobs  chan *job
	dead  chan struct{} // closed when the goroutine has exited
	inTxn bool
	// own is the right to drive c and the writer's state: the writer goroutine's
	// except while it waits idle, when a lone client's session may take it
	// (inline.go).
	own sync.Mutex
	// group is the open group: transactions executed in the open SQLite transaction
	// and not yet sealed for the binary log. Its backing array is reused.
	group []member
	// pipe is the commit pipeline (pipeline.go): the groups of the open transaction
	// already sealed. toLog and fromLog connect the writer with its log stage
	// (logstage.go); spare keeps ended log groups for reuse, commitTxs the slice a
	// commit gathers their transactions in.
	pipe       pipeline
	toLog      chan *logGroup
	fromLog    chan *logGroup
	logStopped chan struct{}
	spare      []*logGroup
	commitTxs  []*binlog.Transaction
	// draining: flush is emptying the pipeline, so groups are logged inline.
	draining bool
	// groupSP: the open group began behind sealed groups, inside savepoint
	// binlite_group; answersMark is len(answers) when it began (openGroup).
	groupSP     bool
	answersMark int
	// schemas is the Schemas list of the transactions this writer logs.
	schemas []string
	// answers are statements of the open group that changed nothing or failed. They
	// are answered only when the group commits: "duplicate key" or "0 rows" may be
	// due to another member's uncommitted row, which must not be revealed before it is
	// durable (with row locks MySQL would have made them wait the same way).
	answers []deferred
	// lastGroup is the size of the last committed group, backlog the jobs that queued
	// meanwhile, and groupStart when the open group got its first member (see gather).
	lastGroup   int
	backlog     int // jobs queued when the last group finished committing
	groupStart  time.Time
	gatherTimer *time.Timer
	// applySQL caches the statements that apply row events, per table and shape;
	// txn those that begin and commit transactions. Both use the connection's
	// direct handle.
	applySQL applyCache
	txn      txnStmts
	// worker is the applier worker slot held while this writer applies a run of a
	// stream's transactions; released when the run is committed.
	worker       *Worker
	workerStream *ApplyStream
	workerCount  uint64
	workerLast   *lastApplied // the run's last transaction
	// waited counts coordinators waiting for one of this writer's applies: the
	// writer then commits its run instead of holding it open (holdRun).
	waited atomic.Int32
	// autoIncCounter is, per table (lower case), the highest AUTO_INCREMENT value
	// used or reserved, while the writer knows it (autoinc.go).
	autoIncCounter map[string]int64
	// Interleaved explicit transactions (interleave.go, rowlocks.go): the lock
	// table; jobs parked on a lock, ready to run again, or held until no
	// transaction is open (exclusive); txnInGroup: a transaction's changes lie in
	// the open group's savepoint, so the group cannot be set aside.
	locks      rowLocks
	parked     []parkedJob
	ready      []*job
	later      []*job // taken while the pipeline was full (commit.go's next)
	exclusive  []*job
	txnInGroup bool
	keyEnc     keyer
	keys       []lockKey
}

func newWriter(s *Schema, c *sqliteConn, cat catalog) (*writer, error) {
	rec, err := preupdate.Install(c.SQLiteConn)
	if err != nil {
		return nil, err
	}
	direct, err := sqlitec.Open(c.SQLiteConn)
	if err != nil {
		rec.Close()
		return nil, err
	}
	w := &writer{s: s, c: c, jobs: make(chan *job, 4096), dead: make(chan struct{}), schemas: []string{s.name}}
	w.own.Lock() // the creator's (recovery) until run takes over; see inline.go
	w.cap = capture{schema: s.name, cat: cat, rec: rec}
	w.applySQL.c = direct
	w.txn.c = direct
	w.applySQL.table = func(name string) *Table { return w.cap.cat[name] }
	return w, nil
}

// close removes the capture hook and closes the connection.
func (w *writer) close() error {
	w.txn.close()
	w.applySQL.close()
	w.cap.rec.Close()
	return w.c.Close()
}

// submit queues j and waits for its outcome, giving up after wait (lock wait timeout)
// if the writer has not started it by then. The job may be reused (its channel and
// timer with it) unless it was given up while queued: see reusable.
func (w *writer) submit(j *job, wait time.Duration) outcome {
	if j.done == nil {
		j.done = make(chan outcome, 1)
	}
	select {
	case w.jobs <- j:
	case <-w.dead:
		return outcome{err: unknownDB(w.s.name)}
	}
	var timeout <-chan time.Time
	if wait > 0 {
		if j.timer == nil {
			j.timer = time.NewTimer(wait)
		} else {
			j.timer.Reset(wait) // Go 1.23+: no stale tick survives Stop or Reset
		}
		defer j.timer.Stop()
		timeout = j.timer.C
	}
	for {
		select {
		case o := <-j.done:
			return o
		case <-timeout:
			if j.state.CompareAndSwap(jobPending, jobCancelled) {
				return outcome{err: mysqlerr.New(mysqlerr.ErLockWaitTimeout, "Lock wait timeout exceeded; try restarting transaction")}
			}
			timeout = nil // already running: its answer is coming
		case <-w.dead:
			if j.state.CompareAndSwap(jobPending, jobCancelled) {
				return outcome{err: unknownDB(w.s.name)}
			}
			return <-j.done
		}
	}
}

// reusable reports whether a submitted job may be submitted again: one given up
// while queued stays in the writer's queue until the writer drops it.
func (j *job) reusable() bool { return j.state.Load() != jobCancelled }

func (w *writer) run() {
	defer close(w.dead)
	w.startLogStage()
	w.pipe.depth = w.s.e.pipelineDepth()
	w.pipe.always = w.s.e.alwaysOverlap()
	maxGroup := w.s.e.opts.MaxGroup
	for {
		j := w.next(maxGroup)
		if j == nil || !j.state.CompareAndSwap(jobPending, jobTaken) {
			continue
		}
		if len(w.locks.open) > 0 && exclusive(j) {
			w.holdExclusive(j)
			continue
		}
		switch j.kind {
		case jobTxn:
			w.runTxnJob(j)
		case jobExec:
			w.execStmt(j)
		case jobUnlogged:
			w.execUnlogged(j)
		case jobApply:
			w.applyTxn(j)
		case jobLease:
			w.runLease(j)
		case jobCall:
			w.flush()
			j.done <- outcome{err: j.call(w.c)}
		case jobStop:
			w.killAll(mysqlerr.New(mysqlerr.ErServerShutdown, "Server shutdown in progress"), true)
			w.flush()
			w.stopLogStage()
			err := w.close()
			j.done <- outcome{err: err}
			return
		}
		if w.pipe.inFlight == nil && len(w.group)+len(w.answers) >= maxGroup {
			w.seal()
		}
	}
}

func (w *writer) begin() error {
	if w.inTxn {
		return nil
	}
	if err := w.txn.exec(sqlBegin); err != nil {
		return fmt.Errorf("engine: begin on %s: %w", w.s.name, err)
	}
	w.inTxn = true
	return nil
}

// runStmt executes one statement on the writer connection with capture into evs.
// DDL runs inside a savepoint so its several SQLite statements apply all or nothing.
// An error wrapping errCapture means storage holds changes the binary log would not:
// the caller must roll the whole SQLite transaction back.
func (w *writer) runStmt(st *Stmt, evs *[]binlog.Event) (Result, error) {
	if len(st.DDL) > 0 {
		return w.runDDL(st, evs)
	}
	if err := st.Guard.check(w.s.e, w.c, w.s.name); err != nil {
		return Result{}, err
	}
	mark := len(*evs)
	cs := w.c.state
	var aiTable *Table
	if st.AutoInc != nil {
		a, t, err := w.startAutoInc(st)
		if err != nil {
			return Result{}, err
		}
		cs.alloc, aiTable = a, t
	}
	cs.fkOff, cs.ignoring = st.NoFKChecks, st.RowsApart || ignoreStatement(st.SQL)
	cs.takeWarnings()
	w.cap.start()
	res, err := w.execAll(st)
	cc, cerr := w.cap.collect(evs)
	alloc := cs.alloc
	cs.alloc, cs.fkOff, cs.ignoring = nil, false, false
	lastID, lastIDSet := cs.takeLastID()
	warnings, lost := cs.takeWarnings()
	if cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		*evs = (*evs)[:mark]
		if errors.Is(err, errCapture) {
			return Result{}, err
		}
		err = translateError(err, w.s.name)
		if alloc != nil && !w.c.AutoCommit() {
			if kerr := w.failAutoInc(st, alloc, mysqlerr.From(err).Code); kerr != nil {
				return Result{}, kerr
			}
		}
		return Result{}, err
	}
	r := Result{Warnings: warnings, Counted: uint64(cs.counted)}
	n, _ := res.RowsAffected()
	r.AffectedRows, r.Written = uint64(n), uint64(n)
	if cc.logged {
		r.AffectedRows = cc.affected(st.Upsert)
		n = int64(cc.inserted)
	}
	if alloc != nil {
		if err := w.finishAutoInc(st, alloc, aiTable, (*evs)[mark:], n); err != nil {
			return Result{}, err
		}
	} else {
		w.forgetAutoInc((*evs)[mark:])
	}
	r.setInsertID(st, alloc, lastID, lastIDSet, w.autoIncValue(st, &cc))
	r.Warnings, r.LostWarnings = warnings, lost
	return r, nil
}

// execAll runs the SQLite statements of st: one, or several inside a savepoint
// so that a failure in any of them leaves nothing of the others.
func (w *writer) execAll(st *Stmt) (driver.Result, error) {
	if len(st.Then) == 0 && st.EachRow == "" && !st.RowsApart {
		return w.c.exec(st.SQL, st.Args...)
	}
	if _, err := w.c.exec(`SAVEPOINT binlite_stmt`); err != nil {
		return nil, fmt.Errorf("engine: statement savepoint: %w", err)
	}
	res, err := w.execSteps(st)
	if err != nil {
		w.c.execMore(`ROLLBACK TO binlite_stmt`)
		w.c.execMore(`RELEASE binlite_stmt`)
		return nil, err
	}
	if _, err := w.c.execMore(`RELEASE binlite_stmt`); err != nil {
		return nil, fmt.Errorf("engine: statement release: %w", err)
	}
	return res, nil
}

func (w *writer) execSteps(st *Stmt) (driver.Result, error) {
	if st.EachRow != "" {
		ids, err := w.c.rowids(st.EachRow, st.Args)
		if err != nil {
			return nil, err
		}
		var res driver.Result = driver.RowsAffected(0)
		args := append(slices.Clip(st.Args), nil)
		for _, id := range ids {
			args[len(args)-1] = id
			if res, err = w.c.execMore(st.SQL, args...); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	if st.RowsApart {
		return w.execRowsApart(st)
	}
	res, err := w.c.exec(st.SQL, st.Args...)
	for _, q := range st.Then {
		if err != nil {
			break
		}
		res, err = w.c.execMore(q, st.Args...)
	}
	return res, err
}

// execRowsApart writes an INSERT IGNORE's rows one by one (Stmt.RowsApart).
func (w *writer) execRowsApart(st *Stmt) (driver.Result, error) {
	var res driver.Result = driver.RowsAffected(0)
	for _, q := range append([]string{st.SQL}, st.Then...) {
		if _, err := w.c.execMore(`SAVEPOINT binlite_row`); err != nil {
			return nil, fmt.Errorf("engine: row savepoint: %w", err)
		}
		mark := w.cap.rec.Mark()
		r, err := w.c.execMore(q, st.Args...)
		if err == nil {
			res = r
			if _, err := w.c.execMore(`RELEASE binlite_row`); err != nil {
				return nil, fmt.Errorf("engine: row release: %w", err)
			}
			continue
		}
		me := mysqlerr.From(translateError(err, w.s.name))
		if me.Code != mysqlerr.ErCheckConstraint && me.Code != mysqlerr.ErNoReferencedRow {
			return nil, err
		}
		if _, rerr := w.c.execMore(`ROLLBACK TO binlite_row`); rerr != nil {
			return nil, fmt.Errorf("engine: row rollback: %w", rerr)
		}
		w.c.execMore(`RELEASE binlite_row`)
		w.cap.rec.Rewind(mark) // the refused row's changes are undone: none is logged
		w.c.state.warn(mysqlerr.Warning{Level: "Warning", Code: me.Code, Message: me.Message})
	}
	return res, nil
}

func (w *writer) runDDL(st *Stmt, evs *[]binlog.Event) (Result, error) {
	if _, err := w.c.exec(`SAVEPOINT binlite_ddl`); err != nil {
		return Result{}, fmt.Errorf("engine: ddl savepoint: %w", err)
	}
	undo := func(err error) (Result, error) {
		w.c.exec(`ROLLBACK TO binlite_ddl`)
		w.c.exec(`RELEASE binlite_ddl`)
		if rerr := resetAlterTable(w.c); rerr != nil {
			return Result{}, rerr
		}
		return Result{}, err
	}
	// DDL's own row changes (TRUNCATE's) run no foreign key checks or actions:
	// the session checked what MySQL refuses first.
	// Rows it copies keep the values they hold (binlite_lenient()).
	cs := w.c.state
	cs.fkOff, cs.ignoring, cs.strict = true, true, st.Strict
	defer func() { cs.fkOff, cs.ignoring, cs.strict = false, false, false }()
	var res Result
	for i, q := range st.DDL {
		r, err := w.c.exec(q)
		failed := cs.strictFailure() // the first value a strict ALTER cannot keep, before a later row's error
		warnings, lost := cs.takeWarnings()
		res.Warnings, res.LostWarnings = append(res.Warnings, warnings...), res.LostWarnings+lost
		switch {
		case failed != nil:
			return undo(failed)
		case err != nil:
			return undo(translateError(err, w.s.name))
		}
		if i+1 == st.Counted {
			n, _ := r.RowsAffected()
			res.AffectedRows = uint64(n)
		}
	}
	cat, err := w.loadCatalog()
	if err != nil {
		return undo(err)
	}
	var rows []binlog.Event
	if st.Insert != "" {
		if res, err = w.ddlInsert(st, cat, &rows); err != nil {
			if errors.Is(err, errCapture) {
				return Result{}, err
			}
			return undo(err)
		}
	}
	if _, err := w.c.exec(`RELEASE binlite_ddl`); err != nil {
		return Result{}, fmt.Errorf("engine: ddl release: %w", err)
	}
	w.useCatalog(cat)
	*evs = append(append((*evs)[:0], &binlog.QueryEvent{Schema: w.s.name, SQL: st.SQL}), rows...)
	return res, nil
}

// ddlInsert runs CREATE TABLE ... SELECT's INSERT with capture into rows, against
// cat, the catalog with the new table.
func (w *writer) ddlInsert(st *Stmt, cat catalog, rows *[]binlog.Event) (Result, error) {
	cs := w.c.state
	prev := w.cap.cat
	w.cap.cat = cat
	cs.fkOff, cs.ignoring, cs.strict = st.NoFKChecks, ignoreStatement(st.Insert), false
	cs.takeWarnings()
	w.cap.start()
	_, err := w.c.exec(st.Insert, st.Args...)
	cc, cerr := w.cap.collect(rows)
	warnings, lost := cs.takeWarnings()
	if err == nil {
		err = cerr
	}
	if err != nil {
		w.cap.cat = prev
		if errors.Is(err, errCapture) {
			return Result{}, err
		}
		return Result{}, translateError(err, w.s.name)
	}
	return Result{AffectedRows: uint64(cc.inserted), Warnings: warnings, LostWarnings: lost}, nil
}

// reloadCatalog reads the schema's tables again after DDL and makes its foreign
// key triggers match them.
func (w *writer) reloadCatalog() error {
	cat, err := w.loadCatalog()
	if err != nil {
		return err
	}
	w.useCatalog(cat)
	return nil
}

func (w *writer) loadCatalog() (catalog, error) {
	cat, err := loadCatalog(w.c)
	if err != nil {
		return nil, err
	}
	if err := syncForeignKeys(w.c, cat); err != nil {
		return nil, err
	}
	if err := syncTriggers(w.c, cat, w.s.name); err != nil {
		return nil, err
	}
	return cat, nil
}

func (w *writer) useCatalog(cat catalog) {
	clear(w.autoIncCounter) // TRUNCATE, ALTER TABLE ... AUTO_INCREMENT, DROP and RENAME set counters
	w.cap.cat = cat
	w.s.cat.Store(&cat)
	w.applySQL.reset() // tables may have new shapes
}

func (w *writer) execStmt(j *job) {
	if err := w.begin(); err != nil {
		j.done <- outcome{err: err}
		return
	}
	if err := w.openGroup(); err != nil {
		j.done <- outcome{err: err}
		return
	}
	if len(w.locks.open) > 0 {
		w.execBeside(j)
		return
	}
	var evs []binlog.Event
	res, err := w.runStmt(&j.stmt, &evs)
	if err != nil {
		if errors.Is(err, errCapture) {
			w.undoGroup(err)
			j.done <- outcome{err: err}
			return
		}
		if w.c.AutoCommit() {
			w.storageRolledBack(err)
		}
		w.answers = append(w.answers, deferred{j.reply(), outcome{err: err}})
		return
	}
	if len(evs) == 0 {
		w.answers = append(w.answers, deferred{j.reply(), outcome{res: res}})
		return
	}
	w.join(member{events: evs, res: res, reply: j.reply(), pend: w.markPending(evs)})
	if w.pipe.inFlight != nil {
		w.point(PointAhead)
	}
}

// execBeside runs an autocommit statement while explicit transactions are open:
// it must not read their uncommitted rows nor change the rows they locked, so it
// runs inside a savepoint and waits, undone, when it would (rules 1 and 2).
func (w *writer) execBeside(j *job) {
	st := &j.stmt
	if c, bad := w.locks.check(nil, pointKeys(st), w.statementReads(st)); bad {
		w.park(j, c)
		return
	}
	if err := w.txn.exec(sqlTxnSavepoint); err != nil {
		j.done <- outcome{err: fmt.Errorf("engine: statement savepoint: %w", err)}
		return
	}
	var evs []binlog.Event
	res, err := w.runStmt(st, &evs)
	if err != nil {
		if w.c.AutoCommit() {
			w.storageRolledBack(err)
			j.done <- outcome{err: err}
			return
		}
		w.txn.exec(sqlTxnRollback)
		w.txn.exec(sqlTxnRelease)
		if errors.Is(err, errCapture) {
			j.done <- outcome{err: err}
			return
		}
		if c, wait := w.keyErrorWait(nil, st, err); wait {
			w.park(j, c)
			return
		}
		w.answers = append(w.answers, deferred{j.reply(), outcome{err: err}})
		return
	}
	w.keys = w.keyer().keys(evs, w.keys[:0])
	if c, bad := w.locks.check(nil, w.keys, nil); bad {
		w.txn.exec(sqlTxnRollback)
		w.txn.exec(sqlTxnRelease)
		w.park(j, c)
		return
	}
	if err := w.txn.exec(sqlTxnRelease); err != nil {
		w.undoGroup(err)
		j.done <- outcome{err: err}
		return
	}
	if len(evs) == 0 {
		w.answers = append(w.answers, deferred{j.reply(), outcome{res: res}})
		return
	}
	pend := slices.Clone(w.keys)
	w.locks.addPendingKeys(pend)
	w.join(member{events: evs, res: res, reply: j.reply(), pend: pend})
	if w.pipe.inFlight != nil {
		w.point(PointAhead)
	}
}

// applyTxn applies a source's transaction (replica path); it joins the group with its GTID.
// After a failure in its stream, later transactions of the stream are refused unrun, so
// a schema never records a GTID beyond one it failed to apply.
func (w *writer) applyTxn(j *job) {
	if j.stream != nil && j.stream.failed.Load() {
		j.reply().send(outcome{err: errStreamStopped})
		return
	}
	if len(w.pipe.sealed) > 0 {
		// Replicated transactions are never overlapped with the log: a replica's
		// applier commits long runs (holdRun), so its log writes are few already, and
		// a run's worker slot, its stream's failure rule and commit order stay as
		// simple as one group per commit makes them.
		w.flush()
	}
	w.takeWorker(j)
	w.pipe.hasApply = true
	if err := w.begin(); err != nil {
		j.reply().send(outcome{err: err})
		return
	}
	// A single-row transaction needs no savepoint: SQLite undoes a failed statement by
	// itself. Larger ones must apply all or nothing inside the shared group.
	sp := rowCount(j.apply.Events) > 1
	if sp {
		if _, err := w.c.exec(`SAVEPOINT binlite_apply`); err != nil {
			j.reply().send(outcome{err: err})
			return
		}
	}
	if err := w.applyEvents(j.apply.Events); err != nil {
		if j.stream != nil {
			j.stream.failed.Store(true)
		}
		if w.worker != nil {
			me := mysqlerr.From(err)
			w.worker.failed(j.apply.GTID, me.Code, me.Message)
		}
		if sp {
			w.c.exec(`ROLLBACK TO binlite_apply`)
			w.c.exec(`RELEASE binlite_apply`)
		}
		if w.c.AutoCommit() {
			w.storageRolledBack(err)
		}
		j.reply().send(outcome{err: err})
		return
	}
	if sp {
		w.c.exec(`RELEASE binlite_apply`)
	}
	w.workerCount++
	if w.worker != nil {
		// Its commit timestamps now: this node's binary log write sets its own.
		w.workerLast = &lastApplied{gtid: j.apply.GTID, originalUS: j.apply.OriginalCommitUS,
			immediateUS: j.apply.ImmediateCommitUS, start: w.worker.startedAt()}
	}
	w.join(member{tx: j.apply, res: Result{GTID: j.apply.GTID}, reply: j.reply()})
}

func rowCount(evs []binlog.Event) int {
	n := 0
	for _, ev := range evs {
		switch e := ev.(type) {
		case *binlog.RowsEvent:
			n += e.RowCount()
		case *binlog.QueryEvent:
			n += 2 // DDL may be several SQLite statements
		}
	}
	return n
}

func (w *writer) applyEvents(evs []binlog.Event) error {
	clear(w.autoIncCounter) // the source's rows carry their ids
	w.c.replaying.Store(true)
	defer w.c.replaying.Store(false)
	for _, ev := range evs {
		switch e := ev.(type) {
		case *binlog.RowsEvent:
			if e.Schema != w.s.name {
				continue
			}
			if err := w.applySQL.applyRows(e); err != nil {
				return err
			}
		case *binlog.QueryEvent:
			if _, _, isSchemaDDL := schemaDDLName(e.SQL); e.Schema != w.s.name || isSchemaDDL {
				continue
			}
			stmts, err := w.s.e.translateDDL(e.Schema, e.SQL, w.s.TableDef)
			if err != nil {
				return err
			}
			for _, q := range stmts {
				if _, err := w.c.exec(q); err != nil {
					if rerr := resetAlterTable(w.c); rerr != nil {
						return rerr
					}
					return translateError(err, w.s.name)
				}
			}
			if err := w.reloadCatalog(); err != nil {
				return err
			}
		}
	}
	return nil
}

var errStreamStopped = errors.New("engine: not applied: an earlier transaction of the same stream failed")
