package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// How a writer's SQLite transaction reaches the binary log and storage; the
// pipeline's rules are in pipeline.go, the log stage in logstage.go.

// next returns the next job to run, or nil after it moved the pipeline on instead
// (sealed the open group, took the log stage's outcome, committed).
func (w *writer) next(maxGroup int) *job {
	if len(w.later) > 0 && (w.pipe.inFlight == nil || w.pipe.mayExecute(len(w.group)+len(w.answers), maxGroup)) {
		w.ready = append(w.later, w.ready...)
		w.later = nil
	}
	if w.pipe.inFlight != nil {
		select {
		case g := <-w.fromLog: // the log first: a sealed group's commit (or the next group's write) waits on it
			w.logged(g)
			return nil
		default:
		}
		if !w.pipe.mayExecute(len(w.group)+len(w.answers), maxGroup) {
			if len(w.locks.open) == 0 {
				w.logged(<-w.fromLog)
				return nil
			}
			// The pipeline is full, but statements of open transactions need no
			// group: they run; other jobs wait until it moves.
			select {
			case g := <-w.fromLog:
				w.logged(g)
				return nil
			case j := <-w.jobs:
				if j.kind == jobTxn && (j.txn.op == txnStmt || j.txn.op == txnRead) {
					return j
				}
				w.later = append(w.later, j)
				return nil
			}
		}
		if j := w.takeReady(); j != nil {
			return j
		}
		select {
		case g := <-w.fromLog:
			w.logged(g)
			return nil
		case j := <-w.jobs:
			return j
		}
	}
	if j := w.takeReady(); j != nil {
		return j
	}
	if len(w.group) == 0 && len(w.answers) == 0 && (!w.inTxn || len(w.locks.open) > 0 && w.onlyTxns()) {
		return w.idleWait()
	}
	select {
	case j := <-w.jobs:
		return j
	default:
	}
	if j := w.gather(); j != nil {
		return j
	}
	w.seal()
	return nil
}

// seal ends the open group: to the log stage while the writer executes the next
// group, or written inline; with nothing to log, the transaction commits.
func (w *writer) seal() {
	if len(w.group) == 0 {
		w.commit()
		return
	}
	if err := w.releaseGroupSavepoint(); err != nil {
		w.abort(err, err)
		return
	}
	w.txnInGroup = false
	g := w.takeGroup()
	// Open explicit transactions keep sending statements that need no group:
	// they run while the log writes (interleave.go).
	async := !w.draining && (w.pipe.overlapNext(len(g.members)) || len(w.locks.open) > 0 && w.pipe.room())
	w.pipe.seal(g, async)
	w.s.e.commits.logGroups.Add(1)
	if async {
		w.s.e.commits.overlapped.Add(1)
		w.toLog <- g
		return
	}
	w.writeLog(g)
	w.pipe.sawArrivals(len(w.jobs)) // what queued meanwhile could have run meanwhile
	w.logged(g)
}

// takeGroup turns the open group into a log group: the transactions to log, in
// the order their statements ran. Log groups and their slices are reused.
func (w *writer) takeGroup() *logGroup {
	var g *logGroup
	if n := len(w.spare); n > 0 {
		g, w.spare = w.spare[n-1], w.spare[:n-1]
	} else {
		g = &logGroup{}
	}
	g.members, w.group = w.group, g.members[:0]
	g.err, g.took = nil, 0
	n := len(g.members)
	if cap(g.store) < n {
		g.store = make([]binlog.Transaction, n)
	}
	g.store = g.store[:n]
	g.txs = g.txs[:0]
	for i, m := range g.members {
		if m.tx != nil {
			g.txs = append(g.txs, m.tx)
			continue
		}
		g.store[i] = binlog.Transaction{Schemas: w.schemas, Events: m.events}
		g.txs = append(g.txs, &g.store[i])
	}
	return g
}

// recycle keeps g for a later group, its members and transactions dropped.
func (w *writer) recycle(g *logGroup) {
	clear(g.members)
	g.members = g.members[:0]
	clear(g.txs)
	g.txs = g.txs[:0]
	clear(g.store)
	g.err = nil
	w.spare = append(w.spare, g)
}

