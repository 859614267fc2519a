package engine

import (
	"regexp"
	"strings"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// MySQL's regular expressions (manual 14.8.2) on Go's regexp package. MySQL 8
// matches with ICU; the syntax both read (classes, anchors, repetition,
// alternation, groups, \b, \d, \w, \s, POSIX bracket classes) means the same.
// What ICU has and RE2 lacks (backreferences, lookaround) fails with 1235
// rather than matching differently. Positions count characters (bytes of a
// binary string).

// regexpCacheSize bounds a connection's compiled patterns.
const regexpCacheSize = 64

// regexpFuncs are one connection's regular expression functions.
type regexpFuncs struct {
	st    *stmtState
	buf   scratch
	cache map[string]*regexp.Regexp // by flags + "\x00" + pattern
}

func registerRegexp(c *sqlite3.SQLiteConn, st *stmtState) error {
	f := &regexpFuncs{st: st, cache: map[string]*regexp.Regexp{}}
	return registerFast(c, []fastFunc{
		{"binlite_regexp_like", 4, true, f.like},
		{"binlite_regexp_instr", 7, true, f.instr},
		{"binlite_regexp_replace", 7, true, f.replace},
		{"binlite_regexp_substr", 6, true, f.substr},
	})
}

// compile is the pattern compiled for the default case ("c", "i", or "b" for
// bytes) and the match type; ok=false after giving MySQL's error.
func (f *regexpFuncs) compile(c sqlitec.Context, pat []byte, deflt, match *sqlitec.Value) (*regexp.Regexp, bool, bool) {
	d := deflt.Bytes()
	bin := len(d) == 1 && d[0] == 'b'
	insensitive := len(d) == 1 && d[0] == 'i'
	multiline, dotall := false, false
	for _, m := range match.Bytes() {
		switch m {
		case 'c':
			insensitive = false
		case 'i':
			insensitive = true
		case 'm':
			multiline = true
		case 'n':
			dotall = true
		case 'u':
		default:
			c.ResultError(fnErrorText(mysqlerr.ErWrongArguments, "Incorrect arguments to regexp"))
			return nil, false, false
		}
	}
	var key strings.Builder
	key.WriteString(string(d))
	if insensitive {
		key.WriteByte('i')
	}
	if multiline {
		key.WriteByte('m')
	}
	if dotall {
		key.WriteByte('s')
	}
	key.WriteByte(0)
	key.Write(pat)
	if re, ok := f.cache[key.String()]; ok {
		return re, bin, true
	}
	expr := string(pat)
	if strings.Contains(expr, "(?<") || strings.Contains(expr, "(?=") || strings.Contains(expr, "(?!") || hasBackreference(expr) {
		c.ResultError(fnErrorText(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'regular expressions with backreferences or lookaround'"))
		return nil, false, false
	}
	prefix := ""
	if insensitive && !bin {
		prefix += "i"
	}
	if multiline {
		prefix += "m"
	}
	if dotall {
		prefix += "s"
	}
	if prefix != "" {
		expr = "(?" + prefix + ")" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		c.ResultError(fnErrorText(mysqlerr.ErRegexpSyntax, "Syntax error in regular expression: "+err.Error()))
		return nil, false, false
	}
	if len(f.cache) >= regexpCacheSize {
		clear(f.cache)
	}
	f.cache[key.String()] = re
	return re, bin, true
}

// hasBackreference: the pattern has \1 ... \9 outside a bracket class.
func hasBackreference(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			if p[i+1] >= '1' && p[i+1] <= '9' {
				return true
			}
			i++
		}
	}
	return false
}

// like is binlite_regexp_like(subject, pattern, default case, match type).
func (f *regexpFuncs) like(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	pat, ok2 := f.buf.text(&args[1])
	if !ok || !ok2 || args[3].IsNull() {
		return
	}
	re, _, ok := f.compile(c, pat, &args[2], &args[3])
	if !ok {
		return
	}
	c.ResultInt(b2i(re.Match(s)))
}

// from is the byte offset of 1-based character position pos in s: ok=false
// (MySQL's 3686) beyond the end plus one, 1583 below 1.
func from(c sqlitec.Context, s []byte, pos int64, bin bool) (int, bool) {
	if pos < 1 {
		c.ResultError(fnErrorText(mysqlerr.ErWrongParametersToNativeFct, "Incorrect parameters in the call to native function 'regexp'"))
		return 0, false
	}
	n := int64(charCount(s, bin))
	if pos > n+1 {
		c.ResultError(fnErrorText(mysqlerr.ErRegexpIndexOutOfBounds, "Index out of bounds in regular expression search."))
		return 0, false
	}
	return byteOffset(s, int(pos-1), bin), true
}

// matches are the byte ranges of up to occurrence matches of re in s from
// offset off (all of them for occurrence 0).
func matches(re *regexp.Regexp, s []byte, off int, occurrence int64) [][]int {
	n := int(occurrence)
	if occurrence <= 0 {
		n = -1
	}
	found := re.FindAllIndex(s[off:], n)
	for _, m := range found {
		m[0] += off
		m[1] += off
	}
	return found
}

// instr is binlite_regexp_instr(subject, pattern, pos, occurrence,
// return option, default case, match type): the character position where the
// occurrence-th match starts (return option 0) or ends (1), 0 for none.
func (f *regexpFuncs) instr(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	pat, ok2 := f.buf.text(&args[1])
	pos, ok3 := intArg(&args[2])
	occ, ok4 := intArg(&args[3])
	opt, ok5 := intArg(&args[4])
	if !ok || !ok2 || !ok3 || !ok4 || !ok5 || args[6].IsNull() {
		return
	}
	if opt != 0 && opt != 1 {
		c.ResultError(fnErrorText(mysqlerr.ErWrongArguments, "Incorrect arguments to regexp_instr: return_option must be 1 or 0."))
		return
	}
	re, bin, ok := f.compile(c, pat, &args[5], &args[6])
	if !ok {
		return
	}
	off, ok := from(c, s, pos, bin)
	if !ok {
		return
	}
	occ = max(occ, 1)
	found := matches(re, s, off, occ)
	if int64(len(found)) < occ {
		c.ResultInt(0)
		return
	}
	at := found[occ-1][opt]
	c.ResultInt(int64(charCount(s[:at], bin)) + 1)
}

// substr is binlite_regexp_substr(subject, pattern, pos, occurrence, default
// case, match type): the occurrence-th match, NULL for none.
func (f *regexpFuncs) substr(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	pat, ok2 := f.buf.text(&args[1])
	pos, ok3 := intArg(&args[2])
	occ, ok4 := intArg(&args[3])
	if !ok || !ok2 || !ok3 || !ok4 || args[5].IsNull() {
		return
	}
	re, bin, ok := f.compile(c, pat, &args[4], &args[5])
	if !ok {
		return
	}
	off, ok := from(c, s, pos, bin)
	if !ok {
		return
	}
	occ = max(occ, 1)
	found := matches(re, s, off, occ)
	if int64(len(found)) < occ {
		return
	}
	m := found[occ-1]
	result(c, s[m[0]:m[1]], isBinary(&args[0]))
}

// replace is binlite_regexp_replace(subject, pattern, replacement, pos,
// occurrence, default case, match type): the occurrence-th match from pos
// replaced (every one for occurrence 0); $1 ... $9 in the replacement are the
// match's groups, as ICU reads them.
func (f *regexpFuncs) replace(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	pat, ok2 := textCopy(&args[1])
	repl, ok3 := f.buf.text(&args[2])
	pos, ok4 := intArg(&args[3])
	occ, ok5 := intArg(&args[4])
	if !ok || !ok2 || !ok3 || !ok4 || !ok5 || args[6].IsNull() {
		return
	}
	re, bin, ok := f.compile(c, pat, &args[5], &args[6])
	if !ok {
		return
	}
	off, ok := from(c, s, pos, bin)
	if !ok {
		return
	}
	template := icuTemplate(repl)
	found := re.FindAllSubmatchIndex(s[off:], -1)
	out := make([]byte, 0, len(s))
	out = append(out, s[:off]...)
	last := off
	for i, m := range found {
		if occ > 0 && int64(i+1) != occ {
			continue
		}
		for j := range m {
			if m[j] >= 0 {
				m[j] += off
			}
		}
		out = append(out, s[last:m[0]]...)
		out = re.Expand(out, template, s, m)
		last = m[1]
	}
	out = append(out, s[last:]...)
	if !bin && !utf8.Valid(out) {
		out = []byte(strings.ToValidUTF8(string(out), "?"))
	}
	result(c, out, isBinary(&args[0]))
}

// icuTemplate turns an ICU replacement ($n for a group, \ quoting the next
// character) into Go's template syntax (${n}, $$).
func icuTemplate(r []byte) []byte {
	out := make([]byte, 0, len(r)+8)
	for i := 0; i < len(r); i++ {
		switch ch := r[i]; {
		case ch == '\\' && i+1 < len(r):
			i++
			if r[i] == '$' {
				out = append(out, '$', '$')
			} else {
				out = append(out, r[i])
			}
		case ch == '$' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			j := i + 1
			for j < len(r) && r[j] >= '0' && r[j] <= '9' {
				j++
			}
			out = append(out, "${"...)
			out = append(out, r[i+1:j]...)
			out = append(out, '}')
			i = j - 1
		case ch == '$':
			out = append(out, '$', '$')
		default:
			out = append(out, ch)
		}
	}
	return out
}
