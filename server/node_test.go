package server_test

// Node-level behaviour seen through real clients: the binary log's admin
// statements, restart, the dump tool, the HTTP endpoint, and the options that
// change what clients get (lock wait timeout, max_allowed_packet, read-only).

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/gtid"
	tn "github.com/binlite/binlite/internal/testnode"
)

// shopNode starts a node with database shop and table items, and returns a
// text-protocol session using shop.
func shopNode(t *testing.T, opts ...tn.Option) (*tn.Node, tn.Querier) {
	t.Helper()
	n := tn.Start(t, opts...)
	s := tn.Conn(t, n.DB(""))
	tn.Exec(t, s, "CREATE DATABASE shop")
	tn.Exec(t, s, "USE shop")
	tn.Exec(t, s, "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL, qty INT NOT NULL DEFAULT 0)")
	return n, s
}

// binlogStatus is one row of SHOW BINARY LOG STATUS.
type binlogStatus struct {
	File     string
	Position int64
	Executed string
}

func showBinlogStatus(t *testing.T, q tn.Querier, stmt string) binlogStatus {
	t.Helper()
	cols, rows := tn.Result(t, q, stmt)
	if got := strings.Join(cols, ","); got != "File,Position,Binlog_Do_DB,Binlog_Ignore_DB,Executed_Gtid_Set" {
		t.Fatalf("%s columns = %s", stmt, got)
	}
	if len(rows) != 1 {
		t.Fatalf("%s returned %d rows, want 1", stmt, len(rows))
	}
	pos, err := strconv.ParseInt(rows[0][1], 10, 64)
	if err != nil {
		t.Fatalf("%s Position %q: %v", stmt, rows[0][1], err)
	}
	return binlogStatus{File: rows[0][0], Position: pos, Executed: rows[0][4]}
}

// binaryLogs is SHOW BINARY LOGS as file name -> size.
func binaryLogs(t *testing.T, q tn.Querier) (names []string, sizes map[string]int64) {
	t.Helper()
	cols, rows := tn.Result(t, q, "SHOW BINARY LOGS")
	if len(cols) < 2 || cols[0] != "Log_name" || cols[1] != "File_size" {
		t.Fatalf("SHOW BINARY LOGS columns = %v", cols)
	}
	sizes = map[string]int64{}
	for _, r := range rows {
		size, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			t.Fatalf("SHOW BINARY LOGS size %q: %v", r[1], err)
		}
		names = append(names, r[0])
		sizes[r[0]] = size
	}
	return names, sizes
}

func TestShowBinaryLogStatusMatchesGTIDExecutedAndFile(t *testing.T) {
	n, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3)")
	for _, stmt := range []string{"SHOW BINARY LOG STATUS", "SHOW MASTER STATUS"} {
		st := showBinlogStatus(t, s, stmt)
		executed := tn.String(t, s, "SELECT @@gtid_executed")
		if st.File != "binlog.000001" || st.Executed != executed {
			t.Errorf("%s = %+v, want File binlog.000001 and Executed_Gtid_Set %q", stmt, st, executed)
		}
		fi, err := os.Stat(filepath.Join(n.Dir, st.File))
		if err != nil {
			t.Fatal(err)
		}
		if st.Position != fi.Size() {
			t.Errorf("%s Position = %d, file size on disk = %d", stmt, st.Position, fi.Size())
		}
		names, sizes := binaryLogs(t, s)
		if len(names) != 1 || names[0] != "binlog.000001" || sizes[names[0]] != st.Position {
			t.Errorf("SHOW BINARY LOGS = %v %v, want binlog.000001 of size %d", names, sizes, st.Position)
		}
	}
	before := showBinlogStatus(t, s, "SHOW BINARY LOG STATUS")
	tn.Exec(t, s, "UPDATE items SET qty = 4 WHERE id = 1")
	after := showBinlogStatus(t, s, "SHOW BINARY LOG STATUS")
	if after.Position <= before.Position {
		t.Errorf("Position did not grow with a write: %d -> %d", before.Position, after.Position)
	}
	if got := tn.ParseGTIDSet(t, after.Executed).Count(); got != tn.ParseGTIDSet(t, before.Executed).Count()+1 {
		t.Errorf("Executed_Gtid_Set %s -> %s, want one more", before.Executed, after.Executed)
	}
}

