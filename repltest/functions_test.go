package repltest

// The GTID functions and waits a DBA scripts failovers with.

import (
	"fmt"
	"strconv"
	"testing"
	"time"
)

func TestGTIDFunctions(t *testing.T) {
	t.Parallel()
	n := startNode(t, "node", 91)
	const (
		a = "3e11fa47-71ca-11e1-9e33-c80aa9429562"
		b = "4f22fb58-82db-22f2-af44-d91bb0530673"
	)
	for _, c := range []struct{ q, want string }{
		{fmt.Sprintf("SELECT GTID_SUBSET('%s:1-5', '%s:1-10')", a, a), "1"},
		{fmt.Sprintf("SELECT GTID_SUBSET('%s:1-10', '%s:1-5')", a, a), "0"},
		{fmt.Sprintf("SELECT GTID_SUBSET('%s:3:5', '%s:1-4,%s:1')", a, a, b), "0"},
		{fmt.Sprintf("SELECT GTID_SUBSET('%s:3,%s:1', '%s:1-4,%s:1-2')", a, b, a, b), "1"},
		{fmt.Sprintf("SELECT GTID_SUBSET('', '%s:1')", a), "1"},
		{"SELECT GTID_SUBSET('', '')", "1"},
		{fmt.Sprintf("SELECT GTID_SUBTRACT('%s:1-10', '%s:3-4')", a, a), a + ":1-2:5-10"},
		{fmt.Sprintf("SELECT GTID_SUBTRACT('%s:1-10,%s:1-3', '%s:1-10')", a, b, a), b + ":1-3"},
		{fmt.Sprintf("SELECT GTID_SUBTRACT('%s:1-3', '%s:1-3')", a, a), ""},
		{fmt.Sprintf("SELECT GTID_SUBTRACT('%s:1-3', '')", a), a + ":1-3"},
		// Upper-case uuids are the same server.
		{fmt.Sprintf("SELECT GTID_SUBSET('%s:2', '%s:1-3')", "3E11FA47-71CA-11E1-9E33-C80AA9429562", a), "1"},
	} {
		if got := str(t, n.db, c.q); got != c.want {
			t.Errorf("%s = %q, want %q", c.q, got, c.want)
		}
	}
	for _, q := range []string{"SELECT GTID_SUBSET('nonsense', '')", "SELECT GTID_SUBTRACT('" + a + ":x', '')", "SELECT WAIT_FOR_EXECUTED_GTID_SET('zz:1', 1)"} {
		if _, _, err := tryResult(n.db, q); err == nil {
			t.Errorf("%s: want an error for a malformed GTID set, got success", q)
		}
	}

	// WAIT_FOR_EXECUTED_GTID_SET: 1 on timeout for a set never executed, 0 at once
	// for what is executed (including the empty set).
	start := time.Now()
	if got := str(t, n.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s:1', 1)", a)); got != "1" {
		t.Errorf("WAIT_FOR_EXECUTED_GTID_SET of a never executed set = %s, want 1", got)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("WAIT_FOR_EXECUTED_GTID_SET(.., 1) returned after %v, before its timeout", d)
	}
	if got := str(t, n.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s:1', 0.2)", a)); got != "1" {
		t.Errorf("WAIT_FOR_EXECUTED_GTID_SET with a fractional timeout = %s, want 1", got)
	}
	exec(t, n.db, "CREATE DATABASE f", "CREATE TABLE f.t (id INT PRIMARY KEY)", "INSERT INTO f.t VALUES (1)")
	own := str(t, n.db, "SELECT @@gtid_executed")
	for _, s := range []string{own, ""} {
		if got := str(t, n.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s', 5)", s)); got != "0" {
			t.Errorf("WAIT_FOR_EXECUTED_GTID_SET('%s') on the node that executed it = %s, want 0", s, got)
		}
	}
	if got := str(t, n.db, fmt.Sprintf("SELECT GTID_SUBSET(@@gtid_executed, '%s')", own)); got != "1" {
		t.Errorf("GTID_SUBSET(@@gtid_executed, itself) = %s", got)
	}

	// @@gtid_purged follows PURGE BINARY LOGS.
	if got := str(t, n.db, "SELECT @@gtid_purged"); got != "" {
		t.Errorf("@@gtid_purged = %q before any purge", got)
	}
	exec(t, n.db, "FLUSH BINARY LOGS", "INSERT INTO f.t VALUES (2)")
	exec(t, n.db, fmt.Sprintf("PURGE BINARY LOGS TO '%s'", binlogStatus(t, n.db).file))
	if got := str(t, n.db, "SELECT @@gtid_purged"); got != own {
		t.Errorf("@@gtid_purged after purging the first file = %q, want %q", got, own)
	}
	if got := str(t, n.db, "SELECT GTID_SUBTRACT(@@gtid_executed, @@gtid_purged)"); got == "" || got == own {
		t.Errorf("GTID_SUBTRACT(@@gtid_executed, @@gtid_purged) = %q, want the one transaction after the purge", got)
	}
}

