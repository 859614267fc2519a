package main

import (
	"context"
	"errors"
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
	benchCrashSafe = "crashsafe"
	benchParallel  = "parallel"

	sysBinlite = "binlite"
	sysMariaDB = "MariaDB"
	sysRaw     = "raw SQLite"
)

type config struct {
	Benchmarks    []string `json:"benchmarks"`
	Repeats       int      `json:"repeats"`
	Rows          int      `json:"rows_per_table"`
	Updates       int      `json:"updates"`
	Schemas       int      `json:"schemas"` // of the parallel benchmark; crashsafe uses one
	Threads       int      `json:"sysbench_threads_per_client"`
	Workers       []int    `json:"workers"`
	Modes         []string `json:"mariadb_parallel_modes"`
	Batches       []int    `json:"raw_rows_per_transaction"` // swept; ratios use the fastest
	SkipMariaDB   bool     `json:"skip_mariadb"`
	MariaDBFormat string   `json:"mariadb_binlog_format"`
	PauseIdle     bool     `json:"pause_idle"`
	Settle        float64  `json:"settle_max_seconds"`    // per timed run
	SettleBudget  float64  `json:"settle_budget_seconds"` // per benchmark
	SettleCores   float64  `json:"settle_other_cores"`
	ApplyLimit    int      `json:"apply_limit_seconds"`

	out, chartDir, workdir, binlite, sysbench, mariadbd, installDB, root string
	cpuProfile                                                           string
	trace                                                                bool
	keep, chartOnly                                                      bool
}

