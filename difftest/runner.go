package difftest

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Result is one corpus file run against both servers.
type Result struct {
	File     *File
	Outcomes []*Outcome
	// Prepared are the outcomes of the statements PreparedForm rewrites, run a
	// second time on binlite as prepared statements (RunPreparedFile).
	Prepared []*Outcome
	// Problems are defects of the expected side: a written answer that does not fit
	// MariaDB's, a written answer identical to MariaDB's, MariaDB refusing the
	// syntax of a statement with no written answer.
	Problems []string
}

// RunFile runs a corpus file's statements in order on both servers, in a fresh
// database named after its category on each, one session per server. An error
// means the expected side could not run (MariaDB's session failed, or a server
// refused to create the database).
func RunFile(f *File, maria, lite *Conn) (*Result, error) {
	r := &Result{File: f}
	for _, c := range []*Conn{maria, lite} {
		for _, q := range []string{"DROP DATABASE IF EXISTS `" + f.Category + "`", "CREATE DATABASE `" + f.Category + "`", "USE `" + f.Category + "`"} {
			a, err := c.Run(q)
			if err != nil {
				return nil, err
			}
			if a.Err != 0 {
				return nil, fmt.Errorf("%s: %s: error %d: %s", c.Server, q, a.Err, a.ErrMsg)
			}
		}
		c.Use(f.Category)
	}
	for _, st := range f.Statements {
		ma, err := maria.Run(st.SQL)
		if err != nil {
			return nil, fmt.Errorf("%s: MariaDB could not answer (the expected side must run the whole corpus): %w", st.ID(), err)
		}
		ma = MySQLSpelling(ma)
		want := ma
		if st.Written != nil {
			w, err := st.Written.Apply(ma)
			if err != nil {
				r.Problems = append(r.Problems, fmt.Sprintf("%s: written answer %q: %v", st.ID(), st.Written.Text, err))
				w = ma
			} else if reflect.DeepEqual(comparable(w), comparable(ma)) {
				r.Problems = append(r.Problems, fmt.Sprintf("%s: the written answer %q is MariaDB's answer: drop the directive", st.ID(), st.Written.Text))
			}
			want = w
		} else if ma.Err == 1064 || ma.Err == 1149 {
			r.Problems = append(r.Problems, fmt.Sprintf("%s: MariaDB cannot parse it (error %d: %s): keep MariaDB-only syntax out of the corpus, and give MySQL-only syntax a written answer",
				st.ID(), ma.Err, ma.ErrMsg))
		}
		got, err := lite.Run(st.SQL)
		if err != nil {
			// The client lost binlite's answer: count it as an error, and go on with a
			// working session if this one is gone.
			if perr := lite.c.Ping(); perr != nil {
				if rerr := lite.Reconnect(); rerr != nil {
					return nil, fmt.Errorf("%s: binlite: %v; reconnecting: %w", st.ID(), err, rerr)
				}
			}
		}
		o := Classify(st, want, got)
		o.MariaDB = ma
		r.Outcomes = append(r.Outcomes, o)
	}
	return r, nil
}

// RunPreparedFile runs a corpus file again on binlite, in a fresh database, the
// way an application that binds values runs it: each statement PreparedForm
// rewrites is sent as a prepared statement with its literals bound as
// parameters, the others as text (they keep the session's state as the text run
// had it). MySQL answers a statement the same both ways, so a prepared
// statement's answer is compared with MySQL's answer to the text (r's outcomes,
// from RunFile); the binary protocol's spelling of rows is the text protocol's
// (binaryRow). The outcomes go to r.Prepared.
func RunPreparedFile(f *File, lite *Conn, r *Result) error {
	for _, q := range []string{"DROP DATABASE IF EXISTS `" + f.Category + "`", "CREATE DATABASE `" + f.Category + "`", "USE `" + f.Category + "`"} {
		a, err := lite.Run(q)
		if err != nil {
			return err
		}
		if a.Err != 0 {
			return fmt.Errorf("%s: %s: error %d: %s", lite.Server, q, a.Err, a.ErrMsg)
		}
	}
	lite.Use(f.Category)
	for i, st := range f.Statements {
		text, args, ok := PreparedForm(st.SQL)
		var got *Answer
		var err error
		if ok {
			got, err = lite.RunPrepared(text, args)
		} else {
			got, err = lite.Run(st.SQL)
		}
		if err != nil {
			if perr := lite.c.Ping(); perr != nil {
				if rerr := lite.Reconnect(); rerr != nil {
					return fmt.Errorf("%s: binlite: %v; reconnecting: %w", st.ID(), err, rerr)
				}
			}
		}
		if !ok {
			continue
		}
		want := r.Outcomes[i].Want
		o := Classify(st, want, floatsAsWanted(want, got))
		o.MariaDB, o.PreparedSQL, o.Args = r.Outcomes[i].MariaDB, text, args
		r.Prepared = append(r.Prepared, o)
	}
	return nil
}

