package session

import (
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// CREATE TABLE ... SELECT makes the table MySQL makes from the query's result
// columns (compiler.ColumnType; a column the query reads from a table keeps that
// column's definition: type, NULL or NOT NULL, DEFAULT, character set and
// collation, comment), after the statement's own definitions, and fills it with
// INSERT ... SELECT in the same transaction. The binary log carries the CREATE
// TABLE of the table made (not the query) and the rows as row events, one
// transaction, as MySQL 8.4 logs it under binlog_format=ROW: a replica makes the
// same table from the same text and applies the same rows, whatever its own
// data or the query's functions (NOW(), RAND()) would give.

// createSelect turns CREATE TABLE ... SELECT into the CREATE TABLE of its table and
// the INSERT that fills it, compiled for schema db.
func (s *Session) createSelect(db string, d *sqlcompat.DDL) (*sqlcompat.DDL, string, error) {
	cs := d.Select
	if s.env.Plans == nil {
		return nil, "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE TABLE ... SELECT'")
	}
	cat := engineCatalog{s.env.Engine}
	notYet := func(what string) error {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE TABLE ... SELECT %s'", what)
	}
	stmts, _, err := tidb.New().Parse(cs.Query, "", "")
	if err != nil || len(stmts) != 1 {
		return nil, "", notYet("of this query")
	}
	rs, ok := stmts[0].(ast.ResultSetNode)
	if !ok {
		return nil, "", notYet("of this query")
	}
	plan := s.env.Plans.Query(cs.Query, db, cat)
	if plan.Err != nil {
		return nil, "", plan.Err
	}
	fields, err := resultFields(rs, db, cat)
	if err != nil {
		return nil, "", err
	}
	if len(plan.Columns) != len(fields) {
		return nil, "", notYet("whose result columns binlite does not know")
	}
	// The statement's own definitions first, for their names.
	base, err := sqlcompat.Parse("CREATE TABLE "+quoteName(d.Table)+" ("+orDummy(cs.Definitions)+") "+cs.Options, s.ctxFor(db))
	if err != nil {
		return nil, "", err
	}
	bd, ok := base.(*sqlcompat.DDL)
	if !ok || bd.Def == nil {
		return nil, "", notYet("with these definitions")
	}
	table := &catalog.Table{Charset: bd.Def.Charset, Collation: bd.Def.Collation}
	defs := []string{}
	if cs.Definitions != "" {
		defs = append(defs, cs.Definitions)
	}
	var names []string
	seen := map[string]bool{}
	for i, f := range fields {
		k := strings.ToLower(f.name)
		if seen[k] {
			return nil, "", mysqlerr.New(mysqlerr.ErDupFieldName, "Duplicate column name '%s'", f.name)
		}
		seen[k] = true
		names = append(names, quoteName(f.name))
		if cs.Definitions != "" {
			if _, defined := bd.Def.Column(f.name); defined {
				continue
			}
		}
		col, err := resultColumn(f, plan.Columns[i], s.compileVars().coll)
		if err != nil {
			return nil, "", err
		}
		defs = append(defs, table.ColumnDefinition(&col))
	}
	text := "CREATE TABLE "
	if d.IfNotExists {
		text += "IF NOT EXISTS "
	}
	text += quoteName(d.Table) + " (" + strings.Join(defs, ", ") + ") " + cs.Options
	st, err := sqlcompat.Parse(text, s.ctxFor(db))
	if err != nil {
		return nil, "", err
	}
	made, ok := st.(*sqlcompat.DDL)
	if !ok || made.Def == nil {
		return nil, "", notYet("making this table")
	}
	verb := "INSERT INTO "
	switch cs.Duplicates {
	case "IGNORE":
		verb = "INSERT IGNORE INTO "
	case "REPLACE":
		verb = "REPLACE INTO "
	}
	insert := verb + quoteName(d.Table) + " (" + strings.Join(names, ", ") + ") " + cs.Query
	cv := s.compileVars()
	em, err := s.env.Plans.EmitWith(insert, db, cv.coll, cv.mode, cv.tz, withTable{cat, db, made.Def})
	if err != nil {
		return nil, "", err
	}
	if em == nil {
		return nil, "", notYet("of a query binlite does not compile yet")
	}
	made.Original = text
	return made, em.SQL, nil
}

// orDummy is the definitions of a CREATE TABLE whose definitions may be empty
// (only its options matter then).
func orDummy(defs string) string {
	if defs == "" {
		return "binlite_none INT"
	}
	return defs
}

// ctxFor is the parse context of a statement run in schema db.
func (s *Session) ctxFor(db string) *sqlcompat.Context {
	ctx := s.parseCtx()
	ctx.DB = db
	return ctx
}

// withTable is a catalog that also has the table a CREATE TABLE ... SELECT makes.
type withTable struct {
	engineCatalog
	db  string
	def *catalog.Table
}

