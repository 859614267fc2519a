package main

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	tidbparser "github.com/pingcap/tidb/pkg/parser"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value-expression driver the parser requires
	vtlog "vitess.io/vitess/go/vt/log"
	"vitess.io/vitess/go/vt/sqlparser"
)

const (
	tidbModule   = "github.com/pingcap/tidb/pkg/parser"
	vitessModule = "vitess.io/vitess"
)

//go:embed builtin.sql
var builtinSQL string

// Parser names, in the order they are reported.
var parserNames = []string{"tidb", "vitess"}

func main() {
	out := flag.String("out", "", "write the JSON result to this file")
	benchtime := flag.Duration("benchtime", 300*time.Millisecond, "length of one timed run")
	repeats := flag.Int("repeats", 5, "timed runs per statement and parser (the median is kept)")
	procs := flag.Int("procs", 1, "GOMAXPROCS for the run")
	corpusDir := flag.String("corpus", "../../difftest/corpus", "directory of *.sql corpus files (skipped when absent)")
	skipCost := flag.Bool("skip-cost", false, "skip the parse-cost measurement")
	allFailures := flag.Bool("all-failures", false, "print every coverage failure")
	check := flag.String("check", "", "only hand this one statement to both parsers and print the outcomes")
	flag.Parse()

	runtime.GOMAXPROCS(*procs)
	// Vitess logs a warning for every DDL it parses only in part; the
	// coverage pass reports those itself.
	vtlog.Warn = func(string, ...slog.Attr) {}

	ps, err := newParsers()
	if err != nil {
		fmt.Fprintln(os.Stderr, "parsecost:", err)
		os.Exit(1)
	}

	if *check != "" {
		for _, name := range parserNames {
			o := ps.check(name, *check)
			fmt.Printf("%-7s %-6s %s %s\n", name, o.Status, o.Node, o.Error)
		}
		return
	}

	res := Result{
		Command:    "cd bench/parsecost && go run . " + strings.Join(os.Args[1:], " "),
		Started:    time.Now().UTC().Format(time.RFC3339),
		GoVersion:  runtime.Version(),
		GOMAXPROCS: *procs,
		NumCPU:     runtime.NumCPU(),
		Benchtime:  benchtime.String(),
		Repeats:    *repeats,
		Versions:   moduleVersions(),
	}

	if !*skipCost {
		res.Cost = measureCost(ps, *benchtime, *repeats)
		res.Mixes = mixes(res.Cost)
		printCost(res.Cost, res.Mixes)
	}

	stmts, sources, err := loadStatements(*corpusDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "parsecost:", err)
		os.Exit(1)
	}
	res.Coverage = coverage(ps, stmts, sources)
	printCoverage(res.Coverage, *allFailures)

	if *out != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			fmt.Fprintln(os.Stderr, "parsecost:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "parsecost:", err)
			os.Exit(1)
		}
		fmt.Printf("\nwrote %s\n", *out)
	}
}

// ---------------------------------------------------------------- parsers

// parsers holds one reused instance of each candidate, as a server would
// hold one per connection.
type parsers struct {
	tidb   *tidbparser.Parser
	vitess *sqlparser.Parser
}

func newParsers() (*parsers, error) {
	vp, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.4.0"})
	if err != nil {
		return nil, fmt.Errorf("vitess parser: %w", err)
	}
	return &parsers{tidb: tidbparser.New(), vitess: vp}, nil
}

// Sinks keep the parse results alive so that the timed loops cannot be
// optimised away.
var (
	sinkTiDB   any
	sinkVitess any
)

// costFunc returns the function the timed loop calls for a parser.
func (p *parsers) costFunc(name string) func(string) error {
	switch name {
	case "tidb":
		return func(sql string) error {
			stmts, _, err := p.tidb.Parse(sql, "", "")
			sinkTiDB = stmts
			return err
		}
	case "vitess":
		return func(sql string) error {
			st, err := p.vitess.Parse(sql)
			sinkVitess = st
			return err
		}
	}
	panic("unknown parser " + name)
}

// Outcome of handing one statement to one parser in the coverage pass.
const (
	statusOK     = "ok"
	statusOpaque = "opaque" // accepted, but as a node with no usable AST
	statusFail   = "fail"
)

type outcome struct {
	Status string `json:"status"`
	Node   string `json:"node,omitempty"`
	Error  string `json:"error,omitempty"`
}

