package semisynctest

// When no acknowledgement comes within rpl_semi_sync_source_timeout the source
// falls back to asynchronous replication (status OFF, Rpl_semi_sync_source_no_times,
// a log line) and commits stop waiting; once a semi-sync replica has caught up the
// source switches back ON by itself.

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// semiTimeout is rpl_semi_sync_source_timeout for a commit that is meant to time
// out; every other commit runs under longTimeout, so that an acknowledgement slowed
// down by a loaded machine does not turn into a fallback the test did not ask for.
// The timeout is dynamic (a commit takes it when it starts waiting) and changing it
// keeps the source's ON/OFF status.
const (
	semiTimeout = 500 * time.Millisecond
	longTimeout = 30 * time.Second
)

// setSemiTimeout sets rpl_semi_sync_source_timeout to d.
func setSemiTimeout(t *testing.T, src *node, d time.Duration) {
	t.Helper()
	exec(t, src.db, fmt.Sprintf("SET GLOBAL rpl_semi_sync_source_timeout = %d", d.Milliseconds()))
}

// timeoutLog is what the source logs when it gives up waiting.
const timeoutLog = "switching to asynchronous replication"

// commitTimesOut runs, under rpl_semi_sync_source_timeout = semiTimeout, an insert
// that must wait for the timeout and then succeed, leaving the source OFF with
// no_times and no_tx one higher; the timeout is longTimeout again afterwards.
func commitTimesOut(t *testing.T, src *node, id int) {
	t.Helper()
	before := sourceCounters(t, src.db)
	if !before.On {
		t.Fatalf("before the commit that should time out: %v, want status ON", before)
	}
	setSemiTimeout(t, src, semiTimeout)
	d := timedExec(t, src.db, fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, 0)", id))
	setSemiTimeout(t, src, longTimeout)
	after := sourceCounters(t, src.db)
	t.Logf("commit without an acknowledgement took %v; %v", d, after)
	if d < semiTimeout*9/10 {
		t.Errorf("the commit returned after %v, before rpl_semi_sync_source_timeout (%v)", d, semiTimeout)
	}
	if d > semiTimeout+5*time.Second {
		t.Errorf("the commit returned after %v, long after rpl_semi_sync_source_timeout (%v)", d, semiTimeout)
	}
	if after.On {
		t.Errorf("Rpl_semi_sync_source_status = ON after a commit timed out, want OFF")
	}
	if after.NoTimes != before.NoTimes+1 {
		t.Errorf("Rpl_semi_sync_source_no_times %d -> %d, want +1", before.NoTimes, after.NoTimes)
	}
	if after.No != before.No+1 || after.Yes != before.Yes {
		t.Errorf("no_tx %d -> %d and yes_tx %d -> %d, want no_tx +1 and yes_tx unchanged", before.No, after.No, before.Yes, after.Yes)
	}
	if legacy := semiStatus(t, src.db)["Rpl_semi_sync_master_status"]; legacy != "OFF" {
		t.Errorf("Rpl_semi_sync_master_status = %q after the fallback, want OFF", legacy)
	}
}

