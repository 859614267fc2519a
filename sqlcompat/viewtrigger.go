package sqlcompat

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/mysqlerr"
)

// Views and triggers are definitions in binlite_catalog (package catalog): a
// view is a row of its own, a trigger part of its table's row. Both are
// written by the DDL's own statements, so a replica replaying the DDL text
// writes the same definitions.
//
// A view also has a SQLite view of its name, so that tables and views share one
// namespace in SQLite as in MySQL; reading it fails (1235): every statement
// binlite runs reads a view through the compiler, which expands it into its
// query (compiler/view.go). A trigger's body is compiled here into the SQLite
// statements the engine installs as a SQLite trigger (engine/trigger.go).

// viewPlaceholder is the SQLite view standing for view name.
func viewPlaceholder(name string) string {
	msg := "This version of binlite doesn't yet support 'this statement on view " + name + "'"
	return "CREATE VIEW " + quoteIdent(name) + " AS SELECT NULL AS " + quoteIdent("view") +
		" WHERE binlite_fail(1235, " + sqlString(msg) + ")"
}

// definerClause parses [DEFINER = user[@host] | CURRENT_USER[()]].
func (p *parser) definerClause() (user, host string, err error) {
	user, host = p.ctx.User, p.ctx.Host
	if user == "" {
		user, host = "root", "localhost"
	}
	if !p.accept("DEFINER") {
		return user, host, nil
	}
	if err := p.expectOp("="); err != nil {
		return "", "", err
	}
	if p.accept("CURRENT_USER") {
		if p.acceptOp("(") {
			if err := p.expectOp(")"); err != nil {
				return "", "", err
			}
		}
		return user, host, nil
	}
	a, err := p.account()
	if err != nil {
		return "", "", err
	}
	return a.User, a.Host, nil
}

