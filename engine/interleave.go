package engine

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// Explicit transactions interleaved on the writer (docs/transactions.md): each
// statement of a transaction is a job like an autocommit statement; row locks
// (rowlocks.go) keep open transactions apart; a statement that meets another
// transaction's lock is undone and parked until that transaction ends.

type txnOp uint8

const (
	txnStmt       txnOp = iota // a write
	txnRead                    // a read that must see the transaction's own changes
	txnCommit                  // COMMIT: join the next log group
	txnRollback                // ROLLBACK
	txnRollbackTo              // ROLLBACK TO SAVEPOINT name
	txnExternal                // the binary log holds the transaction (multi-schema COMMIT)
)

// txnJob is what a jobTxn carries.
type txnJob struct {
	op    txnOp
	part  *txnPart
	name  string    // savepoint
	gtid  gtid.GTID // txnExternal
	read  txnQuery  // txnRead
	reads []string  // txnStmt: the tables whose rows the statement reads beyond the rows it writes; nil: none
}

// txnQuery is a read inside a transaction.
type txnQuery struct {
	sql     string
	args    []any
	guard   *Guard
	tables  []string // nil: every table
	locking bool     // SELECT ... FOR UPDATE / FOR SHARE
}

// parkedJob waits for holder's end, or (holder nil) for the next storage commit.
type parkedJob struct {
	j      *job
	holder *txnPart
}

func errDeadlock() error {
	return mysqlerr.New(mysqlerr.ErLockDeadlock, "Deadlock found when trying to get lock; try restarting transaction")
}

func errRolledBack() error {
	return mysqlerr.New(mysqlerr.ErLockDeadlock, "Transaction was rolled back by storage; try restarting transaction")
}

// exclusive reports whether j needs the writer with no interleaved transaction
// open: DDL (MySQL's metadata lock), replicated transactions, calls, leases,
// unlogged statements (committed alone).
func exclusive(j *job) bool {
	switch j.kind {
	case jobExec:
		return len(j.stmt.DDL) > 0
	case jobApply, jobCall, jobLease, jobUnlogged:
		return true
	}
	return false
}

// holdExclusive queues j until no interleaved transaction is open.
func (w *writer) holdExclusive(j *job) {
	j.state.Store(jobPending)
	w.exclusive = append(w.exclusive, j)
}

// park makes j wait for c; a wait that closes a cycle of transactions fails j's
// transaction instead (1213), which is rolled back here.
func (w *writer) park(j *job, c conflict) {
	if x := j.txnPart(); x != nil && c.holder != nil {
		if err := w.s.e.locks.waitTxn(x.t, c.holder.t); err != nil {
			// The victim is the transaction whose request closes the cycle.
			w.killPart(x, err)
			w.replyTxn(j, outcome{err: err})
			return
		}
	}
	w.s.e.txnStats.waits.Add(1)
	w.s.e.txnStats.parked.Add(1)
	j.state.Store(jobPending)
	w.parked = append(w.parked, parkedJob{j: j, holder: c.holder})
}

func (j *job) txnPart() *txnPart {
	if j.kind == jobTxn {
		return j.txn.part
	}
	return nil
}

// wake makes the jobs parked on x (x nil: on the storage commit) ready to run again.
func (w *writer) wake(x *txnPart) {
	n := 0
	for _, p := range w.parked {
		if p.holder == x {
			if px := p.j.txnPart(); px != nil {
				w.s.e.locks.doneWaiting(px.t)
			}
			w.ready = append(w.ready, p.j)
			continue
		}
		w.parked[n] = p
		n++
	}
	w.s.e.txnStats.parked.Add(int64(n - len(w.parked)))
	clear(w.parked[n:])
	w.parked = w.parked[:n]
	if len(w.locks.open) == 0 && len(w.exclusive) > 0 {
		w.ready = append(w.ready, w.exclusive...)
		clear(w.exclusive)
		w.exclusive = w.exclusive[:0]
	}
}

func (w *writer) replyTxn(j *job, o outcome) { j.done <- o }