func (p *parsers) check(name, sql string) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{Status: statusFail, Error: fmt.Sprintf("panic: %v (in %s)", r, panicSite(debug.Stack()))}
		}
	}()
	switch name {
	case "tidb":
		stmts, _, err := p.tidb.Parse(sql, "", "")
		if err != nil {
			return outcome{Status: statusFail, Error: oneLine(err.Error())}
		}
		if len(stmts) != 1 {
			return outcome{Status: statusFail, Error: fmt.Sprintf("%d statements", len(stmts))}
		}
		return outcome{Status: statusOK, Node: fmt.Sprintf("%T", stmts[0])}
	case "vitess":
		st, err := p.vitess.ParseStrictDDL(sql)
		if err != nil {
			// Parse accepts a DDL it could only partly parse; such a
			// statement is opaque, not parsed.
			if pst, perr := p.vitess.Parse(sql); perr == nil && pst != nil {
				return outcome{Status: statusOpaque, Node: fmt.Sprintf("%T (partial DDL)", pst), Error: oneLine(err.Error())}
			}
			return outcome{Status: statusFail, Error: oneLine(err.Error())}
		}
		node := fmt.Sprintf("%T", st)
		switch st.(type) {
		case *sqlparser.OtherAdmin, *sqlparser.Load:
			return outcome{Status: statusOpaque, Node: node}
		}
		return outcome{Status: statusOK, Node: node}
	}
	panic("unknown parser " + name)
}

// panicSite names the innermost parser function on a panic's stack.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if (strings.HasPrefix(l, "vitess.io/") || strings.HasPrefix(l, "github.com/pingcap/")) && i+1 < len(lines) {
			fn := l
			if j := strings.LastIndex(fn, "("); j > 0 {
				fn = fn[:j]
			}
			loc := strings.TrimSpace(lines[i+1])
			if j := strings.Index(loc, " +0x"); j > 0 {
				loc = loc[:j]
			}
			if k := strings.Index(loc, "@"); k > 0 {
				if m := strings.Index(loc[k:], "/"); m > 0 {
					loc = loc[k+m+1:]
				}
			}
			return fn + " " + loc
		}
	}
	return "unknown"
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// ---------------------------------------------------------------- cost

// sysbench 1.0.20's c and pad values: groups of 11 digits joined by '-'
// (10 groups for c, 119 characters; 5 for pad, 59 characters).
func sbString(groups int, seed int) string {
	var b strings.Builder
	x := uint64(seed)*2654435761 + 12345
	for g := 0; g < groups; g++ {
		if g > 0 {
			b.WriteByte('-')
		}
		for i := 0; i < 11; i++ {
			x = x*6364136223846793005 + 1442695040888963407
			b.WriteByte(byte('0' + (x>>33)%10))
		}
	}
	return b.String()
}

type sbStmt struct {
	Name    string
	Form    string // "literal" (text protocol) or "?" (COM_STMT_PREPARE)
	SQL     string
	Weights map[string]int // statements of this kind per sysbench event, by script
}

func sysbenchStatements() []sbStmt {
	c := sbString(10, 1)
	pad := sbString(5, 2)
	// Statements per event in oltp_read_write (rw), oltp_write_only (wo)
	// and oltp_point_select (ps) with default options.
	w := func(rw, wo, ps int) map[string]int {
		return map[string]int{"oltp_read_write": rw, "oltp_write_only": wo, "oltp_point_select": ps}
	}
	type def struct {
		name, lit, ps string
		weights       map[string]int
	}
	defs := []def{
		{"point_select", "SELECT c FROM sbtest1 WHERE id=5014", "SELECT c FROM sbtest1 WHERE id=?", w(10, 0, 1)},
		{"simple_range", "SELECT c FROM sbtest1 WHERE id BETWEEN 4961 AND 5060", "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", w(1, 0, 0)},
		{"sum_range", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 4961 AND 5060", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", w(1, 0, 0)},
		{"order_range", "SELECT c FROM sbtest1 WHERE id BETWEEN 4961 AND 5060 ORDER BY c", "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", w(1, 0, 0)},
		{"distinct_range", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 4961 AND 5060 ORDER BY c", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", w(1, 0, 0)},
		{"index_update", "UPDATE sbtest1 SET k=k+1 WHERE id=5", "UPDATE sbtest1 SET k=k+1 WHERE id=?", w(1, 1, 0)},
		{"non_index_update", "UPDATE sbtest1 SET c='" + c + "' WHERE id=5", "UPDATE sbtest1 SET c=? WHERE id=?", w(1, 1, 0)},
		{"delete", "DELETE FROM sbtest1 WHERE id=5", "DELETE FROM sbtest1 WHERE id=?", w(1, 1, 0)},
		{"insert", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5, 4993, '" + c + "', '" + pad + "')", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", w(1, 1, 0)},
		{"begin", "BEGIN", "", w(1, 1, 0)},
		{"commit", "COMMIT", "", w(1, 1, 0)},
	}
	var out []sbStmt
	for _, d := range defs {
		out = append(out, sbStmt{Name: d.name, Form: "literal", SQL: d.lit, Weights: d.weights})
	}
	for _, d := range defs {
		if d.ps != "" {
			out = append(out, sbStmt{Name: d.name, Form: "?", SQL: d.ps, Weights: d.weights})
		}
	}
	return out
}

