package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
	"github.com/binlite/binlite/bench/internal/rawsqlite"
)

const (
	sysBinlite = "binlite"
	sysMariaDB = "MariaDB"
	sysRaw     = "raw SQLite"

	wlUpdate = "oltp_update_index"
	wlInsert = "oltp_insert"
	// textSuffix on a workload runs it over the text protocol (--db-ps-mode=disable):
	// every statement arrives as SQL text with its values in it.
	textSuffix = "-text"

	schema = "sbtest"
	table  = "sbtest.sbtest1"
)

type config struct {
	Repeats       int      `json:"repeats"`
	Seconds       int      `json:"seconds"`
	Threads       []int    `json:"threads"`
	TableSize     int      `json:"table_size"`
	Workloads     []string `json:"workloads"`
	RandType      string   `json:"rand_type"`
	Warmup        int      `json:"warmup_seconds"`
	PauseIdle     bool     `json:"pause_idle"`
	SkipMariaDB   bool     `json:"skip_mariadb"`
	MariaDBFormat string   `json:"mariadb_binlog_format"`

	out, chart, workdir, binlite, sysbench, mariadbd, installDB, root string
	keep, chartOnly                                                   bool
}

func main() {
	var cfg config
	var threads, workloads string
	flag.IntVar(&cfg.Repeats, "repeats", 3, "repeats of every point (medians are reported)")
	flag.IntVar(&cfg.Seconds, "seconds", 10, "seconds per sysbench run and per raw SQLite run")
	flag.StringVar(&threads, "threads", "1,16,64", "sysbench thread counts, comma-separated")
	flag.IntVar(&cfg.TableSize, "table-size", 10000, "rows in sbtest1")
	flag.StringVar(&workloads, "workloads", wlUpdate+","+wlInsert+","+wlUpdate+textSuffix, "sysbench workloads, comma-separated ("+wlUpdate+", "+wlInsert+"; a "+textSuffix+" suffix runs one over the text protocol)")
	flag.StringVar(&cfg.RandType, "rand-type", "uniform", "sysbench --rand-type (the raw SQLite run always draws ids uniformly)")
	flag.IntVar(&cfg.Warmup, "warmup", 3, "seconds of untimed oltp_update_index per server before the first repeat")
	flag.BoolVar(&cfg.PauseIdle, "pause-idle", true, "SIGSTOP the server not being measured (and both during raw SQLite runs)")
	flag.BoolVar(&cfg.SkipMariaDB, "skip-mariadb", false, "do not run MariaDB")
	flag.StringVar(&cfg.MariaDBFormat, "mariadb-binlog-format", "ROW", "MariaDB --binlog-format (binlite logs rows)")
	flag.StringVar(&cfg.out, "out", "", "results directory (default <repo>/bench/results)")
	flag.StringVar(&cfg.chart, "chart", "", "SVG chart to write (default <repo>/docs/bench-singlenode.svg; \"-\" for none)")
	flag.StringVar(&cfg.workdir, "workdir", "", "scratch directory for data directories and logs (default a new temporary directory)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory (data directories, server and sysbench logs)")
	flag.StringVar(&cfg.binlite, "binlite", "", "binlite binary to use instead of building ./cmd/binlite")
	flag.StringVar(&cfg.sysbench, "sysbench", "sysbench", "sysbench binary")
	flag.StringVar(&cfg.mariadbd, "mariadbd", "/usr/sbin/mariadbd", "mariadbd binary")
	flag.StringVar(&cfg.installDB, "mariadb-install-db", "mariadb-install-db", "mariadb-install-db binary")
	flag.BoolVar(&cfg.chartOnly, "chart-only", false, "recompute the summaries, tables and chart from the runs in <out>/singlenode.json without running")
	flag.Parse()

	var err error
	if cfg.Threads, err = harness.ParseInts(threads, 1); err != nil {
		fatalf("--threads: %v", err)
	}
	cfg.Workloads = splitList(workloads)
	for _, w := range cfg.Workloads {
		if b := baseWorkload(w); b != wlUpdate && b != wlInsert {
			fatalf("--workloads: unknown workload %q", w)
		}
	}
	if cfg.Repeats < 1 || cfg.Seconds < 1 || cfg.TableSize < 1 {
		fatalf("--repeats, --seconds and --table-size must be positive")
	}
	if cfg.root, err = repoRoot(); err != nil {
		fatalf("%v", err)
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.root, "bench", "results")
	}
	if cfg.chart == "" {
		cfg.chart = filepath.Join(cfg.root, "docs", "bench-singlenode.svg")
	}

	if cfg.chartOnly {
		rep, err := loadReport(filepath.Join(cfg.out, "singlenode.json"))
		if err != nil {
			fatalf("%v", err)
		}
		rep.summarize(&rep.Config) // the summaries are derived from the runs, which stay as measured
		if err := writeOutputs(&cfg, rep, true); err != nil {
			fatalf("%v", err)
		}
		return
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, &cfg)
	if rep != nil && len(rep.Runs) > 0 {
		rep.summarize(&cfg) // again, for a run cut short
		if werr := writeOutputs(&cfg, rep, true); werr != nil {
			fmt.Fprintln(os.Stderr, "singlenode:", werr)
		}
	}
	if err != nil {
		fatalf("%v", err)
	}
	if len(rep.Problems) > 0 {
		os.Exit(3)
	}
}