// asyncCommits runs n inserts while the source is OFF: none waits, each counts in
// no_tx, and the source stays OFF. A commit that waited would either have been
// acknowledged (yes_tx, tx_waits) or have timed out (no_times), so the counters say
// that none waited, whatever the machine's load.
func asyncCommits(t *testing.T, src *node, firstID, n int) {
	t.Helper()
	before := sourceCounters(t, src.db)
	if before.On {
		t.Fatalf("before the commits meant to run while OFF: %v, want status OFF", before)
	}
	var took []time.Duration
	for i := 0; i < n; i++ {
		took = append(took, timedExec(t, src.db, fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, 0)", firstID+i)))
	}
	after := sourceCounters(t, src.db)
	t.Logf("%d commits while OFF: %v; %v", n, took, after)
	if after.No != before.No+int64(n) {
		t.Errorf("no_tx %d -> %d over %d commits while OFF, want +%d (times %v)", before.No, after.No, n, n, took)
	}
	if after.On || after.NoTimes != before.NoTimes {
		t.Errorf("over %d commits while OFF: %v -> %v, want status still OFF and no_times unchanged: a commit waited for the timeout again (times %v)", n, before, after, took)
	}
	if after.Yes != before.Yes || after.Waits != before.Waits || after.WaitTime != before.WaitTime {
		t.Errorf("over %d commits while OFF: %v -> %v, want yes_tx, tx_waits and tx_wait_time unchanged: a commit waited for an acknowledgement (times %v)", n, before, after, took)
	}
}

// acknowledgedCommit runs an insert that the replica must acknowledge (under
// longTimeout: a commit that is not acknowledged times out and shows in no_times).
func acknowledgedCommit(t *testing.T, src *node, id int) {
	t.Helper()
	before := sourceCounters(t, src.db)
	d := timedExec(t, src.db, fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, 0)", id))
	after := sourceCounters(t, src.db)
	t.Logf("acknowledged commit %d took %v", id, d)
	if after.Yes != before.Yes+1 || after.No != before.No || after.NoTimes != before.NoTimes || !after.On {
		t.Errorf("commit after recovery (took %v): %v -> %v, want yes_tx +1, no_tx and no_times unchanged, status ON", d, before, after)
	}
}

func TestCutLinkFallsBackAndRecovers(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", fmt.Sprint(longTimeout.Milliseconds())))
	acknowledgedCommit(t, p.src, 1)
	if n := len(p.src.log.linesWith(timeoutLog)); n != 0 {
		t.Fatalf("the source logged %q before any timeout", timeoutLog)
	}

	p.link.cut()
	commitTimesOut(t, p.src, 2)
	lines := p.src.log.linesWith(timeoutLog)
	if len(lines) != 1 {
		t.Errorf("the source logged %d lines with %q after one fallback, want 1; log:\n%s", len(lines), timeoutLog, p.src.log.String())
	} else if !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "timeout=500ms") {
		t.Errorf("fallback log line %q: want level WARN and the timeout", lines[0])
	}
	asyncCommits(t, p.src, 10, 5)
	waitFor(t, 30*time.Second, "the replica to notice the cut", func() (bool, string) {
		st := replicaStatus(t, p.rep.db)
		return st["Replica_IO_Running"] != "Yes", st["Replica_IO_Running"]
	})
	if c := sourceCounters(t, p.src.db); c.Clients != 0 {
		t.Errorf("Rpl_semi_sync_source_clients = %d with the link cut, want 0", c.Clients)
	}
	if got := semiStatus(t, p.rep.db)["Rpl_semi_sync_replica_status"]; got != "OFF" {
		t.Errorf("replica Rpl_semi_sync_replica_status = %q while disconnected, want OFF", got)
	}

	// Heal: the replica reconnects by itself, catches up, and the source switches
	// back ON without anyone touching it.
	p.link.heal()
	waitReplicaConnected(t, p.rep.db)
	c := waitCounters(t, p.src.db, 30*time.Second, "Rpl_semi_sync_source_status=ON after the link healed", func(c counters) bool { return c.On })
	if c.Clients != 1 {
		t.Errorf("after the heal: %v, want one client", c)
	}
	if lines := p.src.log.linesWith("switched back ON"); len(lines) != 1 {
		t.Errorf("the source logged %d lines saying semi-sync is back ON, want 1", len(lines))
	}
	waitCaughtUp(t, p.src.db, p.rep.db)
	acknowledgedCommit(t, p.src, 100)
	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.t"); got != 8 {
		t.Errorf("replica has %d rows, want 8", got)
	}
}

