package main

import (
	"bytes"
	"context"
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

// Report is everything one invocation measured; semisync.json holds it.
type Report struct {
	Benchmark   string                       `json:"benchmark"`
	Command     string                       `json:"command"`
	Started     time.Time                    `json:"started"`
	Finished    time.Time                    `json:"finished"`
	Config      config                       `json:"config"`
	Machine     harness.Machine              `json:"machine"`
	Versions    map[string]string            `json:"versions"`
	Settings    map[string]map[string]string `json:"settings"`
	Links       []LinkProbe                  `json:"links"`
	Runs        []Run                        `json:"runs"`
	Points      []Point                      `json:"points"`
	Ratios      []Ratio                      `json:"ratios"`
	Targets     []Target                     `json:"targets"`
	ReplicaRows []string                     `json:"replica_rows"`
	Problems    []string                     `json:"problems"`
}

// LinkProbe is the delaying link as a client through it sees it.
type LinkProbe struct {
	System            string  `json:"system"`
	DownMs            float64 `json:"down_ms"`
	UpMs              float64 `json:"up_ms"`
	SelectOneMedianMs float64 `json:"select_1_median_ms"`
	SelectOneMinMs    float64 `json:"select_1_min_ms"`
	SelectOneMaxMs    float64 `json:"select_1_max_ms"`
	N                 int     `json:"n"`
}

// Run is one timed run of one system at one thread count.
type Run struct {
	Repeat        int        `json:"repeat"`
	System        string     `json:"system"`
	Threads       int        `json:"threads"`
	Seconds       float64    `json:"seconds"`
	Commits       int64      `json:"commits"` // acknowledged within the timed window
	CommitsPerSec float64    `json:"commits_per_s"`
	TotalCommits  int64      `json:"total_commits"` // warm-up, window and the last in flight
	Failures      int64      `json:"failures"`
	LatMinMs      float64    `json:"lat_min_ms"`
	LatP50Ms      float64    `json:"lat_p50_ms"`
	LatP99Ms      float64    `json:"lat_p99_ms"`
	LatMaxMs      float64    `json:"lat_max_ms"`
	SlowShare     float64    `json:"share_over_1_5_rtt"` // of the window's commits, those that took more than 1.5 round trips
	TxnsPerGroup  float64    `json:"txns_per_group_commit"`
	GroupsPerSec  float64    `json:"group_commits_per_s"`
	AvgWaitMs     float64    `json:"semi_sync_avg_wait_ms"` // from tx_wait_time / tx_waits over the window
	YesTxDelta    uint64     `json:"yes_tx_delta"`
	MachineCores  float64    `json:"machine_busy_cores"`
	OtherCores    float64    `json:"other_cores"` // not this benchmark's servers or process (the other system's idle pair counts here)
	Before        semiStatus `json:"status_before"`
	WarmEnd       semiStatus `json:"status_after_warmup"`
	TimedEnd      semiStatus `json:"status_end_of_window"`
	After         semiStatus `json:"status_after"`
	Check         string     `json:"check"`
	Notes         []string   `json:"notes,omitempty"`
	Error         string     `json:"error,omitempty"`
}

func (r Run) ok() bool { return r.Error == "" && r.CommitsPerSec > 0 }

func (r Run) brief(rttMS int) string {
	if r.Error != "" {
		return "ERROR " + firstLine(r.Error)
	}
	limit := float64(r.Threads) / (float64(rttMS) / 1000)
	return fmt.Sprintf("%7.1f commits/s (%.0f%% of %.1f)  latency p50 %.1f p99 %.1f ms  %.1f txn/group  no_tx +%d  check %s",
		r.CommitsPerSec, 100*r.CommitsPerSec/limit, limit, r.LatP50Ms, r.LatP99Ms, r.TxnsPerGroup, r.After.NoTx-r.Before.NoTx, r.Check)
}

// Point is the median over repeats of one system at one thread count.
type Point struct {
	System       string    `json:"system"`
	Threads      int       `json:"threads"`
	N            int       `json:"n"`
	CommitsPS    float64   `json:"commits_per_s_median"`
	Min          float64   `json:"commits_per_s_min"`
	Max          float64   `json:"commits_per_s_max"`
	All          []float64 `json:"commits_per_s_all"`
	Limit        float64   `json:"physical_limit"` // threads / RTT
	OfLimit      float64   `json:"fraction_of_limit"`
	LatP50Ms     float64   `json:"lat_p50_ms_median"`
	LatP99Ms     float64   `json:"lat_p99_ms_median"`
	SlowShare    float64   `json:"share_over_1_5_rtt_median"`
	TxnsPerGroup float64   `json:"txns_per_group_commit_median"`
	GroupsPerSec float64   `json:"group_commits_per_s_median"`
	AvgWaitMs    float64   `json:"semi_sync_avg_wait_ms_median"`
	NoTxDelta    uint64    `json:"no_tx_delta_total"`
	Checked      int       `json:"runs_checked_ok"`
}

// Ratio is binlite against MariaDB at one thread count.
type Ratio struct {
	Threads        int     `json:"threads"`
	Binlite        float64 `json:"binlite"`
	MariaDB        float64 `json:"mariadb"`
	OverMariaDB    float64 `json:"binlite_over_mariadb"`
	PerRepeatRatio float64 `json:"binlite_over_mariadb_per_repeat_median"`
}

// Target is one of the goals.
type Target struct {
	Goal string  `json:"goal"`
	Want string  `json:"want"`
	Got  float64 `json:"got"`
	Unit string  `json:"unit"`
	Met  bool    `json:"met"`
}

func (rep *Report) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	rep.Problems = append(rep.Problems, msg)
	fmt.Fprintln(os.Stderr, "PROBLEM:", msg)
}

