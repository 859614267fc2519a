package difftest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Statement is one statement of a corpus file with the directives written above it.
type Statement struct {
	File string // base name, e.g. "dml.sql"
	Line int    // the line the statement starts on (1-based)
	SQL  string // without the final ';'

	// Written is MySQL 8.4's answer where MariaDB 10.11's differs (nil: MariaDB's
	// answer is MySQL's). It overrides only the parts of MariaDB's answer it names.
	Written *Written
	Compare string // compareAll, or compareShape for values that differ run to run
}

// ID names the statement in reports and in the baseline: file:line.
func (s *Statement) ID() string { return s.File + ":" + strconv.Itoa(s.Line) }

// Hash identifies the statement's text, so a baseline entry still finds its
// statement after lines above it moved.
func (s *Statement) Hash() string {
	h := sha256.Sum256([]byte(s.SQL))
	return hex.EncodeToString(h[:4])
}

// File is one corpus file: a category, run in a database named after it.
type File struct {
	Name       string // "dml.sql"
	Category   string // "dml": also the database's name
	Statements []*Statement
}

// LoadCorpus reads every *.sql file of dir, sorted by name.
func LoadCorpus(dir string) ([]*File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var files []*File
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := ParseFile(filepath.Base(p), string(b))
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.sql files in %s", dir)
	}
	return files, nil
}

// ParseFile splits a corpus file into statements: a statement ends with ';' at the
// end of a line; lines starting with "--" outside a statement are comments, and the
// directive comments ("-- mysql:", "-- compare:") apply to the statement that
// follows them immediately.
func ParseFile(name, text string) (*File, error) {
	f := &File{Name: name, Category: strings.TrimSuffix(name, ".sql")}
	var (
		cur      []string
		start    int
		written  *Written
		compare  string
		dirLine  int
		errorsAt []string
	)
	fail := func(line int, format string, args ...any) {
		errorsAt = append(errorsAt, fmt.Sprintf("%s:%d: %s", name, line, fmt.Sprintf(format, args...)))
	}
	lines := strings.Split(text, "\n")
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimRight(raw, " \t\r")
		trim := strings.TrimSpace(line)
		if len(cur) == 0 {
			switch {
			case trim == "":
				if dirLine != 0 {
					fail(dirLine, "a directive must be followed immediately by its statement")
					written, compare, dirLine = nil, "", 0
				}
				continue
			case strings.HasPrefix(trim, "-- mysql"):
				w, err := ParseWritten(strings.TrimPrefix(trim, "-- mysql"))
				if err != nil {
					fail(n, "%v", err)
				} else if written != nil {
					fail(n, "two -- mysql: directives for one statement")
				}
				written, dirLine = w, n
				continue
			case strings.HasPrefix(trim, "-- compare"):
				mode, err := parseCompare(strings.TrimPrefix(trim, "-- compare"))
				if err != nil {
					fail(n, "%v", err)
				}
				compare, dirLine = mode, n
				continue
			case strings.HasPrefix(trim, "--") || strings.HasPrefix(trim, "#"):
				if dirLine != 0 {
					fail(dirLine, "a directive must be followed immediately by its statement")
					written, compare, dirLine = nil, "", 0
				}
				continue
			}
			start = n
		} else if strings.HasPrefix(trim, "-- mysql") || strings.HasPrefix(trim, "-- compare") {
			fail(n, "directive inside a statement (the statement from line %d lacks its final ';'?)", start)
		}
		cur = append(cur, line)
		if strings.HasSuffix(trim, ";") {
			sql := strings.TrimSpace(strings.Join(cur, "\n"))
			sql = strings.TrimSpace(strings.TrimSuffix(sql, ";"))
			if compare == "" {
				compare = compareAll
			}
			f.Statements = append(f.Statements, &Statement{File: name, Line: start, SQL: sql, Written: written, Compare: compare})
			cur, written, compare, dirLine = nil, nil, "", 0
		}
	}
	if len(cur) != 0 {
		fail(start, "statement does not end with ';' at the end of a line")
	}
	if dirLine != 0 {
		fail(dirLine, "directive at the end of the file, with no statement")
	}
	if len(errorsAt) > 0 {
		return nil, fmt.Errorf("corpus: %s", strings.Join(errorsAt, "\n"))
	}
	return f, nil
}

