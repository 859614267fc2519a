package server_test

// A query with no current database that names its tables with their schema is
// compiled like any other: ENUM by index, exact DECIMAL.

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestQueryWithoutCurrentDatabase(t *testing.T) {
	n := tn.Start(t)
	c := tn.Conn(t, n.DB(""))
	tn.Exec(t, c, "CREATE DATABASE nd")
	tn.Exec(t, c, "CREATE TABLE nd.t (id INT PRIMARY KEY, e ENUM('small','medium','large'), d DECIMAL(30,10))")
	tn.Exec(t, c, "INSERT INTO nd.t VALUES (1, 'medium', 12345678901234567890.0123456789)")
	got := tn.Rows(t, c, "SELECT e + 0, d + 1, e = 2 FROM nd.t")
	if len(got) != 1 || got[0][0] != "2" || got[0][1] != "12345678901234567891.0123456789" || got[0][2] != "1" {
		t.Errorf("SELECT without a current database: %v", got)
	}
}
