package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
)

const (
	kindBinlite = "binlite"
	kindMariaDB = "mariadb"
)

// node is one replicated system under test: a primary that stays up for the whole
// benchmark, and a replica that is restored from a copy of its data directory and
// restarted before every timed apply.
type node struct {
	sys     string // "binlite" or "MariaDB"
	kind    string
	cfg     *config
	b       *bench
	dir     string // this node's scratch directory
	primary *harness.Server
	replica *harness.Server // nil while not running

	replDir string // binlite: the replica's datadir; MariaDB: the directory holding data/
	snap    string // the replica's data directory as it was before the updates were applied
	set     string // the primary's GTID set after the updates (gtid_executed / gtid_binlog_pos)

	before map[string]sums // per schema, before the updates (the replica's state in snap)
	after  map[string]sums // per schema on the primary after the updates
	load   []harness.SysbenchResult
}

// sums is what the replica is checked against, per table.
type sums struct {
	SumK int64 `json:"sum_k"`
	Rows int64 `json:"rows"`
}

func (n *node) logPath(name string) string { return filepath.Join(n.b.logDir, n.kind+"-"+name) }

func (n *node) replData() string {
	if n.kind == kindMariaDB {
		return filepath.Join(n.replDir, "data")
	}
	return n.replDir
}

// start starts the primary and a fresh replica.
func (n *node) start(ctx context.Context) error {
	var err error
	switch n.kind {
	case kindBinlite:
		n.primary, err = harness.StartBinlite(ctx, harness.BinliteOptions{
			Bin: n.b.binlite, DataDir: filepath.Join(n.dir, "primary"), LogPath: n.logPath("primary.log"),
			ConfPath: filepath.Join(n.dir, "primary.cnf"), Options: map[string]string{"sync_binlog": "1"}, ServerID: 1,
		})
		if err != nil {
			return err
		}
		n.primary.Name = "binlite primary"
		n.replDir = filepath.Join(n.dir, "replica")
		return n.startReplica(ctx)
	default:
		n.primary, err = harness.StartMariaDB(ctx, harness.MariaDBOptions{
			Mariadbd: n.cfg.mariadbd, InstallDB: n.cfg.installDB, Dir: filepath.Join(n.dir, "primary"),
			LogPath: n.logPath("primary.log"), ServerID: 1, Extra: []string{"--binlog-format=" + n.cfg.MariaDBFormat},
		})
		if err != nil {
			return err
		}
		n.primary.Name = "MariaDB primary"
		n.replDir = filepath.Join(n.dir, "replica")
		n.replica, err = harness.StartMariaDB(ctx, harness.MariaDBOptions{
			Mariadbd: n.cfg.mariadbd, InstallDB: n.cfg.installDB, Dir: n.replDir,
			LogPath: n.logPath("replica.log"), ServerID: 2, Extra: harness.MariaDBReplicaExtra(),
		})
		if err != nil {
			return err
		}
		n.replica.Name = "MariaDB replica"
		return nil
	}
}

// startReplica starts the replica process on its (possibly restored) data directory.
func (n *node) startReplica(ctx context.Context) error {
	var err error
	switch n.kind {
	case kindBinlite:
		n.replica, err = harness.StartBinlite(ctx, harness.BinliteOptions{
			Bin: n.b.binlite, DataDir: n.replDir, LogPath: n.logPath("replica.log"),
			ConfPath: filepath.Join(n.dir, "replica.cnf"), Options: map[string]string{"skip_replica_start": "ON"}, ServerID: 2,
		})
		if err == nil {
			n.replica.Name = "binlite replica"
		}
	default:
		n.replica, err = harness.StartMariaDBExisting(ctx, harness.MariaDBOptions{
			Mariadbd: n.cfg.mariadbd, Dir: n.replDir, LogPath: n.logPath("replica.log"), ServerID: 2,
			Extra: harness.MariaDBReplicaExtra(),
		})
		if err == nil {
			n.replica.Name = "MariaDB replica"
		}
	}
	return err
}

