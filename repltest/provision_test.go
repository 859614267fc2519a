package repltest

// Provisioning a replica from a dump, MySQL's way, with Debian's mariadb-dump:
// dump the source with --single-transaction --master-data=2, turn the dump's
// CHANGE MASTER position into the source's GTID set (BINLOG_GTID_POS), restore
// into a fresh node, RESET BINARY LOGS AND GTIDS, SET GLOBAL gtid_purged to that
// set, and replicate with auto-positioning from there.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/gtid"
)

var dumpPosition = regexp.MustCompile(`(?m)^-- CHANGE MASTER TO MASTER_LOG_FILE='([^']+)', MASTER_LOG_POS=(\d+);`)

// dumpWithPosition runs mariadb-dump against the node at addr and returns the dump
// with the binary log position its CHANGE MASTER comment names.
func dumpWithPosition(t testing.TB, port int, extra ...string) (dump, file string, pos int64) {
	t.Helper()
	bin := needTool(t, "mariadb-dump", "mariadb-client")
	args := append([]string{"--no-defaults", "-h127.0.0.1", "-P" + strconv.Itoa(port), "-uroot",
		"--single-transaction", "--master-data=2", "--skip-add-locks"}, extra...)
	dump = runTool(t, "", bin, args...)
	m := dumpPosition.FindStringSubmatch(dump)
	if m == nil {
		t.Fatalf("mariadb-dump %v wrote no CHANGE MASTER comment:\n%.2000s", args, dump)
	}
	pos, _ = strconv.ParseInt(m[2], 10, 64)
	return dump, m[1], pos
}

// restore feeds a dump to the mariadb CLI on the node at port.
func restore(t testing.TB, port int, dump string) {
	t.Helper()
	bin := needTool(t, "mariadb", "mariadb-client")
	runTool(t, dump, bin, "--no-defaults", "-h127.0.0.1", "-P"+strconv.Itoa(port), "-uroot")
}

