package difftest

import (
	"errors"
	"strings"
	"testing"

	"github.com/binlite/binlite/internal/testnode"
)

// TestShowGrantsAgainstMariaDB: SHOW GRANTS' text for schema- and table-level
// grants, USAGE, WITH GRANT OPTION and REVOKE, and the error codes of account
// statements, where MariaDB 10.11 answers as MySQL 8.4 does. (Global grants
// differ: MySQL 8.4 lists a global ALL privilege by privilege and has dynamic
// privileges; MariaDB writes ALL PRIVILEGES — see docs/security.md.)
func TestShowGrantsAgainstMariaDB(t *testing.T) {
	maria, err := StartMariaDB(t.TempDir())
	if errors.Is(err, ErrNoMariaDB) && testing.Short() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := maria.Stop(); err != nil {
			t.Errorf("stopping mariadbd: %v", err)
		}
	})
	node := testnode.Start(t)
	mc, err := Dial("MariaDB", maria.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	lc, err := Dial("binlite", node.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer lc.Close()

	steps := []string{
		"CREATE DATABASE IF NOT EXISTS gapp",
		"CREATE TABLE gapp.t (id INT PRIMARY KEY)",
		"CREATE USER 'g1'@'%' IDENTIFIED BY 'pw'",
		"SHOW GRANTS FOR 'g1'@'%'",
		"GRANT SELECT, INSERT ON gapp.* TO 'g1'@'%'",
		"GRANT UPDATE, DELETE ON gapp.t TO 'g1'@'%' WITH GRANT OPTION",
		"SHOW GRANTS FOR 'g1'@'%'",
		"GRANT ALL PRIVILEGES ON gapp.* TO 'g1'@'%'",
		"SHOW GRANTS FOR 'g1'@'%'",
		"GRANT ALL ON gapp.t TO 'g1'@'%'",
		"SHOW GRANTS FOR 'g1'@'%'",
		"REVOKE ALL PRIVILEGES ON gapp.* FROM 'g1'@'%'",
		"REVOKE DELETE ON gapp.t FROM 'g1'@'%'",
		"SHOW GRANTS FOR 'g1'@'%'",
		"REVOKE SELECT ON nowhere.* FROM 'g1'@'%'",
		"GRANT SUPER ON gapp.* TO 'g1'@'%'",
		"GRANT LOCK TABLES ON gapp.t TO 'g1'@'%'",
		"SHOW GRANTS FOR 'nobody'@'%'",
		"REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'g1'@'%'",
		"SHOW GRANTS FOR 'g1'@'%'",
		"DROP USER 'g1'@'%'",
		"SHOW GRANTS FOR 'g1'@'%'",
		"DROP DATABASE gapp",
	}
	for _, q := range steps {
		ma, err := mc.Run(q)
		if err != nil {
			t.Fatalf("MariaDB: %s: %v", q, err)
		}
		la, err := lc.Run(q)
		if err != nil {
			t.Fatalf("binlite: %s: %v", q, err)
		}
		if ma.Err != la.Err {
			t.Errorf("%s: MariaDB error %d (%s), binlite %d (%s)", q, ma.Err, ma.ErrMsg, la.Err, la.ErrMsg)
			continue
		}
		if got, want := grantLines(la), mariaOnly(grantLines(ma)); got != want {
			t.Errorf("%s:\nbinlite:\n%s\nMariaDB:\n%s", q, got, want)
		}
	}
}

// mariaOnly drops what MariaDB adds to SHOW GRANTS and MySQL 8.4 does not: the
// password hash on the USAGE line, the DELETE HISTORY privilege.
func mariaOnly(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, " IDENTIFIED BY PASSWORD '"); i >= 0 {
			l = l[:i]
		}
		out = append(out, strings.ReplaceAll(l, ", DELETE HISTORY", ""))
	}
	return strings.Join(out, "\n")
}

// grantLines is a SHOW GRANTS answer's rows, one line each.
func grantLines(a *Answer) string {
	var out []string
	for _, r := range a.Rows {
		var cells []string
		for _, v := range r {
			cells = append(cells, v.S)
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return strings.Join(out, "\n")
}
