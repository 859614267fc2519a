package sqlcompat

import (
	"strconv"
	"strings"

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
// TRUNCATE resets the AUTO_INCREMENT counter, as InnoDB does. ALTER TABLE that
// changes the table's shape, and CREATE/DROP INDEX, drop the stored definition for
// now (SHOW CREATE TABLE then falls back to what SQLite knows) rather than keep
// one that no longer holds; ALTER TABLE ... AUTO_INCREMENT = N and COMMENT = '...'
// keep it.
func addCatalog(d *DDL, ctx *Context) error {
	switch d.Op {
	case CreateTable:
		if len(d.SQLite) == 0 || d.Temporary {
			return nil
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
	case AlterTable, CreateIndex, DropIndex:
		if len(d.SQLite) > 0 { // a change of shape, not only of options
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
