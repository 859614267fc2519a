package crashtest

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// randomDelay returns a duration in [lo, hi).
func randomDelay(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(rng.Int64N(int64(hi-lo)))
}

// stopUnderLoad ends the server while the load runs: mostly with SIGKILL; every
// fifth round with a clean shutdown (SIGTERM), and every fifth with SIGTERM
// followed by SIGKILL a moment later (a crash during shutdown).
func stopUnderLoad(t *testing.T, srv *server, round int, rng *rand.Rand) string {
	switch round % 5 {
	case 2:
		if err := srv.terminate(); err != nil {
			t.Errorf("round %d: shutdown under load exited with %v\nserver log:\n%s", round+1, err, tail(srv.log(), 3000))
		}
		return "SIGTERM"
	case 4:
		srv.send(syscall.SIGTERM)
		time.Sleep(randomDelay(rng, 0, 30*time.Millisecond)) // the random instant of the kill
		srv.kill()
		return "SIGTERM, then SIGKILL"
	default:
		srv.kill()
		return "SIGKILL"
	}
}

var reappliedRE = regexp.MustCompile(`msg="recovery re-applied binary log transactions the schema had not recorded" schema=\S+ transactions=(\d+)`)

// reapplied sums what engine recovery says it re-applied (the kill fell between a
// binary-log write and the storage commit).
func reapplied(log string) int {
	n := 0
	for _, m := range reappliedRE.FindAllStringSubmatch(log, -1) {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n
}

// TestKillUnderLoad kills binlite at random instants under a concurrent write load
// of 20 clients (autocommit inserts and increments, AUTO_INCREMENT inserts,
// explicit multi-statement, cross-schema, savepoint and rolled-back transactions,
// and pairs of clients racing to insert the same keys), restarts it on the same
// data directory and verifies everything a client was told, the binary log against
// storage, and GTID continuity (see verify). Most rounds end with SIGKILL, some with
// a clean shutdown under load or SIGKILL during that shutdown; every fourth restart
// is itself killed during start-up first, and so is the very first start. The data
// directory, and the knowledge of what clients were told, carry over from round to
// round.
func TestKillUnderLoad(t *testing.T) {
	iterations := 20
	if testing.Short() {
		iterations = 5
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	// Small binary-log files: the server rotates a few times per round, so some
	// kills land in a rotation.
	srv := newServer(t, "max_binlog_size = 32768", "binlog_expire_logs_seconds = 0")
	srv.killDuringStartup(randomDelay(rng, 0, 30*time.Millisecond)) // while creating the data directory
	srv.start()
	m := newModel()
	h := newHistory()
	db := srv.openDB()
	setupLoad(t, db, m)
	db.Close()

	for i := range iterations {
		db := srv.openDB()
		l := startLoad(t, db, m, defaultMix, rng.Uint64())
		delay := randomDelay(rng, 50*time.Millisecond, 800*time.Millisecond)
		time.Sleep(delay) // the random instant of the kill
		how := stopUnderLoad(t, srv, i, rng)
		l.halt(t)
		db.Close()

		if i%4 == 3 {
			srv.killDuringStartup(randomDelay(rng, 0, 60*time.Millisecond))
			how += " (and killed again during start-up)"
		}
		srv.start()
		rec := verify(t, srv, m, h)
		s := m.takeStats()
		t.Logf("round %2d: %s at %v: %d acknowledged, %d failed, %d unknown (%d committed, %d not); %d race losers; %d re-applied by recovery; log: %d transactions in %d files",
			i+1, how, delay.Round(time.Millisecond), s.acked, s.failed, s.unknown, s.committed, s.absent, s.raceDups, reapplied(srv.log()), rec.n, len(rec.log.files))
		checkNextWrite(t, srv, m, h, rec.n)
	}

	// A clean shutdown and restart must keep everything too.
	srv.stop()
	srv.start()
	rec := verify(t, srv, m, h)
	checkNextWrite(t, srv, m, h, rec.n)
	srv.stop()
}
