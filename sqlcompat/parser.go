package sqlcompat

import (
	"strconv"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// parser walks the tokens of one statement.
type parser struct {
	sql  string
	toks []token
	i    int
	ctx  *Context
}

// Parse parses one MySQL statement (a trailing ';' is allowed) and translates
// what SQLite must run. Errors are *mysqlerr.Error: 1065 for empty input, 1064
// for syntax errors, 1193 for unknown system variables. Statements binlite
// recognizes but does not implement come back as *Unsupported, not as errors.
func Parse(sql string, ctx *Context) (Statement, error) {
	if ctx == nil {
		ctx = &Context{}
	}
	toks, lerr := lex(sql)
	if lerr != nil {
		return nil, syntaxError(sql, lerr.pos)
	}
	for len(toks) > 0 && toks[len(toks)-1].isOp(";") {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		return nil, mysqlerr.New(mysqlerr.ErEmptyQuery, "Query was empty")
	}
	if what, ok := routineDefinition(toks); ok {
		// Bodies of stored programs contain ';' (the CLI sends them after DELIMITER).
		return unsupported(what)
	}
	for _, t := range toks {
		if t.isOp(";") && !isTrigger(toks) {
			return nil, syntaxError(sql, t.pos)
		}
	}
	p := &parser{sql: sql, toks: toks, ctx: ctx}
	st, err := p.statement()
	if d, ok := st.(*DDL); ok && err == nil {
		if err := addCatalog(d, ctx); err != nil {
			return nil, err
		}
	}
	return st, err
}

// routineDefinition recognises CREATE [DEFINER=...] PROCEDURE|FUNCTION|TRIGGER|EVENT.
func routineDefinition(toks []token) (string, bool) {
	if len(toks) < 2 || !toks[0].is("CREATE") {
		return "", false
	}
	for i := 1; i < len(toks) && i < 8; i++ {
		for _, kw := range []string{"PROCEDURE", "FUNCTION", "EVENT"} {
			if toks[i].is(kw) {
				return "CREATE " + kw, true
			}
		}
		if toks[i].is("TRIGGER") || toks[i].is("TABLE") || toks[i].is("INDEX") || toks[i].is("DATABASE") || toks[i].is("SCHEMA") || toks[i].is("VIEW") || toks[i].is("USER") {
			return "", false
		}
	}
	return "", false
}

// isTrigger recognises CREATE [DEFINER=...] TRIGGER, whose body may hold ';'.
func isTrigger(toks []token) bool {
	if len(toks) < 2 || !toks[0].is("CREATE") {
		return false
	}
	for i := 1; i < len(toks) && i < 8; i++ {
		if toks[i].is("TRIGGER") {
			return true
		}
	}
	return false
}

// syntaxError builds MySQL's 1064 message pointing at sql[pos:].
func syntaxError(sql string, pos int) *mysqlerr.Error {
	if pos > len(sql) {
		pos = len(sql)
	}
	line := 1 + strings.Count(sql[:pos], "\n")
	near := sql[pos:]
	if len(near) > 80 {
		near = near[:80]
	}
	return mysqlerr.New(mysqlerr.ErParse,
		"You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line %d", near, line)
}

func unsupported(what string) (Statement, error) { return &Unsupported{What: what}, nil }

// errHere is a syntax error at the current token.
func (p *parser) errHere() error {
	if p.i < len(p.toks) {
		return syntaxError(p.sql, p.toks[p.i].pos)
	}
	return syntaxError(p.sql, len(p.sql))
}

func (p *parser) eof() bool { return p.i >= len(p.toks) }

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{pos: len(p.sql), end: len(p.sql)}
}

func (p *parser) peekAt(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return token{pos: len(p.sql), end: len(p.sql)}
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

// accept consumes the keywords kws in sequence if all are next.
func (p *parser) accept(kws ...string) bool {
	for n, kw := range kws {
		if !p.peekAt(n).is(kw) {
			return false
		}
	}
	p.i += len(kws)
	return true
}

func (p *parser) acceptOp(op string) bool {
	if p.peek().isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expect(kws ...string) error {
	for _, kw := range kws {
		if !p.accept(kw) {
			return p.errHere()
		}
	}
	return nil
}

func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		return p.errHere()
	}
	return nil
}

// end fails unless every token has been consumed.
func (p *parser) end() error {
	if !p.eof() {
		return p.errHere()
	}
	return nil
}

