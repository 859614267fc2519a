package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// BenchmarkApplyAsync applies single-row sysbench-style updates the way the replica
// applier does (queued on the writer, grouped), reporting rows/s.
func BenchmarkApplyAsync(b *testing.B) {
	te := openTest(&testing.T{}, b.TempDir())
	defer te.Close()
	if err := te.CreateSchema("d", false); err != nil {
		b.Fatal(err)
	}
	ddl := "CREATE TABLE sbtest (id INTEGER PRIMARY KEY AUTOINCREMENT, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '')"
	if _, err := te.Exec("d", Stmt{SQL: ddl, DDL: []string{ddl, `CREATE INDEX "sbtest.k" ON sbtest(k)`}}, time.Second); err != nil {
		b.Fatal(err)
	}
	c := fmt.Sprintf("%0120d", 7)
	pad := fmt.Sprintf("%060d", 9)
	t := te.Begin(time.Second)
	for i := 1; i <= 10000; i++ {
		if _, err := t.Exec("d", Stmt{SQL: "INSERT INTO sbtest (id, k, c, pad) VALUES (?, 0, ?, ?)", Args: []any{i, c, pad}}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := t.Commit(); err != nil {
		b.Fatal(err)
	}
	src, _ := gtid.ParseUUID("99999999-2222-3333-4444-555555555555")
	k := make([]int64, 10001)
	txs := make([]*binlog.Transaction, b.N)
	for i := range txs {
		id := 1 + rand.IntN(10000)
		before := []binlog.Value{binlog.IntValue(int64(id)), binlog.IntValue(k[id]), binlog.TextValue(c), binlog.TextValue(pad)}
		k[id]++
		after := []binlog.Value{binlog.IntValue(int64(id)), binlog.IntValue(k[id]), binlog.TextValue(c), binlog.TextValue(pad)}
		txs[i] = &binlog.Transaction{GTID: gtid.GTID{UUID: src, Seq: uint64(i + 1)}, Schemas: []string{"d"}, Events: []binlog.Event{&binlog.RowsEvent{
			Schema: "d", Table: "sbtest", Columns: []string{"id", "k", "c", "pad"}, PK: []int{0},
			Rows: []binlog.RowChange{{Op: binlog.OpUpdate, Before: before, After: after}},
		}}}
	}
	st := &ApplyStream{}
	b.ResetTimer()
	start := time.Now()
	window := make(chan *Pending, 4096)
	done := make(chan struct{})
	go func() {
		for p := range window {
			if _, err := p.Wait(); err != nil {
				b.Error(err)
			}
		}
		close(done)
	}()
	for _, tx := range txs {
		res, err := te.ApplyAsync(st, tx)
		if err != nil {
			b.Fatal(err)
		}
		window <- res
	}
	close(window)
	<-done
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "rows/s")
}
