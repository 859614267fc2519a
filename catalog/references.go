package catalog

import "strings"

// RenameReferenceJSON is the stored definition def with its foreign keys that
// reference table's column from naming it to instead, and def itself when none
// do. ALTER TABLE ... RENAME COLUMN (and CHANGE) runs it, as the SQL function
// binlite_rename_ref, over every definition of the schema: MySQL's foreign keys
// follow a referenced column's new name, as SQLite's REFERENCES clauses do.
func RenameReferenceJSON(def, table, from, to string) (string, error) {
	t, err := Decode(def)
	if err != nil {
		return "", err
	}
	changed := false
	for i := range t.ForeignKeys {
		fk := &t.ForeignKeys[i]
		if fk.RefSchema != "" || !strings.EqualFold(fk.RefTable, table) {
			continue
		}
		for j, c := range fk.RefColumns {
			if strings.EqualFold(c, from) {
				fk.RefColumns[j], changed = to, true
			}
		}
	}
	if !changed {
		return def, nil
	}
	return t.Encode()
}
