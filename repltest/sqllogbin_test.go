package repltest

// SET SESSION sql_log_bin=0: changes applied on the source only, with no GTID and
// nothing replicated, kept through kill -9 of the source; replication goes on
// once the session logs again.

import (
	"testing"
)

func TestSQLLogBinOffIsLocal(t *testing.T) {
	t.Parallel()
	src := newProc(t, "source", 151)
	src.start()
	createReplUser(t, src.db)
	rep := startNode(t, "replica", 152)
	replicate(t, rep.db, src.port)
	waitRunning(t, rep.db)

	exec(t, src.db, "CREATE DATABASE lb", "CREATE TABLE lb.t (id INT PRIMARY KEY, v INT)", "INSERT INTO lb.t VALUES (1, 10)")
	waitCaughtUp(t, src.db, rep.db)
	before := gtidExecuted(t, src.db)

	c := conn(t, src.db)
	wantErr(t, c, 1228, "SET GLOBAL sql_log_bin = 0")
	exec(t, c, "SET SESSION sql_log_bin = 0")
	if got := str(t, c, "SELECT @@session.sql_log_bin"); got != "0" {
		t.Fatalf("@@session.sql_log_bin = %s, want 0", got)
	}
	exec(t, c,
		"CREATE USER local_only@'%' IDENTIFIED BY 'pw'",
		"GRANT SELECT ON lb.* TO local_only@'%'",
		"INSERT INTO lb.t VALUES (2, 20)",
		"UPDATE lb.t SET v = 11 WHERE id = 1",
		"CREATE TABLE lb.local_t (id INT PRIMARY KEY)",
		"INSERT INTO lb.local_t VALUES (7)",
	)
	// What binlite cannot keep out of the log is refused, not logged.
	wantErr(t, c, 1235, "CREATE DATABASE lb_local")
	exec(t, c, "BEGIN")
	wantErr(t, c, 1235, "INSERT INTO lb.t VALUES (3, 30)")
	wantErr(t, c, 1694, "SET SESSION sql_log_bin = 1")
	exec(t, c, "ROLLBACK")

	if got := gtidExecuted(t, src.db); !got.Equal(before) {
		t.Fatalf("gtid_executed advanced with sql_log_bin=0: %s -> %s", before, got)
	}
	exec(t, c, "SET sql_log_bin = 1", "INSERT INTO lb.t VALUES (4, 40)")
	waitCaughtUp(t, src.db, rep.db)
	if got := rows(t, rep.db, "SELECT id, v FROM lb.t ORDER BY id"); len(got) != 2 || got[0][1] != "10" || got[1][0] != "4" {
		t.Errorf("replica lb.t = %v, want (1,10),(4,40): nothing of the unlogged changes", got)
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM mysql.user WHERE User = 'local_only'"); n != 0 {
		t.Errorf("the account created with sql_log_bin=0 reached the replica")
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'lb' AND table_name = 'local_t'"); n != 0 {
		t.Errorf("the table created with sql_log_bin=0 reached the replica")
	}
	logged := gtidExecuted(t, src.db)
	if logged.Count() != before.Count()+1 {
		t.Errorf("gtid_executed %s after one logged insert, was %s", logged, before)
	}

	// A restricted session variable: an account without the privilege is refused.
	exec(t, src.db, "CREATE USER plain@'%' IDENTIFIED BY 'pw'")
	plain := openDB(t, src.addr(), "plain", "pw")
	defer plain.Close()
	wantErr(t, plain, 1227, "SET SESSION sql_log_bin = 0")
	exec(t, src.db, "CREATE USER admin2@'%' IDENTIFIED BY 'pw'", "GRANT SESSION_VARIABLES_ADMIN ON *.* TO admin2@'%'")
	admin := openDB(t, src.addr(), "admin2", "pw")
	exec(t, admin, "SET SESSION sql_log_bin = 0")
	admin.Close()
	logged = gtidExecuted(t, src.db) // the three account statements above were logged

	// kill -9: the unlogged changes are in storage, and recovery keeps them.
	src.kill()
	src.start()
	if got := rows(t, src.db, "SELECT id, v FROM lb.t ORDER BY id"); len(got) != 3 || got[0][1] != "11" || got[1][0] != "2" {
		t.Errorf("source lb.t after kill -9 = %v, want (1,11),(2,20),(4,40)", got)
	}
	if n := integer(t, src.db, "SELECT COUNT(*) FROM lb.local_t"); n != 1 {
		t.Errorf("source lb.local_t holds %d rows after kill -9, want 1", n)
	}
	if n := integer(t, src.db, "SELECT COUNT(*) FROM mysql.user WHERE User = 'local_only'"); n != 1 {
		t.Errorf("the account created with sql_log_bin=0 is gone after kill -9")
	}
	if got := gtidExecuted(t, src.db); !got.Equal(logged) {
		t.Errorf("gtid_executed after kill -9 = %s, want %s", got, logged)
	}
	// Replication goes on.
	exec(t, src.db, "INSERT INTO lb.t VALUES (5, 50)")
	waitCaughtUp(t, src.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM lb.t"); n != 3 {
		t.Errorf("replica lb.t holds %d rows, want 3 (1, 4, 5)", n)
	}
	if st := showStatus(t, rep.db); st["Last_SQL_Errno"] != "0" {
		t.Errorf("replica stopped: %v", st)
	}
}
