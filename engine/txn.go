package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
)

// Txn is an explicit (BEGIN ... COMMIT) transaction. Its writes to a schema run
// on that schema's writer interleaved with other transactions' (interleave.go),
// kept apart by row locks; it leases a writer whole only for Hold (LOCK TABLES,
// FLUSH TABLES WITH READ LOCK). Reads of schemas it has not written go to the
// read pools. One Txn belongs to one session goroutine.
type Txn struct {
	e          *Engine
	wait       time.Duration
	leases     []*lease
	byDB       map[string]*lease
	parts      []*txnPart
	partOf     map[string]*txnPart
	holds      []*extHold // writers held for a commit on several schemas
	savepoints []string
	// Snapshots: plain reads see one snapshot per schema (REPEATABLE READ,
	// snapshot.go); snaps are those taken.
	Snapshots bool
	snaps     map[string]*snapshot
}

// Begin starts an explicit transaction; wait is innodb_lock_wait_timeout.
func (e *Engine) Begin(wait time.Duration) *Txn {
	return &Txn{e: e, wait: wait, byDB: map[string]*lease{}}
}

// Writes reports whether the transaction holds any writer or has written.
func (t *Txn) Writes() bool { return len(t.leases) > 0 || len(t.parts) > 0 }

// partFor is the transaction's part on schema db's writer, made at its first use.
func (t *Txn) partFor(db string) (*txnPart, error) {
	if x := t.partOf[db]; x != nil {
		return x, nil
	}
	s, err := t.e.schema(db)
	if err != nil {
		return nil, err
	}
	x := &txnPart{t: t, w: s.w, marks: map[string]int{}, keys: map[lockKey]struct{}{}, tables: map[string]int{}}
	for _, sp := range t.savepoints {
		x.marks[sp] = 0
	}
	if t.partOf == nil {
		t.partOf = map[string]*txnPart{}
	}
	t.parts = append(t.parts, x)
	t.partOf[db] = x
	return x, nil
}

// run sends one job of x to its writer and waits for the outcome; a wait beyond
// the lock wait timeout fails with 1205 and leaves the transaction open.
func (t *Txn) run(x *txnPart, tj txnJob, st Stmt) outcome {
	if t.e.failed.Load() {
		return outcome{err: mysqlerr.New(mysqlerr.ErServerShutdown, "Server shutdown in progress")}
	}
	tj.part = x
	j := &job{kind: jobTxn, txn: tj, stmt: st}
	if o, ok := x.w.tryInlineTxn(j); ok {
		return o
	}
	wait := t.wait
	if tj.op != txnStmt && tj.op != txnRead {
		wait = 0 // ends never wait for locks
	}
	o := x.w.submit(j, wait)
	if mysqlerr.Is(o.err, mysqlerr.ErLockWaitTimeout) {
		t.e.locks.doneWaiting(t)
	}
	return o
}

func (t *Txn) leaseFor(db string) (*lease, error) {
	if l := t.byDB[db]; l != nil {
		return l, nil
	}
	s, err := t.e.schema(db)
	if err != nil {
		return nil, err
	}
	if err := t.e.locks.wait(t, s); err != nil {
		// InnoDB rolls the deadlock victim back entirely.
		t.Rollback()
		return nil, err
	}
	o := s.w.submit(&job{kind: jobLease}, t.wait)
	t.e.locks.granted(t, s, o.err == nil)
	if o.err != nil {
		return nil, o.err
	}
	l := o.lease
	for _, sp := range t.savepoints {
		if _, err := l.w.c.exec("SAVEPOINT " + quoteIdent(sp)); err != nil {
			l.finish(endRollback, zeroGTID)
			return nil, fmt.Errorf("engine: savepoint %s: %w", sp, err)
		}
		l.marks[sp] = 0
	}
	t.leases = append(t.leases, l)
	t.byDB[db] = l
	return l, nil
}

