package repltest

// Multi-source replication: one replica, two sources, a channel each (one on GTID
// auto-positioning, one on file/position), each source writing its own schema.

import (
	"fmt"
	"strings"
	"testing"
)

// channelStatus is SHOW REPLICA STATUS's rows by Channel_Name.
func channelStatus(t testing.TB, q querier, query string) map[string]status {
	t.Helper()
	cols, r := result(t, q, query)
	out := map[string]status{}
	for _, row := range r {
		st := status{}
		for i, c := range cols {
			st[c] = row[i]
		}
		name := st["Channel_Name"]
		if v, ok := st["Connection_name"]; ok {
			name = v
		}
		out[name] = st
	}
	return out
}

// waitChannel waits until cond holds for the channel's SHOW REPLICA STATUS row.
func waitChannel(t testing.TB, q querier, channel, what string, cond func(st status) bool) {
	t.Helper()
	eventually(t, catchUpTimeout, what, func() (bool, string) {
		st := channelStatus(t, q, fmt.Sprintf("SHOW REPLICA STATUS FOR CHANNEL '%s'", channel))[channel]
		return st != nil && cond(st), st.String()
	})
}

func bothRunning(st status) bool {
	return st["Replica_IO_Running"] == "Yes" && st["Replica_SQL_Running"] == "Yes"
}

// twoSources starts two sources, each with the replication account created
// unlogged (sql_log_bin=0, so that it does not replicate into the replica twice),
// and a replica with channel s1 on GTID auto-positioning to the first and s2 on
// file/position to the second.
func twoSources(t *testing.T, replica *node) (a, b *node) {
	t.Helper()
	a = startNode(t, "source1", 161)
	b = startNode(t, "source2", 162)
	for _, src := range []*node{a, b} {
		c := conn(t, src.db)
		exec(t, c, "SET SESSION sql_log_bin = 0")
		createReplUser(t, c)
	}
	exec(t, a.db, "CREATE DATABASE db1", "CREATE TABLE db1.t (id INT PRIMARY KEY, v VARCHAR(20))")
	exec(t, b.db, "CREATE DATABASE db2", "CREATE TABLE db2.t (id INT PRIMARY KEY, v VARCHAR(20))")
	exec(t, replica.db,
		changeSourceSQL(a.port())+" FOR CHANNEL 's1'",
		fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', GET_SOURCE_PUBLIC_KEY=1, SOURCE_AUTO_POSITION=0, SOURCE_LOG_FILE='binlog.000001', SOURCE_LOG_POS=4, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1 FOR CHANNEL 's2'", b.port()),
		"START REPLICA")
	for _, ch := range []string{"s1", "s2"} {
		waitChannel(t, replica.db, ch, "channel "+ch+" running", bothRunning)
	}
	return a, b
}