func (rep *Report) setting(key string, ctx context.Context, s *harness.Server, names ...string) {
	out := s.Settings(ctx, names...)
	rep.Settings[key] = out
	logf("%s %s pid %d port %d: %v", key, out["version"], s.Proc.PID(), s.Port, out)
}

func (rep *Report) limit(threads int) float64 {
	return float64(threads) / (float64(rep.Config.RTTms) / 1000)
}

func (rep *Report) point(sys string, threads int) *Point {
	for i := range rep.Points {
		if rep.Points[i].System == sys && rep.Points[i].Threads == threads {
			return &rep.Points[i]
		}
	}
	return nil
}

// summarize computes Points, Ratios and Targets from Runs.
func (rep *Report) summarize() {
	rep.Points, rep.Ratios, rep.Targets = nil, nil, nil
	c := rep.Config
	systems := []string{sysBinlite}
	if c.MariaDB {
		systems = append(systems, sysMariaDB)
	}
	for _, th := range c.Threads {
		for _, sys := range systems {
			p := Point{System: sys, Threads: th, Limit: rep.limit(th)}
			var cps, p50, p99, tpg, gps, slow, wait []float64
			for _, r := range rep.Runs {
				if r.System != sys || r.Threads != th || !r.ok() {
					continue
				}
				p.N++
				cps = append(cps, r.CommitsPerSec)
				p50, p99 = append(p50, r.LatP50Ms), append(p99, r.LatP99Ms)
				slow = append(slow, r.SlowShare)
				if r.TxnsPerGroup > 0 {
					tpg, gps = append(tpg, r.TxnsPerGroup), append(gps, r.GroupsPerSec)
				}
				if r.AvgWaitMs > 0 {
					wait = append(wait, r.AvgWaitMs)
				}
				p.NoTxDelta += r.After.NoTx - r.Before.NoTx
				if r.Check == "ok" {
					p.Checked++
				}
			}
			if p.N == 0 {
				continue
			}
			p.All = cps
			p.CommitsPS = harness.Median(cps)
			p.Min, p.Max = harness.MinMax(cps)
			p.OfLimit = p.CommitsPS / p.Limit
			p.LatP50Ms, p.LatP99Ms = harness.Median(p50), harness.Median(p99)
			p.SlowShare = harness.Median(slow)
			if len(tpg) > 0 {
				p.TxnsPerGroup, p.GroupsPerSec = harness.Median(tpg), harness.Median(gps)
			}
			if len(wait) > 0 {
				p.AvgWaitMs = harness.Median(wait)
			}
			rep.Points = append(rep.Points, p)
		}
	}
	for _, th := range c.Threads {
		bl, md := rep.point(sysBinlite, th), rep.point(sysMariaDB, th)
		if bl == nil || md == nil {
			continue
		}
		r := Ratio{Threads: th, Binlite: bl.CommitsPS, MariaDB: md.CommitsPS, OverMariaDB: bl.CommitsPS / md.CommitsPS}
		var xs []float64
		for _, a := range rep.Runs {
			for _, b := range rep.Runs {
				if a.System == sysBinlite && b.System == sysMariaDB && a.Threads == th && b.Threads == th && a.Repeat == b.Repeat && a.ok() && b.ok() {
					xs = append(xs, a.CommitsPerSec/b.CommitsPerSec)
				}
			}
		}
		if len(xs) > 0 {
			r.PerRepeatRatio = harness.Median(xs)
		}
		rep.Ratios = append(rep.Ratios, r)
	}
	// The targets.
	if bl := rep.point(sysBinlite, 1); bl != nil {
		one := rep.limit(1)
		dev := bl.CommitsPS/one - 1
		rep.Targets = append(rep.Targets, Target{Goal: fmt.Sprintf("1 thread within 5%% of 1/RTT = %.2f commits/s", one), Want: "|deviation| ≤ 5%",
			Got: 100 * dev, Unit: "% deviation", Met: math.Abs(dev) <= 0.05})
	}
	if bl := rep.point(sysBinlite, 64); bl != nil {
		rep.Targets = append(rep.Targets, Target{Goal: fmt.Sprintf("64 threads at least 90%% of 64/RTT = %.0f commits/s", bl.Limit), Want: "≥ 90%",
			Got: 100 * bl.OfLimit, Unit: "% of the limit", Met: bl.OfLimit >= 0.9})
	}
	for _, r := range rep.Ratios {
		rep.Targets = append(rep.Targets, Target{Goal: fmt.Sprintf("%d thread%s: ahead of MariaDB", r.Threads, plural(r.Threads)), Want: "> 1×",
			Got: r.OverMariaDB, Unit: "× MariaDB", Met: r.OverMariaDB > 1})
	}
}

