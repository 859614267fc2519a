package repltest

// A source and a replica in one process: DDL and DML replicate, the status fields
// say what MySQL's say, the legacy spellings work, and the settings survive a
// restart of the replica.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBasicReplicationDDLDMLAndStatus(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	srcUUID := serverUUID(t, src.db)

	// Something exists before the replica starts: it must be sent too.
	exec(t, src.db,
		"CREATE DATABASE shop",
		"CREATE TABLE shop.items (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, qty INT NOT NULL DEFAULT 0, price DOUBLE, note TEXT, data BLOB)",
		"INSERT INTO shop.items VALUES (1, 'apple', 3, 0.5, NULL, x'00ff10'), (2, 'pear', 0, 1.25, 'ripe', NULL)",
	)

	replicate(t, rep.db, src.port())
	st := waitRunning(t, rep.db)
	if st["Source_Host"] != "127.0.0.1" || st["Source_Port"] != strconv.Itoa(src.port()) || st["Source_User"] != "repl" {
		t.Errorf("Source_Host/Port/User = %s/%s/%s, want 127.0.0.1/%d/repl", st["Source_Host"], st["Source_Port"], st["Source_User"], src.port())
	}
	assertInSync(t, src.db, rep.db)

	// DDL of every kind, interleaved with DML.
	exec(t, src.db,
		"CREATE DATABASE app",
		"CREATE TABLE app.users (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) NOT NULL, score INT NOT NULL DEFAULT 0, KEY score_k (score)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
		"INSERT INTO app.users (email, score) VALUES ('a@x', 1), ('b@x', 2), ('c@x', 3)",
		"CREATE INDEX email_i ON app.users (email)",
		"ALTER TABLE app.users ADD COLUMN nick VARCHAR(20) NULL",
		"UPDATE app.users SET nick = CONCAT('n', id), score = score + 10 WHERE id <= 2",
		"DELETE FROM app.users WHERE id = 3",
		"CREATE TABLE app.tmp (k INT PRIMARY KEY)",
		"INSERT INTO app.tmp VALUES (1), (2)",
		"DROP TABLE app.tmp",
		"CREATE DATABASE gone",
		"CREATE TABLE gone.t (id INT PRIMARY KEY)",
		"INSERT INTO gone.t VALUES (7)",
		"DROP DATABASE gone",
		"UPDATE shop.items SET qty = qty + 1",
		"INSERT INTO shop.items (id, name) VALUES (3, 'plum')",
		"DROP INDEX email_i ON app.users",
	)
	// A multi-statement transaction and one that rolls back.
	c := conn(t, src.db)
	exec(t, c, "BEGIN", "INSERT INTO shop.items (id, name) VALUES (4, 'fig')", "UPDATE shop.items SET qty = 99 WHERE id = 1", "COMMIT")
	exec(t, c, "BEGIN", "INSERT INTO shop.items (id, name) VALUES (5, 'never')", "ROLLBACK")

	assertInSync(t, src.db, rep.db)

	// Schema objects as the replica sees them.
	if got := rows(t, rep.db, "SHOW DATABASES"); containsRow(got, "gone") || !containsRow(got, "app") || !containsRow(got, "shop") {
		t.Errorf("replica SHOW DATABASES = %v, want app and shop, not gone", got)
	}
	if got := rows(t, rep.db, "SHOW TABLES FROM app"); len(got) != 1 || got[0][0] != "users" {
		t.Errorf("replica SHOW TABLES FROM app = %v, want [users]", got)
	}
	cols := rows(t, rep.db, "SHOW COLUMNS FROM users FROM app")
	if len(cols) != 4 || cols[3][0] != "nick" {
		t.Errorf("replica app.users columns = %v, want id,email,score,nick", cols)
	}
	idx := indexNames(t, rep, "app", "users")
	if !idx["score_k"] || idx["email_i"] {
		t.Errorf("replica app.users indexes = %v, want score_k and not email_i (dropped)", idx)
	}
	if got := rows(t, rep.db, "SELECT id, nick, score FROM app.users ORDER BY id"); fmt.Sprint(got) != "[[1 n1 11] [2 n2 12]]" {
		t.Errorf("replica app.users = %v", got)
	}
	if got := str(t, rep.db, "SELECT HEX(data) FROM shop.items WHERE id = 1"); got != "00FF10" {
		t.Errorf("replica BLOB = %s, want 00FF10", got)
	}

	// SHOW REPLICA STATUS once idle.
	exec(t, src.db, "INSERT INTO shop.items (id, name) VALUES (6, 'kiwi')")
	waitCaughtUp(t, src.db, rep.db)
	srcExec := str(t, src.db, "SELECT @@gtid_executed")
	st = waitStatus(t, rep.db, 30*time.Second, "idle replica with Seconds_Behind_Source 0 and Retrieved_Gtid_Set = source gtid_executed", func(st status) bool {
		return st["Seconds_Behind_Source"] == "0" && st["Retrieved_Gtid_Set"] == srcExec && st["Executed_Gtid_Set"] == srcExec
	})
	want := map[string]string{
		"Replica_IO_Running":    "Yes",
		"Replica_SQL_Running":   "Yes",
		"Source_UUID":           srcUUID,
		"Source_Server_Id":      "1",
		"Source_Host":           "127.0.0.1",
		"Source_Port":           strconv.Itoa(src.port()),
		"Source_User":           "repl",
		"Connect_Retry":         "1",
		"Auto_Position":         "1",
		"Seconds_Behind_Source": "0",
		"Channel_Name":          "",
		"Last_IO_Errno":         "0",
		"Last_IO_Error":         "",
		"Last_SQL_Errno":        "0",
		"Last_SQL_Error":        "",
		"Last_Errno":            "0",
		"Last_Error":            "",
		"Retrieved_Gtid_Set":    srcExec,
		"Executed_Gtid_Set":     srcExec,
	}
	checkFields(t, "SHOW REPLICA STATUS", st, want)
	for _, f := range []string{"Replica_IO_State", "Source_Log_File", "Read_Source_Log_Pos", "Relay_Log_File", "Relay_Log_Pos", "Relay_Source_Log_File", "Exec_Source_Log_Pos", "Replica_SQL_Running_State"} {
		if _, ok := st[f]; !ok {
			t.Errorf("SHOW REPLICA STATUS has no column %s", f)
		}
	}
	if st["Replica_IO_State"] == "" || st["Replica_SQL_Running_State"] == "" {
		t.Errorf("Replica_IO_State %q / Replica_SQL_Running_State %q should describe the threads", st["Replica_IO_State"], st["Replica_SQL_Running_State"])
	}
	// Positions in the source's binary log: once idle, both the read and the
	// executed position are the source's end of log. (Exact right after the events
	// arrive is TestSourcePosWaitWithoutHeartbeat's business; here a heartbeat may
	// have corrected them.)
	bs := binlogStatus(t, src.db)
	pos := strconv.FormatInt(bs.pos, 10)
	waitStatus(t, rep.db, 10*time.Second, "Source_Log_File:Read_Source_Log_Pos and Relay_Source_Log_File:Exec_Source_Log_Pos = "+bs.file+":"+pos, func(st status) bool {
		return st["Source_Log_File"] == bs.file && st["Read_Source_Log_Pos"] == pos && st["Relay_Source_Log_File"] == bs.file && st["Exec_Source_Log_Pos"] == pos
	})

	// Legacy names.
	legacy := showStatus(t, rep.db, "SHOW SLAVE STATUS")
	checkFields(t, "SHOW SLAVE STATUS", legacy, map[string]string{
		"Slave_IO_Running":      "Yes",
		"Slave_SQL_Running":     "Yes",
		"Master_Host":           "127.0.0.1",
		"Master_Port":           strconv.Itoa(src.port()),
		"Master_User":           "repl",
		"Master_UUID":           srcUUID,
		"Master_Server_Id":      "1",
		"Seconds_Behind_Master": "0",
		"Master_Log_File":       bs.file,
		"Read_Master_Log_Pos":   strconv.FormatInt(bs.pos, 10),
		"Exec_Master_Log_Pos":   strconv.FormatInt(bs.pos, 10),
		"Relay_Master_Log_File": bs.file,
		"Auto_Position":         "1",
		"Channel_Name":          "",
	})
	for _, f := range []string{"Slave_IO_State", "Slave_SQL_Running_State", "Master_Retry_Count"} {
		if _, ok := legacy[f]; !ok {
			t.Errorf("SHOW SLAVE STATUS has no column %s", f)
		}
	}

	// The source lists the replica.
	repUUID := serverUUID(t, rep.db)
	for _, stmt := range []string{"SHOW REPLICAS", "SHOW SLAVE HOSTS"} {
		cols, r := result(t, src.db, stmt)
		if len(r) != 1 {
			t.Fatalf("%s = %v, want one replica", stmt, r)
		}
		row := map[string]string{}
		for i, c := range cols {
			row[c] = r[0][i]
		}
		if row["Server_Id"] != "2" || row["Source_Id"] != "1" || row["Replica_UUID"] != repUUID {
			t.Errorf("%s = %v, want Server_Id 2, Source_Id 1, Replica_UUID %s", stmt, row, repUUID)
		}
	}

	// The replica's gtid_executed carries the source's uuid only.
	if uu := gtidExecuted(t, rep.db).UUIDs(); len(uu) != 1 || uu[0].String() != srcUUID {
		t.Errorf("replica gtid_executed uuids = %v, want only the source's %s", uu, srcUUID)
	}
}