// TestReplicaFromDump: a replica built from a mariadb-dump of a loaded source that
// has purged its binary logs, with gtid_purged set to the dump's GTID set, survives
// kill -9 and a restart with that
// state, replicates only what the source wrote after the dump (never replaying the
// dumped GTIDs), and ends an exact copy. Writes run on the source during the dump:
// the snapshot and its position agree.
func TestReplicaFromDump(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 171)
	createReplUser(t, src.db)
	exec(t, src.db,
		"CREATE DATABASE shop",
		"CREATE TABLE shop.item (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40) NOT NULL, price DECIMAL(10,2), UNIQUE KEY (name))",
		"CREATE TABLE shop.orders (id INT PRIMARY KEY, item_id INT, qty INT, FOREIGN KEY (item_id) REFERENCES shop.item (id))",
		"CREATE DATABASE audit",
		"CREATE TABLE audit.log (id BIGINT PRIMARY KEY AUTO_INCREMENT, msg TEXT)",
	)
	for i := 1; i <= 50; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO shop.item (name, price) VALUES ('item%d', %d.25)", i, i),
			fmt.Sprintf("INSERT INTO shop.orders VALUES (%d, %d, %d)", i, i, i%7))
	}

	// The source has purged the binary logs that hold all of this: a replica can
	// only start from a copy of the data.
	exec(t, src.db, "FLUSH BINARY LOGS")
	exec(t, src.db, "PURGE BINARY LOGS TO '"+binlogStatus(t, src.db).file+"'")
	purged := gtidSet(t, str(t, src.db, "SELECT @@GLOBAL.gtid_purged"))
	if purged.IsEmpty() {
		t.Fatalf("the source purged nothing")
	}

	// Writes keep coming while the dump runs.
	stop := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		for i := 0; i < 2000; i++ { // bounded: the dump usually ends first
			select {
			case <-stop:
				writerDone <- nil
				return
			default:
			}
			if err := tryExec(src.db, fmt.Sprintf("INSERT INTO audit.log (msg) VALUES ('during dump %d')", i)); err != nil {
				writerDone <- err
				return
			}
		}
		writerDone <- nil
	}()
	// --gtid asks for MariaDB's GTID position, which mariadb-dump queries only from
	// MariaDB servers: against a MySQL 8.4 server the position stays the answer.
	dump, file, pos := dumpWithPosition(t, src.port(), "--gtid", "--databases", "shop", "audit")
	close(stop)
	if err := <-writerDone; err != nil {
		t.Fatalf("writer: %v", err)
	}
	// SHOW CREATE DATABASE IF NOT EXISTS answers as MySQL does, so the dump
	// restores over an existing schema too.
	if !strings.Contains(dump, "CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop`") {
		t.Errorf("the dump creates shop without IF NOT EXISTS")
	}
	dumped := gtidSet(t, str(t, src.db, "SELECT BINLOG_GTID_POS(?, ?)", file, pos))
	if !purged.IsSubset(dumped) || !dumped.IsSubset(gtidExecuted(t, src.db)) {
		t.Fatalf("BINLOG_GTID_POS(%s, %d) = %s: not between the source's gtid_purged %s and gtid_executed %s", file, pos, dumped, purged, gtidExecuted(t, src.db))
	}

	rep := newProc(t, "replica", 172)
	rep.start()
	restore(t, rep.port, dump)
	// The restore ran under the replica's own GTIDs: MySQL's procedure forgets them.
	if gtidExecuted(t, rep.db).IsEmpty() {
		t.Fatalf("the restore logged nothing on the replica")
	}
	exec(t, rep.db, "RESET BINARY LOGS AND GTIDS", "SET GLOBAL gtid_purged = '"+dumped.String()+"'")
	if got := gtidExecuted(t, rep.db); !got.Equal(dumped) {
		t.Fatalf("after SET gtid_purged: gtid_executed %s, want %s", got, dumped)
	}
	// The state is durable: kill -9 right away.
	rep.kill()
	rep.start()
	if got := gtidExecuted(t, rep.db); !got.Equal(dumped) {
		t.Fatalf("after kill -9: gtid_executed %s, want %s", got, dumped)
	}
	if got := gtidSet(t, str(t, rep.db, "SELECT @@GLOBAL.gtid_purged")); !got.Equal(dumped) {
		t.Fatalf("after kill -9: gtid_purged %s, want %s", got, dumped)
	}

	exec(t, rep.db, changeSourceSQL(src.port()), "START REPLICA")
	waitRunning(t, rep.db)
	exec(t, src.db, "UPDATE shop.item SET price = price + 1 WHERE id <= 10", "INSERT INTO shop.orders VALUES (1000, 1, 1)",
		"DELETE FROM audit.log WHERE id % 3 = 0")
	assertInSync(t, src.db, rep.db)

	// Nothing the dump held came through replication.
	retrieved := gtidSet(t, showStatus(t, rep.db)["Retrieved_Gtid_Set"])
	if shared := retrieved.Intersect(dumped); !shared.IsEmpty() {
		t.Errorf("the replica fetched dumped GTIDs again: %s", shared)
	}
	if want := gtidExecuted(t, src.db).Subtract(dumped); !retrieved.Equal(want) {
		t.Errorf("Retrieved_Gtid_Set %s, want exactly the source's writes after the dump %s", retrieved, want)
	}
	// A dump of the replica (--dump-slave=2) names the position in the source's
	// binary log it has applied up to (SHOW SLAVE STATUS, read by column position);
	// the source's BINLOG_GTID_POS of it is the replica's gtid_executed.
	bin := needTool(t, "mariadb-dump", "mariadb-client")
	rdump := runTool(t, "", bin, "--no-defaults", "-h127.0.0.1", "-P"+strconv.Itoa(rep.port), "-uroot",
		"--single-transaction", "--dump-slave=2", "--skip-add-locks", "--databases", "shop")
	m := dumpPosition.FindStringSubmatch(rdump)
	if m == nil {
		t.Fatalf("mariadb-dump --dump-slave=2 wrote no CHANGE MASTER comment:\n%.2000s", rdump)
	}
	if got := gtidSet(t, str(t, src.db, "SELECT BINLOG_GTID_POS(?, ?)", m[1], m[2])); !got.Equal(gtidExecuted(t, rep.db)) {
		t.Errorf("--dump-slave position %s:%s names %s on the source; the replica executed %s", m[1], m[2], got, gtidExecuted(t, rep.db))
	}
	waitStatus(t, rep.db, 30*time.Second, "the SQL thread restarted after --dump-slave", func(st status) bool { return st["Replica_SQL_Running"] == "Yes" })

	rep.stop()
	counts, _ := binlogGTIDCounts(t, rep.dir)
	for g := range counts {
		if dumped.Contains(g) {
			t.Errorf("the replica's binary log holds dumped GTID %s", g)
		}
	}
}