// writeOutputs writes semisync.json (when fresh), .csv and .md, draws the chart and
// prints the tables.
func writeOutputs(cfg *config, rep *Report, fresh bool) error {
	o := harness.Outputs{Dir: cfg.out, Name: "semisync", Report: rep, Fresh: fresh,
		Files: map[string][]byte{"semisync.csv": pointsCSV(rep)}, Markdown: markdown(rep), Chart: cfg.chart}
	if len(rep.Points) > 0 {
		o.SVG = chart(rep).SVG
	}
	return o.Write()
}

func pointsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "threads", "n", "commits_per_s_median", "commits_per_s_min", "commits_per_s_max", "physical_limit",
		"fraction_of_limit", "lat_p50_ms", "lat_p99_ms", "share_over_1_5_rtt", "txns_per_group_commit", "group_commits_per_s", "semi_sync_avg_wait_ms", "no_tx_delta", "binlite_over_mariadb"})
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	for _, p := range rep.Points {
		ratio := ""
		if p.System == sysBinlite {
			for _, r := range rep.Ratios {
				if r.Threads == p.Threads {
					ratio = f(r.OverMariaDB, 3)
				}
			}
		}
		w.Write([]string{p.System, strconv.Itoa(p.Threads), strconv.Itoa(p.N), f(p.CommitsPS, 2), f(p.Min, 2), f(p.Max, 2), f(p.Limit, 2),
			f(p.OfLimit, 4), f(p.LatP50Ms, 2), f(p.LatP99Ms, 2), f(p.SlowShare, 4), f(p.TxnsPerGroup, 2), f(p.GroupsPerSec, 2), f(p.AvgWaitMs, 2),
			strconv.FormatUint(p.NoTxDelta, 10), ratio})
	}
	w.Flush()
	return b.Bytes()
}

func markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Config
	fmt.Fprintf(&b, "\n## semisync: %s, %d ms round trip, %d × %d s per point (after %d s warm-up), medians\n\n",
		rep.Started.Format("2006-01-02 15:04 UTC"), c.RTTms, c.Repeats, c.Seconds, c.Warmup)
	fmt.Fprintf(&b, "`%s`\n\n", rep.Command)
	if c.Schemas > 1 {
		fmt.Fprintf(&b, "Diagnostic variant: client thread i writes to schema i mod %d (each its own table), not the seed's single table.\n\n", c.Schemas)
	}
	m := rep.Machine
	fmt.Fprintf(&b, "Machine: %d cores (%s), %s RAM, %s, kernel %s. binlite %s (%s)", m.NumCPU, m.CPUModel, m.MemTotal, m.OS, m.Kernel,
		rep.Versions[sysBinlite], rep.Versions["binlite_git"])
	if v := rep.Versions[sysMariaDB]; v != "" {
		fmt.Fprintf(&b, "; MariaDB %s", v)
	}
	b.WriteString(".\n")
	for _, l := range rep.Links {
		fmt.Fprintf(&b, "%s link: %.0f ms down + %.0f ms up; `SELECT 1` through it: median %.2f ms (min %.2f, max %.2f, n=%d).\n",
			l.System, l.DownMs, l.UpMs, l.SelectOneMedianMs, l.SelectOneMinMs, l.SelectOneMaxMs, l.N)
	}
	b.WriteString("\n| threads | physical limit (threads / RTT) | binlite commits/s | binlite % of limit | MariaDB commits/s | MariaDB % of limit | binlite / MariaDB | same-repeat ratio, median |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, th := range c.Threads {
		bl, md := rep.point(sysBinlite, th), rep.point(sysMariaDB, th)
		blS, blL, mdS, mdL, ratio, per := "—", "—", "—", "—", "—", "—"
		if bl != nil {
			blS, blL = fmt.Sprintf("%.1f", bl.CommitsPS), fmt.Sprintf("%.1f%%", 100*bl.OfLimit)
		}
		if md != nil {
			mdS, mdL = fmt.Sprintf("%.1f", md.CommitsPS), fmt.Sprintf("%.1f%%", 100*md.OfLimit)
		}
		for _, r := range rep.Ratios {
			if r.Threads == th {
				ratio, per = fmt.Sprintf("%.2f×", r.OverMariaDB), fmt.Sprintf("%.2f×", r.PerRepeatRatio)
			}
		}
		fmt.Fprintf(&b, "| %d | %.1f | %s | %s | %s | %s | %s | %s |\n", th, rep.limit(th), blS, blL, mdS, mdL, ratio, per)
	}
	b.WriteString("\nPer system (medians over the repeats; latency is each INSERT as the client saw it; " +
		"transactions per binary-log group commit and the semi-sync wait from the source's counters over the timed window):\n\n")
	b.WriteString("| system | threads | commits/s min–max | latency p50 / p99 ms | commits taking > 1.5 RTT | txns per binlog group commit | group commits/s | Rpl_semi_sync tx_wait_time / tx_waits (ms) | Rpl_semi_sync no_tx change | runs checked |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range rep.Points {
		wait := "—"
		if p.AvgWaitMs > 0 {
			wait = fmt.Sprintf("%.1f", p.AvgWaitMs)
		}
		fmt.Fprintf(&b, "| %s | %d | %.1f–%.1f | %.1f / %.1f | %.0f%% | %.1f | %.1f | %s | %d | %d of %d ok |\n", p.System, p.Threads, p.Min, p.Max,
			p.LatP50Ms, p.LatP99Ms, 100*p.SlowShare, p.TxnsPerGroup, p.GroupsPerSec, wait, p.NoTxDelta, p.Checked, p.N)
	}
	if len(rep.Targets) > 0 {
		b.WriteString("\nTargets (issue 5):\n\n")
		for _, t := range rep.Targets {
			met := "NOT met"
			if t.Met {
				met = "met"
			}
			fmt.Fprintf(&b, "- %s (%s): %.2f %s → %s\n", t.Goal, t.Want, t.Got, t.Unit, met)
		}
	}
	var other []float64
	for _, r := range rep.Runs {
		if r.ok() {
			other = append(other, r.OtherCores)
		}
	}
	if len(other) > 0 {
		lo, hi := harness.MinMax(other)
		fmt.Fprintf(&b, "\nCPU used outside the measured system during the timed windows: median %.2f cores (%.2f–%.2f) of %d.\n", harness.Median(other), lo, hi, m.NumCPU)
	}
	if len(rep.ReplicaRows) > 0 {
		b.WriteString("\nAfter the last run: " + strings.Join(rep.ReplicaRows, "; ") + ".\n")
	}
	if len(rep.Problems) > 0 {
		b.WriteString("\nProblems:\n\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(p, "\n", "\n  "))
		}
	} else {
		ok := 0
		for _, r := range rep.Runs {
			if r.Check == "ok" {
				ok++
			}
		}
		fmt.Fprintf(&b, "\nAll %d runs checked: semi-sync ON throughout, no commit without an acknowledgement (no_tx and no_times unchanged), "+
			"0 failed INSERTs, and the source's row count grew by exactly the acknowledged INSERTs.\n", ok)
	}
	return b.String()
}

