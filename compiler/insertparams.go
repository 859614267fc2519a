package compiler

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxInsertParams bounds how many literals InsertParams turns into parameters: a
// longer VALUES list (a dump's extended INSERT) is a text of its own anyway.
const maxInsertParams = 512

// InsertParams rewrites an INSERT or REPLACE ... VALUES statement sent as text so
// that its plain literal values become ? parameters: whole values that are an
// integer literal (with an optional minus sign, within BIGINT) or a quoted string
// without an introducer. It returns the new text and the values in order (int64,
// string), as a prepared statement would bind them; ok is false when the text is
// not such a statement or holds anything the scan does not fully understand
// (comments, ?, adjacent strings, decimal or approximate numbers are left as they
// are, and so is every other expression).
//
// A client that sends the same INSERT with new values each time then reuses one
// compiled statement and one prepared SQLite statement, where each new text
// would be parsed, compiled and prepared again. Integers and strings bound as
// parameters are converted into the columns exactly as the same literals are
// (MySQL's rule for prepared statements), which the differential suite checks.
//
// backslash is false under NO_BACKSLASH_ESCAPES.
func InsertParams(sql string, backslash bool) (text string, args []any, ok bool) {
	i := skipSpace(sql, 0)
	kw, i := word(sql, i)
	if !strings.EqualFold(kw, "INSERT") && !strings.EqualFold(kw, "REPLACE") {
		return "", nil, false
	}
	// Find VALUES (or VALUE) at the top level, before any literal.
	start := -1
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == '`':
			j := strings.IndexByte(sql[i+1:], '`')
			if j < 0 {
				return "", nil, false
			}
			i += j + 2
		case isWord(c):
			var w string
			w, i = word(sql, i)
			if strings.EqualFold(w, "VALUES") || strings.EqualFold(w, "VALUE") {
				start = i
			}
			if strings.EqualFold(w, "SELECT") || strings.EqualFold(w, "SET") || strings.EqualFold(w, "TABLE") {
				return "", nil, false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ',' || c == '.':
			i++
		default:
			return "", nil, false // a literal, a comment, an operator: not a plain INSERT head
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(sql))
	b.WriteString(sql[:start])
	i = start
	for {
		// One row: ( value, value, ... )
		j := skipSpace(sql, i)
		if j >= len(sql) || sql[j] != '(' {
			return "", nil, false
		}
		b.WriteString(sql[i : j+1])
		i = j + 1
		for {
			v := skipSpace(sql, i)
			b.WriteString(sql[i:v])
			arg, end, isLit := literalValue(sql, v, backslash)
			if isLit {
				if len(args) == maxInsertParams {
					return "", nil, false
				}
				args = append(args, arg)
				b.WriteByte('?')
			} else {
				end = skipExpr(sql, v)
				if end < 0 || end == v {
					return "", nil, false
				}
				b.WriteString(sql[v:end])
			}
			i = end
			k := skipSpace(sql, i)
			if k >= len(sql) {
				return "", nil, false
			}
			b.WriteString(sql[i:k])
			i = k + 1
			if sql[k] == ')' {
				b.WriteByte(')')
				break
			}
			if sql[k] != ',' {
				return "", nil, false
			}
			b.WriteByte(',')
		}
		j = skipSpace(sql, i)
		if j < len(sql) && sql[j] == ',' {
			b.WriteString(sql[i : j+1])
			i = j + 1
			continue
		}
		break
	}
	// The rest (ON DUPLICATE KEY UPDATE ..., AS alias, a semicolon) stays as it
	// is, but must hold no ? nor anything that could hide one.
	rest := sql[i:]
	if !plainTail(rest) {
		return "", nil, false
	}
	if len(args) == 0 {
		return "", nil, false
	}
	b.WriteString(rest)
	return b.String(), args, true
}

// literalValue reads a whole value at i that is a plain integer or string
// literal: it must be followed by , or ) (after spaces).
func literalValue(sql string, i int, backslash bool) (any, int, bool) {
	if i >= len(sql) {
		return nil, i, false
	}
	var v any
	end := i
	switch c := sql[i]; {
	case c == '\'':
		s, j, ok := unquote(sql, i, backslash)
		if !ok || !utf8.ValidString(s) {
			return nil, i, false
		}
		if k := skipSpace(sql, j); k < len(sql) && (sql[k] == '\'' || sql[k] == '"') {
			return nil, i, false // 'a' 'b' is one literal
		}
		v, end = s, j
	case c == '-' || isDigit(c):
		j := i
		if c == '-' {
			j++
		}
		d := j
		for j < len(sql) && isDigit(sql[j]) {
			j++
		}
		if j == d || j-d > 18 || j < len(sql) && (isWord(sql[j]) || sql[j] == '.') {
			return nil, i, false
		}
		if sql[d] == '0' && j-d > 1 && (sql[d+1] == 'x' || sql[d+1] == 'b') {
			return nil, i, false
		}
		n, err := strconv.ParseInt(sql[i:j], 10, 64)
		if err != nil {
			return nil, i, false
		}
		v, end = n, j
	default:
		return nil, i, false
	}
	if k := skipSpace(sql, end); k >= len(sql) || sql[k] != ',' && sql[k] != ')' {
		return nil, i, false
	}
	return v, end, true
}

// unquote reads the single-quoted string literal at i with MySQL's escapes.
func unquote(sql string, i int, backslash bool) (string, int, bool) {
	var b strings.Builder
	for j := i + 1; j < len(sql); j++ {
		c := sql[j]
		switch {
		case c == '\\' && backslash:
			j++
			if j >= len(sql) {
				return "", 0, false
			}
			switch e := sql[j]; e {
			case '0':
				b.WriteByte(0)
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'Z':
				b.WriteByte(26)
			case '%', '_':
				b.WriteByte('\\') // kept for LIKE patterns
				b.WriteByte(e)
			default:
				b.WriteByte(e)
			}
		case c == '\'':
			if j+1 < len(sql) && sql[j+1] == '\'' {
				b.WriteByte('\'')
				j++
				continue
			}
			return b.String(), j + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// skipExpr returns the end of the value expression at i: the first , or ) at
// its own nesting level, or -1 when the text holds something the scan must not
// copy blindly (a ?, a comment, an unterminated quote).
func skipExpr(sql string, i int) int {
	depth := 0
	for i < len(sql) {
		c := sql[i]
		switch c {
		case '\'', '"':
			j, ok := skipQuoted(sql, i)
			if !ok {
				return -1
			}
			i = j
			continue
		case '`':
			j := strings.IndexByte(sql[i+1:], '`')
			if j < 0 {
				return -1
			}
			i += j + 2
			continue
		case '?', '#':
			return -1
		case '/':
			if i+1 < len(sql) && sql[i+1] == '*' {
				return -1
			}
		case '-':
			if i+1 < len(sql) && sql[i+1] == '-' {
				return -1
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
}

// plainTail reports whether the text after the VALUES lists holds no ? and no
// comment outside quotes.
func plainTail(s string) bool {
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\'', '"':
			j, ok := skipQuoted(s, i)
			if !ok {
				return false
			}
			i = j
			continue
		case '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return false
			}
			i += j + 2
			continue
		case '?', '#':
			return false
		case '/':
			if i+1 < len(s) && s[i+1] == '*' {
				return false
			}
		case '-':
			if i+1 < len(s) && s[i+1] == '-' {
				return false
			}
		}
		i++
	}
	return true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func word(s string, i int) (string, int) {
	j := i
	for j < len(s) && isWord(s[j]) {
		j++
	}
	return s[i:j], j
}