func main() {
	var cfg config
	var benches, workers, modes string
	flag.StringVar(&benches, "bench", benchCrashSafe+","+benchParallel, "benchmarks to run: crashsafe (seeds/002), parallel (seeds/000)")
	flag.IntVar(&cfg.Repeats, "repeats", 3, "repeats of every timed apply (medians are reported)")
	flag.IntVar(&cfg.Rows, "rows", 10000, "rows per sbtest table")
	flag.IntVar(&cfg.Updates, "updates", 100000, "single-row updates queued in the relay log (spread evenly over the schemas)")
	flag.IntVar(&cfg.Schemas, "schemas", 10, "schemas (db1..dbN) of the parallel benchmark, one sysbench client each")
	flag.IntVar(&cfg.Threads, "threads", 10, "sysbench threads per client generating the updates on the primary")
	flag.StringVar(&workers, "workers", "0,1,2,4,8,10,16,24", "parallel benchmark: replica_parallel_workers / slave_parallel_threads values")
	flag.StringVar(&modes, "modes", "conservative,optimistic", "parallel benchmark: MariaDB slave_parallel_mode values")
	batches := flag.String("batch", "1000,10000,100000", "raw SQLite: rows per transaction, a comma-separated sweep (ratios use the fastest)")
	flag.BoolVar(&cfg.SkipMariaDB, "skip-mariadb", false, "do not run MariaDB")
	flag.StringVar(&cfg.MariaDBFormat, "mariadb-binlog-format", "ROW", "MariaDB primary --binlog-format (binlite replicates rows)")
	flag.BoolVar(&cfg.PauseIdle, "pause-idle", true, "SIGSTOP the primaries not needed by the timed apply")
	flag.Float64Var(&cfg.Settle, "settle", 10, "before each timed run, wait up to this many seconds for processes outside the benchmark to use less than --settle-cores")
	flag.Float64Var(&cfg.SettleBudget, "settle-budget", 180, "total seconds of such waiting per benchmark")
	flag.Float64Var(&cfg.SettleCores, "settle-cores", 0.5, "CPU (cores) that other processes may use when a timed run starts")
	flag.IntVar(&cfg.ApplyLimit, "apply-limit", 900, "seconds a timed apply may take before it counts as failed")
	flag.StringVar(&cfg.out, "out", "", "results directory (default <repo>/bench/results)")
	flag.StringVar(&cfg.chartDir, "chart-dir", "", "directory for the SVG charts (default <repo>/docs; \"-\" for none)")
	flag.StringVar(&cfg.workdir, "workdir", "", "scratch directory for data directories and logs (default a new temporary directory)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory")
	flag.StringVar(&cfg.binlite, "binlite", "", "binlite binary to use instead of building ./cmd/binlite")
	flag.StringVar(&cfg.sysbench, "sysbench", "sysbench", "sysbench binary")
	flag.StringVar(&cfg.mariadbd, "mariadbd", "/usr/sbin/mariadbd", "mariadbd binary")
	flag.StringVar(&cfg.installDB, "mariadb-install-db", "mariadb-install-db", "mariadb-install-db binary")
	flag.StringVar(&cfg.cpuProfile, "cpuprofile", "", "directory for CPU profiles of each timed apply: binlite's replica, and raw SQLite in this process (diagnostic)")
	flag.BoolVar(&cfg.trace, "trace", false, "with --cpuprofile: also save a Go execution trace of each timed apply (diagnostic)")
	flag.BoolVar(&cfg.chartOnly, "chart-only", false, "recompute summaries, tables and charts from the runs in <out>/replapply-*.json without running")
	flag.Parse()

	var err error
	cfg.Benchmarks = splitList(benches)
	for _, b := range cfg.Benchmarks {
		if b != benchCrashSafe && b != benchParallel {
			fatalf("--bench: unknown benchmark %q", b)
		}
	}
	if cfg.Workers, err = harness.ParseInts(workers, 0); err != nil {
		fatalf("--workers: %v", err)
	}
	if cfg.Batches, err = harness.ParseInts(*batches, 1); err != nil {
		fatalf("--batch: %v", err)
	}
	cfg.Modes = splitList(modes)
	for _, m := range cfg.Modes {
		if m != "conservative" && m != "optimistic" && m != "aggressive" && m != "minimal" {
			fatalf("--modes: unknown slave_parallel_mode %q", m)
		}
	}
	if cfg.Repeats < 1 || cfg.Rows < 1 || cfg.Updates < 1 || cfg.Schemas < 1 || cfg.Threads < 1 {
		fatalf("--repeats, --rows, --updates, --schemas, --threads and --batch must be positive")
	}
	if cfg.root, err = repoRoot(); err != nil {
		fatalf("%v", err)
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.root, "bench", "results")
	}
	if cfg.chartDir == "" {
		cfg.chartDir = filepath.Join(cfg.root, "docs")
	}

	if cfg.chartOnly {
		for _, name := range cfg.Benchmarks {
			rep, err := loadReport(filepath.Join(cfg.out, "replapply-"+name+".json"))
			if err != nil {
				fatalf("%v", err)
			}
			rep.summarize()
			if err := writeOutputs(&cfg, rep); err != nil {
				fatalf("%v", err)
			}
		}
		return
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.workdir == "" {
		if cfg.workdir, err = os.MkdirTemp("", "binlite-bench-replapply-"); err != nil {
			fatalf("%v", err)
		}
	} else if err := os.MkdirAll(cfg.workdir, 0o755); err != nil {
		fatalf("%v", err)
	}
	logf("scratch directory %s", cfg.workdir)
	if cfg.binlite, err = harness.BuildBinlite(ctx, cfg.root, cfg.workdir, cfg.binlite); err != nil {
		fatalf("%v", err)
	}
	failed := false
	for _, name := range cfg.Benchmarks {
		rep, err := runBench(ctx, &cfg, name)
		if rep != nil && len(rep.Runs) > 0 {
			rep.summarize()
			if werr := writeOutputs(&cfg, rep); werr != nil {
				fmt.Fprintln(os.Stderr, "replapply:", werr)
				failed = true
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "replapply: %s: %v\n", name, err)
			failed = true
		}
		if rep != nil && len(rep.Problems) > 0 {
			failed = true
		}
		if ctx.Err() != nil {
			break
		}
	}
	if !failed && !cfg.keep {
		os.RemoveAll(cfg.workdir)
	} else {
		logf("kept scratch directory %s", cfg.workdir)
	}
	if failed {
		os.Exit(3)
	}
}