// A stalled link (the connection stays open, events take 5 s): the source still
// counts the replica as a client, gives up after the timeout, and switches back ON
// when the delayed events arrive and are acknowledged — no reconnect needed. The
// stall is far longer than the timeout so that the replica cannot catch up (and
// switch the source back ON) while the commits that run OFF are still going on.
func TestSlowLinkFallsBackAndRecovers(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", fmt.Sprint(longTimeout.Milliseconds())))
	acknowledgedCommit(t, p.src, 1)
	p.link.latency("stall", "downstream", 5000)
	commitTimesOut(t, p.src, 2)
	asyncCommits(t, p.src, 10, 3)
	if c := sourceCounters(t, p.src.db); c.Clients != 1 {
		t.Errorf("Rpl_semi_sync_source_clients = %d while the link is only slow, want 1", c.Clients)
	}
	p.link.remove("stall")
	waitCounters(t, p.src.db, 30*time.Second, "Rpl_semi_sync_source_status=ON once the delayed events were acknowledged", func(c counters) bool { return c.On })
	acknowledgedCommit(t, p.src, 100)
	if st := replicaStatus(t, p.rep.db); st["Last_IO_Errno"] != "0" {
		t.Errorf("the replica's IO thread had an error on a merely slow link: %s %s", st["Last_IO_Errno"], st["Last_IO_Error"])
	}
	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.t"); got != 6 {
		t.Errorf("replica has %d rows, want 6", got)
	}
}

// rpl_semi_sync_source_wait_for_replica_count=2: one replica's acknowledgement is
// not enough (the commit waits for the timeout and the source falls back, and
// stays asynchronous while only one replica acknowledges); with a second replica
// connected, commits are acknowledged.
func TestWaitForTwoReplicas(t *testing.T) {
	// semiTimeout at first: the set-up statements below cannot be acknowledged by
	// two replicas and time out; commitTimesOut leaves it at longTimeout.
	src := startNode(t, "source", 1,
		opt("rpl_semi_sync_source_enabled", "ON"),
		opt("rpl_semi_sync_source_timeout", fmt.Sprint(semiTimeout.Milliseconds())),
		opt("rpl_semi_sync_source_wait_for_replica_count", "2"))
	if got := integer(t, src.db, "SELECT @@rpl_semi_sync_master_wait_for_slave_count"); got != 2 {
		t.Errorf("@@rpl_semi_sync_master_wait_for_slave_count = %d, want 2 (set in the option file under the source name)", got)
	}
	rep1 := startNode(t, "replica1", 2, opt("rpl_semi_sync_replica_enabled", "ON"))
	replicate(t, rep1.db, src.srv.Port())
	waitReplicaConnected(t, rep1.db)
	waitCounters(t, src.db, 30*time.Second, "one semi-sync client", func(c counters) bool { return c.Clients == 1 })
	exec(t, src.db, "CREATE DATABASE ss")
	exec(t, src.db, "CREATE TABLE ss.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL DEFAULT 0)")
	waitCaughtUp(t, src.db, rep1.db)
	// Start from a known state: disabling and enabling turns the status ON.
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_source_enabled = OFF")
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_source_enabled = ON")

	commitTimesOut(t, src, 1)
	// Only one replica acknowledges: the source must not count that as caught up
	// (MySQL switches back on only when wait_for_replica_count replicas have
	// acknowledged), so no further commit waits for the timeout.
	asyncCommits(t, src, 10, 4)
	// Once the replica has applied everything it has acknowledged it too.
	waitCaughtUp(t, src.db, rep1.db)
	if c := sourceCounters(t, src.db); c.On {
		t.Errorf("wait_for_replica_count=2: the source switched back ON after one replica caught up: %v", c)
	}
	asyncCommits(t, src, 20, 2)

	rep2 := startNode(t, "replica2", 3, opt("rpl_semi_sync_replica_enabled", "ON"))
	replicate(t, rep2.db, src.srv.Port())
	waitReplicaConnected(t, rep2.db)
	waitCounters(t, src.db, 30*time.Second, "two clients and status ON once both replicas caught up", func(c counters) bool {
		return c.Clients == 2 && c.On
	})
	waitCaughtUp(t, src.db, rep2.db)
	for i := 0; i < 3; i++ {
		acknowledgedCommit(t, src, 100+i)
	}
	waitCaughtUp(t, src.db, rep1.db)
	waitCaughtUp(t, src.db, rep2.db)
	for _, r := range []*node{rep1, rep2} {
		if got := integer(t, r.db, "SELECT COUNT(*) FROM ss.t"); got != 10 {
			t.Errorf("%s has %d rows, want 10", r.name, got)
		}
	}

	// One replica goes away: the next commit waits for the timeout again.
	exec(t, rep2.db, "STOP REPLICA")
	waitCounters(t, src.db, 30*time.Second, "one client after replica2 stopped", func(c counters) bool { return c.Clients == 1 })
	commitTimesOut(t, src, 200)
}

