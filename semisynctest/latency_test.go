package semisynctest

// Added latency between replica and source: a semi-sync commit costs at least one
// round trip, and concurrent clients share each round trip (one wait per commit
// group, not per transaction).

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

const rtt = 100 * time.Millisecond

func TestLatencySingleClientWaitsOneRoundTrip(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", "30000"))
	p.link.roundTrip(rtt)
	c := conn(t, p.src.db)

	before := sourceCounters(t, p.src.db)
	if !before.On || before.Clients != 1 {
		t.Fatalf("before the inserts: %v, want status ON with one client", before)
	}
	const n = 5
	var took []time.Duration
	for i := 1; i <= n; i++ {
		d := timedExec(t, c, fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, %d)", i, i))
		took = append(took, d)
		if d < rtt*9/10 {
			t.Errorf("semi-sync autocommit INSERT %d took %v over a %v round trip, want >= %v", i, d, rtt, rtt*9/10)
		}
		if d > 50*rtt {
			t.Errorf("semi-sync autocommit INSERT %d took %v over a %v round trip: far more than one round trip", i, d, rtt)
		}
	}
	after := sourceCounters(t, p.src.db)
	t.Logf("semi-sync ON, %v round trip: insert times %v; %v", rtt, took, after)
	if after.Yes-before.Yes != n {
		t.Errorf("Rpl_semi_sync_source_yes_tx grew by %d over %d acknowledged commits, want %d (before %v, after %v)", after.Yes-before.Yes, n, n, before, after)
	}
	if after.No != before.No || after.NoTimes != before.NoTimes || !after.On {
		t.Errorf("counters changed as if a wait had failed: before %v, after %v", before, after)
	}
	if waits := after.Waits - before.Waits; waits != n {
		t.Errorf("Rpl_semi_sync_source_tx_waits grew by %d, want %d (one wait per single-client commit)", waits, n)
	} else if avg := time.Duration((after.WaitTime-before.WaitTime)/waits) * time.Microsecond; avg < rtt*9/10 {
		t.Errorf("average wait of these commits per Rpl_semi_sync_source_tx_wait_time is %v, want >= %v", avg, rtt*9/10)
	}
	if after.AvgWait <= 0 {
		t.Errorf("Rpl_semi_sync_source_tx_avg_wait_time = %d after acknowledged waits, want > 0", after.AvgWait)
	}

	// Semi-sync off: the same commit does not wait for the replica. The link is
	// stalled meanwhile, so that a commit waiting for the replica would take far
	// longer than any commit on a loaded machine.
	exec(t, p.src.db, "SET GLOBAL rpl_semi_sync_source_enabled = OFF")
	off := sourceCounters(t, p.src.db)
	if off.On {
		t.Errorf("Rpl_semi_sync_source_status = ON after SET GLOBAL rpl_semi_sync_source_enabled = OFF")
	}
	const stall = 5 * time.Second
	p.link.latency("stall", "downstream", int(stall.Milliseconds()))
	took = took[:0]
	for i := n + 1; i <= 2*n; i++ {
		took = append(took, timedExec(t, c, fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, %d)", i, i)))
	}
	t.Logf("semi-sync OFF: insert times %v", took)
	for i, d := range took {
		if d >= stall*9/10 {
			t.Errorf("with semi-sync disabled insert %d took %v over a link stalled for %v: it waited for the replica", n+1+i, d, stall)
		}
	}
	if m := median(took); m >= 2*rtt {
		t.Errorf("with semi-sync disabled the median insert took %v, want < %v (times %v)", m, 2*rtt, took)
	}
	// A commit that waited for the replica would also show in yes_tx
	// (acknowledged) or in tx_waits and tx_wait_time.
	if got := sourceCounters(t, p.src.db); got.Yes != off.Yes || got.Waits != off.Waits || got.WaitTime != off.WaitTime {
		t.Errorf("yes_tx, tx_waits or tx_wait_time grew while semi-sync was disabled: some insert waited for the replica (times %v): %v, then %v", took, off, got)
	}
	p.link.remove("stall")

	// And on again: the wait is back, and the replica has everything.
	exec(t, p.src.db, "SET GLOBAL rpl_semi_sync_source_enabled = ON")
	if d := timedExec(t, c, "INSERT INTO ss.t (id, v) VALUES (100, 100)"); d < rtt*9/10 {
		t.Errorf("after SET GLOBAL rpl_semi_sync_source_enabled = ON an insert took %v, want >= %v", d, rtt*9/10)
	}
	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.t"); got != 2*n+1 {
		t.Errorf("replica has %d rows, want %d", got, 2*n+1)
	}
}

func TestLatencyConcurrentClientsShareRoundTrips(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", "30000"))
	p.link.roundTrip(rtt)
	const clients, each = 16, 5
	conns := make([]querier, clients)
	for i := range conns {
		conns[i] = conn(t, p.src.db)
	}
	before := sourceCounters(t, p.src.db)
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	start := time.Now()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				q := fmt.Sprintf("INSERT INTO ss.t (id, v) VALUES (%d, %d)", 1000*(w+1)+i, w)
				if _, err := tryExec(conns[w], q); err != nil {
					errs <- fmt.Errorf("%s: %w", q, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	after := sourceCounters(t, p.src.db)
	serial := time.Duration(clients*each) * rtt
	groups := after.Waits - before.Waits
	t.Logf("%d clients x %d inserts over a %v round trip: %v (%.1f round trips; one round trip per commit would be %v); %d waits for %d commits; %v",
		clients, each, rtt, elapsed, float64(elapsed)/float64(rtt), serial, groups, clients*each, after)
	rate, limit := float64(clients*each)/elapsed.Seconds(), float64(clients)/rtt.Seconds()
	t.Logf("%.0f commits/s against a physical limit of %.0f/s (every client committing once per round trip): %.0f%%", rate, limit, 100*rate/limit)
	// That commit groups share waits is what tx_waits < commits (below) says; the
	// wall time is only bounded by what one round trip per commit would cost.
	if elapsed >= serial {
		t.Errorf("%d concurrent clients x %d inserts took %v, want < %v (one round trip per commit): commit groups do not share waits", clients, each, elapsed, serial)
	}
	if elapsed < time.Duration(each)*rtt*9/10 {
		t.Errorf("%d sequential inserts per client finished in %v, less than %d round trips: commits did not wait", each, elapsed, each)
	}
	if got := after.Yes - before.Yes; got != clients*each {
		t.Errorf("Rpl_semi_sync_source_yes_tx grew by %d, want %d (every commit acknowledged)", got, clients*each)
	}
	if after.No != before.No || after.NoTimes != before.NoTimes {
		t.Errorf("no_tx or no_times changed: before %v, after %v", before, after)
	}
	if groups <= 0 || groups >= clients*each {
		t.Errorf("Rpl_semi_sync_source_tx_waits grew by %d for %d commits: want fewer waits than commits", groups, clients*each)
	}
	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.t"); got != clients*each {
		t.Errorf("replica has %d rows, want %d", got, clients*each)
	}
}