// logged takes a group's outcome from the log stage (or the inline write): the
// open group follows it to the log, or the transaction commits.
func (w *writer) logged(g *logGroup) {
	if w.pipe.inFlight == g {
		_, open := w.waitingClients()
		w.pipe.sawArrivals(open + len(w.jobs))
	}
	w.pipe.done(g)
	if g.err == nil {
		w.groupDurable(g)
	}
	if g.err != nil {
		if binlog.IsDiskFull(g.err) && w.logFull(g) {
			return
		}
		w.abort(fmt.Errorf("binary log write failed: %w", g.err), mysqlerr.New(mysqlerr.ErErrorOnWrite, "Error writing binary log: %v", g.err))
		return
	}
	if len(w.group) > 0 {
		// Statements ran into the next group meanwhile: they follow to the log (the
		// pipeline's depth stopped execution in time) and all commit together, or,
		// when they are few, they are set aside and the sealed groups commit now.
		if w.draining || !w.groupSP || w.txnInGroup || w.pipe.chainOpen(w.waitingClients()) || !w.replayable(w.group) {
			w.seal()
		} else {
			w.setAside()
		}
		return
	}
	w.commit()
}

// waitingClients counts the clients the sealed groups hold (their statements and
// the deferred answers from before the open group) and those the open group holds.
func (w *writer) waitingClients() (sealed, open int) {
	for _, g := range w.pipe.sealed {
		sealed += len(g.members)
	}
	mark := len(w.answers) // no statement has run into the open group
	if w.groupSP {
		mark = w.answersMark
	}
	return sealed + mark, len(w.group) + len(w.answers) - mark
}

// setAside commits the sealed groups, now durable, without the open group: its
// statements are few next to theirs, and making the sealed groups' clients wait for
// its log write as well would cost them more than writing its rows twice. Its
// changes are undone (its savepoint), the sealed groups commit and are answered, and
// a new transaction begins with the open group's row events applied again. Those
// statements saw exactly the state that commit left, so their results, and the
// answers held with them, stand.
func (w *writer) setAside() {
	if err := w.undoOpenGroup(); err != nil {
		w.abort(err, err)
		return
	}
	mark := w.answersMark
	open, held := w.group, slices.Clone(w.answers[mark:])
	clear(w.answers[mark:])
	w.group, w.answers = nil, w.answers[:mark]
	ok := w.commit()
	w.group, w.answers = open, append(w.answers, held...)
	if !ok {
		err := mysqlerr.New(mysqlerr.ErErrorOnWrite, "storage commit failed; server stopping")
		w.failGroup(err)
		w.failAnswers(0, err)
		return
	}
	w.s.e.commits.setAside.Add(1)
	err := w.begin()
	if err == nil {
		err = w.replay(open)
	}
	if err != nil {
		// Nothing of the open group is logged or stored: its statements fail.
		w.rollback()
		w.failGroup(err)
		w.failAnswers(0, err)
		return
	}
	w.groupStart = time.Now()
}

// undoOpenGroup undoes the open group's changes (its savepoint).
func (w *writer) undoOpenGroup() error {
	w.groupSP = false
	if err := w.txn.exec(sqlGroupRollback); err != nil {
		return fmt.Errorf("engine: group rollback on %s: %w", w.s.name, err)
	}
	if err := w.txn.exec(sqlGroupRelease); err != nil {
		return fmt.Errorf("engine: group release on %s: %w", w.s.name, err)
	}
	return nil
}

// replayable reports whether members' changes can be applied again from their row
// events alone: rows only (no DDL), each located by a primary key.
func (w *writer) replayable(members []member) bool {
	for _, m := range members {
		if m.tx != nil {
			return false
		}
		for _, ev := range m.events {
			if re, ok := ev.(*binlog.RowsEvent); !ok || len(re.PK) == 0 {
				return false
			}
		}
	}
	return true
}

// replay applies members' row events again (setAside), and the AUTO_INCREMENT
// reservations the writer knows of, which are not row events.
func (w *writer) replay(members []member) error {
	w.c.replaying.Store(true) // logged values stand: no ON UPDATE, no foreign key actions
	defer w.c.replaying.Store(false)
	for _, m := range members {
		for _, ev := range m.events {
			if err := w.applySQL.applyRows(ev.(*binlog.RowsEvent)); err != nil {
				return fmt.Errorf("engine: replay of a statement set aside on %s: %w", w.s.name, err)
			}
		}
	}
	for table, n := range w.autoIncCounter {
		if err := keepAutoInc(w.c, table, n); err != nil {
			return fmt.Errorf("engine: replay of a statement set aside on %s: AUTO_INCREMENT of %s: %w", w.s.name, table, err)
		}
	}
	return nil
}

