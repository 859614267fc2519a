package engine

import (
	"testing"

	"github.com/binlite/binlite/binlog"
	mysqlcatalog "github.com/binlite/binlite/catalog"
)

func newPart(t *Txn) *txnPart {
	return &txnPart{t: t, marks: map[string]int{}, keys: map[lockKey]struct{}{}, tables: map[string]int{}}
}

func rowUpdate(table string, id, before, after int64) *binlog.RowsEvent {
	return &binlog.RowsEvent{Schema: "d", Table: table, Columns: []string{"id", "v"}, PK: []int{0},
		Rows: []binlog.RowChange{{Op: binlog.OpUpdate, Before: []binlog.Value{binlog.IntValue(id), binlog.IntValue(before)},
			After: []binlog.Value{binlog.IntValue(id), binlog.IntValue(after)}}}}
}

// The lock table's state machine: a row changed by an open transaction is
// another's to wait for until it ends; once it commits, the row is pending until
// the storage commit (transactions wait, autocommit statements do not); a table
// with another transaction's changes is busy for statements that read it whole.
func TestRowLocksStateMachine(t *testing.T) {
	var l rowLocks
	k := keyer{cat: catalog{"t": &Table{Name: "t"}}}
	a, b := newPart(&Txn{}), newPart(&Txn{})
	l.join(a)
	l.join(b)

	a.events = append(a.events, rowUpdate("t", 1, 10, 11))
	keys := k.keys(a.events, nil)
	for _, key := range keys {
		if key != pointKey("t", []int64{1}) {
			t.Fatalf("keys of an update of row 1: %q, want only %q", keys, pointKey("t", []int64{1}))
		}
	}
	if c, bad := l.check(a, keys, nil); bad {
		t.Fatalf("a conflicts with nothing yet, got %+v", c)
	}
	l.take(a, keys, 0, 1)
	if c, bad := l.check(b, keys, nil); !bad || c.holder != a {
		t.Fatalf("b on a's row: %+v %v, want to wait for a", c, bad)
	}
	if c, bad := l.check(nil, keys, nil); !bad || c.holder != a {
		t.Fatalf("an autocommit statement on a's row: %+v %v, want to wait for a", c, bad)
	}
	if _, bad := l.check(b, []lockKey{pointKey("t", []int64{2})}, nil); bad {
		t.Fatal("b on another row must not wait")
	}
	if c, bad := l.check(b, nil, []string{"t"}); !bad || c.holder != a {
		t.Fatalf("b reading all of t: %+v %v, want to wait for a", c, bad)
	}
	if _, bad := l.check(a, nil, []string{"t"}); bad {
		t.Fatal("a's own changes never make it wait")
	}
	if len(l.journal) != 1 {
		t.Fatalf("journal %v", l.journal)
	}

	l.release(a, true) // committed: pending until stored
	if len(l.journal) != 0 || len(l.open) != 1 {
		t.Fatalf("after a's commit: journal %v open %d", l.journal, len(l.open))
	}
	if c, bad := l.check(b, keys, nil); !bad || c.holder != nil {
		t.Fatalf("b on a's committed row before storage: %+v %v, want to wait for the storage commit", c, bad)
	}
	if _, bad := l.check(nil, keys, nil); bad {
		t.Fatal("an autocommit statement joins the same group: no wait")
	}
	l.stored()
	if _, bad := l.check(b, keys, []string{"t"}); bad {
		t.Fatal("after the storage commit nothing is locked")
	}
}

// ROLLBACK TO SAVEPOINT drops the journal after the mark and keeps the locks,
// as InnoDB does.
func TestRowLocksSavepointKeepsLocks(t *testing.T) {
	var l rowLocks
	k := keyer{cat: catalog{"t": &Table{Name: "t"}}}
	a, b := newPart(&Txn{}), newPart(&Txn{})
	l.join(a)
	l.join(b)
	a.events = append(a.events, rowUpdate("t", 1, 1, 2), rowUpdate("t", 2, 1, 2))
	l.take(a, k.keys(a.events[:1], nil), 0, 1)
	l.take(a, k.keys(a.events[1:], nil), 1, 2)
	l.cut(a, 1)
	if len(l.journal) != 1 || l.journal[0].to != 1 {
		t.Fatalf("journal after cut: %+v", l.journal)
	}
	if c, bad := l.check(b, []lockKey{pointKey("t", []int64{2})}, nil); !bad || c.holder != a {
		t.Fatal("row 2 stays locked by a after its savepoint rollback")
	}
}

// Lock keys: integer keys by value; a UNIQUE key over text (compared under a
// collation) locks its whole index; NULL in a UNIQUE key locks nothing there;
// a table without a primary key locks whole.
func TestLockKeys(t *testing.T) {
	def := &mysqlcatalog.Table{Indexes: []mysqlcatalog.Index{{Name: "PRIMARY", Kind: "PRIMARY", Parts: []mysqlcatalog.IndexPart{{Column: "id"}}},
		{Name: "u_n", Kind: "UNIQUE", Parts: []mysqlcatalog.IndexPart{{Column: "n"}}},
		{Name: "u_s", Kind: "UNIQUE", Parts: []mysqlcatalog.IndexPart{{Column: "s"}}}}}
	tb := &Table{Name: "t", Def: def, names: []string{"id", "n", "s"}}
	k := keyer{cat: catalog{"t": tb, "nopk": &Table{Name: "nopk"}}}
	ins := &binlog.RowsEvent{Table: "t", Columns: []string{"id", "n", "s"}, PK: []int{0}, Rows: []binlog.RowChange{
		{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(1), binlog.IntValue(7), binlog.TextValue("x")}},
		{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(2), binlog.NullValue(), binlog.TextValue("y")}}}}
	keys := k.keys([]binlog.Event{ins}, nil)
	want := map[string]bool{}
	for _, key := range keys {
		want[key.key] = true
	}
	if len(keys) != 5 || !want["iuu_s"] || !want[pointKey("t", []int64{1}).key] || !want[pointKey("t", []int64{2}).key] {
		t.Fatalf("keys %q", keys)
	}
	other := k.keys([]binlog.Event{&binlog.RowsEvent{Table: "nopk", Columns: []string{"a"}, Rows: []binlog.RowChange{{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(1)}}}}}, nil)
	if len(other) != 1 || other[0].key != tableLock {
		t.Fatalf("a table without a primary key: %v", other)
	}
}