func TestFlushAndPurgeBinaryLogs(t *testing.T) {
	n, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3)")
	tn.Exec(t, s, "FLUSH BINARY LOGS")
	if names, _ := binaryLogs(t, s); strings.Join(names, ",") != "binlog.000001,binlog.000002" {
		t.Fatalf("after FLUSH BINARY LOGS: SHOW BINARY LOGS = %v, want binlog.000001,binlog.000002", names)
	}
	if st := showBinlogStatus(t, s, "SHOW BINARY LOG STATUS"); st.File != "binlog.000002" {
		t.Errorf("after FLUSH BINARY LOGS the current file is %s, want binlog.000002", st.File)
	}
	tn.Exec(t, s, "INSERT INTO items VALUES (2, 'pear', 5)")
	tn.Exec(t, s, "FLUSH BINARY LOGS")
	inPurgedFiles := tn.GTIDExecuted(t, s)
	tn.Exec(t, s, "INSERT INTO items VALUES (3, 'plum', 7)")
	executed := tn.GTIDExecuted(t, s)
	for _, f := range []string{"binlog.000001", "binlog.000002", "binlog.000003"} {
		if _, err := os.Stat(filepath.Join(n.Dir, f)); err != nil {
			t.Fatalf("before PURGE: %v", err)
		}
	}
	if got := tn.String(t, s, "SELECT @@gtid_purged"); got != "" {
		t.Errorf("@@gtid_purged before PURGE = %q, want empty", got)
	}

	tn.Exec(t, s, "PURGE BINARY LOGS TO 'binlog.000003'")
	if names, _ := binaryLogs(t, s); strings.Join(names, ",") != "binlog.000003" {
		t.Errorf("after PURGE: SHOW BINARY LOGS = %v, want binlog.000003", names)
	}
	for _, f := range []string{"binlog.000001", "binlog.000002"} {
		if _, err := os.Stat(filepath.Join(n.Dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s still on disk after PURGE (stat: %v)", f, err)
		}
	}
	purged := tn.ParseGTIDSet(t, tn.String(t, s, "SELECT @@gtid_purged"))
	if purged.IsEmpty() || !purged.Equal(inPurgedFiles) {
		t.Errorf("@@gtid_purged = %s, want the transactions of the purged files: %s", purged, inPurgedFiles)
	}
	if got := tn.GTIDExecuted(t, s); !got.Equal(executed) {
		t.Errorf("PURGE changed gtid_executed %s -> %s", executed, got)
	}
	if got := tn.Rows(t, s, "SELECT name FROM items ORDER BY id"); !equalRows(got, [][]string{{"apple"}, {"pear"}, {"plum"}}) {
		t.Errorf("data after PURGE = %v", got)
	}
	tn.ExecError(t, s, 1373, "HY000", "PURGE BINARY LOGS TO 'binlog.000099'")
}

func TestResetBinaryLogsAndGTIDsStartsAgainAtOne(t *testing.T) {
	n, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3)")
	tn.Exec(t, s, "FLUSH BINARY LOGS")
	tn.Exec(t, s, "INSERT INTO items VALUES (2, 'pear', 5)")
	uuid := serverUUID(t, s)

	for _, stmt := range []string{"RESET BINARY LOGS AND GTIDS", "RESET MASTER"} {
		tn.Exec(t, s, stmt)
		if got := tn.String(t, s, "SELECT @@gtid_executed"); got != "" {
			t.Errorf("after %s: @@gtid_executed = %q, want empty", stmt, got)
		}
		if got := tn.String(t, s, "SELECT @@gtid_purged"); got != "" {
			t.Errorf("after %s: @@gtid_purged = %q, want empty", stmt, got)
		}
		if names, _ := binaryLogs(t, s); strings.Join(names, ",") != "binlog.000001" {
			t.Errorf("after %s: SHOW BINARY LOGS = %v, want binlog.000001", stmt, names)
		}
		if got := tn.Int(t, s, "SELECT COUNT(*) FROM items"); got < 2 {
			t.Errorf("after %s: %d rows, want the data intact", stmt, got)
		}
		tn.Exec(t, s, "INSERT INTO items (id, name) SELECT MAX(id) + 1, 'after reset' FROM items")
		if got, want := tn.String(t, s, "SELECT @@gtid_executed"), uuid.String()+":1"; got != want {
			t.Errorf("first write after %s: @@gtid_executed = %q, want %q", stmt, got, want)
		}
	}
	want := tn.Rows(t, s, "SELECT id, name, qty FROM items ORDER BY id")
	if len(want) != 4 {
		t.Errorf("rows = %v, want 4", want)
	}

	// A restart neither re-applies the transactions logged before the reset nor
	// loses those after it.
	n.Restart()
	s = tn.Conn(t, n.DB("shop"))
	if got := tn.Rows(t, s, "SELECT id, name, qty FROM items ORDER BY id"); !equalRows(got, want) {
		t.Errorf("after restart: rows = %v, want %v", got, want)
	}
	if got, want := tn.String(t, s, "SELECT @@gtid_executed"), uuid.String()+":1"; got != want {
		t.Errorf("after restart: @@gtid_executed = %q, want %q", got, want)
	}
}