// flush drains the pipeline: the open group is logged (inline) and everything the
// transaction holds is committed and answered. Explicit transactions, replicated
// transactions, calls and stopping need the writer's connection with no
// transaction open.
func (w *writer) flush() {
	w.draining = true
	defer func() { w.draining = false }()
	for w.pipe.inFlight != nil {
		w.logged(<-w.fromLog)
	}
	if w.inTxn || len(w.group) > 0 || len(w.answers) > 0 {
		w.seal()
	}
	w.releaseWorker()
}

// commit records the GTIDs of every group sealed in the open SQLite transaction
// (each durable in the binary log by now) in the schema and commits it, then
// answers the clients in the order their statements ran. With no transaction open
// it only sends the answers waiting.
func (w *writer) commit() (ok bool) {
	if len(w.group) > 0 {
		w.seal() // never commit statements the log has not got
		return true
	}
	defer w.releaseWorker()
	defer w.resetTxn()
	if !w.inTxn {
		w.answer()
		return true
	}
	if len(w.pipe.sealed) == 0 && len(w.locks.open) > 0 {
		// Nothing logged: the SQLite transaction holds the open explicit
		// transactions' changes only, and stays open for them.
		w.answer()
		w.wake(nil)
		return true
	}
	txs := w.commitTxs[:0]
	members := 0
	for _, g := range w.pipe.sealed {
		txs = append(txs, g.txs...)
		members += len(g.members)
	}
	w.commitTxs = txs
	// Storage commits durable work only: open transactions' changes are taken
	// out first and put back after (rule 4).
	took, err := w.takeOutOpen(nil)
	if err != nil {
		w.abort(fmt.Errorf("storage commit of %s: open transactions could not be taken out: %w", w.s.name, err), err)
		return false
	}
	if err := w.commitWith(txs); err != nil {
		// The binary log holds these transactions: they are committed, and recovery
		// re-applies them on restart (binlog_error_action=ABORT_SERVER).
		w.abort(fmt.Errorf("storage commit of %s failed after binlog write: %w", w.s.name, err), err)
		return false
	}
	if took {
		if err := w.putBackOpen(nil); err != nil {
			// Storage holds the durable groups; the open transactions lost their
			// changes.
			w.rollback()
			w.killAll(errRolledBack(), false)
		}
	}
	defer w.wake(nil)
	w.point(PointStored)
	w.s.e.commits.storageCommits.Add(1)
	// The worker's status first: whoever sees the GTIDs visible (a waiter woken at
	// this commit) must find them counted too.
	if w.worker != nil && w.workerCount > 0 && w.workerLast != nil {
		w.worker.applied(w.workerCount, w.workerLast)
		w.workerCount, w.workerLast = 0, nil
	}
	w.s.e.visible.add(txs)
	w.s.e.afterCommit(txs)
	for _, g := range w.pipe.sealed {
		for i, m := range g.members {
			m.res.GTID = g.txs[i].GTID
			m.reply.send(outcome{res: m.res})
		}
	}
	w.answer()
	w.lastGroup = members
	w.backlog = len(w.jobs)
	return true
}

// resetTxn forgets the ended transaction's groups, keeping them for reuse.
func (w *writer) resetTxn() {
	for _, g := range w.pipe.sealed {
		w.recycle(g)
	}
	clear(w.commitTxs)
	w.pipe.reset()
	w.pipe.depth = w.s.e.pipelineDepth()
	w.pipe.always = w.s.e.alwaysOverlap()
	w.groupSP = false
	w.txnInGroup = false
}

// abort ends the open transaction after a failure that leaves storage unable to
// commit what the binary log holds or may hold: a log write failed, storage rolled
// the transaction back by itself, or its commit failed. Groups already durable in
// the log count as committed (recovery re-applies them on restart); every other
// statement of the transaction fails with failure; the node stops
// (binlog_error_action=ABORT_SERVER).
func (w *writer) abort(cause, failure error) {
	if w.pipe.inFlight != nil {
		// Its outcome decides what recovery finds; wait for it.
		w.pipe.done(<-w.fromLog)
	}
	w.rollback()
	w.killAll(errRolledBack(), false)
	w.locks.stored()
	// A group durable in the log commits at the next start (every sealed group's log
	// stage has ended), and one the log failed to write may have reached the file
	// unless the log took it back (a full disk): their clients learn nothing rather
	// than an error that may be untrue.
	unknown := fmt.Errorf("engine: storage could not commit what the binary log holds; the node stops and recovery commits it: %v: %w", cause, mysqlerr.ErrOutcomeUnknown)
	for _, g := range w.pipe.sealed {
		o := outcome{err: unknown}
		if g.err != nil && binlog.IsDiskFull(g.err) {
			o.err = failure
		}
		for _, m := range g.members {
			m.reply.send(o)
		}
	}
	w.failGroup(failure)
	w.failAnswers(0, failure)
	w.resetTxn()
	w.releaseWorker()
	w.s.e.fatal(cause)
}

