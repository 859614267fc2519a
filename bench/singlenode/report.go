package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
	"github.com/binlite/binlite/bench/internal/svgchart"
)

// Report is everything one invocation measured; singlenode.json holds it.
type Report struct {
	Benchmark string                       `json:"benchmark"`
	Command   string                       `json:"command"`
	Started   time.Time                    `json:"started"`
	Finished  time.Time                    `json:"finished"`
	Config    config                       `json:"config"`
	Machine   harness.Machine              `json:"machine"`
	Versions  map[string]string            `json:"versions"`
	Settings  map[string]map[string]string `json:"settings"`     // server variables in force
	Fsync     []harness.FsyncStats         `json:"fsync_probes"` // 4 KiB overwrite + fdatasync in the scratch directory
	Runs      []Run                        `json:"runs"`
	Points    []Point                      `json:"points"`
	Ratios    []Ratio                      `json:"ratios"`
	Targets   []Target                     `json:"targets"`
	Problems  []string                     `json:"problems"`
}

// Run is one timed run of one system.
type Run struct {
	Repeat        int               `json:"repeat"`
	System        string            `json:"system"`
	Workload      string            `json:"workload"`
	Threads       int               `json:"threads"`
	TPS           float64           `json:"tps"`
	P95Ms         float64           `json:"p95_ms"`
	AvgMs         float64           `json:"avg_ms,omitempty"`
	MaxMs         float64           `json:"max_ms,omitempty"`
	Transactions  int64             `json:"transactions"`
	Seconds       float64           `json:"seconds"`
	IgnoredErrors int64             `json:"ignored_errors"`
	Reconnects    int64             `json:"reconnects"`
	SysbenchCPU   float64           `json:"sysbench_cpu_seconds,omitempty"`
	RawCPU        float64           `json:"raw_cpu_seconds,omitempty"`
	Server        *harness.Counters `json:"server_delta,omitempty"` // counters after − before
	MachineCores  float64           `json:"machine_busy_cores"`     // whole machine's busy CPU during the run
	OtherCores    float64           `json:"other_cores"`            // of which not this benchmark (other users' processes)
	Check         string            `json:"check"`                  // "ok" or what did not add up
	Error         string            `json:"error,omitempty"`
	Log           string            `json:"log,omitempty"`
}

func (r Run) ok() bool { return r.Error == "" && r.TPS > 0 }

func (r Run) brief() string {
	if r.Error != "" {
		return "ERROR " + firstLine(r.Error)
	}
	s := fmt.Sprintf("%8.0f tps  p95 %6.2f ms  check %s  other load %.2f cores", r.TPS, r.P95Ms, r.Check, r.OtherCores)
	if d := r.Server; d != nil && d.BinlogGroups > 0 {
		s += fmt.Sprintf("  %.1f txn/group  server CPU %.0f%%", float64(d.BinlogTxns)/float64(d.BinlogGroups), 100*d.CPUSeconds/r.Seconds)
	}
	return s
}

// Point is the median over repeats of one system × workload × threads.
type Point struct {
	System   string    `json:"system"`
	Workload string    `json:"workload"`
	Threads  int       `json:"threads"` // raw SQLite: 1 connection
	N        int       `json:"n"`       // successful repeats
	TPS      float64   `json:"tps_median"`
	TPSMin   float64   `json:"tps_min"`
	TPSMax   float64   `json:"tps_max"`
	TPSAll   []float64 `json:"tps_all"`
	P95Ms    float64   `json:"p95_ms_median"`
	// Medians of per-run figures (servers only; NaN-free: 0 when unknown).
	TxnsPerGroup    float64 `json:"txns_per_group_commit,omitempty"`
	GroupsPerSec    float64 `json:"group_commits_per_sec,omitempty"`
	ServerCPUPerTxn float64 `json:"server_cpu_us_per_txn,omitempty"`
	ServerCores     float64 `json:"server_cpu_cores,omitempty"`
	ClientCPUPerTxn float64 `json:"sysbench_cpu_us_per_txn,omitempty"`
	RawCPUPerTxn    float64 `json:"raw_cpu_us_per_txn,omitempty"`
	// FsyncsPerSec: binlite's binary-log fdatasyncs; MariaDB's Innodb_data_fsyncs
	// plus its binary-log group commits (one fsync each under sync_binlog=1).
	FsyncsPerSec float64 `json:"fsyncs_per_sec,omitempty"`
	// StorageCommitsPerSec: binlite's SQLite commits (its pipeline lets several
	// binary-log groups share one).
	StorageCommitsPerSec float64 `json:"storage_commits_per_sec,omitempty"`
	OtherCores           float64 `json:"other_cores"`        // CPU used outside the benchmark during the runs
	MachineCores         float64 `json:"machine_busy_cores"` // whole machine's busy CPU during the runs
}

