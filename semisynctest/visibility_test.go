package semisynctest

// The wait points. AFTER_SYNC (lossless): the transaction is in the binary log but
// not committed in storage until the acknowledgement, so no other session can see
// it (and act on it) before a replica has it. AFTER_COMMIT: storage commits first,
// so other sessions see it while the committing client still waits.

import (
	"fmt"
	"testing"
	"time"
)

// slowLink is the delay of the source-to-replica stream while a commit waits: long
// enough that, even on a loaded machine, reads land inside the wait.
const slowLink = 3000 * time.Millisecond

// pendingInsert runs the insert on its own session in the background; the channel
// gets how long the statement took (or the error).
func pendingInsert(t *testing.T, p *semiPair, id int) <-chan result {
	t.Helper()
	return pending(t, p, fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, %d)", id, id))
}

// pending runs statements on one session in the background; the channel gets how
// long the last one took (or the first error).
func pending(t *testing.T, p *semiPair, stmts ...string) <-chan result {
	t.Helper()
	w := conn(t, p.src.db)
	done := make(chan result, 1)
	go func() {
		for i, q := range stmts {
			start := time.Now()
			if _, err := tryExec(w, q); err != nil {
				done <- result{err: fmt.Errorf("%s: %w", q, err)}
				return
			}
			if i == len(stmts)-1 {
				done <- result{took: time.Since(start)}
			}
		}
	}()
	return done
}

