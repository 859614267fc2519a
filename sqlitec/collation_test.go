package sqlitec

import (
	"strings"
	"testing"
)

// A collation registered here orders, compares and keys a column, and SQLite's
// destructor releases the Go function when the connection closes.
func TestRegisterCollation(t *testing.T) {
	c := openConn(t)
	calls := 0
	fold := func(a, b string) int {
		calls++
		return strings.Compare(strings.ToLower(a), strings.ToLower(b))
	}
	if err := RegisterCollation(c, "fold", fold); err != nil {
		t.Fatal(err)
	}
	execDriver(t, c, "CREATE TABLE t (v TEXT COLLATE fold UNIQUE)")
	execDriver(t, c, "INSERT INTO t VALUES ('b'), ('A'), ('c')")
	if _, err := c.Exec("INSERT INTO t VALUES ('B')", nil); err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Fatalf("a duplicate under the collation: %v", err)
	}
	got := rows(t, c, "SELECT v FROM t ORDER BY v")
	var order []string
	for _, r := range got {
		order = append(order, string(r[0].(string)))
	}
	if strings.Join(order, ",") != "A,b,c" {
		t.Errorf("ORDER BY: %v", order)
	}
	if calls == 0 {
		t.Error("the collation was never called")
	}
	// Registering the name again replaces it (SQLite destroys the first).
	if err := RegisterCollation(c, "fold", fold); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}