// TestSetGTIDPurgedRules: SET GLOBAL gtid_purged follows MySQL 8.4: a plain value
// must be a superset of gtid_purged whose new GTIDs are not executed, '+' adds a
// set disjoint from gtid_executed, and both reach gtid_executed; RESET MASTER
// (the old name) clears them; a dump of a node provisioned that way names them.
func TestSetGTIDPurgedRules(t *testing.T) {
	t.Parallel()
	n := startNode(t, "node", 173)
	const a = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"
	exec(t, n.db, "CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY)")
	own := gtidExecuted(t, n.db)

	exec(t, n.db, "SET GLOBAL gtid_purged = '"+a+":1-10'")
	want := own.Union(gtid.MustParse(a + ":1-10"))
	if got := gtidExecuted(t, n.db); !got.Equal(want) {
		t.Fatalf("gtid_executed %s, want %s", got, want)
	}
	exec(t, n.db, "SET GLOBAL gtid_purged = '+"+a+":20-30'")
	exec(t, n.db, "SET @@GLOBAL.gtid_purged = '"+a+":1-10:20-30,\n"+a+":40'")
	if got := str(t, n.db, "SELECT @@GLOBAL.gtid_purged"); got != a+":1-10:20-30:40" {
		t.Fatalf("gtid_purged %q", got)
	}
	for _, c := range []struct {
		code  uint16
		query string
	}{
		{3546, "SET GLOBAL gtid_purged = '+" + a + ":5-12'"},                     // overlaps gtid_executed
		{3546, "SET GLOBAL gtid_purged = '" + a + ":1-5'"},                       // not a superset
		{3546, "SET GLOBAL gtid_purged = '" + a + ":1-40," + own.String() + "'"}, // adds executed GTIDs
		{1772, "SET GLOBAL gtid_purged = 'not a set'"},
		{1229, "SET SESSION gtid_purged = '+" + a + ":50'"},
		{1231, "SET GLOBAL gtid_purged = NULL"},
	} {
		wantErr(t, n.db, c.code, c.query)
	}
	// A local write after the purged set keeps its own numbering; the purged set stays.
	exec(t, n.db, "INSERT INTO d.t VALUES (1)")

	n.restart()
	if got := str(t, n.db, "SELECT @@GLOBAL.gtid_purged"); got != a+":1-10:20-30:40" {
		t.Fatalf("after restart: gtid_purged %q", got)
	}
	// The binary log positions after the SET name the purged GTIDs.
	bs := binlogStatus(t, n.db)
	file, pos := bs.file, bs.pos
	if got := gtidSet(t, str(t, n.db, "SELECT BINLOG_GTID_POS(?, ?)", file, pos)); !got.Equal(gtidExecuted(t, n.db)) {
		t.Errorf("BINLOG_GTID_POS(%s, %d) = %s, want gtid_executed %s", file, pos, got, gtidExecuted(t, n.db))
	}
	if got := str(t, n.db, "SELECT BINLOG_GTID_POS('binlog.999999', 4)"); got != "NULL" {
		t.Errorf("BINLOG_GTID_POS of a file not in the index = %q, want NULL", got)
	}

	exec(t, n.db, "RESET MASTER")
	if got := str(t, n.db, "SELECT CONCAT('[', @@GLOBAL.gtid_executed, '][', @@GLOBAL.gtid_purged, ']')"); got != "[][]" {
		t.Fatalf("after RESET MASTER: %s", got)
	}
	exec(t, n.db, "SET GLOBAL gtid_purged = '"+own.String()+"'") // even the node's own numbers, once forgotten
	exec(t, n.db, "INSERT INTO d.t VALUES (2)")
	want = own.Clone()
	want.Add(gtid.GTID{UUID: mustUUID(t, serverUUID(t, n.db)), Seq: own.Last(mustUUID(t, serverUUID(t, n.db))) + 1})
	if got := gtidExecuted(t, n.db); !got.Equal(want) {
		t.Fatalf("a write after SET gtid_purged of the node's own GTIDs: gtid_executed %s, want %s", got, want)
	}
}