// parseCompare reads ": shape -- why" after "-- compare".
func parseCompare(s string) (string, error) {
	body, ok := strings.CutPrefix(s, ":")
	if !ok {
		return "", fmt.Errorf("malformed directive %q: want -- compare: shape -- <why>", "-- compare"+s)
	}
	mode, why, _ := strings.Cut(body, " -- ")
	mode = strings.TrimSpace(mode)
	if mode != compareShape {
		return "", fmt.Errorf("-- compare: %q: the only mode is %q", mode, compareShape)
	}
	if strings.TrimSpace(why) == "" {
		return "", fmt.Errorf("-- compare: shape needs a reason after \" -- \"")
	}
	return mode, nil
}

// Written is MySQL 8.4's answer to a statement as a "-- mysql:" directive writes it:
// only the parts it names replace MariaDB's.
type Written struct {
	Text string // the directive's answer text, as written
	Ref  string // the manual section or URL that documents MySQL's behaviour

	Err      *uint16
	OK       bool // "ok": an OK packet (no result set)
	Affected *uint64
	InsertID *uint64
	Warnings *[]uint16
	Columns  []Column       // nil: MariaDB's
	ColumnAt map[int]Column // "column N TYPE": MariaDB's columns with column N (1-based) replaced
	Rows     [][]Value
	HasRows  bool // "row" or "empty" given: Rows replaces MariaDB's rows
}

// ParseWritten reads the part of a directive after "-- mysql":
//
//	: <clause> [; <clause>]... -- <reference>
func ParseWritten(s string) (*Written, error) {
	body, ok := strings.CutPrefix(s, ":")
	if !ok {
		return nil, fmt.Errorf("malformed directive %q: want -- mysql: <answer> -- <manual reference>", "-- mysql"+s)
	}
	toks, ref, err := tokenize(body)
	if err != nil {
		return nil, fmt.Errorf("-- mysql:%s: %v", body, err)
	}
	w := &Written{Text: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body[:len(body)-len(ref)]), "--")), Ref: strings.TrimSpace(ref)}
	if w.Ref == "" {
		return nil, fmt.Errorf("-- mysql:%s: a written answer needs a reference to MySQL's manual after \" -- \"", body)
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("-- mysql:%s: no answer", body)
	}
	for _, clause := range splitClauses(toks) {
		if err := w.clause(clause); err != nil {
			return nil, fmt.Errorf("-- mysql: %s: %v", w.Text, err)
		}
	}
	if w.Err != nil && (w.OK || w.Affected != nil || w.InsertID != nil || w.Warnings != nil || w.Columns != nil || w.ColumnAt != nil || w.HasRows) {
		return nil, fmt.Errorf("-- mysql: %s: an error answer has nothing else", w.Text)
	}
	if w.OK && (w.Columns != nil || w.ColumnAt != nil || w.HasRows) {
		return nil, fmt.Errorf("-- mysql: %s: ok is an OK packet, without columns or rows", w.Text)
	}
	return w, nil
}