func TestSettingsPersistAcrossReplicaRestart(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY, v INT)", "INSERT INTO d.t VALUES (1, 1)")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)

	// Restart the replica while the source keeps changing: it resumes by itself.
	rep.close()
	for i := 2; i <= 50; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO d.t VALUES (%d, %d)", i, i))
	}
	rep.open()
	st := waitRunning(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS after restart", st, map[string]string{
		"Source_Host":    "127.0.0.1",
		"Source_Port":    strconv.Itoa(src.port()),
		"Source_User":    "repl",
		"Connect_Retry":  "1",
		"Auto_Position":  "1",
		"Last_IO_Errno":  "0",
		"Last_SQL_Errno": "0",
	})
	assertInSync(t, src.db, rep.db)

	// STOP REPLICA is remembered too: after a restart the channel stays stopped...
	exec(t, rep.db, "STOP REPLICA")
	rep.restart()
	st = showStatus(t, rep.db)
	if st == nil || st["Replica_IO_Running"] != "No" || st["Replica_SQL_Running"] != "No" || st["Source_Port"] != strconv.Itoa(src.port()) {
		t.Fatalf("after STOP REPLICA and a restart: SHOW REPLICA STATUS = %v, want the channel kept but not running", st)
	}
	exec(t, src.db, "UPDATE d.t SET v = v * 2")
	// ...until START REPLICA, with the persisted settings.
	exec(t, rep.db, "START REPLICA")
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)
}

