package sqlcompat

import (
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // literal values in the AST

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
)

// Text columns declare their MySQL collation in SQLite (COLLATE
// utf8mb4_general_ci, see package collation), so that SQLite compares, indexes,
// sorts and groups their values as MySQL does. The collation is the one the
// catalog resolves from the column, the table and the database default; a
// replica replaying the DDL text resolves the same one.

// tableDefinition is the catalog definition of CREATE TABLE text, built from
// MySQL's grammar (TiDB's parser) with the expression defaults cp parsed on their
// own: nil, nil if that grammar does not take the statement (binlite's own
// parser did).
func tableDefinition(cp *createParts, sql, defaultCollation string) (*catalog.Table, error) {
	stmts, _, err := tidb.New().Parse(cp.catalogText(sql), "", "")
	if err != nil || len(stmts) != 1 {
		return nil, nil
	}
	ct, ok := stmts[0].(*ast.CreateTableStmt)
	if !ok || ct.ReferTable != nil || ct.Select != nil {
		return nil, nil
	}
	if err := cp.attachDefaults(sql, ct); err != nil {
		return nil, err
	}
	def, err := catalog.Build(ct, defaultCollation)
	if err != nil {
		if _, isMySQL := mysqlerr.As(err); isMySQL {
			return nil, err
		}
		return nil, mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
	}
	return def, nil
}

// setCollations gives each text column of a new table its SQLite collation:
// from def when the grammar built one, else from the column's own words and the
// table's default (tableCollation).
func setCollations(p *parser, cols []*column, def *catalog.Table, tableCollation string) error {
	for _, c := range cols {
		if def != nil {
			if dc, ok := def.Column(c.name); ok {
				c.collate = dc.Type.SQLiteCollation()
				continue
			}
		}
		coll, err := p.columnCollation(c, tableCollation)
		if err != nil {
			return err
		}
		c.collate = coll
	}
	return nil
}

// columnCollation is the SQLite collation of column c (defined by tokens
// c.lo..c.hi) in a table whose default collation is tableCollation: the
// catalog's rules on the column alone, or, where MySQL's grammar does not take
// it, the column's COLLATE, its character set's default, or the table's.
func (p *parser) columnCollation(c *column, tableCollation string) (string, error) {
	if !c.textual() {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("CREATE TABLE t (")
	for _, t := range p.toks[c.lo:c.hi] {
		b.WriteString(t.ws)
		b.WriteString(p.sql[t.pos:t.end])
	}
	b.WriteString(")")
	// (A column CHECK naming another column fails alone: the words decide then.)
	if def, err := tableDefinition(&createParts{}, b.String(), tableCollation); err == nil && def != nil && len(def.Columns) == 1 {
		return def.Columns[0].Type.SQLiteCollation(), nil
	}
	name := collation.Canonical(c.collation)
	if name == "" {
		switch {
		case c.charset != "":
			name = catalog.DefaultCollationOf(c.charset)
		case tableCollation != "":
			name = collation.Canonical(tableCollation)
		default:
			name = catalog.DefaultCollation
		}
		if cs, _, _ := strings.Cut(name, "_"); c.binaryAttr {
			name = cs + "_bin"
		}
	}
	if c.charset != "" && catalog.DefaultCollationOf(c.charset) == "" {
		return "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CHARACTER SET %s'", c.charset)
	}
	if err := catalog.CheckCollation(name); err != nil {
		return "", err
	}
	coll, _ := collation.Lookup(name)
	if c.charset != "" && catalog.DefaultCollationOf(c.charset) != catalog.DefaultCollationOf(coll.Charset) {
		return "", mysqlerr.New(mysqlerr.ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET '%s'", coll.Name, c.charset)
	}
	return coll.SQLiteName(), nil
}

// textual reports whether the column's MySQL type holds text, as far as its
// words say.
func (c *column) textual() bool {
	switch c.base {
	case "CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "ENUM", "SET":
		return !strings.EqualFold(c.charset, "binary")
	}
	return false
}

// tableCollation is the default collation of an existing table: its catalog
// definition's, else the database default (a replica resolves the same from
// its own catalog, which the same DDL made).
func (p *parser) tableCollation(schema, table string) string {
	if p.ctx.TableDef != nil {
		if def := p.ctx.TableDef(schema, table); def != nil {
			return def.Collation
		}
	}
	return p.ctx.DefaultCollation
}

// tableOptionCollation is the default collation CREATE TABLE's options after the
// column list (tokens from i) give the table, or dflt.
func tableOptionCollation(toks []token, i int, dflt string) string {
	var charset, coll string
	for ; i < len(toks); i++ {
		switch {
		case toks[i].is("COLLATE"):
			coll = optionValue(toks, i+1)
		case toks[i].is("CHARSET"), toks[i].is("CHARACTER") && i+1 < len(toks) && toks[i+1].is("SET"):
			if toks[i].is("CHARACTER") {
				i++
			}
			charset = optionValue(toks, i+1)
		}
	}
	switch {
	case coll != "":
		return coll
	case charset != "":
		return catalog.DefaultCollationOf(charset)
	}
	return dflt
}

// optionValue is the value of an option whose name ends before token i: [=] value.
func optionValue(toks []token, i int) string {
	if i < len(toks) && toks[i].isOp("=") {
		i++
	}
	if i < len(toks) {
		return toks[i].val2()
	}
	return ""
}
