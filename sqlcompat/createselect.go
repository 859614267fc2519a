package sqlcompat

import "strings"

// CreateSelect is CREATE TABLE ... [IGNORE | REPLACE] [AS] query: the parts the
// session completes once the query's result types are known (the compiler's),
// as MySQL makes the table from them (session's createSelect).
type CreateSelect struct {
	Definitions string // the statement's own column and key definitions, "" if none
	Options     string // its table options
	Duplicates  string // "IGNORE", "REPLACE" or ""
	Query       string // the query, as written
}

// createSelect recognises the query of CREATE TABLE t [(defs)] [options]
// [IGNORE | REPLACE] [AS] query, p after the table's name; nil when the
// statement has none.
func (p *parser) createSelect() (*CreateSelect, error) {
	startsQuery := func(j int) bool {
		t := p.toks[j]
		if t.is("SELECT") || t.is("WITH") || t.is("VALUES") || t.is("TABLE") {
			return true
		}
		return t.isOp("(") && j+1 < len(p.toks) && (p.toks[j+1].is("SELECT") || p.toks[j+1].is("WITH") || p.toks[j+1].isOp("("))
	}
	cs := &CreateSelect{}
	j := p.i
	if j < len(p.toks) && p.toks[j].isOp("(") && !startsQuery(j) {
		end := matchParen(p.toks, j)
		if end >= len(p.toks) {
			return nil, nil // CREATE TABLE's own parsing reports it
		}
		if end > j+1 {
			cs.Definitions = p.text(j+1, end)
		}
		j = end + 1
	}
	opts := j
	for ; j < len(p.toks); j++ {
		if startsQuery(j) {
			break
		}
		if t := p.toks[j]; t.isOp("(") {
			j = matchParen(p.toks, j)
		}
	}
	if j >= len(p.toks) {
		return nil, nil
	}
	end := j
	if end > opts && p.toks[end-1].is("AS") {
		end--
	}
	if end > opts && (p.toks[end-1].is("IGNORE") || p.toks[end-1].is("REPLACE")) {
		end--
		cs.Duplicates = strings.ToUpper(p.toks[end].text)
	}
	if end > opts {
		cs.Options = p.text(opts, end)
	}
	cs.Query = p.sql[p.toks[j].pos:p.toks[len(p.toks)-1].end]
	return cs, nil
}
