package repltest

// kill -9 of a replica dozens of times, and of a source several times, under a
// continuous write load: nothing acknowledged is lost, the replica ends an exact
// copy, and no GTID is missing or applied twice.

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/binlite/binlite/config"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/internal/crashpoint"
)

// multiLoad is the write load of the kill tests: per schema, workers doing
// autocommit inserts with unique ids and updates of their own rows; one worker
// doing explicit transactions that write two schemas at once. When a statement
// fails (the node is down), a worker waits for up() and goes on with a new id.
type multiLoad struct {
	q       *sql.DB
	schemas []string
	up      func() <-chan struct{} // nil: failures are fatal

	stop atomic.Bool
	wg   sync.WaitGroup

	mu       sync.Mutex
	err      error
	acked    int64
	failed   int64
	inserted map[string]map[int64]bool  // schema -> acknowledged ids
	updAck   map[string]map[int64]int64 // schema -> id -> acknowledged increments
	updTry   map[string]map[int64]int64 // schema -> id -> attempted increments
	progress chan struct{}              // closed and replaced on every acknowledged write
}

func newMultiLoad(t testing.TB, q *sql.DB, schemas []string, up func() <-chan struct{}) *multiLoad {
	t.Helper()
	l := &multiLoad{q: q, schemas: schemas, up: up, inserted: map[string]map[int64]bool{}, updAck: map[string]map[int64]int64{}, updTry: map[string]map[int64]int64{}, progress: make(chan struct{})}
	for _, s := range schemas {
		exec(t, q, "CREATE DATABASE "+s, "CREATE TABLE "+s+".t (id BIGINT NOT NULL PRIMARY KEY, w INT NOT NULL, n INT NOT NULL DEFAULT 0, s VARCHAR(100), KEY w_n (w, n))")
		l.inserted[s], l.updAck[s], l.updTry[s] = map[int64]bool{}, map[int64]int64{}, map[int64]int64{}
	}
	return l
}

func (l *multiLoad) start(perSchema int) {
	for si, s := range l.schemas {
		for w := 0; w < perSchema; w++ {
			l.wg.Add(1)
			go l.worker(s, int64(si*100+w))
		}
	}
	if len(l.schemas) >= 2 {
		l.wg.Add(1)
		go l.crossWorker(l.schemas[0], l.schemas[1])
	}
}

func (l *multiLoad) ack(f func()) {
	l.mu.Lock()
	f()
	l.acked++
	close(l.progress)
	l.progress = make(chan struct{})
	l.mu.Unlock()
}

// failure handles a failed statement: fatal without up(), else wait until the node
// is back (or the load stops). It reports whether to go on.
func (l *multiLoad) failure(what string, err error) bool {
	l.mu.Lock()
	l.failed++
	if l.up == nil && l.err == nil {
		l.err = fmt.Errorf("%s: %w", what, err)
	}
	l.mu.Unlock()
	if l.up == nil {
		return false
	}
	for !l.stop.Load() {
		select {
		case <-l.up():
			return true
		case <-time.After(100 * time.Millisecond): // re-check stop
		}
	}
	return false
}

func (l *multiLoad) worker(schema string, w int64) {
	defer l.wg.Done()
	var mine []int64
	for i := int64(1); !l.stop.Load(); i++ {
		if i%3 == 0 && len(mine) > 0 {
			id := mine[int(i)%len(mine)]
			l.mu.Lock()
			l.updTry[schema][id]++
			l.mu.Unlock()
			q := fmt.Sprintf("UPDATE %s.t SET n = n + 1, s = CONCAT('u', n + 1) WHERE id = %d", schema, id)
			if err := tryExec(l.q, q); err != nil {
				if !l.failure(q, err) {
					return
				}
				continue
			}
			l.ack(func() { l.updAck[schema][id]++ })
			continue
		}
		id := w*1_000_000_000 + i
		q := fmt.Sprintf("INSERT INTO %s.t (id, w, s) VALUES (%d, %d, 'insert %d')", schema, id, w, i)
		if err := tryExec(l.q, q); err != nil {
			if !l.failure(q, err) {
				return
			}
			continue
		}
		mine = append(mine, id)
		l.ack(func() { l.inserted[schema][id] = true })
	}
}

// crossWorker writes the same id into two schemas in one explicit transaction.
func (l *multiLoad) crossWorker(a, b string) {
	defer l.wg.Done()
	const w = 999
	for i := int64(1); !l.stop.Load(); i++ {
		id := w*1_000_000_000 + i
		ctx, cancel := context.WithTimeout(context.Background(), stmtTimeout)
		err := crossTx(ctx, l.q, a, b, id)
		cancel()
		if err != nil {
			if !l.failure("cross-schema transaction", err) {
				return
			}
			continue
		}
		l.ack(func() {
			l.inserted[a][id] = true
			l.inserted[b][id] = true
		})
	}
}

