package sqlcompat

import (
	"strings"
	"testing"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Text columns declare their MySQL collation in the SQLite DDL: from the
// catalog's definition, or from the column's words where MySQL's grammar (TiDB's
// parser) does not take the statement; ADD COLUMN from the table's definition.
func TestColumnCollate(t *testing.T) {
	ctx := &Context{DB: "d", DefaultCollation: "utf8mb4_general_ci", TableDef: func(schema, table string) *catalog.Table {
		if table == "bins" {
			return &catalog.Table{Name: "bins", Engine: "InnoDB", Charset: "utf8mb4", Collation: "utf8mb4_bin",
				Columns: []catalog.Column{{Name: "id", Type: catalog.Type{Base: "int"}, Nullable: true}}}
		}
		return nil
	}}
	for _, c := range []struct{ sql, want string }{
		{"CREATE TABLE t (a VARCHAR(3), b INT, c VARBINARY(3), d ENUM('x') COLLATE utf8mb4_0900_ai_ci)",
			`CREATE TABLE "t" ("a" VARCHAR(3) COLLATE utf8mb4_general_ci, "b" INT, "c" VARBINARY(3), "d" TEXT COLLATE utf8mb4_0900_ai_ci)`},
		// ASCII (the latin1 shorthand) is binlite's grammar only: the words decide.
		{"CREATE TABLE t (a CHAR(3) ASCII, b VARCHAR(3) COLLATE utf8mb4_bin, c TEXT, e CHAR(2) BINARY) CHARSET latin1",
			`CREATE TABLE "t" ("a" CHAR(3) COLLATE latin1_swedish_ci, "b" VARCHAR(3) COLLATE utf8mb4_bin, "c" TEXT COLLATE latin1_swedish_ci, "e" CHAR(2) COLLATE latin1_bin)`},
		{"ALTER TABLE bins ADD COLUMN v VARCHAR(3), ADD w VARCHAR(3) CHARACTER SET latin1",
			`ALTER TABLE "bins" ADD COLUMN "v" VARCHAR(3) COLLATE utf8mb4_bin` + "\n" + `ALTER TABLE "bins" ADD COLUMN "w" VARCHAR(3) COLLATE latin1_swedish_ci`},
		{"ALTER TABLE other ADD COLUMN v TEXT", `ALTER TABLE "other" ADD COLUMN "v" TEXT COLLATE utf8mb4_general_ci`},
	} {
		st, err := Parse(c.sql, ctx)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		d := st.(*DDL)
		var got []string
		for _, q := range d.SQLite {
			if !strings.HasPrefix(q, "CREATE INDEX") {
				q, _, _ = strings.Cut(q, ` CONSTRAINT "binlite:`) // the value checks of a column added in place
				got = append(got, q)
			}
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, strings.Join(got, "\n"), c.want)
		}
	}
	for sql, code := range map[string]uint16{
		"CREATE TABLE t (a CHAR(3) ASCII COLLATE utf8mb4_bin)":   mysqlerr.ErCollationCharsetMismatch,
		"CREATE TABLE t (a CHAR(3) ASCII COLLATE latin1_nosuch)": mysqlerr.ErUnknownCollation,
		"CREATE TABLE t (a CHAR(3) UNICODE)":                     mysqlerr.ErNotSupportedYet,
		"ALTER TABLE t ADD COLUMN v TEXT COLLATE utf8mb4_nosuch": mysqlerr.ErUnknownCollation,
	} {
		_, err := Parse(sql, ctx)
		if me, ok := mysqlerr.As(err); !ok || me.Code != code {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
}
