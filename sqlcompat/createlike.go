package sqlcompat

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// createLike compiles CREATE TABLE [IF NOT EXISTS] t LIKE src (or (LIKE src)),
// p at LIKE: the CREATE TABLE of src's definition, as MySQL copies it: columns,
// keys, CHECK constraints (named anew: t_chk_1 ...), comments and table options,
// but no foreign keys and no AUTO_INCREMENT counter. The binary log carries the
// statement itself; a replica copies its own definition of src, the same one.
func (p *parser) createLike(d *DDL) (Statement, error) {
	paren := p.acceptOp("(")
	if err := p.expect("LIKE"); err != nil {
		return nil, err
	}
	schema, src, err := p.qualified()
	if err != nil {
		return nil, err
	}
	if paren {
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	if schema != d.Schema {
		return unsupported("CREATE TABLE ... LIKE a table of another database")
	}
	var def *catalog.Table
	if p.ctx.TableDef != nil {
		def = p.ctx.TableDef(schema, src)
	}
	if def == nil {
		if p.ctx.TableExists != nil && !p.ctx.TableExists(schema, src) {
			return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", schema, src)
		}
		return unsupported("CREATE TABLE ... LIKE a table binlite keeps no definition of")
	}
	var items []string
	for i := range def.Columns {
		items = append(items, def.ColumnDefinition(&def.Columns[i]))
	}
	for _, ix := range def.Indexes {
		items = append(items, ix.Definition())
	}
	for _, c := range def.SortedChecks() {
		c.Name = "" // MySQL generates every name (they are the schema's)
		s := "CHECK (" + c.Expr + ")"
		if c.NotEnforced {
			s += " NOT ENFORCED"
		}
		items = append(items, s)
	}
	opts := *def
	head := "CREATE TABLE "
	if d.IfNotExists {
		head += "IF NOT EXISTS "
	}
	text := head + quoteMySQL(d.Table) + " (\n  " + strings.Join(items, ",\n  ") + "\n) " + opts.Options(0)
	like, err := p.createFrom(text, d.Schema, func(t *catalog.Table) {
		for i := range t.Columns {
			if c, ok := def.Column(t.Columns[i].Name); ok {
				t.Columns[i].NoDefault = c.NoDefault
			}
		}
	})
	if err != nil {
		return nil, err
	}
	like.Original, like.Schema, like.Tables = d.Original, d.Schema, d.Tables
	return like, nil
}