// Ratio compares binlite with the others at one point, from medians of the same run.
type Ratio struct {
	Workload    string  `json:"workload"`
	Threads     int     `json:"threads"`
	Binlite     float64 `json:"binlite_tps"`
	MariaDB     float64 `json:"mariadb_tps,omitempty"`
	Raw         float64 `json:"raw_sqlite_tps"`
	OverMariaDB float64 `json:"binlite_over_mariadb,omitempty"`
	OverRaw     float64 `json:"binlite_over_raw_sqlite"`
	// Medians of the ratios taken repeat by repeat (the same repeat's runs).
	OverMariaDBPerRepeat float64 `json:"binlite_over_mariadb_per_repeat_median,omitempty"`
	OverRawPerRepeat     float64 `json:"binlite_over_raw_sqlite_per_repeat_median,omitempty"`
}

// Target is one of the goals, checked at the highest thread count.
type Target struct {
	Workload string  `json:"workload"`
	Threads  int     `json:"threads"`
	Goal     string  `json:"goal"`
	Want     float64 `json:"want"`
	Got      float64 `json:"got"`
	Met      bool    `json:"met"`
}

func (rep *Report) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	rep.Problems = append(rep.Problems, msg)
	fmt.Fprintln(os.Stderr, "PROBLEM:", msg)
}

func (rep *Report) runs(sys, wl string, threads int) []Run {
	var out []Run
	for _, r := range rep.Runs {
		if r.System == sys && r.Workload == wl && r.Threads == threads && r.ok() {
			out = append(out, r)
		}
	}
	return out
}

func (rep *Report) point(sys, wl string, threads int) *Point {
	for i := range rep.Points {
		p := &rep.Points[i]
		if p.System == sys && p.Workload == wl && p.Threads == threads {
			return p
		}
	}
	return nil
}