// bench is one benchmark's run: its nodes, schemas and report.
type bench struct {
	name    string
	cfg     *config
	rep     *Report
	dir     string
	logDir  string
	script  string
	binlite string
	schemas []string
	updates int
	nodes   []*node // binlite first, then MariaDB
	rows    map[string][]rowImage
	rawSnap string // the binlite replica snapshot the raw SQLite files are copied from
	done    int
	total   int
	settled float64 // seconds spent waiting for a quiet machine so far
}

func runBench(ctx context.Context, cfg *config, name string) (rep *Report, err error) {
	rep = &Report{
		Benchmark: name,
		Command:   commandLine(),
		Started:   time.Now().UTC(),
		Config:    *cfg,
		Machine:   harness.DescribeMachine(),
		Versions:  map[string]string{"sysbench": harness.SysbenchVersion(cfg.sysbench), "binlite_git": harness.GitRevision(cfg.root)},
		Settings:  map[string]map[string]string{},
		Setup:     map[string]*Setup{},
	}
	b := &bench{name: name, cfg: cfg, rep: rep, dir: filepath.Join(cfg.workdir, name), binlite: cfg.binlite, updates: cfg.Updates}
	b.logDir = filepath.Join(b.dir, "logs")
	if err := os.MkdirAll(b.logDir, 0o755); err != nil {
		return rep, err
	}
	if b.script, err = harness.WriteUpdateKScript(b.dir); err != nil {
		return rep, err
	}
	nSchemas := cfg.Schemas
	if name == benchCrashSafe {
		nSchemas = 1
	}
	for i := 1; i <= nSchemas; i++ {
		b.schemas = append(b.schemas, "db"+strconv.Itoa(i))
	}
	logf("=== %s: %d schema(s) × %d rows, %d updates, %d repeats", name, nSchemas, cfg.Rows, cfg.Updates, cfg.Repeats)
	defer func() {
		b.resumeAll()
		for _, n := range b.nodes {
			for _, e := range n.stopAll() {
				rep.problem("stopping %s: %v", n.sys, e)
			}
		}
		for _, n := range b.nodes {
			scanLogs(rep, n)
		}
		rep.Finished = time.Now().UTC()
	}()

	kinds := []string{kindBinlite}
	if !cfg.SkipMariaDB {
		kinds = append(kinds, kindMariaDB)
	}
	for _, k := range kinds {
		n := &node{kind: k, sys: map[string]string{kindBinlite: sysBinlite, kindMariaDB: sysMariaDB}[k], cfg: cfg, b: b, dir: filepath.Join(b.dir, k)}
		b.nodes = append(b.nodes, n)
		logf("%s: starting primary and replica", n.sys)
		if err := n.start(ctx); err != nil {
			return rep, fmt.Errorf("%s: %w", n.sys, err)
		}
		if err := n.primarySettings(ctx, rep); err != nil {
			return rep, err
		}
		t0 := time.Now()
		if err := n.prepare(ctx, b.schemas, cfg.Rows, cfg.Updates, cfg.Threads); err != nil {
			return rep, fmt.Errorf("%s: %w", n.sys, err)
		}
		su := &Setup{GTIDSet: n.set, SnapshotBytes: harness.DirSize(n.snap), Seconds: time.Since(t0).Seconds(), Before: n.before, After: n.after}
		for _, l := range n.load {
			su.Load = append(su.Load, l)
			su.LoadSeconds = max(su.LoadSeconds, l.TotalSeconds)
		}
		if su.LoadSeconds > 0 {
			su.PrimaryRate = float64(cfg.Updates) / su.LoadSeconds
		}
		rep.Setup[n.sys] = su
	}

	// The rows the raw SQLite limit applies: those in the binlite replica's relay log.
	b.rawSnap = b.nodes[0].snap
	if b.rows, err = captureRows(b.rawSnap); err != nil {
		return rep, fmt.Errorf("reading the binlite relay log: %w", err)
	}
	var captured int
	for _, s := range b.schemas {
		captured += len(b.rows[s])
	}
	if captured != cfg.Updates {
		return rep, fmt.Errorf("the binlite relay log holds %d update rows, want %d", captured, cfg.Updates)
	}
	logf("raw SQLite: %d row images captured from the binlite relay log", captured)

	b.probe("start")
	switch name {
	case benchCrashSafe:
		err = b.runCrashSafe(ctx)
	case benchParallel:
		err = b.runParallel(ctx)
	}
	return rep, err
}

