package binlog

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

// BenchmarkReaderRows reads single-row sysbench-style update transactions, as a
// replica's applier reads its relay log (ns/op and allocs/op are per transaction).
func BenchmarkReaderRows(b *testing.B) {
	dir := b.TempDir()
	l := openTest(b, dir, testOptions())
	c, pad := fmt.Sprintf("%0120d", 7), fmt.Sprintf("%060d", 9)
	const n = 20000
	var batch []*Transaction
	for i := range n {
		img := func(k int64) []Value {
			return []Value{IntValue(int64(i%10000 + 1)), IntValue(k), TextValue(c), TextValue(pad)}
		}
		db := fmt.Sprintf("db%d", i%10)
		batch = append(batch, &Transaction{Schemas: []string{db}, Events: []Event{&RowsEvent{
			Schema: db, Table: "sbtest", Columns: []string{"id", "k", "c", "pad"}, PK: []int{0},
			Rows: []RowChange{{Op: OpUpdate, Before: img(int64(i)), After: img(int64(i + 1))}},
		}}})
		if len(batch) == 1000 {
			if err := l.Commit(batch); err != nil {
				b.Fatal(err)
			}
			batch = nil
		}
	}
	l.Close()
	b.ReportAllocs()
	b.ResetTimer()
	txs := 0
	for txs < b.N {
		r, err := OpenReader(dir, "binlog.000001", 0)
		if err != nil {
			b.Fatal(err)
		}
		for txs < b.N {
			ev, _, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := ev.(*CommitEvent); ok {
				txs++
			}
		}
		r.Close()
	}
}
