package compiler

import (
	"testing"

	"github.com/binlite/binlite/decimal"
)

// TestUserVars: reads of user variables compile to literals of their values and
// types; the plan is cached per value; an assignment is left to sqlcompat.
func TestUserVars(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, p DECIMAL(10,2), v VARCHAR(10))")}
	vars := map[string]any{"n": int64(5), "d": decimal.Exact("1.50"), "s": "it's", "b": []byte{0, 1}}
	get := func(name string) any { return vars[name] }
	c := NewCache(8)
	em, err := c.EmitVars("SELECT p * @n, @d, @s, @b, @nosuch FROM t WHERE v = @s", "d", "utf8mb4_general_ci", Mode{}, 0, get, cat)
	if err != nil || em == nil {
		t.Fatalf("not compiled: %v", err)
	}
	want := "SELECT binlite_dec_mul(`p`, 5) AS `p * @n`, 1.50 AS `@d`, 'it''s' AS `@s`, X'0001' AS `@b`, NULL AS `@nosuch` FROM `t` WHERE (`v` = 'it''s')"
	if em.SQL != want {
		t.Errorf("got  %s\nwant %s", em.SQL, want)
	}
	vars["n"] = int64(6)
	if em, _ := c.EmitVars("SELECT p * @n FROM t", "d", "utf8mb4_general_ci", Mode{}, 0, get, cat); em == nil || em.SQL != "SELECT binlite_dec_mul(`p`, 6) AS `p * @n` FROM `t`" {
		t.Errorf("a new value is not compiled in: %+v", em)
	}
	if em, err := c.EmitVars("SELECT @n := @n + 1", "d", "utf8mb4_general_ci", Mode{}, 0, get, cat); em != nil || err != nil {
		t.Errorf("an assignment was compiled: %+v %v", em, err)
	}
	if k := varsKey("SELECT 'a@b.c', @@version, @`N`", get); k != "b.c=n;n=i6;" {
		t.Errorf("varsKey %q", k)
	}
}
