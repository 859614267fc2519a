package repltest

import (
	"strings"
	"testing"
)

// TestGrantsReplicate: accounts and their schema and table grants reach a
// replica through the binary log, and the replica enforces them; a REVOKE does
// too; the replication account works with REPLICATION SLAVE alone.
func TestGrantsReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 191)
	rep := startNode(t, "replica", 192)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE app", "CREATE TABLE app.t (id INT PRIMARY KEY)", "CREATE TABLE app.u (id INT PRIMARY KEY)",
		"INSERT INTO app.t VALUES (1)", "INSERT INTO app.u VALUES (1)",
		"CREATE USER app@'%' IDENTIFIED BY 'apw'", "GRANT SELECT ON app.t TO app@'%'", "GRANT INSERT ON app.* TO app@'%'")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	waitCaughtUp(t, src.db, rep.db)

	want := "GRANT USAGE ON *.* TO `app`@`%`\nGRANT INSERT ON `app`.* TO `app`@`%`\nGRANT SELECT ON `app`.`t` TO `app`@`%`"
	grants := func(q querier) string {
		var out []string
		for _, r := range rows(t, q, "SHOW GRANTS FOR app@'%'") {
			out = append(out, r[0])
		}
		return strings.Join(out, "\n")
	}
	if got := grants(rep.db); got != want {
		t.Fatalf("replica's SHOW GRANTS FOR app:\n%s\nwant\n%s", got, want)
	}
	app := openDB(t, rep.srv.Addr(), "app", "apw")
	defer app.Close()
	if got := integer(t, app, "SELECT COUNT(*) FROM app.t"); got != 1 {
		t.Errorf("app on the replica reads %d rows of app.t", got)
	}
	wantErr(t, app, 1142, "SELECT * FROM app.u")

	exec(t, src.db, "REVOKE SELECT ON app.t FROM app@'%'")
	waitCaughtUp(t, src.db, rep.db)
	wantErr(t, app, 1142, "SELECT * FROM app.t")
	if got := grants(rep.db); strings.Contains(got, "`app`.`t`") {
		t.Errorf("the REVOKE did not reach the replica: %s", got)
	}
}