func (w *Written) clause(c []token) error {
	if len(c) == 0 || c[0].quoted {
		return fmt.Errorf("empty clause or clause without a keyword")
	}
	args := c[1:]
	one := func() (uint64, error) {
		if len(args) != 1 || args[0].quoted {
			return 0, fmt.Errorf("%s takes one number", c[0].s)
		}
		return strconv.ParseUint(args[0].s, 10, 64)
	}
	switch c[0].s {
	case "error":
		n, err := one()
		if err != nil || n == 0 || n > 65535 {
			return fmt.Errorf("error takes a MySQL error code")
		}
		code := uint16(n)
		w.Err = &code
	case "ok":
		if len(args) != 0 {
			return fmt.Errorf("ok takes nothing")
		}
		w.OK = true
	case "affected":
		n, err := one()
		if err != nil {
			return err
		}
		w.Affected = &n
	case "insert_id":
		n, err := one()
		if err != nil {
			return err
		}
		w.InsertID = &n
	case "warnings":
		ws := []uint16{}
		if len(args) == 1 && args[0].s == "none" && !args[0].quoted {
			w.Warnings = &ws
			return nil
		}
		for _, a := range args {
			for _, part := range strings.Split(a.s, ",") {
				if part == "" {
					continue
				}
				n, err := strconv.ParseUint(part, 10, 16)
				if err != nil || a.quoted {
					return fmt.Errorf("warnings takes codes (1265,1264) or none")
				}
				ws = append(ws, uint16(n))
			}
		}
		if len(ws) == 0 {
			return fmt.Errorf("warnings takes codes (1265,1264) or none")
		}
		w.Warnings = &ws
	case "columns":
		if len(args) == 0 {
			return fmt.Errorf("columns takes one type per column")
		}
		w.Columns = []Column{}
		for _, a := range args {
			col, err := parseColumn(a.s)
			if err != nil || a.quoted {
				return fmt.Errorf("column %q: want TYPE[+unsigned][+binary][/decimals] with a MYSQL_TYPE_ name", a.s)
			}
			w.Columns = append(w.Columns, col)
		}
	case "column":
		if len(args) != 2 || args[0].quoted || args[1].quoted {
			return fmt.Errorf("column takes a position and a type: column 2 LONGLONG+binary")
		}
		n, err := strconv.Atoi(args[0].s)
		if err != nil || n < 1 {
			return fmt.Errorf("column %q: the position counts from 1", args[0].s)
		}
		col, err := parseColumn(args[1].s)
		if err != nil {
			return fmt.Errorf("column %q: want TYPE[+unsigned][+binary][/decimals] with a MYSQL_TYPE_ name", args[1].s)
		}
		if w.ColumnAt == nil {
			w.ColumnAt = map[int]Column{}
		}
		if _, dup := w.ColumnAt[n]; dup {
			return fmt.Errorf("column %d given twice", n)
		}
		w.ColumnAt[n] = col
	case "empty":
		if len(args) != 0 || (w.HasRows && len(w.Rows) > 0) {
			return fmt.Errorf("empty takes nothing and excludes row")
		}
		w.HasRows, w.Rows = true, [][]Value{}
	case "row":
		if w.HasRows && w.Rows != nil && len(w.Rows) == 0 {
			return fmt.Errorf("row after empty")
		}
		var row []Value
		expectValue := true
		for _, a := range args {
			if a.s == "|" && !a.quoted {
				if expectValue {
					row = append(row, Text(""))
				}
				expectValue = true
				continue
			}
			if !expectValue {
				return fmt.Errorf("row: values are separated by |")
			}
			if a.s == "NULL" && !a.quoted {
				row = append(row, Null)
			} else {
				row = append(row, Text(a.s))
			}
			expectValue = false
		}
		if expectValue {
			return fmt.Errorf("row: a value is missing (write '' for the empty string)")
		}
		w.HasRows = true
		w.Rows = append(w.Rows, row)
	default:
		return fmt.Errorf("unknown clause %q (error, ok, affected, insert_id, warnings, columns, column, empty, row)", c[0].s)
	}
	return nil
}

func parseColumn(s string) (Column, error) {
	var c Column
	spec, dec, hasDec := strings.Cut(s, "/")
	if hasDec {
		n, err := strconv.ParseUint(dec, 10, 8)
		if err != nil {
			return c, err
		}
		c.Decimals = uint8(n)
	}
	parts := strings.Split(spec, "+")
	t, ok := typeByName(parts[0])
	if !ok {
		return c, fmt.Errorf("unknown type %q", parts[0])
	}
	c.Type = t
	for _, p := range parts[1:] {
		switch p {
		case "unsigned":
			c.Unsigned = true
		case "binary":
			c.Binary = true
		default:
			return c, fmt.Errorf("unknown flag %q", p)
		}
	}
	return c, nil
}

