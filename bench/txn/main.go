// Command txn measures explicit multi-statement transactions on one schema:
// sysbench oltp_write_only and oltp_read_write (BEGIN, the statements, COMMIT)
// over 8 tables, at several thread counts and key distributions, against binlite
// (sync_binlog=1) and MariaDB 10.11 (binary log on, sync_binlog=1,
// innodb_flush_log_at_trx_commit=1) in the same run, the server not measured
// paused with SIGSTOP. It prints medians of the repeats and the ratio
// binlite/MariaDB, writes txn.json and txn.md to --out and draws
// docs/bench-txn.svg. See docs/benchmarks.md and docs/transactions.md.
//
//	go run ./bench/txn [--repeats 3] [--seconds 8] [--threads 1,16,64]
//	    [--workloads oltp_write_only,oltp_read_write] [--rand-types uniform,special]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
	"github.com/binlite/binlite/bench/internal/svgchart"
)

const schema = "sbtest"

// Run is one sysbench run.
type Run struct {
	Repeat   int     `json:"repeat"`
	System   string  `json:"system"`
	Workload string  `json:"workload"`
	RandType string  `json:"rand_type"`
	Threads  int     `json:"threads"`
	TPS      float64 `json:"tps"`
	P95Ms    float64 `json:"p95_ms"`
	Ignored  int64   `json:"ignored_errors"`
	// OtherCores is the machine's busy cores not spent by the server measured or
	// sysbench: the load of other tenants.
	OtherCores float64 `json:"other_cores"`
	Error      string  `json:"error,omitempty"`
	Log        string  `json:"log,omitempty"`
}

// Report is txn.json.
type Report struct {
	Command  string            `json:"command"`
	Started  time.Time         `json:"started"`
	Finished time.Time         `json:"finished"`
	Machine  any               `json:"machine"`
	Versions map[string]string `json:"versions"`
	Tables   int               `json:"tables"`
	Size     int               `json:"table_size"`
	Seconds  int               `json:"seconds"`
	Runs     []Run             `json:"runs"`
}

