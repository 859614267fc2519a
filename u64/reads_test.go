package u64

import (
	"strings"
	"testing"
)

// TestComputedReads: the columns a statement reads where SQLite could compute
// with a stored value, for the statements the compiler's rules do not cover.
func TestComputedReads(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT u, v FROM t WHERE id = 5 ORDER BY w":                         "",
		"SELECT u + 1 FROM t":                                                "u",
		"SELECT COUNT(u), MIN(v), MAX(w) FROM t WHERE x IS NULL":             "",
		"SELECT id FROM t WHERE u = LAST_INSERT_ID() AND v IN (1, 2)":        "",
		"SELECT id FROM t WHERE u = 1.5 OR v = 'x'":                          "u v",
		"UPDATE t SET a = u WHERE v = 1":                                     "u",
		"INSERT INTO t2 SELECT u FROM t":                                     "u",
		"SELECT * FROM (SELECT * FROM t) d":                                  "*",
		"SELECT (SELECT u FROM t2) FROM t":                                   "u",
		"INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(u)": "u",
	} {
		names, star, ok := ComputedReads(q)
		if !ok {
			t.Errorf("%s: not parsed", q)
			continue
		}
		var got []string
		if star {
			got = append(got, "*")
		}
		for _, n := range []string{"a", "id", "u", "v", "w", "x"} {
			if names[n] {
				got = append(got, n)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %q, want %q", q, strings.Join(got, " "), want)
		}
	}
	if _, _, ok := ComputedReads("SELECT FROM WHERE"); ok {
		t.Error("a statement the grammar does not parse: ok")
	}
}
