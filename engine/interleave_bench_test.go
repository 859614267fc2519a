package engine

import (
	"testing"
)

// BenchmarkUndoRedoPerRow is what a storage commit pays per row an open
// transaction changed: the row's inverse image applied (taken out) and its after
// image applied again (put back). ns/op is per row, both directions.
func BenchmarkUndoRedoPerRow(b *testing.B) {
	te := openTest(&testing.T{}, b.TempDir())
	defer te.Close()
	setup(&testing.T{}, te.Engine, "d")
	const rows = 64
	for i := range rows {
		if _, err := te.Exec("d", Stmt{SQL: "INSERT INTO t VALUES (?, ?)", Args: []any{i, i}}, testWait); err != nil {
			b.Fatal(err)
		}
	}
	x := te.Begin(testWait)
	defer x.Rollback()
	for i := range rows {
		if _, err := x.Exec("d", Stmt{SQL: "UPDATE t SET v = v + 1 WHERE id = ?", Args: []any{i}}); err != nil {
			b.Fatal(err)
		}
	}
	s, err := te.schema("d")
	if err != nil {
		b.Fatal(err)
	}
	w := s.w
	w.own.Lock() // the writer is idle with only x open: drive it as an inline session does
	defer w.own.Unlock()
	evs := x.parts[0].events
	b.ResetTimer()
	for range b.N / rows {
		if err := w.undoEvents(evs); err != nil {
			b.Fatal(err)
		}
		if err := w.redoEvents(evs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTxnInterleaved and BenchmarkTxnLeased run the same one-client
// transaction (four point updates and COMMIT) on the interleaved path and on the
// old lease path (a writer held for the whole transaction, as LOCK TABLES still
// does). ns/op is per transaction.
func BenchmarkTxnInterleaved(b *testing.B) { benchTxn(b, false) }
func BenchmarkTxnLeased(b *testing.B)      { benchTxn(b, true) }

func benchTxn(b *testing.B, leased bool) {
	te := openTest(&testing.T{}, b.TempDir())
	defer te.Close()
	setup(&testing.T{}, te.Engine, "d")
	for i := range 100 {
		if _, err := te.Exec("d", Stmt{SQL: "INSERT INTO t VALUES (?, ?)", Args: []any{i, i}}, testWait); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		x := te.Begin(testWait)
		if leased {
			if err := x.Hold("d"); err != nil {
				b.Fatal(err)
			}
		}
		for k := range 4 {
			id := (i*4 + k) % 100
			st := Stmt{SQL: "UPDATE t SET v = v + 1 WHERE id = ?", Args: []any{id}, Tables: []string{"t"}, Point: true, Key: []int64{int64(id)}}
			if _, err := x.Exec("d", st); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := x.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}
