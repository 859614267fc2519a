package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/users"
)

// stmt is a server-side prepared statement: parsed and translated once, executed
// with each new set of arguments.
type stmt struct {
	s       *Session
	text    string
	parsed  sqlcompat.Statement
	nparams int
	cols    []mp.Column
	typed   []bool // cols[i] has the compiler's type (see Execute)
	// defs are the table definitions the translation read (defaults, stored
	// forms of literals): a DDL that changes one makes Execute translate again.
	defs []usedDef
}

type usedDef struct {
	schema, table string
	def           *catalog.Table
}

// Prepare handles COM_STMT_PREPARE.
func (s *Session) Prepare(sql string) (mp.Stmt, error) {
	sql = s.respell(sql)
	ctx := s.parseCtx()
	volatile := readsSessionState(ctx)
	p := &stmt{s: s, text: sql}
	st, err := p.parse(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.authorize(sql, st); err != nil {
		return nil, err // checked again at each execution: grants may change
	}
	if *volatile {
		// Parse substitutes @@vars, @vars and DATABASE(), LAST_INSERT_ID(), ...
		// with their current values: such a statement is parsed again at each
		// execution, or it would return the values of the moment it was prepared.
		p.parsed = nil
	}
	if q, ok := st.(*sqlcompat.Query); ok {
		p.nparams = q.NumParams
		if q.ReadOnly || q.Kind == sqlcompat.Select {
			if cq, _, err := s.compiled(sql, q, s.db); err == nil {
				q = cq
			}
			p.cols = s.describe(q)
			if q.Kind == sqlcompat.Select {
				p.typed = s.typeResult(sql, &mp.Result{Columns: p.cols})
			}
		}
	} else if strings.Contains(sql, "?") {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'placeholders in %s'", firstWords(sql))
	}
	return p, nil
}

// parse translates the statement, noting the table definitions it reads.
func (p *stmt) parse(ctx *sqlcompat.Context) (sqlcompat.Statement, error) {
	p.defs = p.defs[:0]
	if lookup := ctx.TableDef; lookup != nil {
		ctx.TableDef = func(schema, table string) *catalog.Table {
			def := lookup(schema, table)
			p.defs = append(p.defs, usedDef{schema, table, def})
			return def
		}
	}
	st, err := sqlcompat.Parse(p.text, ctx)
	if _, unsupported := st.(*sqlcompat.Unsupported); err != nil || unsupported {
		if q, ok, cerr := p.s.compiledOnly(p.text); ok {
			st, err = q, cerr
		}
	}
	if err == nil {
		p.parsed = st
	}
	return st, err
}

// stale reports whether a definition the translation read has changed since.
func (p *stmt) stale() bool {
	tableDef := engineCatalog{p.s.env.Engine}.tableDef
	for _, u := range p.defs {
		if tableDef(u.schema, u.table) != u.def {
			return true
		}
	}
	return false
}

// readsSessionState wraps ctx's value callbacks so that the returned flag is set
// when parsing consults any of them.
func readsSessionState(ctx *sqlcompat.Context) *bool {
	used := new(bool)
	sysVar, userVar, fn := ctx.SysVar, ctx.UserVar, ctx.Func
	ctx.SysVar = func(name string, global bool) (any, bool) {
		*used = true
		return sysVar(name, global)
	}
	ctx.UserVar = func(name string) any {
		*used = true
		return userVar(name)
	}
	ctx.Func = func(name string) (any, bool) {
		v, ok := fn(name)
		if ok {
			*used = true
		}
		return v, ok
	}
	return used
}

// describe finds a query's result columns without running it (LIMIT 0 over the
// query, with NULL parameters), so prepare and execute send the same metadata.
func (s *Session) describe(q *sqlcompat.Query) []mp.Column {
	db := s.db
	if isVirtualSchema(db) {
		db = ""
	}
	args := make([]any, q.NumParams)
	rows, err := s.env.Engine.Query(db, q.Schemas, "SELECT * FROM ("+q.SQLite+") LIMIT 0", args)
	if err != nil {
		return nil
	}
	return columns(rows, db, false)
}

func (p *stmt) NumParams() int       { return p.nparams }
func (p *stmt) Columns() []mp.Column { return p.cols }
func (p *stmt) Close()               {}

// Execute runs the prepared statement with args.
func (p *stmt) Execute(args []any) (*mp.Result, error) {
	s := p.s
	s.env.Stats.Questions.Add(1)
	s.setInfo(p.text)
	defer s.setInfo("")
	if p.parsed != nil && p.stale() {
		if _, err := p.parse(s.parseCtx()); err != nil {
			s.env.Stats.Errors.Add(1)
			return nil, err
		}
	}
	res, err := s.run(p.text, p.parsed, args)
	if err != nil {
		s.env.Stats.Errors.Add(1)
		return nil, err
	}
	if res.Columns != nil && p.cols != nil && len(p.cols) == len(res.Columns) {
		// The metadata sent at prepare time, except where the compiler's type did
		// not fit this execution's values (the execution then says what it sends).
		for i := range res.Columns {
			unsigned := res.Columns[i].Flags&^p.cols[i].Flags&mp.UnsignedFlag != 0 // values from 2^63 (textResult)
			if (i >= len(p.typed) || !p.typed[i] || res.Columns[i].Type == p.cols[i].Type) && !unsigned {
				res.Columns[i] = p.cols[i]
			}
		}
	}
	return res, nil
}

// FieldList handles COM_FIELD_LIST (the mariadb CLI's column completion).
func (s *Session) FieldList(table, wildcard string) ([]mp.Column, error) {
	if internalTable(table) {
		return nil, noSuchTable(s.db, table)
	}
	if s.db != "" && !isVirtualSchema(s.db) && s.temps.def(s.db, table) == nil && !s.canSeeTable(s.grants(), s.db, table) {
		return nil, s.tableDenied(users.Select, s.db, table)
	}
	t, err := s.table(s.db, table)
	if err != nil {
		return nil, err
	}
	var cols []mp.Column
	for _, c := range t.Columns {
		if wildcard != "" && !like(wildcard, c.Name) {
			continue
		}
		typ, length, cs, flags, dec := columnType(c.DeclType)
		cols = append(cols, mp.Column{Schema: s.db, Table: table, OrgTable: table, Name: c.Name, OrgName: c.Name, Type: typ, Length: length, Charset: cs, Flags: flags, Decimals: dec})
	}
	return cols, nil
}
