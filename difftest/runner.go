package difftest

import (
	"fmt"
	"reflect"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Result is one corpus file run against both servers.
type Result struct {
	File     *File
	Outcomes []*Outcome
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
