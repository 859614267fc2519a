package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
)

const (
	sysBinlite = "binlite"
	sysMariaDB = "MariaDB"

	modeTen = "ten" // one sysbench per schema, all schemas at once
	modeOne = "one" // one sysbench on the first schema

	workload = "oltp_write_only"
)

type config struct {
	Seconds          int      `json:"seconds"`
	Modes            []string `json:"modes"`
	Schemas          int      `json:"schemas"`
	ThreadsPerSchema int      `json:"threads_per_schema"`
	OneSchemaThreads int      `json:"one_schema_threads"`
	TableSize        int      `json:"table_size"`
	RandType         string   `json:"rand_type"`
	SampleMS         int      `json:"sample_ms"`
	DrainTimeout     int      `json:"drain_timeout_seconds"`
	ReplicaWorkers   int      `json:"replica_workers"` // binlite replica_parallel_workers; -1: the default
	MariaDB          bool     `json:"mariadb"`
	MariaDBThreads   int      `json:"mariadb_slave_parallel_threads"`
	MariaDBMode      string   `json:"mariadb_slave_parallel_mode"`

	out, chart, workdir, binlite, sysbench, mariadbd, installDB, root string
	keep, chartOnly                                                   bool
}

func main() {
	var cfg config
	var modes string
	flag.IntVar(&cfg.Seconds, "seconds", 60, "seconds of sysbench per load")
	flag.StringVar(&modes, "modes", modeTen+","+modeOne, "loads, comma-separated: \"ten\" (one sysbench per schema, all at once), \"one\" (one sysbench on one schema)")
	flag.IntVar(&cfg.Schemas, "schemas", 10, "schemas (databases lag1..lagN) of the \"ten\" load")
	flag.IntVar(&cfg.ThreadsPerSchema, "threads-per-schema", 4, "sysbench threads of each of the \"ten\" load's processes")
	flag.IntVar(&cfg.OneSchemaThreads, "one-schema-threads", 8, "sysbench threads of the \"one\" load")
	flag.IntVar(&cfg.TableSize, "table-size", 10000, "rows in each schema's sbtest1")
	flag.StringVar(&cfg.RandType, "rand-type", "uniform", "sysbench --rand-type")
	flag.IntVar(&cfg.SampleMS, "sample-ms", 200, "sampling interval of the lag, milliseconds")
	flag.IntVar(&cfg.DrainTimeout, "drain-timeout", 120, "seconds to wait after the load for the replica to catch up")
	flag.IntVar(&cfg.ReplicaWorkers, "replica-workers", -1, "binlite replica_parallel_workers (-1: binlite's default)")
	flag.BoolVar(&cfg.MariaDB, "mariadb", true, "also run MariaDB 10.11 (primary + replica) for context")
	flag.IntVar(&cfg.MariaDBThreads, "mariadb-parallel-threads", 4, "MariaDB replica slave_parallel_threads")
	flag.StringVar(&cfg.MariaDBMode, "mariadb-parallel-mode", "optimistic", "MariaDB replica slave_parallel_mode")
	flag.StringVar(&cfg.out, "out", "", "results directory (default <repo>/bench/results)")
	flag.StringVar(&cfg.chart, "chart", "", "SVG chart to write (default <repo>/docs/bench-lag.svg; \"-\" for none)")
	flag.StringVar(&cfg.workdir, "workdir", "", "scratch directory (default a new temporary directory)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory (data directories, server and sysbench logs)")
	flag.StringVar(&cfg.binlite, "binlite", "", "binlite binary to use instead of building ./cmd/binlite")
	flag.StringVar(&cfg.sysbench, "sysbench", "sysbench", "sysbench binary")
	flag.StringVar(&cfg.mariadbd, "mariadbd", "/usr/sbin/mariadbd", "mariadbd binary")
	flag.StringVar(&cfg.installDB, "mariadb-install-db", "mariadb-install-db", "mariadb-install-db binary")
	flag.BoolVar(&cfg.chartOnly, "chart-only", false, "recompute the summaries, tables and chart from <out>/lag.json without running")
	flag.Parse()

	cfg.Modes = splitList(modes)
	for _, m := range cfg.Modes {
		if m != modeTen && m != modeOne {
			fatalf("--modes: unknown load %q", m)
		}
	}
	if cfg.Seconds < 1 || cfg.Schemas < 1 || cfg.ThreadsPerSchema < 1 || cfg.OneSchemaThreads < 1 || cfg.TableSize < 1 || cfg.SampleMS < 10 {
		fatalf("--seconds, --schemas, --threads-per-schema, --one-schema-threads, --table-size must be positive and --sample-ms at least 10")
	}
	var err error
	if cfg.root, err = repoRoot(); err != nil {
		fatalf("%v", err)
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.root, "bench", "results")
	}
	if cfg.chart == "" {
		cfg.chart = filepath.Join(cfg.root, "docs", "bench-lag.svg")
	}
	if cfg.chartOnly {
		rep, err := loadReport(filepath.Join(cfg.out, "lag.json"))
		if err != nil {
			fatalf("%v", err)
		}
		for i := range rep.Runs {
			rep.Runs[i].summarize(rep.Config.SampleMS)
		}
		if err := writeOutputs(&cfg, rep, false); err != nil {
			fatalf("%v", err)
		}
		return
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, &cfg)
	if rep != nil && len(rep.Runs) > 0 {
		if werr := writeOutputs(&cfg, rep, true); werr != nil {
			fmt.Fprintln(os.Stderr, "lag:", werr)
		}
	}
	if err != nil {
		fatalf("%v", err)
	}
	if len(rep.Problems) > 0 {
		os.Exit(3)
	}
}

