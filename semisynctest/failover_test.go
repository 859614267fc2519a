package semisynctest

// Lossless failover, the guarantee semi-sync exists for: the source (a separate
// binlite process) is killed with SIGKILL at a random instant under a concurrent
// write load; the replica is promoted; every transaction whose commit a client saw
// succeed is on it. Transactions whose commit never returned may or may not be
// there (they were in flight); nothing a client never sent may be.

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"github.com/binlite/binlite/config"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/internal/crashpoint"
	"github.com/binlite/binlite/internal/testnode"
)

// failoverLoad runs workers on the source, on two schemas (ff0, ff1): even workers
// do autocommit inserts, odd workers two-row explicit transactions; ids are unique. A worker stops at its
// first error (the source is gone).
type failoverLoad struct {
	wg     sync.WaitGroup
	killed atomic.Bool // set just before the kill: errors after it are expected

	mu        sync.Mutex
	attempted map[int64]bool
	acked     map[int64]bool
	nAcked    atomic.Int64
	early     []error // errors before the kill
	lastErrs  []string
}

func startFailoverLoad(t *testing.T, db *sql.DB, workers int) *failoverLoad {
	t.Helper()
	l := &failoverLoad{attempted: map[int64]bool{}, acked: map[int64]bool{}}
	for w := 0; w < workers; w++ {
		c := conn(t, db)
		l.wg.Add(1)
		go func(w int) {
			defer l.wg.Done()
			for i := int64(1); ; i += 2 {
				a, b := int64(w)*1_000_000+i, int64(w)*1_000_000+i+1
				tbl := fmt.Sprintf("ff%d.t", (w/2)%2)
				var ids []int64
				var stmts []string
				if w%2 == 0 {
					ids = []int64{a}
					stmts = []string{fmt.Sprintf("INSERT INTO %s (id, w, pad) VALUES (%d, %d, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')", tbl, a, w)}
				} else {
					ids = []int64{a, b}
					stmts = []string{"BEGIN",
						fmt.Sprintf("INSERT INTO %s (id, w, pad) VALUES (%d, %d, 'first')", tbl, a, w),
						fmt.Sprintf("INSERT INTO %s (id, w, pad) VALUES (%d, %d, 'second')", tbl, b, w),
						"COMMIT"}
				}
				l.mu.Lock()
				for _, id := range ids {
					l.attempted[id] = true
				}
				l.mu.Unlock()
				for _, q := range stmts {
					if _, err := tryExec(c, q); err != nil {
						l.mu.Lock()
						if !l.killed.Load() {
							l.early = append(l.early, fmt.Errorf("worker %d: %s: %w", w, q, err))
						}
						l.lastErrs = append(l.lastErrs, err.Error())
						l.mu.Unlock()
						return
					}
				}
				l.mu.Lock()
				for _, id := range ids {
					l.acked[id] = true
				}
				l.mu.Unlock()
				l.nAcked.Add(int64(len(ids)))
			}
		}(w)
	}
	return l
}

type roundResult struct {
	acked, attempted, unackedPresent, missing int
}

func TestLosslessFailover(t *testing.T) {
	rounds := 10
	if testing.Short() {
		rounds = 3
	}
	binliteBinary(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, seed^0x5e111))
	t.Logf("seed %d", seed)
	var total roundResult
	for r := 1; r <= rounds; r++ {
		target := 20 + rng.IntN(400)
		rt := 0
		if r%2 == 0 {
			rt = 2 + rng.IntN(20) // ms added each way on even rounds
		}
		ok := t.Run(fmt.Sprintf("round%02d", r), func(t *testing.T) {
			res := failoverRound(t, target, rt, true, "")
			total.acked += res.acked
			total.attempted += res.attempted
			total.unackedPresent += res.unackedPresent
			total.missing += res.missing
		})
		if !ok {
			break
		}
	}
	t.Logf("%d rounds: %d acknowledged ids, all on the promoted replicas (missing %d); %d of %d unacknowledged ids were there too (allowed)",
		rounds, total.acked, total.missing, total.unackedPresent, total.attempted-total.acked)
	if testing.Short() || t.Failed() {
		return
	}
	// Control: the same with asynchronous replication over a 20 ms link, to show
	// what the check finds without semi-sync. Losses are expected here and only
	// reported.
	t.Run("control-async", func(t *testing.T) {
		res := failoverRound(t, 200+rng.IntN(200), 20, false, "")
		t.Logf("CONTROL (asynchronous): %d of %d acknowledged ids are not on the promoted replica (semi-sync rounds: 0 of %d)", res.missing, res.acked, total.acked)
	})
}