// runTxnJob runs a jobTxn.
func (w *writer) runTxnJob(j *job) {
	x := j.txn.part
	if x.killed != nil {
		if j.txn.op == txnRollback {
			w.replyTxn(j, outcome{})
			return
		}
		w.replyTxn(j, outcome{err: x.killed})
		return
	}
	if !x.joined {
		if j.txn.op != txnStmt && j.txn.op != txnRead {
			w.replyTxn(j, outcome{})
			return
		}
		if len(w.exclusive) > 0 {
			w.holdExclusive(j) // behind DDL waiting for the open transactions
			return
		}
		w.locks.join(x)
		x.joined = true
	}
	switch j.txn.op {
	case txnStmt:
		w.execTxnStmt(j)
	case txnRead:
		w.txnQuery(j)
	case txnCommit:
		w.commitPart(j)
	case txnRollback:
		err := w.rollbackPart(x)
		w.replyTxn(j, outcome{err: err})
	case txnRollbackTo:
		w.replyTxn(j, outcome{err: w.rollbackPartTo(x, j.txn.name)})
	case txnExternal:
		w.externalCommit(j)
	}
}

// statementReads are the tables whose every row a statement of r may read, for
// rule 2: nil when it reads only the rows it writes.
func (w *writer) statementReads(st *Stmt) []string {
	var reads []string
	if !st.Point && !st.Values {
		reads = append(reads, st.Tables...)
	}
	if len(st.Tables) > 0 {
		reads = w.cap.cat.fkNeighbours(st.Tables[0], reads)
	}
	return reads
}

// pointKeys are the lock keys a point statement locates its row by.
func pointKeys(st *Stmt) []lockKey {
	if !st.Point || len(st.Tables) == 0 || len(st.Key) == 0 {
		return nil
	}
	return []lockKey{pointKey(st.Tables[0], st.Key)}
}

// execTxnStmt runs a write of an open transaction.
func (w *writer) execTxnStmt(j *job) {
	x := j.txn.part
	st := &j.stmt
	reads := w.statementReads(st)
	if c, bad := w.locks.check(x, pointKeys(st), reads); bad {
		w.park(j, c)
		return
	}
	if err := w.begin(); err != nil {
		w.replyTxn(j, outcome{err: err})
		return
	}
	if err := w.openGroup(); err != nil {
		w.replyTxn(j, outcome{err: err})
		return
	}
	if w.groupSP {
		w.txnInGroup = true // setAside would undo part of this transaction
	}
	if err := w.txn.exec(sqlTxnSavepoint); err != nil {
		w.replyTxn(j, outcome{err: fmt.Errorf("engine: statement savepoint: %w", err)})
		return
	}
	mark := len(x.events)
	res, err := w.runStmt(st, &x.events)
	if err != nil {
		if w.c.AutoCommit() {
			// Storage rolled everything back by itself (disk full, I/O error).
			w.storageRolledBack(err)
			w.replyTxn(j, outcome{err: err})
			return
		}
		w.undoTxnStmt(x, mark)
		if errors.Is(err, errCapture) {
			w.killPart(x, err)
			w.replyTxn(j, outcome{err: err})
			return
		}
		if c, wait := w.keyErrorWait(x, st, err); wait {
			w.park(j, c)
			return
		}
		w.replyTxn(j, outcome{err: err})
		return
	}
	w.keys = w.keyer().keys(x.events[mark:], w.keys[:0])
	if c, bad := w.locks.check(x, w.keys, nil); bad {
		w.undoTxnStmt(x, mark)
		w.park(j, c)
		return
	}
	if err := w.txn.exec(sqlTxnRelease); err != nil {
		w.killPart(x, err)
		w.replyTxn(j, outcome{err: err})
		return
	}
	w.locks.take(x, w.keys, mark, len(x.events))
	w.replyTxn(j, outcome{res: res})
}

// undoTxnStmt undoes a statement of x run inside sqlTxnSavepoint.
func (w *writer) undoTxnStmt(x *txnPart, mark int) {
	clear(x.events[mark:])
	x.events = x.events[:mark]
	w.txn.exec(sqlTxnRollback)
	w.txn.exec(sqlTxnRelease)
}

