package compiler

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
)

// TestWriteParams: each ? written straight into a column takes that column's type.
func TestWriteParams(t *testing.T) {
	cat := testCatalog{"d.rt": mustTable(t, "CREATE TABLE rt (id INT PRIMARY KEY, b BLOB, v VARBINARY(4), s VARCHAR(4), dt DATETIME(6))")}
	for sql, want := range map[string][]string{
		"INSERT INTO rt (id, b, s, dt) VALUES (?, ?, ?, ?)":                  {"int", "blob", "varchar", "datetime"},
		"INSERT INTO rt VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)":             {"int", "blob", "varbinary", "varchar", "datetime", "int", "blob", "varbinary", "varchar", "datetime"},
		"UPDATE rt SET v = ?, s = CONCAT(s, ?) WHERE id = ?":                 {"varbinary"},
		"INSERT INTO rt (id, b) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = ?": {"int", "blob", "varbinary"},
	} {
		stmts, _, err := parser.New().Parse(sql, "", "")
		if err != nil {
			t.Fatal(err)
		}
		p := compileStmt(stmts[0], "d", Mode{}, cat)
		var got []string
		for _, pt := range p.Params {
			if pt == nil {
				got = append(got, "")
			} else {
				got = append(got, pt.Type.Base)
			}
		}
		for len(got) < len(want) {
			got = append(got, "")
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: parameter types %v, want %v", sql, got, want)
				break
			}
		}
	}
}
