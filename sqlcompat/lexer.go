package sqlcompat

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// tokKind classifies a lexed token.
type tokKind uint8

const (
	tkIdent       tokKind = iota + 1 // bare word; keywords are bare words too
	tkQuotedIdent                    // `name`
	tkString                         // 'text' or "text" (MySQL treats both as strings)
	tkNumber                         // 12, 1.5, 1e5, .5, 0x1F
	tkHexString                      // x'AB'
	tkBitString                      // b'01', 0b01
	tkUserVar                        // @name
	tkSysVar                         // @@name, @@global.name
	tkParam                          // ?
	tkOp                             // operators and punctuation
)

// token is one lexical unit. text is the source spelling; val is the decoded
// value (identifier name, string contents, variable name without @ signs).
type token struct {
	kind tokKind
	text string
	val  string
	pos  int    // byte offset of the token in the source
	end  int    // byte offset just past the token
	ws   string // the gap before the token: its whitespace, or " " if it held comments
}

// is reports whether t is the bare keyword kw (case-insensitive).
func (t token) is(kw string) bool {
	return t.kind == tkIdent && strings.EqualFold(t.text, kw)
}

// isOp reports whether t is the operator op.
func (t token) isOp(op string) bool { return t.kind == tkOp && t.text == op }

// isName reports whether t can name a schema object.
func (t token) isName() bool { return t.kind == tkIdent || t.kind == tkQuotedIdent }

// lexError reports where lexing failed (an unterminated string or comment).
type lexError struct{ pos int }

// lex splits sql into tokens. Comments are dropped, except MySQL executable
// comments (/*! ... */, /*!50000 ... */, /*M! ... */) whose contents are code.
func lex(sql string) ([]token, *lexError) {
	var toks []token
	i, gapStart := 0, 0
	inExec := false
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#':
			i = skipLine(sql, i)
			continue
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-' && (i+2 == len(sql) || isSpaceOrCtl(sql[i+2])):
			i = skipLine(sql, i)
			continue
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			if !inExec && i+2 < len(sql) && sql[i+2] == '!' && !laterVersion(sql[i+3:]) {
				i += 3
				for i < len(sql) && sql[i] >= '0' && sql[i] <= '9' {
					i++
				}
				inExec = true
				continue
			}
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return nil, &lexError{pos: i}
			}
			i += j + 4
			continue
		case inExec && c == '*' && i+1 < len(sql) && sql[i+1] == '/':
			inExec = false
			i += 2
			continue
		}
		t, err := lexOne(sql, i)
		if err != nil {
			return nil, err
		}
		gap := sql[gapStart:i]
		if strings.TrimSpace(gap) == "" {
			t.ws = gap
		} else {
			t.ws = " "
		}
		toks = append(toks, t)
		i = t.end
		gapStart = i
	}
	return toks, nil
}

func isSpaceOrCtl(c byte) bool { return c <= ' ' }

// laterVersion reports whether an executable comment's version number (the
// digits after /*!) is one MySQL 8.4 does not run: above 80400. MariaDB's
// /*M! ... */ is a plain comment to MySQL, as it is here.
func laterVersion(s string) bool {
	n := 0
	for n < len(s) && n < 6 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n < 5 {
		return false
	}
	v, _ := strconv.Atoi(s[:5])
	return v > 80400
}

