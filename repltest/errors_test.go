package repltest

// What a replica does when it cannot go on: an apply error stops the SQL thread
// (and START REPLICA retries), a read-only replica refuses clients but keeps
// applying, and a source that purged what a new replica needs refuses with 1236.

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binlite/binlite/gtid"
)

// assertSourceGTIDsPlusLocal asserts that the replica executed everything the source
// did, and that what it has beyond that is exactly `local` transactions of its own
// uuid (writes made on the replica directly, as MySQL counts them).
func assertSourceGTIDsPlusLocal(t testing.TB, src, rep querier, local uint64) {
	t.Helper()
	a, b := gtidExecuted(t, src), gtidExecuted(t, rep)
	if missing := a.Subtract(b); !missing.IsEmpty() {
		t.Fatalf("replica is missing source GTIDs %s", missing)
	}
	extra := b.Subtract(a)
	repUUID, err := gtid.ParseUUID(serverUUID(t, rep))
	if err != nil {
		t.Fatal(err)
	}
	var want gtid.Set
	if local > 0 {
		want.AddRange(repUUID, 1, local)
	}
	if !extra.Equal(want) {
		t.Fatalf("replica's GTIDs beyond the source's = %q, want its own %q", extra.String(), want.String())
	}
}

func TestApplyErrorStopsSQLThreadAndStartReplicaRetries(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 51)
	rep := startNode(t, "replica", 52)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE e", "CREATE TABLE e.t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20) NOT NULL)", "INSERT INTO e.t VALUES (1, 'one')")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)

	// A row written on the replica directly (root is not held back by read_only).
	exec(t, rep.db, "INSERT INTO e.t VALUES (10, 'replica')")
	// The same key on the source: its transaction cannot apply.
	exec(t, src.db, "INSERT INTO e.t VALUES (10, 'source')")
	srcUUID := serverUUID(t, src.db)
	bad := fmt.Sprintf("%s:%d", srcUUID, gtidExecuted(t, src.db).Last(mustUUID(t, srcUUID)))
	exec(t, src.db, "INSERT INTO e.t VALUES (11, 'after')")

	st := waitStatus(t, rep.db, 30*time.Second, "the SQL thread to stop with Last_SQL_Errno 1062", func(st status) bool {
		return st["Replica_SQL_Running"] == "No" && st["Last_SQL_Errno"] != "0"
	})
	checkFields(t, "SHOW REPLICA STATUS after the apply error", st, map[string]string{
		"Replica_SQL_Running": "No",
		"Replica_IO_Running":  "Yes",
		"Last_SQL_Errno":      "1062",
		"Last_Errno":          "1062",
	})
	if !strings.Contains(st["Last_SQL_Error"], bad) {
		t.Errorf("Last_SQL_Error %q does not name the failing transaction %s", st["Last_SQL_Error"], bad)
	}
	if st["Last_Error"] != st["Last_SQL_Error"] {
		t.Errorf("Last_Error %q differs from Last_SQL_Error %q", st["Last_Error"], st["Last_SQL_Error"])
	}
	if st["Last_SQL_Error_Timestamp"] == "" {
		t.Errorf("Last_SQL_Error_Timestamp is empty after an apply error")
	}
	legacy := showStatus(t, rep.db, "SHOW SLAVE STATUS")
	if legacy["Slave_SQL_Running"] != "No" || legacy["Slave_IO_Running"] != "Yes" || legacy["Last_SQL_Errno"] != "1062" {
		t.Errorf("SHOW SLAVE STATUS: Slave_SQL_Running %q, Slave_IO_Running %q, Last_SQL_Errno %q", legacy["Slave_SQL_Running"], legacy["Slave_IO_Running"], legacy["Last_SQL_Errno"])
	}
	// The IO thread keeps receiving.
	srcExec := str(t, src.db, "SELECT @@gtid_executed")
	waitStatus(t, rep.db, 30*time.Second, "Retrieved_Gtid_Set = source gtid_executed while the SQL thread is stopped", func(st status) bool {
		return st["Retrieved_Gtid_Set"] == srcExec && st["Replica_IO_Running"] == "Yes"
	})
	if got := rows(t, rep.db, "SELECT id, v FROM e.t ORDER BY id"); fmt.Sprint(got) != "[[1 one] [10 replica]]" {
		t.Errorf("replica e.t after the failed apply = %v, want [[1 one] [10 replica]]", got)
	}
	if gtidExecuted(t, rep.db).Contains(mustGTID(t, bad)) {
		t.Errorf("the failed transaction %s is in the replica's gtid_executed", bad)
	}

	// START REPLICA without fixing anything: the same error again.
	exec(t, rep.db, "START REPLICA")
	st = waitStatus(t, rep.db, 30*time.Second, "the SQL thread to stop again", func(st status) bool {
		return st["Replica_SQL_Running"] == "No" && st["Last_SQL_Errno"] != "0"
	})
	if st["Last_SQL_Errno"] != "1062" {
		t.Errorf("second Last_SQL_Errno = %s, want 1062", st["Last_SQL_Errno"])
	}
	if !strings.Contains(st["Last_SQL_Error"], bad) {
		t.Errorf("second Last_SQL_Error %q does not name %s", st["Last_SQL_Error"], bad)
	}

	// Fix the replica and retry: it applies the failed transaction and what follows.
	exec(t, rep.db, "DELETE FROM e.t WHERE id = 10", "START REPLICA")
	waitRunning(t, rep.db)
	waitCaughtUp(t, src.db, rep.db)
	st = showStatus(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS after the retry", st, map[string]string{
		"Replica_SQL_Running": "Yes",
		"Last_SQL_Errno":      "0",
		"Last_SQL_Error":      "",
		"Last_Errno":          "0",
	})
	assertSameData(t, src.db, rep.db)
	assertSourceGTIDsPlusLocal(t, src.db, rep.db, 2) // the replica's INSERT and DELETE
	if got := rows(t, rep.db, "SELECT id, v FROM e.t ORDER BY id"); fmt.Sprint(got) != "[[1 one] [10 source] [11 after]]" {
		t.Errorf("replica e.t after the retry = %v", got)
	}

	// An UPDATE of a row the replica does not have also stops the SQL thread
	// (MySQL's 1032, HA_ERR_KEY_NOT_FOUND), instead of silently diverging.
	exec(t, rep.db, "DELETE FROM e.t WHERE id = 1")
	exec(t, src.db, "UPDATE e.t SET v = 'uno' WHERE id = 1")
	st = waitStatus(t, rep.db, 30*time.Second, "the SQL thread to stop on an UPDATE of a missing row", func(st status) bool {
		return st["Replica_SQL_Running"] == "No"
	})
	if st["Last_SQL_Errno"] != "1032" {
		t.Errorf("UPDATE of a row missing on the replica: Last_SQL_Errno %s (%s), want 1032", st["Last_SQL_Errno"], st["Last_SQL_Error"])
	}
	exec(t, rep.db, "INSERT INTO e.t VALUES (1, 'one')", "START REPLICA")
	waitRunning(t, rep.db)
	waitCaughtUp(t, src.db, rep.db)
	assertSameData(t, src.db, rep.db)
	assertSourceGTIDsPlusLocal(t, src.db, rep.db, 4)
}