func (w withTable) Table(schema, name string) (*catalog.Table, bool) {
	if strings.EqualFold(schema, w.db) && strings.EqualFold(name, w.def.Name) {
		return w.def, true
	}
	return w.engineCatalog.Table(schema, name)
}

// resultField is a result column of the query: its name, and the table column it
// is, if it is one.
type resultField struct {
	name string
	col  *catalog.Column
}

// resultFields names the query's result columns as MySQL names them (the alias,
// the column's name, else the expression as written) and finds the table columns
// among them; SELECT * and t.* stand for the columns of the tables read.
func resultFields(rs ast.ResultSetNode, db string, cat engineCatalog) ([]resultField, error) {
	sel, ok := rs.(*ast.SelectStmt)
	if !ok {
		if so, isSet := rs.(*ast.SetOprStmt); isSet && so.SelectList != nil && len(so.SelectList.Selects) > 0 {
			if first, isSel := so.SelectList.Selects[0].(*ast.SelectStmt); isSel {
				fs, err := resultFields(first, db, cat)
				for i := range fs {
					fs[i].col = nil // a union's column is not one table's
				}
				return fs, err
			}
		}
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE TABLE ... SELECT of this query'")
	}
	type source struct {
		alias string
		def   *catalog.Table
	}
	var sources []source
	if sel.From != nil {
		var walk func(n ast.ResultSetNode)
		walk = func(n ast.ResultSetNode) {
			switch x := n.(type) {
			case *ast.Join:
				walk(x.Left)
				if x.Right != nil {
					walk(x.Right)
				}
			case *ast.TableSource:
				tn, isName := x.Source.(*ast.TableName)
				if !isName {
					sources = append(sources, source{alias: x.AsName.O})
					return
				}
				schema := tn.Schema.O
				if schema == "" {
					schema = db
				}
				def, _ := cat.Table(schema, tn.Name.O)
				alias := x.AsName.O
				if alias == "" {
					alias = tn.Name.O
				}
				sources = append(sources, source{alias: alias, def: def})
			}
		}
		walk(sel.From.TableRefs)
	}
	find := func(table, column string) *catalog.Column {
		for _, src := range sources {
			if src.def == nil || table != "" && !strings.EqualFold(src.alias, table) {
				continue
			}
			if c, ok := src.def.Column(column); ok {
				return c
			}
		}
		return nil
	}
	var out []resultField
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			found := false
			for _, src := range sources {
				if f.WildCard.Table.O != "" && !strings.EqualFold(src.alias, f.WildCard.Table.O) {
					continue
				}
				if src.def == nil {
					return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE TABLE ... SELECT * of a derived table'")
				}
				for i := range src.def.Columns {
					if !src.def.Columns[i].Invisible {
						out = append(out, resultField{name: src.def.Columns[i].Name, col: &src.def.Columns[i]})
					}
				}
				found = true
			}
			if !found {
				return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE TABLE ... SELECT * here'")
			}
			continue
		}
		rf := resultField{name: f.AsName.O}
		if cn, isCol := f.Expr.(*ast.ColumnNameExpr); isCol {
			rf.col = find(cn.Name.Table.O, cn.Name.Name.O)
			if rf.name == "" {
				rf.name = cn.Name.Name.O
			}
		}
		if rf.name == "" {
			rf.name = f.Text()
		}
		out = append(out, rf)
	}
	return out, nil
}

// resultColumn is the column CREATE TABLE ... SELECT makes for result column f
// of type ct: the table column's own definition, without what MySQL does not
// carry over (AUTO_INCREMENT, generation, ON UPDATE); else the result type's,
// NOT NULL with the type's zero default when the value cannot be NULL. Text an
// expression makes is in the connection's collation (coll), as in MySQL.
func resultColumn(f resultField, ct compiler.ColType, coll string) (catalog.Column, error) {
	if f.col != nil {
		c := *f.col
		c.Name = f.name
		if c.AutoIncrement && c.Default == nil {
			c.Default = &catalog.Default{Lit: "0"}
		}
		c.AutoIncrement, c.Generated, c.OnUpdate, c.DefaultSupplied, c.Invisible = false, nil, "", false, false
		return c, nil
	}
	ty, ok := compiler.ColumnType(ct)
	if !ok {
		return catalog.Column{}, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE TABLE ... SELECT of a result column of this type (%s)'", f.name)
	}
	if ty.IsTextual() && catalog.CharsetOf(coll) == ty.Charset {
		ty.Collation = coll
	}
	c := catalog.Column{Name: f.name, Type: ty, Nullable: ct.Flags&mp.NotNullFlag == 0}
	if !c.Nullable {
		switch {
		case ty.IsTextual() && !ty.IsBlobLike():
			c.Default = &catalog.Default{Lit: ""}
		case ty.Base == "decimal", strings.HasSuffix(ty.Base, "int"), ty.Base == "float", ty.Base == "double":
			c.Default = &catalog.Default{Lit: "0"}
		}
	}
	return c, nil
}

// quoteName quotes a MySQL identifier.
func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
