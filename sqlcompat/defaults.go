package sqlcompat

import (
	"sort"
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Column defaults and generated columns in DDL (see catalog/defaults.go for the
// design): CREATE TABLE declares in SQLite only the defaults SQLite can hold,
// ALTER TABLE ... ALTER COLUMN ... SET/DROP DEFAULT changes the catalog alone.

// createParts is a CREATE TABLE as binlite's parser read it. It is rendered again
// once the MySQL definition is built (adoptDefinition): only the definition says
// which defaults SQLite can hold and how a generated value is stored.
type createParts struct {
	temp        bool
	cols        []*column
	idx         []*indexDef
	checks, fks []string
}

// catalogText is the statement as TiDB's grammar takes it. The grammar reads only
// literals and function calls as defaults, so each DEFAULT (expression) becomes
// DEFAULT NULL here and is parsed on its own (attachDefaults).
func (cp *createParts) catalogText(sql string) string {
	var ranges [][2]int
	for _, c := range cp.cols {
		if c.defExpr != [2]int{} {
			ranges = append(ranges, c.defExpr)
		}
	}
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] > ranges[j][0] })
	for _, r := range ranges {
		sql = sql[:r[0]] + "NULL" + sql[r[1]:]
	}
	return sql
}

// attachDefaults puts each DEFAULT (expression) of sql, parsed, into ct.
func (cp *createParts) attachDefaults(sql string, ct *ast.CreateTableStmt) error {
	for _, c := range cp.cols {
		if c.defExpr == [2]int{} {
			continue
		}
		e, err := parseExpr(sql[c.defExpr[0]:c.defExpr[1]])
		if err != nil {
			return err
		}
		if _, ok := e.(*ast.ParenthesesExpr); !ok {
			e = &ast.ParenthesesExpr{Expr: e}
		}
		for _, cd := range ct.Cols {
			if !strings.EqualFold(cd.Name.Name.O, c.name) {
				continue
			}
			for _, o := range cd.Options {
				if o.Tp == ast.ColumnOptionDefaultValue {
					o.Expr = e
				}
			}
		}
	}
	return nil
}