// stopReplica stops the running replica: binlite by SIGTERM (its exit is checked),
// MariaDB by SIGKILL (its data directory is replaced before the next start anyway;
// graceful=true shuts it down cleanly instead, for the snapshot).
func (n *node) stopReplica(graceful bool) error {
	if n.replica == nil {
		return nil
	}
	r := n.replica
	n.replica = nil
	if n.kind == kindMariaDB && !graceful {
		return r.Kill()
	}
	return r.Stop()
}

func (n *node) stopAll() []error {
	var errs []error
	if err := n.stopReplica(true); err != nil {
		errs = append(errs, err)
	}
	if n.primary != nil {
		if err := n.primary.Stop(); err != nil {
			errs = append(errs, err)
		}
		n.primary = nil
	}
	return errs
}

// prepare builds the replica snapshot: schemas with rowsPerTable rows replicated, the
// SQL thread stopped, the updates run on the primary by one sysbench client per
// schema, the relay log holding them all, then the replica stopped and its data
// directory copied aside.
func (n *node) prepare(ctx context.Context, schemas []string, rowsPerTable, updates, threads int) error {
	p, r := n.primary, n.replica
	switch n.kind {
	case kindBinlite:
		if err := r.Exec(ctx, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', SOURCE_AUTO_POSITION=1", p.Port),
			"START REPLICA"); err != nil {
			return err
		}
	default:
		if err := r.Exec(ctx, fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', MASTER_USE_GTID=slave_pos", p.Port),
			"START SLAVE"); err != nil {
			return err
		}
	}
	logf("%s: creating %d schema(s) × %d rows", n.sys, len(schemas), rowsPerTable)
	for i, s := range schemas {
		ddl := strings.Replace(harness.SeedTableDDL, "CREATE TABLE sbtest", "CREATE TABLE "+s+".sbtest", 1)
		if err := p.Exec(ctx, "CREATE DATABASE "+s, ddl); err != nil {
			return err
		}
		if err := p.FillSbtest(ctx, s, harness.SbtestRows(rowsPerTable, uint64(i+1)), 500); err != nil {
			return err
		}
	}
	set, err := n.primarySet(ctx)
	if err != nil {
		return err
	}
	if err := n.waitApplied(ctx, set, 10*time.Minute); err != nil {
		return fmt.Errorf("replicating the initial rows: %w", err)
	}
	if n.before, err = tableSums(ctx, p, schemas); err != nil {
		return err
	}
	rs, err := tableSums(ctx, r, schemas)
	if err != nil {
		return err
	}
	if d := diffSums(n.before, rs); d != "" {
		return fmt.Errorf("%s replica differs from its primary after the initial rows: %s", n.sys, d)
	}
	stopSQL := "STOP REPLICA SQL_THREAD"
	if n.kind == kindMariaDB {
		stopSQL = "STOP SLAVE SQL_THREAD"
	}
	if err := r.Exec(ctx, stopSQL); err != nil {
		return err
	}

	logf("%s: %d sysbench client(s) × %d threads send %d updates", n.sys, len(schemas), threads, updates)
	t0 := time.Now()
	if n.load, err = runLoad(ctx, n, schemas, updates, threads); err != nil {
		return err
	}
	wall := time.Since(t0).Seconds()
	if n.set, err = n.primarySet(ctx); err != nil {
		return err
	}
	if n.after, err = tableSums(ctx, p, schemas); err != nil {
		return err
	}
	var grew int64
	for _, s := range schemas {
		grew += n.after[s].SumK - n.before[s].SumK
	}
	if grew != int64(updates) {
		return fmt.Errorf("%s primary: SUM(k) grew by %d over the schemas, want %d", n.sys, grew, updates)
	}
	logf("%s: primary took the %d updates in %.1f s (%.0f/s); GTID set %s", n.sys, updates, wall, float64(updates)/wall, n.set)

	// The relay log must hold every update before the replica is copied.
	t1 := time.Now()
	for {
		held, err := n.relayHolds(ctx, n.set)
		if err != nil {
			return err
		}
		if held {
			break
		}
		if time.Since(t1) > 5*time.Minute {
			return fmt.Errorf("%s replica: relay log did not receive %s within 5 minutes", n.sys, n.set)
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop := "STOP REPLICA"
	if n.kind == kindMariaDB {
		stop = "STOP SLAVE"
	}
	if err := r.Exec(ctx, stop); err != nil {
		return err
	}
	// The replica must still be in its state before the updates.
	if rs, err = tableSums(ctx, r, schemas); err != nil {
		return err
	}
	if d := diffSums(n.before, rs); d != "" {
		return fmt.Errorf("%s replica applied updates with its SQL thread stopped: %s", n.sys, d)
	}
	if err := n.stopReplica(true); err != nil {
		return fmt.Errorf("stopping the %s replica for its snapshot: %w", n.sys, err)
	}
	n.snap = filepath.Join(n.dir, "replica-snapshot")
	if err := harness.CopyDir(n.replData(), n.snap); err != nil {
		return err
	}
	logf("%s: replica snapshot %s (%.0f MB)", n.sys, n.snap, float64(harness.DirSize(n.snap))/1e6)
	return nil
}

// primarySet is the primary's GTID set: binlite's gtid_executed, MariaDB's gtid_binlog_pos.
func (n *node) primarySet(ctx context.Context) (string, error) {
	if n.kind == kindMariaDB {
		return n.primary.QueryString(ctx, "SELECT @@gtid_binlog_pos")
	}
	return n.primary.QueryString(ctx, "SELECT @@gtid_executed")
}

// relayHolds reports whether the replica has received set (binlite: in
// Retrieved_Gtid_Set; MariaDB: Gtid_IO_Pos reached it).
func (n *node) relayHolds(ctx context.Context, set string) (bool, error) {
	st, err := n.replica.ReplicaStatus(ctx)
	if err != nil {
		return false, err
	}
	if e := st["Last_IO_Errno"]; e != "" && e != "0" {
		return false, fmt.Errorf("%s: IO thread error %s: %s", n.replica.Name, e, st["Last_IO_Error"])
	}
	if n.kind == kindMariaDB {
		return st["Gtid_IO_Pos"] == set, nil
	}
	got := st["Retrieved_Gtid_Set"]
	if got == "" {
		return false, nil
	}
	ok, err := n.replica.QueryInt(ctx, fmt.Sprintf("SELECT GTID_SUBSET(%s, %s)", quote(set), quote(got)))
	return ok == 1, err
}

// waitApplied blocks until the replica has applied set (WAIT_FOR_EXECUTED_GTID_SET
// or MASTER_GTID_WAIT in slices of 60 s), failing early if the SQL thread stopped with
// an error.
func (n *node) waitApplied(ctx context.Context, set string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	q := fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET(%s, 60)", quote(set))
	if n.kind == kindMariaDB {
		q = fmt.Sprintf("SELECT MASTER_GTID_WAIT(%s, 60)", quote(set))
	}
	for {
		v, err := n.replica.QueryInt(ctx, q)
		if err != nil {
			return err
		}
		if v == 0 {
			return nil
		}
		st, err := n.replica.ReplicaStatus(ctx)
		if err != nil {
			return err
		}
		if e := st["Last_SQL_Errno"]; e != "" && e != "0" {
			return fmt.Errorf("%s: SQL thread error %s: %s", n.replica.Name, e, st["Last_SQL_Error"])
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %s not applied within %v (SQL thread running: %s/%s)", n.replica.Name, set, limit,
				st["Replica_SQL_Running"], st["Slave_SQL_Running"])
		}
	}
}

func runLoad(ctx context.Context, n *node, schemas []string, updates, threads int) ([]harness.SysbenchResult, error) {
	res := make([]harness.SysbenchResult, len(schemas))
	errs := make([]error, len(schemas))
	var wg sync.WaitGroup
	for i, s := range schemas {
		events := updates / len(schemas)
		if i < updates%len(schemas) {
			events++
		}
		sb := &harness.Sysbench{Bin: n.cfg.sysbench, Port: n.primary.Port, DB: s, Tables: 1, TableSize: n.cfg.Rows,
			RandType: "uniform", LogDir: n.b.logDir}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = sb.RunEvents(ctx, n.b.script, threads, events, 20*time.Minute,
				fmt.Sprintf("%s-%s-load-%s.log", n.b.name, n.kind, s))
			if errs[i] == nil && (res[i].Transactions != int64(events) || res[i].IgnoredErrors != 0 || res[i].Reconnects != 0) {
				errs[i] = fmt.Errorf("sysbench on %s: %d transactions (want %d), %d ignored errors, %d reconnects",
					s, res[i].Transactions, events, res[i].IgnoredErrors, res[i].Reconnects)
			}
		}()
	}
	wg.Wait()
	return res, errors.Join(errs...)
}

