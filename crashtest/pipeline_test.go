package crashtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/binlite/binlite/internal/crashpoint"
)

// pipelineKills are the instants inside a schema writer's commit pipeline
// (engine/pipeline.go) where TestKillInsidePipeline stops the process: group N is
// in the binary log's stage while the writer has executed statements of group N+1
// into the same SQLite transaction. A random kill rarely lands in these windows.
var pipelineKills = []struct {
	name, spec string
	// reapplied: the restart must re-apply transactions from the binary log that
	// storage lacks (N is in the log, its SQLite transaction never committed).
	reapplied bool
}{
	{"N+1 executed, N handed to the log, not written", "commit.log-begin+commit.ahead", false},
	{"N+1 executed, N written, not fdatasynced", "binlog.written+commit.ahead", true},
	{"N+1 executed, N durable, storage not committed", "commit.log-synced+commit.ahead", true},
	{"N+1 executing while N is in the log stage", "commit.ahead", false},
	{"storage committed, clients not answered", "commit.stored", false},
}

// pipelineMix has more autocommit clients than defaultMix: an explicit
// transaction waits for its schema's pipeline to drain, so while group N is held
// at a crash point, only autocommit statements run into group N+1.
var pipelineMix = mix{inserters: 10, counters: 4, sbtest: 2, txns: 2, racePairs: 2}

// TestKillInsidePipeline arms each point of pipelineKills in turn
// (BINLITE_CRASH_AT, internal/crashpoint) on the n-th arrival, n random, runs the
// write load of TestKillUnderLoad until the process kills itself with SIGKILL
// there, restarts it without the crash point and verifies as after any crash:
// everything acknowledged is there and nothing else, storage equals the binary log
// (binlog first), each GTID once and 1-N without gaps.
func TestKillInsidePipeline(t *testing.T) {
	rounds := 2
	if testing.Short() {
		rounds = 1
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 16))

	// Every group the depth allows overlaps the next one's execution: whether it
	// would pay depends on timing, and the points must be reached on any machine.
	srv := newServer(t, "max_binlog_size = 65536", "binlog_expire_logs_seconds = 0", "binlite_commit_pipeline_always_overlap = ON")
	srv.start()
	m := newModel()
	h := newHistory()
	db := srv.openDB()
	setupLoad(t, db, m)
	db.Close()
	srv.stop()

	for _, k := range pipelineKills {
		for r := range rounds {
			spec := fmt.Sprintf("%s@%d", k.spec, 20+rng.IntN(300))
			srv.env = []string{crashpoint.EnvVar + "=" + spec}
			srv.start()
			db := srv.openDB()
			l := startLoad(t, db, m, pipelineMix, rng.Uint64())
			err := srv.awaitSelfKill(60 * time.Second)
			l.halt(t)
			db.Close()
			if err != nil {
				t.Fatalf("%s (round %d, %s): %v\nserver log:\n%s", k.name, r+1, spec, err, tail(srv.log(), 3000))
			}
			killLog := srv.log()

			srv.env = nil
			srv.start()
			rec := verify(t, srv, m, h)
			n := reapplied(srv.log())
			if k.reapplied && n == 0 {
				t.Errorf("%s (%s): the restart re-applied nothing, but a group was in the binary log and not in storage", k.name, spec)
			}
			s := m.takeStats()
			t.Logf("%s (%s): %s; %d acknowledged, %d failed, %d unknown (%d committed, %d not); %d re-applied by recovery; log: %d transactions",
				k.name, spec, crashLine(killLog), s.acked, s.failed, s.unknown, s.committed, s.absent, n, rec.n)
			checkNextWrite(t, srv, m, h, rec.n)
			srv.stop()
		}
	}
}

// awaitSelfKill waits for the process to kill itself at its armed crash point and
// claims the SIGKILL as this test's.
func (s *server) awaitSelfKill(timeout time.Duration) error {
	select {
	case <-s.exited:
	case <-time.After(timeout):
		return fmt.Errorf("the crash point was not reached within %v", timeout)
	}
	var ee *exec.ExitError
	if !errors.As(s.waitErr, &ee) {
		return fmt.Errorf("the process exited with %v, not SIGKILL", s.waitErr)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		return fmt.Errorf("the process exited with %v, not SIGKILL", s.waitErr)
	}
	if !strings.Contains(s.log(), `msg="test crash: SIGKILL"`) {
		return fmt.Errorf("SIGKILL without the crash point's log line: not the crash point's")
	}
	s.signalled = true
	return nil
}

// crashLine is the crash point's last log line, for the test log.
func crashLine(log string) string {
	i := strings.LastIndex(log, `msg="test crash: SIGKILL"`)
	if i < 0 {
		return "(no crash line)"
	}
	line := log[i:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return strings.TrimPrefix(line, `msg="test crash: SIGKILL" `)
}