func TestMultiSourceTwoChannels(t *testing.T) {
	t.Parallel()
	rep := startNode(t, "replica", 163, opt("replica_parallel_workers", "2"))
	a, b := twoSources(t, rep)
	for i := 1; i <= 20; i++ {
		exec(t, a.db, fmt.Sprintf("INSERT INTO db1.t VALUES (%d, 'a%d')", i, i))
		exec(t, b.db, fmt.Sprintf("INSERT INTO db2.t VALUES (%d, 'b%d')", i, i))
	}
	waitCaughtUp(t, a.db, rep.db)
	waitCaughtUp(t, b.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM db1.t") + integer(t, rep.db, "SELECT COUNT(*) FROM db2.t"); n != 40 {
		t.Fatalf("replica holds %d rows, want 40", n)
	}
	all := channelStatus(t, rep.db, "SHOW REPLICA STATUS")
	if len(all) != 2 || all["s1"]["Auto_Position"] != "1" || all["s2"]["Auto_Position"] != "0" {
		t.Fatalf("SHOW REPLICA STATUS: %v", all)
	}
	if all["s1"]["Source_Port"] != fmt.Sprint(a.port()) || all["s2"]["Source_Port"] != fmt.Sprint(b.port()) {
		t.Errorf("Source_Port per channel: %s, %s", all["s1"]["Source_Port"], all["s2"]["Source_Port"])
	}
	// The legacy spellings.
	legacy := channelStatus(t, rep.db, "SHOW SLAVE STATUS FOR CHANNEL 's2'")
	if st := legacy["s2"]; st == nil || st["Slave_IO_Running"] != "Yes" || st["Master_Port"] != fmt.Sprint(b.port()) {
		t.Errorf("SHOW SLAVE STATUS FOR CHANNEL 's2': %v", legacy)
	}
	// performance_schema: one row per channel.
	if r := rows(t, rep.db, "SELECT CHANNEL_NAME, SERVICE_STATE FROM performance_schema.replication_connection_status ORDER BY CHANNEL_NAME"); len(r) != 2 || r[0][0] != "s1" || r[1][0] != "s2" {
		t.Errorf("replication_connection_status: %v", r)
	}
	if r := rows(t, rep.db, "SELECT CHANNEL_NAME, HOST, PORT FROM performance_schema.replication_connection_configuration ORDER BY CHANNEL_NAME"); len(r) != 2 || r[1][2] != fmt.Sprint(b.port()) {
		t.Errorf("replication_connection_configuration: %v", r)
	}

	// STOP one channel: the other goes on.
	exec(t, rep.db, "STOP REPLICA FOR CHANNEL 's1'")
	all = channelStatus(t, rep.db, "SHOW REPLICA STATUS")
	if all["s1"]["Replica_IO_Running"] != "No" || all["s1"]["Replica_SQL_Running"] != "No" || !bothRunning(all["s2"]) {
		t.Fatalf("after STOP REPLICA FOR CHANNEL 's1': %v", all)
	}
	exec(t, a.db, "INSERT INTO db1.t VALUES (100, 'while stopped')")
	exec(t, b.db, "INSERT INTO db2.t VALUES (100, 'flows')")
	waitCaughtUp(t, b.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM db1.t WHERE id = 100"); n != 0 {
		t.Errorf("a stopped channel applied a transaction")
	}
	// Only the SQL thread of s2: its IO thread keeps receiving.
	exec(t, rep.db, "STOP REPLICA SQL_THREAD FOR CHANNEL 's2'")
	exec(t, b.db, "INSERT INTO db2.t VALUES (101, 'queued')")
	waitChannel(t, rep.db, "s2", "s2 to receive while its SQL thread is stopped", func(st status) bool {
		return st["Replica_IO_Running"] == "Yes" && st["Replica_SQL_Running"] == "No" && strings.Contains(st["Retrieved_Gtid_Set"], ":1-")
	})
	exec(t, rep.db, "START REPLICA FOR CHANNEL 's1'", "START REPLICA SQL_THREAD FOR CHANNEL 's2'")
	waitCaughtUp(t, a.db, rep.db)
	waitCaughtUp(t, b.db, rep.db)

	// A restart keeps both channels, running.
	rep.restart()
	for _, ch := range []string{"s1", "s2"} {
		waitChannel(t, rep.db, ch, "channel "+ch+" running after restart", bothRunning)
	}
	exec(t, a.db, "INSERT INTO db1.t VALUES (200, 'after restart')")
	exec(t, b.db, "INSERT INTO db2.t VALUES (200, 'after restart')")
	waitCaughtUp(t, a.db, rep.db)
	waitCaughtUp(t, b.db, rep.db)
	all = channelStatus(t, rep.db, "SHOW REPLICA STATUS")
	if all["s2"]["Auto_Position"] != "0" || all["s1"]["Auto_Position"] != "1" {
		t.Errorf("settings after restart: %v", all)
	}
	want := gtidExecuted(t, a.db).Union(gtidExecuted(t, b.db))
	if got := gtidExecuted(t, rep.db); !got.Equal(want) {
		t.Errorf("replica gtid_executed %s, want both sources' %s", got, want)
	}

	// STOP REPLICA without FOR CHANNEL stops every channel; START starts them all.
	exec(t, rep.db, "STOP REPLICA")
	for ch, st := range channelStatus(t, rep.db, "SHOW REPLICA STATUS") {
		if st["Replica_IO_Running"] != "No" || st["Replica_SQL_Running"] != "No" {
			t.Errorf("channel %s after STOP REPLICA: %v", ch, st)
		}
	}
	exec(t, rep.db, "START REPLICA")
	for _, ch := range []string{"s1", "s2"} {
		waitChannel(t, rep.db, ch, "channel "+ch+" running", bothRunning)
	}

	// MariaDB's spellings for named connections.
	cols, r := result(t, rep.db, "SHOW ALL SLAVES STATUS")
	if len(r) != 2 || cols[0] != "Connection_name" || cols[1] != "Slave_SQL_State" || r[0][0] != "s1" || r[1][0] != "s2" {
		t.Fatalf("SHOW ALL SLAVES STATUS: %v %v", cols, r)
	}
	exec(t, rep.db, "STOP SLAVE 's2'")
	if st := channelStatus(t, rep.db, "SHOW SLAVE 's2' STATUS")["s2"]; st["Slave_IO_Running"] != "No" || st["Slave_SQL_Running"] != "No" {
		t.Errorf("SHOW SLAVE 's2' STATUS after STOP SLAVE 's2': %v", st)
	}
	exec(t, rep.db, "STOP ALL SLAVES")
	exec(t, rep.db, fmt.Sprintf("CHANGE MASTER 's2' TO MASTER_PORT=%d", b.port()))
	exec(t, rep.db, "START ALL SLAVES")
	for _, ch := range []string{"s1", "s2"} {
		waitChannel(t, rep.db, ch, "channel "+ch+" running after START ALL SLAVES", bothRunning)
	}
	wantErr(t, rep.db, 3074, "SHOW REPLICA STATUS FOR CHANNEL 'nope'")
	wantErr(t, rep.db, 3074, "START SLAVE 'nope'")
}