func TestRestartKeepsDataAndContinuesGTIDSequence(t *testing.T) {
	n, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3), (2, 'pear', 5)")
	tn.Exec(t, s, "BEGIN")
	tn.Exec(t, s, "UPDATE items SET qty = qty * 10")
	tn.Exec(t, s, "INSERT INTO items VALUES (3, 'plum', 7)")
	tn.Exec(t, s, "COMMIT")
	tn.Exec(t, s, "DELETE FROM items WHERE id = 2")
	tn.Exec(t, s, "FLUSH BINARY LOGS")
	tn.Exec(t, s, "INSERT INTO items VALUES (4, 'fig', 1)")
	tn.Exec(t, s, "PURGE BINARY LOGS TO 'binlog.000002'")
	uuid := serverUUID(t, s)
	rows := tn.Rows(t, s, "SELECT id, name, qty FROM items ORDER BY id")
	executed := tn.GTIDExecuted(t, s)
	purged := tn.String(t, s, "SELECT @@gtid_purged")
	last := executed.Last(uuid)
	if last != 6 || executed.Count() != 6 {
		t.Fatalf("gtid_executed = %s, want %s:1-6", executed, uuid)
	}

	for restart := 1; restart <= 2; restart++ {
		n.Restart()
		s = tn.Conn(t, n.DB("shop"))
		if got := serverUUID(t, s); got != uuid {
			t.Errorf("restart %d: @@server_uuid = %s, want %s", restart, got, uuid)
		}
		if got := tn.Rows(t, s, "SELECT id, name, qty FROM items ORDER BY id"); !equalRows(got, rows) {
			t.Errorf("restart %d: rows = %v, want %v", restart, got, rows)
		}
		if got := tn.GTIDExecuted(t, s); !got.Equal(executed) {
			t.Errorf("restart %d: gtid_executed = %s, want %s", restart, got, executed)
		}
		if got := tn.String(t, s, "SELECT @@gtid_purged"); got != purged {
			t.Errorf("restart %d: gtid_purged = %q, want %q", restart, got, purged)
		}
		if st := showBinlogStatus(t, s, "SHOW BINARY LOG STATUS"); st.Executed != executed.String() {
			t.Errorf("restart %d: Executed_Gtid_Set = %s, want %s", restart, st.Executed, executed)
		}
	}
	tn.Exec(t, s, "INSERT INTO items VALUES (5, 'kiwi', 2)")
	got := tn.GTIDExecuted(t, s)
	next := gtid.GTID{UUID: uuid, Seq: last + 1}
	if got.Count() != executed.Count()+1 || !got.Contains(next) {
		t.Errorf("first write after restart: gtid_executed = %s, want %s plus %s", got, executed, next)
	}
}

// buildBinlite builds cmd/binlite into a temporary directory.
func buildBinlite(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to build cmd/binlite: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "binlite")
	cmd := exec.Command(goTool, "build", "-tags", "sqlite_preupdate_hook", "-o", bin, "./cmd/binlite")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/binlite: %v\n%s", err, out)
	}
	return bin
}

// rowEvent is one row change as `binlite binlog dump` prints it.
type rowEvent struct {
	Op    string // INSERT, UPDATE, DELETE
	Table string
	Where []string
	Set   []string
}

func (e rowEvent) String() string {
	return fmt.Sprintf("%s %s WHERE %v SET %v", e.Op, e.Table, e.Where, e.Set)
}

var (
	dumpRowHeader = regexp.MustCompile(`^### (INSERT INTO|UPDATE|DELETE FROM) (\S+)$`)
	dumpColumn    = regexp.MustCompile(`^###   @\d+=(.*) /\* \w+ \*/$`)
)