func TestChangeMasterToLegacySyntax(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 11)
	rep := startNode(t, "replica", 12)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE legacy", "CREATE TABLE legacy.t (id INT PRIMARY KEY, s VARCHAR(10))", "INSERT INTO legacy.t VALUES (1, 'one')")
	exec(t, rep.db,
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='repl', MASTER_PASSWORD='pw', GET_MASTER_PUBLIC_KEY=1, MASTER_AUTO_POSITION=1, MASTER_CONNECT_RETRY=1, MASTER_HEARTBEAT_PERIOD=1, MASTER_RETRY_COUNT=100", src.port()),
		"START SLAVE",
	)
	st := waitStatus(t, rep.db, 30*time.Second, "both threads running", func(st status) bool {
		return st["Replica_IO_Running"] == "Yes" && st["Replica_SQL_Running"] == "Yes"
	})
	checkFields(t, "SHOW REPLICA STATUS after CHANGE MASTER TO", st, map[string]string{
		"Source_Host":        "127.0.0.1",
		"Source_Port":        strconv.Itoa(src.port()),
		"Source_User":        "repl",
		"Connect_Retry":      "1",
		"Source_Retry_Count": "100",
		"Auto_Position":      "1",
		"Source_Server_Id":   "11",
	})
	exec(t, src.db, "INSERT INTO legacy.t VALUES (2, 'two')")
	assertInSync(t, src.db, rep.db)
	exec(t, rep.db, "STOP SLAVE")
	legacy := showStatus(t, rep.db, "SHOW SLAVE STATUS")
	if legacy["Slave_IO_Running"] != "No" || legacy["Slave_SQL_Running"] != "No" {
		t.Errorf("after STOP SLAVE: Slave_IO_Running %q, Slave_SQL_Running %q, want No/No", legacy["Slave_IO_Running"], legacy["Slave_SQL_Running"])
	}
	// CHANGE needs the threads stopped (1198) and is then accepted again.
	exec(t, rep.db, "START SLAVE")
	waitRunning(t, rep.db)
	wantErr(t, rep.db, 1198, "CHANGE MASTER TO MASTER_CONNECT_RETRY=2")
	exec(t, rep.db, "STOP SLAVE", "CHANGE MASTER TO MASTER_CONNECT_RETRY=2", "START SLAVE")
	st = waitRunning(t, rep.db)
	if st["Connect_Retry"] != "2" || st["Source_Port"] != strconv.Itoa(src.port()) {
		t.Errorf("after CHANGE MASTER TO MASTER_CONNECT_RETRY=2: Connect_Retry %s, Source_Port %s (other settings must be kept)", st["Connect_Retry"], st["Source_Port"])
	}
	exec(t, src.db, "INSERT INTO legacy.t VALUES (3, 'three')")
	assertInSync(t, src.db, rep.db)
}