// entry is one timed apply of a repeat.
type entry struct {
	n     *node // nil for raw SQLite
	st    setting
	batch int // raw SQLite's rows per transaction
}

// rawEntries are raw SQLite's runs of a repeat, one per batch size.
func (b *bench) rawEntries() []entry {
	var es []entry
	for _, n := range b.cfg.Batches {
		es = append(es, entry{batch: n})
	}
	return es
}

func (b *bench) runCrashSafe(ctx context.Context) error {
	var entries []entry
	for _, n := range b.nodes {
		entries = append(entries, entry{n: n, st: setting{workers: 0, crashSafe: true}})
		if n.kind == kindBinlite {
			entries = append(entries, entry{n: n, st: setting{workers: 0, crashSafe: false}})
		}
	}
	entries = append(entries, b.rawEntries()...)
	b.total = b.cfg.Repeats * len(entries)
	for r := 1; r <= b.cfg.Repeats; r++ {
		// Rotate who goes first, so drift on the shared machine hits every system alike.
		for i := range entries {
			e := entries[(i+r-1)%len(entries)]
			if err := b.measure(ctx, e, r); err != nil {
				return err
			}
		}
		b.probe(fmt.Sprintf("after repeat %d", r))
	}
	return nil
}

func (b *bench) runParallel(ctx context.Context) error {
	perWorkers := func(w int) []entry {
		var es []entry
		for _, n := range b.nodes {
			if n.kind == kindBinlite {
				es = append(es, entry{n: n, st: setting{workers: w, crashSafe: true}})
				continue
			}
			if w == 0 { // slave_parallel_mode has no effect without parallel threads: one run
				es = append(es, entry{n: n, st: setting{workers: 0, crashSafe: true}})
				continue
			}
			for _, m := range b.cfg.Modes {
				es = append(es, entry{n: n, st: setting{workers: w, mode: m, crashSafe: true}})
			}
		}
		return es
	}
	for _, w := range b.cfg.Workers {
		b.total += len(perWorkers(w))
	}
	b.total = (b.total + len(b.cfg.Batches)) * b.cfg.Repeats
	for r := 1; r <= b.cfg.Repeats; r++ {
		ws := append([]int(nil), b.cfg.Workers...)
		if r%2 == 0 { // alternate the direction of the sweep between repeats
			for i, j := 0, len(ws)-1; i < j; i, j = i+1, j-1 {
				ws[i], ws[j] = ws[j], ws[i]
			}
		}
		for i, w := range ws {
			es := perWorkers(w)
			for j := range es {
				if err := b.measure(ctx, es[(j+i+r-1)%len(es)], r); err != nil {
					return err
				}
			}
			if i == len(ws)/2 {
				for _, e := range b.rawEntries() {
					if err := b.measure(ctx, e, r); err != nil {
						return err
					}
				}
			}
		}
		b.probe(fmt.Sprintf("after repeat %d", r))
	}
	return nil
}