// tableSums reads SUM(k) and COUNT(*) of every schema's sbtest.
func tableSums(ctx context.Context, s *harness.Server, schemas []string) (map[string]sums, error) {
	out := map[string]sums{}
	for _, sc := range schemas {
		var v sums
		if err := s.DB().QueryRowContext(ctx, "SELECT COALESCE(SUM(k), 0), COUNT(*) FROM "+sc+".sbtest").Scan(&v.SumK, &v.Rows); err != nil {
			return nil, fmt.Errorf("%s: %s.sbtest: %w", s.Name, sc, err)
		}
		out[sc] = v
	}
	return out, nil
}

// diffSums describes the tables whose sums differ ("" if none).
func diffSums(want, got map[string]sums) string {
	var d []string
	for s, w := range want {
		if g := got[s]; g != w {
			d = append(d, fmt.Sprintf("%s.sbtest SUM(k)=%d COUNT(*)=%d, want %d and %d", s, g.SumK, g.Rows, w.SumK, w.Rows))
		}
	}
	return strings.Join(d, "; ")
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// setting is one apply configuration of a replica.
type setting struct {
	workers   int
	mode      string // MariaDB slave_parallel_mode ("" with 0 threads)
	crashSafe bool   // binlite_crash_safe_apply
}

// restore puts the replica back into its snapshot state, configured for st, with
// the relay log holding every update and the SQL thread stopped, warmed up and
// checked. It returns the settings read back from the replica.
func (n *node) restore(ctx context.Context, schemas []string, st setting) (map[string]string, error) {
	if err := n.stopReplica(false); err != nil {
		return nil, fmt.Errorf("stopping the previous %s replica: %w", n.sys, err)
	}
	if err := os.RemoveAll(n.replData()); err != nil {
		return nil, err
	}
	if err := harness.CopyDir(n.snap, n.replData()); err != nil {
		return nil, err
	}
	if err := n.startReplica(ctx); err != nil {
		return nil, err
	}
	r := n.replica
	var names []string
	switch n.kind {
	case kindBinlite:
		safe := "ON"
		if !st.crashSafe {
			safe = "OFF"
		}
		if err := r.Exec(ctx, fmt.Sprintf("SET GLOBAL replica_parallel_workers = %d", st.workers),
			"SET GLOBAL binlite_crash_safe_apply = "+safe); err != nil {
			return nil, err
		}
		names = []string{"version", "replica_parallel_workers", "binlite_crash_safe_apply", "replica_preserve_commit_order",
			"log_replica_updates", "sync_binlog", "sync_relay_log", "binlog_group_commit_gather_us", "skip_replica_start", "server_id"}
	default:
		stmts := []string{fmt.Sprintf("SET GLOBAL slave_parallel_threads = %d", st.workers)}
		if st.mode != "" {
			stmts = append(stmts, "SET GLOBAL slave_parallel_mode = '"+st.mode+"'")
		}
		if err := r.Exec(ctx, stmts...); err != nil {
			return nil, err
		}
		names = []string{"version", "slave_parallel_threads", "slave_parallel_mode", "innodb_flush_log_at_trx_commit", "log_bin",
			"relay_log_recovery", "sync_relay_log", "sync_master_info", "innodb_flush_method", "innodb_buffer_pool_size", "server_id"}
	}
	vars, err := r.Variables(ctx, names...)
	if err != nil {
		return nil, err
	}
	if err := checkReplicaVars(n.kind, vars, st); err != nil {
		return vars, err
	}
	if n.kind == kindMariaDB {
		engine, err := r.QueryString(ctx, "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA='mysql' AND TABLE_NAME='gtid_slave_pos'")
		if err != nil {
			return vars, err
		}
		vars["mysql.gtid_slave_pos engine"] = engine
		if engine != "InnoDB" {
			return vars, fmt.Errorf("MariaDB replica: mysql.gtid_slave_pos is %s, want InnoDB (crash-safe)", engine)
		}
		// relay_log_recovery=ON discarded the relay log at start: the IO thread
		// fetches the updates again (untimed) and stays connected, idle, during the
		// timed apply (starting the SQL thread with both threads stopped would make
		// MariaDB discard the relay log again).
		if err := r.Exec(ctx, "START SLAVE IO_THREAD"); err != nil {
			return vars, err
		}
	}
	// binlite's relay log in the snapshot holds every update (checked before the copy,
	// and the raw SQLite rows are read from it); binlite shows Retrieved_Gtid_Set only
	// once a replication thread has started, so it is checked after the timed apply.
	t0 := time.Now()
	for n.kind == kindMariaDB {
		held, err := n.relayHolds(ctx, n.set)
		if err != nil {
			return vars, err
		}
		if held {
			break
		}
		if time.Since(t0) > 5*time.Minute {
			return vars, fmt.Errorf("MariaDB replica: the IO thread did not fetch %s within 5 minutes", n.set)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stt, err := r.ReplicaStatus(ctx)
	if err != nil {
		return vars, err
	}
	if running := stt["Replica_SQL_Running"] + stt["Slave_SQL_Running"]; running != "No" {
		return vars, fmt.Errorf("%s: SQL thread running %q before the timed start", r.Name, running)
	}
	// Warm-up (untimed): read every table, on MariaDB both the clustered index and the
	// index on k, so the timed apply does not start with a cold buffer pool.
	for _, s := range schemas {
		qs := []string{"SELECT SUM(k) + SUM(LENGTH(pad)) + COUNT(*) FROM " + s + ".sbtest"}
		if n.kind == kindMariaDB {
			qs = append(qs, "SELECT SUM(k) FROM "+s+".sbtest FORCE INDEX (k)")
		}
		for _, q := range qs {
			if _, err := r.QueryString(ctx, q); err != nil {
				return vars, err
			}
		}
	}
	got, err := tableSums(ctx, r, schemas)
	if err != nil {
		return vars, err
	}
	if d := diffSums(n.before, got); d != "" {
		return vars, fmt.Errorf("%s replica restored from the snapshot is not in the state before the updates: %s", n.sys, d)
	}
	return vars, nil
}

func checkReplicaVars(kind string, v map[string]string, st setting) error {
	want := map[string]string{}
	switch kind {
	case kindBinlite:
		want["replica_parallel_workers"] = strconv.Itoa(st.workers)
		want["binlite_crash_safe_apply"] = map[bool]string{true: "1", false: "0"}[st.crashSafe]
	default:
		want["slave_parallel_threads"] = strconv.Itoa(st.workers)
		want["innodb_flush_log_at_trx_commit"] = "1"
		want["log_bin"] = "0"
		want["relay_log_recovery"] = "1"
		if st.mode != "" {
			want["slave_parallel_mode"] = st.mode
		}
	}
	for k, w := range want {
		if v[k] != w {
			return fmt.Errorf("%s replica: @@%s is %q, want %q", kind, k, v[k], w)
		}
	}
	return nil
}