// parseDumpRows extracts the row images from dump output.
func parseDumpRows(out string) []rowEvent {
	var evs []rowEvent
	var part *[]string
	for _, line := range strings.Split(out, "\n") {
		if m := dumpRowHeader.FindStringSubmatch(line); m != nil {
			evs = append(evs, rowEvent{Op: strings.Fields(m[1])[0], Table: m[2]})
			continue
		}
		if len(evs) == 0 {
			continue
		}
		e := &evs[len(evs)-1]
		switch {
		case line == "### WHERE":
			part = &e.Where
		case line == "### SET":
			part = &e.Set
		case dumpColumn.MatchString(line) && part != nil:
			*part = append(*part, dumpColumn.FindStringSubmatch(line)[1])
		case !strings.HasPrefix(line, "###"):
			part = nil
		}
	}
	return evs
}

func TestBinlogDumpPrintsCommittedRowChanges(t *testing.T) {
	bin := buildBinlite(t)
	n, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3)")
	tn.Exec(t, s, "UPDATE items SET qty = 4 WHERE id = 1")
	tn.Exec(t, s, "BEGIN")
	tn.Exec(t, s, "INSERT INTO items VALUES (2, 'pear', 5)")
	tn.Exec(t, s, "SAVEPOINT sp")
	tn.Exec(t, s, "INSERT INTO items VALUES (3, 'ghost', 9)")
	tn.Exec(t, s, "ROLLBACK TO SAVEPOINT sp")
	// A statement that fails halfway (row 5 is written before row 1 collides)
	// leaves nothing of itself in the transaction.
	tn.ExecError(t, s, 1062, "23000", "INSERT INTO items VALUES (5, 'half', 1), (1, 'collides', 1)")
	tn.Exec(t, s, "COMMIT")
	tn.Exec(t, s, "DELETE FROM items WHERE id = 2")
	tn.Exec(t, s, "BEGIN")
	tn.Exec(t, s, "INSERT INTO items VALUES (4, 'never', 1)")
	tn.Exec(t, s, "ROLLBACK")
	tn.ExecError(t, s, 1062, "23000", "INSERT INTO items VALUES (1, 'duplicate', 1)")
	executed := tn.GTIDExecuted(t, s)

	out, err := exec.Command(bin, "binlog", "dump", filepath.Join(n.Dir, "binlog.000001")).CombinedOutput()
	if err != nil {
		t.Fatalf("binlite binlog dump: %v\n%s", err, out)
	}
	dump := string(out)
	table := "`shop`.`items`"
	want := []rowEvent{
		{Op: "INSERT", Table: table, Set: []string{"1", "'apple'", "3"}},
		{Op: "UPDATE", Table: table, Where: []string{"1", "'apple'", "3"}, Set: []string{"1", "'apple'", "4"}},
		{Op: "INSERT", Table: table, Set: []string{"2", "'pear'", "5"}},
		{Op: "DELETE", Table: table, Where: []string{"2", "'pear'", "5"}},
	}
	if got := parseDumpRows(dump); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("row changes in the dump:\n got %v\nwant %v\n%s", got, want, dump)
	}
	if got := tn.Rows(t, s, "SELECT id, name, qty FROM items ORDER BY id"); !equalRows(got, [][]string{{"1", "apple", "4"}}) {
		t.Errorf("table = %v, want [[1 apple 4]]", got)
	}
	for _, gone := range []string{"ghost", "half", "collides", "never", "duplicate"} {
		if strings.Contains(dump, gone) {
			t.Errorf("the dump holds %q, which was never committed", gone)
		}
	}
	if !strings.Contains(dump, "CREATE TABLE items") {
		t.Errorf("the dump lacks the CREATE TABLE statement")
	}
	// One GTID event per transaction in gtid_executed, in order.
	gtids := regexp.MustCompile(`\tGTID\t(\S+)`).FindAllStringSubmatch(dump, -1)
	if uint64(len(gtids)) != executed.Count() {
		t.Errorf("the dump has %d GTID events, gtid_executed has %d transactions (%s)", len(gtids), executed.Count(), executed)
	}
	for i, m := range gtids {
		g, err := gtid.ParseGTID(m[1])
		if err != nil || g.Seq != uint64(i+1) || !executed.Contains(g) {
			t.Errorf("GTID event %d is %q, want sequence %d of %s", i, m[1], i+1, executed)
		}
	}
}

func httpGet(t *testing.T, url string) (string, http.Header) {
	t.Helper()
	c := http.Client{Timeout: tn.StatementTimeout}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, body)
	}
	return string(body), resp.Header
}

