package compiler

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// ContextPrefix is put before a context function's name (lower case, e.g.
// "()connection_id") when the compiler asks a session's UserVars for the value
// of that function: a statement that calls CONNECTION_ID(), DATABASE(), USER(),
// LAST_INSERT_ID() and the like is compiled for the values they have at the
// time, as a statement that reads user variables is, and the values are part of
// its SQL plan's key (contextKey). The session answers NotKnown for a function
// it does not give a value of; the statement then stays with sqlcompat.
const ContextPrefix = "()"

// NotKnown is a session's answer for a context function whose value it does
// not give.
type NotKnown struct{}

// contextCall emits a call of a context function without arguments as the
// literal of its value; false if the session does not give it (the caller
// falls back to sqlcompat).
func (e *emitter) contextCall(name string, x *ast.FuncCallExpr) bool {
	// Only a call the plan's key holds the value of (a name written without
	// parentheses, CURRENT_USER, never is).
	if len(x.Args) != 0 || e.c.vars == nil || !strings.Contains(e.c.contextKey, ";"+name+"=") {
		return false
	}
	switch v := e.c.vars(ContextPrefix + name).(type) {
	case nil:
		e.w("NULL")
	case int64:
		e.w(strconv.FormatInt(v, 10))
	case uint64:
		if v > 1<<63-1 {
			return false
		}
		e.w(strconv.FormatUint(v, 10))
	case string:
		e.w(sqlString(v))
	default:
		return false
	}
	return true
}

// contextKey is the part of a SQL plan's key that the context functions the
// text calls decide: "" for a text that calls none (one scan), else each name
// with its value.
func contextKey(sql string, vars UserVars) string {
	if vars == nil {
		return ""
	}
	var b strings.Builder
	var buf [16]byte
	for i := strings.IndexByte(sql, '('); i >= 0; {
		j := i
		for j > 0 && sql[j-1] == ' ' {
			j--
		}
		k := j
		for k > 0 && isWord(sql[k-1]) {
			k--
		}
		if n := j - k; n > 0 && n <= len(buf) {
			for m := 0; m < n; m++ {
				c := sql[k+m]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf[m] = c
			}
			if contextFunctions[string(buf[:n])] { // no allocation for the lookup
				name := string(buf[:n])
				b.WriteByte(';')
				b.WriteString(name)
				b.WriteByte('=')
				b.WriteString(varText(vars(ContextPrefix + name)))
			}
		}
		n := strings.IndexByte(sql[i+1:], '(')
		if n < 0 {
			break
		}
		i += n + 1
	}
	return b.String()
}