// rpl_semi_sync_replica_enabled is read when the IO thread connects: an
// asynchronous replica does not acknowledge (commits time out), turning the
// variable on takes effect at the next START REPLICA IO_THREAD, and then the
// source switches back ON by itself.
func TestReplicaEnabledReadWhenIOThreadConnects(t *testing.T) {
	// semiTimeout at first: with only an asynchronous replica the set-up statements
	// below time out; commitTimesOut leaves it at longTimeout.
	src := startNode(t, "source", 1, opt("rpl_semi_sync_source_enabled", "ON"), opt("rpl_semi_sync_source_timeout", fmt.Sprint(semiTimeout.Milliseconds())))
	rep := startNode(t, "replica", 2)
	replicate(t, rep.db, src.srv.Port())
	waitFor(t, 30*time.Second, "the asynchronous replica connected", func() (bool, string) {
		st := replicaStatus(t, rep.db)
		return st["Replica_IO_Running"] == "Yes", st["Replica_IO_Running"]
	})
	if got := semiStatus(t, rep.db)["Rpl_semi_sync_replica_status"]; got != "OFF" {
		t.Errorf("asynchronous replica: Rpl_semi_sync_replica_status = %q, want OFF", got)
	}
	if c := sourceCounters(t, src.db); c.Clients != 0 {
		t.Errorf("with only an asynchronous replica: %v, want 0 clients", c)
	}
	exec(t, src.db, "CREATE DATABASE ss")
	exec(t, src.db, "CREATE TABLE ss.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL DEFAULT 0)")
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_source_enabled = OFF")
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_source_enabled = ON")
	commitTimesOut(t, src, 1)

	// Turned on, but the IO thread is still connected as asynchronous.
	exec(t, rep.db, "SET GLOBAL rpl_semi_sync_replica_enabled = ON")
	if got := semiStatus(t, rep.db)["Rpl_semi_sync_replica_status"]; got != "OFF" {
		t.Errorf("Rpl_semi_sync_replica_status = %q before the IO thread reconnects, want OFF", got)
	}
	exec(t, rep.db, "STOP REPLICA IO_THREAD")
	exec(t, rep.db, "START REPLICA IO_THREAD")
	waitReplicaConnected(t, rep.db)
	waitCounters(t, src.db, 30*time.Second, "one semi-sync client", func(c counters) bool { return c.Clients == 1 })
	// The next commit may still be asynchronous (the source is OFF until the replica
	// acknowledges the end of the log); after that, the source is ON by itself.
	exec(t, src.db, "INSERT INTO ss.t VALUES (2, 0)")
	waitCounters(t, src.db, 30*time.Second, "Rpl_semi_sync_source_status=ON once the semi-sync replica caught up", func(c counters) bool { return c.On })
	acknowledgedCommit(t, src, 3)

	// And off again at the next reconnect.
	exec(t, rep.db, "SET GLOBAL rpl_semi_sync_replica_enabled = OFF")
	exec(t, rep.db, "STOP REPLICA IO_THREAD")
	exec(t, rep.db, "START REPLICA IO_THREAD")
	waitFor(t, 30*time.Second, "the replica connected as asynchronous", func() (bool, string) {
		st := replicaStatus(t, rep.db)
		semi := semiStatus(t, rep.db)["Rpl_semi_sync_replica_status"]
		return st["Replica_IO_Running"] == "Yes" && semi == "OFF", st["Replica_IO_Running"] + " " + semi
	})
	waitCounters(t, src.db, 30*time.Second, "no semi-sync client", func(c counters) bool { return c.Clients == 0 })
	commitTimesOut(t, src, 4)
	waitCaughtUp(t, src.db, rep.db)
	if got := integer(t, rep.db, "SELECT COUNT(*) FROM ss.t"); got != 4 {
		t.Errorf("replica has %d rows, want 4", got)
	}
}