// measure runs one entry and records it. It returns an error only for what makes
// the rest of the benchmark meaningless (a cancelled run or a dead primary).
func (b *bench) measure(ctx context.Context, e entry, repeat int) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	b.done++
	var run Run
	if e.n == nil {
		run = b.measureRaw(repeat, e.batch)
	} else {
		run = b.measureNode(ctx, e.n, e.st, repeat)
	}
	b.rep.Runs = append(b.rep.Runs, run)
	logf("[%d/%d] %s repeat %d %-30s %s", b.done, b.total, b.name, repeat, run.label()+" w="+strconv.Itoa(run.Workers), run.brief())
	for _, n := range b.nodes {
		if exited, werr := n.primary.Proc.Exited(); exited {
			return fmt.Errorf("%s ended (%v):\n%s", n.primary.Name, werr, n.primary.Proc.LogTail(30))
		}
	}
	return ctx.Err()
}

func (b *bench) measureNode(ctx context.Context, n *node, st setting, repeat int) Run {
	run := Run{Repeat: repeat, System: n.sys, Workers: st.workers, Mode: st.mode, CrashSafe: st.crashSafe, Updates: int64(b.updates)}
	fail := func(err error) Run {
		run.Error = err.Error()
		if n.replica != nil {
			if exited, werr := n.replica.Proc.Exited(); exited {
				run.Error += fmt.Sprintf("\n%s ended (%v); log tail:\n%s", n.replica.Name, werr, n.replica.Proc.LogTail(30))
				n.replica = nil
			}
		}
		b.rep.problem("%s %s repeat %d: %s", b.name, run.label()+" w="+strconv.Itoa(run.Workers), repeat, run.Error)
		if err := n.stopReplica(false); err != nil {
			b.rep.problem("stopping %s replica: %v", n.sys, err)
		}
		return run
	}
	t0 := time.Now()
	vars, err := n.restore(ctx, b.schemas, st)
	run.PrepSeconds = time.Since(t0).Seconds()
	if vars != nil {
		if _, seen := b.rep.Settings[run.label()]; !seen {
			b.rep.Settings[run.label()] = vars
			b.rep.Versions[n.sys] = vars["version"]
		}
		run.Settings = map[string]string{}
		for _, k := range []string{"replica_parallel_workers", "binlite_crash_safe_apply", "slave_parallel_threads", "slave_parallel_mode"} {
			if v, ok := vars[k]; ok {
				run.Settings[k] = v
			}
		}
	}
	if err != nil {
		return fail(err)
	}
	r := n.replica
	run.SettleSeconds, run.OtherBefore = b.settle(ctx)
	c0, err := replicaCounters(ctx, r)
	if err != nil {
		return fail(err)
	}
	keep := (*harness.Server)(nil)
	if n.kind == kindMariaDB {
		keep = n.primary // its IO thread stays connected
	}
	b.pauseExcept(keep)
	m0, _ := harness.ReadMachineCPU()
	cpu0, _ := r.Proc.CPUSeconds()
	p0, _ := n.primary.Proc.CPUSeconds()
	profiled := b.profile(ctx, n, st, repeat)
	start := time.Now()
	startSQL := "START REPLICA SQL_THREAD"
	if n.kind == kindMariaDB {
		startSQL = "START SLAVE SQL_THREAD"
	}
	err = r.Exec(ctx, startSQL)
	run.StartSeconds = time.Since(start).Seconds()
	if err == nil {
		err = n.waitApplied(ctx, n.set, time.Duration(b.cfg.ApplyLimit)*time.Second)
	}
	wall := time.Since(start).Seconds()
	m1, _ := harness.ReadMachineCPU()
	cpu1, _ := r.Proc.CPUSeconds()
	p1, _ := n.primary.Proc.CPUSeconds()
	b.resumeAll()
	if perr := profiled(); perr != nil {
		logf("profile: %v", perr)
	}
	if err != nil {
		return fail(err)
	}
	run.Seconds = wall
	run.Rate = float64(b.updates) / wall
	run.ReplicaCPU = cpu1 - cpu0
	busy := m1.Sub(m0).Busy
	run.MachineCores = busy / wall
	ours := cpu1 - cpu0
	if keep != nil {
		ours += p1 - p0
	}
	run.OtherCores = max(0, busy-ours) / wall
	c1, err := replicaCounters(ctx, r)
	if err != nil {
		return fail(err)
	}
	run.Counters = map[string]float64{}
	for k, v := range c1 {
		run.Counters[k] = v - c0[k]
	}

	// Checks: every table equals the primary's, no SQL error, exactly the primary's GTIDs.
	var issues []string
	got, err := tableSums(ctx, r, b.schemas)
	if err != nil {
		return fail(err)
	}
	if d := diffSums(n.after, got); d != "" {
		issues = append(issues, "replica differs from primary: "+d)
	}
	stt, err := r.ReplicaStatus(ctx)
	if err != nil {
		return fail(err)
	}
	if e := stt["Last_SQL_Errno"]; e != "0" {
		issues = append(issues, fmt.Sprintf("Last_SQL_Errno %s: %s", e, stt["Last_SQL_Error"]))
	}
	if n.kind == kindBinlite {
		// Everything came from the restored relay log: the IO thread never ran.
		if io := stt["Replica_IO_Running"]; io != "No" {
			issues = append(issues, "Replica_IO_Running is "+io)
		}
		if held, err := n.relayHolds(ctx, n.set); err != nil || !held {
			issues = append(issues, fmt.Sprintf("Retrieved_Gtid_Set %s does not hold %s (%v)", stt["Retrieved_Gtid_Set"], n.set, err))
		}
	}
	switch n.kind {
	case kindBinlite:
		ex, err := r.QueryString(ctx, "SELECT @@gtid_executed")
		if err != nil {
			return fail(err)
		}
		eq, err := r.QueryInt(ctx, fmt.Sprintf("SELECT GTID_SUBSET(%s, %s) AND GTID_SUBSET(%s, %s)", quote(ex), quote(n.set), quote(n.set), quote(ex)))
		if err != nil {
			return fail(err)
		}
		if eq != 1 {
			issues = append(issues, fmt.Sprintf("replica gtid_executed %s != primary's %s", ex, n.set))
		}
	default:
		pos, err := r.QueryString(ctx, "SELECT @@gtid_slave_pos")
		if err != nil {
			return fail(err)
		}
		if pos != n.set {
			issues = append(issues, fmt.Sprintf("replica gtid_slave_pos %s != primary's %s", pos, n.set))
		}
	}
	if len(issues) > 0 {
		run.Check = strings.Join(issues, "; ")
		b.rep.problem("%s %s repeat %d: %s", b.name, run.label()+" w="+strconv.Itoa(run.Workers), repeat, run.Check)
	} else {
		run.Check = "ok"
	}
	if err := n.stopReplica(false); err != nil {
		b.rep.problem("%s %s repeat %d: stopping the replica: %v", b.name, run.label(), repeat, err)
	}
	return run
}

