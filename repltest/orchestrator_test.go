package repltest

// Orchestrator-style discovery (orchestrator is not in Debian): the queries its
// instance probe (go/inst/instance_dao.go, ReadTopologyInstanceBufferable) sends,
// replayed with the Go driver against a source and two replicas, with the answers
// discovery rests on; then a manual failover driven only by those answers.

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// instance is what discovery learns about one node.
type instance struct {
	serverID                 int64
	uuid, executed, purged   string
	logBin, logReplicaUpdate bool
	readOnly                 bool
	// Replication, from SHOW SLAVE STATUS (zero on a source).
	isReplica          bool
	sourceHost         string
	sourcePort         int
	sourceUUID         string
	ioRunning, sqlRun  bool
	autoPosition       bool
	replicaHosts       []string // SHOW SLAVE HOSTS: host:port of each replica
	dumpConnections    int      // PROCESSLIST rows in 'Binlog Dump' / 'Binlog Dump GTID'
	execFile, readFile string
}

// discover sends orchestrator's probe to db and checks each answer's shape.
func discover(t testing.TB, db *sql.DB) instance {
	t.Helper()
	var in instance
	if r := rows(t, db, "show variables like 'maxscale%'"); len(r) != 0 {
		t.Errorf("show variables like 'maxscale%%' = %v, want none (not a MaxScale)", r)
	}
	var name string
	var uptime int64
	if err := db.QueryRow("show global status like 'Uptime'").Scan(&name, &uptime); err != nil {
		t.Fatalf("show global status like 'Uptime': %v", err)
	}

	var hostname, reportHost, version, comment, binlogFormat string
	if err := db.QueryRow("select @@global.hostname, ifnull(@@global.report_host, ''), @@global.server_id, @@global.version, @@global.version_comment, @@global.read_only, @@global.binlog_format, @@global.log_bin, @@global.log_slave_updates").Scan(
		&hostname, &reportHost, &in.serverID, &version, &comment, &in.readOnly, &binlogFormat, &in.logBin, &in.logReplicaUpdate); err != nil {
		t.Fatalf("orchestrator's variables probe: %v", err)
	}
	if hostname == "" || !strings.HasPrefix(version, "8.4") || binlogFormat != "ROW" || !in.logBin || !in.logReplicaUpdate {
		t.Errorf("variables probe: hostname %q version %q binlog_format %q log_bin %v log_slave_updates %v", hostname, version, binlogFormat, in.logBin, in.logReplicaUpdate)
	}
	st := showStatus(t, db, "show master status")
	if st == nil || st["File"] == "" || st["Position"] == "" {
		t.Errorf("show master status = %v", st)
	}

	semi := map[string]string{}
	for _, r := range rows(t, db, "show global variables like 'rpl_semi_sync_%'") {
		semi[r[0]] = r[1]
	}
	for _, v := range []string{"rpl_semi_sync_master_enabled", "rpl_semi_sync_master_timeout", "rpl_semi_sync_master_wait_for_slave_count", "rpl_semi_sync_slave_enabled"} {
		if _, ok := semi[v]; !ok {
			t.Errorf("show global variables like 'rpl_semi_sync_%%' lacks %s (orchestrator's SemiSyncAvailable)", v)
		}
	}
	status := map[string]string{}
	for _, r := range rows(t, db, "show global status like 'rpl_semi_sync_%'") {
		status[r[0]] = r[1]
	}
	for _, v := range []string{"Rpl_semi_sync_master_status", "Rpl_semi_sync_master_clients", "Rpl_semi_sync_slave_status"} {
		if _, ok := status[v]; !ok {
			t.Errorf("show global status like 'rpl_semi_sync_%%' lacks %s", v)
		}
	}

	// Orchestrator's one query adds "@@global.master_info_repository = 'TABLE'",
	// a variable MySQL 8.4 removed: the whole query is 1193 there, as here. The
	// GTID part alone answers.
	wantErr(t, db, 1193, "select @@global.gtid_mode, @@global.server_uuid, @@global.gtid_executed, @@global.gtid_purged, @@global.master_info_repository = 'TABLE', @@global.binlog_row_image")
	var gtidMode, rowImage string
	if err := db.QueryRow("select @@global.gtid_mode, @@global.server_uuid, @@global.gtid_executed, @@global.gtid_purged, @@global.binlog_row_image").Scan(
		&gtidMode, &in.uuid, &in.executed, &in.purged, &rowImage); err != nil {
		t.Fatalf("GTID probe: %v", err)
	}
	if gtidMode != "ON" || rowImage != "FULL" {
		t.Errorf("gtid_mode %q binlog_row_image %q", gtidMode, rowImage)
	}

	if st := showStatus(t, db, "show slave status"); st != nil {
		in.isReplica = true
		in.sourceHost = st["Master_Host"]
		in.sourcePort, _ = strconv.Atoi(st["Master_Port"])
		in.sourceUUID = st["Master_UUID"]
		in.ioRunning = st["Slave_IO_Running"] == "Yes"
		in.sqlRun = st["Slave_SQL_Running"] == "Yes"
		in.autoPosition = st["Auto_Position"] == "1"
		in.readFile, in.execFile = st["Master_Log_File"], st["Relay_Master_Log_File"]
		for _, f := range []string{"Master_User", "Read_Master_Log_Pos", "Exec_Master_Log_Pos", "Relay_Log_File", "Relay_Log_Pos",
			"Last_SQL_Error", "Last_IO_Error", "SQL_Delay", "Seconds_Behind_Master", "Master_SSL_Allowed", "Replicate_Do_DB",
			"Replicate_Ignore_DB", "Replicate_Do_Table", "Replicate_Ignore_Table", "Replicate_Wild_Do_Table", "Replicate_Wild_Ignore_Table"} {
			if _, ok := st[f]; !ok {
				t.Errorf("show slave status lacks %s", f)
			}
		}
		if st["Master_User"] == "" {
			t.Errorf("show slave status: empty Master_User (orchestrator's HasReplicationCredentials)")
		}
	}

	// Group replication: the variables are unknown (1193) outside group mode,
	// which orchestrator takes as "no group"; the table itself is empty.
	wantErr(t, db, 1193, "SELECT MEMBER_ID, MEMBER_HOST, MEMBER_PORT, MEMBER_STATE, MEMBER_ROLE, @@global.group_replication_group_name, @@global.group_replication_single_primary_mode FROM performance_schema.replication_group_members WHERE MEMBER_STATE != 'OFFLINE'")
	if r := rows(t, db, "SELECT MEMBER_ID, MEMBER_HOST, MEMBER_PORT, MEMBER_STATE, MEMBER_ROLE FROM performance_schema.replication_group_members WHERE MEMBER_STATE != 'OFFLINE'"); len(r) != 0 {
		t.Errorf("replication_group_members outside group mode = %v, want empty", r)
	}

	for _, r := range rows(t, db, "show slave hosts") {
		in.replicaHosts = append(in.replicaHosts, r[1]+":"+r[2])
	}
	for _, r := range rows(t, db, "select substring_index(host, ':', 1) as slave_hostname from information_schema.processlist where command IN ('Binlog Dump', 'Binlog Dump GTID')") {
		if r[0] != "127.0.0.1" {
			t.Errorf("a dump connection's host is %q", r[0])
		}
		in.dumpConnections++
	}
	return in
}