// pair is a source with one replica attached.
type pair struct {
	sys      string
	src, rep *harness.Server
	probe    func(ctx context.Context) (Sample, error)
}

func (p *pair) stop(rep *Report) {
	for _, s := range []*harness.Server{p.rep, p.src} {
		if s == nil {
			continue
		}
		if exited, werr := s.Proc.Exited(); exited {
			rep.problem("%s: %s had ended before the end of the benchmark (%v):\n%s", p.sys, s.Name, werr, s.Proc.LogTail(20))
			continue
		}
		logf("stopping %s (pid %d)", s.Name, s.Proc.PID())
		if err := s.Stop(); err != nil {
			rep.problem("%s: %v", s.Name, err)
		}
	}
	for _, s := range []*harness.Server{p.src, p.rep} {
		if s != nil {
			scanServerLog(rep, p.sys, s)
		}
	}
}

func run(ctx context.Context, cfg *config) (rep *Report, err error) {
	rep = &Report{
		Benchmark: "lag",
		Command:   commandLine(),
		Started:   time.Now().UTC(),
		Config:    *cfg,
		Machine:   harness.DescribeMachine(),
		Versions:  map[string]string{"sysbench": harness.SysbenchVersion(cfg.sysbench), "binlite_git": harness.GitRevision(cfg.root)},
		Settings:  map[string]map[string]string{},
	}
	var logDir string
	if cfg.workdir, logDir, err = harness.Workdir(cfg.workdir, "lag"); err != nil {
		return rep, err
	}
	logf("scratch directory %s", cfg.workdir)
	defer func() {
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

	systems := []string{sysBinlite}
	if cfg.MariaDB {
		systems = append(systems, sysMariaDB)
	}
	for _, sys := range systems {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		p, err := startPair(ctx, cfg, rep, sys, logDir)
		if err != nil {
			if p != nil {
				p.stop(rep)
			}
			return rep, fmt.Errorf("%s: %w", sys, err)
		}
		err = runLoads(ctx, cfg, rep, p, logDir)
		p.stop(rep)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", sys, err)
		}
	}
	return rep, nil
}

