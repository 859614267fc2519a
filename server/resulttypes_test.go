package server_test

// Result columns are declared with MySQL's types and values are sent in them,
// through the text and the binary protocol (go-sql-driver/mysql reads the
// declarations: DatabaseTypeName, DecimalSize, and scans by them).

import (
	"context"
	"fmt"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestResultTypesDeclared(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE rt")
		s := p.session(t, n, "rt")
		tn.Exec(t, s, "CREATE TABLE emp (id INT UNSIGNED NOT NULL PRIMARY KEY, salary DECIMAL(10,2), t TINYINT, b BIT(4), big BIGINT UNSIGNED, name VARCHAR(20))")
		tn.Exec(t, s, "INSERT INTO emp VALUES (1, 80.5, 3, b'1010', 5, 'ann'), (2, NULL, -1, 0, 6, 'bob'), (3, 1.25, 0, 1, 7, 'cy')")
		q := "SELECT id, salary, t, b, big, name, IFNULL(salary, 0), SUM(salary) OVER (), salary * 2 FROM emp ORDER BY id"
		// Window functions are not typed yet; the others are.
		rows, err := s.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		cts, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		wantType := []string{"UNSIGNED INT", "DECIMAL", "TINYINT", "BIT", "UNSIGNED BIGINT", "VARCHAR", "DECIMAL", "", "DECIMAL"}
		for i, ct := range cts {
			if wantType[i] != "" && ct.DatabaseTypeName() != wantType[i] {
				t.Errorf("column %s: %s, want %s", ct.Name(), ct.DatabaseTypeName(), wantType[i])
			}
		}
		if _, scale, ok := cts[1].DecimalSize(); !ok || scale != 2 {
			t.Errorf("salary DecimalSize scale = %d (%v), want 2", scale, ok)
		}
		var got [][]string
		for rows.Next() {
			vals := make([]any, len(cts))
			ptrs := make([]any, len(cts))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			r := make([]string, len(vals))
			for i, v := range vals {
				switch x := v.(type) {
				case nil:
					r[i] = "NULL"
				case []byte:
					r[i] = string(x)
				default:
					r[i] = fmt.Sprint(x)
				}
			}
			got = append(got, r)
		}
		rows.Close()
		want := [][]string{
			{"1", "80.50", "3", "\n", "5", "ann", "80.50", "", "161.00"},
			{"2", "NULL", "-1", "\x00", "6", "bob", "0.00", "", "NULL"},
			{"3", "1.25", "0", "\x01", "7", "cy", "1.25", "", "2.50"},
		}
		for i := range want {
			for j := range want[i] {
				if want[i][j] != "" && got[i][j] != want[i][j] {
					t.Errorf("row %d column %s = %q, want %q", i+1, cts[j].Name(), got[i][j], want[i][j])
				}
			}
		}
	})
}
