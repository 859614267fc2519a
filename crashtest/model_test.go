package crashtest

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/go-sql-driver/mysql"
)

// status is what a client knows about one of its transactions.
type status int

const (
	// unknown: sent, but no answer came back (the server died). After a restart it
	// may be there or not, but all of it or nothing; the first verification after
	// the restart resolves it to acked or failed, and it must stay that way.
	unknown status = iota
	// acked: the server answered OK: it must survive every crash.
	acked
	// failed: the server answered with an error, or COMMIT was never sent: none of
	// it may ever be stored.
	failed
)

func (s status) String() string {
	return [...]string{"unknown", "acknowledged", "failed"}[s]
}

// rowWrite is one row a transaction inserts into a `t` table.
type rowWrite struct {
	schema string
	id     int64
	v      int64
	who    nullText
}

// txnRec is a transaction of rows inserted into c1.t / c2.t.
type txnRec struct {
	desc   string
	writes []rowWrite
	st     status
}

type counterKey struct {
	schema string
	id     int64
}

// counterRec bounds a counter: acked increments must be there, and no more than
// the attempted ones can be.
type counterRec struct {
	acked, attempted int64
}

// sbRec is one autocommit INSERT into the AUTO_INCREMENT table c1.sbtest,
// identified by the unique token in column c; id is known once acknowledged.
type sbRec struct {
	token string
	k     int64
	id    int64
	st    status
}

// raceResult is one side of an INSERT race for the same primary key in c1.race.
type raceResult int

const (
	raceUnknown raceResult = iota // no answer
	raceOK
	raceDup   // error 1062: the client was told the row exists
	raceOther // another error: not stored
)

type raceRec struct {
	id  int64
	who [2]string
	res [2]raceResult
	// resolved: the row's fate is known (after a verification); present says which.
	resolved, present bool
	presentWho        string
}

// model is the tests' knowledge of what clients were told, kept across every kill
// of a data directory.
type model struct {
	mu       sync.Mutex
	nextID   int64
	txns     []*txnRec
	byKey    map[string]*txnRec // "schema/id" → the transaction that inserts it
	counters map[counterKey]*counterRec
	sb       []*sbRec
	races    []*raceRec
	stats    loadStats
}

// loadStats counts client outcomes since the last takeStats.
type loadStats struct {
	acked, failed, unknown int
	raceDups               int // errors 1062 in the INSERT races
	// unknown outcomes the last check resolved, by what storage showed
	committed, absent int
}

func newModel() *model {
	return &model{nextID: 1000, byKey: map[string]*txnRec{}, counters: map[counterKey]*counterRec{}}
}

func (m *model) newID() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	return m.nextID
}

func rowKeyOf(schema string, id int64) string { return schema + "/" + strconv.FormatInt(id, 10) }

// addTxn registers a transaction before it is sent.
func (m *model) addTxn(desc string, writes ...rowWrite) *txnRec {
	r := &txnRec{desc: desc, writes: writes}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.txns = append(m.txns, r)
	for _, w := range writes {
		m.byKey[rowKeyOf(w.schema, w.id)] = r
	}
	return r
}

// settle records what the client learnt about r.
func (m *model) settle(r *txnRec, st status) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.st = st
	m.count(st)
}

// neverCommitted marks r as something no client commits (rolled back by design).
func (m *model) neverCommitted(r *txnRec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.st = failed
}

func (m *model) count(st status) {
	switch st {
	case acked:
		m.stats.acked++
	case failed:
		m.stats.failed++
	default:
		m.stats.unknown++
	}
}

func (m *model) counter(k counterKey) *counterRec {
	c := m.counters[k]
	if c == nil {
		c = &counterRec{}
		m.counters[k] = c
	}
	return c
}

// attempt registers an increment about to be sent.
func (m *model) attempt(k counterKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counter(k).attempted++
}

// settleCounter records the answer to an increment; counted says whether it is an
// autocommit statement of its own (for the statistics).
func (m *model) settleCounter(k counterKey, st status, counted bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if counted {
		m.count(st)
	}
	switch st {
	case acked:
		m.counter(k).acked++
	case failed:
		m.counter(k).attempted--
	}
}

func (m *model) addSb(token string, k int64) *sbRec {
	r := &sbRec{token: token, k: k}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sb = append(m.sb, r)
	return r
}

func (m *model) settleSb(r *sbRec, st status, id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.st, r.id = st, id
	m.count(st)
}

func (m *model) newRace() *raceRec {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	r := &raceRec{id: m.nextID}
	m.races = append(m.races, r)
	return r
}