func (l *multiLoad) waitProgress(t testing.TB, n int64) {
	t.Helper()
	l.mu.Lock()
	target := l.acked + n
	l.mu.Unlock()
	deadline := time.After(90 * time.Second)
	for {
		l.mu.Lock()
		acked, err, ch := l.acked, l.err, l.progress
		l.mu.Unlock()
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		if acked >= target {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("load made no progress to %d acknowledged writes within 90 s (at %d)", target, acked)
		}
	}
}

func (l *multiLoad) finish(t testing.TB) {
	t.Helper()
	l.stop.Store(true)
	l.wg.Wait()
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
}

// verifyAcknowledged checks that every acknowledged insert is on the node, and that
// every row's update count lies between the acknowledged and the attempted ones.
func (l *multiLoad) verifyAcknowledged(t testing.TB, q querier) {
	t.Helper()
	for _, s := range l.schemas {
		got := map[int64]int64{}
		for _, r := range rows(t, q, "SELECT id, n FROM "+s+".t") {
			var id, n int64
			fmt.Sscan(r[0], &id)
			fmt.Sscan(r[1], &n)
			got[id] = n
		}
		lost := 0
		for id := range l.inserted[s] {
			if _, ok := got[id]; !ok {
				lost++
				if lost <= 10 {
					t.Errorf("%s: acknowledged insert of id %d is lost", s, id)
				}
			}
		}
		if lost > 0 {
			t.Errorf("%s: %d acknowledged inserts lost", s, lost)
		}
		for id, n := range got {
			if n < l.updAck[s][id] || n > l.updTry[s][id] {
				t.Errorf("%s: id %d has n = %d, want between %d acknowledged and %d attempted updates", s, id, n, l.updAck[s][id], l.updTry[s][id])
			}
		}
	}
}

// TestKillReplicaUnderLoad kills the replica 30 times (8 with -short): half with
// MySQL's single SQL thread (replica_parallel_workers=0, issue 3's crash-safe
// applier), half with the default parallel workers.
func TestKillReplicaUnderLoad(t *testing.T) {
	kills := 15
	if testing.Short() {
		kills = 4
	}
	for _, workers := range []int{0, 4} {
		t.Run(fmt.Sprintf("replica_parallel_workers=%d", workers), func(t *testing.T) {
			t.Parallel()
			killReplicaUnderLoad(t, workers, kills)
		})
	}
}