// logFull handles a group the binary log refused for want of disk space: nothing of
// it is in the log, so its statements, those executed after it and the answers that
// may have seen its rows fail with ER_DISK_FULL, and storage rolls them back. The
// node goes on; writes succeed again once there is room. Groups sealed before it are
// durable in the log: their row events are applied again and they commit. ok=false
// when they cannot be applied again (DDL, replicated transactions, rows without a
// primary key): the failure then stops the node as any other log failure does, and
// recovery commits them at the next start.
func (w *writer) logFull(failed *logGroup) (ok bool) {
	i := slices.Index(w.pipe.sealed, failed)
	if i < 0 {
		return false
	}
	durable := w.pipe.sealed[:i]
	var members []member
	for _, g := range durable {
		members = append(members, g.members...)
	}
	if !w.replayable(members) {
		return false
	}
	err := diskFullError(failed.err)
	w.rollback()
	// Open explicit transactions' changes were in the rolled-back SQLite
	// transaction too: they end (1213, as after any storage rollback), and the
	// refused groups' rows are no longer pending: wake whoever waits on them.
	w.killAll(errRolledBack(), false)
	w.locks.stored()
	w.wake(nil)
	for _, m := range failed.members {
		m.reply.send(outcome{err: err})
	}
	w.failGroup(err)
	w.failAnswers(0, err)
	for _, g := range w.pipe.sealed[i:] {
		w.recycle(g)
	}
	clear(w.pipe.sealed[i:])
	w.pipe.sealed = w.pipe.sealed[:i]
	w.groupSP = false
	if rerr := w.reloadCatalog(); rerr != nil { // DDL among what was undone
		w.abort(rerr, err)
		return true
	}
	if len(durable) == 0 {
		w.resetTxn()
		w.releaseWorker()
		return true
	}
	rerr := w.begin()
	if rerr == nil {
		rerr = w.replay(members)
	}
	if rerr != nil {
		w.abort(fmt.Errorf("engine: applying again what the binary log holds on %s after a full disk: %w", w.s.name, rerr), err)
		return true
	}
	w.commit()
	return true
}

// diskFullError is MySQL's ER_DISK_FULL for a binary-log write that found no room.
func diskFullError(err error) error {
	file := "binary log"
	var pe *os.PathError
	if errors.As(err, &pe) {
		file = filepath.Base(pe.Path)
	}
	errno := syscall.ENOSPC
	errors.As(err, &errno)
	msg := errno.Error() // strerror's text, as MySQL prints it: capitalized
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return mysqlerr.New(mysqlerr.ErDiskFull, "Disk full (%s); waiting for someone to free some space... (errno: %d - %s)", file, int(errno), msg)
}

// commitWith records the GTIDs of txs in the schema and commits the open transaction.
func (w *writer) commitWith(txs []*binlog.Transaction) error {
	if skip := w.s.e.opts.SkipAppliedGTIDs; skip == nil || !skip() {
		if err := recordApplied(w.txn.recordApplied, txs); err != nil {
			w.rollback()
			return fmt.Errorf("engine: record applied GTIDs in %s: %w", w.s.name, err)
		}
	}
	if err := w.txn.exec(sqlCommit); err != nil {
		w.rollback()
		return fmt.Errorf("engine: commit %s: %w", w.s.name, err)
	}
	w.inTxn = false
	if w.s.ckpt != nil {
		w.s.ckpt.committed()
	}
	return nil
}