// TestReplicationFilters: filtered transactions are not applied, and their GTIDs
// are still executed (empty), so the replica's gtid_executed equals the source's.
func TestReplicationFilters(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 171)
	createReplUser(t, src.db)
	rep := startNode(t, "replica", 172)
	exec(t, rep.db, changeSourceSQL(src.port())+" FOR CHANNEL 'f'")
	exec(t, rep.db, "CHANGE REPLICATION FILTER REPLICATE_IGNORE_DB = (skipme), REPLICATE_WILD_IGNORE_TABLE = ('keep.tmp%') FOR CHANNEL 'f'")
	exec(t, rep.db, "START REPLICA FOR CHANNEL 'f'")
	wantErr(t, rep.db, 3017, "CHANGE REPLICATION FILTER REPLICATE_DO_DB = (keep) FOR CHANNEL 'f'")
	st := channelStatus(t, rep.db, "SHOW REPLICA STATUS FOR CHANNEL 'f'")["f"]
	if st["Replicate_Ignore_DB"] != "skipme" || st["Replicate_Wild_Ignore_Table"] != "keep.tmp%" || st["Replicate_Do_DB"] != "" {
		t.Fatalf("SHOW REPLICA STATUS filters: %v", st)
	}
	exec(t, src.db,
		"CREATE DATABASE keep", "CREATE TABLE keep.t (id INT PRIMARY KEY)", "CREATE TABLE keep.tmp1 (id INT PRIMARY KEY)",
		"CREATE DATABASE skipme", "CREATE TABLE skipme.t (id INT PRIMARY KEY)",
		"INSERT INTO keep.t VALUES (1), (2)", "INSERT INTO keep.tmp1 VALUES (1)", "INSERT INTO skipme.t VALUES (1)")
	waitCaughtUp(t, src.db, rep.db)
	assertSameGTIDs(t, src.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM keep.t"); n != 2 {
		t.Errorf("keep.t holds %d rows on the replica, want 2", n)
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM keep.tmp1"); n != 0 {
		t.Errorf("keep.tmp1 holds %d rows on the replica, want 0 (REPLICATE_WILD_IGNORE_TABLE)", n)
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'skipme'"); n != 0 {
		t.Errorf("schema skipme reached the replica (REPLICATE_IGNORE_DB)")
	}
	// Filters survive a restart, and an empty list clears a rule.
	rep.restart()
	waitChannel(t, rep.db, "f", "channel f running after restart", bothRunning)
	exec(t, rep.db, "STOP REPLICA SQL_THREAD FOR CHANNEL 'f'")
	st = channelStatus(t, rep.db, "SHOW REPLICA STATUS FOR CHANNEL 'f'")["f"]
	if st["Replicate_Ignore_DB"] != "skipme" {
		t.Errorf("filters after restart: %v", st)
	}
	exec(t, rep.db, "CHANGE REPLICATION FILTER REPLICATE_WILD_IGNORE_TABLE = (), REPLICATE_DO_TABLE = (keep.t, keep.tmp2)")
	exec(t, rep.db, "START REPLICA SQL_THREAD FOR CHANNEL 'f'")
	exec(t, src.db, "CREATE TABLE keep.tmp2 (id INT PRIMARY KEY)", "CREATE TABLE keep.other (id INT PRIMARY KEY)",
		"INSERT INTO keep.tmp2 VALUES (5)", "INSERT INTO keep.other VALUES (5)", "INSERT INTO keep.t VALUES (3)")
	waitCaughtUp(t, src.db, rep.db)
	assertSameGTIDs(t, src.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM keep.t") + integer(t, rep.db, "SELECT COUNT(*) FROM keep.tmp2"); n != 4 {
		t.Errorf("keep.t + keep.tmp2 hold %d rows, want 4 (REPLICATE_DO_TABLE)", n)
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM keep.other"); n != 0 {
		t.Errorf("keep.other holds %d rows, want 0 (not in REPLICATE_DO_TABLE)", n)
	}
}

