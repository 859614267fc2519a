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

// Report is everything one invocation measured; lag.json holds it.
type Report struct {
	Benchmark string                       `json:"benchmark"`
	Command   string                       `json:"command"`
	Started   time.Time                    `json:"started"`
	Finished  time.Time                    `json:"finished"`
	Config    config                       `json:"config"`
	Machine   harness.Machine              `json:"machine"`
	Versions  map[string]string            `json:"versions"`
	Settings  map[string]map[string]string `json:"settings"` // server variables in force
	Runs      []Run                        `json:"runs"`
	Targets   []Target                     `json:"targets"`
	Problems  []string                     `json:"problems"`
}

// Target is the goal for one run: the replica never more than 1 s behind.
type Target struct {
	System string  `json:"system"`
	Mode   string  `json:"mode"`
	Goal   string  `json:"goal"`
	Got    float64 `json:"got_max_lag_s"`
	Met    bool    `json:"met"`
}

func (rep *Report) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	rep.Problems = append(rep.Problems, msg)
	fmt.Fprintln(os.Stderr, "PROBLEM:", msg)
}

// setting records the server's variables (unknown ones as "(unknown)").
func (rep *Report) setting(key string, ctx context.Context, s *harness.Server, names ...string) {
	out := s.Settings(ctx, names...)
	rep.Settings[key] = out
	logf("%s %s pid %d port %d: %v", key, out["version"], s.Proc.PID(), s.Port, out)
}

func (rep *Report) targets() {
	rep.Targets = nil
	for _, r := range rep.Runs {
		if r.System != sysBinlite || r.Error != "" {
			continue
		}
		got := math.Max(r.MaxLagSec, r.MaxSBS)
		rep.Targets = append(rep.Targets, Target{System: r.System, Mode: r.Mode,
			Goal: "replica never ≥ 1 s behind (max Seconds_Behind_Source and max GTID lag < 1 s)", Got: got, Met: !r.FellBehind1s})
	}
}

func modeLabel(r Run) string {
	if r.Mode == modeTen {
		return fmt.Sprintf("%d schemas × %d threads", r.Schemas, r.ThreadsPerProcess)
	}
	return fmt.Sprintf("1 schema × %d threads", r.ThreadsPerProcess)
}

// writeOutputs writes lag.json (when fresh), lag.csv, lag-samples.csv and lag.md,
// draws the chart and prints the tables.
func writeOutputs(cfg *config, rep *Report, fresh bool) error {
	rep.targets()
	o := harness.Outputs{Dir: cfg.out, Name: "lag", Report: rep, Fresh: fresh,
		Files: map[string][]byte{"lag.csv": runsCSV(rep), "lag-samples.csv": samplesCSV(rep)}, Markdown: markdown(rep), Chart: cfg.chart}
	if len(rep.Runs) > 0 {
		o.SVG = chart(rep).SVG
	}
	return o.Write()
}

func f3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

func runsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "mode", "schemas", "threads_per_sysbench", "seconds", "source_tps", "transactions", "ignored_errors",
		"max_seconds_behind_source", "p99_seconds_behind_source", "sbs_null_samples", "max_gtid_distance", "p99_gtid_distance",
		"max_gtid_lag_s", "p99_gtid_lag_s", "catch_up_s", "fell_behind_1s", "checksum", "samples", "machine_busy_cores", "other_cores"})
	for _, r := range rep.Runs {
		w.Write([]string{r.System, r.Mode, strconv.Itoa(r.Schemas), strconv.Itoa(r.ThreadsPerProcess), strconv.Itoa(r.Seconds),
			strconv.FormatFloat(r.TPS, 'f', 1, 64), strconv.FormatInt(r.Transactions, 10), strconv.FormatInt(r.IgnoredErrors, 10),
			strconv.FormatFloat(r.MaxSBS, 'f', 0, 64), strconv.FormatFloat(r.P99SBS, 'f', 0, 64), strconv.Itoa(r.SBSNulls),
			strconv.FormatFloat(r.MaxDistance, 'f', 0, 64), strconv.FormatFloat(r.P99Distance, 'f', 0, 64),
			f3(r.MaxLagSec), f3(r.P99LagSec), f3(r.CatchUpSec), strconv.FormatBool(r.FellBehind1s), r.Checksum,
			strconv.Itoa(r.Samples), strconv.FormatFloat(r.MachineCores, 'f', 2, 64), strconv.FormatFloat(r.OtherCores, 'f', 2, 64)})
	}
	w.Flush()
	return b.Bytes()
}

func samplesCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "mode", "t_s", "t_src_s", "load", "seconds_behind_source", "src_last_seq", "gtid_distance", "oldest_missing_seq", "gtid_lag_s"})
	for _, r := range rep.Runs {
		for _, s := range r.SampleData {
			w.Write([]string{r.System, r.Mode, f3(s.T), f3(s.TSrc), strconv.FormatBool(s.Load), strconv.FormatFloat(s.SBS, 'f', 0, 64),
				strconv.FormatUint(s.SrcLast, 10), strconv.FormatUint(s.Distance, 10), strconv.FormatUint(s.OldestMissing, 10), f3(s.LagSec)})
		}
	}
	w.Flush()
	return b.Bytes()
}

func markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Config
	fmt.Fprintf(&b, "\n## lag: %s, sysbench %s for %d s per load, sampled every %d ms\n\n", rep.Started.Format("2006-01-02 15:04 UTC"), workload, c.Seconds, c.SampleMS)
	fmt.Fprintf(&b, "`%s`\n\n", rep.Command)
	m := rep.Machine
	fmt.Fprintf(&b, "Machine: %d cores (%s), %s RAM, %s, kernel %s. %s; binlite %s (%s)", m.NumCPU, m.CPUModel, m.MemTotal, m.OS, m.Kernel,
		rep.Versions["sysbench"], rep.Versions[sysBinlite], rep.Versions["binlite_git"])
	if v := rep.Versions[sysMariaDB]; v != "" {
		fmt.Fprintf(&b, "; MariaDB %s", v)
	}
	b.WriteString(".\n\n")
	b.WriteString("| system | load | source tps | Seconds_Behind_Source max / p99 (s) | GTID distance max / p99 / median (transactions) | GTID lag max / p99 (s) | caught up after the load (s) | ever ≥ 1 s behind | checksum |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---|---|\n")
	for _, r := range rep.Runs {
		if r.Error != "" {
			fmt.Fprintf(&b, "| %s | %s | ERROR: %s | | | | | | |\n", r.System, modeLabel(r), firstLine(r.Error))
			continue
		}
		sbs := fmt.Sprintf("%.0f / %.0f", r.MaxSBS, r.P99SBS)
		if r.SBSNulls > 0 {
			sbs += fmt.Sprintf(" (%d NULL)", r.SBSNulls)
		}
		catch := "never"
		if r.CatchUpSec >= 0 {
			catch = fmt.Sprintf("%.2f", r.CatchUpSec)
		}
		behind := "no"
		if r.FellBehind1s {
			behind = "**yes**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %.0f / %.0f / %.0f | %.3f / %.3f | %s | %s | %s |\n", r.System, modeLabel(r), thousands(r.TPS), sbs,
			r.MaxDistance, r.P99Distance, r.MedianDistance, r.MaxLagSec, r.P99LagSec, catch, behind, r.Checksum)
	}
	b.WriteString("\nGTID distance: source transactions not yet applied on the replica (replica read first, then the source). " +
		"GTID lag: how long before the sample the source had committed the oldest of them (from the source's GTID count over time; " +
		"good to about one sampling interval). Maxima and p99 are over every sample from the start of the load until the replica had caught up.\n")
	b.WriteString("\nCPU during the loads (cores of " + strconv.Itoa(m.NumCPU) + "):\n\n")
	b.WriteString("| system | load | transactions | sysbench ignored errors | source | replica | replica CPU per applied transaction (µs) | sysbench | other processes | whole machine |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rep.Runs {
		if r.Error != "" {
			continue
		}
		perTxn := "—"
		if r.AppliedInLoad > 0 && r.ReplicaCores > 0 && len(r.SampleData) > 0 {
			// CPU over the load, per transaction applied between the first and last sample of it
			perTxn = fmt.Sprintf("%.0f", r.ReplicaCores*r.LoadSeconds/r.AppliedInLoad*1e6)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.2f | %.2f | %s | %.2f | %.2f | %.2f |\n", r.System, modeLabel(r), r.Transactions, r.IgnoredErrors,
			r.SourceCores, r.ReplicaCores, perTxn, r.SysbenchCores, r.OtherCores, r.MachineCores)
	}
	b.WriteString("\nWorst sample per 10 s of load (GTID lag max in ms / GTID distance max; source commits/s → replica applies/s):\n\n")
	for _, r := range rep.Runs {
		if r.Error != "" || len(r.Windows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "- %s, %s:", r.System, modeLabel(r))
		for i, w := range r.Windows {
			sep := ";"
			if i == 0 {
				sep = ""
			}
			if w.Label == "drain" {
				fmt.Fprintf(&b, "%s after the load %.0f ms / %.0f", sep, w.MaxLagMs, w.MaxDistance)
				continue
			}
			fmt.Fprintf(&b, "%s %s s %.0f ms / %.0f (%.0f → %.0f)", sep, w.Label, w.MaxLagMs, w.MaxDistance, w.SourceTPS, w.ReplicaTPS)
		}
		b.WriteString("\n")
	}
	if len(rep.Targets) > 0 {
		b.WriteString("\nTarget (issue 4, item 2):\n\n")
		for _, t := range rep.Targets {
			met := "NOT met"
			if t.Met {
				met = "met"
			}
			fmt.Fprintf(&b, "- %s, %s: %s — worst %.3f s → %s\n", t.System, t.Mode, t.Goal, t.Got, met)
		}
	}
	if len(rep.Problems) > 0 {
		b.WriteString("\nProblems:\n\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(p, "\n", "\n  "))
		}
	} else {
		b.WriteString("\nNo problems: every run's GTIDs issued equal sysbench's transactions, the replica caught up and `binlite checksum` found no difference.\n")
	}
	return b.String()
}