func main() {
	var (
		repeats, seconds, tables, size                       int
		threadList, workloads, randTypes, out, chart, binary string
		skipMariaDB                                          bool
	)
	flag.IntVar(&repeats, "repeats", 3, "repeats of every point (medians are reported)")
	flag.IntVar(&seconds, "seconds", 8, "seconds per sysbench run")
	flag.IntVar(&tables, "tables", 8, "sysbench tables")
	flag.IntVar(&size, "table-size", 20000, "rows per table")
	flag.StringVar(&threadList, "threads", "1,16,64", "thread counts")
	flag.StringVar(&workloads, "workloads", "oltp_write_only,oltp_read_write", "sysbench workloads")
	flag.StringVar(&randTypes, "rand-types", "uniform,special", "sysbench --rand-type values")
	flag.StringVar(&out, "out", "", "results directory (default <repo>/bench/results)")
	flag.StringVar(&chart, "chart", "", "SVG chart (default <repo>/docs/bench-txn.svg; - for none)")
	flag.StringVar(&binary, "binlite", "", "binlite binary to use instead of building ./cmd/binlite")
	flag.BoolVar(&skipMariaDB, "skip-mariadb", false, "do not run MariaDB")
	flag.Parse()
	threads, err := harness.ParseInts(threadList, 1)
	if err != nil {
		fatalf("--threads: %v", err)
	}
	root, err := repoRoot()
	if err != nil {
		fatalf("%v", err)
	}
	if out == "" {
		out = filepath.Join(root, "bench", "results")
	}
	if chart == "" {
		chart = filepath.Join(root, "docs", "bench-txn.svg")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep := &Report{Command: strings.Join(os.Args, " "), Started: time.Now().UTC(), Machine: harness.DescribeMachine(),
		Versions: map[string]string{"sysbench": harness.SysbenchVersion("sysbench"), "binlite_git": harness.GitRevision(root)},
		Tables:   tables, Size: size, Seconds: seconds}
	err = run(ctx, rep, root, binary, skipMariaDB, repeats, seconds, tables, size, threads, split(workloads), split(randTypes))
	rep.Finished = time.Now().UTC()
	if werr := write(rep, out, chart); werr != nil {
		fmt.Fprintln(os.Stderr, "txn:", werr)
	}
	if err != nil {
		fatalf("%v", err)
	}
}

type system struct {
	name string
	srv  *harness.Server
	sb   *harness.Sysbench
}

func run(ctx context.Context, rep *Report, root, binary string, skipMariaDB bool, repeats, seconds, tables, size int, threads []int, workloads, randTypes []string) error {
	work, logDir, err := harness.Workdir("", "txn")
	if err != nil {
		return err
	}
	logf("scratch directory %s", work)
	bin, err := harness.BuildBinlite(ctx, root, work, binary)
	if err != nil {
		return err
	}
	bl, err := harness.StartBinlite(ctx, harness.BinliteOptions{Bin: bin, DataDir: filepath.Join(work, "binlite-data"),
		LogPath: filepath.Join(logDir, "binlite.log"), ConfPath: filepath.Join(work, "binlite.cnf"),
		Options: map[string]string{"sync_binlog": "1"}, ServerID: 1})
	if err != nil {
		return err
	}
	systems := []*system{{name: "binlite", srv: bl}}
	if !skipMariaDB {
		md, err := harness.StartMariaDB(ctx, harness.MariaDBOptions{Mariadbd: "/usr/sbin/mariadbd", InstallDB: "mariadb-install-db",
			Dir: filepath.Join(work, "mariadb"), LogPath: filepath.Join(logDir, "mariadbd.log"), ServerID: 1,
			Extra: []string{"--binlog-format=ROW"}})
		if err != nil {
			return err
		}
		systems = append(systems, &system{name: "MariaDB", srv: md})
	}
	defer func() {
		for _, s := range systems {
			s.srv.Proc.Resume()
			s.srv.Stop()
		}
		os.RemoveAll(work)
	}()
	for _, s := range systems {
		rep.Versions[s.name] = s.srv.Version
		s.sb = &harness.Sysbench{Bin: "sysbench", Port: s.srv.Port, DB: schema, Tables: tables, TableSize: size, RandType: "uniform", LogDir: logDir}
		if err := s.srv.Exec(ctx, "CREATE DATABASE "+schema); err != nil {
			return err
		}
		logf("%s: preparing %d tables x %d rows", s.name, tables, size)
		if err := s.sb.Prepare(ctx, "oltp_write_only", s.name+"-prepare.log"); err != nil {
			return err
		}
	}
	pauseAllBut := func(keep *system) {
		for _, s := range systems {
			if s != keep {
				s.srv.Proc.Pause()
			}
		}
		keep.srv.Proc.Resume()
	}
	for r := 1; r <= repeats; r++ {
		order := slices.Clone(systems)
		if r%2 == 0 {
			slices.Reverse(order)
		}
		for _, wl := range workloads {
			for _, rt := range randTypes {
				for _, th := range threads {
					for _, s := range order {
						if ctx.Err() != nil {
							return ctx.Err()
						}
						pauseAllBut(s)
						sb := *s.sb
						sb.RandType = rt
						m0, _ := harness.ReadMachineCPU()
						srv0, _ := s.srv.Proc.CPUSeconds()
						t0 := time.Now()
						res, err := sb.Run(ctx, wl, th, seconds, fmt.Sprintf("%s-%s-%s-%d-r%d.log", s.name, wl, rt, th, r))
						wall := time.Since(t0).Seconds()
						m1, _ := harness.ReadMachineCPU()
						srv1, _ := s.srv.Proc.CPUSeconds()
						run := Run{Repeat: r, System: s.name, Workload: wl, RandType: rt, Threads: th, TPS: res.TPS, P95Ms: res.LatP95Ms,
							Ignored: res.IgnoredErrors, Log: res.LogPath, OtherCores: max(0, m1.Sub(m0).Busy-(srv1-srv0)-res.CPUSeconds) / wall}
						if err != nil {
							run.Error = err.Error()
						}
						rep.Runs = append(rep.Runs, run)
						logf("repeat %d %-8s %-16s %-8s %2d threads: %8.0f tps  p95 %6.1f ms  ignored errors %d  other load %.2f cores %s",
							r, s.name, wl, rt, th, run.TPS, run.P95Ms, run.Ignored, run.OtherCores, run.Error)
					}
				}
			}
		}
	}
	return nil
}

type point struct {
	workload, randType string
	threads            int
}

// medians are the median tps of each system at each point.
func medians(rep *Report) (map[point]map[string]float64, []point) {
	all := map[point]map[string][]float64{}
	var points []point
	for _, r := range rep.Runs {
		if r.Error != "" {
			continue
		}
		p := point{r.Workload, r.RandType, r.Threads}
		if all[p] == nil {
			all[p] = map[string][]float64{}
			points = append(points, p)
		}
		all[p][r.System] = append(all[p][r.System], r.TPS)
	}
	med := map[point]map[string]float64{}
	for p, bySys := range all {
		med[p] = map[string]float64{}
		for s, v := range bySys {
			slices.Sort(v)
			med[p][s] = v[len(v)/2]
			if len(v)%2 == 0 {
				med[p][s] = (v[len(v)/2-1] + v[len(v)/2]) / 2
			}
		}
	}
	return med, points
}

func write(rep *Report, out, chart string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "txn.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	med, points := medians(rep)
	var md strings.Builder
	fmt.Fprintf(&md, "| workload | keys | threads | binlite tps | MariaDB tps | ratio |\n|---|---|---:|---:|---:|---:|\n")
	for _, p := range points {
		bl, ma := med[p]["binlite"], med[p]["MariaDB"]
		ratio := "–"
		if ma > 0 {
			ratio = fmt.Sprintf("%.2fx", bl/ma)
		}
		fmt.Fprintf(&md, "| %s | %s | %d | %.0f | %.0f | %s |\n", p.workload, p.randType, p.threads, bl, ma, ratio)
	}
	if err := os.WriteFile(filepath.Join(out, "txn.md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	fmt.Print(md.String())
	if chart == "-" || len(points) == 0 {
		return nil
	}
	var panels []svgchart.Panel
	byPanel := map[string]*svgchart.Panel{}
	for _, p := range points {
		key := p.workload + ", " + p.randType
		pn := byPanel[key]
		if pn == nil {
			panels = append(panels, svgchart.Panel{Title: key, Series: []svgchart.Series{{Name: "binlite", Color: "#1f77b4"}, {Name: "MariaDB 10.11", Color: "#ff7f0e"}}})
			pn = &panels[len(panels)-1]
			byPanel = map[string]*svgchart.Panel{}
			for i := range panels {
				byPanel[panels[i].Title] = &panels[i]
			}
		}
		pn.XLabels = append(pn.XLabels, fmt.Sprintf("%d", p.threads))
		pn.Series[0].Values = append(pn.Series[0].Values, orNaN(med[p]["binlite"]))
		pn.Series[1].Values = append(pn.Series[1].Values, orNaN(med[p]["MariaDB"]))
	}
	c := svgchart.Chart{Title: "sysbench explicit transactions on one schema (8 tables)",
		Subtitle: fmt.Sprintf("median tps of %d-second runs; binlite sync_binlog=1, MariaDB sync_binlog=1 + innodb_flush_log_at_trx_commit=1", rep.Seconds),
		XLabel:   "threads", YLabel: "transactions/s", Panels: panels}
	return os.WriteFile(chart, c.SVG(), 0o644)
}

func orNaN(v float64) float64 {
	if v == 0 {
		return math.NaN()
	}
	return v
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func repoRoot() (string, error) {
	b, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("finding the repository root: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05 ")+format+"\n", args...)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "txn: "+format+"\n", args...)
	os.Exit(1)
}
