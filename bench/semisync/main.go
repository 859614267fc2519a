package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
)

const (
	sysBinlite = "binlite"
	sysMariaDB = "MariaDB"
)

// schemaName is the k-th schema (0-based) the clients write to: "seed", "seed2", ...
func schemaName(k int) string {
	if k == 0 {
		return "seed"
	}
	return "seed" + strconv.Itoa(k+1)
}

// countRows is the number of rows of every schema's foo table on srv.
func countRows(ctx context.Context, srv *harness.Server, schemas int) (int64, error) {
	var total int64
	for k := 0; k < schemas; k++ {
		n, err := srv.QueryInt(ctx, "SELECT COUNT(*) FROM "+schemaName(k)+".foo")
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

type config struct {
	Threads   []int `json:"threads"`
	Seconds   int   `json:"seconds"`
	Warmup    int   `json:"warmup_seconds"`
	Repeats   int   `json:"repeats"`
	RTTms     int   `json:"rtt_ms"`
	TimeoutMS int   `json:"semi_sync_timeout_ms"`
	Schemas   int   `json:"schemas"` // client i writes to schema i mod Schemas (1: the seed's single table)
	MariaDB   bool  `json:"mariadb"`

	out, chart, workdir, binlite, mariadbd, installDB, root string
	keep, chartOnly                                         bool
}

func main() {
	var cfg config
	var threads string
	flag.StringVar(&threads, "threads", "1,16,64", "client threads, comma-separated")
	flag.IntVar(&cfg.Seconds, "seconds", 20, "timed seconds per run")
	flag.IntVar(&cfg.Warmup, "warmup", 2, "untimed seconds at the start of every run (connections are open before it)")
	flag.IntVar(&cfg.Repeats, "repeats", 3, "repeats of every point (medians are reported)")
	flag.IntVar(&cfg.RTTms, "rtt-ms", 85, "round trip the link adds between replica and source, milliseconds")
	flag.IntVar(&cfg.TimeoutMS, "semi-sync-timeout-ms", 600000, "rpl_semi_sync_{source,master}_timeout")
	flag.IntVar(&cfg.Schemas, "schemas", 1, "spread the clients over this many schemas, each with its own table (diagnostic; the seed has 1)")
	flag.BoolVar(&cfg.MariaDB, "mariadb", true, "also run MariaDB 10.11's semi-sync")
	flag.StringVar(&cfg.out, "out", "", "results directory (default <repo>/bench/results)")
	flag.StringVar(&cfg.chart, "chart", "", "SVG chart to write (default <repo>/docs/bench-semisync.svg; \"-\" for none)")
	flag.StringVar(&cfg.workdir, "workdir", "", "scratch directory (default a new temporary directory)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory (data directories and server logs)")
	flag.StringVar(&cfg.binlite, "binlite", "", "binlite binary to use instead of building ./cmd/binlite")
	flag.StringVar(&cfg.mariadbd, "mariadbd", "/usr/sbin/mariadbd", "mariadbd binary")
	flag.StringVar(&cfg.installDB, "mariadb-install-db", "mariadb-install-db", "mariadb-install-db binary")
	flag.BoolVar(&cfg.chartOnly, "chart-only", false, "recompute the summaries, tables and chart from <out>/semisync.json without running")
	flag.Parse()

	var err error
	if cfg.Threads, err = harness.ParseInts(threads, 1); err != nil {
		fatalf("--threads: %v", err)
	}
	if cfg.Seconds < 1 || cfg.Repeats < 1 || cfg.RTTms < 2 || cfg.Warmup < 0 || cfg.Schemas < 1 {
		fatalf("--seconds, --repeats and --schemas must be positive, --rtt-ms at least 2, --warmup not negative")
	}
	if cfg.root, err = repoRoot(); err != nil {
		fatalf("%v", err)
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.root, "bench", "results")
	}
	if cfg.chart == "" {
		cfg.chart = filepath.Join(cfg.root, "docs", "bench-semisync.svg")
	}
	if cfg.chartOnly {
		rep, err := loadReport(filepath.Join(cfg.out, "semisync.json"))
		if err != nil {
			fatalf("%v", err)
		}
		rep.summarize()
		if err := writeOutputs(&cfg, rep, false); err != nil {
			fatalf("%v", err)
		}
		return
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, &cfg)
	if rep != nil && len(rep.Runs) > 0 {
		rep.summarize()
		if werr := writeOutputs(&cfg, rep, true); werr != nil {
			fmt.Fprintln(os.Stderr, "semisync:", werr)
		}
	}
	if err != nil {
		fatalf("%v", err)
	}
	if len(rep.Problems) > 0 {
		os.Exit(3)
	}
}

// system is a source with a semi-sync replica behind a delaying link.
type system struct {
	name     string
	src, rep *harness.Server
	link     *harness.DelayLink
	client   *sql.DB // the benchmark's connections to the source
	dead     error
}

// status prefixes of the source's and the replica's semi-sync variables.
func (s *system) srcPrefix() string {
	if s.src.Kind == "mariadb" {
		return "Rpl_semi_sync_master_"
	}
	return "Rpl_semi_sync_source_"
}

func (s *system) repStatusName() string {
	if s.rep.Kind == "mariadb" {
		return "Rpl_semi_sync_slave_status"
	}
	return "Rpl_semi_sync_replica_status"
}

func run(ctx context.Context, cfg *config) (rep *Report, err error) {
	rep = &Report{
		Benchmark: "semisync",
		Command:   commandLine(),
		Started:   time.Now().UTC(),
		Config:    *cfg,
		Machine:   harness.DescribeMachine(),
		Versions:  map[string]string{"binlite_git": harness.GitRevision(cfg.root)},
		Settings:  map[string]map[string]string{},
	}
	var logDir string
	if cfg.workdir, logDir, err = harness.Workdir(cfg.workdir, "semisync"); err != nil {
		return rep, err
	}
	logf("scratch directory %s", cfg.workdir)

	var systems []*system
	defer func() {
		for _, s := range systems {
			stopSystem(rep, s)
		}
		rep.Finished = time.Now().UTC()
		if cfg.keep || len(rep.Problems) > 0 || err != nil {
			logf("kept scratch directory %s (logs in %s)", cfg.workdir, logDir)
		} else {
			os.RemoveAll(cfg.workdir)
		}
	}()

	if cfg.binlite, err = harness.BuildBinlite(ctx, cfg.root, cfg.workdir, cfg.binlite); err != nil {
		return rep, err
	}

	rtt := time.Duration(cfg.RTTms) * time.Millisecond
	bl := &system{name: sysBinlite}
	systems = append(systems, bl)
	if err := startBinlite(ctx, cfg, rep, bl, logDir, rtt); err != nil {
		return rep, fmt.Errorf("binlite: %w", err)
	}
	if cfg.MariaDB {
		md := &system{name: sysMariaDB}
		systems = append(systems, md)
		if err := startMariaDB(ctx, cfg, rep, md, logDir, rtt); err != nil {
			return rep, fmt.Errorf("MariaDB: %w", err)
		}
	}
	for _, s := range systems {
		if err := prepare(ctx, cfg, rep, s); err != nil {
			return rep, fmt.Errorf("%s: %w", s.name, err)
		}
	}

	total := cfg.Repeats * len(cfg.Threads) * len(systems)
	done := 0
	for r := 1; r <= cfg.Repeats; r++ {
		order := systems
		if r%2 == 0 { // alternate who goes first, so drift hits both alike
			order = make([]*system, len(systems))
			for i, s := range systems {
				order[len(systems)-1-i] = s
			}
		}
		for _, th := range cfg.Threads {
			for _, s := range order {
				if ctx.Err() != nil {
					return rep, ctx.Err()
				}
				done++
				run := measure(ctx, cfg, rep, s, th, r)
				rep.Runs = append(rep.Runs, run)
				logf("[%d/%d] repeat %d %-8s %2d threads: %s", done, total, r, s.name, th, run.brief(cfg.RTTms))
			}
		}
	}
	for _, s := range systems {
		if s.dead == nil {
			checkReplica(ctx, cfg, rep, s)
		}
	}
	return rep, nil
}

func startBinlite(ctx context.Context, cfg *config, rep *Report, s *system, logDir string, rtt time.Duration) error {
	logf("starting binlite source and replica, link with %v round trip", rtt)
	var err error
	if s.src, err = harness.StartBinlite(ctx, harness.BinliteOptions{
		Bin: cfg.binlite, DataDir: filepath.Join(cfg.workdir, "binlite-source"), LogPath: filepath.Join(logDir, "binlite-source.log"),
		ConfPath: filepath.Join(cfg.workdir, "binlite-source.cnf"), ServerID: 1,
		Options: map[string]string{
			"sync_binlog":                     "1",
			"rpl_semi_sync_source_enabled":    "ON",
			"rpl_semi_sync_source_wait_point": "AFTER_SYNC",
			"rpl_semi_sync_source_timeout":    strconv.Itoa(cfg.TimeoutMS),
		},
	}); err != nil {
		return err
	}
	s.src.Name = "binlite source"
	if s.rep, err = harness.StartBinlite(ctx, harness.BinliteOptions{
		Bin: cfg.binlite, DataDir: filepath.Join(cfg.workdir, "binlite-replica"), LogPath: filepath.Join(logDir, "binlite-replica.log"),
		ConfPath: filepath.Join(cfg.workdir, "binlite-replica.cnf"), ServerID: 2,
		Options: map[string]string{"sync_binlog": "1", "rpl_semi_sync_replica_enabled": "ON"},
	}); err != nil {
		return err
	}
	s.rep.Name = "binlite replica"
	if s.link, err = harness.NewDelayLink("binlite", fmt.Sprintf("127.0.0.1:%d", s.src.Port), rtt); err != nil {
		return err
	}
	if err := harness.AttachBinliteReplica(ctx, s.rep, s.link.Port, "SET GLOBAL rpl_semi_sync_replica_enabled = ON"); err != nil {
		return err
	}
	rep.setting(sysBinlite+" source", ctx, s.src, "version", "sync_binlog", "binlog_format", "rpl_semi_sync_source_enabled",
		"rpl_semi_sync_source_wait_point", "rpl_semi_sync_source_timeout", "rpl_semi_sync_source_wait_for_replica_count", "binlog_group_commit_gather_us")
	rep.setting(sysBinlite+" replica", ctx, s.rep, "version", "rpl_semi_sync_replica_enabled", "sync_relay_log", "sync_binlog", "replica_parallel_workers")
	rep.Versions[sysBinlite] = rep.Settings[sysBinlite+" source"]["version"]
	return nil
}

func startMariaDB(ctx context.Context, cfg *config, rep *Report, s *system, logDir string, rtt time.Duration) error {
	logf("installing and starting MariaDB primary and replica, link with %v round trip", rtt)
	var err error
	if s.src, err = harness.StartMariaDB(ctx, harness.MariaDBOptions{
		Mariadbd: cfg.mariadbd, InstallDB: cfg.installDB, Dir: filepath.Join(cfg.workdir, "mariadb-source"),
		LogPath: filepath.Join(logDir, "mariadb-source.log"), ServerID: 1,
		Extra: []string{"--binlog-format=ROW", "--rpl-semi-sync-master-enabled=ON", "--rpl-semi-sync-master-wait-point=AFTER_SYNC",
			"--rpl-semi-sync-master-timeout=" + strconv.Itoa(cfg.TimeoutMS)},
	}); err != nil {
		return err
	}
	s.src.Name = "MariaDB primary"
	if s.rep, err = harness.StartMariaDB(ctx, harness.MariaDBOptions{
		Mariadbd: cfg.mariadbd, InstallDB: cfg.installDB, Dir: filepath.Join(cfg.workdir, "mariadb-replica"),
		LogPath: filepath.Join(logDir, "mariadb-replica.log"), ServerID: 2,
		Extra: []string{"--binlog-format=ROW", "--log-slave-updates", "--skip-slave-start", "--rpl-semi-sync-slave-enabled=ON", "--sync-relay-log=1"},
	}); err != nil {
		return err
	}
	s.rep.Name = "MariaDB replica"
	if s.link, err = harness.NewDelayLink("mariadb", fmt.Sprintf("127.0.0.1:%d", s.src.Port), rtt); err != nil {
		return err
	}
	if err := harness.AttachMariaDBReplica(ctx, s.rep, s.link.Port); err != nil {
		return err
	}
	rep.setting(sysMariaDB+" source", ctx, s.src, "version", "sync_binlog", "binlog_format", "innodb_flush_log_at_trx_commit",
		"rpl_semi_sync_master_enabled", "rpl_semi_sync_master_wait_point", "rpl_semi_sync_master_timeout", "rpl_semi_sync_master_wait_no_slave",
		"binlog_commit_wait_count", "binlog_commit_wait_usec")
	rep.setting(sysMariaDB+" replica", ctx, s.rep, "version", "rpl_semi_sync_slave_enabled", "sync_relay_log", "sync_binlog",
		"innodb_flush_log_at_trx_commit", "slave_parallel_threads")
	rep.Versions[sysMariaDB] = rep.Settings[sysMariaDB+" source"]["version"]
	return nil
}

// prepare creates the seed's table, waits until the source counts one semi-sync
// client and is ON, opens the benchmark's connection pool and measures the link.
func prepare(ctx context.Context, cfg *config, rep *Report, s *system) error {
	for k := 0; k < cfg.Schemas; k++ {
		if err := s.src.Exec(ctx, "CREATE DATABASE "+schemaName(k),
			"CREATE TABLE "+schemaName(k)+".foo (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, text VARCHAR(8))"); err != nil {
			return err
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, err := s.src.StatusLike(ctx, s.srcPrefix()+"%")
		if err != nil {
			return err
		}
		rs, err := s.rep.StatusLike(ctx, s.repStatusName())
		if err != nil {
			return err
		}
		if st[s.srcPrefix()+"status"] == "ON" && harness.StatusUint(st, s.srcPrefix()+"clients") >= 1 && rs[s.repStatusName()] == "ON" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("semi-sync not ON within 60 s: source %v, replica %v\nreplica log:\n%s", st, rs, s.rep.Proc.LogTail(20))
		}
		time.Sleep(200 * time.Millisecond)
	}
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/%s?timeout=5s&readTimeout=%ds&writeTimeout=60s",
		s.src.Port, schemaName(0), cfg.TimeoutMS/1000+60))
	if err != nil {
		return err
	}
	maxTh := 0
	for _, th := range cfg.Threads {
		maxTh = max(maxTh, th)
	}
	db.SetMaxOpenConns(maxTh)
	db.SetMaxIdleConns(maxTh)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s.client = db

	// The link: a client through the proxy times SELECT 1 (the delay both ways plus a
	// loopback query), which is what an acknowledgement costs at least.
	rtt, err := probeLink(ctx, s.link.Port)
	if err != nil {
		return fmt.Errorf("probing the link: %w", err)
	}
	rep.Links = append(rep.Links, LinkProbe{System: s.name, DownMs: float64(s.link.Down.Microseconds()) / 1000, UpMs: float64(s.link.Up.Microseconds()) / 1000,
		SelectOneMedianMs: rtt.median, SelectOneMinMs: rtt.min, SelectOneMaxMs: rtt.max, N: rtt.n})
	logf("%s: link %v down + %v up; SELECT 1 through it: median %.2f ms (min %.2f, max %.2f)", s.name, s.link.Down, s.link.Up, rtt.median, rtt.min, rtt.max)
	return nil
}