// invisibleWhileWaiting reads with query (a count) on reader until done reports,
// and fails if a read made entirely inside the acknowledgement wait saw anything.
// It returns the result and the number of such reads.
func invisibleWhileWaiting(t *testing.T, p *semiPair, reader querier, query string, done <-chan result) (result, int) {
	t.Helper()
	var res result
	samples, finished := 0, false
	deadline := time.Now().Add(20 * time.Second)
	for !finished {
		if time.Now().After(deadline) {
			t.Fatalf("the commit did not return within 20 s")
		}
		// A sample counts when the commit was waiting for the acknowledgement
		// before and after the read: the read happened inside the wait.
		ws1 := sourceCounters(t, p.src.db).WS
		n := integer(t, reader, query)
		ws2 := sourceCounters(t, p.src.db).WS
		select {
		case res = <-done:
			finished = true
		default:
		}
		if ws1 >= 1 && ws2 >= 1 {
			samples++
			if n != 0 {
				t.Fatalf("AFTER_SYNC: another session sees %d rows (%s) while the commit waits for the acknowledgement (sample %d)", n, query, samples)
			}
		}
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	if samples == 0 {
		t.Errorf("no read happened while the commit waited (Rpl_semi_sync_source_wait_sessions never >= 1 around a read); the commit took %v", res.took)
	}
	return res, samples
}

type result struct {
	took time.Duration
	err  error
}

func TestAfterSyncInvisibleUntilAcknowledged(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", "30000"))
	if got := str(t, p.src.db, "SELECT @@rpl_semi_sync_source_wait_point"); got != "AFTER_SYNC" {
		t.Fatalf("@@rpl_semi_sync_source_wait_point = %q, want AFTER_SYNC (the default)", got)
	}
	p.link.latency("slow", "downstream", int(slowLink.Milliseconds()))
	reader := conn(t, p.src.db)
	before := sourceCounters(t, p.src.db)

	res, samples := invisibleWhileWaiting(t, p, reader, "SELECT COUNT(*) FROM ss.t WHERE id = 1", pendingInsert(t, p, 1))
	t.Logf("AFTER_SYNC: the insert took %v; %d reads inside the wait saw nothing", res.took, samples)
	if res.took < slowLink*9/10 {
		t.Errorf("the insert returned after %v, before the acknowledgement could arrive over a %v link", res.took, slowLink)
	}
	// Once the commit has returned, everyone sees it.
	if n := integer(t, reader, "SELECT COUNT(*) FROM ss.t WHERE id = 1"); n != 1 {
		t.Errorf("AFTER_SYNC: after the commit returned another session sees %d rows, want 1", n)
	}
	if after := sourceCounters(t, p.src.db); after.Yes != before.Yes+1 || after.No != before.No {
		t.Errorf("counters: before %v, after %v; want yes_tx +1 and no_tx unchanged", before, after)
	}

	// An explicit transaction writing two schemas: neither write is visible before
	// the acknowledgement, both are after.
	p.link.remove("slow")
	exec(t, p.src.db, "CREATE DATABASE ss2")
	exec(t, p.src.db, "CREATE TABLE ss2.t (id INT NOT NULL PRIMARY KEY)")
	p.link.latency("slow", "downstream", int(slowLink.Milliseconds()))
	before = sourceCounters(t, p.src.db)
	const both = "SELECT (SELECT COUNT(*) FROM ss.t WHERE id = 5) + (SELECT COUNT(*) FROM ss2.t WHERE id = 5)"
	res, samples = invisibleWhileWaiting(t, p, reader, both,
		pending(t, p, "BEGIN", "INSERT INTO ss.t (id, v) VALUES (5, 5)", "INSERT INTO ss2.t (id) VALUES (5)", "COMMIT"))
	t.Logf("AFTER_SYNC, two schemas: COMMIT took %v; %d reads inside the wait saw nothing", res.took, samples)
	if res.took < slowLink*9/10 {
		t.Errorf("the two-schema COMMIT returned after %v, before the acknowledgement could arrive over a %v link", res.took, slowLink)
	}
	if n := integer(t, reader, both); n != 2 {
		t.Errorf("after the two-schema COMMIT returned another session sees %d of its 2 rows", n)
	}
	if after := sourceCounters(t, p.src.db); after.Yes != before.Yes+1 || after.No != before.No {
		t.Errorf("two-schema transaction: counters before %v, after %v; want yes_tx +1 and no_tx unchanged", before, after)
	}
}

func TestAfterCommitVisibleBeforeCommitReturns(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", "30000"))
	exec(t, p.src.db, "SET GLOBAL rpl_semi_sync_source_wait_point = AFTER_COMMIT")
	if got := str(t, p.src.db, "SELECT @@rpl_semi_sync_master_wait_point"); got != "AFTER_COMMIT" {
		t.Errorf("@@rpl_semi_sync_master_wait_point = %q after setting the source spelling, want AFTER_COMMIT", got)
	}
	p.link.latency("slow", "downstream", int(slowLink.Milliseconds()))
	reader := conn(t, p.src.db)
	before := sourceCounters(t, p.src.db)

	done := pendingInsert(t, p, 2)
	var res result
	seenWhileWaiting, finished := false, false
	deadline := time.Now().Add(20 * time.Second)
	for !finished {
		if time.Now().After(deadline) {
			t.Fatalf("the insert did not return within 20 s")
		}
		n := integer(t, reader, "SELECT COUNT(*) FROM ss.t WHERE id = 2")
		select {
		case res = <-done:
			finished = true
		default:
			// The commit has not returned yet: if the row was visible, it was
			// visible before the client's commit returned.
			if n == 1 {
				seenWhileWaiting = true
			}
		}
	}
	if res.err != nil {
		t.Fatalf("insert: %v", res.err)
	}
	t.Logf("AFTER_COMMIT: the insert took %v; visible to another session before it returned: %v", res.took, seenWhileWaiting)
	if res.took < slowLink*9/10 {
		t.Errorf("AFTER_COMMIT: the insert returned after %v, before the acknowledgement could arrive over a %v link", res.took, slowLink)
	}
	if !seenWhileWaiting {
		t.Errorf("AFTER_COMMIT: no other session saw the row while its commit waited for the acknowledgement")
	}
	if after := sourceCounters(t, p.src.db); after.Yes != before.Yes+1 {
		t.Errorf("counters: before %v, after %v; want yes_tx +1", before, after)
	}
	p.link.remove("slow")
	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.t WHERE id = 2"); got != 1 {
		t.Errorf("replica has %d rows with id 2, want 1", got)
	}
}
