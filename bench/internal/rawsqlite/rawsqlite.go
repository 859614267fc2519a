package rawsqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"
)

// CreateTable is the table binlite creates for sysbench's sbtest1 (its translation of
// sysbench's CREATE TABLE), so both run on the same SQLite layout.
const CreateTable = `CREATE TABLE "sbtest1" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "k" INTEGER NOT NULL DEFAULT '0', "c" CHAR(120) NOT NULL DEFAULT '', "pad" CHAR(60) NOT NULL DEFAULT '')`

// CreateIndex is sysbench's secondary index on k.
const CreateIndex = `CREATE INDEX "sbtest1.k_1" ON "sbtest1" ("k")`

// The statements measured, one autocommit transaction each.
const (
	UpdateSQL = `UPDATE sbtest1 SET k=k+1 WHERE id=?`
	InsertSQL = `INSERT INTO sbtest1 (k, c, pad) VALUES (?, ?, ?)`
)

// DB is one SQLite database file with the sbtest1 table, opened on one connection.
type DB struct {
	Path      string
	TableSize int
	conn      *sqlite3.SQLiteConn
	rng       *rand.Rand
}

// Create makes a new database at path with tableSize sysbench-like rows.
func Create(path string, tableSize int) (*DB, error) {
	drv := &sqlite3.SQLiteDriver{}
	// The same connection settings as binlite's engine (WAL, synchronous=NORMAL,
	// 64 MiB page cache).
	c, err := drv.Open("file:" + path + "?_journal_mode=WAL&_synchronous=NORMAL&_cache_size=-65536&_busy_timeout=10000")
	if err != nil {
		return nil, err
	}
	db := &DB{Path: path, TableSize: tableSize, conn: c.(*sqlite3.SQLiteConn), rng: rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))}
	ctx := context.Background()
	for _, q := range []string{CreateTable, "BEGIN"} {
		if _, err := db.conn.ExecContext(ctx, q, nil); err != nil {
			db.Close()
			return nil, fmt.Errorf("rawsqlite: %s: %w", q, err)
		}
	}
	st, err := db.conn.Prepare(`INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)`)
	if err != nil {
		db.Close()
		return nil, err
	}
	ex := st.(driver.StmtExecContext)
	for id := 1; id <= tableSize; id++ {
		args := []driver.NamedValue{{Ordinal: 1, Value: int64(id)}, {Ordinal: 2, Value: db.rng.Int64N(int64(tableSize)) + 1},
			{Ordinal: 3, Value: db.digits(10)}, {Ordinal: 4, Value: db.digits(5)}}
		if _, err := ex.ExecContext(ctx, args); err != nil {
			st.Close()
			db.Close()
			return nil, fmt.Errorf("rawsqlite: fill: %w", err)
		}
	}
	st.Close()
	for _, q := range []string{"COMMIT", CreateIndex, "ANALYZE"} {
		if _, err := db.conn.ExecContext(ctx, q, nil); err != nil {
			db.Close()
			return nil, fmt.Errorf("rawsqlite: %s: %w", q, err)
		}
	}
	return db, nil
}

// Close closes the connection.
func (db *DB) Close() error { return db.conn.Close() }

// digits is sysbench's c/pad value: groups of 11 random digits joined by '-'
// (10 groups = 119 characters for c, 5 = 59 for pad).
func (db *DB) digits(groups int) string {
	b := make([]byte, 0, groups*12)
	for g := 0; g < groups; g++ {
		if g > 0 {
			b = append(b, '-')
		}
		for i := 0; i < 11; i++ {
			b = append(b, byte('0'+db.rng.IntN(10)))
		}
	}
	return string(b)
}

// Result is one timed run.
type Result struct {
	Statement    string  `json:"statement"`
	Transactions int64   `json:"transactions"`
	Seconds      float64 `json:"seconds"`
	TPS          float64 `json:"tps"`
	LatP95Ms     float64 `json:"lat_p95_ms"`
	CPUSeconds   float64 `json:"cpu_seconds"` // this process's user+system time during the run
}

// RunUpdates executes UPDATE sbtest1 SET k=k+1 WHERE id=<uniform 1..TableSize>, one
// autocommit transaction each, for d.
func (db *DB) RunUpdates(d time.Duration) (Result, error) {
	args := []driver.NamedValue{{Ordinal: 1}}
	n := int64(db.TableSize)
	return db.run(UpdateSQL, d, func() []driver.NamedValue {
		args[0].Value = db.rng.Int64N(n) + 1
		return args
	})
}

// RunInserts executes sysbench oltp_insert's row shape (id from AUTOINCREMENT, k
// random in 1..TableSize, c 119 and pad 59 random digits), one autocommit
// transaction each, for d.
func (db *DB) RunInserts(d time.Duration) (Result, error) {
	args := []driver.NamedValue{{Ordinal: 1}, {Ordinal: 2}, {Ordinal: 3}}
	n := int64(db.TableSize)
	return db.run(InsertSQL, d, func() []driver.NamedValue {
		args[0].Value = db.rng.Int64N(n) + 1
		args[1].Value = db.digits(10)
		args[2].Value = db.digits(5)
		return args
	})
}

func (db *DB) run(q string, d time.Duration, next func() []driver.NamedValue) (Result, error) {
	r := Result{Statement: q}
	st, err := db.conn.Prepare(q)
	if err != nil {
		return r, err
	}
	defer st.Close()
	ex := st.(driver.StmtExecContext)
	ctx := context.Background()
	lat := make([]time.Duration, 0, 1<<18)
	cpu0 := cpuSeconds()
	start := time.Now()
	end := start.Add(d)
	now := start
	for now.Before(end) {
		args := next()
		t0 := now
		res, err := ex.ExecContext(ctx, args)
		if err != nil {
			return r, fmt.Errorf("rawsqlite: %s: %w", q, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return r, fmt.Errorf("rawsqlite: %s affected %d rows, want 1", q, n)
		}
		now = time.Now()
		lat = append(lat, now.Sub(t0))
		r.Transactions++
	}
	r.Seconds = now.Sub(start).Seconds()
	r.CPUSeconds = cpuSeconds() - cpu0
	r.TPS = float64(r.Transactions) / r.Seconds
	if len(lat) > 0 {
		slices.Sort(lat)
		r.LatP95Ms = float64(lat[(len(lat)*95)/100]) / float64(time.Millisecond)
	}
	return r, nil
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
