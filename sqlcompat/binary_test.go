package sqlcompat

import "testing"

// TestBinaryLiterals: a string literal written into a binary column becomes a
// blob literal; into any other column it stays text. _binary '...' is bytes.
func TestBinaryLiterals(t *testing.T) {
	ctx := testCtx()
	ctx.BinaryColumn = func(schema, table, column string) bool { return table == "t" && column == "b" }
	ctx.Columns = func(schema, table string) []string { return []string{"id", "b", "s"} }
	for in, want := range map[string]string{
		"INSERT INTO t (id, b, s) VALUES (1, 'a\\0b', 'x')": `INSERT INTO t (id, b, s) VALUES (1, X'610062', 'x')`,
		"INSERT INTO t VALUES (1, 'ab', 'x'), (2, '', 'y')": `INSERT INTO t VALUES (1, X'6162', 'x'), (2, X'', 'y')`,
		"INSERT INTO t SET id = 1, b = 'ab', s = 'c'":       `INSERT INTO t ("id", "b", "s") VALUES (1, X'6162', 'c')`,
		"UPDATE t SET b = 'ab', s = 'c' WHERE id = 1":       `UPDATE t SET b = X'6162', s = 'c' WHERE id = 1`,
		"SELECT _binary'ab', _utf8mb4'ab'":                  `SELECT X'6162', 'ab'`,
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
