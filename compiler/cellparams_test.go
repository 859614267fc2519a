package compiler

import (
	"fmt"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestStoreParams: a value bound to a VALUES cell becomes what the literal of
// the same value becomes, with the same notes and errors.
func TestStoreParams(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, i INT, d DECIMAL(6,2), v VARCHAR(3), dt DATE, y YEAR, e ENUM('s','m'))")}
	cases := []struct {
		sql   string
		args  []any
		want  string // the converted values
		notes string
		err   uint16
	}{
		{"INSERT INTO t (id, d, v) VALUES (?, ?, ?)", []any{int64(1), "12.3456", "abc "}, "[1 12.35 abc]", "[1265 1265]", 0},
		{"INSERT INTO t (id, y, dt) VALUES (?, ?, ?)", []any{int64(1), int64(69), "2024-02-29 13:45:59"}, "[1 2069 2024-02-29]", "[1265]", 0},
		{"INSERT INTO t (id, i) VALUES (?, ?)", []any{int64(1), "12abc"}, "", "", mysqlerr.ErWarnDataTruncated},
		{"INSERT IGNORE INTO t (id, i, e) VALUES (?, ?, ?)", []any{int64(1), "12abc", "xl"}, "[1 12abc ]", "[1265]", 0},
	}
	for _, c := range cases {
		em, err := NewCache(8).Emit(c.sql, "d", "utf8mb4_general_ci", cat)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		out, _, notes, err := em.StoreParams(c.args)
		if c.err != 0 {
			if !mysqlerr.Is(err, c.err) {
				t.Errorf("%s %v: error %v, want %d", c.sql, c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %v: %v", c.sql, c.args, err)
		}
		codes := make([]uint16, len(notes))
		for i, n := range notes {
			codes[i] = n.Code
		}
		if got := fmt.Sprint(out); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.sql, c.args, got, c.want)
		}
		if got := fmt.Sprint(codes); got != c.notes {
			t.Errorf("%s %v: notes %s, want %s", c.sql, c.args, got, c.notes)
		}
	}
}