// keyErrorWait decides whether a duplicate-key or foreign key error may be due to
// another transaction's uncommitted (or not yet stored) rows: then the statement
// waits for it and runs again, as InnoDB makes it wait on that row's lock.
func (w *writer) keyErrorWait(x *txnPart, st *Stmt, err error) (conflict, bool) {
	switch mysqlerr.From(err).Code {
	case mysqlerr.ErDupEntry, mysqlerr.ErNoReferencedRow, mysqlerr.ErRowIsReferenced:
	default:
		return conflict{}, false
	}
	tables := st.Tables
	if len(tables) > 0 {
		tables = w.cap.cat.fkNeighbours(tables[0], slices.Clone(tables))
	}
	return w.locks.check(x, nil, tables)
}

// keyer is the writer's lock-key encoder over its current catalog.
func (w *writer) keyer() *keyer {
	w.keyEnc.cat = w.cap.cat
	return &w.keyEnc
}

// txnQuery reads inside x on the writer: its own changes and the latest stored
// rows, once no other transaction holds changes in the tables read (rule 3).
func (w *writer) txnQuery(j *job) {
	x, q := j.txn.part, &j.txn.read
	tables := q.tables
	if tables == nil {
		tables = w.allTables()
	}
	if c, bad := w.locks.check(x, nil, tables); bad {
		w.park(j, c)
		return
	}
	if err := w.begin(); err != nil {
		w.replyTxn(j, outcome{err: err})
		return
	}
	if err := q.guard.check(w.s.e, w.c, w.s.name); err != nil {
		w.replyTxn(j, outcome{err: err})
		return
	}
	rows, err := queryConn(w.c, q.sql, q.args, w.s.name)
	if err == nil && q.locking {
		for _, t := range q.tables {
			w.locks.lockTable(x, t)
		}
	}
	w.replyTxn(j, outcome{rows: rows, err: err})
}

func (w *writer) allTables() []string {
	out := make([]string, 0, len(w.cap.cat))
	for name := range w.cap.cat {
		out = append(out, name)
	}
	return out
}

// commitPart commits x: its events become one member of the open group.
func (w *writer) commitPart(j *job) {
	x := j.txn.part
	if len(x.events) == 0 {
		w.endPart(x, false)
		w.replyTxn(j, outcome{})
		return
	}
	if w.groupSP || len(w.pipe.sealed) > 0 {
		w.txnInGroup = true
	}
	if w.pipe.inFlight == nil && len(w.pipe.sealed) == 0 {
		// No group ahead: the group this member opens holds the statements that
		// follow; nothing to keep apart from setAside.
		w.txnInGroup = w.groupSP
	}
	pend := w.endPart(x, true)
	w.join(member{events: x.events, reply: j.reply(), pend: pend})
}

// endPart ends x's life on the writer and wakes what waited for it.
func (w *writer) endPart(x *txnPart, committed bool) (pending []lockKey) {
	pending = w.locks.release(x, committed)
	w.wake(x)
	w.s.e.locks.doneWaiting(x.t)
	if !committed && len(w.locks.open) == 0 && w.onlyTxns() && w.inTxn {
		// Nothing but undone changes of ended transactions in the SQLite
		// transaction: end it cheaply.
		w.rollback()
	}
	return pending
}

// onlyTxns reports whether the open SQLite transaction holds nothing but the
// changes of open interleaved transactions (no group, nothing logged or held).
func (w *writer) onlyTxns() bool {
	return len(w.group) == 0 && len(w.answers) == 0 && len(w.pipe.sealed) == 0 && w.pipe.inFlight == nil
}

// rollbackPart undoes x's changes (inverse row images, newest first) and ends it.
func (w *writer) rollbackPart(x *txnPart) error {
	w.undoneInGroup()
	var err error
	if len(w.locks.open) == 1 && w.onlyTxns() {
		w.rollback() // x's changes are all the SQLite transaction holds
	} else {
		err = w.undoEvents(x.events)
	}
	clear(x.events)
	x.events = x.events[:0]
	w.endPart(x, false)
	if err != nil {
		w.s.e.fatal(fmt.Errorf("engine: rollback of a transaction on %s: %w", w.s.name, err))
	}
	return err
}

// rollbackPartTo undoes x's changes after savepoint name.
func (w *writer) rollbackPartTo(x *txnPart, name string) error {
	mark, ok := x.marks[name]
	if !ok || mark > len(x.events) {
		return nil
	}
	w.undoneInGroup()
	if err := w.undoEvents(x.events[mark:]); err != nil {
		w.killPart(x, err)
		return err
	}
	w.locks.cut(x, mark)
	clear(x.events[mark:])
	x.events = x.events[:mark]
	return nil
}

