package sqlcompat

import "strings"

// ReadMode is what of sql_mode changes how MySQL reads the text of a statement
// into tokens.
type ReadMode struct {
	// AnsiQuotes: "x" is an identifier, as `x` is (ANSI_QUOTES).
	AnsiQuotes bool
	// NoBackslashEscapes: a backslash in a string is itself, not an escape
	// (NO_BACKSLASH_ESCAPES).
	NoBackslashEscapes bool
	// RealAsFloat: the type REAL is FLOAT, not DOUBLE (REAL_AS_FLOAT).
	RealAsFloat bool
}

// Respell spells statement text read under mode m as MySQL's default reading
// would have it, token for token: under ANSI_QUOTES a "quoted" identifier
// becomes a `quoted` one, under NO_BACKSLASH_ESCAPES each backslash of a string
// is doubled, under REAL_AS_FLOAT the type REAL (a reserved word, so never an
// unquoted name) is FLOAT. Everything downstream (splitting, classification, translation,
// the compiler's grammar, DDL text in the binary log) then reads the text as
// the session meant it. Comments are kept as they are, executable comments'
// contents respelled. Text with an unterminated string or identifier is
// returned unchanged: its syntax error is the same either way.
func Respell(sql string, m ReadMode) string {
	real := m.RealAsFloat && strings.Contains(strings.ToLower(sql), "real")
	if !real && (!m.AnsiQuotes && !m.NoBackslashEscapes || strings.IndexAny(sql, "\"\\") < 0) {
		return sql
	}
	var b strings.Builder
	b.Grow(len(sql) + 8)
	inExec := false
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '#' || c == '-' && i+2 <= len(sql) && strings.HasPrefix(sql[i:], "--") && (i+2 == len(sql) || isSpaceOrCtl(sql[i+2])):
			j := skipLine(sql, i)
			b.WriteString(sql[i:j])
			i = j
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			if !inExec && strings.HasPrefix(sql[i:], "/*!") {
				inExec = true
				b.WriteString("/*!")
				i += 3
				continue
			}
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return sql
			}
			b.WriteString(sql[i : i+2+j+2])
			i += 2 + j + 2
		case inExec && c == '*' && strings.HasPrefix(sql[i:], "*/"):
			inExec = false
			b.WriteString("*/")
			i += 2
		case c == '`':
			j, ok := quotedEnd(sql, i, '`', false)
			if !ok {
				return sql
			}
			b.WriteString(sql[i:j])
			i = j
		case c == '"' && m.AnsiQuotes:
			j, ok := quotedEnd(sql, i, '"', false)
			if !ok {
				return sql
			}
			name := strings.ReplaceAll(sql[i+1:j-1], `""`, `"`)
			b.WriteString("`" + strings.ReplaceAll(name, "`", "``") + "`")
			i = j
		case c == '\'' || c == '"':
			j, ok := quotedEnd(sql, i, c, !m.NoBackslashEscapes)
			if !ok {
				return sql
			}
			if m.NoBackslashEscapes {
				b.WriteString(strings.ReplaceAll(sql[i:j], `\`, `\\`))
			} else {
				b.WriteString(sql[i:j])
			}
			i = j
		case isIdentChar(c):
			j := i + 1
			for j < len(sql) && isIdentChar(sql[j]) {
				j++
			}
			word := sql[i:j]
			if real && strings.EqualFold(word, "real") && (i == 0 || sql[i-1] != '.' && sql[i-1] != '@') {
				word = "FLOAT"
			}
			b.WriteString(word)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// quotedEnd is the offset just past the quoted token starting at sql[i] (quote
// q, doubled inside for itself; escapes: a backslash takes the next byte).
func quotedEnd(sql string, i int, q byte, escapes bool) (int, bool) {
	for j := i + 1; j < len(sql); j++ {
		switch sql[j] {
		case '\\':
			if escapes {
				j++
			}
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

// ModeSensitive names the first construct of statement text whose meaning the
// modes change but which sqlcompat's translation and DDL read as MySQL's default
// mode has them; "" if there is none. The compiler's grammar reads these by the
// mode; text that does not reach it is refused rather than answered differently.
func ModeSensitive(sql string, pipesAsConcat, highNotPrecedence, noBackslashEscapes bool) string {
	if !pipesAsConcat && !highNotPrecedence && !noBackslashEscapes {
		return ""
	}
	toks, err := lex(sql)
	if err != nil {
		return ""
	}
	next := func(i int) token {
		if i+1 < len(toks) {
			return toks[i+1]
		}
		return token{}
	}
	for i, t := range toks {
		switch {
		case pipesAsConcat && t.isOp("||"):
			return "|| with sql_mode PIPES_AS_CONCAT in this statement"
		case highNotPrecedence && t.is("NOT"):
			// NOT NULL, NOT EXISTS, NOT ENFORCED, and the infix NOT LIKE / IN /
			// BETWEEN / REGEXP read the same in both modes.
			n := next(i)
			if !(n.is("NULL") || n.is("EXISTS") || n.is("ENFORCED") || n.is("LIKE") || n.is("IN") || n.is("BETWEEN") ||
				n.is("REGEXP") || n.is("RLIKE") || n.is("DETERMINISTIC")) {
				return "NOT with sql_mode HIGH_NOT_PRECEDENCE in this statement"
			}
		case noBackslashEscapes && t.is("LIKE"):
			// LIKE has no escape character then; a literal pattern without a
			// backslash matches the same either way.
			if n := next(i); n.kind != tkString || strings.Contains(n.val, `\`) {
				return "LIKE with sql_mode NO_BACKSLASH_ESCAPES in this statement"
			}
		}
	}
	return ""
}