func (b *bench) measureRaw(repeat, batch int) Run {
	run := Run{Repeat: repeat, System: sysRaw, Batch: batch, Workers: len(b.schemas), Updates: int64(b.updates)}
	run.SettleSeconds, run.OtherBefore = b.settle(context.Background())
	b.pauseExcept(nil)
	defer b.resumeAll()
	m0, _ := harness.ReadMachineCPU()
	t0 := time.Now()
	var profile string
	if b.cfg.cpuProfile != "" {
		profile = filepath.Join(b.cfg.cpuProfile, fmt.Sprintf("%s-raw%d-r%d.pprof", b.name, batch, repeat))
	}
	res, err := applyRaw(b.rawSnap, filepath.Join(b.dir, "raw-sqlite"), b.rows, b.schemas, batch, profile)
	wall := time.Since(t0).Seconds()
	m1, _ := harness.ReadMachineCPU()
	run.PrepSeconds = wall - res.Seconds
	if err != nil {
		run.Error = err.Error()
		b.rep.problem("%s raw SQLite repeat %d: %v", b.name, repeat, err)
		return run
	}
	run.Seconds = res.Seconds
	run.Rate = float64(res.Rows) / res.Seconds
	run.ReplicaCPU = res.CPUSeconds
	busy := m1.Sub(m0).Busy
	run.MachineCores = busy / wall
	run.OtherCores = max(0, busy-res.CPUSeconds) / wall
	if d := diffSums(b.nodes[0].after, res.Sums); d != "" {
		run.Check = "raw SQLite files differ from the binlite primary: " + d
		b.rep.problem("%s raw SQLite repeat %d: %s", b.name, repeat, run.Check)
	} else {
		run.Check = "ok"
	}
	return run
}

