package repltest

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// queueOnReplica makes schemas s1..sN with one table each on the source, lets the
// replica copy them, stops its applier, writes n interleaved single-row updates on the
// source and waits until the replica's relay log holds them all.
func queueOnReplica(t *testing.T, src, rep *node, schemas, n int) {
	t.Helper()
	createReplUser(t, src.db)
	for i := 1; i <= schemas; i++ {
		exec(t, src.db, fmt.Sprintf("CREATE DATABASE s%d", i), fmt.Sprintf("CREATE TABLE s%d.t (id INT PRIMARY KEY, v INT NOT NULL)", i))
		for id := 1; id <= 10; id++ {
			exec(t, src.db, fmt.Sprintf("INSERT INTO s%d.t VALUES (%d, 0)", i, id))
		}
	}
	replicate(t, rep.db, src.port())
	waitCaughtUp(t, src.db, rep.db)
	exec(t, rep.db, "STOP REPLICA SQL_THREAD")
	for k := 0; k < n; k++ {
		exec(t, src.db, fmt.Sprintf("UPDATE s%d.t SET v = v + 1 WHERE id = %d", k%schemas+1, k%10+1))
	}
	want := str(t, src.db, "SELECT @@gtid_executed")
	waitStatus(t, rep.db, 30*time.Second, "relay log holds every update", func(st status) bool { return st["Retrieved_Gtid_Set"] == want })
}

type workerRow struct {
	id      int
	applied int64
	last    string
}

func workerRows(t *testing.T, q querier) []workerRow {
	t.Helper()
	var out []workerRow
	for _, r := range rows(t, q, "SELECT WORKER_ID, APPLIED_TRANSACTIONS, LAST_APPLIED_TRANSACTION FROM performance_schema.replication_applier_status_by_worker ORDER BY WORKER_ID") {
		id, _ := strconv.Atoi(r[0])
		n, _ := strconv.ParseInt(r[1], 10, 64)
		out = append(out, workerRow{id: id, applied: n, last: r[2]})
	}
	return out
}

// With replica_parallel_workers=4 and four schemas, the applier spreads schema runs
// over the workers, each worker reports what it applied, and the data is exact.
func TestParallelWorkersDispatchBySchema(t *testing.T) {
	src := startNode(t, "source", 401)
	rep := startNode(t, "replica", 402, opt("replica_parallel_workers", "4"))
	queueOnReplica(t, src, rep, 4, 400)

	// START REPLICA SQL_THREAD starts a new applier whose workers count from zero.
	exec(t, rep.db, "START REPLICA SQL_THREAD")
	waitCaughtUp(t, src.db, rep.db)
	assertInSync(t, src.db, rep.db)

	ws := workerRows(t, rep.db)
	if len(ws) != 4 {
		t.Fatalf("performance_schema shows %d workers, want 4", len(ws))
	}
	var total int64
	busy := 0
	for _, w := range ws {
		total += w.applied
		if w.applied > 0 {
			busy++
		}
	}
	if got := total; got != 400 {
		t.Errorf("workers applied %d transactions after START, want 400", got)
	}
	if busy < 2 {
		t.Errorf("only %d of 4 workers applied anything: %+v", busy, ws)
	}
	// The legacy name reads the same setting.
	if v := integer(t, rep.db, "SELECT @@slave_parallel_workers"); v != 4 {
		t.Errorf("@@slave_parallel_workers = %d", v)
	}
}

// replica_parallel_workers set with SET GLOBAL takes effect at the next start of the
// SQL thread, and 0 means the coordinator alone (one worker slot).
func TestWorkersSettingAppliesAtSQLThreadStart(t *testing.T) {
	src := startNode(t, "source", 411)
	rep := startNode(t, "replica", 412)
	queueOnReplica(t, src, rep, 3, 60)
	exec(t, rep.db, "SET GLOBAL slave_parallel_workers = 0")
	if v := integer(t, rep.db, "SELECT @@replica_parallel_workers"); v != 0 {
		t.Fatalf("@@replica_parallel_workers = %d after SET GLOBAL slave_parallel_workers = 0", v)
	}
	exec(t, rep.db, "START REPLICA SQL_THREAD")
	waitCaughtUp(t, src.db, rep.db)
	if ws := workerRows(t, rep.db); len(ws) != 1 || ws[0].applied < 60 {
		t.Fatalf("with 0 workers: %+v, want one worker that applied all 60", ws)
	}
	assertInSync(t, src.db, rep.db)
}

// relayOrder returns the source's sequence numbers in the order a node's binary log
// holds them.
func logOrder(t *testing.T, dir, uuid string) []uint64 {
	t.Helper()
	u, err := gtid.ParseUUID(uuid)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "binlog.[0-9]*"))
	sort.Strings(files)
	var seqs []uint64
	for _, f := range files {
		if err := binlog.ReadFile(f, func(_ binlog.EventHeader, ev binlog.Event) error {
			if g, ok := ev.(*binlog.GTIDEvent); ok && g.GTID.UUID == u {
				seqs = append(seqs, g.GTID.Seq)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return seqs
}

// replica_preserve_commit_order=ON: however many workers, the replica commits (and so
// logs) the source's transactions in source order.
func TestPreserveCommitOrder(t *testing.T) {
	src := startNode(t, "source", 421)
	rep := startNode(t, "replica", 422, opt("replica_parallel_workers", "4"), opt("replica_preserve_commit_order", "ON"))
	queueOnReplica(t, src, rep, 4, 200)
	exec(t, rep.db, "START REPLICA SQL_THREAD")
	waitCaughtUp(t, src.db, rep.db)
	assertInSync(t, src.db, rep.db)
	seqs := logOrder(t, rep.dir, serverUUID(t, src.db))
	if !sort.SliceIsSorted(seqs, func(i, j int) bool { return seqs[i] < seqs[j] }) {
		for i := 1; i < len(seqs); i++ {
			if seqs[i] < seqs[i-1] {
				t.Fatalf("replica logged source transaction %d after %d (position %d of %d)", seqs[i], seqs[i-1], i, len(seqs))
			}
		}
	}
	if v := integer(t, rep.db, "SELECT @@slave_preserve_commit_order"); v != 1 {
		t.Errorf("@@slave_preserve_commit_order = %d", v)
	}
}

// A transaction that writes two schemas is applied atomically by the parallel applier:
// after catch-up both rows are there and the replica logged it once, with both schemas.
func TestCrossSchemaTransactionAppliedAtomically(t *testing.T) {
	src := startNode(t, "source", 431)
	rep := startNode(t, "replica", 432, opt("replica_parallel_workers", "4"))
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE a", "CREATE TABLE a.t (id INT PRIMARY KEY)", "CREATE DATABASE b", "CREATE TABLE b.t (id INT PRIMARY KEY)")
	replicate(t, rep.db, src.port())
	c := conn(t, src.db)
	for i := 1; i <= 50; i++ {
		exec(t, c, "USE a", "BEGIN", fmt.Sprintf("INSERT INTO t VALUES (%d)", i), "USE b", fmt.Sprintf("INSERT INTO t VALUES (%d)", i), "COMMIT")
		exec(t, src.db, fmt.Sprintf("INSERT INTO a.t VALUES (%d)", 1000+i))
	}
	waitCaughtUp(t, src.db, rep.db)
	assertInSync(t, src.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM b.t"); n != 50 {
		t.Fatalf("b.t has %d rows on the replica, want 50", n)
	}
	want := assertSameGTIDs(t, src.db, rep.db)
	dir := rep.dir
	rep.close()
	assertBinlogOnce(t, dir, want)
}