// parseExpr parses one MySQL expression with TiDB's grammar.
func parseExpr(text string) (ast.ExprNode, error) {
	stmts, _, err := tidb.New().Parse("SELECT "+text, "", "")
	if err != nil || len(stmts) != 1 {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the default %s'", text)
	}
	sel, ok := stmts[0].(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil || sel.From != nil {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the default %s'", text)
	}
	return sel.Fields.Fields[0].Expr, nil
}

// adoptDefinition renders the SQLite table again from def: a default as the
// column stores it, none where the INSERT writes it (an expression that reads
// other columns: def's column is marked DefaultSupplied), a generated DECIMAL
// rounded to its scale as MySQL stores it.
func (cp *createParts) adoptDefinition(d *DDL, def *catalog.Table) error {
	pk, _ := def.PrimaryKey()
	for _, c := range cp.cols {
		dc, ok := def.Column(c.name)
		if !ok {
			continue
		}
		if dc.Default != nil && c.defExpr != [2]int{} {
			dc.Default.SQLite = c.def
			dc.DefaultSupplied = len(dc.Default.Refs) > 0
		}
		if dc.Default != nil {
			c.def = dc.SQLiteDefault()
		}
		if dc.Generated != nil {
			if pk != nil {
				for _, p := range pk.Parts {
					if strings.EqualFold(p.Column, dc.Name) {
						return (&Unsupported{What: "a generated column in the PRIMARY KEY"}).Err()
					}
				}
			}
			if dc.Type.Base == "decimal" && c.gen != "" {
				c.gen = "(round(" + c.gen + ", " + itoa(dc.Type.Scale) + "))"
			}
		}
	}
	return buildCreateTable(d, cp.temp, cp.cols, cp.idx, cp.checks, cp.fks)
}

// alterDefault is one ALTER [COLUMN] c SET DEFAULT v | DROP DEFAULT.
type alterDefault struct {
	column string
	drop   bool
	text   string // v as written
	sqlite string // v translated, when it is an expression in parentheses
}

// alterColumnDefault parses ALTER [COLUMN] c SET DEFAULT v | DROP DEFAULT at sp.
func (sp *parser) alterColumnDefault(rw *rewriter) (*alterDefault, string, error) {
	sp.next() // ALTER
	sp.accept("COLUMN")
	name, err := sp.name()
	if err != nil {
		return nil, "", err
	}
	ad := &alterDefault{column: name}
	switch {
	case sp.accept("DROP", "DEFAULT"):
		ad.drop = true
	case sp.accept("SET", "DEFAULT"):
		if sp.eof() {
			return nil, "", sp.errHere()
		}
		from := sp.i
		paren := sp.peek().isOp("(")
		v, err := sp.defaultValue(rw)
		if err != nil {
			return nil, "", err
		}
		ad.text = sp.sql[sp.toks[from].pos:sp.toks[sp.i-1].end]
		if paren {
			ad.sqlite = v
		}
	case sp.peek().is("SET"):
		return nil, "ALTER TABLE ... ALTER COLUMN ... SET " + strings.ToUpper(sp.peekAt(1).text), nil
	default:
		return nil, "", sp.errHere()
	}
	return ad, "", nil
}

// alterDefaultsCatalog turns ALTER COLUMN ... SET/DROP DEFAULT into the catalog
// statements that change the definition (binlite_alter_default, see
// catalog.AlterDefaultJSON). The SQLite table is left as it is: its columns'
// defaults are then written by the INSERT. On a session the change is tried on the
// current definition first, so the client gets MySQL's error (1067, 1054, ...).
func alterDefaultsCatalog(d *DDL, ctx *Context) error {
	if len(d.SQLite) > 0 {
		return (&Unsupported{What: "ALTER TABLE ... ALTER COLUMN ... DEFAULT with other changes"}).Err()
	}
	var def *catalog.Table
	if ctx.TableDef != nil {
		if def = ctx.TableDef(d.Schema, d.Table); def == nil {
			return (&Unsupported{What: "ALTER TABLE ... ALTER COLUMN ... DEFAULT on a table altered before"}).Err()
		}
		enc, err := def.Encode()
		if err != nil {
			return mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
		}
		if def, err = catalog.Decode(enc); err != nil { // a copy to try the changes on
			return mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
		}
	}
	for _, ad := range d.defaults {
		spec := ""
		if !ad.drop {
			e, err := parseExpr(ad.text)
			if err != nil {
				return err
			}
			sp, err := catalog.SpecOf(ad.column, e)
			if err != nil {
				return err
			}
			sp.SQLite = ad.sqlite
			spec = catalog.EncodeSpec(sp)
			if def != nil {
				if err := def.SetDefault(ad.column, sp); err != nil {
					return err
				}
			}
		} else if def != nil {
			if err := def.DropDefault(ad.column); err != nil {
				return err
			}
		}
		d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = binlite_alter_default(def, "+
			sqlString(ad.column)+", "+sqlString(spec)+") WHERE name = "+sqlString(d.Table))
	}
	return nil
}

// keepsSuppliedDefaults refuses a DDL that would drop the stored definition (see
// addCatalog) of a table whose INSERTs write some default themselves: without the
// definition they would not, and SQLite would store its own default or NULL.
func keepsSuppliedDefaults(d *DDL, ctx *Context) error {
	if ctx.TableDef == nil {
		return nil
	}
	if def := ctx.TableDef(d.Schema, d.Table); def != nil && def.HasSuppliedDefaults() {
		return (&Unsupported{What: "this change to a table with default expressions that read other columns or with defaults changed by ALTER COLUMN"}).Err()
	}
	return nil
}
