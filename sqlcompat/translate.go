package sqlcompat

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
)

// rewriter re-emits a statement's tokens as SQLite text. Each token has a
// replacement (out), may be dropped (skip) or followed by inserted text
// (after); the gap before a kept token is re-emitted as it was.
type rewriter struct {
	p        *parser
	toks     []token
	out      []string
	skip     []bool
	after    []string
	marked   []bool // replaced by a variable or function value (names a select column)
	paramIdx []int  // 0-based placeholder index of each ? token, -1 for others
	params   int
}

// contextFuncs are the zero-argument functions whose values come from
// Context.Func; SCHEMA and the USER synonyms are asked under MySQL's main name.
var contextFuncs = map[string]string{
	"DATABASE": "DATABASE", "SCHEMA": "DATABASE",
	"USER": "USER", "SESSION_USER": "USER", "SYSTEM_USER": "USER",
	"CURRENT_USER": "CURRENT_USER", "CONNECTION_ID": "CONNECTION_ID", "VERSION": "VERSION",
	"LAST_INSERT_ID": "LAST_INSERT_ID", "ROW_COUNT": "ROW_COUNT", "FOUND_ROWS": "FOUND_ROWS",
}

// newRewriter translates tokens [lo,hi) of p with the token-level rules:
// quoting, strings, variables, context functions, operators and CAST types.
func newRewriter(p *parser, lo, hi int) (*rewriter, error) {
	n := len(p.toks)
	rw := &rewriter{p: p, toks: p.toks, out: make([]string, n), skip: make([]bool, n),
		after: make([]string, n), marked: make([]bool, n), paramIdx: make([]int, n)}
	for i := range rw.paramIdx {
		rw.paramIdx[i] = -1
	}
	for i := lo; i < hi; i++ {
		rw.out[i] = p.toks[i].text
	}
	for i := lo; i < hi; i++ {
		if err := rw.token(i, hi); err != nil {
			return nil, err
		}
	}
	return rw, nil
}

func (rw *rewriter) token(i, hi int) error {
	t := rw.toks[i]
	switch t.kind {
	case tkQuotedIdent:
		rw.out[i] = quoteIdent(t.val)
	case tkString:
		rw.out[i] = sqlString(t.val)
	case tkHexString:
		rw.out[i] = "X'" + t.val + "'"
	case tkBitString:
		n, err := strconv.ParseUint("0"+t.val, 2, 64)
		if err != nil {
			return syntaxError(rw.p.sql, t.pos)
		}
		rw.out[i] = strconv.FormatUint(n, 10)
	case tkParam:
		rw.paramIdx[i] = rw.params
		rw.params++
	case tkUserVar:
		var v any
		if rw.p.ctx.UserVar != nil {
			v = rw.p.ctx.UserVar(t.val)
		}
		rw.out[i] = literal(v)
		rw.marked[i] = true
	case tkSysVar:
		v, err := sysVar(rw.p.ctx, t.val)
		if err != nil {
			return err
		}
		rw.out[i] = literal(v)
		rw.marked[i] = true
	case tkOp:
		switch t.text {
		case "||":
			rw.out[i] = "OR" // MySQL's default sql_mode has no PIPES_AS_CONCAT
		case "&&":
			rw.out[i] = "AND"
		case "<=>":
			rw.out[i] = "IS"
		case "!":
			rw.out[i] = "NOT "
		case "/":
			// MySQL's / never truncates (7 / 2 is 3.5000); SQLite's divides
			// integers as integers. The left operand made real keeps the rest of
			// the expression's precedence.
			rw.out[i] = "* 1.0 /"
			rw.marked[i] = true // the column keeps MySQL's name (see selectAliases)
		}
	case tkIdent:
		if done, err := rw.typedLiteral(i, hi); done || err != nil {
			return err
		}
		rw.ident(i, hi)
	}
	return nil
}

// typedLiteral rewrites DATE/TIME/TIMESTAMP 'text' to the normalised text
// (1525 when it is not a valid value, as MySQL answers) and a character set
// introducer before a string: _binary 'x' is bytes, the others only name the
// character set of text.
func (rw *rewriter) typedLiteral(i, hi int) (bool, error) {
	t := rw.toks[i]
	if i+1 >= hi || (i > 0 && rw.toks[i-1].isOp(".")) {
		return false, nil
	}
	n := rw.toks[i+1]
	up := strings.ToUpper(t.text)
	if n.kind == tkString {
		kind := map[string]string{"DATE": "date", "TIME": "time", "TIMESTAMP": "datetime", "DATETIME": "datetime"}[up]
		if kind != "" && up != "DATETIME" {
			v, ok := catalog.TemporalLiteral(kind, n.val)
			if !ok {
				return true, mysqlerr.New(mysqlerr.ErWrongValue, "Incorrect %s value: '%s'", up, n.val)
			}
			rw.skip[i], rw.skip[i+1] = true, true
			rw.after[i] = sqlString(v)
			return true, nil
		}
	}
	if strings.HasPrefix(t.text, "_") && (n.kind == tkString || n.kind == tkHexString) {
		switch strings.ToLower(t.text) {
		case "_binary":
			rw.skip[i] = true
			if n.kind == tkString {
				rw.skip[i+1] = true
				rw.after[i] = "X'" + hex.EncodeToString([]byte(n.val)) + "'"
			}
			return true, nil
		case "_utf8mb4", "_utf8mb3", "_utf8", "_latin1", "_ascii":
			rw.skip[i] = true
			return true, nil
		}
	}
	return false, nil
}