// floatsAsWanted spells got's FLOAT and DOUBLE values as want does where they
// are the same number: the binary protocol sends the number, the text protocol
// MySQL's spelling of it (six significant digits for a FLOAT, a scale).
func floatsAsWanted(want, got *Answer) *Answer {
	if !want.IsResult() || !got.IsResult() || len(want.Columns) != len(got.Columns) || len(want.Rows) != len(got.Rows) {
		return got
	}
	out := *got
	out.Rows = make([][]Value, len(got.Rows))
	for i, row := range got.Rows {
		out.Rows[i] = append([]Value(nil), row...)
		for j, v := range row {
			t := got.Columns[j].Type
			if (t != mysql.MYSQL_TYPE_FLOAT && t != mysql.MYSQL_TYPE_DOUBLE) || v.Null || j >= len(want.Rows[i]) || want.Rows[i][j].Null {
				continue
			}
			w, err1 := strconv.ParseFloat(want.Rows[i][j].S, 64)
			g, err2 := strconv.ParseFloat(v.S, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			if w == g || math.Abs(w-g) <= 5e-7*math.Max(math.Abs(w), math.Abs(g)) && t == mysql.MYSQL_TYPE_FLOAT ||
				math.Abs(w-g) <= math.Pow(10, -float64(got.Columns[j].Decimals))/2 && got.Columns[j].Decimals < MySQLNotFixedDec {
				out.Rows[i][j] = want.Rows[i][j]
			}
		}
	}
	return &out
}

// comparable drops what Difference ignores (messages, column names) so two answers
// can be compared with reflect.DeepEqual.
func comparable(a *Answer) Answer {
	c := *a
	c.ErrMsg = ""
	if c.Columns != nil {
		cols := make([]Column, len(c.Columns))
		for i, col := range c.Columns {
			col.Name = ""
			if numericOrTemporal(col.Type) {
				col.Binary = false
			} else {
				col.Decimals = 0
			}
			cols[i] = col
		}
		c.Columns = cols
	}
	if len(c.Warnings) == 0 {
		c.Warnings = nil
	}
	if c.IsResult() {
		c.Affected, c.InsertID = 0, 0
		if len(c.Rows) == 0 {
			c.Rows = [][]Value{}
		}
	}
	return c
}

// MariaDBNotFixedDec and MySQLNotFixedDec are the "decimals" a result column
// reports when its number of decimals is not fixed (strings, DOUBLE expressions):
// the same meaning, spelled 39 by MariaDB and 31 by MySQL.
const (
	MariaDBNotFixedDec = 39
	MySQLNotFixedDec   = 31
)

// MySQLSpelling rewrites what MariaDB and MySQL spell differently for one meaning
// into MySQL's spelling: the decimals of a column whose decimals are not fixed
// (39 becomes 31), and the UNSIGNED flag MariaDB puts on TIMESTAMP columns, which
// MySQL never sends (mysql-test/r/metadata.result: a TIMESTAMP column's flags are
// BINARY, TIMESTAMP and ON_UPDATE_NOW). Nothing else of MariaDB's answer is
// changed; real differences are written in the corpus.
func MySQLSpelling(a *Answer) *Answer {
	if a.Columns == nil {
		return a
	}
	c := *a
	c.Columns = append([]Column(nil), a.Columns...)
	for i := range c.Columns {
		if c.Columns[i].Decimals == MariaDBNotFixedDec {
			c.Columns[i].Decimals = MySQLNotFixedDec
		}
		if c.Columns[i].Type == mysql.MYSQL_TYPE_TIMESTAMP {
			c.Columns[i].Unsigned = false
		}
	}
	return &c
}