func TestReadOnlyReplicaRefusesClientsButApplies(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 61)
	rep := startNode(t, "replica", 62)
	createReplUser(t, src.db)
	exec(t, src.db,
		"CREATE USER app@'%' IDENTIFIED BY 'apw'",
		"GRANT SELECT, INSERT, UPDATE, DELETE ON *.* TO app@'%'",
		"CREATE DATABASE ro",
		"CREATE TABLE ro.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL)",
	)
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)

	// The account replicated: app can log in to the replica.
	app := openDB(t, rep.srv.Addr(), "app", "apw")
	defer app.Close()
	srcApp := openDB(t, src.srv.Addr(), "app", "apw")
	defer srcApp.Close()
	exec(t, srcApp, "INSERT INTO ro.t VALUES (1, 1)") // app may write where writes are allowed
	waitCaughtUp(t, src.db, rep.db)
	exec(t, rep.db, "SET GLOBAL read_only = 1")
	if got := str(t, rep.db, "SELECT @@global.read_only"); got != "1" {
		t.Fatalf("@@global.read_only = %s after SET GLOBAL read_only = 1", got)
	}

	// A writer on the source the whole time.
	var (
		stop    atomic.Bool
		wg      sync.WaitGroup
		written atomic.Int64
		werr    atomic.Value
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 2; !stop.Load(); i++ {
			if err := tryExec(src.db, fmt.Sprintf("INSERT INTO ro.t VALUES (%d, %d)", i, i)); err != nil {
				werr.Store(err)
				return
			}
			written.Add(1)
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()

	// read_only: a client without SUPER gets 1290 for every kind of write...
	for _, q := range []string{
		"INSERT INTO ro.t VALUES (-1, 0)",
		"UPDATE ro.t SET v = v + 1",
		"DELETE FROM ro.t",
		"CREATE TABLE ro.x (id INT PRIMARY KEY)",
		"CREATE DATABASE ro2",
	} {
		wantErr(t, app, 1290, q)
	}
	// ...and can still read.
	if n := integer(t, app, "SELECT COUNT(*) FROM ro.t"); n < 1 {
		t.Errorf("app reads %d rows of ro.t on the replica", n)
	}
	// root has SUPER: read_only does not hold it back (MySQL semantics).
	exec(t, rep.db, "CREATE DATABASE local_only", "CREATE TABLE local_only.t (id INT PRIMARY KEY)", "INSERT INTO local_only.t VALUES (1)")

	// super_read_only holds back root too, and implies read_only.
	exec(t, rep.db, "SET GLOBAL super_read_only = 1")
	if got := str(t, rep.db, "SELECT @@global.read_only"); got != "1" {
		t.Errorf("@@global.read_only = %s with super_read_only on, want 1", got)
	}
	for _, q := range []string{
		"INSERT INTO ro.t VALUES (-2, 0)",
		"UPDATE ro.t SET v = 0 WHERE id = 1",
		"DELETE FROM local_only.t",
		"CREATE TABLE ro.y (id INT PRIMARY KEY)",
		"DROP DATABASE local_only",
	} {
		wantErr(t, rep.db, 1290, q)
		wantErr(t, app, 1290, q)
	}
	c := conn(t, rep.db)
	exec(t, c, "BEGIN")
	wantErr(t, c, 1290, "INSERT INTO ro.t VALUES (-3, 0)")
	exec(t, c, "ROLLBACK")

	// Replication kept applying all along.
	before := written.Load()
	eventually(t, 30*time.Second, "the source writer to make progress", func() (bool, string) {
		return written.Load() > before+20, fmt.Sprint(written.Load())
	})
	stop.Store(true)
	wg.Wait()
	if err, _ := werr.Load().(error); err != nil {
		t.Fatalf("source writer: %v", err)
	}
	waitCaughtUp(t, src.db, rep.db)
	st := showStatus(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS on a super_read_only replica", st, map[string]string{
		"Replica_IO_Running":  "Yes",
		"Replica_SQL_Running": "Yes",
		"Last_SQL_Errno":      "0",
	})

	// Turning read_only off turns super_read_only off as well (MySQL semantics).
	exec(t, rep.db, "SET GLOBAL read_only = 0")
	if got := str(t, rep.db, "SELECT @@global.super_read_only"); got != "0" {
		t.Errorf("@@global.super_read_only = %s after SET GLOBAL read_only = 0, want 0", got)
		exec(t, rep.db, "SET GLOBAL super_read_only = 0") // go on with the rest of the test
	}
	exec(t, rep.db, "DROP DATABASE local_only")
	assertSameData(t, src.db, rep.db)
	assertSourceGTIDsPlusLocal(t, src.db, rep.db, 4) // CREATE DATABASE, CREATE TABLE, INSERT, DROP DATABASE
	t.Logf("%d source transactions applied while the replica was read-only", written.Load())
}