// system is one thing measured: a server driven by sysbench, or raw SQLite in-process.
type system struct {
	name string
	srv  *harness.Server
	sb   *harness.Sysbench
	dead error // set once the server has died; later runs are skipped
}

func run(ctx context.Context, cfg *config) (rep *Report, err error) {
	rep = &Report{
		Benchmark: "singlenode",
		Command:   commandLine(),
		Started:   time.Now().UTC(),
		Config:    *cfg,
		Machine:   harness.DescribeMachine(),
		Versions:  map[string]string{"sysbench": harness.SysbenchVersion(cfg.sysbench), "binlite_git": harness.GitRevision(cfg.root)},
		Settings:  map[string]map[string]string{},
	}
	var logDir string
	if cfg.workdir, logDir, err = harness.Workdir(cfg.workdir, "singlenode"); err != nil {
		return rep, err
	}
	logf("scratch directory %s", cfg.workdir)

	var systems []*system
	defer func() {
		for _, s := range systems {
			if s.srv == nil || s.dead != nil {
				continue
			}
			logf("stopping %s (pid %d)", s.name, s.srv.Proc.PID())
			if serr := s.srv.Stop(); serr != nil {
				rep.problem("%s: %v", s.name, serr)
			}
		}
		for _, s := range systems {
			if s.srv != nil {
				scanServerLog(rep, s)
			}
		}
		rep.Finished = time.Now().UTC()
		if cfg.keep || len(rep.Problems) > 0 {
			logf("kept scratch directory %s (logs in %s)", cfg.workdir, logDir)
		} else {
			os.RemoveAll(cfg.workdir)
		}
	}()

	// binlite, built from this repository unless --binlite names a binary.
	bin, err := harness.BuildBinlite(ctx, cfg.root, cfg.workdir, cfg.binlite)
	if err != nil {
		return rep, err
	}
	logf("starting binlite")
	bl, err := harness.StartBinlite(ctx, harness.BinliteOptions{
		Bin: bin, DataDir: filepath.Join(cfg.workdir, "binlite-data"), LogPath: filepath.Join(logDir, "binlite.log"),
		ConfPath: filepath.Join(cfg.workdir, "binlite.cnf"), Options: map[string]string{"sync_binlog": "1"}, ServerID: 1,
	})
	if err != nil {
		return rep, err
	}
	systems = append(systems, &system{name: sysBinlite, srv: bl})
	if !cfg.SkipMariaDB {
		logf("installing and starting MariaDB")
		md, err := harness.StartMariaDB(ctx, harness.MariaDBOptions{
			Mariadbd: cfg.mariadbd, InstallDB: cfg.installDB, Dir: filepath.Join(cfg.workdir, "mariadb"),
			LogPath: filepath.Join(logDir, "mariadbd.log"), ServerID: 1,
			Extra: []string{"--binlog-format=" + cfg.MariaDBFormat},
		})
		if err != nil {
			return rep, err
		}
		md.Name = sysMariaDB
		systems = append(systems, &system{name: sysMariaDB, srv: md})
	}

	// Settings actually in force, and the durability they promise.
	for _, s := range systems {
		names := []string{"version", "sync_binlog", "log_bin", "binlog_format", "gtid_mode", "server_id"}
		if s.srv.Kind == "mariadb" {
			names = []string{"version", "sync_binlog", "log_bin", "binlog_format", "innodb_flush_log_at_trx_commit",
				"innodb_flush_method", "innodb_buffer_pool_size", "innodb_doublewrite", "character_set_server", "server_id"}
		}
		vars, err := variables(ctx, s.srv, names)
		if err != nil {
			return rep, err
		}
		rep.Settings[s.name] = vars
		rep.Versions[s.name] = vars["version"]
		if vars["sync_binlog"] != "1" {
			return rep, fmt.Errorf("%s: sync_binlog is %q, want 1", s.name, vars["sync_binlog"])
		}
		if s.srv.Kind == "mariadb" && (vars["innodb_flush_log_at_trx_commit"] != "1" || vars["log_bin"] != "1") {
			return rep, fmt.Errorf("%s: innodb_flush_log_at_trx_commit=%s log_bin=%s, want 1 and 1", s.name, vars["innodb_flush_log_at_trx_commit"], vars["log_bin"])
		}
		logf("%s %s pid %d port %d: %v", s.name, s.srv.Version, s.srv.Proc.PID(), s.srv.Port, vars)
	}

	// The same schema and table on every server.
	for _, s := range systems {
		s.sb = &harness.Sysbench{Bin: cfg.sysbench, Port: s.srv.Port, DB: schema, Tables: 1, TableSize: cfg.TableSize,
			RandType: cfg.RandType, LogDir: logDir}
		if err := s.srv.Exec(ctx, "CREATE DATABASE "+schema); err != nil {
			return rep, err
		}
		logf("%s: sysbench %s prepare (%d rows)", s.name, wlUpdate, cfg.TableSize)
		if err := s.sb.Prepare(ctx, wlUpdate, logName(s.name, "prepare", 0, 0)); err != nil {
			return rep, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	logf("raw SQLite: creating %d rows", cfg.TableSize)
	rawDir := filepath.Join(cfg.workdir, "raw-sqlite")
	if err := os.MkdirAll(rawDir, 0o755); err != nil {
		return rep, err
	}
	raw, err := rawsqlite.Create(filepath.Join(rawDir, "sbtest.sqlite"), cfg.TableSize)
	if err != nil {
		return rep, err
	}
	defer raw.Close()

	pauseAllBut := func(keep *system) {
		if !cfg.PauseIdle {
			return
		}
		for _, s := range systems {
			if s == keep || s.dead != nil {
				continue
			}
			if err := s.srv.Proc.Pause(); err != nil {
				rep.problem("%v", err)
			}
		}
		if keep != nil && keep.dead == nil {
			if err := keep.srv.Proc.Resume(); err != nil {
				rep.problem("%v", err)
			}
		}
	}
	defer func() {
		for _, s := range systems {
			s.srv.Proc.Resume()
		}
	}()

	if cfg.Warmup > 0 {
		for _, s := range systems {
			pauseAllBut(s)
			logf("%s: warm-up, %s 16 threads %d s (untimed)", s.name, wlUpdate, cfg.Warmup)
			if _, err := s.sb.Run(ctx, wlUpdate, 16, cfg.Warmup, logName(s.name, "warmup", 0, 16)); err != nil {
				return rep, fmt.Errorf("%s warm-up: %w", s.name, err)
			}
		}
	}

	probe := func(label string) {
		st, err := harness.FsyncProbe(cfg.workdir, label, 500)
		if err != nil {
			rep.problem("fsync probe: %v", err)
			return
		}
		rep.Fsync = append(rep.Fsync, st)
		logf("fdatasync probe (%s): median %.0f µs, p95 %.0f µs", label, st.MedianUS, st.P95US)
	}
	pauseAllBut(nil)
	probe("start")

	total := cfg.Repeats * len(cfg.Workloads) * (len(cfg.Threads)*len(systems) + 1)
	done := 0
	for r := 1; r <= cfg.Repeats; r++ {
		order := systems
		if r%2 == 0 { // alternate who goes first, so drift hits both alike
			order = make([]*system, len(systems))
			for i, s := range systems {
				order[len(systems)-1-i] = s
			}
		}
		for _, wl := range cfg.Workloads {
			for _, th := range cfg.Threads {
				for _, s := range order {
					if ctx.Err() != nil {
						return rep, ctx.Err()
					}
					done++
					pauseAllBut(s)
					run := measure(ctx, rep, s, wl, th, r, cfg.Seconds)
					rep.Runs = append(rep.Runs, run)
					logf("[%d/%d] repeat %d %-8s %-17s %2d threads: %s", done, total, r, s.name, wl, th, run.brief())
				}
			}
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			done++
			pauseAllBut(nil)
			run := measureRaw(rep, raw, wl, r, cfg.Seconds)
			rep.Runs = append(rep.Runs, run)
			logf("[%d/%d] repeat %d %-8s %-17s  1 conn   : %s", done, total, r, sysRaw, wl, run.brief())
		}
		probe(fmt.Sprintf("after repeat %d", r))
	}
	for _, s := range systems {
		s.srv.Proc.Resume()
	}
	return rep, nil
}

// measure runs sysbench once against s and checks the run against server counters.
func measure(ctx context.Context, rep *Report, s *system, wl string, threads, repeat, seconds int) Run {
	run := Run{Repeat: repeat, System: s.name, Workload: wl, Threads: threads}
	if s.dead != nil {
		run.Error = fmt.Sprintf("skipped: %v", s.dead)
		return run
	}
	fail := func(err error) Run {
		run.Error = err.Error()
		if exited, werr := s.srv.Proc.Exited(); exited {
			s.dead = fmt.Errorf("%s process ended: %v", s.name, werr)
			rep.problem("%s %s %d threads repeat %d: %s ended (%v); log tail:\n%s", s.name, wl, threads, repeat, s.name, werr, s.srv.Proc.LogTail(30))
		} else {
			rep.problem("%s %s %d threads repeat %d: %v", s.name, wl, threads, repeat, err)
		}
		return run
	}
	before, err := s.srv.ReadCounters(ctx, table)
	if err != nil {
		return fail(err)
	}
	m0, _ := harness.ReadMachineCPU()
	srv0, _ := s.srv.Proc.CPUSeconds()
	t0 := time.Now()
	sb := *s.sb
	if baseWorkload(wl) != wl {
		sb.PSMode = "disable"
	}
	res, err := sb.Run(ctx, baseWorkload(wl), threads, seconds, logName(s.name, wl, repeat, threads))
	wall := time.Since(t0).Seconds()
	m1, _ := harness.ReadMachineCPU()
	srv1, _ := s.srv.Proc.CPUSeconds()
	run.Log = res.LogPath
	if err != nil {
		return fail(err)
	}
	after, err := s.srv.ReadCounters(ctx, table)
	if err != nil {
		return fail(err)
	}
	d := after.Sub(before)
	busy := m1.Sub(m0).Busy
	run.MachineCores = busy / wall
	run.OtherCores = max(0, busy-(srv1-srv0)-res.CPUSeconds) / wall
	run.TPS, run.P95Ms, run.AvgMs, run.MaxMs = res.TPS, res.LatP95Ms, res.LatAvgMs, res.LatMaxMs
	run.Transactions, run.IgnoredErrors, run.Reconnects = res.Transactions, res.IgnoredErrors, res.Reconnects
	run.SysbenchCPU, run.Seconds = res.CPUSeconds, res.TotalSeconds
	run.Server = &d
	var issues []string
	if res.IgnoredErrors != 0 {
		issues = append(issues, fmt.Sprintf("ignored errors: %d", res.IgnoredErrors))
	}
	if res.Reconnects != 0 {
		issues = append(issues, fmt.Sprintf("reconnects: %d", res.Reconnects))
	}
	n := res.Transactions
	if d.GTIDs != uint64(n) {
		issues = append(issues, fmt.Sprintf("GTIDs issued %d != transactions %d", d.GTIDs, n))
	}
	if d.BinlogTxns != uint64(n) {
		issues = append(issues, fmt.Sprintf("binlog transactions %d != transactions %d", d.BinlogTxns, n))
	}
	switch baseWorkload(wl) {
	case wlUpdate:
		if d.SumK != n {
			issues = append(issues, fmt.Sprintf("SUM(k) grew by %d, want %d", d.SumK, n))
		}
	case wlInsert:
		if d.Rows != n {
			issues = append(issues, fmt.Sprintf("COUNT(*) grew by %d, want %d", d.Rows, n))
		}
	}
	if len(issues) > 0 {
		run.Check = strings.Join(issues, "; ")
		rep.problem("%s %s %d threads repeat %d: %s (log %s)", s.name, wl, threads, repeat, run.Check, res.LogPath)
	} else {
		run.Check = "ok"
	}
	return run
}

func measureRaw(rep *Report, raw *rawsqlite.DB, wl string, repeat, seconds int) Run {
	run := Run{Repeat: repeat, System: sysRaw, Workload: wl, Threads: 1}
	d := time.Duration(seconds) * time.Second
	var res rawsqlite.Result
	var err error
	m0, _ := harness.ReadMachineCPU()
	t0 := time.Now()
	switch baseWorkload(wl) {
	case wlUpdate:
		res, err = raw.RunUpdates(d)
	case wlInsert:
		res, err = raw.RunInserts(d)
	}
	wall := time.Since(t0).Seconds()
	m1, _ := harness.ReadMachineCPU()
	if err != nil {
		run.Error = err.Error()
		rep.problem("raw SQLite %s repeat %d: %v", wl, repeat, err)
		return run
	}
	busy := m1.Sub(m0).Busy
	run.MachineCores = busy / wall
	run.OtherCores = max(0, busy-res.CPUSeconds) / wall
	run.TPS, run.P95Ms, run.Transactions, run.Seconds, run.RawCPU = res.TPS, res.LatP95Ms, res.Transactions, res.Seconds, res.CPUSeconds
	run.Check = "ok"
	return run
}

func variables(ctx context.Context, s *harness.Server, names []string) (map[string]string, error) {
	out := s.Settings(ctx, names...)
	if out["sync_binlog"] == harness.Unknown {
		return nil, fmt.Errorf("%s: cannot read @@sync_binlog", s.Name)
	}
	return out, nil
}

// scanServerLog records the server log's error and warning lines as problems.
func scanServerLog(rep *Report, s *system) {
	for _, p := range s.srv.Logs {
		if bad := harness.LogProblems(p, nil); len(bad) > 0 {
			rep.problem("%s log %s has errors or warnings:\n%s", s.name, p, strings.Join(bad, "\n"))
		}
	}
}

func logName(sys, what string, repeat, threads int) string {
	s := strings.ToLower(strings.ReplaceAll(sys, " ", "-"))
	if repeat == 0 && threads == 0 {
		return fmt.Sprintf("%s-%s.log", s, what)
	}
	return fmt.Sprintf("%s-%s-r%d-t%d.log", s, what, repeat, threads)
}

func loadReport(path string) (*Report, error) { return harness.LoadJSON[Report](path) }

func fatalf(format string, args ...any) { harness.Fatalf("singlenode", format, args...) }

func logf(format string, args ...any) { harness.Logf(format, args...) }

func commandLine() string { return harness.CommandLine("singlenode") }

func repoRoot() (string, error) { return harness.RepoRoot() }

func splitList(s string) []string { return harness.SplitList(s) }

// baseWorkload is the sysbench script a workload name runs.
func baseWorkload(wl string) string { return strings.TrimSuffix(wl, textSuffix) }