type probeStats struct {
	median, min, max float64
	n                int
}

func probeLink(ctx context.Context, port int) (probeStats, error) {
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/?timeout=10s", port))
	if err != nil {
		return probeStats{}, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return probeStats{}, err
	}
	defer conn.Close()
	var xs []float64
	for i := 0; i < 21; i++ {
		var one int
		t0 := time.Now()
		if err := conn.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
			return probeStats{}, err
		}
		if i > 0 { // the first may still carry connection set-up
			xs = append(xs, float64(time.Since(t0).Microseconds())/1000)
		}
	}
	lo, hi := harness.MinMax(xs)
	return probeStats{median: harness.Median(xs), min: lo, max: hi, n: len(xs)}, nil
}

// checkReplica waits until the replica has as many rows as the source.
func checkReplica(ctx context.Context, cfg *config, rep *Report, s *system) {
	src, err := countRows(ctx, s.src, cfg.Schemas)
	if err != nil {
		rep.problem("%s: %v", s.name, err)
		return
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		n, err := countRows(ctx, s.rep, cfg.Schemas)
		if err == nil && n == src {
			rep.ReplicaRows = append(rep.ReplicaRows, fmt.Sprintf("%s: replica has all %d rows of the source", s.name, n))
			logf("%s: replica has all %d rows", s.name, n)
			return
		}
		if time.Now().After(deadline) {
			rep.problem("%s: replica has %d rows (err %v), source %d, 60 s after the last run", s.name, n, err, src)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func stopSystem(rep *Report, s *system) {
	if s.client != nil {
		s.client.Close()
	}
	for _, srv := range []*harness.Server{s.rep, s.src} {
		if srv == nil {
			continue
		}
		if exited, werr := srv.Proc.Exited(); exited {
			rep.problem("%s had ended before the end of the benchmark (%v):\n%s", srv.Name, werr, srv.Proc.LogTail(20))
			continue
		}
		logf("stopping %s (pid %d)", srv.Name, srv.Proc.PID())
		if err := srv.Stop(); err != nil {
			rep.problem("%s: %v", srv.Name, err)
		}
	}
	if s.link != nil {
		s.link.Close()
	}
	for _, srv := range []*harness.Server{s.src, s.rep} {
		if srv != nil {
			scanServerLog(rep, srv)
		}
	}
}

// scanServerLog records a server log's error and warning lines as problems, except
// the replica losing its source when the benchmark stops the source.
func scanServerLog(rep *Report, s *harness.Server) {
	for _, path := range s.Logs {
		if bad := harness.LogProblems(path, harness.SourceGone); len(bad) > 0 {
			rep.problem("%s log %s has errors or warnings:\n%s", s.Name, path, strings.Join(bad, "\n"))
		}
	}
}

func loadReport(path string) (*Report, error) { return harness.LoadJSON[Report](path) }

func fatalf(format string, args ...any) { harness.Fatalf("semisync", format, args...) }

func logf(format string, args ...any) { harness.Logf(format, args...) }

func commandLine() string { return harness.CommandLine("semisync") }

func repoRoot() (string, error) { return harness.RepoRoot() }