// ident handles context functions, COLLATE and CAST target types.
func (rw *rewriter) ident(i, hi int) {
	t := rw.toks[i]
	up := strings.ToUpper(t.text)
	prevDot := i > 0 && rw.toks[i-1].isOp(".")
	next := func(n int) token {
		if i+n < hi {
			return rw.toks[i+n]
		}
		return token{}
	}
	if name, ok := contextFuncs[up]; ok && !prevDot && rw.p.ctx.Func != nil {
		call := next(1).isOp("(") && next(2).isOp(")") && next(1).ws == ""
		bare := up == "CURRENT_USER" && !next(1).isOp("(")
		if call || bare {
			if v, ok := rw.p.ctx.Func(name); ok {
				rw.out[i] = literal(v)
				rw.marked[i] = true
				if call {
					rw.skip[i+1], rw.skip[i+2] = true, true
				}
			}
		}
		return
	}
	switch up {
	case "COLLATE":
		// SQLite knows only BINARY, NOCASE and RTRIM; MySQL collations are dropped.
		if n := next(1); n.kind == tkIdent || n.kind == tkString || n.kind == tkQuotedIdent {
			switch strings.ToUpper(n.val2()) {
			case "BINARY", "NOCASE", "RTRIM":
			default:
				rw.skip[i], rw.skip[i+1] = true, true
			}
		}
	case "AS":
		// CAST(x AS SIGNED|UNSIGNED [INTEGER]|CHAR[(n)]|BINARY[(n)]) uses SQLite type names.
		n := next(1)
		switch {
		case (n.is("SIGNED") || n.is("UNSIGNED")) && next(2).isOp(")"):
			rw.out[i+1] = "INTEGER"
		case (n.is("SIGNED") || n.is("UNSIGNED")) && (next(2).is("INTEGER") || next(2).is("INT")) && next(3).isOp(")"):
			rw.out[i+1], rw.skip[i+2] = "INTEGER", true
		case (n.is("CHAR") || n.is("BINARY")) && (next(2).isOp(")") || next(2).isOp("(")):
			typ := "TEXT"
			if n.is("BINARY") {
				typ = "BLOB"
			}
			if next(2).isOp("(") && next(3).kind == tkNumber && next(4).isOp(")") && next(5).isOp(")") {
				rw.skip[i+2], rw.skip[i+3], rw.skip[i+4] = true, true, true
			} else if !next(2).isOp(")") {
				return
			}
			rw.out[i+1] = typ
		}
	}
}

// sysVar resolves @@[global.|session.|local.]name through the context.
func sysVar(ctx *Context, full string) (any, error) {
	name, global := full, false
	if scope, rest, ok := strings.Cut(full, "."); ok {
		switch scope {
		case "global":
			name, global = rest, true
		case "session", "local":
			name = rest
		}
	}
	if ctx.SysVar != nil {
		if v, ok := ctx.SysVar(name, global); ok {
			return v, nil
		}
	}
	return nil, mysqlerr.New(mysqlerr.ErUnknownSystemVariable, "Unknown system variable '%s'", name)
}

// emit renders tokens [lo,hi) with their replacements.
func (rw *rewriter) emit(lo, hi int) string {
	var b strings.Builder
	write := func(ws, s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			if ws == "" && needsSpace(b.String()[b.Len()-1], s[0]) {
				ws = " "
			}
			b.WriteString(ws)
		}
		b.WriteString(s)
	}
	for i := lo; i < hi; i++ {
		if !rw.skip[i] {
			write(rw.toks[i].ws, rw.out[i])
		}
		write("", rw.after[i])
	}
	return b.String()
}

// needsSpace reports whether two adjacent characters would fuse into one token.
func needsSpace(a, b byte) bool {
	word := func(c byte) bool { return isIdentChar(c) || c == '\'' || c == '"' }
	return word(a) && word(b)
}

// skipRange drops tokens [lo,hi].
func (rw *rewriter) skipRange(lo, hi int) {
	for i := lo; i <= hi && i < len(rw.skip); i++ {
		rw.skip[i] = true
	}
}

// dropQualifier drops the "db." of the db.name at toks[i], moving its gap to name.
func (rw *rewriter) dropQualifier(i int) {
	rw.skipRange(i, i+1)
	if i+2 < len(rw.toks) {
		rw.toks[i+2].ws = rw.toks[i].ws
	}
}

// quoteIdent renders name as a SQLite "identifier".
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// sqlString renders s as a SQLite string literal. NUL bytes cannot appear in
// SQL text, so such strings are spelled as a blob cast to text.
func sqlString(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return "CAST(X'" + hex.EncodeToString([]byte(s)) + "' AS TEXT)"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// literal renders a Go value as a SQLite literal.
func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case decimal.Exact:
		return string(x)
	case string:
		return sqlString(x)
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case bool:
		if x {
			return "1"
		}
		return "0"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(x)
	}
	return sqlString(fmt.Sprint(v))
}

// matchParen returns the index of the ')' closing the '(' at toks[i], or len(toks).
func matchParen(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case toks[j].isOp("("):
			depth++
		case toks[j].isOp(")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks)
}

// splitTop returns the [lo,hi) ranges of toks[lo:hi] separated by commas at depth 0.
func splitTop(toks []token, lo, hi int) [][2]int {
	var out [][2]int
	depth, start := 0, lo
	for j := lo; j < hi; j++ {
		switch {
		case toks[j].isOp("("):
			depth++
		case toks[j].isOp(")"):
			depth--
		case toks[j].isOp(",") && depth == 0:
			out = append(out, [2]int{start, j})
			start = j + 1
		}
	}
	return append(out, [2]int{start, hi})
}