func skipLine(sql string, i int) int {
	j := strings.IndexByte(sql[i:], '\n')
	if j < 0 {
		return len(sql)
	}
	return i + j + 1
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// multiOps lists multi-character operators, longest first.
var multiOps = []string{"<=>", "->>", "<=", ">=", "<>", "!=", ":=", "||", "&&", "<<", ">>", "->"}

// lexOne lexes the token starting at sql[i], which is not whitespace or a comment.
func lexOne(sql string, i int) (token, *lexError) {
	c := sql[i]
	mk := func(kind tokKind, end int, val string) token {
		return token{kind: kind, text: sql[i:end], val: val, pos: i, end: end}
	}
	switch {
	case c == '\'' || c == '"':
		val, end, ok := scanString(sql, i+1, c)
		if !ok {
			return token{}, &lexError{pos: i}
		}
		return mk(tkString, end, val), nil
	case c == '`':
		val, end, ok := scanBacktick(sql, i+1)
		if !ok {
			return token{}, &lexError{pos: i}
		}
		return mk(tkQuotedIdent, end, val), nil
	case (c == 'x' || c == 'X' || c == 'b' || c == 'B') && i+1 < len(sql) && sql[i+1] == '\'':
		j := strings.IndexByte(sql[i+2:], '\'')
		if j < 0 {
			return token{}, &lexError{pos: i}
		}
		kind := tkHexString
		if c == 'b' || c == 'B' {
			kind = tkBitString
		}
		return mk(kind, i+2+j+1, sql[i+2:i+2+j]), nil
	case c == '0' && i+2 < len(sql) && (sql[i+1] == 'x' || sql[i+1] == 'b') && (isHex(sql[i+2])):
		j := i + 2
		for j < len(sql) && isHex(sql[j]) {
			j++
		}
		if j < len(sql) && isIdentChar(sql[j]) {
			break // an identifier such as 0xyz
		}
		if sql[i+1] == 'b' {
			if strings.Trim(sql[i+2:j], "01") != "" {
				break
			}
			return mk(tkBitString, j, sql[i+2:j]), nil
		}
		// 0x41 is a binary string, as X'41' is (a number only in numeric context,
		// which SQLite cannot tell); an odd digit count gets a leading zero.
		digits := sql[i+2 : j]
		if len(digits)%2 == 1 {
			digits = "0" + digits
		}
		return mk(tkHexString, j, digits), nil
	case isDigit(c) || (c == '.' && i+1 < len(sql) && isDigit(sql[i+1]) && (i == 0 || !isIdentChar(sql[i-1]) && sql[i-1] != '`')):
		j := i
		for j < len(sql) && isDigit(sql[j]) {
			j++
		}
		if j < len(sql) && sql[j] == '.' {
			j++
			for j < len(sql) && isDigit(sql[j]) {
				j++
			}
		}
		if j < len(sql) && (sql[j] == 'e' || sql[j] == 'E') {
			k := j + 1
			if k < len(sql) && (sql[k] == '+' || sql[k] == '-') {
				k++
			}
			if k < len(sql) && isDigit(sql[k]) {
				for k < len(sql) && isDigit(sql[k]) {
					k++
				}
				j = k
			}
		}
		if j < len(sql) && isIdentChar(sql[j]) && !strings.Contains(sql[i:j], ".") {
			break // MySQL allows identifiers that start with digits, e.g. 1abc
		}
		return mk(tkNumber, j, sql[i:j]), nil
	case c == '?':
		return mk(tkParam, i+1, ""), nil
	case c == '@':
		if i+1 < len(sql) && sql[i+1] == '@' {
			j := i + 2
			for j < len(sql) && (isIdentChar(sql[j]) || sql[j] == '.') {
				j++
			}
			if j < len(sql) && sql[j] == '`' && j == i+2 {
				val, end, ok := scanBacktick(sql, j+1)
				if !ok {
					return token{}, &lexError{pos: i}
				}
				return mk(tkSysVar, end, strings.ToLower(val)), nil
			}
			return mk(tkSysVar, j, strings.ToLower(sql[i+2:j])), nil
		}
		if i+1 < len(sql) && (sql[i+1] == '\'' || sql[i+1] == '"') {
			val, end, ok := scanString(sql, i+2, sql[i+1])
			if !ok {
				return token{}, &lexError{pos: i}
			}
			return mk(tkUserVar, end, val), nil
		}
		if i+1 < len(sql) && sql[i+1] == '`' {
			val, end, ok := scanBacktick(sql, i+2)
			if !ok {
				return token{}, &lexError{pos: i}
			}
			return mk(tkUserVar, end, val), nil
		}
		j := i + 1
		for j < len(sql) && (isIdentChar(sql[j]) || sql[j] == '.') {
			j++
		}
		return mk(tkUserVar, j, sql[i+1:j]), nil
	}
	if isIdentChar(c) {
		j := i
		for j < len(sql) && isIdentChar(sql[j]) {
			j++
		}
		// Charset introducers (_utf8mb4'x', N'x') only label a string: drop them.
		if j < len(sql) && (sql[j] == '\'' || sql[j] == '"') && (c == '_' || (j == i+1 && (c == 'n' || c == 'N'))) {
			val, end, ok := scanString(sql, j+1, sql[j])
			if !ok {
				return token{}, &lexError{pos: i}
			}
			if strings.EqualFold(sql[i:j], "_binary") {
				return mk(tkHexString, end, hex.EncodeToString([]byte(val))), nil // bytes, not text
			}
			return mk(tkString, end, val), nil
		}
		return mk(tkIdent, j, sql[i:j]), nil
	}
	for _, op := range multiOps {
		if strings.HasPrefix(sql[i:], op) {
			return mk(tkOp, i+len(op), op), nil
		}
	}
	return mk(tkOp, i+1, sql[i:i+1]), nil
}

// scanString decodes a MySQL string whose opening quote q precedes sql[i]:
// backslash escapes and doubled quotes are resolved.
func scanString(sql string, i int, q byte) (val string, end int, ok bool) {
	var b strings.Builder
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == '\\' && i+1 < len(sql):
			b.WriteString(unescape(sql[i+1]))
			i += 2
		case c == q && i+1 < len(sql) && sql[i+1] == q:
			b.WriteByte(q)
			i += 2
		case c == q:
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, false
}

// unescape resolves the MySQL escape sequence \c. \% and \_ keep their
// backslash because MySQL keeps it (they matter only to LIKE patterns).
func unescape(c byte) string {
	switch c {
	case '0':
		return "\x00"
	case 'b':
		return "\b"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	case 'Z':
		return "\x1a"
	case '%':
		return `\%`
	case '_':
		return `\_`
	}
	return string(c)
}

// scanBacktick decodes a `quoted` identifier whose opening backtick precedes sql[i].
func scanBacktick(sql string, i int) (val string, end int, ok bool) {
	var b strings.Builder
	for i < len(sql) {
		if sql[i] == '`' {
			if i+1 < len(sql) && sql[i+1] == '`' {
				b.WriteByte('`')
				i += 2
				continue
			}
			return b.String(), i + 1, true
		}
		b.WriteByte(sql[i])
		i++
	}
	return "", 0, false
}