// Hold takes the writer of schema db without writing (LOCK TABLES ... READ,
// FLUSH TABLES WITH READ LOCK): no other session writes db until the Txn ends,
// and its reads of db see the latest committed rows.
func (t *Txn) Hold(db string) error {
	_, err := t.leaseFor(db)
	return err
}

// Exec runs a data-changing statement inside the transaction.
func (t *Txn) Exec(db string, st Stmt) (Result, error) {
	if len(st.DDL) > 0 {
		return Result{}, fmt.Errorf("engine: DDL inside an explicit transaction (the session commits first)")
	}
	l := t.byDB[db]
	if l == nil {
		x, err := t.partFor(db)
		if err != nil {
			return Result{}, err
		}
		o := t.run(x, txnJob{op: txnStmt}, st)
		return o.res, o.err
	}
	if l.aborted {
		return Result{}, mysqlerr.New(mysqlerr.ErLockDeadlock, "Transaction was rolled back by storage; try restarting transaction")
	}
	res, err := l.w.runStmt(&st, &l.events)
	if errors.Is(err, errCapture) {
		// Storage holds changes the log would miss: the whole transaction must go.
		l.w.rollback()
		l.aborted = true
		return res, err
	}
	if err != nil && l.w.c.AutoCommit() {
		l.aborted = true
		l.w.inTxn = false
	}
	return res, err
}

// Query reads inside the transaction: through the held writer (seeing the
// transaction's own changes) when it holds db, else from the read pool.
func (t *Txn) Query(db string, attach []string, sql string, args []any) (*Rows, error) {
	return t.QueryGuarded(db, attach, sql, args, nil)
}

// QueryGuarded is Query with g (nil: none) checked first, seeing the same data.
func (t *Txn) QueryGuarded(db string, attach []string, sql string, args []any, g *Guard) (*Rows, error) {
	return t.QueryTables(db, attach, sql, args, g, nil, false)
}

// QueryTables is QueryGuarded knowing the tables the query reads (nil: unknown)
// and whether it is a locking read (FOR UPDATE, FOR SHARE). A read of a schema
// the transaction wrote, and a locking read, run on the writer: the latest rows
// and the transaction's own changes, once no other open transaction holds
// changes in those tables; a locking read then locks them (docs/transactions.md).
func (t *Txn) QueryTables(db string, attach []string, sql string, args []any, g *Guard, tables []string, locking bool) (*Rows, error) {
	cur, rows, err := t.QueryCursor(db, attach, sql, args, g, tables, locking)
	if err != nil || rows != nil {
		return rows, err
	}
	return cur.All()
}

// QueryCursor is QueryTables read row by row where the rows come from a
// connection: a cursor (nil rows), or, for a read the writer runs among other
// transactions' statements, the rows whole (nil cursor). A cursor on a
// connection the transaction holds (its writer, its snapshot) must end before
// the transaction's next statement.
func (t *Txn) QueryCursor(db string, attach []string, sql string, args []any, g *Guard, tables []string, locking bool) (*Cursor, *Rows, error) {
	if l := t.byDB[db]; l != nil && len(attach) == 0 {
		if err := g.check(t.e, l.w.c, db); err != nil {
			return nil, nil, err
		}
		cur, err := openCursor(l.w.c, sql, args, db, nil)
		return cur, nil, err
	}
	if x := t.partOf[db]; (x != nil || locking) && db != "" && len(attach) == 0 {
		if x == nil {
			var err error
			if x, err = t.partFor(db); err != nil {
				return nil, nil, err
			}
		}
		o := t.run(x, txnJob{op: txnRead, read: txnQuery{sql: sql, args: args, guard: g, tables: tables, locking: locking}}, Stmt{})
		return nil, o.rows, o.err
	}
	if t.Snapshots && db != "" && len(attach) == 0 {
		sn, err := t.snapshotFor(db)
		if err != nil {
			return nil, nil, err
		}
		if err := g.check(t.e, sn.c.sqliteConn, db); err != nil {
			return nil, nil, err
		}
		cur, err := openCursor(sn.c.sqliteConn, sql, args, db, nil)
		return cur, nil, err
	}
	cur, err := t.e.QueryCursor(db, attach, sql, args, g)
	return cur, nil, err
}

