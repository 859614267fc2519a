package repltest

// Beyond the basic set-up: file/position replication (COM_BINLOG_DUMP), failover
// with auto-positioning, transactions larger than a protocol packet, and the
// connection errors a misconfigured replica meets.

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFilePositionReplication: SOURCE_AUTO_POSITION=0 with SOURCE_LOG_FILE/POS
// streams from that position (COM_BINLOG_DUMP): from the first file's start
// everything, from a later file only what it holds.
func TestFilePositionReplication(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 151)
	full := startNode(t, "replica-full", 152)
	part := startNode(t, "replica-part", 153)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE fp1", "CREATE TABLE fp1.t (id INT PRIMARY KEY)", "INSERT INTO fp1.t VALUES (1), (2)")
	before := gtidExecuted(t, src.db)
	exec(t, src.db, "FLUSH BINARY LOGS")
	second := binlogStatus(t, src.db).file
	exec(t, src.db, "CREATE DATABASE fp2", "CREATE TABLE fp2.t (id INT PRIMARY KEY, v TEXT)", "INSERT INTO fp2.t VALUES (1, 'x')")

	filePos := func(file string) string {
		return fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', GET_SOURCE_PUBLIC_KEY=1, SOURCE_AUTO_POSITION=0, SOURCE_LOG_FILE='%s', SOURCE_LOG_POS=4, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1", src.port(), file)
	}
	exec(t, full.db, filePos("binlog.000001"), "START REPLICA")
	st := waitRunning(t, full.db)
	if st["Auto_Position"] != "0" {
		t.Errorf("Auto_Position = %s with SOURCE_AUTO_POSITION=0", st["Auto_Position"])
	}
	exec(t, src.db, "INSERT INTO fp2.t VALUES (2, 'y')") // fp2 only: the partial replica has no fp1
	assertInSync(t, src.db, full.db)

	exec(t, part.db, filePos(second), "START REPLICA")
	waitRunning(t, part.db)
	all := gtidExecuted(t, src.db)
	wantPart := all.Subtract(before)
	waitExecuted(t, part.db, wantPart.String())
	if got := gtidExecuted(t, part.db); !got.Equal(wantPart) {
		t.Errorf("replica started at %s:4 executed %s, want only %s", second, got, wantPart)
	}
	if got := rows(t, part.db, "SHOW DATABASES"); containsRow(got, "fp1") || !containsRow(got, "fp2") {
		t.Errorf("replica started at %s:4 has databases %v, want fp2 and not fp1", second, got)
	}
	// Once it has received something it resumes by GTID across a restart.
	part.restart()
	exec(t, src.db, "INSERT INTO fp2.t VALUES (3, 'z')")
	waitRunning(t, part.db)
	waitExecuted(t, part.db, gtidExecuted(t, src.db).Subtract(before).String())
	if got := rows(t, part.db, "SELECT id, v FROM fp2.t ORDER BY id"); fmt.Sprint(got) != "[[1 x] [2 y] [3 z]]" {
		t.Errorf("fp2.t on the partial replica = %v", got)
	}
	if got := gtidExecuted(t, part.db); !got.Equal(gtidExecuted(t, src.db).Subtract(before)) {
		t.Errorf("partial replica executed %s after a restart, want %s", got, gtidExecuted(t, src.db).Subtract(before))
	}
}

