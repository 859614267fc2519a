package repltest

// Two sources writing the same table through two channels: SHOW REPLICA STATUS
// and /status name both channels and the table; with replica_channel_overlap=STOP
// the later channel stops with a clear error.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestChannelOverlap(t *testing.T) {
	t.Parallel()
	a := startNode(t, "source1", 181)
	b := startNode(t, "source2", 182)
	for _, src := range []*node{a, b} {
		c := conn(t, src.db)
		exec(t, c, "SET SESSION sql_log_bin = 0")
		createReplUser(t, c)
		exec(t, src.db, "CREATE DATABASE shared", "CREATE TABLE shared.t (id INT PRIMARY KEY, src VARCHAR(10))")
	}
	// The second channel starts after its source's DDL, which the first channel
	// brings: only the rows of both sources meet on the replica.
	pos := binlogStatus(t, b.db)
	rep := startNode(t, "replica", 183)
	exec(t, rep.db,
		changeSourceSQL(a.port())+" FOR CHANNEL 's1'",
		fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', GET_SOURCE_PUBLIC_KEY=1, SOURCE_AUTO_POSITION=0, SOURCE_LOG_FILE='%s', SOURCE_LOG_POS=%d, SOURCE_CONNECT_RETRY=1 FOR CHANNEL 's2'", b.port(), pos.file, pos.pos),
		"START REPLICA FOR CHANNEL 's1'")
	exec(t, a.db, "INSERT INTO shared.t VALUES (1, 'a')")
	waitCaughtUp(t, a.db, rep.db)
	exec(t, rep.db, "START REPLICA FOR CHANNEL 's2'")
	exec(t, b.db, "INSERT INTO shared.t VALUES (2, 'b')")
	// Its DDL (GTIDs 1-2) is before the channel's start position.
	waitExecuted(t, rep.db, serverUUID(t, b.db)+":3")

	// WARN (the default): applied, and reported.
	c := conn(t, rep.db)
	st := channelStatus(t, c, "SHOW REPLICA STATUS")
	if !bothRunning(st["s2"]) {
		t.Fatalf("s2 stopped under replica_channel_overlap=WARN: %v", st["s2"])
	}
	w := rows(t, c, "SHOW WARNINGS")
	if len(w) != 1 || !strings.Contains(w[0][2], "'s1'") || !strings.Contains(w[0][2], "'s2'") || !strings.Contains(w[0][2], "shared.t") {
		t.Errorf("SHOW WARNINGS after SHOW REPLICA STATUS = %v, want the overlap of s1 and s2 on shared.t", w)
	}
	doc, err := json.Marshal(rep.srv.Status())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `"channel_overlaps":[{"table":"shared.t","owner":"s1","channel":"s2","stopped":false`) {
		t.Errorf("/status: %s", doc)
	}

	// STOP: the later channel stops before applying the row.
	exec(t, rep.db, "STOP REPLICA SQL_THREAD FOR CHANNEL 's2'", "SET GLOBAL replica_channel_overlap = 'STOP'", "START REPLICA SQL_THREAD FOR CHANNEL 's2'")
	exec(t, b.db, "INSERT INTO shared.t VALUES (3, 'b')")
	waitChannel(t, rep.db, "s2", "s2 to stop on the overlap", func(st status) bool {
		return st["Replica_SQL_Running"] == "No" && st["Last_SQL_Errno"] == "1593"
	})
	st = channelStatus(t, rep.db, "SHOW REPLICA STATUS FOR CHANNEL 's2'")
	if msg := st["s2"]["Last_SQL_Error"]; !strings.Contains(msg, "'s1'") || !strings.Contains(msg, "shared.t") {
		t.Errorf("Last_SQL_Error = %q", msg)
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM shared.t WHERE id = 3"); n != 0 {
		t.Errorf("the overlapping row was applied under replica_channel_overlap=STOP")
	}
	if !bothRunning(channelStatus(t, rep.db, "SHOW REPLICA STATUS FOR CHANNEL 's1'")["s1"]) {
		t.Errorf("s1 stopped too")
	}
}