// summarize computes Points, Ratios and Targets from Runs.
func (rep *Report) summarize(cfg *config) {
	rep.Points, rep.Ratios, rep.Targets = nil, nil, nil
	systems := []string{sysBinlite}
	if !cfg.SkipMariaDB {
		systems = append(systems, sysMariaDB)
	}
	for _, wl := range cfg.Workloads {
		for _, th := range cfg.Threads {
			for _, sys := range systems {
				if p := makePoint(rep.runs(sys, wl, th), sys, wl, th); p != nil {
					rep.Points = append(rep.Points, *p)
				}
			}
		}
		if p := makePoint(rep.runs(sysRaw, wl, 1), sysRaw, wl, 1); p != nil {
			rep.Points = append(rep.Points, *p)
		}
	}
	for _, wl := range cfg.Workloads {
		raw := rep.point(sysRaw, wl, 1)
		for _, th := range cfg.Threads {
			bl := rep.point(sysBinlite, wl, th)
			if bl == nil {
				continue
			}
			r := Ratio{Workload: wl, Threads: th, Binlite: bl.TPS}
			if raw != nil {
				r.Raw = raw.TPS
				r.OverRaw = bl.TPS / raw.TPS
				r.OverRawPerRepeat = rep.perRepeat(wl, th, sysRaw, 1)
			}
			if md := rep.point(sysMariaDB, wl, th); md != nil {
				r.MariaDB = md.TPS
				r.OverMariaDB = bl.TPS / md.TPS
				r.OverMariaDBPerRepeat = rep.perRepeat(wl, th, sysMariaDB, th)
			}
			rep.Ratios = append(rep.Ratios, r)
		}
	}
	maxTh := 0
	for _, th := range cfg.Threads {
		maxTh = max(maxTh, th)
	}
	for _, r := range rep.Ratios {
		// Issue 16: ≥ 1.2× MariaDB at 1 thread, ≥ 1.5× at 16, ≥ 2× at the most
		// threads with a p95 latency no worse than MariaDB's.
		want := map[int]float64{1: 1.2, 16: 1.5, maxTh: 2}[r.Threads]
		if r.MariaDB > 0 && want > 0 {
			t := Target{Workload: r.Workload, Threads: r.Threads, Goal: fmt.Sprintf("binlite ≥ %.1f× MariaDB tps", want), Want: want, Got: r.OverMariaDB, Met: r.OverMariaDB >= want}
			if r.Threads == maxTh {
				bl, md := rep.point(sysBinlite, r.Workload, r.Threads), rep.point(sysMariaDB, r.Workload, r.Threads)
				t.Goal += fmt.Sprintf(", p95 no worse (%s against %s ms)", ms(bl.P95Ms), ms(md.P95Ms))
				t.Met = t.Met && bl.P95Ms <= md.P95Ms
			}
			rep.Targets = append(rep.Targets, t)
		}
		if r.Threads != maxTh {
			continue
		}
		if r.Raw > 0 {
			rep.Targets = append(rep.Targets, Target{Workload: r.Workload, Threads: r.Threads, Goal: "binlite ≥ ½ raw SQLite tps", Want: 0.5, Got: r.OverRaw, Met: r.OverRaw >= 0.5})
		}
	}
}

// perRepeat is the median over repeats of binlite's tps divided by other's tps in
// the same repeat.
func (rep *Report) perRepeat(wl string, th int, other string, otherTh int) float64 {
	var xs []float64
	for _, b := range rep.runs(sysBinlite, wl, th) {
		for _, o := range rep.runs(other, wl, otherTh) {
			if o.Repeat == b.Repeat {
				xs = append(xs, b.TPS/o.TPS)
			}
		}
	}
	if len(xs) == 0 {
		return 0
	}
	return harness.Median(xs)
}

func makePoint(runs []Run, sys, wl string, th int) *Point {
	if len(runs) == 0 {
		return nil
	}
	p := &Point{System: sys, Workload: wl, Threads: th, N: len(runs)}
	var tps, p95, perGroup, groupsPS, srvCPU, cores, cliCPU, rawCPU, other, machine, fsyncs, commits []float64
	for _, r := range runs {
		tps = append(tps, r.TPS)
		other = append(other, r.OtherCores)
		machine = append(machine, r.MachineCores)
		p95 = append(p95, r.P95Ms)
		n := float64(r.Transactions)
		if d := r.Server; d != nil && n > 0 && r.Seconds > 0 {
			if d.BinlogGroups > 0 {
				perGroup = append(perGroup, float64(d.BinlogTxns)/float64(d.BinlogGroups))
			}
			groupsPS = append(groupsPS, float64(d.BinlogGroups)/r.Seconds)
			syncs := d.Syncs
			if sys == sysMariaDB {
				syncs += d.BinlogGroups
			}
			fsyncs = append(fsyncs, float64(syncs)/r.Seconds)
			if d.StorageCommits > 0 {
				commits = append(commits, float64(d.StorageCommits)/r.Seconds)
			}
			srvCPU = append(srvCPU, d.CPUSeconds/n*1e6)
			cores = append(cores, d.CPUSeconds/r.Seconds)
			cliCPU = append(cliCPU, r.SysbenchCPU/n*1e6)
		}
		if r.RawCPU > 0 && n > 0 {
			rawCPU = append(rawCPU, r.RawCPU/n*1e6)
		}
	}
	p.TPSAll = tps
	p.TPS = harness.Median(tps)
	p.TPSMin, p.TPSMax = harness.MinMax(tps)
	p.P95Ms = harness.Median(p95)
	med := func(xs []float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		return harness.Median(xs)
	}
	p.TxnsPerGroup, p.GroupsPerSec = med(perGroup), med(groupsPS)
	p.ServerCPUPerTxn, p.ServerCores, p.ClientCPUPerTxn = med(srvCPU), med(cores), med(cliCPU)
	p.RawCPUPerTxn = med(rawCPU)
	p.FsyncsPerSec, p.StorageCommitsPerSec = med(fsyncs), med(commits)
	p.OtherCores = med(other)
	p.MachineCores = med(machine)
	return p
}