func chart(rep *Report) svgchart.Chart {
	c := rep.Config
	ch := svgchart.Chart{
		Title:  fmt.Sprintf("Replica lag while the source runs sysbench %s flat out for %d s", workload, c.Seconds),
		XLabel: "seconds into the load (10 s windows), then the drain after it",
		YLabel: "worst lag in the window (ms)",
		Subtitle: fmt.Sprintf("GTID lag: age of the oldest source transaction not yet applied on the replica, sampled every %d ms; Seconds_Behind_Source as reported (whole seconds)\n"+
			"each panel has its own scale; one source and one replica on the same %d-core machine as sysbench",
			c.SampleMS, rep.Machine.NumCPU),
		PanelWidth:  380,
		PanelHeight: 260,
		Footer: []string{
			fmt.Sprintf("%s: %s", rep.Started.Format("2006-01-02"), rep.Command),
			fmt.Sprintf("binlite %s, sync_binlog=1, replica_parallel_workers=%s; %s, --rand-type=%s, %d rows per schema",
				rep.Versions["binlite_git"], rep.Settings[sysBinlite+" replica"]["replica_parallel_workers"], rep.Versions["sysbench"], c.RandType, c.TableSize),
		},
	}
	if v := rep.Versions[sysMariaDB]; v != "" {
		ch.Footer = append(ch.Footer, fmt.Sprintf("MariaDB %s: sync_binlog=1, innodb_flush_log_at_trx_commit=1, ROW; replica slave_parallel_threads=%d (%s), log_slave_updates",
			v, c.MariaDBThreads, c.MariaDBMode))
	}
	for _, r := range rep.Runs {
		if r.Error != "" {
			continue
		}
		p := svgchart.Panel{Title: fmt.Sprintf("%s, %s: %s tps", r.System, modeLabel(r), thousands(r.TPS))}
		lag := svgchart.Series{Name: "GTID lag", Color: "#1f6fb4"}
		sbs := svgchart.Series{Name: "Seconds_Behind_Source × 1000", Color: "#e8871e"}
		for _, w := range r.Windows {
			p.XLabels = append(p.XLabels, w.Label)
			lag.Values = append(lag.Values, w.MaxLagMs)
			sbs.Values = append(sbs.Values, math.Max(0, w.MaxSBS)*1000)
		}
		p.Series = []svgchart.Series{lag, sbs}
		p.Lines = []svgchart.RefLine{{Name: "1 s target", Color: "#c0392b", Value: 1000, Dashed: true}}
		ch.Panels = append(ch.Panels, p)
	}
	return ch
}

func thousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
