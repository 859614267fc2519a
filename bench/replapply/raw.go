package main

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/sqlitec"
)

// The physical limit: the rows binlite's replica applies, taken from its relay log,
// applied in-process to copies of the replica's own SQLite files through
// mattn/go-sqlite3 (WAL, synchronous=NORMAL, binlite's page cache size), by primary
// key, in transactions of a fixed number of rows, one connection per file, one
// goroutine per file. No relay log reading, no GTID bookkeeping, no binary log.

// rowImage is the after image of one captured update.
type rowImage struct {
	id, k  int64
	c, pad any
}

// rawUpdateSQL writes the whole after image by primary key.
const rawUpdateSQL = `UPDATE "sbtest" SET "k" = ?, "c" = ?, "pad" = ? WHERE "id" = ?`

// captureRows reads the update row images of every schema's sbtest from the relay
// log files in dir, in relay-log order.
func captureRows(dir string) (map[string][]rowImage, error) {
	files, err := filepath.Glob(filepath.Join(dir, "relay-bin.[0-9]*"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no relay-bin.NNNNNN files in %s", dir)
	}
	slices.Sort(files)
	out := map[string][]rowImage{}
	for _, f := range files {
		err := binlog.ReadFile(f, func(_ binlog.EventHeader, ev binlog.Event) error {
			re, ok := ev.(*binlog.RowsEvent)
			if !ok || re.Table != "sbtest" {
				return nil
			}
			col := map[string]int{}
			for i, c := range re.Columns {
				col[c] = i
			}
			ci, ok1 := col["id"]
			ck, ok2 := col["k"]
			cc, ok3 := col["c"]
			cp, ok4 := col["pad"]
			if !ok1 || !ok2 || !ok3 || !ok4 {
				return fmt.Errorf("%s: rows event on %s.sbtest with columns %v", f, re.Schema, re.Columns)
			}
			for _, r := range re.Rows {
				if r.Op != binlog.OpUpdate {
					continue
				}
				a := r.After
				if a[ci].Kind != binlog.KindInt || a[ck].Kind != binlog.KindInt {
					return fmt.Errorf("%s: %s.sbtest update with id/k of kinds %v/%v", f, re.Schema, a[ci].Kind, a[ck].Kind)
				}
				out[re.Schema] = append(out[re.Schema], rowImage{id: a[ci].Int, k: a[ck].Int, c: goValue(a[cc]), pad: goValue(a[cp])})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func goValue(v binlog.Value) any {
	switch v.Kind {
	case binlog.KindInt:
		return v.Int
	case binlog.KindReal:
		return v.Real
	case binlog.KindText:
		return string(v.Bytes)
	case binlog.KindBlob:
		return v.Bytes
	}
	return nil
}

// rawResult is one timed raw SQLite apply.
type rawResult struct {
	Rows       int64
	Seconds    float64
	CPUSeconds float64 // this process's user+system time during the apply
	Sums       map[string]sums
}

type rawFile struct {
	schema string
	conn   *sqlite3.SQLiteConn
	upd    driver.StmtExecContext
	stmt   driver.Stmt
	rows   []rowImage
}

// applyRaw copies each schema's SQLite file from snap into dir and applies that
// schema's rows to it, batch rows per transaction, all files at once (one goroutine
// and connection each). The clock runs from the release of the goroutines until the
// last one committed.
// A non-empty profile is where the timed section's CPU profile goes (--cpuprofile).
func applyRaw(snap, dir string, rows map[string][]rowImage, schemas []string, batch int, profile string) (rawResult, error) {
	var res rawResult
	if err := os.RemoveAll(dir); err != nil {
		return res, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	var files []*rawFile
	defer func() {
		for _, f := range files {
			if f.stmt != nil {
				f.stmt.Close()
			}
			f.conn.Close()
		}
	}()
	ctx := context.Background()
	for _, s := range schemas {
		for _, suffix := range []string{".sqlite", ".sqlite-wal"} {
			src := filepath.Join(snap, s+suffix)
			if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) && suffix != ".sqlite" {
				continue
			}
			if err := copyRegular(src, filepath.Join(dir, s+suffix)); err != nil {
				return res, err
			}
		}
		// binlite's files declare MySQL collations on text columns: registered as the engine does.
		drv := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
			return collation.Register(func(name string, cmp func(a, b string) int) error { return sqlitec.RegisterCollation(c, name, cmp) })
		}}
		c, err := drv.Open("file:" + filepath.Join(dir, s+".sqlite") + "?_journal_mode=WAL&_synchronous=NORMAL&_cache_size=-65536&_busy_timeout=10000")
		if err != nil {
			return res, err
		}
		f := &rawFile{schema: s, conn: c.(*sqlite3.SQLiteConn), rows: rows[s]}
		files = append(files, f)
		if f.stmt, err = f.conn.Prepare(rawUpdateSQL); err != nil {
			return res, fmt.Errorf("raw SQLite %s: %w", s, err)
		}
		f.upd = f.stmt.(driver.StmtExecContext)
		// Warm-up, as on the servers: read the table once.
		if _, err := queryInts(f.conn, `SELECT SUM(k) + SUM(LENGTH(pad)) + COUNT(*) FROM "sbtest"`); err != nil {
			return res, fmt.Errorf("raw SQLite %s: %w", s, err)
		}
		res.Rows += int64(len(f.rows))
	}

	start := make(chan struct{})
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = f.apply(ctx, batch)
		}()
	}
	syscall.Sync() // the copies above are not this apply's writes
	if profile != "" {
		pf, err := os.Create(profile)
		if err != nil {
			return res, err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return res, err
		}
		defer pprof.StopCPUProfile()
	}
	cpu0 := cpuSeconds()
	t0 := time.Now()
	close(start)
	wg.Wait()
	res.Seconds = time.Since(t0).Seconds()
	res.CPUSeconds = cpuSeconds() - cpu0
	if err := errors.Join(errs...); err != nil {
		return res, err
	}
	res.Sums = map[string]sums{}
	for _, f := range files {
		v, err := queryInts(f.conn, `SELECT COALESCE(SUM(k), 0), COUNT(*) FROM "sbtest"`)
		if err != nil {
			return res, err
		}
		res.Sums[f.schema] = sums{SumK: v[0], Rows: v[1]}
	}
	return res, nil
}

func (f *rawFile) apply(ctx context.Context, batch int) error {
	args := make([]driver.NamedValue, 4)
	for i := range args {
		args[i].Ordinal = i + 1
	}
	for i := 0; i < len(f.rows); i += batch {
		if _, err := f.conn.ExecContext(ctx, "BEGIN", nil); err != nil {
			return err
		}
		for _, r := range f.rows[i:min(i+batch, len(f.rows))] {
			args[0].Value, args[1].Value, args[2].Value, args[3].Value = r.k, r.c, r.pad, r.id
			res, err := f.upd.ExecContext(ctx, args)
			if err != nil {
				return fmt.Errorf("raw SQLite %s: %w", f.schema, err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return fmt.Errorf("raw SQLite %s: update of id %d affected %d rows", f.schema, r.id, n)
			}
		}
		if _, err := f.conn.ExecContext(ctx, "COMMIT", nil); err != nil {
			return err
		}
	}
	return nil
}

// queryInts returns the first row of q as integers.
func queryInts(c *sqlite3.SQLiteConn, q string) ([]int64, error) {
	rows, err := c.QueryContext(context.Background(), q, nil)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	dest := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(dest); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: no row", q)
		}
		return nil, err
	}
	out := make([]int64, len(dest))
	for i, v := range dest {
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("%s: column %d is %T", q, i, v)
		}
		out[i] = n
	}
	return out, nil
}

func copyRegular(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