// settle flushes dirty pages to disk, then waits until processes outside the
// benchmark use less than --settle-cores
// (measured over half a second, the benchmark's own servers and this process
// excluded), for at most --settle seconds and within the --settle-budget of the
// benchmark. It returns the seconds waited and the last measurement.
// profile starts recording the CPU profile of binlite's replica when --cpuprofile asks
// for it; the returned function waits for the profile to be written.
func (b *bench) profile(ctx context.Context, n *node, st setting, repeat int) (wait func() error) {
	if b.cfg.cpuProfile == "" || n.kind != kindBinlite {
		return func() error { return nil }
	}
	if err := os.MkdirAll(b.cfg.cpuProfile, 0o755); err != nil {
		return func() error { return err }
	}
	path := filepath.Join(b.cfg.cpuProfile, fmt.Sprintf("%s-w%d-r%d", b.name, st.workers, repeat))
	// Allocations before and after (compare with pprof -base) and the CPU profile.
	if err := n.replica.Profile(ctx, "allocs", path+"-allocs-before.pprof"); err != nil {
		return func() error { return err }
	}
	done := make(chan error, 2)
	go func() { done <- n.replica.CPUProfile(ctx, 3*time.Second, path+".pprof") }()
	if b.cfg.trace {
		go func() { done <- n.replica.Profile(ctx, "trace?seconds=3", path+".trace") }()
	} else {
		done <- nil
	}
	time.Sleep(100 * time.Millisecond) // let the profiler start before the apply does
	return func() error {
		err := errors.Join(<-done, <-done)
		return errors.Join(err, n.replica.Profile(ctx, "allocs", path+"-allocs-after.pprof"))
	}
}

