package sqlcompat

import (
	"strconv"
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// catalogTable is engine.CatalogTable (sqlcompat does not import the engine).
const catalogTable = "binlite_catalog"

// addCatalog adds to a DDL the statements that keep the schema's catalog of MySQL
// definitions in step, so they run in the DDL's own SQLite transaction and a
// replica replaying the DDL text writes the same rows.
//
// CREATE TABLE stores the definition compiled from MySQL's grammar (TiDB's parser)
// and sets AUTO_INCREMENT=N; DROP TABLE and RENAME TABLE follow the table;
// TRUNCATE resets the AUTO_INCREMENT counter, as InnoDB does; CREATE and DROP
// INDEX change the definition's keys. ALTER TABLE on a table with a definition
// makes its catalog statements itself (alter.go), but ALTER COLUMN ... SET/DROP
// DEFAULT, which changes the definition alone (alterDefaultsCatalog); a table
// without one (made before the catalog existed) stays without one. A temporary
// table's definition is the session's: no catalog row.
func addCatalog(d *DDL, ctx *Context) error {
	defer func() { d.create, d.defaults = nil, nil }() // parse state, not part of the result
	switch d.Op {
	case CreateTable:
		if len(d.SQLite) == 0 {
			return nil
		}
		if d.Temporary {
			// A temporary table is the session's (its definition too): its SQLite
			// table is made as a stored table is, without a catalog row.
			if d.def == nil {
				return nil
			}
			err := createTableCatalog(d)
			d.CatalogBefore = nil
			if err == nil && len(d.Def.ForeignKeys) > 0 {
				return (&Unsupported{What: "FOREIGN KEY on a TEMPORARY table"}).Err()
			}
			return err
		}
		return createTableCatalog(d)
	case DropTable:
		if d.Temporary {
			return nil
		}
		for _, t := range d.Tables {
			d.CatalogAfter = append(d.CatalogAfter, "DELETE FROM "+catalogTable+" WHERE name = "+sqlString(t))
		}
	case RenameTable:
		for i := 0; i+1 < len(d.Tables); i += 2 {
			from, to := sqlString(d.Tables[i]), sqlString(d.Tables[i+1])
			d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET name = "+to+", def = json_set(def, '$.name', "+to+") WHERE name = "+from)
		}
	case TruncateTable:
		d.CatalogAfter = append(d.CatalogAfter, "DELETE FROM sqlite_sequence WHERE name = "+sqlString(d.Table)+" COLLATE NOCASE")
	case CreateIndex, DropIndex:
		return indexCatalog(d, ctx)
	case AlterTable:
		if d.planned {
			return nil
		}
		if len(d.defaults) > 0 {
			return alterDefaultsCatalog(d, ctx)
		}
		if len(d.SQLite) > 0 { // a change of shape, not only of options
			if err := keepsSuppliedDefaults(d, ctx); err != nil {
				return err
			}
			d.CatalogBefore = append(d.CatalogBefore, "DELETE FROM "+catalogTable+" WHERE name = "+sqlString(d.Table))
		}
	}
	return nil
}

func createTableCatalog(d *DDL) error {
	def := d.def
	if def == nil {
		// binlite's own parser took it; without the grammar's AST there is no
		// definition to store, and SHOW CREATE TABLE falls back to SQLite's.
		return nil
	}
	def.Name = d.Table
	if err := d.create.adoptDefinition(d, def); err != nil {
		return err
	}
	d.Def = def
	d.SQLite = append(d.SQLite, foreignKeyIndexes(d, def)...)
	enc, err := def.Encode()
	if err != nil {
		return mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
	}
	name := sqlString(d.Table)
	// Written before the CREATE and only if the table does not exist yet, so an
	// IF NOT EXISTS that finds the table leaves its definition alone.
	absent := " WHERE NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = " + name + " COLLATE NOCASE)"
	pre := []string{"INSERT OR REPLACE INTO " + catalogTable + " (name, def) SELECT " + name + ", " + sqlString(enc) + absent}
	if def.AutoIncrement > 1 && strings.Contains(d.SQLite[0], " AUTOINCREMENT") {
		pre = append(pre,
			"DELETE FROM sqlite_sequence WHERE name = "+name+" COLLATE NOCASE AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "+name+" COLLATE NOCASE)",
			"INSERT INTO sqlite_sequence (name, seq) SELECT "+name+", "+strconv.FormatUint(def.AutoIncrement-1, 10)+absent)
	}
	d.CatalogBefore = append(d.CatalogBefore, pre...)
	d.ValueChecks = def.ValueChecks()
	for _, m := range def.Deprecations() {
		d.Warnings = append(d.Warnings, mysqlerr.Warn(mysqlerr.ErWarnDeprecatedSyntaxNoReplacement, "%s", m))
	}
	d.CatalogAfter = append(d.CatalogAfter, def.OnUpdateTriggers()...)
	return nil
}

// indexCatalog stores the definition with the key CREATE INDEX adds or DROP INDEX
// removes. A table without a stored definition stays without one; what the
// grammar does not parse drops the definition rather than keep one that no longer
// holds.
func indexCatalog(d *DDL, ctx *Context) error {
	if len(d.SQLite) == 0 || ctx.TableDef == nil {
		return nil
	}
	def := ctx.TableDef(d.Schema, d.Table)
	if def == nil {
		return nil
	}
	drop := "DELETE FROM " + catalogTable + " WHERE name = " + sqlString(d.Table)
	stmts, _, err := tidb.New().Parse(d.Original, "", "")
	if err != nil || len(stmts) != 1 {
		d.CatalogBefore = append(d.CatalogBefore, drop)
		return nil
	}
	var next *catalog.Table
	switch st := stmts[0].(type) {
	case *ast.CreateIndexStmt:
		if next, err = def.WithIndex(st); err != nil {
			if mysqlerr.Is(err, mysqlerr.ErDupKeyName) && st.IfNotExists {
				return nil
			}
			return err
		}
	case *ast.DropIndexStmt:
		var found bool
		if next, found, err = def.WithoutIndex(st.IndexName); err != nil {
			return mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
		}
		if !found {
			if st.IfExists {
				return nil
			}
			return mysqlerr.New(mysqlerr.ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", st.IndexName)
		}
	default:
		d.CatalogBefore = append(d.CatalogBefore, drop)
		return nil
	}
	enc, err := next.Encode()
	if err != nil {
		return mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
	}
	d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = "+sqlString(enc)+" WHERE name = "+sqlString(d.Table))
	return nil
}

// foreignKeyIndexes are the SQLite indexes of the keys MySQL adds for a FOREIGN KEY
// whose columns no key starts with (catalog.Build names them): a parent's DELETE
// or UPDATE looks the child rows up through them, and SHOW CREATE TABLE and DROP
// INDEX know them.
func foreignKeyIndexes(d *DDL, def *catalog.Table) []string {
	var out []string
	for _, ix := range def.Indexes {
		if ix.Kind != catalog.KindIndex || strings.Contains(strings.Join(d.SQLite, "\n"), " "+indexName(d.Table, ix.Name)+" ON ") {
			continue
		}
		for _, fk := range def.ForeignKeys {
			if len(fk.Columns) != len(ix.Parts) {
				continue
			}
			parts := make([]keyPart, len(ix.Parts))
			same := true
			for i, p := range ix.Parts {
				same = same && p.Expr == "" && strings.EqualFold(p.Column, fk.Columns[i])
				parts[i] = keyPart{sql: quoteIdent(p.Column), name: p.Column}
			}
			if same {
				out = append(out, indexSQL(d.Table, ix.Name, false, d.IfNotExists, parts))
				break
			}
		}
	}
	return out
}
