package compiler

import (
	"strconv"
	"strings"
)

// shape is a statement's text with each literal's value replaced by its kind, so
// that the statements a text-protocol client sends with different values share
// one plan (a query's result types depend on its literals' kinds, not values):
// integers become "#" (beyond BIGINT "#u" or "#d<digits>", see intKind), decimals "#.<scale>", approximate numbers "#e", strings
// "'" and hex or bit literals "x". Quoted identifiers and comments stay as they
// are; anything the scanner does not understand makes the whole text the key.
func shape(sql string) string {
	var b strings.Builder
	b.Grow(len(sql))
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"':
			j, ok := skipQuoted(sql, i)
			if !ok {
				return sql
			}
			b.WriteByte('\'')
			i = j
		case c == '`':
			j := strings.IndexByte(sql[i+1:], '`')
			if j < 0 {
				return sql
			}
			b.WriteString(sql[i : i+j+2])
			i += j + 2
		case isDigit(c) && (i == 0 || !isWord(sql[i-1])):
			j := i
			if c == '0' && i+1 < len(sql) && (sql[i+1] == 'x' || sql[i+1] == 'b') {
				j = i + 2
				for j < len(sql) && isWord(sql[j]) {
					j++
				}
				b.WriteByte('x')
				i = j
				continue
			}
			for j < len(sql) && isDigit(sql[j]) {
				j++
			}
			kind := intKind(sql[i:j])
			if j < len(sql) && sql[j] == '.' {
				k := j + 1
				for k < len(sql) && isDigit(sql[k]) {
					k++
				}
				kind = "#." + strings.Repeat("0", k-j-1) // the scale, not the digits
				j = k
			}
			if j < len(sql) && (sql[j] == 'e' || sql[j] == 'E') {
				kind = "#e"
				j++
				if j < len(sql) && (sql[j] == '+' || sql[j] == '-') {
					j++
				}
				for j < len(sql) && isDigit(sql[j]) {
					j++
				}
			}
			if j < len(sql) && isWord(sql[j]) {
				return sql // an identifier that starts with digits
			}
			b.WriteString(kind)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	if b.Len() < b.Cap()/2 {
		// Long literals made it much shorter than the text: a cache key must
		// not keep the text's size alive.
		return strings.Clone(b.String())
	}
	return b.String()
}

// intKind is an integer literal's kind: "#" for a BIGINT, "#u" beyond it for a
// BIGINT UNSIGNED, "#d<digits>" beyond that for a DECIMAL of that precision.
func intKind(digits string) string {
	d := strings.TrimLeft(digits, "0")
	if len(d) < 19 {
		return "#"
	}
	if _, err := strconv.ParseInt(d, 10, 64); err == nil {
		return "#"
	}
	if _, err := strconv.ParseUint(d, 10, 64); err == nil {
		return "#u"
	}
	return "#d" + strconv.Itoa(len(d))
}

// skipQuoted returns the index after the string literal starting at i.
func skipQuoted(sql string, i int) (int, bool) {
	q := sql[i]
	for j := i + 1; j < len(sql); j++ {
		switch sql[j] {
		case '\\':
			j++
		case q:
			if j+1 < len(sql) && sql[j+1] == q {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return 0, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWord(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