// undoneInGroup notes that a transaction's changes are being undone inside the
// open group's savepoint: rolling the group back (setAside) would bring them
// back, so the group must follow the sealed ones to the log instead.
func (w *writer) undoneInGroup() {
	if w.groupSP {
		w.txnInGroup = true
	}
}

// killPart rolls x back on the writer's behalf (deadlock victim, failure): its
// later statements and its COMMIT fail with err.
func (w *writer) killPart(x *txnPart, err error) {
	if x.ended {
		return
	}
	if uerr := w.rollbackPart(x); uerr != nil {
		err = uerr
	}
	x.killed = err
}

// undoEvents applies the inverse of evs, last change first, without capture and
// without ON UPDATE or foreign key actions: the row locks guarantee nobody else
// changed these rows since.
func (w *writer) undoEvents(evs []binlog.Event) error {
	w.c.replaying.Store(true)
	defer w.c.replaying.Store(false)
	for i := len(evs) - 1; i >= 0; i-- {
		re, ok := evs[i].(*binlog.RowsEvent)
		if !ok {
			return fmt.Errorf("engine: undo of a non-row event on %s", w.s.name)
		}
		inv := &binlog.RowsEvent{Schema: re.Schema, Table: re.Table, Columns: re.Columns, PK: re.PK, Rows: make([]binlog.RowChange, len(re.Rows))}
		for k, rc := range re.Rows {
			r := &inv.Rows[len(re.Rows)-1-k]
			r.Before, r.After = rc.After, rc.Before
			switch rc.Op {
			case binlog.OpInsert:
				r.Op = binlog.OpDelete
			case binlog.OpDelete:
				r.Op = binlog.OpInsert
			default:
				r.Op = binlog.OpUpdate
			}
		}
		if err := w.applySQL.applyRows(inv); err != nil {
			return fmt.Errorf("engine: undo on %s.%s: %w", w.s.name, re.Table, err)
		}
	}
	return nil
}

// redoEvents applies evs again (after a storage commit they were taken out of).
func (w *writer) redoEvents(evs []binlog.Event) error {
	w.c.replaying.Store(true)
	defer w.c.replaying.Store(false)
	for _, ev := range evs {
		if err := w.applySQL.applyRows(ev.(*binlog.RowsEvent)); err != nil {
			return fmt.Errorf("engine: redo on %s: %w", w.s.name, err)
		}
	}
	return nil
}