// TestOrchestratorDiscoveryAndFailover: discovery sees the topology (which node
// replicates from which, with auto-positioning, and each source's replicas by
// SHOW SLAVE HOSTS and by PROCESSLIST); after the source dies, the replica with the
// largest gtid_executed is promoted and the other re-pointed to it, from those
// answers alone, and writes continue.
func TestOrchestratorDiscoveryAndFailover(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 181)
	// MySQL lists a replica's host in SHOW SLAVE HOSTS only when it sets report_host.
	r1 := startNode(t, "replica1", 182, opt("report_host", "127.0.0.1"))
	r2 := startNode(t, "replica2", 183, opt("report_host", "127.0.0.1"))
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE orc", "CREATE TABLE orc.t (id INT PRIMARY KEY, who VARCHAR(10))")
	replicate(t, r1.db, src.port())
	replicate(t, r2.db, src.port())
	waitRunning(t, r1.db)
	waitRunning(t, r2.db)
	for i := 1; i <= 20; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO orc.t VALUES (%d, 'old')", i))
	}
	waitCaughtUp(t, src.db, r1.db)
	waitCaughtUp(t, src.db, r2.db)

	// @@report_port is what a replica registers; SHOW SLAVE HOSTS lists it.
	for _, r := range []*node{r1, r2} {
		if got := integer(t, r.db, "SELECT @@report_port"); got != int64(r.port()) {
			t.Errorf("%s: @@report_port %d, want its port %d", r.name, got, r.port())
		}
		cfg := rows(t, r.db, "SELECT HOST, PORT, AUTO_POSITION, CHANNEL_NAME FROM performance_schema.replication_connection_configuration")
		if len(cfg) != 1 || cfg[0][0] != "127.0.0.1" || cfg[0][1] != strconv.Itoa(src.port()) || cfg[0][2] != "1" || cfg[0][3] != "" {
			t.Errorf("%s: replication_connection_configuration = %v", r.name, cfg)
		}
	}

	srcInfo := discover(t, src.db)
	if srcInfo.isReplica || srcInfo.serverID != 181 {
		t.Errorf("source discovered as replica=%v server_id=%d", srcInfo.isReplica, srcInfo.serverID)
	}
	wantHosts := []string{fmt.Sprintf("127.0.0.1:%d", r1.port()), fmt.Sprintf("127.0.0.1:%d", r2.port())}
	if strings.Join(srcInfo.replicaHosts, ",") != strings.Join(wantHosts, ",") {
		t.Errorf("show slave hosts on the source = %v, want %v", srcInfo.replicaHosts, wantHosts)
	}
	if srcInfo.dumpConnections != 2 {
		t.Errorf("PROCESSLIST shows %d 'Binlog Dump GTID' connections, want 2", srcInfo.dumpConnections)
	}
	infos := map[*node]instance{}
	for _, r := range []*node{r1, r2} {
		in := discover(t, r.db)
		if !in.isReplica || in.sourcePort != src.port() || in.sourceHost != "127.0.0.1" || in.sourceUUID != srcInfo.uuid ||
			!in.ioRunning || !in.sqlRun || !in.autoPosition || in.readFile == "" || in.execFile == "" {
			t.Errorf("%s discovered as %+v", r.name, in)
		}
		infos[r] = in
	}
	// No errant GTIDs: orchestrator's gtid_subtract of a replica's set and its source's.
	for r, in := range infos {
		if errant := str(t, r.db, "select gtid_subtract(?, ?)", in.executed, srcInfo.executed); errant != "" {
			t.Errorf("%s: errant GTIDs %q", r.name, errant)
		}
	}

	// replica2 falls behind, then the source dies.
	exec(t, r2.db, "STOP REPLICA")
	for i := 21; i <= 30; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO orc.t VALUES (%d, 'old')", i))
	}
	waitCaughtUp(t, src.db, r1.db)
	src.close()

	// Pick the replica whose gtid_executed contains the others' (orchestrator's
	// choice by executed GTIDs), from fresh probes.
	candidates := []*node{r1, r2}
	var best *node
	var bestSet string
	for _, r := range candidates {
		in := discover(t, r.db)
		if best == nil || str(t, r.db, "SELECT GTID_SUBSET(?, ?) AND NOT GTID_SUBSET(?, ?)", bestSet, in.executed, in.executed, bestSet) == "1" {
			best, bestSet = r, in.executed
		}
	}
	if best != r1 {
		t.Fatalf("failover picked %s; replica1 has the most GTIDs", best.name)
	}
	other := r2
	exec(t, best.db, "STOP REPLICA", "RESET REPLICA ALL", "SET GLOBAL read_only = OFF")
	exec(t, other.db, "STOP REPLICA", changeSourceSQL(best.port()), "START REPLICA")
	waitRunning(t, other.db)
	for i := 31; i <= 40; i++ {
		exec(t, best.db, fmt.Sprintf("INSERT INTO orc.t VALUES (%d, 'new')", i))
	}
	assertInSync(t, best.db, other.db)
	if got := integer(t, other.db, "SELECT COUNT(*) FROM orc.t"); got != 40 {
		t.Errorf("replica2 has %d rows after the failover, want 40", got)
	}

	// Discovery sees the new topology.
	newSrc := discover(t, best.db)
	if newSrc.isReplica || newSrc.dumpConnections != 1 || len(newSrc.replicaHosts) != 1 || newSrc.replicaHosts[0] != fmt.Sprintf("127.0.0.1:%d", other.port()) {
		t.Errorf("the promoted node discovered as %+v", newSrc)
	}
	in := discover(t, other.db)
	if in.sourcePort != best.port() || in.sourceUUID != newSrc.uuid || !in.autoPosition {
		t.Errorf("replica2 after the failover discovered as %+v", in)
	}
}