func TestHTTPStatusAndMetricsReportTheBinaryLog(t *testing.T) {
	n, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3)")
	tn.Exec(t, s, "INSERT INTO items VALUES (2, 'pear', 5)")
	executed := tn.GTIDExecuted(t, s)

	body, hdr := httpGet(t, "http://"+n.HTTPAddr()+"/status")
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("/status Content-Type = %q", ct)
	}
	var st struct {
		ServerID     uint32   `json:"server_id"`
		ServerUUID   string   `json:"server_uuid"`
		GTIDExecuted string   `json:"gtid_executed"`
		BinlogFile   string   `json:"binlog_file"`
		BinlogPos    int64    `json:"binlog_position"`
		Transactions uint64   `json:"binlog_transactions"`
		Schemas      []string `json:"schemas"`
		Connections  int      `json:"connections"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("/status is not JSON: %v\n%s", err, body)
	}
	if st.GTIDExecuted != executed.String() {
		t.Errorf("/status gtid_executed = %q, @@gtid_executed = %q", st.GTIDExecuted, executed)
	}
	if st.ServerUUID != serverUUID(t, s).String() || st.ServerID != 1 {
		t.Errorf("/status server = %d %s", st.ServerID, st.ServerUUID)
	}
	if st.Transactions != executed.Count() {
		t.Errorf("/status binlog_transactions = %d, want %d", st.Transactions, executed.Count())
	}
	pos := showBinlogStatus(t, s, "SHOW BINARY LOG STATUS")
	if st.BinlogFile != pos.File || st.BinlogPos != pos.Position {
		t.Errorf("/status binlog %s:%d, SHOW BINARY LOG STATUS %s:%d", st.BinlogFile, st.BinlogPos, pos.File, pos.Position)
	}
	if !slices.Contains(st.Schemas, "shop") || st.Connections < 1 {
		t.Errorf("/status schemas = %v, connections = %d", st.Schemas, st.Connections)
	}

	metrics, _ := httpGet(t, "http://"+n.HTTPAddr()+"/metrics")
	want := fmt.Sprintf("binlite_binlog_transactions_total %d", executed.Count())
	if !strings.Contains(metrics, want+"\n") {
		t.Errorf("/metrics lacks %q:\n%s", want, metrics)
	}
}

func TestLockWaitTimeoutReturns1205AndRetrySucceedsAfterCommit(t *testing.T) {
	n, setup := shopNode(t, tn.Opt("innodb_lock_wait_timeout", "1"))
	tn.Exec(t, setup, "INSERT INTO items VALUES (1, 'apple', 3), (2, 'pear', 5)")
	a := tn.Conn(t, n.DB("shop"))
	b := tn.Conn(t, n.DB("shop"))
	if got := tn.Int(t, b, "SELECT @@innodb_lock_wait_timeout"); got != 1 {
		t.Fatalf("@@innodb_lock_wait_timeout = %d, want 1 from the option", got)
	}

	tn.Exec(t, a, "BEGIN")
	tn.Exec(t, a, "UPDATE items SET qty = qty + 1 WHERE id = 1")
	// Readers never wait for the writer, and see the committed state.
	if got := tn.Int(t, b, "SELECT qty FROM items WHERE id = 1"); got != 3 {
		t.Errorf("a reader during A's transaction sees qty %d, want 3", got)
	}
	start := time.Now()
	tn.ExecError(t, b, 1205, "HY000", "UPDATE items SET qty = qty + 10 WHERE id = 1")
	if waited := time.Since(start); waited < 900*time.Millisecond || waited > 10*time.Second {
		t.Errorf("1205 after %v, want about innodb_lock_wait_timeout = 1s", waited)
	}
	// Inside an explicit transaction the wait times out the same way, and the
	// transaction can still end.
	// Rows A did not touch are not locked: B's transaction writes them at once.
	tn.Exec(t, b, "BEGIN")
	tn.Exec(t, b, "INSERT INTO items VALUES (3, 'plum', 7)")
	tn.ExecError(t, b, 1205, "HY000", "DELETE FROM items WHERE id = 1")
	// The statement failed; the transaction goes on (innodb_rollback_on_timeout=OFF).
	tn.Exec(t, b, "UPDATE items SET qty = 8 WHERE id = 3")
	tn.Exec(t, b, "ROLLBACK")

	tn.Exec(t, a, "COMMIT")
	if got := tn.Affected(t, b, "UPDATE items SET qty = qty + 10 WHERE id = 1"); got != 1 {
		t.Errorf("retry after COMMIT: RowsAffected = %d, want 1", got)
	}
	if got := tn.Rows(t, setup, "SELECT id, qty FROM items ORDER BY id"); !equalRows(got, [][]string{{"1", "14"}, {"2", "5"}}) {
		t.Errorf("rows = %v, want [[1 14] [2 5]]", got)
	}
}

func TestPacketOverMaxAllowedPacketIsRefusedWith1153(t *testing.T) {
	n, s := shopNode(t, tn.Opt("max_allowed_packet", "65536"))
	if got := tn.Int(t, s, "SELECT @@max_allowed_packet"); got != 65536 {
		t.Fatalf("@@max_allowed_packet = %d, want 65536 from the option", got)
	}
	// Under the limit is fine.
	tn.Exec(t, s, "INSERT INTO items VALUES (1, ?, 1)", strings.Repeat("a", 20))
	tn.Exec(t, s, "CREATE TABLE blobs (id INT PRIMARY KEY, b BLOB)")
	tn.Exec(t, s, fmt.Sprintf("INSERT INTO blobs VALUES (1, '%s')", strings.Repeat("x", 60000)))

	big := tn.Conn(t, n.DB("shop"))
	_, err := tn.TryExec(big, fmt.Sprintf("INSERT INTO blobs VALUES (2, '%s')", strings.Repeat("y", 100000)))
	tn.WantError(t, err, 1153, "08S01")

	// The server keeps serving: new connections work and nothing of the big
	// statement was stored.
	fresh := tn.Conn(t, n.DB("shop"))
	if got := tn.Rows(t, fresh, "SELECT id, LENGTH(b) FROM blobs ORDER BY id"); !equalRows(got, [][]string{{"1", "60000"}}) {
		t.Errorf("blobs = %v, want [[1 60000]]", got)
	}
	tn.Exec(t, fresh, "INSERT INTO blobs VALUES (3, 'small')")
	if got := tn.Int(t, fresh, "SELECT COUNT(*) FROM blobs"); got != 2 {
		t.Errorf("COUNT(*) = %d, want 2", got)
	}
}

func TestSuperReadOnlyBlocksWritesUntilTurnedOff(t *testing.T) {
	_, s := shopNode(t)
	tn.Exec(t, s, "INSERT INTO items VALUES (1, 'apple', 3)")
	before := tn.GTIDExecuted(t, s)

	// read_only alone does not stop a SUPER user such as root.
	tn.Exec(t, s, "SET GLOBAL read_only = ON")
	tn.Exec(t, s, "INSERT INTO items VALUES (2, 'pear', 5)")
	tn.Exec(t, s, "SET GLOBAL read_only = OFF")
	before.AddRange(serverUUID(t, s), before.Last(serverUUID(t, s))+1, before.Last(serverUUID(t, s))+1)

	tn.Exec(t, s, "SET GLOBAL super_read_only = ON")
	if got := tn.Int(t, s, "SELECT @@super_read_only"); got != 1 {
		t.Errorf("@@super_read_only = %d, want 1", got)
	}
	for _, stmt := range []string{
		"INSERT INTO items VALUES (3, 'plum', 7)",
		"UPDATE items SET qty = 0",
		"DELETE FROM items",
		"CREATE TABLE more (a INT)",
		"CREATE DATABASE other",
	} {
		tn.ExecError(t, s, 1290, "HY000", stmt)
	}
	if got := tn.Rows(t, s, "SELECT id, qty FROM items ORDER BY id"); !equalRows(got, [][]string{{"1", "3"}, {"2", "5"}}) {
		t.Errorf("reads under super_read_only = %v", got)
	}
	if got := tn.GTIDExecuted(t, s); !got.Equal(before) {
		t.Errorf("refused writes changed gtid_executed %s -> %s", before, got)
	}
	tn.Exec(t, s, "SET GLOBAL super_read_only = OFF")
	if got := tn.Affected(t, s, "INSERT INTO items VALUES (3, 'plum', 7)"); got != 1 {
		t.Errorf("INSERT after super_read_only = OFF: RowsAffected = %d", got)
	}
	if got := tn.Int(t, s, "SELECT COUNT(*) FROM items"); got != 3 {
		t.Errorf("COUNT(*) = %d, want 3", got)
	}
}
