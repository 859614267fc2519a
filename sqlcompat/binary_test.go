package sqlcompat

import (
	"testing"

	"github.com/binlite/binlite/catalog"
)

// TestStoredLiterals: a literal written into a column becomes what the column
// keeps: bytes for a binary column (BINARY padded), CHAR without trailing
// spaces, FLOAT at single precision; other columns keep the literal.
// _binary '...' is bytes wherever it is.
func TestStoredLiterals(t *testing.T) {
	types := map[string]catalog.Type{
		"b": {Base: "blob"}, "bn": {Base: "binary", Length: 3}, "c": {Base: "char", Length: 5},
		"s": {Base: "varchar", Length: 5}, "f": {Base: "float"}, "id": {Base: "int"},
	}
	def := &catalog.Table{Name: "t"}
	for _, name := range []string{"id", "b", "s", "bn", "c", "f"} {
		def.Columns = append(def.Columns, catalog.Column{Name: name, Type: types[name], Nullable: true})
	}
	ctx := testCtx()
	ctx.AutoInc = nil // AUTO_INCREMENT values have their own test (TestAutoIncValues)
	ctx.TableDef = func(schema, table string) *catalog.Table {
		if table == "t" {
			return def
		}
		return nil
	}
	for in, want := range map[string]string{
		"INSERT INTO t (id, b, s) VALUES (1, 'a\\0b', 'x')":  `INSERT INTO t (id, b, s) VALUES (1, X'610062', 'x')`,
		"INSERT INTO t VALUES (1, 'ab', 'x', 'a', 'b ', 1)":  `INSERT INTO t VALUES (1, X'6162', 'x', X'610000', 'b', 1)`,
		"INSERT INTO t SET id = 1, b = 'ab', s = 'c'":        `INSERT INTO t ("id", "b", "s") VALUES (1, X'6162', 'c')`,
		"UPDATE t SET b = 'ab', s = 'c ' WHERE id = 1":       `UPDATE t SET b = X'6162', s = 'c ' WHERE id = 1`,
		"INSERT INTO t (bn, c, f) VALUES ('a', 'ab  ', 0.1)": `INSERT INTO t (bn, c, f) VALUES (X'610000', 'ab', 0.10000000149011612)`,
		"INSERT INTO t (bn) VALUES (0x61)":                   `INSERT INTO t (bn) VALUES (X'610000')`,
		"SELECT _binary'ab', _utf8mb4'ab'":                   `SELECT X'6162', 'ab'`,
	} {
		st, err := Parse(in, ctx)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := st.(*Query).SQLite; got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
}
