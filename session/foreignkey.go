package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
)

// foreignKeyDDL refuses the DDL MySQL refuses because of foreign keys: a CREATE
// TABLE whose FOREIGN KEY InnoDB cannot create, and, with foreign_key_checks on,
// DROP TABLE (3730) or TRUNCATE (1701) of a table another table references.
// It runs on the source only: a replica applies the DDL its source accepted, as
// MySQL's replica applies it with the source's foreign_key_checks.
func (s *Session) foreignKeyDDL(db string, d *sqlcompat.DDL) error {
	checks := s.vars.Int("foreign_key_checks") != 0
	switch {
	case d.Temporary:
		return nil
	case d.Op == sqlcompat.AlterTable && d.Def != nil:
		if err := s.dropIndexAllowed(db, d); err != nil {
			return err
		}
		return s.addedForeignKeys(db, d, checks)
	case d.Op == sqlcompat.DropIndex || d.Op == sqlcompat.AlterTable:
		return s.dropIndexAllowed(db, d)
	case d.Op == sqlcompat.CreateTable && d.Def != nil:
		return s.newForeignKeys(db, d, checks)
	case d.Op == sqlcompat.DropTable && checks:
		for _, t := range d.Tables {
			for _, fk := range s.env.Engine.ReferencedBy(db, t) {
				if !containsFold(d.Tables, fk.Table) {
					return mysqlerr.New(mysqlerr.ErFKCannotDropParent, "Cannot drop table '%s' referenced by a foreign key constraint '%s' on table '%s'.", t, fk.Name, fk.Table)
				}
			}
		}
	case d.Op == sqlcompat.TruncateTable && checks:
		for _, fk := range s.env.Engine.ReferencedBy(db, d.Table) {
			if !strings.EqualFold(fk.Table, d.Table) {
				return mysqlerr.New(mysqlerr.ErTruncateIllegalFK, "Cannot truncate a table referenced in a foreign key constraint (`%s`.`%s`, %s)", db, fk.Table, fk.Text(db))
			}
		}
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// newForeignKeys checks the FOREIGN KEYs of a new table as InnoDB does when it
// creates them: the referenced table exists (unless foreign_key_checks=0), has the
// columns, of types the referencing columns can match, under a PRIMARY KEY or
// UNIQUE key of exactly those columns (MySQL 8.4's restrict_fk_on_non_standard_key).
func (s *Session) newForeignKeys(db string, d *sqlcompat.DDL, checks bool) error {
	def := d.Def
	for _, fk := range def.ForeignKeys {
		if fk.RefSchema != "" && !strings.EqualFold(fk.RefSchema, db) {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a FOREIGN KEY referencing another database'")
		}
		if fk.OnDelete == "SET DEFAULT" || fk.OnUpdate == "SET DEFAULT" {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'FOREIGN KEY ... SET DEFAULT' (InnoDB refuses it too)")
		}
		cols := make([]*catalog.Column, len(fk.Columns))
		for i, name := range fk.Columns {
			c, ok := def.Column(name)
			if !ok {
				return mysqlerr.New(mysqlerr.ErKeyColumnDoesNotExist, "Key column '%s' doesn't exist in table", name)
			}
			if c.Generated != nil {
				return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a FOREIGN KEY on a generated column'")
			}
			if !c.Nullable && (fk.OnDelete == "SET NULL" || fk.OnUpdate == "SET NULL") {
				return mysqlerr.New(mysqlerr.ErFKColumnNotNull, "Column '%s' cannot be NOT NULL: needed in a foreign key constraint '%s' SET NULL", c.Name, fk.Name)
			}
			cols[i] = c
		}
		parent := def
		if !strings.EqualFold(fk.RefTable, def.Name) {
			p, exists := engineCatalog{s.env.Engine}.Table(db, fk.RefTable)
			if !exists {
				if checks {
					return mysqlerr.New(mysqlerr.ErFKCannotOpenParent, "Failed to open the referenced table '%s'", fk.RefTable)
				}
				continue
			}
			if p == nil {
				continue // a table without its MySQL definition: nothing to check against
			}
			parent = p
		}
		if len(fk.RefColumns) != len(fk.Columns) {
			return mysqlerr.New(mysqlerr.ErFKNoIndexParent, "Failed to add the foreign key constraint. Missing index for constraint '%s' in the referenced table '%s'", fk.Name, fk.RefTable)
		}
		for i, name := range fk.RefColumns {
			rc, ok := parent.Column(name)
			if !ok {
				return mysqlerr.New(mysqlerr.ErFKNoColumnParent, "Failed to add the foreign key constraint. Missing column '%s' for constraint '%s' in the referenced table '%s'", name, fk.Name, fk.RefTable)
			}
			if !fkCompatible(cols[i].Type, rc.Type) {
				return mysqlerr.New(mysqlerr.ErFKIncompatibleColumns, "Referencing column '%s' and referenced column '%s' in foreign key constraint '%s' are incompatible.", cols[i].Name, rc.Name, fk.Name)
			}
		}
		switch parentKey(parent, fk.RefColumns) {
		case noKey:
			return mysqlerr.New(mysqlerr.ErFKNoIndexParent, "Failed to add the foreign key constraint. Missing index for constraint '%s' in the referenced table '%s'", fk.Name, fk.RefTable)
		case nonUniqueKey:
			return mysqlerr.New(mysqlerr.ErFKNoUniqueIndexParent, "Failed to add the foreign key constraint. Missing unique key for constraint '%s' in the referenced table '%s'", fk.Name, fk.RefTable)
		}
	}
	return nil
}

// addedForeignKeys checks the FOREIGN KEYs an ALTER TABLE adds as CREATE TABLE's
// are checked, and, with foreign_key_checks on, has the DDL's own transaction
// refuse it (1452) if a row of the table has no parent, as InnoDB's copy does.
func (s *Session) addedForeignKeys(db string, d *sqlcompat.DDL, checks bool) error {
	old, _ := engineCatalog{s.env.Engine}.Table(db, d.Table)
	var added []catalog.ForeignKey
	for _, fk := range d.Def.ForeignKeys {
		known := false
		if old != nil {
			for _, ofk := range old.ForeignKeys {
				known = known || strings.EqualFold(ofk.Name, fk.Name)
			}
		}
		if !known {
			added = append(added, fk)
		}
	}
	if len(added) == 0 {
		return nil
	}
	only := *d.Def
	only.ForeignKeys = added
	if err := s.newForeignKeys(db, &sqlcompat.DDL{Def: &only}, checks); err != nil {
		return err
	}
	if !checks {
		return nil
	}
	for _, fk := range added {
		d.SQLite = append(d.SQLite, orphanCheck(db, d.Def.Name, fk))
	}
	return nil
}

// orphanCheck is the SQLite statement that fails with 1452 if a row of table has
// values in fk's columns (none NULL) that no row of the referenced table has.
func orphanCheck(db, table string, fk catalog.ForeignKey) string {
	q := func(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
	var notNull, match []string
	for i, c := range fk.Columns {
		notNull = append(notNull, "c."+q(c)+" IS NOT NULL")
		match = append(match, "p."+q(fk.RefColumns[i])+" = c."+q(c))
	}
	efk := engine.ForeignKey{Name: fk.Name, Table: table, Columns: fk.Columns, Parent: fk.RefTable, RefColumns: fk.RefColumns, OnDelete: fk.OnDelete, OnUpdate: fk.OnUpdate}
	msg := "Cannot add or update a child row: a foreign key constraint fails (`" + db + "`.`" + table + "`, " + efk.Text(db) + ")"
	return "SELECT binlite_fail(1452, '" + strings.ReplaceAll(msg, "'", "''") + "') FROM " + q(table) + " AS c WHERE " +
		strings.Join(notNull, " AND ") + " AND NOT EXISTS (SELECT 1 FROM " + q(fk.RefTable) + " AS p WHERE " + strings.Join(match, " AND ") + ") LIMIT 1"
}

type keyKind int

const (
	noKey        keyKind = iota
	nonUniqueKey         // an index starts with the columns, but none is unique on exactly them
	uniqueKey
)

// parentKey finds the referenced table's key on cols: an index whose first columns
// they are (whole columns, in order); best a PRIMARY or UNIQUE key of exactly them.
func parentKey(t *catalog.Table, cols []string) keyKind {
	found := noKey
	for _, ix := range t.Indexes {
		if len(ix.Parts) < len(cols) {
			continue
		}
		match := true
		for i, c := range cols {
			p := ix.Parts[i]
			if p.Expr != "" || p.Length > 0 || !strings.EqualFold(p.Column, c) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if (ix.Kind == catalog.KindPrimary || ix.Kind == catalog.KindUnique) && len(ix.Parts) == len(cols) {
			return uniqueKey
		}
		found = nonUniqueKey
	}
	return found
}

// fkCompatible tells whether InnoDB lets a column of type a reference one of type b:
// integers of the same size and sign, DECIMALs of the same precision, scale and sign,
// strings of one kind (character or binary) in the same character set and
// collation whatever their length, temporal types of the same precision, and
// otherwise the same type.
func fkCompatible(a, b catalog.Type) bool {
	family := func(t catalog.Type) string {
		switch t.Base {
		case "char", "varchar":
			if t.Charset == "binary" {
				return "binary"
			}
			return "char"
		case "binary", "varbinary":
			return "binary"
		case "numeric":
			return "decimal"
		case "integer":
			return "int"
		case "real":
			return "double"
		}
		return t.Base
	}
	fa, fb := family(a), family(b)
	if fa != fb {
		return false
	}
	switch fa {
	case "tinyint", "smallint", "mediumint", "int", "bigint", "float", "double":
		return a.Unsigned == b.Unsigned
	case "decimal":
		return a.Unsigned == b.Unsigned && a.Length == b.Length && a.Scale == b.Scale
	case "char":
		return a.Collation == "" || b.Collation == "" || strings.EqualFold(a.Collation, b.Collation)
	case "datetime", "timestamp", "time":
		return a.Scale == b.Scale
	case "tinytext", "text", "mediumtext", "longtext", "tinyblob", "blob", "mediumblob", "longblob", "json":
		return false // InnoDB cannot index them whole
	}
	return true
}

// dropIndexAllowed refuses to drop the only index a foreign key of the table, or
// one referencing it, is checked through (1553), as InnoDB does, and a column a
// foreign key of another table references (1829).
func (s *Session) dropIndexAllowed(db string, d *sqlcompat.DDL) error {
	for _, c := range d.DroppedColumns {
		for _, fk := range s.env.Engine.ReferencedBy(db, d.Table) {
			if !strings.EqualFold(fk.Table, d.Table) && containsFold(fk.RefColumns, c) {
				return mysqlerr.New(mysqlerr.ErFKColumnCannotDropChild, "Cannot drop column '%s': needed in a foreign key constraint '%s' of table '%s'", c, fk.Name, fk.Table)
			}
		}
	}
	prefix := `DROP INDEX "` + strings.ReplaceAll(d.Table, `"`, `""`) + "."
	names := append([]string(nil), d.DroppedIndexes...)
	for _, q := range d.SQLite {
		if d.Def != nil {
			break // an ALTER TABLE compiled against the definition names what it drops
		}
		q = strings.Replace(q, "DROP INDEX IF EXISTS ", "DROP INDEX ", 1)
		if strings.HasPrefix(q, prefix) && strings.HasSuffix(q, `"`) {
			if name := strings.ReplaceAll(q[len(prefix):len(q)-1], `""`, `"`); !containsFold(names, name) {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		def, _ := engineCatalog{s.env.Engine}.Table(db, d.Table)
		if def == nil {
			continue
		}
		var needs [][]string
		for _, fk := range def.ForeignKeys {
			needs = append(needs, fk.Columns)
		}
		for _, fk := range s.env.Engine.ReferencedBy(db, d.Table) {
			needs = append(needs, fk.RefColumns)
		}
		for _, cols := range needs {
			if covers(def, name, cols) && !coveredElsewhere(def, name, cols) {
				return mysqlerr.New(mysqlerr.ErDropIndexFK, "Cannot drop index '%s': needed in a foreign key constraint", name)
			}
		}
	}
	return nil
}

// covers reports whether t's index name starts with cols.
func covers(t *catalog.Table, name string, cols []string) bool {
	for _, ix := range t.Indexes {
		if strings.EqualFold(ix.Name, name) {
			return startsWith(ix, cols)
		}
	}
	return false
}

// coveredElsewhere reports whether another index of t starts with cols.
func coveredElsewhere(t *catalog.Table, name string, cols []string) bool {
	for _, ix := range t.Indexes {
		if !strings.EqualFold(ix.Name, name) && startsWith(ix, cols) {
			return true
		}
	}
	return false
}

func startsWith(ix catalog.Index, cols []string) bool {
	if len(ix.Parts) < len(cols) {
		return false
	}
	for i, c := range cols {
		if ix.Parts[i].Expr != "" || !strings.EqualFold(ix.Parts[i].Column, c) {
			return false
		}
	}
	return true
}
