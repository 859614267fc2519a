package crashtest

import (
	"math/rand/v2"
	"testing"
	"time"
)

// txnMix is mostly explicit transactions: multi-statement, cross-schema,
// savepoint and rolled-back ones, and long-open ones rolled back at the end, all
// interleaved on the schema writers with row locks (docs/transactions.md).
var txnMix = mix{inserters: 3, counters: 2, sbtest: 1, txns: 12, racePairs: 1, openTxns: 4}

// TestKillWithManyTransactions kills binlite at random instants while many
// explicit transactions are open on the same schemas, restarts it and verifies
// as after any crash: every acknowledged transaction is there with its values,
// nothing uncommitted (rolled back, rolled back to a savepoint, still open at the
// kill) is in storage or in the log, storage equals the binary log, and GTIDs run
// 1-N. The pipeline overlaps every group it can, so storage commits happen with
// open transactions' changes taken out and put back around them.
func TestKillWithManyTransactions(t *testing.T) {
	iterations := 8
	if testing.Short() {
		iterations = 3
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 17))

	srv := newServer(t, "max_binlog_size = 65536", "binlog_expire_logs_seconds = 0", "binlite_commit_pipeline_always_overlap = ON")
	srv.start()
	m := newModel()
	h := newHistory()
	db := srv.openDB()
	setupLoad(t, db, m)
	db.Close()

	for i := range iterations {
		db := srv.openDB()
		l := startLoad(t, db, m, txnMix, rng.Uint64())
		delay := randomDelay(rng, 100*time.Millisecond, 900*time.Millisecond)
		time.Sleep(delay) // the random instant of the kill
		how := stopUnderLoad(t, srv, i, rng)
		l.halt(t)
		db.Close()
		srv.start()
		rec := verify(t, srv, m, h)
		s := m.takeStats()
		t.Logf("round %d: %s at %v: %d acknowledged, %d failed, %d unknown (%d committed, %d not); %d re-applied by recovery; log: %d transactions",
			i+1, how, delay.Round(time.Millisecond), s.acked, s.failed, s.unknown, s.committed, s.absent, reapplied(srv.log()), rec.n)
		checkNextWrite(t, srv, m, h, rec.n)
	}
	srv.stop()
}