// TestResetReplicaAndThreadControl: STOP/START of each thread shows in the Running
// fields; RESET REPLICA ALL removes the channel.
func TestResetReplicaAndThreadControl(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 21)
	rep := startNode(t, "replica", 22)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE r", "CREATE TABLE r.t (id INT PRIMARY KEY)")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)

	running := func(io, sql string) func(st status) bool {
		return func(st status) bool { return st["Replica_IO_Running"] == io && st["Replica_SQL_Running"] == sql }
	}

	// SQL thread only: events are received but not applied.
	exec(t, rep.db, "STOP REPLICA SQL_THREAD")
	waitStatus(t, rep.db, 10*time.Second, "IO Yes, SQL No", running("Yes", "No"))
	exec(t, src.db, "INSERT INTO r.t VALUES (1), (2)")
	srcExec := str(t, src.db, "SELECT @@gtid_executed")
	st := waitStatus(t, rep.db, 30*time.Second, "Retrieved_Gtid_Set = source gtid_executed", func(st status) bool {
		return st["Retrieved_Gtid_Set"] == srcExec
	})
	if st["Executed_Gtid_Set"] == srcExec {
		t.Errorf("with the SQL thread stopped the replica executed %s", srcExec)
	}
	if got := str(t, rep.db, "SELECT COUNT(*) FROM r.t"); got != "0" {
		t.Errorf("with the SQL thread stopped r.t has %s rows", got)
	}
	if got := str(t, rep.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s', 0.3)", srcExec)); got != "1" {
		t.Errorf("WAIT_FOR_EXECUTED_GTID_SET with the SQL thread stopped = %s, want 1 (timeout)", got)
	}
	exec(t, rep.db, "START REPLICA SQL_THREAD")
	waitStatus(t, rep.db, 10*time.Second, "IO Yes, SQL Yes", running("Yes", "Yes"))
	assertInSync(t, src.db, rep.db)

	// IO thread only: nothing new arrives, the applier stays up.
	exec(t, rep.db, "STOP REPLICA IO_THREAD")
	waitStatus(t, rep.db, 10*time.Second, "IO No, SQL Yes", running("No", "Yes"))
	exec(t, src.db, "INSERT INTO r.t VALUES (3)")
	srcExec = str(t, src.db, "SELECT @@gtid_executed")
	if got := str(t, rep.db, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s', 0.3)", srcExec)); got != "1" {
		t.Errorf("WAIT_FOR_EXECUTED_GTID_SET with the IO thread stopped = %s, want 1 (timeout)", got)
	}
	// MySQL: NULL when the SQL thread consumed all of the relay log and the IO
	// thread is not running (the lag is unknown).
	st = waitStatus(t, rep.db, 10*time.Second, "the applier to reach the end of the relay log", func(st status) bool {
		return st["Replica_SQL_Running_State"] == "Replica has read all relay log; waiting for more updates"
	})
	if st["Seconds_Behind_Source"] != "NULL" {
		t.Errorf("Seconds_Behind_Source with the IO thread stopped and the relay log applied = %s, want NULL", st["Seconds_Behind_Source"])
	}
	exec(t, rep.db, "START REPLICA IO_THREAD")
	waitStatus(t, rep.db, 10*time.Second, "IO Yes, SQL Yes", running("Yes", "Yes"))
	assertInSync(t, src.db, rep.db)

	// Both, legacy spelling with a thread list.
	exec(t, rep.db, "STOP SLAVE IO_THREAD, SQL_THREAD")
	waitStatus(t, rep.db, 10*time.Second, "IO No, SQL No", running("No", "No"))
	exec(t, rep.db, "START SLAVE IO_THREAD, SQL_THREAD")
	waitStatus(t, rep.db, 10*time.Second, "IO Yes, SQL Yes", running("Yes", "Yes"))

	// RESET REPLICA needs stopped threads, then keeps the connection settings;
	// RESET REPLICA ALL forgets the channel.
	wantErr(t, rep.db, 1198, "RESET REPLICA")
	exec(t, rep.db, "STOP REPLICA", "RESET REPLICA")
	st = showStatus(t, rep.db)
	if st == nil || st["Source_Port"] != strconv.Itoa(src.port()) || st["Retrieved_Gtid_Set"] != "" {
		t.Errorf("after RESET REPLICA: %v, want the channel with its settings and an empty Retrieved_Gtid_Set", st)
	}
	// The data and gtid_executed stay: START REPLICA asks only for what is missing.
	exec(t, src.db, "INSERT INTO r.t VALUES (4)")
	exec(t, rep.db, "START REPLICA")
	waitRunning(t, rep.db)
	assertInSync(t, src.db, rep.db)

	exec(t, rep.db, "STOP REPLICA", "RESET REPLICA ALL")
	if st := showStatus(t, rep.db); st != nil {
		t.Errorf("after RESET REPLICA ALL: SHOW REPLICA STATUS = %v, want no row", st)
	}
	if st := showStatus(t, rep.db, "SHOW SLAVE STATUS"); st != nil {
		t.Errorf("after RESET REPLICA ALL: SHOW SLAVE STATUS = %v, want no row", st)
	}
	wantErr(t, rep.db, 1200, "START REPLICA")
	// And it is forgotten across a restart as well.
	rep.restart()
	if st := showStatus(t, rep.db); st != nil {
		t.Errorf("after RESET REPLICA ALL and a restart: SHOW REPLICA STATUS = %v, want no row", st)
	}
	exec(t, src.db, "INSERT INTO r.t VALUES (5)")
	if got := str(t, rep.db, "SELECT COUNT(*) FROM r.t"); got != "4" {
		t.Errorf("a replica without a channel changed: r.t has %s rows, want 4", got)
	}
	// The source forgets the replica once it is gone.
	eventually(t, 30*time.Second, "SHOW REPLICAS on the source to be empty", func() (bool, string) {
		r := rows(t, src.db, "SHOW REPLICAS")
		return len(r) == 0, fmt.Sprint(r)
	})
}

