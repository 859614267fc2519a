package server_test

// DDL answers MySQL gives before anything changes: DROP TABLE of missing tables
// (1051, naming all of them, dropping none), two PRIMARY KEYs (1068); and a
// SERIAL column (a unique AUTO_INCREMENT without a PRIMARY KEY) generates ids.

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestDDLRefusalsAndSerial(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE dd")
	c := tn.Conn(t, n.DB("dd"))
	tn.Exec(t, c, "CREATE TABLE a (id INT)")
	tn.ExecError(t, c, 1051, "42S02", "DROP TABLE a, nosuch, other")
	if got := tn.Rows(t, c, "SHOW TABLES"); len(got) != 1 || got[0][0] != "a" {
		t.Errorf("a failed DROP TABLE dropped something: %v", got)
	}
	tn.Exec(t, c, "DROP TABLE IF EXISTS a, nosuch, other")
	if got := tn.Rows(t, c, "SHOW WARNINGS"); len(got) != 1 || got[0][1] != "1051" || got[0][2] != "Unknown table 'dd.nosuch,dd.other'" {
		t.Errorf("warnings of DROP TABLE IF EXISTS: %v", got)
	}
	tn.ExecError(t, c, 1068, "42000", "CREATE TABLE twopk (a INT PRIMARY KEY, b INT PRIMARY KEY)")

	tn.Exec(t, c, "CREATE TABLE serials (id SERIAL, v INT)")
	tn.Exec(t, c, "INSERT INTO serials (v) VALUES (10), (20)")
	tn.Exec(t, c, "INSERT INTO serials (id, v) VALUES (0, 30)")
	if got := tn.Rows(t, c, "SELECT id, v FROM serials ORDER BY id"); len(got) != 3 || got[0][0] != "1" || got[1][0] != "2" || got[2][0] != "3" {
		t.Errorf("SERIAL ids: %v", got)
	}
}
