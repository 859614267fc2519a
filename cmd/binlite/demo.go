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
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/server"
)

// runDemo starts a source and two replicas on the embedded defaults in a scratch
// directory, drives a small sysbench-like workload on the source through the MySQL
// protocol, and prints a live line per node per second until Ctrl-C (or --seconds).
func runDemo(args []string) error {
	tuneGC()
	fs := flag.NewFlagSet("demo", flag.ExitOnError)
	seconds := fs.Int("seconds", 0, "stop after this many seconds (0 = until Ctrl-C)")
	dir := fs.String("dir", "", "data directory (default: a new temporary directory)")
	clients := fs.Int("clients", 16, "concurrent client connections on the source")
	replicas := fs.Int("replicas", 2, "number of replicas")
	fs.Parse(args)

	if *dir == "" {
		d, err := os.MkdirTemp("", "binlite-demo-")
		if err != nil {
			return err
		}
		*dir = d
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	var nodes []*server.Node
	defer func() {
		for i := len(nodes) - 1; i >= 0; i-- {
			nodes[i].Close()
		}
	}()
	for i := 0; i <= *replicas; i++ {
		n, err := server.Open(server.Config{DataDir: filepath.Join(*dir, fmt.Sprintf("node%d", i+1)), ServerID: uint32(i + 1), HTTPPort: -1, Logger: logger})
		if err != nil {
			return err
		}
		n.Start()
		nodes = append(nodes, n)
	}
	src := nodes[0]
	fmt.Printf("binlite demo in %s\n", *dir)
	for i, n := range nodes {
		role := "source "
		if i > 0 {
			role = "replica"
		}
		fmt.Printf("  %s server_id=%d  mariadb -h127.0.0.1 -P%d -uroot   topology http://%s/\n", role, i+1, n.Port(), n.HTTPAddr())
	}

	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?interpolateParams=true", src.Addr()))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(*clients + 2)
	if err := demoSetup(db); err != nil {
		return err
	}
	conns := make([]*sql.DB, len(nodes))
	conns[0] = db
	for i, n := range nodes[1:] {
		r, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/", n.Addr()))
		if err != nil {
			return err
		}
		defer r.Close()
		conns[i+1] = r
		for _, q := range []string{
			fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='demo', GET_SOURCE_PUBLIC_KEY=1, SOURCE_AUTO_POSITION=1, SOURCE_HEARTBEAT_PERIOD=1", src.Port()),
			"START REPLICA",
			"SET GLOBAL super_read_only = ON",
		} {
			if _, err := r.Exec(q); err != nil {
				return fmt.Errorf("replica %d: %s: %w", i+2, q, err)
			}
		}
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
	last := make([]uint64, len(nodes))
	start := time.Now()
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-tick.C:
		}
		fmt.Printf("[%5.1fs] client commits %d, reads %d, errors %d\n", time.Since(start).Seconds(), writes.Load(), reads.Load(), errs.Load())
		for i, n := range nodes {
			st := n.Status()
			applied := st.Transactions
			line := fmt.Sprintf("  node%d %-7s gtid_executed %-45s %7d txn/s", i+1, map[bool]string{true: "source", false: "replica"}[i == 0], st.GTIDExecuted, applied-last[i])
			if i > 0 {
				line += "  lag " + replicaLag(conns[i])
			}
			last[i] = applied
			fmt.Println(line)
		}
	}
	wg.Wait()
	// Let the replicas catch up, then prove they are exact copies.
	var gtids string
	if err := db.QueryRow("SELECT @@gtid_executed").Scan(&gtids); err != nil {
		return err
	}
	for i := 1; i < len(conns); i++ {
		var r int
		if err := conns[i].QueryRow("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 30)", gtids).Scan(&r); err != nil || r != 0 {
			return fmt.Errorf("replica %d did not catch up: %v", i+1, err)
		}
	}
	var sum int64
	if err := db.QueryRow("SELECT SUM(k) FROM demo.sbtest1").Scan(&sum); err != nil {
		return err
	}
	fmt.Printf("done: %d commits, %d reads, %d errors; SUM(k) on the source = %d\n", writes.Load(), reads.Load(), errs.Load(), sum)
	for i := 1; i < len(conns); i++ {
		var rs int64
		if err := conns[i].QueryRow("SELECT SUM(k) FROM demo.sbtest1").Scan(&rs); err != nil {
			return err
		}
		fmt.Printf("replica node%d: SUM(k) = %d (%s)\n", i+1, rs, map[bool]string{true: "identical", false: "DIFFERENT"}[rs == sum])
	}
	return nil
}

// replicaLag reads Seconds_Behind_Source from SHOW REPLICA STATUS.
func replicaLag(db *sql.DB) string {
	rows, err := db.Query("SHOW REPLICA STATUS")
	if err != nil {
		return "?"
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if !rows.Next() {
		return "?"
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if rows.Scan(ptrs...) != nil {
		return "?"
	}
	for i, c := range cols {
		if c == "Seconds_Behind_Source" {
			if !vals[i].Valid {
				return "NULL"
			}
			return vals[i].String + "s"
		}
	}
	return "?"
}

func demoSetup(db *sql.DB) error {
	stmts := []string{
		"CREATE USER IF NOT EXISTS repl@'%' IDENTIFIED BY 'demo'",
		"GRANT REPLICATION SLAVE ON *.* TO repl@'%'",
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
	// Statements run to completion: one abandoned on cancel would still commit on
	// the source after the demo read its gtid_executed to compare the replicas.
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	for stop.Err() == nil {
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
		if err != nil {
			errs.Add(1)
		}
	}
}
