package difftest

import (
	"fmt"
	"strings"
)

// Classes of binlite's answer to a statement.
const (
	Same        = "same"        // MySQL's answer
	Unsupported = "unsupported" // error 1235 where MySQL answers otherwise
	Error       = "error"       // an error (or another error code) where MySQL answers otherwise
	Wrong       = "wrong"       // a different answer without an error: the worst defect
)

// Outcome is one statement's answers and how binlite's compares with MySQL's.
type Outcome struct {
	Stmt    *Statement
	MariaDB *Answer // what MariaDB 10.11 answered
	Want    *Answer // MySQL 8.4's answer: MariaDB's, or the written one
	Got     *Answer // binlite's
	Class   string
	Why     string // how Got differs from Want ("" when Same)
	Kind    int    // for Wrong: wrongAccepted ... wrongOther
	// PreparedSQL and Args: the prepared statement that was executed for the
	// statement (RunPreparedFile); "" for the text statement.
	PreparedSQL string
	Args        []any
}

// Classify compares binlite's answer with MySQL's.
func Classify(st *Statement, want, got *Answer) *Outcome {
	o := &Outcome{Stmt: st, Want: want, Got: got}
	o.Why = Difference(want, got, st.Compare)
	switch {
	case o.Why == "":
		o.Class = Same
	case got.Harness != "":
		o.Class = Error
	case got.Err == 1235:
		o.Class = Unsupported
	case got.Err != 0:
		o.Class = Error
	default:
		o.Class = Wrong
		o.Kind = wrongKind(want, got, st.Compare)
	}
	return o
}

// Report is a readable account of an outcome: the statement, both answers and the
// difference.
func (o *Outcome) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n", o.Stmt.ID(), o.Class, oneLine(o.Stmt.SQL, 300))
	if o.PreparedSQL != "" {
		fmt.Fprintf(&b, "    prepared: %s with %s\n", oneLine(o.PreparedSQL, 300), oneLine(argsText(o.Args), 300))
	}
	fmt.Fprintf(&b, "    binlite: %s\n", oneLine(o.Got.String(), 600))
	src := "MariaDB 10.11"
	if o.Stmt.Written != nil {
		src = "written (" + o.Stmt.Written.Ref + ")"
	}
	fmt.Fprintf(&b, "    MySQL:   %s   [%s]\n", oneLine(o.Want.String(), 600), src)
	if o.Stmt.Written != nil && o.MariaDB != nil {
		fmt.Fprintf(&b, "    MariaDB: %s\n", oneLine(o.MariaDB.String(), 600))
	}
	if o.Why != "" {
		fmt.Fprintf(&b, "    differs: %s", o.Why)
	}
	return strings.TrimRight(b.String(), "\n")
}

// argsText writes a prepared statement's parameters: numbers bare, strings quoted.
func argsText(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if s, ok := a.(string); ok {
			parts[i] = quote(s)
		} else {
			parts[i] = fmt.Sprint(a)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// oneLine shortens s to n bytes on one line for a report.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// Summary counts a category's outcomes.
type Summary struct {
	Category    string
	Total       int
	Same        int
	Unsupported int
	Error       int
	Wrong       int
	Written     int // statements compared against a written MySQL answer
	// Prepared counts the statements also run as prepared statements
	// (RunPreparedFile): how many, and how many of them answer as MySQL does, fail
	// (unsupported or error) and answer differently without an error.
	Prepared, PreparedSame, PreparedError, PreparedWrong int
}

// SamePct is the share of statements binlite answers as MySQL does.
func (s Summary) SamePct() float64 {
	if s.Total == 0 {
		return 0
	}
	return 100 * float64(s.Same) / float64(s.Total)
}

// PreparedSamePct is the share of prepared statements binlite answers as MySQL does.
func (s Summary) PreparedSamePct() float64 {
	if s.Prepared == 0 {
		return 0
	}
	return 100 * float64(s.PreparedSame) / float64(s.Prepared)
}

// Summarize counts outcomes per category, in the order given, plus a total row;
// prepared holds each category's prepared outcomes (nil when none ran).
func Summarize(categories []string, byCat, prepared map[string][]*Outcome) []Summary {
	var out []Summary
	total := Summary{Category: "total"}
	for _, c := range categories {
		s := Summary{Category: c}
		for _, o := range prepared[c] {
			s.Prepared++
			switch o.Class {
			case Same:
				s.PreparedSame++
			case Wrong:
				s.PreparedWrong++
			default:
				s.PreparedError++
			}
		}
		for _, o := range byCat[c] {
			s.Total++
			switch o.Class {
			case Same:
				s.Same++
			case Unsupported:
				s.Unsupported++
			case Error:
				s.Error++
			case Wrong:
				s.Wrong++
			}
			if o.Stmt.Written != nil {
				s.Written++
			}
		}
		out = append(out, s)
		total.Total += s.Total
		total.Same += s.Same
		total.Unsupported += s.Unsupported
		total.Error += s.Error
		total.Wrong += s.Wrong
		total.Written += s.Written
		total.Prepared += s.Prepared
		total.PreparedSame += s.PreparedSame
		total.PreparedError += s.PreparedError
		total.PreparedWrong += s.PreparedWrong
	}
	return append(out, total)
}

// Table formats summaries as a Markdown table.
func Table(sums []Summary) string {
	var b strings.Builder
	b.WriteString("| category | statements | same | same % | unsupported (1235) | error | wrong | written MySQL answers | prepared | prepared same | prepared error | prepared wrong |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range sums {
		name := s.Category
		if name == "total" {
			name = "**total**"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f%% | %d | %d | %d | %d | %d | %d (%.1f%%) | %d | %d |\n",
			name, s.Total, s.Same, s.SamePct(), s.Unsupported, s.Error, s.Wrong, s.Written,
			s.Prepared, s.PreparedSame, s.PreparedSamePct(), s.PreparedError, s.PreparedWrong)
	}
	return b.String()
}