// Savepoint sets (or moves) a named savepoint.
func (t *Txn) Savepoint(name string) error {
	t.savepoints = slices.DeleteFunc(t.savepoints, func(s string) bool { return s == name })
	t.savepoints = append(t.savepoints, name)
	for _, l := range t.leases {
		if _, err := l.w.c.exec("SAVEPOINT " + quoteIdent(name)); err != nil {
			return translateError(err, "")
		}
		l.marks[name] = len(l.events)
	}
	for _, x := range t.parts {
		x.marks[name] = len(x.events)
	}
	return nil
}

// RollbackTo undoes changes made after the savepoint; later savepoints are dropped.
func (t *Txn) RollbackTo(name string) error {
	i := slices.Index(t.savepoints, name)
	if i < 0 {
		return mysqlerr.New(mysqlerr.ErSavepointDoesNotExist, "SAVEPOINT %s does not exist", name)
	}
	t.savepoints = t.savepoints[:i+1]
	for _, l := range t.leases {
		if _, err := l.w.c.exec("ROLLBACK TO " + quoteIdent(name)); err != nil {
			return translateError(err, "")
		}
		l.events = l.events[:l.marks[name]]
	}
	for _, x := range t.parts {
		if o := t.run(x, txnJob{op: txnRollbackTo, name: name}, Stmt{}); o.err != nil {
			return o.err
		}
	}
	return nil
}

// Release forgets a savepoint and those set after it.
func (t *Txn) Release(name string) error {
	i := slices.Index(t.savepoints, name)
	if i < 0 {
		return mysqlerr.New(mysqlerr.ErSavepointDoesNotExist, "SAVEPOINT %s does not exist", name)
	}
	for _, x := range t.parts {
		for _, sp := range t.savepoints[i:] {
			delete(x.marks, sp)
		}
	}
	t.savepoints = t.savepoints[:i]
	for _, l := range t.leases {
		if _, err := l.w.c.exec("RELEASE " + quoteIdent(name)); err != nil {
			return translateError(err, "")
		}
	}
	return nil
}

// Commit makes the transaction durable: binary log first, then every schema it wrote.
func (t *Txn) Commit() (Result, error) {
	defer t.reset()
	if len(t.parts) > 0 {
		return t.commitParts()
	}
	switch len(t.leases) {
	case 0:
		return Result{}, nil
	case 1:
		l := t.leases[0]
		if l.aborted {
			l.finish(endRollback, zeroGTID)
			return Result{}, mysqlerr.New(mysqlerr.ErLockDeadlock, "Transaction was rolled back by storage; try restarting transaction")
		}
		o := l.finish(endJoin, zeroGTID)
		return o.res, o.err
	}
	tx := &binlog.Transaction{}
	for _, l := range t.leases {
		if l.aborted {
			t.rollbackAll()
			return Result{}, mysqlerr.New(mysqlerr.ErLockDeadlock, "Transaction was rolled back by storage; try restarting transaction")
		}
		if len(l.events) > 0 {
			tx.Schemas = append(tx.Schemas, l.w.s.name)
			tx.Events = append(tx.Events, l.events...)
		}
	}
	if len(tx.Events) == 0 {
		t.rollbackAll()
		return Result{}, nil
	}
	return t.commitAs(tx)
}

