package engine

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkInsertIndexedText inserts sysbench-like rows (a CHAR(120) of digit
// groups) into a table with a secondary index on that column, on a raw engine
// connection (collations registered), in batches of 1000 rows per transaction,
// under each collation: BINARY is SQLite's own byte order, what binlite used
// before text columns declared MySQL collations.
func BenchmarkInsertIndexedText(b *testing.B) {
	for _, coll := range []string{"BINARY", "utf8mb4_general_ci", "utf8mb4_bin", "utf8mb4_unicode_ci", "utf8mb4_0900_ai_ci"} {
		b.Run(coll, func(b *testing.B) {
			c, err := openConn(filepath.Join(b.TempDir(), "x.sqlite"), false, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			for _, q := range []string{
				"CREATE TABLE t (id INTEGER PRIMARY KEY, c CHAR(120) COLLATE " + coll + " NOT NULL)",
				"CREATE INDEX t_c ON t (c)",
			} {
				if _, err := c.exec(q); err != nil {
					b.Fatal(err)
				}
			}
			rnd := rand.New(rand.NewPCG(1, 2))
			val := func() string {
				var s string
				for g := range 10 {
					if g > 0 {
						s += "-"
					}
					s += fmt.Sprintf("%011d", rnd.Int64N(1e11))
				}
				return s
			}
			vals := make([]string, b.N)
			for i := range vals {
				vals[i] = val()
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if i%1000 == 0 {
					if i > 0 {
						if _, err := c.exec("COMMIT"); err != nil {
							b.Fatal(err)
						}
					}
					if _, err := c.exec("BEGIN"); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := c.exec("INSERT INTO t (id, c) VALUES (?, ?)", i+1, vals[i]); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := c.exec("COMMIT"); err != nil {
				b.Fatal(err)
			}
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