// recordApplied raises the schema's applied high-water mark of each source uuid
// to the highest sequence number in txs (through record), in the open transaction.
func recordApplied(record func(gtid.UUID, uint64) error, txs []*binlog.Transaction) error {
	var hw map[gtid.UUID]uint64 // only when txs come from several sources
	var last gtid.UUID          // a run mostly comes from one source: look it up once
	var lastHW uint64
	for _, tx := range txs {
		g := tx.GTID
		if g.Seq == 0 {
			continue
		}
		switch {
		case lastHW == 0:
			last, lastHW = g.UUID, g.Seq
		case g.UUID != last:
			if hw == nil {
				hw = make(map[gtid.UUID]uint64, 2)
			}
			hw[last] = max(hw[last], lastHW)
			last, lastHW = g.UUID, max(hw[g.UUID], g.Seq)
		default:
			lastHW = max(lastHW, g.Seq)
		}
	}
	if lastHW == 0 {
		return nil
	}
	if hw == nil {
		return record(last, lastHW)
	}
	hw[last] = max(hw[last], lastHW)
	for u, seq := range hw {
		if err := record(u, seq); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) rollback() {
	if w.inTxn {
		w.c.exec("ROLLBACK")
		w.inTxn = false
	}
}

// answer sends the deferred answers once the transaction they ran in is committed.
func (w *writer) answer() {
	for _, d := range w.answers {
		d.reply.send(d.o)
	}
	clear(w.answers)
	w.answers = w.answers[:0]
}

// failAnswers replaces the deferred answers from index from on with err: the
// changes they may have seen are undone.
func (w *writer) failAnswers(from int, err error) {
	for _, d := range w.answers[from:] {
		d.reply.send(outcome{err: err})
	}
	clear(w.answers[from:])
	w.answers = w.answers[:from]
}

// failGroup fails every statement of the open group.
func (w *writer) failGroup(err error) {
	for _, m := range w.group {
		m.reply.send(outcome{err: err})
	}
	clear(w.group)
	w.group = w.group[:0]
}

// openGroup starts the open group, behind groups of the same transaction that are
// sealed, with a savepoint: a statement whose changes cannot be captured then undoes
// this group alone, since the sealed ones are in the log already.
func (w *writer) openGroup() error {
	if w.groupSP || len(w.pipe.sealed) == 0 {
		return nil
	}
	if err := w.txn.exec(sqlGroupSavepoint); err != nil {
		return fmt.Errorf("engine: group savepoint on %s: %w", w.s.name, err)
	}
	w.groupSP, w.answersMark = true, len(w.answers)
	return nil
}

func (w *writer) releaseGroupSavepoint() error {
	if !w.groupSP {
		return nil
	}
	w.groupSP = false
	if err := w.txn.exec(sqlGroupRelease); err != nil {
		return fmt.Errorf("engine: group release on %s: %w", w.s.name, err)
	}
	return nil
}

// undoGroup undoes the open group after a statement's changes could not be
// captured (errCapture): storage holds changes the log would not. Behind sealed
// groups only the open group goes (its savepoint); otherwise the whole transaction.
// Its statements fail with err, and so do the answers that may have seen its rows.
func (w *writer) undoGroup(err error) {
	if w.txnInGroup || !w.groupSP && len(w.locks.open) > 0 {
		// Explicit transactions' changes are mixed in: only storage's rollback of
		// everything can undo it.
		w.abort(err, err)
		return
	}
	if !w.groupSP {
		w.rollback()
		w.failGroup(err)
		w.failAnswers(0, err)
	} else {
		if rerr := w.undoOpenGroup(); rerr != nil {
			w.abort(rerr, err)
			return
		}
		w.failGroup(err)
		w.failAnswers(w.answersMark, err)
	}
	// DDL among the undone statements changed the catalog the writer holds.
	if rerr := w.reloadCatalog(); rerr != nil {
		w.abort(rerr, err)
	}
}

// storageRolledBack handles SQLite having rolled the whole transaction back by
// itself after a statement failed (disk full, I/O error): the open group is gone,
// and so are sealed groups, which the binary log holds or is writing.
func (w *writer) storageRolledBack(err error) {
	w.inTxn = false
	w.killAll(errRolledBack(), false)
	if len(w.pipe.sealed) > 0 {
		w.abort(fmt.Errorf("storage of %s rolled back a transaction the binary log holds: %w", w.s.name, err), err)
		return
	}
	w.failGroup(fmt.Errorf("engine: transaction of %s rolled back by storage: %w", w.s.name, err))
	w.locks.stored() // the group's rows are gone, not pending
	w.wake(nil)
}

// takeReady returns the next job a lock wait released, if any.
func (w *writer) takeReady() *job {
	if len(w.ready) == 0 {
		return nil
	}
	j := w.ready[0]
	w.ready[0] = nil
	w.ready = w.ready[1:]
	if len(w.ready) == 0 {
		w.ready = nil
	}
	return j
}
