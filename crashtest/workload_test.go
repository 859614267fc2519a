package crashtest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const counterRows = 8

// setupSQL creates the schemas and tables of the write load.
var setupSQL = []string{
	"CREATE DATABASE c1",
	"CREATE DATABASE c2",
	"CREATE TABLE c1.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL, who VARCHAR(32))",
	"CREATE TABLE c2.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL, who VARCHAR(32))",
	"CREATE TABLE c1.counters (id INT NOT NULL PRIMARY KEY, n INT NOT NULL)",
	"CREATE TABLE c2.counters (id INT NOT NULL PRIMARY KEY, n INT NOT NULL)",
	"CREATE TABLE c1.sbtest (`id` int(10) unsigned NOT NULL AUTO_INCREMENT, `k` int(10) unsigned NOT NULL DEFAULT '0', " +
		"`c` char(120) NOT NULL DEFAULT '', `pad` char(60) NOT NULL DEFAULT '', PRIMARY KEY (`id`), KEY `k_1` (`k`)) ENGINE=InnoDB DEFAULT CHARSET=latin1",
	"CREATE TABLE c1.race (id INT NOT NULL PRIMARY KEY, who VARCHAR(32) NOT NULL)",
}

// setupLoad creates the load's tables and counter rows on a new data directory.
func setupLoad(t *testing.T, db *sql.DB, m *model) {
	t.Helper()
	stmts := append([]string(nil), setupSQL...)
	for _, sc := range []string{"c1", "c2"} {
		for id := int64(1); id <= counterRows; id++ {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s.counters (id, n) VALUES (%d, 0)", sc, id))
			m.counter(counterKey{sc, id}) // zero acked, zero attempted
		}
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// load is a running set of clients. Each client has its own connection and stops at
// its first broken connection or when stop is set.
type load struct {
	db   *sql.DB
	m    *model
	stop atomic.Bool
	wg   sync.WaitGroup
}

// mix says how many clients of each kind a load runs.
type mix struct {
	inserters, counters, sbtest, txns, racePairs int
	// openTxns keep a transaction open over many round trips, its rows locked
	// and uncommitted while other groups commit, and roll it back.
	openTxns int
}

var defaultMix = mix{inserters: 5, counters: 3, sbtest: 2, txns: 4, racePairs: 3}

func startLoad(t *testing.T, db *sql.DB, m *model, mx mix, seed uint64) *load {
	t.Helper()
	l := &load{db: db, m: m}
	n := 0
	spawn := func(run func(c *client)) {
		n++
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		c := &client{l: l, conn: conn, name: fmt.Sprintf("cl%d", n), rng: rand.New(rand.NewPCG(seed, uint64(n)))}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer conn.Close()
			run(c)
		}()
	}
	for range mx.inserters {
		spawn((*client).inserts)
	}
	for range mx.counters {
		spawn((*client).increments)
	}
	for range mx.sbtest {
		spawn((*client).sbtestInserts)
	}
	for range mx.txns {
		spawn((*client).transactions)
	}
	for range mx.openTxns {
		spawn((*client).openTransactions)
	}
	for range mx.racePairs {
		p := newRacePair()
		spawn(func(c *client) { c.race(p, 0) })
		spawn(func(c *client) { c.race(p, 1) })
	}
	return l
}

// halt tells the clients to stop and waits for them; after a kill, in-flight
// statements end with connection errors.
func (l *load) halt(t *testing.T) {
	t.Helper()
	l.stop.Store(true)
	waitGroupWithin(t, &l.wg, 90*time.Second)
}

type client struct {
	l    *load
	conn *sql.Conn
	name string
	rng  *rand.Rand
}

func (c *client) exec(q string, args ...any) (sql.Result, error) {
	return c.conn.ExecContext(context.Background(), q, args...)
}

func (c *client) schema() string {
	if c.rng.IntN(2) == 0 {
		return "c1"
	}
	return "c2"
}

func (c *client) newRow(schema, tag string) rowWrite {
	w := rowWrite{schema: schema, id: c.l.m.newID(), v: c.rng.Int64N(1 << 30)}
	if c.rng.IntN(8) != 0 { // sometimes NULL
		w.who = nullText{String: c.name + "-" + tag, Valid: true}
	}
	return w
}

func whoArg(w rowWrite) any {
	if !w.who.Valid {
		return nil
	}
	return w.who.String
}

// inserts: autocommit INSERTs with client-chosen unique ids.
func (c *client) inserts() {
	m := c.l.m
	for !c.l.stop.Load() {
		w := c.newRow(c.schema(), "ins")
		r := m.addTxn(fmt.Sprintf("autocommit INSERT %s.t id=%d by %s", w.schema, w.id, c.name), w)
		_, err := c.exec(fmt.Sprintf("INSERT INTO %s.t (id, v, who) VALUES (?, ?, ?)", w.schema), w.id, w.v, whoArg(w))
		st := classify(err)
		m.settle(r, st)
		if st == unknown {
			return
		}
	}
}

// increments: autocommit UPDATE n = n + 1 of a few hot counter rows.
func (c *client) increments() {
	m := c.l.m
	for !c.l.stop.Load() {
		k := counterKey{c.schema(), 1 + c.rng.Int64N(counterRows)}
		m.attempt(k)
		_, err := c.exec(fmt.Sprintf("UPDATE %s.counters SET n = n + 1 WHERE id = ?", k.schema), k.id)
		st := classify(err)
		m.settleCounter(k, st, true)
		if st == unknown {
			return
		}
	}
}

// sbtestInserts: sysbench-style INSERTs into an AUTO_INCREMENT table; half of them
// with id=0, which MySQL treats as "next value".
func (c *client) sbtestInserts() {
	m := c.l.m
	for !c.l.stop.Load() {
		tok := fmt.Sprintf("sb-%s-%d", c.name, m.newID())
		k := c.rng.Int64N(100000)
		r := m.addSb(tok, k)
		var res sql.Result
		var err error
		if c.rng.IntN(2) == 0 {
			res, err = c.exec("INSERT INTO c1.sbtest (k, c, pad) VALUES (?, ?, 'pad')", k, tok)
		} else {
			res, err = c.exec("INSERT INTO c1.sbtest (id, k, c, pad) VALUES (0, ?, ?, 'pad')", k, tok)
		}
		st := classify(err)
		var id int64
		if st == acked {
			id, _ = res.LastInsertId()
		}
		m.settleSb(r, st, id)
		if st == unknown {
			return
		}
	}
}

// txnStep is one statement of an explicit transaction.
type txnStep struct {
	sql  string
	args []any
}

func step(sql string, args ...any) txnStep { return txnStep{sql, args} }

func insertStep(w rowWrite) txnStep {
	return step("INSERT INTO t (id, v, who) VALUES (?, ?, ?)", w.id, w.v, whoArg(w))
}

// transactions: explicit transactions. Writers are always leased c1 before c2, so
// they cannot deadlock each other.
func (c *client) transactions() {
	for !c.l.stop.Load() {
		var ok bool
		switch c.rng.IntN(4) {
		case 0:
			ok = c.crossSchemaTxn()
		case 1:
			ok = c.multiStatementTxn()
		case 2:
			ok = c.savepointTxn()
		default:
			ok = c.rolledBackTxn()
		}
		if !ok {
			return
		}
	}
}

// crossSchemaTxn: BEGIN; USE c1; INSERT; UPDATE counter; USE c2; INSERT; COMMIT.
func (c *client) crossSchemaTxn() bool {
	id := c.l.m.newID()
	a, b := c.newRow("c1", "x1"), c.newRow("c2", "x2")
	a.id, b.id = id, id
	k := counterKey{"c1", 1 + c.rng.Int64N(counterRows)}
	r := c.l.m.addTxn(fmt.Sprintf("cross-schema transaction by %s (c1.t and c2.t id=%d, c1.counters id=%d)", c.name, id, k.id), a, b)
	return c.runTxn(r, []counterKey{k},
		step("USE c1"), insertStep(a), step("UPDATE counters SET n = n + 1 WHERE id = ?", k.id),
		step("USE c2"), insertStep(b))
}

// multiStatementTxn: two inserts and an increment in c2.
func (c *client) multiStatementTxn() bool {
	a, b := c.newRow("c2", "m1"), c.newRow("c2", "m2")
	k := counterKey{"c2", 1 + c.rng.Int64N(counterRows)}
	r := c.l.m.addTxn(fmt.Sprintf("multi-statement transaction by %s (c2.t id=%d,%d, c2.counters id=%d)", c.name, a.id, b.id, k.id), a, b)
	return c.runTxn(r, []counterKey{k},
		step("USE c2"), insertStep(a), step("UPDATE counters SET n = n + 1 WHERE id = ?", k.id), insertStep(b))
}

// savepointTxn: the row inserted between SAVEPOINT and ROLLBACK TO must never be
// stored or logged; the rest (rows of the same table before and after it, and an
// increment) commits together.
func (c *client) savepointTxn() bool {
	a, dropped, b := c.newRow("c1", "s1"), c.newRow("c1", "s-rolled-back"), c.newRow("c1", "s2")
	k := counterKey{"c1", 1 + c.rng.Int64N(counterRows)}
	r := c.l.m.addTxn(fmt.Sprintf("savepoint transaction by %s (c1.t id=%d,%d, c1.counters id=%d)", c.name, a.id, b.id, k.id), a, b)
	gone := c.l.m.addTxn(fmt.Sprintf("row rolled back to a savepoint by %s (c1.t id=%d)", c.name, dropped.id), dropped)
	c.l.m.neverCommitted(gone)
	return c.runTxn(r, []counterKey{k},
		step("USE c1"), insertStep(a), step("SAVEPOINT sp1"), insertStep(dropped),
		step("ROLLBACK TO SAVEPOINT sp1"), step("UPDATE counters SET n = n + 1 WHERE id = ?", k.id), insertStep(b))
}

// rolledBackTxn: BEGIN; INSERT; ROLLBACK must leave nothing.
func (c *client) rolledBackTxn() bool {
	a := c.newRow("c1", "rb")
	r := c.l.m.addTxn(fmt.Sprintf("rolled-back transaction by %s (c1.t id=%d)", c.name, a.id), a)
	c.l.m.neverCommitted(r)
	for _, s := range []txnStep{step("BEGIN"), step("USE c1"), insertStep(a), step("ROLLBACK")} {
		if _, err := c.exec(s.sql, s.args...); classify(err) == unknown {
			return false
		} else if err != nil {
			c.exec("ROLLBACK")
			return true
		}
	}
	return true
}

// openTransactions: BEGIN; INSERT; UPDATE it; round trips; ROLLBACK, over and
// over: storage must never hold those rows, however many groups commit (and
// take them out and put them back) while they are open.
func (c *client) openTransactions() {
	for !c.l.stop.Load() {
		a := c.newRow("c2", "open")
		r := c.l.m.addTxn(fmt.Sprintf("long open transaction by %s (c2.t id=%d)", c.name, a.id), a)
		c.l.m.neverCommitted(r)
		steps := []txnStep{step("BEGIN"), step("USE c2"), insertStep(a), step("UPDATE t SET v = v WHERE id = ?", a.id)}
		for range 1 + c.rng.IntN(8) {
			steps = append(steps, step("SELECT 1"))
		}
		for _, s := range append(steps, step("ROLLBACK")) {
			if _, err := c.exec(s.sql, s.args...); classify(err) == unknown {
				return
			} else if err != nil {
				c.exec("ROLLBACK")
				break
			}
		}
	}
}

// runTxn sends BEGIN, the steps and COMMIT and records the outcome of r and of the
// counter increments. A failure before COMMIT means the transaction was never
// committed. It reports whether the connection is still usable.
func (c *client) runTxn(r *txnRec, incs []counterKey, steps ...txnStep) bool {
	m := c.l.m
	for _, k := range incs {
		m.attempt(k)
	}
	settle := func(st status) {
		m.settle(r, st)
		for _, k := range incs {
			m.settleCounter(k, st, false)
		}
	}
	for _, s := range append([]txnStep{step("BEGIN")}, steps...) {
		if _, err := c.exec(s.sql, s.args...); err != nil {
			settle(failed) // COMMIT was never sent
			if classify(err) == unknown {
				return false
			}
			c.exec("ROLLBACK")
			return true
		}
	}
	_, err := c.exec("COMMIT")
	st := classify(err)
	settle(st)
	return st != unknown
}

// racePair makes two clients INSERT the same primary key at the same moment, round
// after round. The loser's error 1062 says the winner's row exists; if that row is
// then lost in a crash, the loser saw data that was never committed.
type racePair struct {
	mu      sync.Mutex
	cond    *sync.Cond
	round   int
	arrived int
	left    bool
	rec     *raceRec
}

func newRacePair() *racePair {
	p := &racePair{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// await blocks until both clients arrived and returns the round's record, or false
// once the partner has left.
func (p *racePair) await(m *model) (*raceRec, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.left {
		return nil, false
	}
	round := p.round
	p.arrived++
	if p.arrived == 2 {
		p.arrived = 0
		p.round++
		p.rec = m.newRace()
		p.cond.Broadcast()
		return p.rec, true
	}
	for p.round == round && !p.left {
		p.cond.Wait()
	}
	if p.round == round {
		return nil, false
	}
	return p.rec, true
}

func (p *racePair) leave() {
	p.mu.Lock()
	p.left = true
	p.mu.Unlock()
	p.cond.Broadcast()
}

func (c *client) race(p *racePair, side int) {
	defer p.leave()
	m := c.l.m
	for !c.l.stop.Load() {
		r, ok := p.await(m)
		if !ok {
			return
		}
		_, err := c.exec("INSERT INTO c1.race (id, who) VALUES (?, ?)", r.id, c.name)
		res := raceOK
		switch {
		case err == nil:
		case isDupKey(err):
			res = raceDup
		case classify(err) == failed:
			res = raceOther
		default:
			res = raceUnknown
		}
		m.settleRace(r, side, c.name, res)
		if res == raceUnknown {
			return
		}
	}
}
