package sqlcompat

import "strings"

// Split cuts sql into its top-level statements at ';' characters that are not
// inside strings, quoted identifiers or comments (executable comments
// included). Statements are trimmed and empty ones dropped.
func Split(sql string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	start := 0
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(sql, i+1, c)
		case c == '#':
			i = skipLine(sql, i)
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-' && (i+2 == len(sql) || isSpaceOrCtl(sql[i+2])):
			i = skipLine(sql, i)
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(sql)
			}
		case c == ';' && openTriggerBody(sql[start:i]):
			i++ // inside CREATE TRIGGER ... BEGIN ... END
		case c == ';':
			add(sql[start:i])
			i++
			start = i
		default:
			i++
		}
	}
	add(sql[start:])
	return out
}

// skipQuoted returns the offset just past the quoted text whose opening quote q
// precedes sql[i]; an unterminated quote runs to the end.
func skipQuoted(sql string, i int, q byte) int {
	for i < len(sql) {
		switch {
		case sql[i] == '\\' && q != '`':
			i += 2
		case sql[i] == q && i+1 < len(sql) && sql[i+1] == q:
			i += 2
		case sql[i] == q:
			return i + 1
		default:
			i++
		}
	}
	return len(sql)
}

// openTriggerBody reports whether seg is a CREATE TRIGGER whose BEGIN ... END
// body has not ended: its ';' separate the body's statements.
func openTriggerBody(seg string) bool {
	t := strings.TrimLeft(seg, " \t\r\n")
	if len(t) < 6 || !strings.EqualFold(t[:6], "CREATE") {
		return false
	}
	toks, _ := lex(seg)
	if !isTrigger(toks) {
		return false
	}
	depth := 0
	for i, tk := range toks {
		switch {
		case tk.is("BEGIN"), tk.is("CASE"):
			depth++
		case tk.is("END"):
			if i+1 < len(toks) && (toks[i+1].is("IF") || toks[i+1].is("LOOP") || toks[i+1].is("WHILE") || toks[i+1].is("REPEAT")) {
				continue
			}
			depth--
		}
	}
	return depth > 0
}
