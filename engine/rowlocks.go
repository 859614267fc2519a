package engine

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/binlite/binlite/binlog"
)

// Row locks of concurrent explicit transactions (docs/transactions.md).
//
// Statements of explicit transactions run on the schema's writer one at a time,
// interleaved with each other and with autocommit statements, all inside the
// writer's one SQLite transaction. What keeps them apart is this lock table,
// owned by whoever drives the writer (w.own): every row an open transaction
// changed is locked by it until it ends, so the uncommitted changes of open
// transactions and of the groups not yet durable touch pairwise different rows,
// and undoing any of them (a rollback, or taking open transactions out of a
// storage commit) is exact whatever ran in between.

// lockKey names what a change locks: a row by primary key ("p" + values), a unique
// key's value ("u" + index + values), or, where values cannot be compared
// byte-wise (text under a collation), a whole index ("i" + index); "*" is the
// whole table (a table without a primary key, a locking read).
type lockKey struct{ table, key string }

const tableLock = "*"

// txnPart is an explicit transaction's part on one schema's writer: the row
// events its statements captured there, its savepoint marks, and its locks.
type txnPart struct {
	t      *Txn
	w      *writer
	events []binlog.Event
	marks  map[string]int // savepoint name → len(events) when it was set
	// keys are the locks it holds; tables counts its changed rows per table (a
	// table read by another transaction's statement must hold none: rule 2).
	keys   map[lockKey]struct{}
	tables map[string]int
	rows   int // changed rows (the deadlock victim's weight)
	// killed is set when the writer rolled it back (deadlock victim, storage
	// failure, shutdown): its statements and COMMIT fail with it.
	killed error
	ended  bool
	joined bool // in the writer's open list (its first job ran)
}

// span is one statement's events of an open transaction, in execution order
// across transactions: undo runs the journal backwards, redo forwards.
type span struct {
	x        *txnPart
	from, to int
}

// rowLocks is the lock table of one writer.
type rowLocks struct {
	owner map[lockKey]*txnPart
	// pending are the rows of committed transactions and autocommit statements
	// whose group is not yet durable in the binary log: an explicit
	// transaction's statement, answered at once, must not see them before that
	// (invariant 1), so it waits. pendingTables counts them per table; a table
	// changed while no transaction was open has its table key pending (row
	// keys were not computed).
	pending       map[lockKey]int
	pendingTables map[string]int
	open          []*txnPart
	journal       []span
}

// conflict is what a statement must wait for: holder's end, or (holder nil) the
// writer's next storage commit.
type conflict struct {
	holder *txnPart
}

// others reports whether an open transaction other than r exists.
func (l *rowLocks) others(r *txnPart) bool {
	return len(l.open) > 1 || len(l.open) == 1 && l.open[0] != r
}

// busyTable is an open transaction other than r with changes (or a table lock)
// in table, or nil.
func (l *rowLocks) busyTable(r *txnPart, table string) *txnPart {
	for _, x := range l.open {
		if x != r && x.tables[table] > 0 {
			return x
		}
	}
	return nil
}

// check reports what r's statement (r nil: an autocommit one) must wait for
// before it may keep changes to keys or read tables (every row of them).
func (l *rowLocks) check(r *txnPart, keys []lockKey, tables []string) (conflict, bool) {
	for _, t := range tables {
		if x := l.busyTable(r, t); x != nil {
			return conflict{holder: x}, true
		}
		if r != nil && l.pendingTables[t] > 0 {
			return conflict{}, true
		}
	}
	for _, k := range keys {
		if x := l.owner[k]; x != nil && x != r {
			return conflict{holder: x}, true
		}
		if x := l.owner[lockKey{k.table, tableLock}]; x != nil && x != r {
			return conflict{holder: x}, true
		}
		if r != nil && (l.pending[k] > 0 || l.pending[lockKey{k.table, tableLock}] > 0) {
			return conflict{}, true
		}
	}
	return conflict{}, false
}

// take gives r the locks of keys, its statement's changes; from..to are the
// statement's events in r.events.
func (l *rowLocks) take(r *txnPart, keys []lockKey, from, to int) {
	if l.owner == nil {
		l.owner = map[lockKey]*txnPart{}
	}
	for _, k := range keys {
		l.owner[k] = r
		if _, ok := r.keys[k]; !ok {
			r.keys[k] = struct{}{}
			r.tables[k.table]++
		}
	}
	for _, ev := range r.events[from:to] {
		if re, ok := ev.(*binlog.RowsEvent); ok {
			r.rows += len(re.Rows)
		}
	}
	if to > from {
		l.journal = append(l.journal, span{x: r, from: from, to: to})
	}
}

// lockTable gives r a lock on the whole of table (a locking read).
func (l *rowLocks) lockTable(r *txnPart, table string) {
	l.take(r, []lockKey{{table, tableLock}}, 0, 0)
}

// join adds r, a transaction starting on this writer.
func (l *rowLocks) join(r *txnPart) { l.open = append(l.open, r) }

// release ends r: its locks go, and its journal; when it committed, its rows
// are pending until its group is durable and the keys are returned for that.
func (l *rowLocks) release(r *txnPart, committed bool) (pending []lockKey) {
	for k := range r.keys {
		if l.owner[k] == r {
			delete(l.owner, k)
		}
		if committed {
			pending = append(pending, k)
		}
	}
	if committed {
		l.addPendingKeys(pending)
	}
	r.ended = true
	l.open = slices.DeleteFunc(l.open, func(x *txnPart) bool { return x == r })
	l.journal = slices.DeleteFunc(l.journal, func(s span) bool { return s.x == r })
	return pending
}