// name consumes an identifier (bare or `quoted`).
func (p *parser) name() (string, error) {
	t := p.peek()
	if !t.isName() {
		return "", p.errHere()
	}
	p.i++
	return t.val2(), nil
}

// val2 is the identifier or string value of t.
func (t token) val2() string {
	if t.kind == tkIdent {
		return t.text
	}
	return t.val
}

// qualified consumes name or db.name; db defaults to the context database.
func (p *parser) qualified() (db, name string, err error) {
	name, err = p.name()
	if err != nil {
		return "", "", err
	}
	if p.peek().isOp(".") && p.peekAt(1).isName() {
		p.i++
		db = name
		name, _ = p.name()
		return db, name, nil
	}
	return p.ctx.DB, name, nil
}

// stringOrName consumes a string literal or identifier.
func (p *parser) stringOrName() (string, error) {
	t := p.peek()
	if t.kind == tkString || t.isName() {
		p.i++
		return t.val2(), nil
	}
	return "", p.errHere()
}

// integer consumes an integer literal.
func (p *parser) integer() (int64, error) {
	t := p.peek()
	if t.kind != tkNumber {
		return 0, p.errHere()
	}
	n, err := strconv.ParseInt(t.text, 10, 64)
	if err != nil {
		return 0, p.errHere()
	}
	p.i++
	return n, nil
}

// rest is the source text from the current token to the end.
func (p *parser) rest() string {
	if p.eof() {
		return ""
	}
	return strings.TrimSpace(p.sql[p.peek().pos:p.toks[len(p.toks)-1].end])
}

// channel consumes an optional FOR CHANNEL 'name'.
func (p *parser) channel() (string, error) {
	if !p.accept("FOR", "CHANNEL") {
		return "", nil
	}
	return p.stringOrName()
}

// statement dispatches on the leading keyword.
func (p *parser) statement() (Statement, error) {
	t := p.peek()
	if t.isOp("(") {
		return p.query()
	}
	if t.kind != tkIdent {
		return nil, p.errHere()
	}
	switch strings.ToUpper(t.text) {
	case "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "XA":
		return p.transaction()
	case "START":
		if p.peekAt(1).is("TRANSACTION") {
			return p.transaction()
		}
		return p.startStopReplica()
	case "STOP":
		return p.startStopReplica()
	case "USE":
		p.next()
		db, err := p.name()
		if err != nil {
			return nil, err
		}
		return &Use{DB: db}, p.end()
	case "CREATE":
		return p.create()
	case "DROP":
		return p.drop()
	case "ALTER":
		return p.alter()
	case "TRUNCATE":
		return p.truncate()
	case "RENAME":
		return p.renameTable()
	case "SET":
		return p.set()
	case "SHOW":
		return p.show()
	case "DESCRIBE", "DESC", "EXPLAIN":
		return p.describe()
	case "FLUSH":
		return p.flush()
	case "PURGE":
		return p.purge()
	case "RESET":
		return p.reset()
	case "CHANGE":
		return p.changeSource()
	case "GRANT":
		return p.grant()
	case "REVOKE":
		return p.revoke()
	case "SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "WITH", "VALUES", "TABLE":
		return p.query()
	case "DO":
		return p.do()
	case "LOCK", "UNLOCK":
		return p.lockTables()
	case "LOAD":
		return unsupported("LOAD DATA")
	case "CALL", "HANDLER", "PREPARE", "EXECUTE", "DEALLOCATE", "ANALYZE", "OPTIMIZE", "REPAIR",
		"CHECK", "CHECKSUM", "KILL", "INSTALL", "UNINSTALL", "SHUTDOWN", "RESTART", "CLONE", "IMPORT",
		"CACHE", "HELP", "BINLOG", "SIGNAL", "RESIGNAL", "GET", "DECLARE":
		return unsupported(strings.ToUpper(t.text))
	}
	return nil, p.errHere()
}

// do turns DO expr, ... into a SELECT whose result the caller discards.
func (p *parser) do() (Statement, error) {
	p.next()
	if p.eof() {
		return nil, p.errHere()
	}
	rw, err := newRewriter(p, p.i, len(p.toks))
	if err != nil {
		return nil, err
	}
	return &Query{Kind: Other, SQLite: "SELECT " + rw.emit(p.i, len(p.toks)), NumParams: rw.params}, nil
}