// createView parses CREATE [OR REPLACE] [ALGORITHM = x] [DEFINER = a] [SQL
// SECURITY x] VIEW [db.]v [(cols)] AS query [WITH [CASCADED|LOCAL] CHECK OPTION],
// and ALTER VIEW (alter set) with the same clauses. The current token is the
// first after CREATE or ALTER.
func (p *parser) createView(alter bool) (Statement, error) {
	d := &DDL{Op: CreateView, Original: strings.TrimSpace(p.sql), AlterView: alter}
	d.OrReplace = !alter && p.accept("OR", "REPLACE")
	v := &catalog.View{Algorithm: "UNDEFINED", Security: "DEFINER"}
	_, v.CollationConnection = p.sessionOf()
	var err error
	for !p.eof() && !p.peek().is("VIEW") {
		switch {
		case p.accept("ALGORITHM"):
			if err := p.expectOp("="); err != nil {
				return nil, err
			}
			w := strings.ToUpper(p.next().text)
			if w != "UNDEFINED" && w != "MERGE" && w != "TEMPTABLE" {
				p.i--
				return nil, p.errHere()
			}
			v.Algorithm = w
		case p.peek().is("DEFINER"):
			if v.DefinerUser, v.DefinerHost, err = p.definerClause(); err != nil {
				return nil, err
			}
		case p.accept("SQL", "SECURITY"):
			w := strings.ToUpper(p.next().text)
			if w != "DEFINER" && w != "INVOKER" {
				p.i--
				return nil, p.errHere()
			}
			v.Security = w
		default:
			return nil, p.errHere()
		}
	}
	if v.DefinerUser == "" {
		if v.DefinerUser, v.DefinerHost, err = p.definerClause(); err != nil {
			return nil, err
		}
	}
	if err := p.expect("VIEW"); err != nil {
		return nil, err
	}
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	if p.acceptOp("(") {
		for {
			c, err := p.name()
			if err != nil {
				return nil, err
			}
			v.Columns = append(v.Columns, c)
			if !p.acceptOp(",") {
				break
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	if err := p.expect("AS"); err != nil {
		return nil, err
	}
	if p.eof() {
		return nil, p.errHere()
	}
	end := len(p.toks)
	n := end - p.i
	switch {
	case n > 3 && p.toks[end-3].is("WITH") && p.toks[end-2].is("CHECK") && p.toks[end-1].is("OPTION"):
		v.CheckOption, end = "CASCADED", end-3
	case n > 4 && p.toks[end-4].is("WITH") && p.toks[end-2].is("CHECK") && p.toks[end-1].is("OPTION") &&
		(p.toks[end-3].is("CASCADED") || p.toks[end-3].is("LOCAL")):
		v.CheckOption, end = strings.ToUpper(p.toks[end-3].text), end-4
	}
	v.Select = strings.TrimSpace(p.sql[p.toks[p.i].pos:p.toks[end-1].end])
	if cs, _, ok := strings.Cut(v.CollationConnection, "_"); ok {
		v.CharsetClient = cs
	}
	if v.CollationConnection == "" {
		v.CharsetClient, v.CollationConnection = "utf8mb4", "utf8mb4_0900_ai_ci"
	}
	d.Def = &catalog.Table{Name: d.Table, View: v}
	enc, err := d.Def.Encode()
	if err != nil {
		return nil, mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
	}
	name := sqlString(d.Table)
	if d.OrReplace || d.AlterView {
		d.CatalogBefore = append(d.CatalogBefore, "DELETE FROM "+catalogTable+" WHERE name = "+name+" AND json_extract(def, '$.view') IS NOT NULL")
		d.SQLite = append(d.SQLite, "DROP VIEW IF EXISTS "+quoteIdent(d.Table))
	}
	d.CatalogBefore = append(d.CatalogBefore, "INSERT INTO "+catalogTable+" (name, def) VALUES ("+name+", "+sqlString(enc)+")")
	d.SQLite = append(d.SQLite, viewPlaceholder(d.Table))
	return d, nil
}

// dropView parses DROP VIEW [IF EXISTS] v, ... [RESTRICT|CASCADE].
func (p *parser) dropView() (Statement, error) {
	d := &DDL{Op: DropView, Original: strings.TrimSpace(p.sql), IfExists: p.accept("IF", "EXISTS")}
	what, err := p.tableList(d)
	if err != nil {
		return nil, err
	}
	if what != "" {
		return unsupported("DROP VIEW of " + what)
	}
	if !p.accept("RESTRICT") {
		p.accept("CASCADE")
	}
	for _, t := range d.Tables {
		d.SQLite = append(d.SQLite, "DROP VIEW IF EXISTS "+quoteIdent(t))
		d.CatalogAfter = append(d.CatalogAfter, "DELETE FROM "+catalogTable+" WHERE name = "+sqlString(t)+" AND json_extract(def, '$.view') IS NOT NULL")
	}
	return d, p.end()
}

// renameView is RENAME TABLE's SQLite for a view: SQLite renames no view, so its
// placeholder is made again under the new name.
func renameView(from, to string) []string {
	return []string{"DROP VIEW IF EXISTS " + quoteIdent(from), viewPlaceholder(to)}
}

// modeComment carries a CREATE TRIGGER's sql_mode in the text the binary log
// holds (MySQL's query events carry it beside the text), so that a replica or
// recovery compiles the body as the source did.
var modeComment = regexp.MustCompile(`^\s*(?:CREATE|ALTER)\s*/\* binlite sql_mode='([A-Z_,]*)' collation_connection='(\w*)' \*/`)

// SessionComment is the comment a logged CREATE TRIGGER or CREATE VIEW begins
// with after CREATE: the session's sql_mode and collation_connection, which
// MySQL keeps with the definition.
func SessionComment(sqlMode, collation string) string {
	return "/* binlite sql_mode='" + sqlMode + "' collation_connection='" + collation + "' */"
}

// sessionOf is what a replayed statement's SessionComment says, else the
// Context's.
func (p *parser) sessionOf() (sqlMode, collation string) {
	if m := modeComment.FindStringSubmatch(p.sql); m != nil {
		return m[1], m[2]
	}
	return p.ctx.SQLMode, p.ctx.Collation
}

// createTrigger parses CREATE [DEFINER = a] TRIGGER [IF NOT EXISTS] [db.]name
// {BEFORE|AFTER} {INSERT|UPDATE|DELETE} ON [db.]t FOR EACH ROW
// [{FOLLOWS|PRECEDES} other] body, and compiles the body (compiler.TriggerStatement).
func (p *parser) createTrigger() (Statement, error) {
	d := &DDL{Op: CreateTrigger, Original: strings.TrimSpace(p.sql)}
	tr := &catalog.Trigger{}
	tr.SQLMode, tr.CollationConnection = p.sessionOf()
	var err error
	if tr.DefinerUser, tr.DefinerHost, err = p.definerClause(); err != nil {
		return nil, err
	}
	if err := p.expect("TRIGGER"); err != nil {
		return nil, err
	}
	d.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	start := p.i
	tdb, name, err := p.qualified()
	if err != nil {
		return nil, err
	}
	named := p.i-start > 1 // db.name
	tr.Name = name
	switch {
	case p.accept("BEFORE"):
		tr.Timing = "BEFORE"
	case p.accept("AFTER"):
		tr.Timing = "AFTER"
	default:
		return nil, p.errHere()
	}
	switch w := strings.ToUpper(p.peek().text); w {
	case "INSERT", "UPDATE", "DELETE":
		p.next()
		tr.Event = w
	default:
		return nil, p.errHere()
	}
	if err := p.expect("ON"); err != nil {
		return nil, err
	}
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	if named && !strings.EqualFold(tdb, d.Schema) {
		return nil, mysqlerr.New(mysqlerr.ErTrgInWrongSchema, "Trigger in wrong schema")
	}
	if err := p.expect("FOR", "EACH", "ROW"); err != nil {
		return nil, err
	}
	order, other := "", ""
	if p.accept("FOLLOWS") {
		order = "FOLLOWS"
	} else if p.accept("PRECEDES") {
		order = "PRECEDES"
	}
	if order != "" {
		if other, err = p.name(); err != nil {
			return nil, err
		}
	}
	if p.eof() {
		return nil, p.errHere()
	}
	tr.Body = strings.TrimSpace(p.sql[p.peek().pos:p.toks[len(p.toks)-1].end])
	if cs, _, ok := strings.Cut(tr.CollationConnection, "_"); ok {
		tr.CharsetClient = cs
	}
	if tr.CollationConnection == "" {
		tr.CharsetClient, tr.CollationConnection = "utf8mb4", "utf8mb4_0900_ai_ci"
	}
	d.Trigger = tr

	var def *catalog.Table
	if p.ctx.TableDef != nil {
		def = p.ctx.TableDef(d.Schema, d.Table)
	}
	switch {
	case def.IsView():
		return nil, mysqlerr.New(mysqlerr.ErWrongObject, "'%s.%s' is not BASE TABLE", d.Schema, d.Table)
	case def == nil && p.ctx.TableExists != nil && p.ctx.TableExists(d.Schema, d.Table):
		return unsupported("CREATE TRIGGER on a table made before binlite kept table definitions")
	case def == nil:
		return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", d.Schema, d.Table)
	}
	if old, _ := def.Trigger(tr.Name); old != nil {
		if d.IfNotExists {
			return d, nil // nothing to do; the session notes it
		}
		return nil, mysqlerr.New(mysqlerr.ErTrgAlreadyExists, "Trigger already exists")
	}
	stmts, err := p.triggerBody(tr, def, d.Schema)
	if err != nil {
		return nil, err
	}
	tr.SQLite = strings.Join(stmts, " ")

	next := *def
	next.Triggers = append([]catalog.Trigger(nil), def.Triggers...)
	at := len(next.Triggers)
	if order != "" {
		o, i := def.Trigger(other)
		if o == nil || o.Timing != tr.Timing || o.Event != tr.Event {
			return nil, mysqlerr.New(mysqlerr.ErReferencedTrgDoesNotExist, "Referenced trigger '%s' for the given action time and event type does not exist", other)
		}
		at = i
		if order == "FOLLOWS" {
			at = i + 1
		}
	}
	next.Triggers = append(next.Triggers[:at], append([]catalog.Trigger{*tr}, next.Triggers[at:]...)...)
	enc, err := next.Encode()
	if err != nil {
		return nil, mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
	}
	// Created is the time the statement runs, from SQLite's clock (centiseconds,
	// as MySQL shows it).
	created := "json_set(" + sqlString(enc) + ", '$.triggers[" + strconv.Itoa(at) + "].created', substr(strftime('%Y-%m-%d %H:%M:%f', 'now'), 1, 22))"
	d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = "+created+" WHERE name = "+sqlString(d.Table))
	return d, nil
}

// triggerBody compiles a trigger's body: one statement, or BEGIN ... END around
// statements each ending with ';'.
func (p *parser) triggerBody(tr *catalog.Trigger, def *catalog.Table, db string) ([]string, error) {
	notYet := func(what string) error {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s in a trigger'", what)
	}
	body := []string{tr.Body}
	if first := p.peek(); first.is("BEGIN") {
		last := p.toks[len(p.toks)-1]
		if !last.is("END") || len(p.toks)-p.i < 2 {
			return nil, syntaxError(p.sql, last.pos)
		}
		body = Split(p.sql[first.end:last.pos])
	}
	cat := triggerCatalog{p.ctx}
	tr.Refs = nil
	var out []string
	for _, s := range body {
		toks, lerr := lex(s)
		if lerr != nil || len(toks) == 0 {
			return nil, syntaxError(s, 0)
		}
		switch w := strings.ToUpper(toks[0].text); {
		case toks[0].kind != tkIdent:
			return nil, syntaxError(s, 0)
		case w == "SET" && len(toks) > 2 && (toks[1].is("NEW") || toks[1].is("OLD")) && toks[2].isOp("."):
			if toks[1].is("OLD") || tr.Timing == "AFTER" {
				row := strings.ToUpper(toks[1].text)
				if tr.Timing == "AFTER" {
					return nil, mysqlerr.New(mysqlerr.ErTrgCantChangeRow, "Updating of %s row is not allowed in after trigger", row)
				}
				return nil, mysqlerr.New(mysqlerr.ErTrgCantChangeRow, "Updating of %s row is not allowed in trigger", row)
			}
			return nil, notYet("SET NEW.col")
		case w == "INSERT" || w == "REPLACE" || w == "UPDATE" || w == "DELETE":
		case w == "SELECT" || w == "WITH" || w == "TABLE" || w == "VALUES":
			return nil, mysqlerr.New(mysqlerr.ErSpNoRetset, "Not allowed to return a result set from a trigger")
		default:
			return nil, notYet(w)
		}
		stmts, tables, err := compiler.TriggerStatement(s, compiler.Trigger{DB: db, Table: def, Event: tr.Event,
			Mode: compiler.ModeOf(tr.SQLMode), Collation: tr.CollationConnection}, cat)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			if strings.EqualFold(t, def.Name) {
				// MySQL refuses it when the trigger fires (1442); so does the engine.
				continue
			}
			if def := cat.def(db, t); def.IsView() {
				return nil, notYet("a write into a view")
			}
		}
		tr.Refs = append(tr.Refs, tables...)
		out = append(out, stmts...)
	}
	return out, nil
}

// triggerCatalog is the compiler's view of the tables through the Context.
type triggerCatalog struct{ ctx *Context }

func (c triggerCatalog) def(schema, name string) *catalog.Table {
	if c.ctx.TableDef == nil {
		return nil
	}
	return c.ctx.TableDef(schema, name)
}

func (c triggerCatalog) Table(schema, name string) (*catalog.Table, bool) {
	if def := c.def(schema, name); def != nil {
		return def, true
	}
	return nil, c.ctx.TableExists != nil && c.ctx.TableExists(schema, name)
}

// dropTrigger parses DROP TRIGGER [IF EXISTS] [db.]name. Its table is found by the
// statement itself (the trigger's name is unique in its schema).
func (p *parser) dropTrigger() (Statement, error) {
	d := &DDL{Op: DropTrigger, Original: strings.TrimSpace(p.sql), IfExists: p.accept("IF", "EXISTS")}
	var name string
	var err error
	if d.Schema, name, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Trigger = &catalog.Trigger{Name: name}
	match := "FROM json_each(" + catalogTable + ".def, '$.triggers') AS j WHERE lower(json_extract(j.value, '$.name')) = lower(" + sqlString(name) + ")"
	d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = json_remove(def, (SELECT j.fullkey "+match+")) WHERE EXISTS (SELECT 1 "+match+")")
	return d, p.end()
}
