package difftest

import (
	"strconv"
	"strings"

	"github.com/binlite/binlite/compiler"
)

// PreparedForm is the prepared statement a client that binds values would send
// for a corpus statement: its literals that a parameter bound with the same value
// replaces without changing MySQL's answer become ?, and args are the values in
// order, as go-sql-driver/mysql binds them (an integer as int64, a quoted string
// as string). ok is false when the statement has no such literal.
//
// Only literals whose parameter MySQL converts exactly as it does the literal
// are replaced: whole values of an INSERT or REPLACE ... VALUES list
// (compiler.InsertParams), the value of UPDATE's SET col = literal, and an
// operand of a comparison, IN list or BETWEEN compared with something else.
// Decimal and approximate numbers stay (a driver sends a decimal as a string,
// which MySQL converts otherwise than a decimal literal), and so do NULL,
// literals with an introducer or COLLATE, LIMIT's and INTERVAL's numbers,
// literals in expressions (1 + x, f('a')), positions in ORDER BY and GROUP BY,
// and every string with a backslash (its meaning depends on
// NO_BACKSLASH_ESCAPES).
func PreparedForm(sql string) (text string, args []any, ok bool) {
	if strings.ContainsAny(sql, "?\\#") || strings.Contains(sql, "--") || strings.Contains(sql, "/*") {
		return "", nil, false
	}
	toks, ok := sqlTokens(sql)
	if !ok || len(toks) == 0 {
		return "", nil, false
	}
	switch strings.ToUpper(toks[0].text) {
	case "INSERT", "REPLACE":
		return compiler.InsertParams(sql, true)
	case "SELECT", "UPDATE", "DELETE":
		return whereParams(sql, toks)
	}
	return "", nil, false
}

type tokKind int

const (
	tokWord   tokKind = iota // keyword or identifier (backquoted too)
	tokInt                   // integer literal without sign
	tokNumber                // decimal, approximate, hex or binary number
	tokString                // '...'
	tokDQ                    // "...": a string or, under ANSI_QUOTES, a name
	tokOp                    // operator or punctuation
)

type sqlToken struct {
	kind       tokKind
	text       string // as written
	start, end int
}

// sqlTokens splits sql into tokens; ok is false for text it does not fully read
// (an unterminated quote).
func sqlTokens(sql string) ([]sqlToken, bool) {
	var out []sqlToken
	for i := 0; i < len(sql); {
		c := sql[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for {
				k := strings.IndexByte(sql[j:], c)
				if k < 0 {
					return nil, false
				}
				j += k + 1
				if j < len(sql) && sql[j] == c {
					j++ // doubled quote
					continue
				}
				break
			}
			kind := map[byte]tokKind{'\'': tokString, '"': tokDQ, '`': tokWord}[c]
			out = append(out, sqlToken{kind, sql[start:j], start, j})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9':
			j := i
			for j < len(sql) && (isAlnum(sql[j]) || sql[j] == '.' ||
				(sql[j] == '+' || sql[j] == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E')) {
				j++
			}
			kind := tokNumber
			if _, err := strconv.ParseInt(sql[i:j], 10, 64); err == nil {
				kind = tokInt
			}
			out = append(out, sqlToken{kind, sql[i:j], i, j})
			i = j
		case isAlnum(c) || c == '_' || c == '$' || c >= 0x80:
			j := i
			for j < len(sql) && (isAlnum(sql[j]) || sql[j] == '_' || sql[j] == '$' || sql[j] >= 0x80) {
				j++
			}
			out = append(out, sqlToken{tokWord, sql[i:j], i, j})
			i = j
		default:
			j := i + 1
			for _, op := range []string{"<=>", "<>", "!=", "<=", ">=", "||", "&&", ":=", "->>", "->", "<<", ">>"} {
				if strings.HasPrefix(sql[i:], op) {
					j = i + len(op)
					break
				}
			}
			out = append(out, sqlToken{tokOp, sql[i:j], i, j})
			i = j
		}
	}
	return out, true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var comparisons = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "<=>": true, "LIKE": true}

// ends are what may follow a replaced operand: the end of its condition.
var ends = map[string]bool{"AND": true, "OR": true, ")": true, ";": true, "ORDER": true, "GROUP": true,
	"LIMIT": true, "HAVING": true, "FOR": true, "UNION": true, "WHERE": true, "LOCK": true}

// whereParams replaces the literals of SELECT, UPDATE and DELETE that are whole
// operands of comparisons (see PreparedForm).
func whereParams(sql string, toks []sqlToken) (string, []any, bool) {
	up := func(i int) string {
		if i < 0 || i >= len(toks) || toks[i].kind != tokWord && toks[i].kind != tokOp {
			return ""
		}
		return strings.ToUpper(toks[i].text)
	}
	isUpdate := up(0) == "UPDATE"
	replace := make([]bool, len(toks))
	inList := map[int]bool{} // paren depths that are IN (...) lists
	depth, setList, betweenAt := 0, false, -1
	conditions := false // a WHERE, HAVING or ON came before: the literal is in a condition
	for i, t := range toks {
		u := up(i)
		switch u {
		case "(":
			depth++
			if up(i-1) == "IN" && up(i+1) != "SELECT" {
				inList[depth] = true
			}
			continue
		case ")":
			delete(inList, depth)
			depth--
			continue
		case "SET":
			setList = isUpdate && depth == 0
		case "WHERE", "HAVING", "ON":
			conditions, setList = true, false
		}
		if t.kind != tokInt && t.kind != tokString {
			continue
		}
		prev, next := up(i-1), up(i+1)
		if t.kind == tokString && (strings.HasPrefix(prev, "_") || next == "COLLATE" || i+1 < len(toks) && toks[i+1].kind == tokString) {
			continue // an introducer, a collation, adjacent strings
		}
		if prev == "-" || prev == "+" || next == "." || next == "COLLATE" {
			continue
		}
		switch {
		case setList && prev == "=" && (next == "," || next == "WHERE" || next == "" && i+1 == len(toks) || next == "ORDER" || next == "LIMIT"):
			replace[i] = true
		case !conditions:
		case inList[depth] && (prev == "(" || prev == ",") && (next == "," || next == ")"):
			replace[i] = true
		case comparisons[prev] && (ends[next] || i+1 == len(toks)):
			replace[i] = true
		case prev == "BETWEEN" && next == "AND":
			replace[i], betweenAt = true, i+2
		case i == betweenAt && (ends[next] || i+1 == len(toks)):
			replace[i] = true
		case (prev == "WHERE" || prev == "AND" || prev == "OR" || prev == "(") && comparisons[next] &&
			i+2 < len(toks) && toks[i+2].kind == tokWord:
			replace[i] = true // 'a' = col
		}
	}
	var b strings.Builder
	var args []any
	last := 0
	for i, t := range toks {
		if !replace[i] {
			continue
		}
		var v any
		if t.kind == tokInt {
			n, _ := strconv.ParseInt(t.text, 10, 64)
			v = n
		} else {
			v = strings.ReplaceAll(t.text[1:len(t.text)-1], "''", "'")
		}
		b.WriteString(sql[last:t.start])
		b.WriteByte('?')
		last = t.end
		args = append(args, v)
	}
	if len(args) == 0 {
		return "", nil, false
	}
	b.WriteString(sql[last:])
	return b.String(), args, true
}