// TestFailoverRepointWithAutoPosition: the source goes away, replica1 is promoted,
// replica2 re-points to it with auto-positioning and continues without a gap or a
// duplicate; GTID_SUBTRACT shows what the new source wrote.
func TestFailoverRepointWithAutoPosition(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 161)
	r1 := startNode(t, "replica1", 162)
	r2 := startNode(t, "replica2", 163)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE fo", "CREATE TABLE fo.t (id INT PRIMARY KEY, who VARCHAR(10))")
	replicate(t, r1.db, src.port())
	replicate(t, r2.db, src.port())
	waitRunning(t, r1.db)
	waitRunning(t, r2.db)
	for i := 1; i <= 30; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO fo.t VALUES (%d, 'old')", i))
	}
	// replica2 lags behind: its applier is stopped for the last writes.
	waitCaughtUp(t, src.db, r2.db)
	exec(t, r2.db, "STOP REPLICA")
	for i := 31; i <= 40; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO fo.t VALUES (%d, 'old')", i))
	}
	waitCaughtUp(t, src.db, r1.db)
	oldSet := gtidExecuted(t, src.db)
	src.close()

	// Promote replica1.
	exec(t, r1.db, "STOP REPLICA", "RESET REPLICA ALL")
	for i := 41; i <= 50; i++ {
		exec(t, r1.db, fmt.Sprintf("INSERT INTO fo.t VALUES (%d, 'new')", i))
	}
	// replica2 re-points: it gets 31-40 (the old source's, from replica1's binary
	// log) and 41-50 (replica1's own).
	exec(t, r2.db, changeSourceSQL(r1.port()), "START REPLICA")
	waitRunning(t, r2.db)
	assertInSync(t, r1.db, r2.db)
	if got := integer(t, r2.db, "SELECT COUNT(*) FROM fo.t"); got != 50 {
		t.Errorf("replica2 has %d rows after the failover, want 50", got)
	}
	st := showStatus(t, r2.db)
	if st["Source_UUID"] != serverUUID(t, r1.db) || st["Source_Server_Id"] != "162" {
		t.Errorf("replica2 Source_UUID/Source_Server_Id = %s/%s, want replica1's", st["Source_UUID"], st["Source_Server_Id"])
	}
	newOnly := str(t, r2.db, fmt.Sprintf("SELECT GTID_SUBTRACT(@@gtid_executed, '%s')", oldSet))
	want := serverUUID(t, r1.db) + ":1-10"
	if newOnly != want {
		t.Errorf("GTID_SUBTRACT(@@gtid_executed, old source's set) on replica2 = %q, want %q", newOnly, want)
	}
	want2 := gtidExecuted(t, r2.db)
	r2.close()
	assertBinlogOnce(t, r2.dir, want2)
}

// TestLargeTransactionsReplicate: a row larger than one 16 MB protocol packet and a
// transaction of many thousand rows replicate exactly.
func TestLargeTransactionsReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 171)
	rep := startNode(t, "replica", 172)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	exec(t, src.db, "CREATE DATABASE big", "CREATE TABLE big.blobs (id INT PRIMARY KEY, b LONGBLOB, s LONGTEXT)", "CREATE TABLE big.many (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(64))")

	huge := bytes.Repeat([]byte{0, 1, 2, 250, 'x'}, 17<<20/5) // 17 MB: more than one packet
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := src.db.ExecContext(ctx, "INSERT INTO big.blobs VALUES (1, ?, ?)", huge, strings.Repeat("é", 1<<20)); err != nil {
		t.Fatalf("inserting a 17 MB row: %v", err)
	}
	if _, err := src.db.ExecContext(ctx, "UPDATE big.blobs SET s = CONCAT(s, 'tail') WHERE id = 1"); err != nil {
		t.Fatalf("updating the 17 MB row: %v", err)
	}

	n := 20000
	if testing.Short() {
		n = 5000
	}
	c := conn(t, src.db)
	exec(t, c, "BEGIN")
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if b.Len() == 0 {
			b.WriteString("INSERT INTO big.many VALUES ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, %d, 'row %d')", i, i%97, i)
		if i%1000 == 0 {
			exec(t, c, b.String())
			b.Reset()
		}
	}
	exec(t, c, "UPDATE big.many SET v = v + 1 WHERE id % 2 = 0", "DELETE FROM big.many WHERE id % 5 = 0", "COMMIT")
	exec(t, src.db, "UPDATE big.many SET s = CONCAT(s, '!')") // one statement, thousands of rows

	assertInSync(t, src.db, rep.db)
	// The replica holds exactly the bytes the source stored (and in the same storage
	// class: the Go driver sends []byte parameters as strings, so both store TEXT).
	var got []byte
	if err := rep.db.QueryRow("SELECT b FROM big.blobs WHERE id = 1").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, huge) {
		t.Errorf("replica holds %d bytes, want the source's %d", len(got), len(huge))
	}
	if s, r := str(t, src.db, "SELECT TYPEOF(b) FROM big.blobs WHERE id = 1"), str(t, rep.db, "SELECT TYPEOF(b) FROM big.blobs WHERE id = 1"); s != r {
		t.Errorf("storage class differs: source %s, replica %s", s, r)
	}
}

