package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
	"github.com/binlite/binlite/bench/internal/svgchart"
)

// Report is everything one benchmark measured; bench/results/replapply-<name>.json holds it.
type Report struct {
	Benchmark string                       `json:"benchmark"`
	Command   string                       `json:"command"`
	Started   time.Time                    `json:"started"`
	Finished  time.Time                    `json:"finished"`
	Config    config                       `json:"config"`
	Machine   harness.Machine              `json:"machine"`
	Versions  map[string]string            `json:"versions"`
	Settings  map[string]map[string]string `json:"settings"` // server variables in force, per system
	Setup     map[string]*Setup            `json:"setup"`    // per system: how the updates were queued
	Fsync     []harness.FsyncStats         `json:"fsync_probes"`
	Runs      []Run                        `json:"runs"`
	Points    []Point                      `json:"points"`
	Ratios    []Ratio                      `json:"ratios"`
	Targets   []Target                     `json:"targets"`
	Problems  []string                     `json:"problems"`
}

// Setup is how one system's updates were generated and queued.
type Setup struct {
	Load          []harness.SysbenchResult `json:"load"` // one sysbench client per schema
	LoadSeconds   float64                  `json:"load_seconds"`
	PrimaryRate   float64                  `json:"primary_updates_per_second"`
	GTIDSet       string                   `json:"gtid_set"`
	SnapshotBytes int64                    `json:"replica_snapshot_bytes"`
	Seconds       float64                  `json:"setup_seconds"`
	Before        map[string]sums          `json:"before"` // per schema, before the updates
	After         map[string]sums          `json:"after"`  // per schema on the primary, after them
}

// Run is one timed apply.
type Run struct {
	Repeat        int                `json:"repeat"`
	System        string             `json:"system"`
	Mode          string             `json:"mode,omitempty"` // MariaDB slave_parallel_mode
	CrashSafe     bool               `json:"crash_safe"`     // binlite_crash_safe_apply (binlite)
	Workers       int                `json:"workers"`        // replica_parallel_workers / slave_parallel_threads; raw SQLite: files = goroutines
	Batch         int                `json:"raw_rows_per_transaction,omitempty"`
	Updates       int64              `json:"updates"`
	Seconds       float64            `json:"seconds"`       // START ... SQL_THREAD until the wait function returned
	StartSeconds  float64            `json:"start_seconds"` // of which the START ... SQL_THREAD statement itself
	Rate          float64            `json:"rate"`          // updates (rows, queries) applied per second
	PrepSeconds   float64            `json:"prep_seconds"`
	SettleSeconds float64            `json:"settle_seconds"`      // waited for a quiet machine before the run
	OtherBefore   float64            `json:"other_cores_before"`  // other processes' CPU when the run started
	ReplicaCPU    float64            `json:"replica_cpu_seconds"` // raw SQLite: this process
	MachineCores  float64            `json:"machine_busy_cores"`
	OtherCores    float64            `json:"other_cores"` // CPU used by processes outside the benchmark
	Counters      map[string]float64 `json:"counters,omitempty"`
	Settings      map[string]string  `json:"settings,omitempty"`
	Check         string             `json:"check"`
	Error         string             `json:"error,omitempty"`
}

func (r Run) ok() bool { return r.Error == "" && r.Check == "ok" && r.Rate > 0 }

// label names the series a run belongs to.
func (r Run) label() string {
	switch r.System {
	case sysBinlite:
		if !r.CrashSafe {
			return "binlite (crash-safe apply OFF)"
		}
		return "binlite"
	case sysMariaDB:
		if r.Mode != "" {
			return "MariaDB " + r.Mode
		}
	case sysRaw:
		if r.Batch > 0 {
			return fmt.Sprintf("%s, %d rows/txn", sysRaw, r.Batch)
		}
	}
	return r.System
}

// isRaw reports whether label is one of raw SQLite's series (one per batch size).
func isRaw(label string) bool { return strings.HasPrefix(label, sysRaw) }

// rawPoint is raw SQLite's fastest series at workers (files): the limit the
// ratios use, since the batch size that is fastest depends on the machine.
func (rep *Report) rawPoint(workers int) *Point {
	var best *Point
	for i := range rep.Points {
		p := &rep.Points[i]
		if p.System == sysRaw && p.Workers == workers && (best == nil || p.Rate > best.Rate) {
			best = p
		}
	}
	return best
}