// startPair starts a source and a replica of sys, attaches the replica and creates
// and fills the schemas on the source.
func startPair(ctx context.Context, cfg *config, rep *Report, sys, logDir string) (*pair, error) {
	p := &pair{sys: sys}
	var err error
	switch sys {
	case sysBinlite:
		logf("starting binlite source and replica")
		if p.src, err = harness.StartBinlite(ctx, harness.BinliteOptions{
			Bin: cfg.binlite, DataDir: filepath.Join(cfg.workdir, "binlite-source"), LogPath: filepath.Join(logDir, "binlite-source.log"),
			ConfPath: filepath.Join(cfg.workdir, "binlite-source.cnf"), Options: map[string]string{"sync_binlog": "1"}, ServerID: 1,
		}); err != nil {
			return p, err
		}
		p.src.Name = "binlite source"
		opts := map[string]string{"sync_binlog": "1"}
		if cfg.ReplicaWorkers >= 0 {
			opts["replica_parallel_workers"] = strconv.Itoa(cfg.ReplicaWorkers)
		}
		if p.rep, err = harness.StartBinlite(ctx, harness.BinliteOptions{
			Bin: cfg.binlite, DataDir: filepath.Join(cfg.workdir, "binlite-replica"), LogPath: filepath.Join(logDir, "binlite-replica.log"),
			ConfPath: filepath.Join(cfg.workdir, "binlite-replica.cnf"), Options: opts, ServerID: 2,
		}); err != nil {
			return p, err
		}
		p.rep.Name = "binlite replica"
		if err := harness.AttachBinliteReplica(ctx, p.rep, p.src.Port); err != nil {
			return p, err
		}
		p.probe = binliteProbe(p)
		rep.setting(sys+" source", ctx, p.src, "version", "sync_binlog", "binlog_format", "gtid_mode", "binlog_group_commit_gather_us", "server_id")
		rep.setting(sys+" replica", ctx, p.rep, "version", "replica_parallel_workers", "replica_preserve_commit_order", "sync_relay_log",
			"log_replica_updates", "sync_binlog", "server_id")
	case sysMariaDB:
		logf("installing and starting MariaDB primary and replica")
		if p.src, err = harness.StartMariaDB(ctx, harness.MariaDBOptions{
			Mariadbd: cfg.mariadbd, InstallDB: cfg.installDB, Dir: filepath.Join(cfg.workdir, "mariadb-source"),
			LogPath: filepath.Join(logDir, "mariadb-source.log"), ServerID: 1, Extra: []string{"--binlog-format=ROW"},
		}); err != nil {
			return p, err
		}
		p.src.Name = "MariaDB primary"
		if p.rep, err = harness.StartMariaDB(ctx, harness.MariaDBOptions{
			Mariadbd: cfg.mariadbd, InstallDB: cfg.installDB, Dir: filepath.Join(cfg.workdir, "mariadb-replica"),
			LogPath: filepath.Join(logDir, "mariadb-replica.log"), ServerID: 2,
			Extra: []string{"--binlog-format=ROW", "--log-slave-updates", "--skip-slave-start", "--relay-log-recovery",
				"--slave-parallel-threads=" + strconv.Itoa(cfg.MariaDBThreads), "--slave-parallel-mode=" + cfg.MariaDBMode},
		}); err != nil {
			return p, err
		}
		p.rep.Name = "MariaDB replica"
		if err := harness.AttachMariaDBReplica(ctx, p.rep, p.src.Port); err != nil {
			return p, err
		}
		p.probe = mariadbProbe(p)
		rep.setting(sys+" source", ctx, p.src, "version", "sync_binlog", "binlog_format", "innodb_flush_log_at_trx_commit", "innodb_buffer_pool_size", "server_id")
		rep.setting(sys+" replica", ctx, p.rep, "version", "slave_parallel_threads", "slave_parallel_mode", "log_slave_updates", "sync_binlog",
			"innodb_flush_log_at_trx_commit", "relay_log_recovery", "server_id")
	}
	rep.Versions[sys] = rep.Settings[sys+" source"]["version"]

	logf("%s: creating %d schemas of %d rows (sysbench %s prepare)", sys, cfg.Schemas, cfg.TableSize, workload)
	var wg sync.WaitGroup
	errs := make([]error, cfg.Schemas)
	sem := make(chan struct{}, 2)
	for i := 1; i <= cfg.Schemas; i++ {
		db := schemaName(i)
		if err := p.src.Exec(ctx, "CREATE DATABASE "+db); err != nil {
			return p, err
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			sb := sysbench(cfg, p.src.Port, db, logDir)
			errs[i-1] = sb.Prepare(ctx, workload, fmt.Sprintf("%s-prepare-%s.log", strings.ToLower(sys), db))
		}(i)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return p, err
	}
	logf("%s: waiting for the replica to have the schemas", sys)
	if _, err := waitCaughtUp(ctx, p, 300*time.Second); err != nil {
		return p, err
	}
	return p, nil
}