func killReplicaUnderLoad(t *testing.T, workers, kills int) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, uint64(workers)))
	t.Logf("seed %d, %d kills", seed, kills)

	// Small files, so that kills also meet rotations and purges of the source's
	// binary log (the dump thread crosses files), the relay log and the replica's
	// own binary log.
	src := startNode(t, "source", 131, opt("max_binlog_size", "65536"))
	createReplUser(t, src.db)
	rep := newProc(t, "replica", 132, opt("max_relay_log_size", "16384"), opt("max_binlog_size", "65536"), opt("replica_parallel_workers", fmt.Sprint(workers)))
	rep.start()
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)

	load := newMultiLoad(t, src.db, []string{"k1", "k2", "k3"}, nil)
	load.start(2)
	defer func() {
		load.stop.Store(true)
		load.wg.Wait()
	}()
	load.waitProgress(t, 200)

	modes := map[string]int{}
	for k := 1; k <= kills; k++ {
		// DDL now and then, so that some kills meet DDL in the relay log too.
		if k%5 == 0 {
			d := fmt.Sprintf("kd%d", k)
			exec(t, src.db, "CREATE DATABASE "+d, "CREATE TABLE "+d+".t (id INT PRIMARY KEY, v INT)", "INSERT INTO "+d+".t VALUES (1, 1), (2, 2)", "ALTER TABLE "+d+".t ADD COLUMN x INT NULL", "UPDATE "+d+".t SET x = v * 10")
			if k%10 == 0 {
				exec(t, src.db, fmt.Sprintf("DROP DATABASE kd%d", k-5))
			}
		}
		var mode string
		switch rng.IntN(3) {
		case 0:
			// As soon as it accepts clients: recovery just ran, the receiver is
			// connecting and the applier opening the relay log.
			mode = "at start-up"
		case 1:
			// While it applies a backlog the receiver is still writing.
			mode = "while applying a backlog"
			if !waitBacklog(t, rep) {
				mode = "caught up (backlog already gone)"
			}
		default:
			// At a random instant of the steady stream.
			mode = "random instant"
			load.waitProgress(t, int64(1+rng.IntN(400)))
		}
		modes[mode]++
		rep.kill()
		if k%4 == 0 {
			// As after a power loss with sync_relay_log > 1: the relay log's tail
			// is gone (the receiver must simply fetch it again).
			if n := chopRelayTail(t, rep.dir, rng); n > 0 {
				modes["relay tail chopped"]++
			}
		}
		load.waitProgress(t, int64(50+rng.IntN(300))) // the source goes on meanwhile
		rep.start()
	}
	t.Logf("kills by moment: %v", modes)

	load.finish(t)
	// It came back by itself after every kill (settings persisted).
	waitRunning(t, rep.db)
	if got := str(t, rep.db, "SELECT @@replica_parallel_workers"); got != fmt.Sprint(workers) {
		t.Errorf("@@replica_parallel_workers = %s, want %d", got, workers)
	}
	waitCaughtUp(t, src.db, rep.db)
	rpt := assertSameData(t, src.db, rep.db)
	all := assertSameGTIDs(t, src.db, rep.db)
	load.verifyAcknowledged(t, rep.db)
	st := showStatus(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS at the end", st, map[string]string{
		"Replica_IO_Running":  "Yes",
		"Replica_SQL_Running": "Yes",
		"Last_SQL_Errno":      "0",
	})
	// Retrieved_Gtid_Set is what the relay log holds: all of it, unless a chopped
	// relay tail took away transactions that were already applied (those are not
	// fetched again, as in MySQL).
	if retrieved := gtidSet(t, st["Retrieved_Gtid_Set"]); !retrieved.IsSubset(all) || (modes["relay tail chopped"] == 0 && !retrieved.Equal(all)) {
		t.Errorf("Retrieved_Gtid_Set = %s, want %s (or a part of it after chopped relay tails)", retrieved, all)
	}
	rep.stop()
	assertBinlogOnce(t, rep.dir, all)
	srcFiles, _ := filepath.Glob(filepath.Join(src.dir, "binlog.[0-9]*"))
	repFiles, _ := filepath.Glob(filepath.Join(rep.dir, "binlog.[0-9]*"))
	t.Logf("binary log files: source %d, replica %d", len(srcFiles), len(repFiles))
	t.Logf("%d acknowledged writes, %d transactions, %d tables, %d rows compared", load.acked, all.Count(), rpt.Tables, rpt.Rows)
}

// waitBacklog waits (briefly) until the replica is receiving and has received
// more than it has executed. It reports whether that happened.
func waitBacklog(t testing.TB, p *proc) bool {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		_, r, err := tryResult(p.db, "SELECT @@gtid_executed")
		if err != nil {
			continue
		}
		cols, st, err := tryResult(p.db, "SHOW REPLICA STATUS")
		if err != nil || len(st) != 1 {
			continue
		}
		m := status{}
		for i, c := range cols {
			m[c] = st[0][i]
		}
		executed, err1 := gtid.Parse(r[0][0])
		retrieved, err2 := gtid.Parse(m["Retrieved_Gtid_Set"])
		if err1 == nil && err2 == nil && m["Replica_IO_Running"] == "Yes" && !retrieved.IsSubset(executed) {
			return true
		}
	}
	return false
}

func TestKillSourceUnderLoad(t *testing.T) {
	t.Parallel()
	kills := 5
	if testing.Short() {
		kills = 3
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 9))
	t.Logf("seed %d, %d kills", seed, kills)
	killSourceUnderLoad(t, kills, 2, func(k int, src *proc, load *multiLoad) {
		load.waitProgress(t, int64(100+rng.IntN(600)))
		src.kill()
	}, nil)
}