// rawRateIn is rawPoint's series' rate in repeat r (NaN if none).
func (rep *Report) rawRateIn(workers, r int) float64 {
	p := rep.rawPoint(workers)
	if p == nil {
		return math.NaN()
	}
	return rep.rateIn(p.Label, workers, r)
}

func (r Run) brief() string {
	if r.Error != "" {
		return "ERROR " + firstLine(r.Error)
	}
	if r.System == sysRaw {
		return fmt.Sprintf("%8.0f/s  %6.2f s  check %s  CPU %.0f%%  other load %.2f cores (%.2f before, waited %.1f s)",
			r.Rate, r.Seconds, r.Check, 100*r.ReplicaCPU/r.Seconds, r.OtherCores, r.OtherBefore, r.SettleSeconds)
	}
	s := fmt.Sprintf("%8.0f/s  %6.2f s (START %.2f s)  prep %5.1f s  check %s  replica CPU %.0f%%  other load %.2f cores (%.2f before, waited %.1f s)",
		r.Rate, r.Seconds, r.StartSeconds, r.PrepSeconds, r.Check, 100*r.ReplicaCPU/r.Seconds, r.OtherCores, r.OtherBefore, r.SettleSeconds)
	if g := r.Counters["binlite_binlog_groups_total"]; g > 0 {
		s += fmt.Sprintf("  %.0f txn/group", r.Counters["binlite_binlog_transactions_total"]/g)
	}
	if f := r.Counters["Innodb_log_writes"]; f > 0 {
		s += fmt.Sprintf("  %.1f txn/redo write  %.0f fsyncs", float64(r.Updates)/f, r.Counters["Innodb_data_fsyncs"])
	}
	if n := r.Counters["Slave_retried_transactions"]; n > 0 {
		s += fmt.Sprintf("  %.0f retries", n)
	}
	return s
}

// Point is the median over repeats of one series at one worker count.
type Point struct {
	Label        string             `json:"label"`
	System       string             `json:"system"`
	Workers      int                `json:"workers"`
	N            int                `json:"n"` // successful, checked repeats
	Rate         float64            `json:"rate_median"`
	Min          float64            `json:"rate_min"`
	Max          float64            `json:"rate_max"`
	Seconds      float64            `json:"seconds_median"`
	StartSeconds float64            `json:"start_seconds_median"`
	PrepSeconds  float64            `json:"prep_seconds_median"`
	CPUPerRowUS  float64            `json:"cpu_us_per_update_median"`
	ReplicaCores float64            `json:"replica_cores_median"`
	MachineCores float64            `json:"machine_busy_cores_median"`
	OtherCores   float64            `json:"other_cores_median"`
	OtherMax     float64            `json:"other_cores_max"`
	Counters     map[string]float64 `json:"counters_median,omitempty"`
}

// Ratio compares two series: of their medians, and the median of the ratios taken
// within each repeat (the two measured minutes apart).
type Ratio struct {
	Name       string   `json:"name"`
	OfMedians  optFloat `json:"of_medians"`
	SameRepeat optFloat `json:"same_repeat_median"`
}

// optFloat is a float64 written as null in JSON when it is NaN (a series missing).
type optFloat float64

func (f optFloat) MarshalJSON() ([]byte, error) {
	if v := float64(f); !math.IsNaN(v) && !math.IsInf(v, 0) {
		return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
	}
	return []byte("null"), nil
}

func (f *optFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = optFloat(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	*f = optFloat(v)
	return err
}

// Target is one of the targets and whether this run met it.
type Target struct {
	Name   string   `json:"name"`
	Want   string   `json:"want"`
	Got    optFloat `json:"got"`
	Same   optFloat `json:"same_repeat"`
	Met    bool     `json:"met"`
	Detail string   `json:"detail"`
}

func (rep *Report) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	rep.Problems = append(rep.Problems, msg)
	logf("PROBLEM: %s", firstLine(msg))
}

func (rep *Report) runs(label string, workers int) []Run {
	var out []Run
	for _, r := range rep.Runs {
		if r.label() == label && r.Workers == workers && r.ok() {
			out = append(out, r)
		}
	}
	return out
}