func (b *bench) settle(ctx context.Context) (waited, other float64) {
	ours := func() float64 {
		t, _ := harness.ProcCPUSeconds(os.Getpid())
		for _, n := range b.nodes {
			for _, s := range []*harness.Server{n.primary, n.replica} {
				if s != nil {
					c, _ := s.Proc.CPUSeconds()
					t += c
				}
			}
		}
		return t
	}
	start := time.Now()
	// Write out the dirty pages of the previous run and of the restore first: their
	// writeback would otherwise land on whichever run comes next.
	syscall.Sync()
	for {
		m0, o0 := harness.ReadMachineCPU()
		c0 := ours()
		t0 := time.Now()
		time.Sleep(500 * time.Millisecond)
		m1, o1 := harness.ReadMachineCPU()
		c1 := ours()
		if o0 != nil || o1 != nil {
			return 0, 0
		}
		other = max(0, m1.Sub(m0).Busy-(c1-c0)) / time.Since(t0).Seconds()
		waited = time.Since(start).Seconds()
		if other < b.cfg.SettleCores || waited >= b.cfg.Settle || b.settled+waited >= b.cfg.SettleBudget || ctx.Err() != nil {
			b.settled += waited
			return waited, other
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// replicaCounters are the replica's counters the runs report as differences.
func replicaCounters(ctx context.Context, r *harness.Server) (map[string]float64, error) {
	out := map[string]float64{}
	if r.Kind == kindBinlite {
		m, err := r.Metrics(ctx)
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"binlite_binlog_transactions_total", "binlite_binlog_groups_total", "binlite_binlog_syncs_total"} {
			out[k] = m[k]
		}
		return out, nil
	}
	st, err := r.GlobalStatus(ctx, "Innodb_data_fsyncs", "Innodb_log_writes", "Slave_retried_transactions")
	if err != nil {
		return nil, err
	}
	for k, v := range st {
		out[k] = float64(v)
	}
	return out, nil
}

func (b *bench) pauseExcept(keep *harness.Server) {
	if !b.cfg.PauseIdle {
		return
	}
	for _, n := range b.nodes {
		if n.primary != nil && n.primary != keep {
			if err := n.primary.Proc.Pause(); err != nil {
				b.rep.problem("%v", err)
			}
		}
	}
}

func (b *bench) resumeAll() {
	for _, n := range b.nodes {
		if n.primary != nil {
			n.primary.Proc.Resume()
		}
		if n.replica != nil {
			n.replica.Proc.Resume()
		}
	}
}

func (b *bench) probe(label string) {
	b.pauseExcept(nil)
	defer b.resumeAll()
	st, err := harness.FsyncProbe(b.dir, label, 500)
	if err != nil {
		b.rep.problem("fsync probe: %v", err)
		return
	}
	b.rep.Fsync = append(b.rep.Fsync, st)
	logf("fdatasync probe (%s): median %.0f µs, p95 %.0f µs", label, st.MedianUS, st.P95US)
}

// primarySettings records the primary's durability settings and checks them.
func (n *node) primarySettings(ctx context.Context, rep *Report) error {
	names := []string{"version", "sync_binlog", "log_bin", "binlog_format", "gtid_mode", "server_id"}
	if n.kind == kindMariaDB {
		names = []string{"version", "sync_binlog", "log_bin", "binlog_format", "innodb_flush_log_at_trx_commit", "innodb_flush_method",
			"innodb_buffer_pool_size", "character_set_server", "server_id"}
	}
	vars := n.primary.Settings(ctx, names...)
	rep.Settings[n.sys+" primary"] = vars
	if vars["sync_binlog"] != "1" {
		return fmt.Errorf("%s: sync_binlog is %q, want 1", n.primary.Name, vars["sync_binlog"])
	}
	if n.kind == kindMariaDB && vars["innodb_flush_log_at_trx_commit"] != "1" {
		return fmt.Errorf("%s: innodb_flush_log_at_trx_commit is %q, want 1", n.primary.Name, vars["innodb_flush_log_at_trx_commit"])
	}
	logf("%s %s pid %d port %d, replica pid %d port %d", n.primary.Name, n.primary.Version, n.primary.Proc.PID(), n.primary.Port,
		n.replica.Proc.PID(), n.replica.Port)
	return nil
}

// scanLogs records the error and warning lines of a node's server logs as problems.
func scanLogs(rep *Report, n *node) {
	paths := []string{n.logPath("primary.log"), n.logPath("replica.log")}
	if n.kind == kindMariaDB {
		paths = append(paths, filepath.Join(n.dir, "primary", "error.log"), filepath.Join(n.replDir, "error.log"))
	}
	for _, p := range paths {
		if bad := harness.LogProblems(p, nil); len(bad) > 0 {
			rep.problem("%s log %s has errors or warnings:\n%s", n.sys, p, strings.Join(bad, "\n"))
		}
	}
}

func fatalf(format string, args ...any) { harness.Fatalf("replapply", format, args...) }

func logf(format string, args ...any) { harness.Logf(format, args...) }

func commandLine() string { return harness.CommandLine("replapply") }

func repoRoot() (string, error) { return harness.RepoRoot() }

func splitList(s string) []string { return harness.SplitList(s) }