// TestConnectionErrorsOfMisconfiguredReplica: wrong password, missing privilege and
// an equal server id are reported in Last_IO_Errno/Error; the first two are retried.
func TestConnectionErrorsOfMisconfiguredReplica(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 181)
	rep := startNode(t, "replica", 182)
	same := startNode(t, "same-id", 181)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE USER noprivs@'%' IDENTIFIED BY 'pw'", "CREATE DATABASE ce", "CREATE TABLE ce.t (id INT PRIMARY KEY)", "INSERT INTO ce.t VALUES (1)")

	// Wrong password: 1045, and the IO thread keeps trying.
	exec(t, rep.db, changeSourceSQL(src.port())+", SOURCE_PASSWORD='wrong'", "START REPLICA")
	st := waitStatus(t, rep.db, 30*time.Second, "Last_IO_Errno 1045", func(st status) bool { return st["Last_IO_Errno"] != "0" })
	if st["Last_IO_Errno"] != "1045" || !strings.Contains(st["Last_IO_Error"], "Access denied") {
		t.Errorf("wrong password: Last_IO_Errno %s, Last_IO_Error %q, want 1045 Access denied", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
	if st["Replica_IO_Running"] != "Connecting" {
		t.Errorf("wrong password: Replica_IO_Running = %s, want Connecting (retrying)", st["Replica_IO_Running"])
	}
	// No REPLICATION SLAVE privilege: 1227.
	exec(t, rep.db, "STOP REPLICA", changeSourceSQL(src.port())+", SOURCE_USER='noprivs'", "START REPLICA")
	st = waitStatus(t, rep.db, 30*time.Second, "Last_IO_Errno set for a user without REPLICATION SLAVE", func(st status) bool { return st["Last_IO_Errno"] != "0" })
	if st["Last_IO_Errno"] != "1227" || !strings.Contains(st["Last_IO_Error"], "REPLICATION SLAVE") {
		t.Errorf("no privilege: Last_IO_Errno %s, Last_IO_Error %q, want 1227 naming REPLICATION SLAVE", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
	// Fixed: it connects and copies.
	exec(t, rep.db, "STOP REPLICA", changeSourceSQL(src.port()), "START REPLICA")
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)
	if st := showStatus(t, rep.db); st["Last_IO_Errno"] != "0" || st["Last_IO_Error"] != "" {
		t.Errorf("after fixing the settings: Last_IO_Errno %s, Last_IO_Error %q", st["Last_IO_Errno"], st["Last_IO_Error"])
	}

	// Equal server ids: fatal 1593, the IO thread stops.
	exec(t, same.db, changeSourceSQL(src.port()), "START REPLICA")
	st = waitStatus(t, same.db, 30*time.Second, "Replica_IO_Running=No with an error", func(st status) bool {
		return st["Replica_IO_Running"] == "No" && st["Last_IO_Errno"] != "0"
	})
	if st["Last_IO_Errno"] != "1593" {
		t.Errorf("equal server ids: Last_IO_Errno %s (%s), want 1593", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
	if got := str(t, same.db, "SELECT @@gtid_executed"); got != "" {
		t.Errorf("a replica with the source's server id executed %s", got)
	}

	// Replicating from itself is refused as well.
	exec(t, same.db, "STOP REPLICA", "RESET REPLICA ALL")
	createReplUser(t, same.db)
	exec(t, same.db, changeSourceSQL(same.port()), "START REPLICA")
	st = waitStatus(t, same.db, 30*time.Second, "Replica_IO_Running=No replicating from itself", func(st status) bool {
		return st["Replica_IO_Running"] == "No" && st["Last_IO_Errno"] != "0"
	})
	if st["Last_IO_Errno"] != "1593" {
		t.Errorf("replicating from itself: Last_IO_Errno %s (%s), want 1593", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
}

// TestSourceRetryCountGivesUp: with SOURCE_RETRY_COUNT=2 the IO thread stops after
// two failed reconnects and says so; START REPLICA once the source is back resumes.
func TestSourceRetryCountGivesUp(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 191)
	rep := startNode(t, "replica", 192)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE rc", "CREATE TABLE rc.t (id INT PRIMARY KEY)", "INSERT INTO rc.t VALUES (1)")
	exec(t, rep.db, changeSourceSQL(src.port())+", SOURCE_RETRY_COUNT=2", "START REPLICA")
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)

	src.close()
	st := waitStatus(t, rep.db, 30*time.Second, "Replica_IO_Running=No after two failed reconnects", func(st status) bool {
		return st["Replica_IO_Running"] == "No"
	})
	if !strings.Contains(st["Last_IO_Error"], "2/2") || st["Last_IO_Errno"] == "0" {
		t.Errorf("after giving up: Last_IO_Errno %s, Last_IO_Error %q, want the last attempt 2/2", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
	if st["Replica_SQL_Running"] != "Yes" {
		t.Errorf("Replica_SQL_Running = %s after the IO thread gave up, want Yes", st["Replica_SQL_Running"])
	}

	// The source is back (on another port): re-point and START REPLICA.
	src.open()
	exec(t, src.db, "INSERT INTO rc.t VALUES (2)")
	exec(t, rep.db, "STOP REPLICA", changeSourceSQL(src.port()), "START REPLICA")
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)
}

// TestReplicaAheadOfSourceAfterResetBinaryLogs: a source that forgot its GTIDs
// (RESET BINARY LOGS AND GTIDS) and issues the same numbers again is refused:
// the replica has more of the source's GTIDs than the source (1236 / 13114).
func TestReplicaAheadOfSourceAfterResetBinaryLogs(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 201)
	rep := startNode(t, "replica", 202)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE ra", "CREATE TABLE ra.t (id INT PRIMARY KEY)")
	for i := 1; i <= 5; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO ra.t VALUES (%d)", i))
	}
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)
	exec(t, rep.db, "STOP REPLICA")
	exec(t, src.db, "RESET BINARY LOGS AND GTIDS", "INSERT INTO ra.t VALUES (6)")
	if got := gtidExecuted(t, src.db).Count(); got != 1 {
		t.Fatalf("source gtid_executed has %d GTIDs after RESET BINARY LOGS AND GTIDS and one write, want 1", got)
	}
	exec(t, rep.db, "START REPLICA")
	st := waitStatus(t, rep.db, 30*time.Second, "Replica_IO_Running=No with an error", func(st status) bool {
		return st["Replica_IO_Running"] == "No" && st["Last_IO_Errno"] != "0"
	})
	if st["Last_IO_Errno"] != "13114" || !strings.Contains(st["Last_IO_Error"], "1236") || !strings.Contains(st["Last_IO_Error"], "more GTIDs") {
		t.Errorf("replica ahead of its source: Last_IO_Errno %s, Last_IO_Error %q, want 13114 with 1236 and 'more GTIDs'", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
	if got := integer(t, rep.db, "SELECT COUNT(*) FROM ra.t"); got != 5 {
		t.Errorf("replica has %d rows, want the 5 it had", got)
	}
}