// Apply returns MySQL's answer: MariaDB's with the written parts replaced.
func (w *Written) Apply(maria *Answer) (*Answer, error) {
	a := *maria
	a.Harness = ""
	if w.Err != nil {
		return &Answer{Err: *w.Err, ErrMsg: "written answer: " + w.Ref}, nil
	}
	if a.Err != 0 {
		// MariaDB refused what MySQL accepts: the directive must say what MySQL answers.
		a = Answer{}
		if !w.OK && w.Columns == nil {
			return nil, fmt.Errorf("MariaDB answers error %d (%s); the written answer must give ok or columns", maria.Err, maria.ErrMsg)
		}
	}
	if w.OK {
		a.Columns, a.Rows = nil, nil
	}
	if w.Columns != nil {
		a.Columns = w.Columns
	}
	if w.ColumnAt != nil {
		a.Columns = append([]Column(nil), a.Columns...)
		for n, col := range w.ColumnAt {
			if n > len(a.Columns) {
				return nil, fmt.Errorf("column %d: the answer has %d columns", n, len(a.Columns))
			}
			a.Columns[n-1] = col
		}
	}
	if w.HasRows {
		a.Rows = w.Rows
	}
	if w.Affected != nil {
		a.Affected = *w.Affected
	}
	if w.InsertID != nil {
		a.InsertID = *w.InsertID
	}
	if w.Warnings != nil {
		a.Warnings = *w.Warnings
		a.WarnErr = ""
	}
	if a.Columns != nil && a.Rows == nil {
		a.Rows = [][]Value{}
	}
	for i, r := range a.Rows {
		if len(r) != len(a.Columns) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", i+1, len(r), len(a.Columns))
		}
	}
	return &a, nil
}

type token struct {
	s      string
	quoted bool
}

// tokenize splits a directive's answer into words, '|' and ';' separators and
// single-quoted strings (” or \' for a quote; \\ \n \t \0 \xHH), up to a bare "--";
// what follows that is returned as the reference.
func tokenize(s string) ([]token, string, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '|' || c == ';':
			toks = append(toks, token{s: string(c)})
			i++
		case c == '\'':
			var b strings.Builder
			i++
			closed := false
			for i < len(s) && !closed {
				c := s[i]
				switch {
				case c == '\'' && i+1 < len(s) && s[i+1] == '\'':
					b.WriteByte('\'')
					i += 2
				case c == '\'':
					closed = true
					i++
				case c == '\\' && i+1 < len(s):
					e := s[i+1]
					i += 2
					switch e {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case '0':
						b.WriteByte(0)
					case 'x':
						if i+2 > len(s) {
							return nil, "", fmt.Errorf("\\x needs two hex digits")
						}
						v, err := strconv.ParseUint(s[i:i+2], 16, 8)
						if err != nil {
							return nil, "", fmt.Errorf("\\x needs two hex digits")
						}
						b.WriteByte(byte(v))
						i += 2
					default:
						b.WriteByte(e)
					}
				default:
					b.WriteByte(c)
					i++
				}
			}
			if !closed {
				return nil, "", fmt.Errorf("unterminated quoted value")
			}
			toks = append(toks, token{s: b.String(), quoted: true})
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t|;'", rune(s[j])) {
				j++
			}
			w := s[i:j]
			if w == "--" {
				return toks, s[j:], nil
			}
			toks = append(toks, token{s: w})
			i = j
		}
	}
	return toks, "", nil
}

func splitClauses(toks []token) [][]token {
	var out [][]token
	var cur []token
	for _, t := range toks {
		if t.s == ";" && !t.quoted {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	return append(out, cur)
}