func (m *model) settleRace(r *raceRec, side int, who string, res raceResult) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.who[side], r.res[side] = who, res
	if res == raceDup {
		m.stats.raceDups++
	}
}

func (m *model) peekStats() loadStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

func (m *model) takeStats() loadStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.stats
	m.stats = loadStats{}
	return s
}

// classify turns an Exec error into what the client knows. A MySQL error packet is
// a definite failure, except ER_ERROR_ON_WRITE, which binlite also returns when the
// binary log holds the transaction but storage could not commit it (the transaction
// then counts as committed after the restart). Anything else — a broken
// connection — leaves the outcome unknown.
func classify(err error) status {
	if err == nil {
		return acked
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number != 1026 {
		return failed
	}
	return unknown
}

func isDupKey(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == 1062
}

// checkAgainst compares the model with storage after a restart and then resolves
// every unknown outcome to what storage shows. It returns one message per violation;
// dirty lists errors 1062 that named a row the crash then lost (the data itself is
// consistent, so the test can go on).
func (m *model) checkAgainst(got storage) (v, dirty []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v = append(v, m.checkTxns(got)...)
	v = append(v, m.checkCounters(got)...)
	v = append(v, m.checkSbtest(got)...)
	races, dirty := m.checkRaces(got)
	return append(v, races...), dirty
}

// lookup returns a row of schema.table by its single-column primary key.
func lookup(got storage, schema, table string, id int64) (map[string]nullText, bool) {
	t := got[schema][table]
	if t == nil || t.cols == nil {
		return nil, false
	}
	r, ok := t.rows[strconv.FormatInt(id, 10)]
	if !ok {
		return nil, false
	}
	byName := make(map[string]nullText, len(r))
	for i, c := range t.cols {
		byName[c] = r[i]
	}
	return byName, true
}

func (m *model) checkTxns(got storage) []string {
	var v []string
	for _, r := range m.txns {
		var present, absent []string
		for _, w := range r.writes {
			row, ok := lookup(got, w.schema, "t", w.id)
			if !ok {
				absent = append(absent, fmt.Sprintf("%s.t id=%d", w.schema, w.id))
				continue
			}
			want := map[string]nullText{"v": {String: strconv.FormatInt(w.v, 10), Valid: true}, "who": w.who}
			for col, val := range want {
				if row[col] != val {
					v = append(v, fmt.Sprintf("%s (%s): %s.t id=%d has %s=%s, the client wrote %s", r.desc, r.st, w.schema, w.id, col, row[col].display(), val.display()))
				}
			}
			present = append(present, fmt.Sprintf("%s.t id=%d", w.schema, w.id))
		}
		switch {
		case r.st == acked && len(absent) > 0:
			v = append(v, fmt.Sprintf("LOST: acknowledged %s is missing %v (present: %v)", r.desc, absent, present))
		case r.st == failed && len(present) > 0:
			v = append(v, fmt.Sprintf("PHANTOM: %s that was never committed (client got an error or never sent COMMIT) is stored: %v (absent: %v)", r.desc, present, absent))
		case r.st == unknown && len(present) > 0 && len(absent) > 0:
			v = append(v, fmt.Sprintf("TORN: %s (outcome unknown at the kill) is partly stored: present %v, absent %v", r.desc, present, absent))
		}
		if r.st == unknown {
			if len(absent) == 0 {
				r.st = acked
				m.stats.committed++
			} else {
				r.st = failed
				m.stats.absent++
			}
		}
	}
	for _, schema := range []string{"c1", "c2"} {
		t := got[schema]["t"]
		if t == nil {
			continue
		}
		for k := range t.rows {
			id, _ := strconv.ParseInt(k, 10, 64)
			if m.byKey[rowKeyOf(schema, id)] == nil {
				v = append(v, fmt.Sprintf("PHANTOM: %s.t holds id=%s that no client ever wrote", schema, k))
			}
		}
	}
	return v
}

func (m *model) checkCounters(got storage) []string {
	var v []string
	for k, c := range m.counters {
		row, ok := lookup(got, k.schema, "counters", k.id)
		if !ok {
			v = append(v, fmt.Sprintf("LOST: counter %s.counters id=%d is missing", k.schema, k.id))
			continue
		}
		n, err := strconv.ParseInt(row["n"].String, 10, 64)
		if err != nil {
			v = append(v, fmt.Sprintf("counter %s.counters id=%d has n=%s", k.schema, k.id, row["n"].display()))
			continue
		}
		if n < c.acked || n > c.attempted {
			v = append(v, fmt.Sprintf("counter %s.counters id=%d is %d; acknowledged increments %d, attempted %d (must be within)", k.schema, k.id, n, c.acked, c.attempted))
		}
		c.acked, c.attempted = n, n
	}
	return v
}

func (m *model) checkSbtest(got storage) []string {
	var v []string
	t := got["c1"]["sbtest"]
	byToken := map[string][]nullText{}
	col := map[string]int{}
	if t != nil {
		for i, c := range t.cols {
			col[c] = i
		}
		for _, r := range t.rows {
			tok := r[col["c"]].String
			if _, dup := byToken[tok]; dup {
				v = append(v, fmt.Sprintf("DUPLICATE: c1.sbtest holds token %q twice (a transaction applied twice?)", tok))
			}
			byToken[tok] = r
		}
	}
	known := map[string]bool{}
	for _, r := range m.sb {
		known[r.token] = true
		row, ok := byToken[r.token]
		switch {
		case r.st == acked && !ok:
			v = append(v, fmt.Sprintf("LOST: acknowledged INSERT INTO c1.sbtest (id %d, c=%q) is missing", r.id, r.token))
		case r.st == acked && (row[col["id"]].String != strconv.FormatInt(r.id, 10) || row[col["k"]].String != strconv.FormatInt(r.k, 10)):
			v = append(v, fmt.Sprintf("acknowledged INSERT INTO c1.sbtest c=%q: client was given id %d k %d, storage has id %s k %s", r.token, r.id, r.k, row[col["id"]].display(), row[col["k"]].display()))
		case r.st == failed && ok:
			v = append(v, fmt.Sprintf("PHANTOM: failed INSERT INTO c1.sbtest c=%q is stored as id %s", r.token, row[col["id"]].display()))
		}
		if r.st == unknown {
			if ok {
				r.st = acked
				r.id, _ = strconv.ParseInt(row[col["id"]].String, 10, 64)
			} else {
				r.st = failed
			}
		}
	}
	for tok := range byToken {
		if !known[tok] {
			v = append(v, fmt.Sprintf("PHANTOM: c1.sbtest holds token %q that no client wrote", tok))
		}
	}
	return v
}

func (m *model) checkRaces(got storage) (v, dirty []string) {
	ids := map[int64]bool{}
	for _, r := range m.races {
		ids[r.id] = true
		row, ok := lookup(got, "c1", "race", r.id)
		who := ""
		if ok {
			who = row["who"].String
		}
		if r.resolved {
			if ok != r.present || who != r.presentWho {
				v = append(v, fmt.Sprintf("c1.race id=%d changed after an earlier restart: was present=%v who=%q, now present=%v who=%q", r.id, r.present, r.presentWho, ok, who))
			}
			continue
		}
		for side := range 2 {
			switch res := r.res[side]; {
			case res == raceOK && (!ok || who != r.who[side]):
				v = append(v, fmt.Sprintf("LOST: acknowledged INSERT INTO c1.race id=%d by %s; storage: present=%v who=%q", r.id, r.who[side], ok, who))
			case res == raceDup && !ok:
				dirty = append(dirty, fmt.Sprintf("DIRTY READ: %s got error 1062 (duplicate key) inserting c1.race id=%d, but after the crash no such row exists: "+
					"the duplicate was an uncommitted row of %s (its result: %s), visible before its binary-log write was durable", r.who[side], r.id, r.who[1-side], r.res[1-side]))
			case (res == raceDup || res == raceOther) && ok && who == r.who[side]:
				v = append(v, fmt.Sprintf("PHANTOM: INSERT INTO c1.race id=%d by %s failed, but its row is stored", r.id, r.who[side]))
			}
		}
		if ok && who != r.who[0] && who != r.who[1] {
			v = append(v, fmt.Sprintf("c1.race id=%d has who=%q, written by neither %q nor %q", r.id, who, r.who[0], r.who[1]))
		}
		r.resolved, r.present, r.presentWho = true, ok, who
	}
	if t := got["c1"]["race"]; t != nil {
		for k := range t.rows {
			id, _ := strconv.ParseInt(k, 10, 64)
			if !ids[id] {
				v = append(v, fmt.Sprintf("PHANTOM: c1.race holds id=%s that no client wrote", k))
			}
		}
	}
	return v, dirty
}

func (r raceResult) String() string {
	return [...]string{"no answer", "OK", "error 1062", "other error"}[r]
}