// Sample is one parser's median figures for one statement.
type Sample struct {
	NsPerOp     float64   `json:"ns_per_op"`
	AllocsPerOp float64   `json:"allocs_per_op"`
	BytesPerOp  float64   `json:"bytes_per_op"`
	RunsNs      []float64 `json:"runs_ns"`
	RunsAllocs  []float64 `json:"runs_allocs"`
	Error       string    `json:"error,omitempty"`
}

type CostRow struct {
	Name    string            `json:"name"`
	Form    string            `json:"form"`
	SQL     string            `json:"sql"`
	Weights map[string]int    `json:"weights"`
	Parsers map[string]Sample `json:"parsers"`
}

// timedRun parses sql n times and returns ns, allocs and bytes per parse.
func timedRun(f func(string) error, sql string, n int) (ns, allocs, bytes float64) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		_ = f(sql)
	}
	el := time.Since(t0)
	runtime.ReadMemStats(&m1)
	fn := float64(n)
	return float64(el.Nanoseconds()) / fn, float64(m1.Mallocs-m0.Mallocs) / fn, float64(m1.TotalAlloc-m0.TotalAlloc) / fn
}

// calibrate returns an iteration count that takes about d.
func calibrate(f func(string) error, sql string, d time.Duration) int {
	n := 1
	for {
		t0 := time.Now()
		for i := 0; i < n; i++ {
			_ = f(sql)
		}
		el := time.Since(t0)
		if el >= d/10 || n >= 1<<26 {
			est := int(float64(n) * float64(d) / float64(max(el, time.Microsecond)))
			return max(est, 1)
		}
		n *= 4
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func measureCost(ps *parsers, d time.Duration, repeats int) []CostRow {
	var rows []CostRow
	for _, st := range sysbenchStatements() {
		row := CostRow{Name: st.Name, Form: st.Form, SQL: st.SQL, Weights: st.Weights, Parsers: map[string]Sample{}}
		fns := map[string]func(string) error{}
		iters := map[string]int{}
		runs := map[string]*Sample{}
		for _, name := range parserNames {
			f := ps.costFunc(name)
			if err := f(st.SQL); err != nil {
				row.Parsers[name] = Sample{Error: oneLine(err.Error())}
				continue
			}
			fns[name] = f
			iters[name] = calibrate(f, st.SQL, d)
			runs[name] = &Sample{}
		}
		// Interleave the parsers' runs so that a change of load on the
		// machine falls on both.
		for r := 0; r < repeats; r++ {
			for _, name := range parserNames {
				f, ok := fns[name]
				if !ok {
					continue
				}
				ns, al, by := timedRun(f, st.SQL, iters[name])
				s := runs[name]
				s.RunsNs = append(s.RunsNs, ns)
				s.RunsAllocs = append(s.RunsAllocs, al)
				s.BytesPerOp += by / float64(repeats)
			}
		}
		for name, s := range runs {
			s.NsPerOp = median(s.RunsNs)
			s.AllocsPerOp = median(s.RunsAllocs)
			row.Parsers[name] = *s
		}
		rows = append(rows, row)
		fmt.Fprintf(os.Stderr, "measured %-16s %-7s tidb %6.0f ns  vitess %6.0f ns\n", st.Name, st.Form,
			row.Parsers["tidb"].NsPerOp, row.Parsers["vitess"].NsPerOp)
	}
	return rows
}

// Mix summarises one sysbench script's statements (one event) for one form.
type Mix struct {
	Script     string                `json:"script"`
	Form       string                `json:"form"`
	Statements int                   `json:"statements_per_event"`
	Parsers    map[string]MixFigures `json:"parsers"`
	Note       string                `json:"note,omitempty"`
}

type MixFigures struct {
	MedianNs       float64 `json:"median_ns_per_statement"`
	MeanNs         float64 `json:"mean_ns_per_statement"`
	NsPerEvent     float64 `json:"ns_per_event"`
	MedianAllocs   float64 `json:"median_allocs_per_statement"`
	MeanAllocs     float64 `json:"mean_allocs_per_statement"`
	AllocsPerEvent float64 `json:"allocs_per_event"`
	BytesPerEvent  float64 `json:"bytes_per_event"`
}

func mixes(rows []CostRow) []Mix {
	var out []Mix
	for _, script := range []string{"oltp_read_write", "oltp_write_only", "oltp_point_select"} {
		for _, form := range []string{"literal", "?"} {
			m := Mix{Script: script, Form: form, Parsers: map[string]MixFigures{}}
			if form == "?" {
				m.Note = "prepared form: parsed once per COM_STMT_PREPARE, not per execution; BEGIN/COMMIT taken in their literal form"
			}
			for _, name := range parserNames {
				var nsList, alList []float64
				var bytes float64
				for _, r := range rows {
					wt := r.Weights[script]
					if wt == 0 {
						continue
					}
					// The "?" mix uses the literal row for BEGIN/COMMIT,
					// which have no placeholder form.
					if r.Form != form && !(form == "?" && (r.Name == "begin" || r.Name == "commit")) {
						continue
					}
					s := r.Parsers[name]
					for i := 0; i < wt; i++ {
						nsList = append(nsList, s.NsPerOp)
						alList = append(alList, s.AllocsPerOp)
						bytes += s.BytesPerOp
					}
				}
				if len(nsList) == 0 {
					continue
				}
				m.Statements = len(nsList)
				f := MixFigures{
					MedianNs:      median(nsList),
					MedianAllocs:  median(alList),
					BytesPerEvent: bytes,
				}
				for i := range nsList {
					f.NsPerEvent += nsList[i]
					f.AllocsPerEvent += alList[i]
				}
				f.MeanNs = f.NsPerEvent / float64(len(nsList))
				f.MeanAllocs = f.AllocsPerEvent / float64(len(alList))
				m.Parsers[name] = f
			}
			out = append(out, m)
		}
	}
	return out
}

func printCost(rows []CostRow, ms []Mix) {
	fmt.Println("== Parse cost (median of runs; one reused parser instance each)")
	tw := tabwriter.NewWriter(os.Stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "statement\tform\ttidb ns\ttidb allocs\ttidb B\tvitess ns\tvitess allocs\tvitess B\tvitess/tidb ns\t")
	for _, r := range rows {
		t, v := r.Parsers["tidb"], r.Parsers["vitess"]
		ratio := "-"
		if t.NsPerOp > 0 && v.NsPerOp > 0 {
			ratio = fmt.Sprintf("%.2f", v.NsPerOp/t.NsPerOp)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Name, r.Form,
			fnum(t.NsPerOp, t.Error), fnum(t.AllocsPerOp, t.Error), fnum(t.BytesPerOp, t.Error),
			fnum(v.NsPerOp, v.Error), fnum(v.AllocsPerOp, v.Error), fnum(v.BytesPerOp, v.Error), ratio)
	}
	tw.Flush()
	fmt.Println()
	fmt.Println("== Sysbench mixes (per event; median/mean over the event's statements)")
	tw = tabwriter.NewWriter(os.Stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "script\tform\tstmts\ttidb median ns\ttidb mean ns\ttidb allocs/event\tvitess median ns\tvitess mean ns\tvitess allocs/event\t")
	for _, m := range ms {
		t, v := m.Parsers["tidb"], m.Parsers["vitess"]
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t\n", m.Script, m.Form, m.Statements,
			t.MedianNs, t.MeanNs, t.AllocsPerEvent, v.MedianNs, v.MeanNs, v.AllocsPerEvent)
	}
	tw.Flush()
	fmt.Println()
}

func fnum(x float64, errs string) string {
	if errs != "" {
		return "ERR"
	}
	if x < 100 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// ---------------------------------------------------------------- coverage

type stmtEntry struct {
	Source   string `json:"source"`
	Line     int    `json:"line"`
	Category string `json:"category"`
	SQL      string `json:"sql"`
}

var categories = []string{"DDL", "DML", "query", "admin/replication", "user", "other"}

// readStatements splits a corpus file: statements end with ';' at the end
// of a line, lines starting with '--' are comments, and a
// '-- @category NAME' line sets the category of the statements after it.
func readStatements(source, text string) []stmtEntry {
	var out []stmtEntry
	var cur []string
	start := 0
	cat := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	ln := 0
	for sc.Scan() {
		ln++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if len(cur) == 0 {
			if trimmed == "" {
				continue
			}
			if strings.HasPrefix(trimmed, "--") {
				if rest, ok := strings.CutPrefix(trimmed, "-- @category "); ok {
					cat = strings.TrimSpace(rest)
				}
				continue
			}
			start = ln
		} else if strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur = append(cur, line)
		if strings.HasSuffix(strings.TrimRight(line, " \t\r"), ";") {
			sql := strings.TrimSpace(strings.Join(cur, "\n"))
			sql = strings.TrimSpace(strings.TrimSuffix(sql, ";"))
			c := cat
			if c == "" {
				c = classify(sql)
			}
			out = append(out, stmtEntry{Source: source, Line: start, Category: c, SQL: sql})
			cur = nil
		}
	}
	if len(cur) > 0 {
		sql := strings.TrimSpace(strings.Join(cur, "\n"))
		if sql != "" {
			c := cat
			if c == "" {
				c = classify(sql)
			}
			out = append(out, stmtEntry{Source: source, Line: start, Category: c, SQL: sql})
		}
	}
	return out
}

// classify puts a corpus statement into a category by its leading words,
// looking through comments and into MySQL version comments.
func classify(sql string) string {
	s := sql
	for {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "/*!") {
			s = strings.TrimLeft(s[3:], "0123456789")
			continue
		}
		if strings.HasPrefix(s, "/*") {
			if i := strings.Index(s, "*/"); i >= 0 {
				s = s[i+2:]
				continue
			}
		}
		if strings.HasPrefix(s, "(") {
			s = s[1:]
			continue
		}
		break
	}
	w := strings.Fields(strings.ToUpper(s))
	word := func(i int) string {
		if i < len(w) {
			return strings.Trim(w[i], ";(")
		}
		return ""
	}
	switch word(0) {
	case "SELECT", "WITH", "TABLE", "VALUES", "EXPLAIN", "DESCRIBE", "DESC":
		return "query"
	case "INSERT", "REPLACE", "UPDATE", "DELETE", "LOAD", "CALL", "DO":
		return "DML"
	case "GRANT", "REVOKE":
		return "user"
	case "CREATE", "ALTER", "DROP", "RENAME":
		for i := 1; i < 4; i++ {
			switch word(i) {
			case "USER", "ROLE":
				return "user"
			}
		}
		return "DDL"
	case "TRUNCATE":
		return "DDL"
	case "SET":
		switch word(1) {
		case "PASSWORD", "ROLE", "DEFAULT":
			return "user"
		}
		return "admin/replication"
	case "SHOW", "FLUSH", "LOCK", "UNLOCK", "KILL", "CHANGE", "RESET", "PURGE", "CLONE",
		"ANALYZE", "OPTIMIZE", "CHECK", "CHECKSUM", "REPAIR", "INSTALL", "UNINSTALL", "SHUTDOWN", "RESTART", "STOP":
		return "admin/replication"
	case "START":
		if word(1) == "TRANSACTION" {
			return "other"
		}
		return "admin/replication"
	}
	return "other"
}

func loadStatements(corpusDir string) ([]stmtEntry, []string, error) {
	stmts := readStatements("builtin.sql", builtinSQL)
	sources := []string{fmt.Sprintf("builtin.sql (%d statements)", len(stmts))}
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.sql"))
	if err != nil {
		return nil, nil, err
	}
	if len(files) == 0 {
		sources = append(sources, fmt.Sprintf("%s: absent or empty, skipped", corpusDir))
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		got := readStatements("corpus/"+filepath.Base(f), string(b))
		for i := range got {
			// Corpus files are categorised by their statements' words,
			// whatever '-- @category' lines they carry.
			got[i].Category = classify(got[i].SQL)
		}
		sources = append(sources, fmt.Sprintf("corpus/%s (%d statements)", filepath.Base(f), len(got)))
		stmts = append(stmts, got...)
	}
	return stmts, sources, nil
}

type Counts struct {
	Total  int `json:"total"`
	OK     int `json:"ok"`
	Opaque int `json:"opaque"`
	Fail   int `json:"fail"`
}

type CovStmt struct {
	stmtEntry
	Results map[string]outcome `json:"results"`
}

type Coverage struct {
	Sources []string `json:"sources"`
	// Counts by group ("builtin", "corpus", "all"), then category (and
	// "total"), then parser.
	Counts     map[string]map[string]map[string]Counts `json:"counts"`
	Statements []CovStmt                               `json:"statements"`
}

func coverage(ps *parsers, stmts []stmtEntry, sources []string) Coverage {
	cov := Coverage{Sources: sources, Counts: map[string]map[string]map[string]Counts{}}
	add := func(group, cat, parser, status string) {
		g := cov.Counts[group]
		if g == nil {
			g = map[string]map[string]Counts{}
			cov.Counts[group] = g
		}
		c := g[cat]
		if c == nil {
			c = map[string]Counts{}
			g[cat] = c
		}
		n := c[parser]
		n.Total++
		switch status {
		case statusOK:
			n.OK++
		case statusOpaque:
			n.Opaque++
		default:
			n.Fail++
		}
		c[parser] = n
	}
	for _, st := range stmts {
		cs := CovStmt{stmtEntry: st, Results: map[string]outcome{}}
		group := "builtin"
		if strings.HasPrefix(st.Source, "corpus/") {
			group = "corpus"
		}
		for _, name := range parserNames {
			o := ps.check(name, st.SQL)
			cs.Results[name] = o
			for _, g := range []string{group, "all"} {
				add(g, st.Category, name, o.Status)
				add(g, "total", name, o.Status)
			}
		}
		cov.Statements = append(cov.Statements, cs)
	}
	return cov
}

func printCoverage(cov Coverage, all bool) {
	fmt.Println("== Coverage")
	for _, s := range cov.Sources {
		fmt.Println("  source:", s)
	}
	for _, group := range []string{"builtin", "corpus", "all"} {
		g, ok := cov.Counts[group]
		if !ok {
			continue
		}
		fmt.Printf("\n-- %s (ok / opaque / fail of total)\n", group)
		tw := tabwriter.NewWriter(os.Stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "category\ttotal\ttidb ok\ttidb fail\tvitess ok\tvitess opaque\tvitess fail\t")
		for _, cat := range append(append([]string(nil), categories...), "total") {
			c, ok := g[cat]
			if !ok {
				continue
			}
			t, v := c["tidb"], c["vitess"]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", cat, t.Total, t.OK, t.Fail+t.Opaque, v.OK, v.Opaque, v.Fail)
		}
		tw.Flush()
	}
	for _, name := range parserNames {
		fmt.Printf("\n-- %s: statements not parsed (fail, and opaque)\n", name)
		n := 0
		for _, st := range cov.Statements {
			o := st.Results[name]
			if o.Status == statusOK {
				continue
			}
			n++
			if !all && n > 400 {
				continue
			}
			other := st.Results[otherParser(name)].Status
			fmt.Printf("  [%s] %-17s %s:%d  %s\n      %s%s (other parser: %s)\n", o.Status, st.Category, st.Source, st.Line,
				clip(st.SQL, 150), nodeNote(o), clip(o.Error, 160), other)
		}
		if !all && n > 400 {
			fmt.Printf("  ... %d more (use --all-failures)\n", n-400)
		}
	}
}

func nodeNote(o outcome) string {
	if o.Node != "" {
		return "node " + o.Node + "; "
	}
	return ""
}

func otherParser(name string) string {
	if name == "tidb" {
		return "vitess"
	}
	return "tidb"
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ---------------------------------------------------------------- result

type Result struct {
	Command    string            `json:"command"`
	Started    string            `json:"started"`
	GoVersion  string            `json:"go_version"`
	GOMAXPROCS int               `json:"gomaxprocs"`
	NumCPU     int               `json:"num_cpu"`
	Benchtime  string            `json:"benchtime"`
	Repeats    int               `json:"repeats"`
	Versions   map[string]string `json:"versions"`
	Cost       []CostRow         `json:"cost,omitempty"`
	Mixes      []Mix             `json:"mixes,omitempty"`
	Coverage   Coverage          `json:"coverage"`
}

func moduleVersions() map[string]string {
	v := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == tidbModule || d.Path == vitessModule {
				v[d.Path] = d.Version
			}
		}
	}
	return v
}
