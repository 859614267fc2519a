package repltest

import (
	"fmt"
	"testing"
	"time"
)

// SOURCE_DELAY=N: a transaction is applied no earlier than N seconds after the source
// committed it; SHOW REPLICA STATUS shows the delay and the waiting state meanwhile.
func TestDelayedReplica(t *testing.T) {
	// The delay runs from the source's commit, so the replica is connected before the
	// insert and the delay is long enough for the waiting state to be seen on a
	// loaded machine.
	const delay = 5 * time.Second
	src := startNode(t, "source", 501)
	rep := startNode(t, "replica", 502)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY)")
	replicate(t, rep.db, src.port())
	waitCaughtUp(t, src.db, rep.db)
	exec(t, rep.db, "STOP REPLICA", fmt.Sprintf("%s, SOURCE_DELAY=%d", changeSourceSQL(src.port()), int(delay.Seconds())), "START REPLICA")
	waitRunning(t, rep.db)

	committed := time.Now()
	exec(t, src.db, "INSERT INTO d.t VALUES (1)")
	waitStatus(t, rep.db, 30*time.Second, "the applier waits for the delay", func(st status) bool {
		return st["SQL_Delay"] == fmt.Sprint(int(delay.Seconds())) && st["Replica_SQL_Running_State"] == "Waiting until SOURCE_DELAY seconds after source executed event"
	})
	eventually(t, 30*time.Second, "the delayed row arrives", func() (bool, string) {
		n := integer(t, rep.db, "SELECT COUNT(*) FROM d.t")
		return n == 1, fmt.Sprintf("%d rows", n)
	})
	if waited := time.Since(committed); waited < delay {
		t.Fatalf("row applied %v after the source committed it, before SOURCE_DELAY=%v", waited, delay)
	}
	assertInSync(t, src.db, rep.db)
}