// cut forgets r's journal beyond event index mark (ROLLBACK TO SAVEPOINT); its
// locks stay, as InnoDB keeps them.
func (l *rowLocks) cut(r *txnPart, mark int) {
	l.journal = slices.DeleteFunc(l.journal, func(s span) bool { return s.x == r && s.from >= mark })
	for i := range l.journal {
		if s := &l.journal[i]; s.x == r && s.to > mark {
			s.to = mark
		}
	}
}

// addPendingKeys records an autocommit member's changed rows as pending.
func (l *rowLocks) addPendingKeys(keys []lockKey) {
	if l.pending == nil {
		l.pending, l.pendingTables = map[lockKey]int{}, map[string]int{}
	}
	for _, k := range keys {
		l.pending[k]++
		l.pendingTables[k.table]++
	}
}

// durable forgets keys as pending: their group is durable in the binary log, so
// seeing them reveals nothing a crash could take back.
func (l *rowLocks) durable(keys []lockKey) {
	for _, k := range keys {
		if l.pending[k]--; l.pending[k] <= 0 {
			delete(l.pending, k)
		}
		if l.pendingTables[k.table]--; l.pendingTables[k.table] <= 0 {
			delete(l.pendingTables, k.table)
		}
	}
}

// stored forgets every pending row (the writer's transaction ended).
func (l *rowLocks) stored() {
	clear(l.pending)
	clear(l.pendingTables)
}

// keyer computes the lock keys of row changes against a writer's catalog.
type keyer struct {
	cat catalog
	buf []byte
}

// keys appends the lock keys of evs' row changes (before and after images).
func (k *keyer) keys(evs []binlog.Event, out []lockKey) []lockKey {
	for _, ev := range evs {
		re, ok := ev.(*binlog.RowsEvent)
		if !ok {
			continue
		}
		t := k.cat[re.Table]
		for i := range re.Rows {
			rc := &re.Rows[i]
			out = k.image(re, t, rc.Before, out)
			out = k.image(re, t, rc.After, out)
		}
	}
	return out
}

func (k *keyer) image(re *binlog.RowsEvent, t *Table, img []binlog.Value, out []lockKey) []lockKey {
	if img == nil {
		return out
	}
	if len(re.PK) == 0 || t == nil {
		return append(out, lockKey{re.Table, tableLock})
	}
	out = append(out, k.valueKey(re.Table, "p", "", re.PK, img))
	for _, u := range t.uniqueKeys() {
		if u.cols == nil {
			out = append(out, lockKey{re.Table, "i" + u.name})
			continue
		}
		null := false
		for _, c := range u.cols {
			null = null || img[c].Kind == binlog.KindNull
		}
		if !null {
			out = append(out, k.valueKey(re.Table, "u", u.name, u.cols, img))
		}
	}
	return out
}

// valueKey encodes the values of cols of img; a text value (compared under a
// collation, where different bytes may be equal) locks the whole index instead.
func (k *keyer) valueKey(table, kind, index string, cols []int, img []binlog.Value) lockKey {
	b := append(k.buf[:0], kind...)
	b = append(b, index...)
	b = append(b, 0)
	for _, c := range cols {
		v := img[c]
		b = append(b, byte(v.Kind))
		switch v.Kind {
		case binlog.KindInt:
			b = binary.BigEndian.AppendUint64(b, uint64(v.Int))
		case binlog.KindReal:
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(v.Real))
		case binlog.KindBlob:
			b = binary.BigEndian.AppendUint32(b, uint32(len(v.Bytes)))
			b = append(b, v.Bytes...)
		case binlog.KindText:
			k.buf = b
			return lockKey{table, "i" + kind + index}
		}
	}
	k.buf = b
	return lockKey{table, string(b)}
}

// pointKey is the lock key of the row with primary key values vals (integers),
// as valueKey encodes it.
func pointKey(table string, vals []int64) lockKey {
	b := []byte{'p', 0}
	for _, v := range vals {
		b = append(b, byte(binlog.KindInt))
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	return lockKey{table, string(b)}
}

// uniqueKey is a UNIQUE index's columns as positions in the logged image; cols
// nil: the index cannot be keyed by value (a prefix, an expression, a generated
// column) and is locked whole.
type uniqueKey struct {
	name string
	cols []int
}

// uniqueKeys are t's UNIQUE indexes other than the primary key.
func (t *Table) uniqueKeys() []uniqueKey {
	if t.uniques != nil {
		return *t.uniques
	}
	var out []uniqueKey
	if t.Def != nil {
		for _, ix := range t.Def.Indexes {
			if !strings.EqualFold(ix.Kind, "UNIQUE") {
				continue
			}
			u := uniqueKey{name: ix.Name}
			for _, p := range ix.Parts {
				j := slices.IndexFunc(t.names, func(n string) bool { return strings.EqualFold(n, p.Column) })
				if p.Column == "" || p.Length > 0 || j < 0 {
					u.cols = nil
					break
				}
				u.cols = append(u.cols, j)
			}
			out = append(out, u)
		}
	}
	t.uniques = &out
	return out
}

// fkNeighbours appends the tables whose rows a write to table reads or changes
// through foreign keys: its parents and its children.
func (c catalog) fkNeighbours(table string, out []string) []string {
	t := c[table]
	if t == nil {
		return out
	}
	for _, fk := range t.ForeignKeys {
		out = append(out, fk.Parent)
	}
	for name, o := range c {
		for _, fk := range o.ForeignKeys {
			if fk.Parent == table {
				out = append(out, name)
			}
		}
	}
	return out
}