func schemaName(i int) string { return "lag" + strconv.Itoa(i) }

func sysbench(cfg *config, port int, db, logDir string) *harness.Sysbench {
	return &harness.Sysbench{Bin: cfg.sysbench, Port: port, DB: db, Tables: 1, TableSize: cfg.TableSize, RandType: cfg.RandType, LogDir: logDir}
}

// waitCaughtUp probes until the replica has every transaction of the source and
// Seconds_Behind_Source is 0, and returns the last sample.
func waitCaughtUp(ctx context.Context, p *pair, within time.Duration) (Sample, error) {
	deadline := time.Now().Add(within)
	var last Sample
	var err error
	for {
		last, err = p.probe(ctx)
		if err == nil && last.Distance == 0 && last.SBS == 0 {
			return last, nil
		}
		if ctx.Err() != nil {
			return last, ctx.Err()
		}
		if time.Now().After(deadline) {
			if err != nil {
				return last, fmt.Errorf("replica not caught up within %v: %w", within, err)
			}
			return last, fmt.Errorf("replica not caught up within %v: %d transactions behind, Seconds_Behind_Source %v; replica log:\n%s",
				within, last.Distance, last.SBS, p.rep.Proc.LogTail(20))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// runLoads runs every configured load against the pair, sampling the lag.
func runLoads(ctx context.Context, cfg *config, rep *Report, p *pair, logDir string) error {
	for _, mode := range cfg.Modes {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if _, err := waitCaughtUp(ctx, p, time.Duration(cfg.DrainTimeout)*time.Second); err != nil {
			return fmt.Errorf("before the %q load: %w", mode, err)
		}
		r := measure(ctx, cfg, rep, p, mode, logDir)
		rep.Runs = append(rep.Runs, r)
		logf("%s %s: %s", p.sys, describeMode(cfg, mode), r.brief())
		if exited, werr := p.src.Proc.Exited(); exited {
			return fmt.Errorf("%s ended: %v\n%s", p.src.Name, werr, p.src.Proc.LogTail(20))
		}
		if exited, werr := p.rep.Proc.Exited(); exited {
			return fmt.Errorf("%s ended: %v\n%s", p.rep.Name, werr, p.rep.Proc.LogTail(20))
		}
	}
	return nil
}

func describeMode(cfg *config, mode string) string {
	if mode == modeTen {
		return fmt.Sprintf("%d schemas × %d threads", cfg.Schemas, cfg.ThreadsPerSchema)
	}
	return fmt.Sprintf("1 schema × %d threads", cfg.OneSchemaThreads)
}

// measure runs one load for cfg.Seconds while sampling the lag, keeps sampling until
// the replica has caught up, and compares the data of both nodes.
func measure(ctx context.Context, cfg *config, rep *Report, p *pair, mode, logDir string) Run {
	r := Run{System: p.sys, Mode: mode, Seconds: cfg.Seconds, SampleMS: cfg.SampleMS}
	var dbs []string
	threads := cfg.OneSchemaThreads
	if mode == modeTen {
		for i := 1; i <= cfg.Schemas; i++ {
			dbs = append(dbs, schemaName(i))
		}
		threads = cfg.ThreadsPerSchema
	} else {
		dbs = []string{schemaName(1)}
	}
	r.Schemas, r.ThreadsPerProcess = len(dbs), threads
	fail := func(format string, args ...any) Run {
		msg := fmt.Sprintf(format, args...)
		r.Error = msg
		rep.problem("%s %s: %s", p.sys, mode, msg)
		return r
	}

	before, err := p.probe(ctx)
	if err != nil {
		return fail("probe before the load: %v", err)
	}
	m0, _ := harness.ReadMachineCPU()
	src0, rep0 := serverCPU(p)
	self0, _ := harness.ProcCPUSeconds(os.Getpid())

	start := time.Now()
	loadDone := make(chan struct{})
	samplesCh := make(chan []Sample, 1)
	go func() { samplesCh <- sampleLoop(ctx, p, cfg, start, loadDone) }()

	results := make([]harness.SysbenchResult, len(dbs))
	errs := make([]error, len(dbs))
	var wg sync.WaitGroup
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb := sysbench(cfg, p.src.Port, db, logDir)
			results[i], errs[i] = sb.Run(ctx, workload, threads, cfg.Seconds, fmt.Sprintf("%s-%s-%s.log", strings.ToLower(p.sys), mode, db))
		}()
	}
	wg.Wait()
	wall := time.Since(start).Seconds()
	r.LoadSeconds = wall
	m1, _ := harness.ReadMachineCPU()
	src1, rep1 := serverCPU(p)
	self1, _ := harness.ProcCPUSeconds(os.Getpid())
	close(loadDone)
	r.SampleData = <-samplesCh

	var sbCPU float64
	for i, res := range results {
		r.Sysbench = append(r.Sysbench, SysbenchBrief{DB: dbs[i], TPS: res.TPS, Transactions: res.Transactions, IgnoredErrors: res.IgnoredErrors,
			Reconnects: res.Reconnects, LatP95Ms: res.LatP95Ms, Seconds: res.TotalSeconds, Log: res.LogPath})
		r.TPS += res.TPS
		r.Transactions += res.Transactions
		r.IgnoredErrors += res.IgnoredErrors
		sbCPU += res.CPUSeconds
	}
	if err := errors.Join(errs...); err != nil {
		return fail("%v", err)
	}
	busy := m1.Sub(m0).Busy
	r.MachineCores = busy / wall
	r.SourceCores, r.ReplicaCores = (src1-src0)/wall, (rep1-rep0)/wall
	r.ServerCores = r.SourceCores + r.ReplicaCores
	r.SysbenchCores = sbCPU / wall
	r.OtherCores = max(0, busy-(src1-src0)-(rep1-rep0)-sbCPU-(self1-self0)) / wall

	if len(r.SampleData) == 0 {
		return fail("no samples")
	}
	last := r.SampleData[len(r.SampleData)-1]
	r.GTIDs = last.SrcLast - before.SrcLast
	if r.GTIDs != uint64(r.Transactions) {
		rep.problem("%s %s: the source's GTIDs grew by %d, sysbench counted %d transactions", p.sys, mode, r.GTIDs, r.Transactions)
	}
	if r.IgnoredErrors > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("sysbench ignored %d errors (deadlocks or lock waits it retried)", r.IgnoredErrors))
	}
	if last.Distance != 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("not caught up within %d s of the end of the load", cfg.DrainTimeout))
		rep.problem("%s %s: replica still %d transactions behind %d s after the load", p.sys, mode, last.Distance, cfg.DrainTimeout)
	}
	r.summarize(cfg.SampleMS)
	for _, x := range r.SampleData {
		if x.ReplicaError != "" {
			rep.problem("%s %s: %d samples saw the replica not running, first at %.1f s: %s", p.sys, mode, r.ReplicaErrors, x.T, x.ReplicaError)
			break
		}
	}

	// Both nodes must hold the same rows.
	if last.Distance == 0 {
		r.Checksum = checksum(ctx, cfg, p, dbs, logDir, mode)
		if r.Checksum != "ok" {
			rep.problem("%s %s: checksum: %s", p.sys, mode, r.Checksum)
		}
	} else {
		r.Checksum = "not run (replica behind)"
	}
	return r
}