func chart(rep *Report) svgchart.Chart {
	c := rep.Config
	ch := svgchart.Chart{
		Title:  fmt.Sprintf("Semi-synchronous replication over an %d ms round trip (seeds/001)", c.RTTms),
		XLabel: "",
		YLabel: "acknowledged commits per second",
		Subtitle: fmt.Sprintf("autocommit single-row INSERTs, each client thread its own connection; AFTER_SYNC; bars: median of %d × %d s, whiskers: min–max\n"+
			"solid line: one round trip per commit group (threads / RTT), the physical limit; each panel has its own scale", c.Repeats, c.Seconds),
		PanelWidth:  260,
		PanelHeight: 280,
		Footer: []string{
			fmt.Sprintf("%s: %s", rep.Started.Format("2006-01-02"), rep.Command),
			fmt.Sprintf("binlite %s: sync_binlog=1, the replica acknowledges after its relay-log fsync", rep.Versions["binlite_git"]),
			fmt.Sprintf("MariaDB %s: sync_binlog=1, innodb_flush_log_at_trx_commit=1, replica sync_relay_log=1", rep.Versions[sysMariaDB]),
			"link: in-process toxiproxy between replica and source, half the delay each way; clients connect to the source directly",
		},
	}
	for _, th := range c.Threads {
		p := svgchart.Panel{Title: fmt.Sprintf("%d client thread%s", th, plural(th)), XLabels: []string{fmt.Sprintf("%d", th)}}
		note := []string{}
		for _, sr := range []struct {
			sys, name, color string
		}{{sysBinlite, "binlite", "#1f6fb4"}, {sysMariaDB, "MariaDB 10.11", "#e8871e"}} {
			pt := rep.point(sr.sys, th)
			if pt == nil {
				continue
			}
			s := svgchart.Series{Name: sr.name, Color: sr.color, Values: []float64{pt.CommitsPS}}
			if pt.N > 1 {
				s.Low, s.High = []float64{pt.Min}, []float64{pt.Max}
			}
			p.Series = append(p.Series, s)
			note = append(note, fmt.Sprintf("%s %.1f/s = %.0f%% of limit", sr.name, pt.CommitsPS, 100*pt.OfLimit))
		}
		for _, r := range rep.Ratios {
			if r.Threads == th {
				note = append(note, fmt.Sprintf("binlite / MariaDB %.2f×", r.OverMariaDB))
			}
		}
		p.XNotes = []string{strings.Join(note, "\n")}
		p.Lines = []svgchart.RefLine{{Name: "physical limit: threads / RTT", Color: "#2e8b3a", Value: rep.limit(th)}}
		switch th {
		case 1:
			p.Lines = append(p.Lines, svgchart.RefLine{Name: "target band (1 thread ±5%, 64 threads ≥ 90%)", Color: "#2e8b3a", Value: 0.95 * rep.limit(th), Dashed: true})
		case 64:
			p.Lines = append(p.Lines, svgchart.RefLine{Name: "target band (1 thread ±5%, 64 threads ≥ 90%)", Color: "#2e8b3a", Value: 0.9 * rep.limit(th), Dashed: true})
		}
		ch.Panels = append(ch.Panels, p)
	}
	return ch
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