// commitParts commits a transaction that wrote through interleaved parts (and
// perhaps held leases): on one schema as a member of its next group; on several
// as one binary-log transaction stored in each schema after.
func (t *Txn) commitParts() (Result, error) {
	var wrote []*txnPart
	for _, x := range t.parts {
		if x.killed != nil {
			t.rollbackAll()
			return Result{}, x.killed
		}
		if len(x.events) > 0 {
			wrote = append(wrote, x)
		} else {
			t.run(x, txnJob{op: txnRollback}, Stmt{})
		}
	}
	var leased []*lease
	for _, l := range t.leases {
		if l.aborted {
			t.rollbackAll()
			return Result{}, errRolledBack()
		}
		if len(l.events) > 0 {
			leased = append(leased, l)
		}
	}
	if len(wrote) == 1 && len(leased) == 0 {
		for _, l := range t.leases {
			l.finish(endRollback, zeroGTID)
			t.e.locks.released(t, l.w.s)
		}
		t.leases = nil
		o := t.run(wrote[0], txnJob{op: txnCommit}, Stmt{})
		t.parts = nil
		return o.res, o.err
	}
	if len(wrote)+len(leased) == 0 {
		t.rollbackAll()
		return Result{}, nil
	}
	tx := &binlog.Transaction{}
	for _, x := range wrote {
		tx.Schemas = append(tx.Schemas, x.w.s.name)
		tx.Events = append(tx.Events, x.events...)
	}
	for _, l := range leased {
		tx.Schemas = append(tx.Schemas, l.w.s.name)
		tx.Events = append(tx.Events, l.events...)
	}
	// Hold every writer written, in schema-name order (two such commits never
	// hold each other's next writer), until each has stored tx.
	slices.SortFunc(wrote, func(a, b *txnPart) int { return strings.Compare(a.w.s.name, b.w.s.name) })
	t.parts = nil
	for _, x := range wrote {
		o := x.w.submit(&job{kind: jobTxn, txn: txnJob{op: txnExternal, part: x}}, 0)
		if o.err != nil {
			for _, h := range t.holds {
				h.finish(zeroGTID, false)
			}
			t.holds = nil
			t.rollbackAll()
			return Result{}, o.err
		}
		t.holds = append(t.holds, o.hold)
	}
	return t.commitAs(tx)
}

// commitAs logs tx (with its GTID if it has one: the replica path) and then commits
// every held schema, each recording the GTID.
func (t *Txn) commitAs(tx *binlog.Transaction) (Result, error) {
	defer t.reset()
	if err := t.e.opts.Log.Commit([]*binlog.Transaction{tx}); err != nil {
		for _, h := range t.holds {
			h.finish(zeroGTID, false)
		}
		t.holds = nil
		t.rollbackAll()
		if errors.Is(err, binlog.ErrDuplicateGTID) {
			return Result{}, err
		}
		t.e.fatal(fmt.Errorf("binary log write failed: %w", err))
		return Result{}, mysqlerr.New(mysqlerr.ErErrorOnWrite, "Error writing binary log: %v", err)
	}
	t.e.afterSync([]*binlog.Transaction{tx})
	var firstErr error
	for _, h := range t.holds {
		if o := h.finish(tx.GTID, true); o.err != nil && firstErr == nil {
			firstErr = o.err
		}
	}
	t.holds = nil
	for _, l := range t.leases {
		if o := l.finish(endExternal, tx.GTID); o.err != nil && firstErr == nil {
			firstErr = o.err
		}
	}
	t.e.visible.add([]*binlog.Transaction{tx})
	t.e.afterCommit([]*binlog.Transaction{tx})
	return Result{GTID: tx.GTID}, firstErr
}

// Rollback discards the transaction and releases every writer it holds.
func (t *Txn) Rollback() {
	t.rollbackAll()
	t.reset()
}

func (t *Txn) rollbackAll() {
	for _, x := range t.parts {
		t.run(x, txnJob{op: txnRollback}, Stmt{})
	}
	t.parts = nil
	for _, l := range t.leases {
		l.finish(endRollback, zeroGTID)
		t.e.locks.released(t, l.w.s)
	}
	t.leases = nil
}

// releaseAll forgets the wait-graph entries of every held writer.
func (t *Txn) releaseAll() {
	for _, l := range t.leases {
		t.e.locks.released(t, l.w.s)
	}
}

func (t *Txn) reset() {
	t.releaseSnapshots()
	t.releaseAll()
	t.leases = nil
	t.byDB = map[string]*lease{}
	t.parts, t.partOf = nil, nil
	t.savepoints = nil
}
