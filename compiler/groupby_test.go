package compiler

import (
	"errors"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestOnlyFullGroupBy: what ONLY_FULL_GROUP_BY refuses (1055, 1140) and what
// functional dependence lets through; without the mode everything compiles.
func TestOnlyFullGroupBy(t *testing.T) {
	cat := testCatalog{
		"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, u INT NOT NULL, n INT, v VARCHAR(5), UNIQUE KEY (u))"),
		"d.o": mustTable(t, "CREATE TABLE o (id INT PRIMARY KEY, t_id INT, x INT)"),
	}
	cases := map[string]uint16{
		"SELECT v, COUNT(*) FROM t GROUP BY n":                               mysqlerr.ErWrongFieldWithGroup,
		"SELECT v, COUNT(*) FROM t":                                          mysqlerr.ErMixOfGroupFuncAndFields,
		"SELECT * FROM t GROUP BY n":                                         mysqlerr.ErWrongFieldWithGroup,
		"SELECT o.x FROM t JOIN o ON o.t_id = t.id GROUP BY t.id":            mysqlerr.ErWrongFieldWithGroup,
		"SELECT v FROM t GROUP BY n, id":                                     0, // the primary key
		"SELECT v, n FROM t GROUP BY u":                                      0, // a NOT NULL unique key
		"SELECT v, COUNT(*) FROM t WHERE id = 3":                             0, // the key is a constant
		"SELECT n + 1, COUNT(*) FROM t GROUP BY n + 1":                       0, // the same expression
		"SELECT v AS w, COUNT(*) FROM t GROUP BY w":                          0, // an alias
		"SELECT v, COUNT(*) FROM t GROUP BY 1":                               0, // a position
		"SELECT o.x, t.v FROM t JOIN o ON o.t_id = t.id GROUP BY o.id, t.id": 0,
		"SELECT t.v FROM t JOIN o ON o.t_id = t.id GROUP BY o.t_id":          0, // equal to the grouped column, which is t's key
		"SELECT ANY_VALUE(v), MAX(n), (SELECT MAX(x) FROM o) FROM t":         0,
		"SELECT v FROM (SELECT * FROM t) AS d GROUP BY n":                    0, // derived tables are not checked
	}
	for sql, code := range cases {
		_, err := NewCache(8).Emit(sql, "d", "utf8mb4_general_ci", cat)
		var me *mysqlerr.Error
		switch {
		case code == 0 && err != nil:
			t.Errorf("%s: %v, want it compiled", sql, err)
		case code != 0 && (!errors.As(err, &me) || me.Code != code):
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
		if code != 0 {
			if em, err := NewCache(8).EmitWith(sql, "d", "utf8mb4_general_ci", Mode{NoOnlyFullGroupBy: true}, 0, cat); err != nil || em == nil {
				t.Errorf("%s without ONLY_FULL_GROUP_BY: %v, want it compiled", sql, err)
			}
		}
	}
}