// writeOutputs writes singlenode.json (when fresh), .csv and .md to the results
// directory, the chart, and prints the tables.
func writeOutputs(cfg *config, rep *Report, fresh bool) error {
	o := harness.Outputs{Dir: cfg.out, Name: "singlenode", Report: rep, Fresh: fresh,
		Files: map[string][]byte{"singlenode.csv": pointsCSV(rep)}, Markdown: markdown(rep), Chart: cfg.chart}
	if len(rep.Points) > 0 {
		o.SVG = chart(rep).SVG
	}
	return o.Write()
}

func pointsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "workload", "threads", "n", "tps_median", "tps_min", "tps_max", "p95_ms_median",
		"txns_per_group_commit", "server_cpu_us_per_txn", "sysbench_cpu_us_per_txn", "binlite_over_mariadb", "binlite_over_raw_sqlite"})
	f := func(v float64, prec int) string {
		if v == 0 || math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', prec, 64)
	}
	for _, p := range rep.Points {
		var om, or float64
		if p.System == sysBinlite {
			for _, r := range rep.Ratios {
				if r.Workload == p.Workload && r.Threads == p.Threads {
					om, or = r.OverMariaDB, r.OverRaw
				}
			}
		}
		w.Write([]string{p.System, p.Workload, strconv.Itoa(p.Threads), strconv.Itoa(p.N), f(p.TPS, 1), f(p.TPSMin, 1), f(p.TPSMax, 1),
			f(p.P95Ms, 2), f(p.TxnsPerGroup, 2), f(p.ServerCPUPerTxn, 1), f(p.ClientCPUPerTxn, 1), f(om, 3), f(or, 3)})
	}
	w.Flush()
	return b.Bytes()
}

func markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Config
	fmt.Fprintf(&b, "\n## singlenode: %s, %d × %d s per point, medians\n\n", rep.Started.Format("2006-01-02 15:04 UTC"), c.Repeats, c.Seconds)
	fmt.Fprintf(&b, "`%s`\n\n", rep.Command)
	m := rep.Machine
	fmt.Fprintf(&b, "Machine: %d cores (%s), %s RAM, %s, kernel %s. %s; %s; binlite %s (%s).\n",
		m.NumCPU, m.CPUModel, m.MemTotal, m.OS, m.Kernel, rep.Versions["sysbench"], "MariaDB "+rep.Versions[sysMariaDB], rep.Versions[sysBinlite], rep.Versions["binlite_git"])
	if len(rep.Fsync) > 0 {
		b.WriteString("fdatasync of a 4 KiB overwrite in the scratch directory (median / p95 µs):")
		for i, f := range rep.Fsync {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %s %.0f / %.0f", sep, f.Label, f.MedianUS, f.P95US)
		}
		b.WriteString(".\n")
	}
	if other := otherLoad(rep); other != "" {
		b.WriteString(other + ".\n")
	}
	b.WriteString("\n")
	hasMD := !c.SkipMariaDB
	if hasMD {
		b.WriteString("| workload | threads | binlite tps | binlite p95 ms | MariaDB tps | MariaDB p95 ms | raw SQLite tps (1 conn) | binlite / MariaDB | binlite / raw SQLite | same-repeat ratios, median (MariaDB, raw) |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	} else {
		b.WriteString("| workload | threads | binlite tps | binlite p95 ms | raw SQLite tps (1 conn) | binlite / raw SQLite |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	}
	for _, r := range rep.Ratios {
		bl := rep.point(sysBinlite, r.Workload, r.Threads)
		md := rep.point(sysMariaDB, r.Workload, r.Threads)
		raw := rep.point(sysRaw, r.Workload, 1)
		rawTPS := "—"
		if raw != nil {
			rawTPS = tps(raw.TPS)
		}
		if hasMD {
			mdTPS, mdP95 := "—", "—"
			if md != nil {
				mdTPS, mdP95 = tps(md.TPS), ms(md.P95Ms)
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s, %s |\n", r.Workload, r.Threads, tps(bl.TPS), ms(bl.P95Ms),
				mdTPS, mdP95, rawTPS, ratio(r.OverMariaDB), ratio(r.OverRaw), ratio(r.OverMariaDBPerRepeat), ratio(r.OverRawPerRepeat))
		} else {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s |\n", r.Workload, r.Threads, tps(bl.TPS), ms(bl.P95Ms), rawTPS, ratio(r.OverRaw))
		}
	}
	b.WriteString("\nRatios are of the medians; the last column is the median of the ratios taken within each repeat.\n")
	b.WriteString("\nWhere the time goes (medians; CPU from /proc, group commits from binlite's /metrics and MariaDB's Binlog_group_commits):\n\n")
	b.WriteString("| workload | threads | system | tps min–max | txns per binlog group commit | group commits/s | fsyncs/s | storage commits/s | server CPU (cores) | server CPU µs/txn | sysbench CPU µs/txn | other processes (cores) | whole machine busy (cores) |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range rep.Points {
		if p.System == sysRaw {
			fmt.Fprintf(&b, "| %s | 1 conn | %s | %s–%s | — | — | — | — | — | %.1f (in-process) | — | %.2f | %.2f |\n", p.Workload, p.System, tps(p.TPSMin), tps(p.TPSMax), p.RawCPUPerTxn, p.OtherCores, p.MachineCores)
			continue
		}
		commits := "—"
		if p.StorageCommitsPerSec > 0 {
			commits = tps(p.StorageCommitsPerSec)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s–%s | %.1f | %s | %s | %s | %.2f | %.1f | %.1f | %.2f | %.2f |\n", p.Workload, p.Threads, p.System, tps(p.TPSMin), tps(p.TPSMax),
			p.TxnsPerGroup, tps(p.GroupsPerSec), tps(p.FsyncsPerSec), commits, p.ServerCores, p.ServerCPUPerTxn, p.ClientCPUPerTxn, p.OtherCores, p.MachineCores)
	}
	b.WriteString("\nfsyncs/s: binlite's binary-log fdatasyncs; MariaDB's Innodb_data_fsyncs plus its binary-log group commits (one fsync each with sync_binlog=1). Storage commits: binlite's SQLite commits.\n")
	if len(rep.Targets) > 0 {
		b.WriteString("\nTargets (issue 16; ½ raw SQLite from the first single-node issue):\n\n")
		for _, t := range rep.Targets {
			met := "NOT met"
			if t.Met {
				met = "met"
			}
			fmt.Fprintf(&b, "- %s, %d threads: %s — measured %.2f× → %s\n", t.Workload, t.Threads, t.Goal, t.Got, met)
		}
	}
	if len(rep.Problems) > 0 {
		b.WriteString("\nProblems:\n\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(p, "\n", "\n  "))
		}
	} else {
		checked := 0
		for _, r := range rep.Runs {
			if r.Check == "ok" && r.System != sysRaw {
				checked++
			}
		}
		fmt.Fprintf(&b, "\nAll %d server runs checked: 0 ignored errors, every transaction sysbench counted is in the table and has its GTID in the binary log.\n", checked)
	}
	return b.String()
}

func chart(rep *Report) svgchart.Chart {
	c := rep.Config
	ch := svgchart.Chart{
		Title:  "Single node: sysbench on one schema, every commit durable (sync_binlog=1)",
		XLabel: "sysbench threads",
		YLabel: "transactions per second (median)",
		Subtitle: fmt.Sprintf("bars: median of %d × %d s runs, whiskers: min–max; %d-core machine, sysbench and server sharing the cores\nraw SQLite = the same single-row transactions in-process: 1 connection, no protocol, no binlog, no fsync",
			c.Repeats, c.Seconds, rep.Machine.NumCPU),
		Footer: []string{
			fmt.Sprintf("%s: %s", rep.Started.Format("2006-01-02"), rep.Command),
			fmt.Sprintf("MariaDB %s: log-bin, binlog_format=%s, sync_binlog=1, innodb_flush_log_at_trx_commit=1, O_DIRECT, 1G buffer pool",
				rep.Versions[sysMariaDB], c.MariaDBFormat),
			fmt.Sprintf("%s, --rand-type=%s, 1 table × %d rows; binlite %s; idle server paused (SIGSTOP) during the other's runs",
				rep.Versions["sysbench"], c.RandType, c.TableSize, rep.Versions["binlite_git"]),
		},
	}
	if other := otherLoad(rep); other != "" {
		ch.Footer = append(ch.Footer, other)
	}
	for _, wl := range c.Workloads {
		p := svgchart.Panel{Title: wl}
		bl := svgchart.Series{Name: "binlite", Color: "#1f6fb4"}
		md := svgchart.Series{Name: "MariaDB 10.11", Color: "#e8871e"}
		for _, th := range c.Threads {
			p.XLabels = append(p.XLabels, fmt.Sprintf("%d", th))
			for _, sr := range []struct {
				s   *svgchart.Series
				sys string
			}{{&bl, sysBinlite}, {&md, sysMariaDB}} {
				p := rep.point(sr.sys, wl, th)
				sr.s.Values = append(sr.s.Values, tpsOf(p))
				lo, hi := math.NaN(), math.NaN()
				if p != nil && p.N > 1 {
					lo, hi = p.TPSMin, p.TPSMax
				}
				sr.s.Low, sr.s.High = append(sr.s.Low, lo), append(sr.s.High, hi)
			}
			note := ""
			for _, r := range rep.Ratios {
				if r.Workload == wl && r.Threads == th {
					if r.OverMariaDB > 0 {
						note = fmt.Sprintf("%.2f× MariaDB", r.OverMariaDB)
					}
					if r.OverRaw > 0 {
						if note != "" {
							note += "\n"
						}
						note += fmt.Sprintf("%.2f× raw", r.OverRaw)
					}
				}
			}
			p.XNotes = append(p.XNotes, note)
		}
		p.Series = append(p.Series, bl)
		if !c.SkipMariaDB {
			p.Series = append(p.Series, md)
		}
		if raw := rep.point(sysRaw, wl, 1); raw != nil {
			p.Lines = append(p.Lines,
				svgchart.RefLine{Name: "raw SQLite (limit)", Color: "#2e8b3a", Value: raw.TPS},
				svgchart.RefLine{Name: "½ raw SQLite (target)", Color: "#2e8b3a", Value: raw.TPS / 2, Dashed: true})
		}
		ch.Panels = append(ch.Panels, p)
	}
	return ch
}

func tpsOf(p *Point) float64 {
	if p == nil {
		return math.NaN()
	}
	return p.TPS
}

func tps(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	// thousands separators
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

func ms(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func ratio(v float64) string {
	if v == 0 {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// otherLoad describes the CPU that processes outside the benchmark used during the
// timed runs ("" if unknown).
func otherLoad(rep *Report) string {
	var other []float64
	for _, r := range rep.Runs {
		if r.ok() {
			other = append(other, r.OtherCores)
		}
	}
	if len(other) == 0 {
		return ""
	}
	lo, hi := harness.MinMax(other)
	return fmt.Sprintf("CPU used by processes outside this benchmark during the timed runs: median %.2f cores (%.2f–%.2f) of %d",
		harness.Median(other), lo, hi, rep.Machine.NumCPU)
}