// TestReplicationFilterOptions: the option file's replicate-* settings, global and
// in MySQL's channel form, and CHANGE REPLICATION FILTER over them.
func TestReplicationFilterOptions(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 175)
	createReplUser(t, src.db)
	rep := startNode(t, "replica", 176, opt("replicate_ignore_db", "skip2"), opt("replicate_do_table", "c:keep.t"), opt("replicate_do_table", "c:keep.v"))
	exec(t, rep.db, changeSourceSQL(src.port())+" FOR CHANNEL 'c'", "START REPLICA")
	st := channelStatus(t, rep.db, "SHOW REPLICA STATUS")["c"]
	if st["Replicate_Ignore_DB"] != "skip2" || st["Replicate_Do_Table"] != "keep.t,keep.v" {
		t.Fatalf("filters from the option file: %v", st)
	}
	exec(t, src.db, "CREATE DATABASE keep", "CREATE TABLE keep.t (id INT PRIMARY KEY)", "CREATE TABLE keep.u (id INT PRIMARY KEY)",
		"CREATE DATABASE skip2", "CREATE TABLE skip2.t (id INT PRIMARY KEY)",
		"INSERT INTO keep.t VALUES (1)", "INSERT INTO keep.u VALUES (1)", "INSERT INTO skip2.t VALUES (1)")
	waitCaughtUp(t, src.db, rep.db)
	assertSameGTIDs(t, src.db, rep.db)
	if got := integer(t, rep.db, "SELECT COUNT(*) FROM keep.t")*10 + integer(t, rep.db, "SELECT COUNT(*) FROM keep.u"); got != 10 {
		t.Errorf("keep.t, keep.u rows = %d, want 1 and 0", got)
	}
	exec(t, rep.db, "STOP REPLICA SQL_THREAD", "CHANGE REPLICATION FILTER REPLICATE_DO_TABLE = () FOR CHANNEL 'c'", "START REPLICA SQL_THREAD")
	exec(t, src.db, "INSERT INTO keep.u VALUES (2)")
	waitCaughtUp(t, src.db, rep.db)
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM keep.u"); n != 1 {
		t.Errorf("keep.u holds %d rows after REPLICATE_DO_TABLE was cleared, want 1", n)
	}
	if st := channelStatus(t, rep.db, "SHOW REPLICA STATUS")["c"]; st["Replicate_Do_Table"] != "" || st["Replicate_Ignore_DB"] != "skip2" {
		t.Errorf("filters after clearing REPLICATE_DO_TABLE: %v", st)
	}
}

// TestReplicationRewriteDB: REPLICATE_REWRITE_DB applies a source schema's
// changes to another schema (CREATE DATABASE itself is not rewritten, as in MySQL).
func TestReplicationRewriteDB(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 177)
	createReplUser(t, src.db)
	rep := startNode(t, "replica", 178)
	exec(t, rep.db, "CREATE DATABASE dst", changeSourceSQL(src.port()),
		"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((src, dst))", "START REPLICA")
	c := conn(t, src.db)
	exec(t, c, "CREATE DATABASE src", "USE src", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'x'), (2, 'y')", "UPDATE t SET v = 'z' WHERE id = 2")
	waitExecuted(t, rep.db, str(t, src.db, "SELECT @@gtid_executed"))
	if st := showStatus(t, rep.db); st["Replicate_Rewrite_DB"] != "src,dst" || st["Last_SQL_Errno"] != "0" {
		t.Errorf("SHOW REPLICA STATUS: %v", st)
	}
	if got := rows(t, rep.db, "SELECT id, v FROM dst.t ORDER BY id"); len(got) != 2 || got[1][1] != "z" {
		t.Errorf("dst.t on the replica = %v, want (1,x),(2,z)", got)
	}
	if n := integer(t, rep.db, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'src'"); n != 0 {
		t.Errorf("src holds %d tables on the replica, want 0", n)
	}
	// The replica's own binary log holds the rewritten events: a restart keeps them.
	rep.restart()
	if got := rows(t, rep.db, "SELECT id, v FROM dst.t ORDER BY id"); len(got) != 2 {
		t.Errorf("dst.t after restart = %v", got)
	}
}