func checkFields(t testing.TB, what string, st status, want map[string]string) {
	t.Helper()
	if st == nil {
		t.Errorf("%s: no row", what)
		return
	}
	for k, v := range want {
		got, ok := st[k]
		if !ok {
			t.Errorf("%s: no column %s", what, k)
		} else if got != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
}

func containsRow(r [][]string, v string) bool {
	for _, x := range r {
		if len(x) > 0 && x[0] == v {
			return true
		}
	}
	return false
}

// indexNames lists the index names of schema.table on n (SHOW INDEX Key_name).
func indexNames(t testing.TB, n *node, schema, table string) map[string]bool {
	t.Helper()
	cols, r := result(t, n.db, fmt.Sprintf("SHOW INDEX FROM `%s` FROM `%s`", table, schema))
	k := -1
	for i, c := range cols {
		if strings.EqualFold(c, "Key_name") {
			k = i
		}
	}
	if k < 0 {
		t.Fatalf("SHOW INDEX has no Key_name column: %v", cols)
	}
	out := map[string]bool{}
	for _, row := range r {
		out[row[k]] = true
	}
	return out
}

type binlogPos struct {
	file string
	pos  int64
	gtid string
}

// binlogStatus is SHOW BINARY LOG STATUS.
func binlogStatus(t testing.TB, q querier) binlogPos {
	t.Helper()
	r := rows(t, q, "SHOW BINARY LOG STATUS")
	if len(r) != 1 || len(r[0]) < 5 {
		t.Fatalf("SHOW BINARY LOG STATUS = %v", r)
	}
	pos, err := strconv.ParseInt(r[0][1], 10, 64)
	if err != nil {
		t.Fatalf("SHOW BINARY LOG STATUS position %q", r[0][1])
	}
	return binlogPos{file: r[0][0], pos: pos, gtid: r[0][4]}
}
