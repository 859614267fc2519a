package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/server"
)

// runDemo starts a node on the embedded defaults in a scratch directory, drives a
// small sysbench-like workload through the MySQL protocol, and prints a live line
// per second until Ctrl-C (or --seconds).
func runDemo(args []string) error {
	fs := flag.NewFlagSet("demo", flag.ExitOnError)
	seconds := fs.Int("seconds", 0, "stop after this many seconds (0 = until Ctrl-C)")
	dir := fs.String("dir", "", "data directory (default: a new temporary directory)")
	clients := fs.Int("clients", 16, "concurrent client connections")
	fs.Parse(args)

	if *dir == "" {
		d, err := os.MkdirTemp("", "binlite-demo-")
		if err != nil {
			return err
		}
		*dir = d
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := server.Open(server.Config{DataDir: *dir, ServerID: 1, HTTPPort: -1, Logger: logger})
	if err != nil {
		return err
	}
	n.Start()
	defer n.Close()
	fmt.Printf("binlite demo: node listening on %s (mysql -h127.0.0.1 -P%d -uroot), status at http://%s/status\n", n.Addr(), n.Port(), n.HTTPAddr())
	fmt.Printf("data directory %s\n", *dir)

	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?interpolateParams=false", n.Addr()))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(*clients + 2)
	if err := demoSetup(db); err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() { <-sig; cancel() }()
	if *seconds > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, time.Duration(*seconds)*time.Second)
		defer stop()
	}

	var writes, reads, errs atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < *clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			demoClient(ctx, db, &writes, &reads, &errs)
		}()
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var lastW, lastR int64
	start := time.Now()
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-tick.C:
		}
		st := n.Status()
		w, r := writes.Load(), reads.Load()
		fmt.Printf("[%5.1fs] primary %s  commits/s %6d  reads/s %6d  errors %d  binlog %s:%d  gtid_executed %s\n",
			time.Since(start).Seconds(), n.Addr(), w-lastW, r-lastR, errs.Load(), st.BinlogFile, st.BinlogPos, st.GTIDExecuted)
		lastW, lastR = w, r
	}
	wg.Wait()
	var sum int64
	if err := db.QueryRow("SELECT SUM(k) FROM demo.sbtest1").Scan(&sum); err != nil {
		return err
	}
	fmt.Printf("done: %d commits, %d reads, %d errors; SUM(k) = %d\n", writes.Load(), reads.Load(), errs.Load(), sum)
	return nil
}

func demoSetup(db *sql.DB) error {
	stmts := []string{
		"CREATE DATABASE IF NOT EXISTS demo",
		"CREATE TABLE IF NOT EXISTS demo.sbtest1 (`id` int(10) unsigned NOT NULL AUTO_INCREMENT, `k` int(10) unsigned NOT NULL DEFAULT '0', `c` char(120) NOT NULL DEFAULT '', `pad` char(60) NOT NULL DEFAULT '', PRIMARY KEY (`id`), KEY `k` (`k`)) ENGINE=InnoDB DEFAULT CHARSET=latin1",
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM demo.sbtest1").Scan(&n); err != nil {
		return err
	}
	for ; n < 1000; n++ {
		if _, err := db.Exec("INSERT INTO demo.sbtest1 (id, k, c, pad) VALUES (0, ?, 'demo', 'pad')", rand.IntN(1000)); err != nil {
			return err
		}
	}
	return nil
}

func demoClient(ctx context.Context, db *sql.DB, writes, reads, errs *atomic.Int64) {
	for ctx.Err() == nil {
		id := 1 + rand.IntN(1000)
		var err error
		if rand.IntN(4) == 0 {
			var c string
			err = db.QueryRowContext(ctx, "SELECT c FROM demo.sbtest1 WHERE id = ?", id).Scan(&c)
			if err == nil {
				reads.Add(1)
			}
		} else {
			_, err = db.ExecContext(ctx, "UPDATE demo.sbtest1 SET k = k + 1 WHERE id = ?", id)
			if err == nil {
				writes.Add(1)
			}
		}
		if err != nil && ctx.Err() == nil {
			errs.Add(1)
		}
	}
}