func TestReplicaAskingForPurgedGTIDsGets1236(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 71)
	old := startNode(t, "old-replica", 72)
	fresh := startNode(t, "new-replica", 73)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE p", "CREATE TABLE p.t (id INT PRIMARY KEY)", "INSERT INTO p.t VALUES (1), (2)")
	// A replica that already has everything before the purge.
	replicate(t, old.db, src.port())
	waitRunning(t, old.db)
	assertInSync(t, src.db, old.db)

	if got := str(t, src.db, "SELECT @@gtid_purged"); got != "" {
		t.Errorf("@@gtid_purged before any purge = %q, want empty", got)
	}
	first := gtidExecuted(t, src.db)
	exec(t, src.db, "FLUSH BINARY LOGS", "INSERT INTO p.t VALUES (3)", "INSERT INTO p.t VALUES (4)")
	newest := binlogStatus(t, src.db).file
	exec(t, src.db, fmt.Sprintf("PURGE BINARY LOGS TO '%s'", newest))
	if logs := rows(t, src.db, "SHOW BINARY LOGS"); len(logs) != 1 || logs[0][0] != newest {
		t.Fatalf("SHOW BINARY LOGS after PURGE BINARY LOGS TO '%s' = %v", newest, logs)
	}
	purged := gtidSet(t, str(t, src.db, "SELECT @@gtid_purged"))
	if !purged.Equal(first) {
		t.Errorf("@@gtid_purged = %s, want %s (everything in the purged file)", purged, first)
	}

	// A new, empty replica needs the purged GTIDs.
	replicate(t, fresh.db, src.port())
	st := waitStatus(t, fresh.db, 30*time.Second, "Replica_IO_Running=No with Last_IO_Errno 13114", func(st status) bool {
		return st["Replica_IO_Running"] == "No" && st["Last_IO_Errno"] != "0"
	})
	if st["Last_IO_Errno"] != "13114" {
		t.Errorf("Last_IO_Errno = %s, want 13114", st["Last_IO_Errno"])
	}
	msg := st["Last_IO_Error"]
	if !strings.Contains(msg, "1236") || !strings.Contains(strings.ToLower(msg), "purged") {
		t.Errorf("Last_IO_Error = %q, want it to mention 1236 and purged", msg)
	}
	if !strings.Contains(msg, purged.String()) {
		t.Errorf("Last_IO_Error = %q does not name the missing transactions %s", msg, purged)
	}
	if st["Last_IO_Error_Timestamp"] == "" {
		t.Errorf("Last_IO_Error_Timestamp is empty")
	}
	// The IO thread stays stopped (it does not retry a fatal error).
	if st := showStatus(t, fresh.db); st["Replica_IO_Running"] != "No" || st["Last_IO_Errno"] != "13114" {
		t.Errorf("IO thread after a fatal 1236: Replica_IO_Running %s, Last_IO_Errno %s", st["Replica_IO_Running"], st["Last_IO_Errno"])
	}
	if got := str(t, fresh.db, "SELECT @@gtid_executed"); got != "" {
		t.Errorf("new replica executed %q, want nothing", got)
	}

	// The replica that had everything is not affected.
	exec(t, src.db, "INSERT INTO p.t VALUES (5)")
	assertInSync(t, src.db, old.db)

	// Provisioning the new replica with the purged part (here: from the old
	// replica, as a DBA would restore a backup) lets it replicate from the source.
	exec(t, fresh.db, "STOP REPLICA", "RESET REPLICA ALL")
	replicate(t, fresh.db, old.port())
	waitRunning(t, fresh.db)
	waitExecuted(t, fresh.db, first.String())
	exec(t, fresh.db, "STOP REPLICA", "RESET REPLICA ALL")
	replicate(t, fresh.db, src.port())
	waitRunning(t, fresh.db)
	exec(t, src.db, "INSERT INTO p.t VALUES (6)")
	assertInSync(t, src.db, fresh.db)
}

func mustUUID(t testing.TB, s string) gtid.UUID {
	t.Helper()
	u, err := gtid.ParseUUID(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func mustGTID(t testing.TB, s string) gtid.GTID {
	t.Helper()
	g, err := gtid.ParseGTID(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