// takeOutOpen undoes every open transaction's changes, newest statement first,
// before a storage commit (rule 4); it reports whether there were any.
func (w *writer) takeOutOpen(keep *txnPart) (bool, error) {
	j := w.locks.journal
	if len(j) == 0 {
		return false, nil
	}
	w.s.e.txnStats.takenOut.Add(1)
	for i := len(j) - 1; i >= 0; i-- {
		if s := j[i]; s.x != keep {
			if err := w.undoEvents(s.x.events[s.from:s.to]); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// putBackOpen applies the open transactions' changes again after the storage
// commit, in the order they ran, with the AUTO_INCREMENT values they took kept.
func (w *writer) putBackOpen(keep *txnPart) error {
	if err := w.begin(); err != nil {
		return err
	}
	for _, s := range w.locks.journal {
		if s.x != keep {
			if err := w.redoEvents(s.x.events[s.from:s.to]); err != nil {
				return err
			}
		}
	}
	for table, n := range w.autoIncCounter {
		if err := keepAutoInc(w.c, table, n); err != nil {
			return fmt.Errorf("engine: AUTO_INCREMENT of %s after a storage commit: %w", table, err)
		}
	}
	return nil
}

// killAll rolls back every open interleaved transaction with err: storage lost
// or must lose their changes. undo false: their changes are gone already.
func (w *writer) killAll(err error, undo bool) {
	for len(w.locks.open) > 0 {
		x := w.locks.open[len(w.locks.open)-1]
		if undo {
			w.killPart(x, err)
		} else {
			clear(x.events)
			x.events = x.events[:0]
			w.locks.release(x, false)
			w.wake(x)
			w.s.e.locks.doneWaiting(x.t)
			x.killed = err
		}
	}
}

// extHold is a writer held for the commit of a transaction on several schemas:
// from before the binary log has it until this schema stores it, nothing else
// commits here, so the schema's applied high-water mark stays exact (recovery
// re-applies the transaction here if a crash comes first).
type extHold struct {
	end chan extEnd
}

type extEnd struct {
	gtid  gtid.GTID
	ok    bool // false: the log refused it; roll back
	reply chan outcome
}

// externalCommit holds the writer for x's multi-schema commit: the groups ahead
// of it are committed first, then it waits for the binary log's verdict and
// stores x alone, the other open transactions taken out and put back.
func (w *writer) externalCommit(j *job) {
	x := j.txn.part
	w.flush()
	h := &extHold{end: make(chan extEnd)}
	w.replyTxn(j, outcome{hold: h})
	e := <-h.end
	if !e.ok {
		err := w.rollbackPart(x)
		e.reply <- outcome{err: err}
		return
	}
	took, err := w.takeOutOpen(x)
	if err == nil {
		err = w.commitWith([]*binlog.Transaction{{GTID: e.gtid}})
	}
	if err == nil && took {
		err = w.putBackOpen(x)
	}
	w.locks.release(x, false)
	w.wake(x)
	w.s.e.locks.doneWaiting(x.t)
	if err != nil {
		w.s.e.fatal(err)
		e.reply <- outcome{err: err}
		return
	}
	e.reply <- outcome{res: Result{GTID: e.gtid}}
}

func (h *extHold) finish(g gtid.GTID, ok bool) outcome {
	reply := make(chan outcome, 1)
	h.end <- extEnd{gtid: g, ok: ok, reply: reply}
	return <-reply
}

// tryInlineTxn runs j on the calling goroutine when the writer is idle and j's
// transaction is the only one open there: nothing can make it wait.
func (w *writer) tryInlineTxn(j *job) (o outcome, ok bool) {
	if !w.own.TryLock() {
		return outcome{}, false
	}
	if w.lastGroup > 1 || len(w.jobs) > 0 || len(w.ready) > 0 || len(w.later) > 0 || len(w.parked) > 0 || len(w.exclusive) > 0 ||
		w.locks.others(j.txn.part) || len(w.locks.pending) > 0 || len(w.locks.pendingTables) > 0 {
		w.own.Unlock()
		return outcome{}, false
	}
	if j.done == nil {
		j.done = make(chan outcome, 1)
	}
	w.runTxnJob(j)
	if j.txn.op == txnCommit && len(w.group) > 0 {
		w.flush()
	}
	w.own.Unlock()
	// Parked after all (nothing else open makes that unlikely): the writer
	// goroutine runs it again and answers.
	return <-j.done, true
}

// markPending records what an autocommit member changed as not yet durable and
// returns the keys for the member.
func (w *writer) markPending(evs []binlog.Event) []lockKey {
	var keys []lockKey
	if len(w.locks.open) > 0 {
		keys = w.keyer().keys(evs, nil)
	} else {
		for _, ev := range evs {
			if re, ok := ev.(*binlog.RowsEvent); ok && (len(keys) == 0 || keys[len(keys)-1].table != re.Table) {
				keys = append(keys, lockKey{re.Table, tableLock})
			}
		}
	}
	w.locks.addPendingKeys(keys)
	return keys
}

// groupDurable releases the pending rows of g's members: the log holds them.
func (w *writer) groupDurable(g *logGroup) {
	released := false
	for _, m := range g.members {
		if len(m.pend) > 0 {
			w.locks.durable(m.pend)
			released = true
		}
	}
	if released {
		w.wake(nil)
	}
}

// TxnStats counts what interleaved explicit transactions did, over all schemas.
type TxnStats struct {
	// Waits are statements parked on a row lock, a busy table or a storage
	// commit; TakenOut are storage commits that undid and redid open
	// transactions' changes around them.
	Waits, TakenOut uint64
}

type txnCounters struct {
	waits, takenOut atomic.Uint64
	// parked is how many statements are parked on a lock now (a statement given
	// up at the lock wait timeout counts until its holder ends).
	parked atomic.Int64
}

// TxnStats returns the interleaved transactions' counters.
func (e *Engine) TxnStats() TxnStats {
	return TxnStats{Waits: e.txnStats.waits.Load(), TakenOut: e.txnStats.takenOut.Load()}
}