// TestKillSourceInsidePipeline kills the source at the steps of its commit
// pipeline (BINLITE_CRASH_AT, internal/crashpoint; see crashtest's
// TestKillInsidePipeline): group N durable in the binary log and possibly sent to
// the replica while storage has not committed it and the writer runs group N+1;
// N written and not fdatasynced; N handed to the log stage and not written;
// storage committed and the clients not answered. After each restart the source
// re-applies from its binary log what storage lacks; the replica must end an exact
// copy with every acknowledged write, each GTID once.
func TestKillSourceInsidePipeline(t *testing.T) {
	t.Parallel()
	points := []string{"commit.log-synced+commit.ahead", "binlog.written+commit.ahead", "commit.log-begin+commit.ahead", "commit.stored"}
	if testing.Short() {
		points = points[:2]
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 10))
	t.Logf("seed %d", seed)
	arm := func(k int, src *proc) {
		src.env = nil
		if k < len(points) {
			src.env = []string{fmt.Sprintf("%s=%s@%d", crashpoint.EnvVar, points[k], 50+rng.IntN(400))}
		}
	}
	// More clients per schema than TestKillSourceUnderLoad's: while group N's
	// clients wait, others' statements run into group N+1.
	killSourceUnderLoad(t, len(points), 6, func(k int, src *proc, load *multiLoad) {
		if err := src.awaitSelfKill(90 * time.Second); err != nil {
			t.Fatalf("kill %d (%s): %v", k+1, points[k], err)
		}
		t.Logf("kill %d: %s", k+1, src.crashLine())
	}, arm, opt("binlite_commit_pipeline_always_overlap", "ON")) // the points need overlapped groups on any machine
}

// killSourceUnderLoad runs the multi-schema load (perSchema workers each) on a
// source replicated to an in-process replica, ends the source kills times by kill
// (which returns once the process is gone) and restarts it, then checks that
// nothing acknowledged is lost and both ends hold exactly the same GTIDs and rows.
// arm (nil: none) prepares the k-th start of the source (0 is the first).
func killSourceUnderLoad(t *testing.T, kills, perSchema int, kill func(k int, src *proc, load *multiLoad), arm func(k int, src *proc), opts ...config.Option) {
	src := newProc(t, "source", 141, opts...)
	if arm != nil {
		arm(0, src)
	}
	src.start()
	createReplUser(t, src.db)
	srcUUID := serverUUID(t, src.db)
	rep := startNode(t, "replica", 142)
	replicate(t, rep.db, src.port)
	waitRunning(t, rep.db)

	load := newMultiLoad(t, src.db, []string{"s1", "s2"}, src.waitReady)
	load.start(perSchema)
	defer func() {
		load.stop.Store(true)
		load.wg.Wait()
	}()
	load.waitProgress(t, 100)
	for k := range kills {
		kill(k, src, load)
		// The replica notices and keeps trying.
		waitStatus(t, rep.db, 30*time.Second, "the replica to notice the source is gone", func(st status) bool {
			return st["Replica_IO_Running"] == "Connecting" && st["Last_IO_Error"] != ""
		})
		if arm != nil {
			arm(k+1, src)
		}
		src.start()
		if got := serverUUID(t, src.db); got != srcUUID {
			t.Fatalf("the source's server_uuid changed across a restart: %s -> %s", srcUUID, got)
		}
	}
	load.waitProgress(t, 100)
	load.finish(t)
	t.Logf("%d acknowledged writes, %d failed statements around the kills", load.acked, load.failed)

	// Nothing acknowledged is lost on the source, and GTIDs have no hole.
	load.verifyAcknowledged(t, src.db)
	executed := gtidExecuted(t, src.db)
	if iv := executed.Intervals(mustUUID(t, srcUUID)); len(iv) != 1 || len(executed.UUIDs()) != 1 {
		t.Errorf("source gtid_executed = %s, want one interval of its own uuid", executed)
	}
	// The replica reconnected by itself and is an exact copy.
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)
	load.verifyAcknowledged(t, rep.db)
	st := showStatus(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS at the end", st, map[string]string{
		"Source_UUID":    srcUUID,
		"Last_SQL_Errno": "0",
	})
	src.stop()
	rep.close()
	assertBinlogOnce(t, src.dir, executed)
	assertBinlogOnce(t, rep.dir, executed)
}

// crossTx inserts id into a.t and b.t in one transaction.
func crossTx(ctx context.Context, db *sql.DB, a, b string, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for _, s := range []string{a, b} {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s.t (id, w, s) VALUES (%d, 999, 'cross %s')", s, id, a+"+"+b)); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// chopRelayTail cuts up to 300 bytes off the newest relay log file of a stopped
// replica (keeping its header) and returns how many it cut.
func chopRelayTail(t testing.TB, dir string, rng *rand.Rand) int64 {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "relay-bin.[0-9]*"))
	if err != nil || len(files) == 0 {
		return 0
	}
	sort.Strings(files)
	last := files[len(files)-1]
	fi, err := os.Stat(last)
	if err != nil || fi.Size() < 400 {
		return 0
	}
	n := int64(1 + rng.IntN(300))
	if err := os.Truncate(last, fi.Size()-n); err != nil {
		t.Fatal(err)
	}
	return n
}