func (rep *Report) point(label string, workers int) *Point {
	for i := range rep.Points {
		if rep.Points[i].Label == label && rep.Points[i].Workers == workers {
			return &rep.Points[i]
		}
	}
	return nil
}

// rateIn is the rate of label at workers in repeat r (NaN if none).
func (rep *Report) rateIn(label string, workers, r int) float64 {
	for _, run := range rep.runs(label, workers) {
		if run.Repeat == r {
			return run.Rate
		}
	}
	return math.NaN()
}

// labels are the series in the order runs first appear.
func (rep *Report) labels() []string {
	var out []string
	for _, r := range rep.Runs {
		if l := r.label(); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	order := func(l string) int {
		switch {
		case strings.HasPrefix(l, "binlite ("):
			return 1
		case strings.HasPrefix(l, "binlite"):
			return 0
		case l == sysMariaDB:
			return 2
		case strings.HasPrefix(l, sysMariaDB):
			return 3
		}
		return 4
	}
	slices.SortStableFunc(out, func(a, b string) int { return order(a) - order(b) })
	return out
}

func (rep *Report) workersOf(label string) []int {
	var out []int
	for _, r := range rep.Runs {
		if r.label() == label && !slices.Contains(out, r.Workers) {
			out = append(out, r.Workers)
		}
	}
	slices.Sort(out)
	return out
}

// summarize derives points, ratios and targets from the runs.
func (rep *Report) summarize() {
	rep.Points, rep.Ratios, rep.Targets = nil, nil, nil
	for _, l := range rep.labels() {
		for _, w := range rep.workersOf(l) {
			if p := makePoint(rep.runs(l, w), l, w); p != nil {
				rep.Points = append(rep.Points, *p)
			}
		}
	}
	switch rep.Benchmark {
	case benchCrashSafe:
		rep.summarizeCrashSafe()
	case benchParallel:
		rep.summarizeParallel()
	}
}

func makePoint(runs []Run, label string, w int) *Point {
	if len(runs) == 0 {
		return nil
	}
	p := &Point{Label: label, System: runs[0].System, Workers: w, N: len(runs), Counters: map[string]float64{}}
	col := func(f func(Run) float64) []float64 {
		out := make([]float64, len(runs))
		for i, r := range runs {
			out[i] = f(r)
		}
		return out
	}
	rates := col(func(r Run) float64 { return r.Rate })
	p.Rate = harness.Median(rates)
	p.Min, p.Max = harness.MinMax(rates)
	p.Seconds = harness.Median(col(func(r Run) float64 { return r.Seconds }))
	p.PrepSeconds = harness.Median(col(func(r Run) float64 { return r.PrepSeconds }))
	p.StartSeconds = harness.Median(col(func(r Run) float64 { return r.StartSeconds }))
	p.CPUPerRowUS = harness.Median(col(func(r Run) float64 { return r.ReplicaCPU / float64(r.Updates) * 1e6 }))
	p.ReplicaCores = harness.Median(col(func(r Run) float64 { return r.ReplicaCPU / r.Seconds }))
	p.MachineCores = harness.Median(col(func(r Run) float64 { return r.MachineCores }))
	others := col(func(r Run) float64 { return r.OtherCores })
	p.OtherCores = harness.Median(others)
	_, p.OtherMax = harness.MinMax(others)
	for k := range runs[0].Counters {
		p.Counters[k] = harness.Median(col(func(r Run) float64 { return r.Counters[k] }))
	}
	return p
}

const (
	lblBinlite   = "binlite"
	lblBinliteNS = "binlite (crash-safe apply OFF)"
)

func (rep *Report) summarizeCrashSafe() {
	rate := func(l string) float64 {
		if p := rep.point(l, 0); p != nil {
			return p.Rate
		}
		if p := rep.point(l, 1); p != nil { // raw SQLite: one file
			return p.Rate
		}
		return math.NaN()
	}
	rawW := 1
	same := func(f func(r int) float64) float64 {
		var xs []float64
		for r := 1; r <= rep.Config.Repeats; r++ {
			if v := f(r); !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		return harness.Median(xs)
	}
	bl, ns, md := rate(lblBinlite), rate(lblBinliteNS), rate(sysMariaDB)
	raw := math.NaN()
	if p := rep.rawPoint(rawW); p != nil {
		raw = p.Rate
	}
	vsMaria := Ratio{Name: "binlite / MariaDB", OfMedians: optFloat(bl / md),
		SameRepeat: optFloat(same(func(r int) float64 { return rep.rateIn(lblBinlite, 0, r) / rep.rateIn(sysMariaDB, 0, r) }))}
	vsRaw := Ratio{Name: "binlite / raw SQLite", OfMedians: optFloat(bl / raw),
		SameRepeat: optFloat(same(func(r int) float64 { return rep.rateIn(lblBinlite, 0, r) / rep.rawRateIn(rawW, r) }))}
	cost := Ratio{Name: "cost of crash safety: 1 − binlite / binlite with crash-safe apply OFF", OfMedians: optFloat(1 - bl/ns),
		SameRepeat: optFloat(same(func(r int) float64 { return 1 - rep.rateIn(lblBinlite, 0, r)/rep.rateIn(lblBinliteNS, 0, r) }))}
	mdRaw := Ratio{Name: "MariaDB / raw SQLite", OfMedians: optFloat(md / raw),
		SameRepeat: optFloat(same(func(r int) float64 { return rep.rateIn(sysMariaDB, 0, r) / rep.rawRateIn(rawW, r) }))}
	rep.Ratios = []Ratio{vsMaria, vsRaw, cost, mdRaw}
	rep.Targets = []Target{
		{Name: "binlite crash-safe single-threaded apply vs MariaDB", Want: "≥ 10×", Got: vsMaria.OfMedians, Same: vsMaria.SameRepeat, Met: vsMaria.OfMedians >= 10},
		{Name: "binlite crash-safe single-threaded apply vs raw SQLite's fastest batch size", Want: "≥ 80%", Got: vsRaw.OfMedians, Same: vsRaw.SameRepeat, Met: vsRaw.OfMedians >= 0.8},
		{Name: "cost of crash safety (recording applied GTIDs)", Want: "< 5%", Got: cost.OfMedians, Same: cost.SameRepeat, Met: cost.OfMedians < 0.05},
	}
}

// best is the highest median of the labels accepted by match, over worker counts.
func (rep *Report) best(match func(string) bool) *Point {
	var b *Point
	for i := range rep.Points {
		p := &rep.Points[i]
		if match(p.Label) && (b == nil || p.Rate > b.Rate) {
			b = p
		}
	}
	return b
}

func isMariaDB(l string) bool { return strings.HasPrefix(l, sysMariaDB) }
func isBinlite(l string) bool { return l == lblBinlite }

func (rep *Report) summarizeParallel() {
	bb, mb := rep.best(isBinlite), rep.best(isMariaDB)
	bestIn := func(match func(string) bool, r int) float64 {
		v := math.NaN()
		for _, run := range rep.Runs {
			if run.Repeat == r && run.ok() && match(run.label()) && (math.IsNaN(v) || run.Rate > v) {
				v = run.Rate
			}
		}
		return v
	}
	same := func(f func(r int) float64) float64 {
		var xs []float64
		for r := 1; r <= rep.Config.Repeats; r++ {
			if v := f(r); !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		return harness.Median(xs)
	}
	raw := rep.rawPoint(rep.Config.Schemas)
	if bb != nil && mb != nil {
		r := Ratio{Name: fmt.Sprintf("binlite best (workers = %d) / MariaDB best (%s, %d threads)", bb.Workers, mb.Label, mb.Workers),
			OfMedians:  optFloat(bb.Rate / mb.Rate),
			SameRepeat: optFloat(same(func(r int) float64 { return bestIn(isBinlite, r) / bestIn(isMariaDB, r) }))}
		rep.Ratios = append(rep.Ratios, r)
		rep.Targets = append(rep.Targets, Target{Name: "binlite's best setting vs MariaDB's best setting", Want: "≥ 5×",
			Got: r.OfMedians, Same: r.SameRepeat, Met: r.OfMedians >= 5, Detail: r.Name})
	}
	if b10 := rep.point(lblBinlite, 10); b10 != nil && raw != nil {
		r := Ratio{Name: fmt.Sprintf("binlite 10 workers / %s (%d files, %d goroutines)", raw.Label, rep.Config.Schemas, rep.Config.Schemas),
			OfMedians:  optFloat(b10.Rate / raw.Rate),
			SameRepeat: optFloat(same(func(r int) float64 { return rep.rateIn(lblBinlite, 10, r) / rep.rawRateIn(rep.Config.Schemas, r) }))}
		rep.Ratios = append(rep.Ratios, r)
		rep.Targets = append(rep.Targets, Target{Name: "binlite with 10 workers vs raw SQLite's fastest batch size", Want: "≥ 90%",
			Got: r.OfMedians, Same: r.SameRepeat, Met: r.OfMedians >= 0.9, Detail: r.Name})
	}
	if b0, bb := rep.point(lblBinlite, 0), rep.best(isBinlite); b0 != nil && bb != nil {
		rep.Ratios = append(rep.Ratios, Ratio{Name: fmt.Sprintf("binlite best (workers = %d) / binlite 0 workers", bb.Workers), OfMedians: optFloat(bb.Rate / b0.Rate),
			SameRepeat: optFloat(same(func(r int) float64 { return bestIn(isBinlite, r) / rep.rateIn(lblBinlite, 0, r) }))})
	}
	if m0, mb := rep.point(sysMariaDB, 0), rep.best(isMariaDB); m0 != nil && mb != nil {
		rep.Ratios = append(rep.Ratios, Ratio{Name: fmt.Sprintf("MariaDB best (%s, %d threads) / MariaDB 0 threads", mb.Label, mb.Workers), OfMedians: optFloat(mb.Rate / m0.Rate),
			SameRepeat: optFloat(same(func(r int) float64 { return bestIn(isMariaDB, r) / rep.rateIn(sysMariaDB, 0, r) }))})
	}
}

func writeOutputs(cfg *config, rep *Report) error {
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	base := filepath.Join(cfg.out, "replapply-"+rep.Benchmark)
	j, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	md := markdown(rep)
	for path, data := range map[string][]byte{base + ".json": append(j, '\n'), base + ".csv": pointsCSV(rep), base + ".md": []byte(md)} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	fmt.Println(md)
	logf("wrote %s.{json,csv,md}", base)
	if cfg.chartDir != "-" {
		path := filepath.Join(cfg.chartDir, "bench-replapply-"+rep.Benchmark+".svg")
		if err := os.WriteFile(path, chart(rep).SVG(), 0o644); err != nil {
			return err
		}
		logf("wrote %s", path)
	}
	return nil
}

func pointsCSV(rep *Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"benchmark", "series", "workers", "n", "rate_median", "rate_min", "rate_max", "seconds_median", "prep_seconds_median",
		"replica_cpu_us_per_update", "replica_cores", "machine_busy_cores", "other_cores_median", "other_cores_max"})
	f := func(v float64, p int) string { return strconv.FormatFloat(v, 'f', p, 64) }
	for _, p := range rep.Points {
		w.Write([]string{rep.Benchmark, p.Label, strconv.Itoa(p.Workers), strconv.Itoa(p.N), f(p.Rate, 0), f(p.Min, 0), f(p.Max, 0),
			f(p.Seconds, 3), f(p.PrepSeconds, 1), f(p.CPUPerRowUS, 1), f(p.ReplicaCores, 2), f(p.MachineCores, 2), f(p.OtherCores, 2), f(p.OtherMax, 2)})
	}
	w.Flush()
	return b.Bytes()
}

func markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Config
	title := map[string]string{
		benchCrashSafe: "Crash-safe single-threaded apply (seeds/002)",
		benchParallel:  "Multi-threaded apply vs workers (seeds/000)",
	}[rep.Benchmark]
	nSchemas := c.Schemas
	if rep.Benchmark == benchCrashSafe {
		nSchemas = 1
	}
	fmt.Fprintf(&b, "## %s\n\n", title)
	fmt.Fprintf(&b, "`%s` — %s, %d schema(s) × %d rows, %d single-row updates queued in the relay log, medians of %d repeats; %s.\n\n",
		rep.Command, rep.Started.Format("2006-01-02 15:04 UTC"), nSchemas, c.Rows, c.Updates, c.Repeats, machineLine(rep))
	switch rep.Benchmark {
	case benchCrashSafe:
		b.WriteString("| system | rows/s (median) | min–max | apply s | of which START s | replica CPU µs/row | replica cores | other processes (cores) | check |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
		for _, p := range rep.Points {
			fmt.Fprintf(&b, "| %s | %s | %s–%s | %.2f | %s | %.1f | %.2f | %.2f | %s |\n", seriesName(rep, p), num(p.Rate), num(p.Min), num(p.Max),
				p.Seconds, startStr(p), p.CPUPerRowUS, p.ReplicaCores, p.OtherCores, checks(rep, p.Label, p.Workers))
		}
	case benchParallel:
		labels := rep.labels()
		var cols []string
		for _, l := range labels {
			if l != sysMariaDB && !isRaw(l) {
				cols = append(cols, l)
			}
		}
		b.WriteString("Updates applied per second (median; min–max over the repeats):\n\n| workers |")
		for _, l := range cols {
			fmt.Fprintf(&b, " %s |", l)
		}
		b.WriteString("\n|---:|")
		b.WriteString(strings.Repeat("---:|", len(cols)))
		b.WriteString("\n")
		for _, w := range c.Workers {
			fmt.Fprintf(&b, "| %d |", w)
			for _, l := range cols {
				p := rep.point(l, w)
				if p == nil && w == 0 && isMariaDB(l) {
					p = rep.point(sysMariaDB, 0)
				}
				if p == nil {
					b.WriteString(" — |")
					continue
				}
				fmt.Fprintf(&b, " %s (%s–%s) |", num(p.Rate), num(p.Min), num(p.Max))
			}
			b.WriteString("\n")
		}
		if raw := rep.rawPoint(c.Schemas); raw != nil {
			fmt.Fprintf(&b, "\nRaw SQLite (the limit: the same %d row images, %d files, one goroutine and connection each), by rows per transaction:", c.Updates, c.Schemas)
			for _, n := range c.Batches {
				if p := rep.point(fmt.Sprintf("%s, %d rows/txn", sysRaw, n), c.Schemas); p != nil {
					fmt.Fprintf(&b, " %d: %s/s (%s–%s);", n, num(p.Rate), num(p.Min), num(p.Max))
				}
			}
			fmt.Fprintf(&b, " the ratios use the fastest, %s.\n", raw.Label)
		}
		if rep.point(sysMariaDB, 0) != nil {
			b.WriteString("\nMariaDB at 0 threads is one run per repeat (slave_parallel_mode does not apply without parallel threads), shown in both MariaDB columns.\n")
		}
		b.WriteString("\nWhere the time goes (medians):\n\n| series | workers | apply s | of which START s | replica CPU µs/update | replica cores | other processes (cores) | commits | check |\n|---|---:|---:|---:|---:|---:|---:|---|---|\n")
		for _, p := range rep.Points {
			fmt.Fprintf(&b, "| %s | %d | %.2f | %s | %.1f | %.2f | %.2f (max %.2f) | %s | %s |\n", p.Label, p.Workers, p.Seconds, startStr(p), p.CPUPerRowUS,
				p.ReplicaCores, p.OtherCores, p.OtherMax, commitNote(rep, p), checks(rep, p.Label, p.Workers))
		}
	}
	b.WriteString("\n| ratio | of medians | same-repeat median |\n|---|---:|---:|\n")
	for _, r := range rep.Ratios {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Name, ratioStr(float64(r.OfMedians)), ratioStr(float64(r.SameRepeat)))
	}
	b.WriteString("\n| target | want | got (of medians) | same-repeat median | met |\n|---|---|---:|---:|---|\n")
	for _, t := range rep.Targets {
		met := "**not met**"
		if t.Met {
			met = "met"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", t.Name, t.Want, ratioStr(float64(t.Got)), ratioStr(float64(t.Same)), met)
	}
	b.WriteString("\n")
	for _, sys := range []string{sysBinlite, sysMariaDB} {
		if s := rep.Setup[sys]; s != nil {
			fmt.Fprintf(&b, "- %s primary took the %d updates in %.1f s (%s/s); replica snapshot %.0f MB.\n", sys, c.Updates, s.LoadSeconds, num(s.PrimaryRate), float64(s.SnapshotBytes)/1e6)
		}
	}
	if len(rep.Fsync) > 0 {
		var meds []string
		for _, f := range rep.Fsync {
			meds = append(meds, fmt.Sprintf("%.0f", f.MedianUS))
		}
		fmt.Fprintf(&b, "- fdatasync of a 4 KiB overwrite, medians of the probes: %s µs.\n", strings.Join(meds, ", "))
	}
	ok, all := 0, 0
	var waited float64
	var before []float64
	for _, r := range rep.Runs {
		all++
		if r.ok() {
			ok++
		}
		waited += r.SettleSeconds
		before = append(before, r.OtherBefore)
	}
	lo, hi := harness.MinMax(before)
	fmt.Fprintf(&b, "- Before each timed run the harness waited (at most %.0f s per run, %.0f s in all) for other processes to use under %.1f cores: %.0f s in all; they used a median of %.2f cores (%.2f–%.2f) when the runs started.\n",
		c.Settle, c.SettleBudget, c.SettleCores, waited, harness.Median(before), lo, hi)
	fmt.Fprintf(&b, "- %d of %d timed runs completed and checked out (SUM(k) and COUNT(*) of every table equal to the primary's, no SQL error, exactly the primary's GTIDs applied).\n", ok, all)
	if len(rep.Problems) > 0 {
		fmt.Fprintf(&b, "- Problems (%d):\n", len(rep.Problems))
		for _, p := range rep.Problems {
			fmt.Fprintf(&b, "  - %s\n", strings.ReplaceAll(firstLine(p), "|", "\\|"))
		}
	}
	return b.String()
}

func startStr(p Point) string {
	if p.System == sysRaw {
		return "—"
	}
	return fmt.Sprintf("%.2f", p.StartSeconds)
}

func seriesName(rep *Report, p Point) string {
	if p.System == sysRaw {
		return p.Label
	}
	if p.Label == sysMariaDB {
		return "MariaDB (slave_parallel_threads=0)"
	}
	return p.Label + " (0 workers)"
}

func commitNote(rep *Report, p Point) string {
	if g := p.Counters["binlite_binlog_groups_total"]; g > 0 {
		return fmt.Sprintf("%.0f txn per binlog group", p.Counters["binlite_binlog_transactions_total"]/g)
	}
	if f := p.Counters["Innodb_log_writes"]; f > 0 {
		s := fmt.Sprintf("%.1f txn per redo write", float64(rep.Config.Updates)/f)
		if r := p.Counters["Slave_retried_transactions"]; r > 0 {
			s += fmt.Sprintf(", %.0f retries", r)
		}
		return s
	}
	return "—"
}

func checks(rep *Report, label string, w int) string {
	n, all := 0, 0
	for _, r := range rep.Runs {
		if r.label() == label && r.Workers == w {
			all++
			if r.ok() {
				n++
			}
		}
	}
	return fmt.Sprintf("%d/%d ok", n, all)
}

func machineLine(rep *Report) string {
	m := rep.Machine
	var other []float64
	for _, r := range rep.Runs {
		if r.Error == "" {
			other = append(other, r.OtherCores)
		}
	}
	lo, hi := harness.MinMax(other)
	return fmt.Sprintf("%d cores (%s), binlite %s, %s, %s; processes outside the benchmark used a median of %.2f cores (%.2f–%.2f) during the timed applies",
		m.NumCPU, m.CPUModel, rep.Versions["binlite_git"], orUnknown(rep.Versions[sysMariaDB], "MariaDB not run"), rep.Versions["sysbench"],
		harness.Median(other), lo, hi)
}

func orUnknown(s, alt string) string {
	if s == "" {
		return alt
	}
	return "MariaDB " + s
}

func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

func ratioStr(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if math.Abs(v) < 2 {
		return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var colors = map[string]string{
	lblBinlite:             "#1f6fb4",
	lblBinliteNS:           "#8fb8de",
	sysMariaDB:             "#c0392b",
	"MariaDB conservative": "#c0392b",
	"MariaDB optimistic":   "#f0a35e",
	sysRaw:                 "#2e8b57",
}

func chart(rep *Report) svgchart.Chart {
	c := rep.Config
	foot := []string{
		fmt.Sprintf("Medians of %d repeats; whiskers: smallest and largest. %s, %d cores, binlite %s, %s.",
			c.Repeats, rep.Started.Format("2006-01-02"), rep.Machine.NumCPU, rep.Versions["binlite_git"], orUnknown(rep.Versions[sysMariaDB], "MariaDB not run")),
		fmt.Sprintf("Every run checked (SUM(k), COUNT(*) and GTIDs equal to the primary's). Data: bench/results/replapply-%s.json.", rep.Benchmark),
	}
	switch rep.Benchmark {
	case benchCrashSafe:
		p := svgchart.Panel{Title: "replica_parallel_workers = 0 / slave_parallel_threads = 0",
			XLabels: []string{fmt.Sprintf("%s updates of one sbtest table", num(float64(c.Updates)))}}
		for _, pt := range rep.Points {
			name := pt.Label
			switch name {
			case lblBinliteNS:
				name = "binlite, crash-safe apply OFF"
			case sysMariaDB:
				name = "MariaDB, gtid_slave_pos"
			}
			color := colors[pt.Label]
			if pt.System == sysRaw {
				color = colors[sysRaw]
			}
			p.Series = append(p.Series, svgchart.Series{Name: name, Color: color,
				Values: []float64{pt.Rate}, Low: []float64{pt.Min}, High: []float64{pt.Max}})
		}
		if md := rep.point(sysMariaDB, 0); md != nil {
			p.Lines = append(p.Lines, svgchart.RefLine{Name: "10× MariaDB", Color: "#777777", Value: 10 * md.Rate, Dashed: true})
		}
		if raw := rep.rawPoint(1); raw != nil {
			p.Lines = append(p.Lines, svgchart.RefLine{Name: "80% of raw SQLite's fastest", Color: "#2e8b57", Value: 0.8 * raw.Rate, Dashed: true})
		}
		return svgchart.Chart{
			Title:       fmt.Sprintf("seeds/002: crash-safe single-threaded apply of %s queued updates", num(float64(c.Updates))),
			Subtitle:    fmt.Sprintf("1 schema, sbtest with %d rows; time from START REPLICA SQL_THREAD until all updates are applied", c.Rows),
			YLabel:      "rows applied per second",
			Panels:      []svgchart.Panel{p},
			Footer:      foot,
			PanelWidth:  960,
			PanelHeight: 340,
		}
	default:
		p := svgchart.Panel{Title: "replica_parallel_workers / slave_parallel_threads"}
		for _, w := range c.Workers {
			p.XLabels = append(p.XLabels, strconv.Itoa(w))
		}
		for _, l := range rep.labels() {
			if l == sysMariaDB || isRaw(l) {
				continue
			}
			s := svgchart.Series{Name: l, Color: colors[l]}
			for _, w := range c.Workers {
				pt := rep.point(l, w)
				if pt == nil && w == 0 && isMariaDB(l) {
					pt = rep.point(sysMariaDB, 0)
				}
				if pt == nil {
					s.Values, s.Low, s.High = append(s.Values, math.NaN()), append(s.Low, math.NaN()), append(s.High, math.NaN())
					continue
				}
				s.Values, s.Low, s.High = append(s.Values, pt.Rate), append(s.Low, pt.Min), append(s.High, pt.Max)
			}
			p.Series = append(p.Series, s)
		}
		if raw := rep.rawPoint(c.Schemas); raw != nil {
			p.Lines = append(p.Lines, svgchart.RefLine{Name: fmt.Sprintf("%s, %d files in parallel", raw.Label, c.Schemas), Color: colors[sysRaw], Value: raw.Rate},
				svgchart.RefLine{Name: "90% of it", Color: colors[sysRaw], Value: 0.9 * raw.Rate, Dashed: true})
		}
		if mb := rep.best(isMariaDB); mb != nil {
			p.Lines = append(p.Lines, svgchart.RefLine{Name: "5× MariaDB's best", Color: "#777777", Value: 5 * mb.Rate, Dashed: true})
		}
		return svgchart.Chart{
			Title:       fmt.Sprintf("seeds/000: applying %s queued updates on %d schemas vs workers", num(float64(c.Updates)), c.Schemas),
			Subtitle:    fmt.Sprintf("%d schemas × sbtest with %d rows; time from START REPLICA SQL_THREAD until all updates are applied", c.Schemas, c.Rows),
			XLabel:      "workers",
			YLabel:      "queries (updates) applied per second",
			Panels:      []svgchart.Panel{p},
			Footer:      foot,
			PanelWidth:  1040,
			PanelHeight: 340,
		}
	}
}

func loadReport(path string) (*Report, error) { return harness.LoadJSON[Report](path) }