// TestLosslessFailoverInsidePipeline is TestLosslessFailover with the source
// killed at the steps of its commit pipeline (BINLITE_CRASH_AT, see
// internal/crashpoint) instead of at a random instant: group N acknowledged by the
// replica (AFTER_SYNC) and durable while storage has not committed it and the
// writer runs group N+1; N written and not fdatasynced, so neither durable nor
// sent; storage committed and the clients not answered. The replica is on
// loopback, so a log write (fdatasync and acknowledgement) is quick and the source
// overlaps groups.
func TestLosslessFailoverInsidePipeline(t *testing.T) {
	points := []string{"commit.log-synced+commit.ahead", "binlog.written", "commit.stored"}
	binliteBinary(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, seed^0x91be))
	t.Logf("seed %d", seed)
	for i, p := range points {
		n := 30 + rng.IntN(300)
		if i == 0 {
			// Explicit transactions drain the pipeline and half the load's
			// workers run them: overlapped groups are the fewer.
			n = 1 + rng.IntN(20)
		}
		spec := fmt.Sprintf("%s@%d", p, n)
		if !t.Run(p, func(t *testing.T) { failoverRound(t, 0, 0, true, spec) }) {
			break
		}
	}
}

// failoverRound: a fresh source process and in-process replica; load until target
// ids are acknowledged; kill -9; promote; check. With semi false, replication is
// asynchronous and acknowledged ids missing on the replica are only counted. With
// crash set, the source runs with that crash point armed and the load runs until
// the source kills itself there.
func failoverRound(t *testing.T, target, delayMS int, semi bool, crash string) roundResult {
	onOff := map[bool]string{true: "ON", false: "OFF"}[semi]
	var env []string
	if crash != "" {
		env = []string{crashpoint.EnvVar + "=" + crash}
	}
	opts := []config.Option{opt("rpl_semi_sync_source_enabled", onOff), opt("rpl_semi_sync_source_timeout", "100000")}
	if crash != "" {
		// The crash points inside the pipeline need overlapped groups, whatever
		// the machine's timing would make the writer choose.
		opts = append(opts, opt("binlite_commit_pipeline_always_overlap", "ON"))
	}
	src := startProcEnv(t, "source", 1, env, opts...)
	rep := startNode(t, "replica", 2, opt("rpl_semi_sync_replica_enabled", onOff))
	port := portOf(t, src.addr)
	if delayMS > 0 {
		l := newLink(t, src.addr)
		l.latency("down", "downstream", delayMS)
		l.latency("up", "upstream", delayMS)
		port = l.port
	}
	replicate(t, rep.db, port)
	if semi {
		waitReplicaConnected(t, rep.db)
		waitCounters(t, src.db, 30*time.Second, "one semi-sync client on the source", func(c counters) bool { return c.Clients == 1 && c.On })
	} else {
		waitFor(t, 30*time.Second, "the replica connected", func() (bool, string) {
			st := replicaStatus(t, rep.db)
			return st["Replica_IO_Running"] == "Yes", st["Replica_IO_Running"]
		})
	}
	for _, db := range []string{"ff0", "ff1"} {
		exec(t, src.db, "CREATE DATABASE "+db)
		exec(t, src.db, "CREATE TABLE "+db+".t (id BIGINT NOT NULL PRIMARY KEY, w INT NOT NULL, pad VARCHAR(64))")
	}

	load := startFailoverLoad(t, src.db, 8)
	stopLoad := func() {
		load.killed.Store(true)
		src.kill()
		load.wg.Wait()
	}
	defer stopLoad()
	if crash != "" {
		select {
		case <-src.exited:
		case <-time.After(90 * time.Second):
			t.Fatalf("the source did not reach its crash point %s within 90 s", crash)
		}
		load.killed.Store(true)
		load.wg.Wait()
		if ws, ok := src.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("the source exited with %v, not SIGKILL at its crash point", src.cmd.ProcessState)
		}
		// Errors of statements in flight at the kill are seen before the test sees
		// the exit: only others were early.
		load.early = slices.DeleteFunc(load.early, connectionLost)
		t.Logf("source: %s", lastLine(src.logPath, `msg="test crash: SIGKILL"`))
	}
	waitFor(t, 60*time.Second, fmt.Sprintf("%d acknowledged ids", target), func() (bool, string) {
		load.mu.Lock()
		early := load.early
		load.mu.Unlock()
		if len(early) > 0 {
			t.Fatalf("a client failed before the kill: %v", early[0])
		}
		return load.nAcked.Load() >= int64(target), fmt.Sprint(load.nAcked.Load())
	})
	var before counters
	if crash == "" {
		before = sourceCounters(t, src.db)
		if semi && (!before.On || before.NoTimes != 0 || before.Yes == 0) {
			t.Fatalf("source semi-sync state before the kill: %v; want ON, acknowledged commits, and no fallback", before)
		}
	}

	// kill -9 at this instant, with commits in flight.
	stopLoad()
	if len(load.early) > 0 {
		t.Fatalf("a client failed before the kill: %v", load.early[0])
	}

	// Promote: the IO thread has nothing more to get; let the applier finish what
	// is in the relay log, then stop replication.
	exec(t, rep.db, "STOP REPLICA IO_THREAD")
	st := replicaStatus(t, rep.db)
	retrieved := st["Retrieved_Gtid_Set"]
	testnode.WaitExecuted(t, rep.db, retrieved, 60*time.Second)
	exec(t, rep.db, "STOP REPLICA")

	present := map[int64]bool{}
	for _, r := range rows(t, rep.db, "SELECT id FROM ff0.t UNION ALL SELECT id FROM ff1.t") {
		var id int64
		fmt.Sscan(r[0], &id)
		present[id] = true
	}
	var res roundResult
	var missing, unknown []int64
	for id := range load.acked {
		if !present[id] {
			missing = append(missing, id)
		}
	}
	for id := range present {
		switch {
		case !load.attempted[id]:
			unknown = append(unknown, id)
		case !load.acked[id]:
			res.unackedPresent++
		}
	}
	res.acked, res.attempted, res.missing = len(load.acked), len(load.attempted), len(missing)
	sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
	t.Logf("killed after %d acknowledged ids (target %d, %d ms added each way): %d attempted, replica has %d rows (retrieved %s), %d unacknowledged present, %d acknowledged missing; source counters before the kill %v; client errors at the kill: %d",
		res.acked, target, delayMS, res.attempted, len(present), retrieved, res.unackedPresent, res.missing, before, len(load.lastErrs))
	if len(missing) > 0 && semi {
		t.Errorf("LOST: %d transactions a client saw acknowledged are not on the promoted replica, e.g. %v", len(missing), missing[:min(20, len(missing))])
	}
	if len(unknown) > 0 {
		t.Errorf("the replica has %d ids no client ever sent, e.g. %v", len(unknown), unknown[:min(20, len(unknown))])
	}
	// A two-row transaction is all or nothing on the replica.
	for id := range present {
		if w := id / 1_000_000; w%2 == 1 {
			pair := id + 1
			if id%2 == 0 {
				pair = id - 1
			}
			if !present[pair] {
				t.Errorf("the replica has id %d of a two-row transaction without id %d", id, pair)
			}
		}
	}
	// The promoted replica takes writes.
	exec(t, rep.db, "RESET REPLICA ALL")
	exec(t, rep.db, "INSERT INTO ff0.t (id, w, pad) VALUES (-1, -1, 'after promotion')")
	return res
}

func portOf(t testing.TB, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	return port
}

// connectionLost reports whether err is a client's view of the server going away.
func connectionLost(err error) bool {
	if errors.Is(err, mysql.ErrInvalidConn) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	return strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "broken pipe") || strings.Contains(err.Error(), "connection refused")
}

// lastLine is the last line of the file at path that contains s.
func lastLine(path, s string) string {
	b, _ := os.ReadFile(path)
	log := string(b)
	i := strings.LastIndex(log, s)
	if i < 0 {
		return "(none)"
	}
	line := log[i:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return line
}
