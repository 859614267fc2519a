package semisynctest

// Acknowledgements across binary log files: a commit group that makes the log
// rotate (max_binlog_size), and FLUSH BINARY LOGS, must still be acknowledged by
// the replica — the position a commit waits for and the position the replica
// acknowledges have to agree across the Rotate.

import (
	"fmt"
	"strings"
	"testing"
)

func TestAcknowledgedAcrossBinlogRotation(t *testing.T) {
	// A long timeout: a commit that is not acknowledged shows as a fallback in the
	// counters (checked after every commit), however slow the machine.
	p := startPair(t, opt("rpl_semi_sync_source_timeout", fmt.Sprint(longTimeout.Milliseconds())), opt("max_binlog_size", "4096"))
	pad := strings.Repeat("r", 300)
	exec(t, p.src.db, "CREATE TABLE ss.big (id INT NOT NULL PRIMARY KEY, pad VARCHAR(400) NOT NULL)")
	files := func() int { return len(rows(t, p.src.db, "SHOW BINARY LOGS")) }
	startFiles := files()
	before := sourceCounters(t, p.src.db)
	const n = 30
	prev := before
	for i := 1; i <= n; i++ {
		binlogBefore := rows(t, p.src.db, "SHOW BINARY LOG STATUS")
		d := timedExec(t, p.src.db, fmt.Sprintf("INSERT INTO ss.big VALUES (%d, '%s')", i, pad))
		c := sourceCounters(t, p.src.db)
		if c.Yes != prev.Yes+1 || c.NoTimes != before.NoTimes || !c.On {
			t.Fatalf("commit %d took %v: not acknowledged (%v -> %v, want yes_tx +1 and no fallback); binary log before it %v, after %v; replica Read_Source_Log_Pos %s:%s",
				i, d, prev, c, binlogBefore, rows(t, p.src.db, "SHOW BINARY LOG STATUS"), replicaStatus(t, p.rep.db)["Source_Log_File"], replicaStatus(t, p.rep.db)["Read_Source_Log_Pos"])
		}
		prev = c
	}
	after := sourceCounters(t, p.src.db)
	rotated := files() - startFiles
	t.Logf("%d commits over %d rotations: %v", n, rotated, after)
	if rotated < 3 {
		t.Errorf("only %d rotations over %d commits of 300+ bytes with max_binlog_size=4096", rotated, n)
	}
	if after.Yes != before.Yes+n || after.NoTimes != before.NoTimes || !after.On {
		t.Errorf("over %d commits across rotations: %v -> %v, want yes_tx +%d and no fallback", n, before, after, n)
	}

	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.big"); got != n {
		t.Errorf("replica has %d rows in ss.big, want %d", got, n)
	}
}

func TestAcknowledgedAfterFlushBinaryLogs(t *testing.T) {
	p := startPair(t, opt("rpl_semi_sync_source_timeout", fmt.Sprint(longTimeout.Milliseconds())))
	for i := 0; i < 3; i++ {
		exec(t, p.src.db, "FLUSH BINARY LOGS")
		acknowledgedCommit(t, p.src, 1000+i)
		acknowledgedCommit(t, p.src, 2000+i)
	}
	waitCaughtUp(t, p.src.db, p.rep.db)
	if got := integer(t, p.rep.db, "SELECT COUNT(*) FROM ss.t"); got != 6 {
		t.Errorf("replica has %d rows, want 6", got)
	}
}