// TestWaitFunctionsOnReplica: WAIT_FOR_EXECUTED_GTID_SET wakes up when the replica
// applies, SOURCE_POS_WAIT/MASTER_POS_WAIT return 0 once the replica applied past a
// source position, -1 on timeout, NULL without a running SQL thread.
func TestWaitFunctionsOnReplica(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 101)
	rep := startNode(t, "replica", 102)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE w", "CREATE TABLE w.t (id INT PRIMARY KEY)")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	waitCaughtUp(t, src.db, rep.db)

	// A waiter that starts before the transaction exists.
	srcUUID := serverUUID(t, src.db)
	next := gtidExecuted(t, src.db).Last(mustUUID(t, srcUUID)) + 1
	done := make(chan string, 1)
	go func() {
		_, r, err := tryResult(rep.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s:%d', 30)", srcUUID, next))
		if err != nil {
			done <- err.Error()
			return
		}
		done <- r[0][0]
	}()
	exec(t, src.db, "INSERT INTO w.t VALUES (1)")
	select {
	case got := <-done:
		if got != "0" {
			t.Errorf("WAIT_FOR_EXECUTED_GTID_SET for the next source GTID = %s, want 0", got)
		}
	case <-time.After(catchUpTimeout):
		t.Fatalf("WAIT_FOR_EXECUTED_GTID_SET did not return")
	}
	if got := str(t, rep.db, "SELECT COUNT(*) FROM w.t"); got != "1" {
		t.Errorf("after WAIT_FOR_EXECUTED_GTID_SET returned 0 the row is not visible: COUNT(*) = %s", got)
	}

	// SOURCE_POS_WAIT with a position from SHOW BINARY LOG STATUS.
	for i := 2; i <= 20; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO w.t VALUES (%d)", i))
	}
	pos := binlogStatus(t, src.db)
	for _, f := range []string{"SOURCE_POS_WAIT", "MASTER_POS_WAIT"} {
		q := fmt.Sprintf("SELECT %s('%s', %d, 30)", f, pos.file, pos.pos)
		if got := str(t, rep.db, q); got != "0" {
			t.Errorf("%s = %s, want 0", q, got)
		}
		if got := str(t, rep.db, "SELECT COUNT(*) FROM w.t"); got != "20" {
			t.Errorf("after %s returned, the replica has %s rows, want 20", f, got)
		}
	}
	// Not reached within the timeout: -1.
	q := fmt.Sprintf("SELECT SOURCE_POS_WAIT('%s', %d, 1)", pos.file, pos.pos+1000000)
	if got := str(t, rep.db, q); got != "-1" {
		t.Errorf("%s = %s, want -1 (timeout)", q, got)
	}
	// Without a running SQL thread: NULL.
	exec(t, rep.db, "STOP REPLICA SQL_THREAD")
	q = fmt.Sprintf("SELECT SOURCE_POS_WAIT('%s', %d, 1)", pos.file, pos.pos)
	if got := str(t, rep.db, q); got != "NULL" {
		t.Errorf("%s with the SQL thread stopped = %s, want NULL", q, got)
	}
	exec(t, rep.db, "START REPLICA SQL_THREAD")
	assertInSync(t, src.db, rep.db)
}

// TestSourcePosWaitWithoutHeartbeat: with MySQL's default heartbeat (30 s here so
// that no heartbeat can hide anything), a replica that received and applied
// everything reports the source's end of log as Read_Source_Log_Pos and
// Exec_Source_Log_Pos, and SOURCE_POS_WAIT for SHOW BINARY LOG STATUS's position
// returns 0 at once.
func TestSourcePosWaitWithoutHeartbeat(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 111)
	rep := startNode(t, "replica", 112)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE hb", "CREATE TABLE hb.t (id INT PRIMARY KEY)")
	exec(t, rep.db, changeSourceSQL(src.port())+", SOURCE_HEARTBEAT_PERIOD=30", "START REPLICA")
	waitRunning(t, rep.db)
	for i := 1; i <= 5; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO hb.t VALUES (%d)", i))
	}
	pos := binlogStatus(t, src.db)
	waitExecuted(t, rep.db, pos.gtid)
	want := strconv.FormatInt(pos.pos, 10)
	st := waitStatus(t, rep.db, 5*time.Second, "Retrieved_Gtid_Set = "+pos.gtid, func(st status) bool {
		return st["Retrieved_Gtid_Set"] == pos.gtid
	})
	if st["Source_Log_File"] != pos.file || st["Read_Source_Log_Pos"] != want {
		t.Errorf("after receiving everything: Source_Log_File:Read_Source_Log_Pos = %s:%s, source SHOW BINARY LOG STATUS = %s:%d",
			st["Source_Log_File"], st["Read_Source_Log_Pos"], pos.file, pos.pos)
	}
	start := time.Now()
	q := fmt.Sprintf("SELECT SOURCE_POS_WAIT('%s', %d, 5)", pos.file, pos.pos)
	if got := str(t, rep.db, q); got != "0" {
		st := showStatus(t, rep.db)
		t.Errorf("%s on a replica that applied everything = %s after %v, want 0 (Read_Source_Log_Pos %s, Exec_Source_Log_Pos %s)",
			q, got, time.Since(start).Round(time.Millisecond), st["Read_Source_Log_Pos"], st["Exec_Source_Log_Pos"])
	}
}