// serverCPU is the CPU time the source and the replica have used so far.
func serverCPU(p *pair) (src, rep float64) {
	src, _ = p.src.Proc.CPUSeconds()
	rep, _ = p.rep.Proc.CPUSeconds()
	return src, rep
}

// sampleLoop probes every cfg.SampleMS from start until the load is over and the
// replica has caught up (or the drain timeout).
func sampleLoop(ctx context.Context, p *pair, cfg *config, start time.Time, loadDone <-chan struct{}) []Sample {
	var out []Sample
	tick := time.NewTicker(time.Duration(cfg.SampleMS) * time.Millisecond)
	defer tick.Stop()
	var drainDeadline time.Time
	loading := true
	for {
		if loading {
			select {
			case <-loadDone:
				loading = false
				drainDeadline = time.Now().Add(time.Duration(cfg.DrainTimeout) * time.Second)
			default:
			}
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		s, err := p.probe(pctx)
		cancel()
		if err == nil {
			s.T = s.tRep.Sub(start).Seconds()
			s.TSrc = s.tSrc.Sub(start).Seconds()
			s.Load = loading
			out = append(out, s)
			if !loading && s.Distance == 0 && s.SBS == 0 {
				return out
			}
		} else if ctx.Err() != nil {
			return out
		}
		if !loading && time.Now().After(drainDeadline) {
			return out
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return out
		}
	}
}

// checksum runs `binlite checksum` on the schemas of the load.
func checksum(ctx context.Context, cfg *config, p *pair, dbs []string, logDir, mode string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	args := []string{"checksum", "--source", fmt.Sprintf("127.0.0.1:%d", p.src.Port), "--replica", fmt.Sprintf("127.0.0.1:%d", p.rep.Port),
		"--databases", strings.Join(dbs, ",")}
	cmd := exec.CommandContext(ctx, cfg.binlite, args...)
	out, err := cmd.CombinedOutput()
	logPath := filepath.Join(logDir, fmt.Sprintf("%s-%s-checksum.log", strings.ToLower(p.sys), mode))
	os.WriteFile(logPath, append([]byte(fmt.Sprintf("$ %s %s\n", cfg.binlite, strings.Join(args, " "))), out...), 0o644)
	if err != nil {
		return fmt.Sprintf("%v: %s", err, strings.TrimSpace(lastLines(string(out), 5)))
	}
	return "ok"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// scanServerLog records a server log's error and warning lines as problems,
// except the replica's reconnect warnings when its source is stopped at the end.
func scanServerLog(rep *Report, sys string, s *harness.Server) {
	for _, path := range s.Logs {
		if bad := harness.LogProblems(path, harness.SourceGone); len(bad) > 0 {
			rep.problem("%s: %s log %s has errors or warnings:\n%s", sys, s.Name, path, strings.Join(bad, "\n"))
		}
	}
}

func loadReport(path string) (*Report, error) { return harness.LoadJSON[Report](path) }

func fatalf(format string, args ...any) { harness.Fatalf("lag", format, args...) }

func logf(format string, args ...any) { harness.Logf(format, args...) }

func commandLine() string { return harness.CommandLine("lag") }

func repoRoot() (string, error) { return harness.RepoRoot() }

func splitList(s string) []string { return harness.SplitList(s) }