// TestWaitForExecutedGTIDSetThenRead: the read-your-writes pattern of proxies and
// failover tools. Once WAIT_FOR_EXECUTED_GTID_SET returned 0 for a GTID (or
// @@gtid_executed contains it), a read on the replica sees that transaction's
// data — with the single SQL thread and with parallel workers.
func TestWaitForExecutedGTIDSetThenRead(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 100
	}
	for _, workers := range []int{0, 4} {
		t.Run(fmt.Sprintf("replica_parallel_workers=%d", workers), func(t *testing.T) {
			t.Parallel()
			src := startNode(t, "source", 211)
			rep := startNode(t, "replica", 212, opt("replica_parallel_workers", fmt.Sprint(workers)))
			createReplUser(t, src.db)
			exec(t, src.db, "CREATE DATABASE ryw1", "CREATE TABLE ryw1.t (id INT PRIMARY KEY, v INT NOT NULL)", "CREATE DATABASE ryw2", "CREATE TABLE ryw2.t (id INT PRIMARY KEY, v INT NOT NULL)")
			replicate(t, rep.db, src.port())
			waitRunning(t, rep.db)
			waitCaughtUp(t, src.db, rep.db)
			srcUUID := mustUUID(t, serverUUID(t, src.db))
			stale := 0
			for i := 1; i <= rounds; i++ {
				schema := []string{"ryw1", "ryw2"}[i%2]
				exec(t, src.db, fmt.Sprintf("INSERT INTO %s.t VALUES (%d, %d)", schema, i, i))
				g := fmt.Sprintf("%s:%d", srcUUID, gtidExecuted(t, src.db).Last(srcUUID))
				if i%2 == 0 {
					if got := str(t, rep.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s', 30)", g)); got != "0" {
						t.Fatalf("WAIT_FOR_EXECUTED_GTID_SET('%s', 30) = %s", g, got)
					}
				} else {
					eventually(t, 30*time.Second, "@@gtid_executed to contain "+g, func() (bool, string) {
						s := str(t, rep.db, fmt.Sprintf("SELECT GTID_SUBSET('%s', @@gtid_executed)", g))
						return s == "1", s
					})
				}
				if n := integer(t, rep.db, fmt.Sprintf("SELECT COUNT(*) FROM %s.t WHERE id = %d", schema, i)); n != 1 {
					stale++
					if stale <= 5 {
						t.Errorf("round %d: the replica executed %s but a read right after does not see its row %s.t id %d", i, g, schema, i)
					}
				}
			}
			if stale > 0 {
				t.Errorf("%d of %d reads after the GTID was executed missed the row", stale, rounds)
			}
			assertInSync(t, src.db, rep.db)
		})
	}
}

// TestGTIDExecutedImpliesVisibleOnSource: on a source too, a transaction whose GTID
// another session sees in @@gtid_executed is visible to that session.
func TestGTIDExecutedImpliesVisibleOnSource(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 221)
	exec(t, src.db, "CREATE DATABASE vis", "CREATE TABLE vis.t (id INT PRIMARY KEY)")
	u := mustUUID(t, serverUUID(t, src.db))
	base := gtidExecuted(t, src.db).Last(u) // row i is GTID base+i
	n := 1500
	if testing.Short() {
		n = 500
	}
	done := make(chan error, 1)
	go func() {
		for i := 1; i <= n; i++ {
			if err := tryExec(src.db, fmt.Sprintf("INSERT INTO vis.t VALUES (%d)", i)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	reader := conn(t, src.db)
	stale, checks := 0, 0
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		last := int64(gtidExecuted(t, reader).Last(u)) - int64(base)
		if last <= 0 {
			continue
		}
		checks++
		if got := integer(t, reader, fmt.Sprintf("SELECT COUNT(*) FROM vis.t WHERE id <= %d", last)); got != last {
			stale++
			if stale <= 5 {
				t.Errorf("@@gtid_executed contains the GTID of row %d, but the same session then sees only %d of rows 1..%d", last, got, last)
			}
		}
	}
	if stale > 0 {
		t.Errorf("%d of %d reads after @@gtid_executed missed committed rows", stale, checks)
	}
}
