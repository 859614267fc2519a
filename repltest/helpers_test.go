package repltest

// Test harness: in-process nodes, SQL helpers, replication set-up, condition
// waits with deadlines, and the "exact copy" assertion (checksum + GTID sets).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/checksum"
	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/server"
)

// stmtTimeout bounds every statement the helpers run, so a hung node fails the
// test with a message instead of hanging until go test's global timeout.
const stmtTimeout = 60 * time.Second

// catchUpTimeout bounds how long a replica may take to apply what its source has.
const catchUpTimeout = 90 * time.Second

// testLog sends a node's log lines to the test log until the test ends.
type testLog struct {
	mu      sync.Mutex
	t       testing.TB
	prefix  string
	stopped bool
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.t.Log(l.prefix + strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (l *testLog) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
}

// node is an in-process binlite server owned by a test.
type node struct {
	t    testing.TB
	name string
	dir  string
	id   uint32
	opts []config.Option
	log  *testLog
	srv  *server.Node
	db   *sql.DB // root pool
	// configure, when set, adjusts the node's configuration at each start.
	configure func(*server.Config)
}

// opt is a MySQL option-file setting.
func opt(name, value string) config.Option { return config.Option{Name: name, Value: value} }

// startNode runs a node with server id id on a fresh data directory; it is closed
// when the test ends.
func startNode(t testing.TB, name string, id uint32, opts ...config.Option) *node {
	t.Helper()
	return startNodeWith(t, name, id, nil, opts...)
}

// startNodeWith is startNode with configure adjusting the node's configuration.
func startNodeWith(t testing.TB, name string, id uint32, configure func(*server.Config), opts ...config.Option) *node {
	t.Helper()
	n := &node{t: t, name: name, dir: t.TempDir(), id: id, opts: opts, log: &testLog{t: t, prefix: name + ": "}, configure: configure}
	n.open()
	t.Cleanup(func() {
		n.close()
		n.log.stop()
	})
	return n
}

func (n *node) open() {
	n.t.Helper()
	cfg := server.Config{
		DataDir:  n.dir,
		Port:     0,
		HTTPPort: -1,
		ServerID: n.id,
		Options:  n.opts,
		Logger:   slog.New(slog.NewTextHandler(n.log, &slog.HandlerOptions{Level: slog.LevelInfo})),
		OnFatal:  func(err error) { n.t.Errorf("%s: fatal: %v", n.name, err) },
	}
	if n.configure != nil {
		n.configure(&cfg)
	}
	srv, err := server.Open(cfg)
	if err != nil {
		n.t.Fatalf("%s: server.Open(%s): %v", n.name, n.dir, err)
	}
	srv.Start()
	n.srv = srv
	n.db = openDB(n.t, srv.Addr(), "root", "")
}

// close stops the node (idempotent).
func (n *node) close() {
	if n.srv == nil {
		return
	}
	n.db.Close()
	if err := n.srv.Close(); err != nil {
		n.t.Errorf("%s: close: %v", n.name, err)
	}
	n.srv = nil
}

// restart closes the node and opens its data directory again (a clean restart);
// the node listens on a new port.
func (n *node) restart() {
	n.t.Helper()
	n.close()
	n.open()
}

func (n *node) port() int { return n.srv.Port() }

// openDB opens a pool to addr as user and checks that it connects.
func openDB(t testing.TB, addr, user, password string) *sql.DB {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = user, password, "tcp", addr
	cfg.AllowNativePasswords = true
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatalf("sql.Open %s: %v", addr, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stmtTimeout)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		t.Fatalf("connecting to %s as %s: %v", addr, user, err)
	}
	return db
}

// querier is what *sql.DB and *sql.Conn have in common.
type querier = testnode.Querier

// The helpers below are internal/testnode's with this suite's longer statement
// timeout (stmtTimeout).
func tryExec(q querier, query string, args ...any) error {
	_, err := testnode.ExecWithin(q, stmtTimeout, query, args...)
	return err
}

// exec runs statements that must succeed.
func exec(t testing.TB, q querier, queries ...string) {
	t.Helper()
	for _, query := range queries {
		if err := tryExec(q, query); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
}

// tryResult runs a query and returns column names and rows as text ("NULL" for NULL).
func tryResult(q querier, query string, args ...any) ([]string, [][]string, error) {
	return testnode.ResultWithin(q, stmtTimeout, query, args...)
}

func result(t testing.TB, q querier, query string, args ...any) ([]string, [][]string) {
	t.Helper()
	cols, rows, err := tryResult(q, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return cols, rows
}

func rows(t testing.TB, q querier, query string, args ...any) [][]string {
	t.Helper()
	_, r := result(t, q, query, args...)
	return r
}

// str runs a query returning exactly one row and returns its first value.
func str(t testing.TB, q querier, query string, args ...any) string {
	t.Helper()
	r := rows(t, q, query, args...)
	if len(r) != 1 || len(r[0]) == 0 {
		t.Fatalf("%s: want one row, got %v", query, r)
	}
	return r[0][0]
}

func integer(t testing.TB, q querier, query string, args ...any) int64 {
	t.Helper()
	s := str(t, q, query, args...)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s: want an integer, got %q", query, s)
	}
	return v
}

// errCode is the MySQL error number of err (0 if it is not a MySQL error).
func errCode(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// wantErr asserts that a statement fails with the MySQL error code.
func wantErr(t testing.TB, q querier, code uint16, query string) {
	t.Helper()
	err := tryExec(q, query)
	if err == nil {
		t.Fatalf("%s: want error %d, got success", query, code)
	}
	if got := errCode(err); got != code {
		t.Fatalf("%s: want error %d, got %v", query, code, err)
	}
}

func gtidSet(t testing.TB, s string) gtid.Set {
	t.Helper()
	return testnode.ParseGTIDSet(t, s)
}

func gtidExecuted(t testing.TB, q querier) gtid.Set {
	t.Helper()
	return gtidSet(t, str(t, q, "SELECT @@gtid_executed"))
}

func serverUUID(t testing.TB, q querier) string {
	t.Helper()
	return str(t, q, "SELECT @@server_uuid")
}

// eventually polls cond until it returns true or within passes; the description
// cond returns is reported on timeout.
func eventually(t testing.TB, within time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	testnode.WaitFor(t, within, what, cond)
}

// ---- replication ---------------------------------------------------------------

// createReplUser makes the replication account on a source.
func createReplUser(t testing.TB, src querier) {
	t.Helper()
	exec(t, src, "CREATE USER repl@'%' IDENTIFIED BY 'pw'", "GRANT REPLICATION SLAVE ON *.* TO repl@'%'")
}

// changeSourceSQL is CHANGE REPLICATION SOURCE TO the source at port.
func changeSourceSQL(port int) string {
	return fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', GET_SOURCE_PUBLIC_KEY=1, SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1", port)
}

// replicate points the replica at the source on port and starts replication.
func replicate(t testing.TB, replica querier, port int) {
	t.Helper()
	exec(t, replica, changeSourceSQL(port), "START REPLICA")
}

// status is one row of SHOW REPLICA STATUS (or SHOW SLAVE STATUS) by column name.
type status map[string]string

func (s status) String() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%q ", k, s[k])
	}
	return b.String()
}

// showStatus runs stmt (SHOW REPLICA STATUS by default) and returns its one row
// (nil when it returns no row).
func showStatus(t testing.TB, q querier, stmt ...string) status {
	t.Helper()
	query := "SHOW REPLICA STATUS"
	if len(stmt) > 0 {
		query = stmt[0]
	}
	cols, r := result(t, q, query)
	if len(r) == 0 {
		return nil
	}
	if len(r) > 1 {
		t.Fatalf("%s: %d rows, want one", query, len(r))
	}
	st := status{}
	for i, c := range cols {
		st[c] = r[0][i]
	}
	return st
}

// waitStatus waits until cond holds for the replica's SHOW REPLICA STATUS.
func waitStatus(t testing.TB, q querier, within time.Duration, what string, cond func(st status) bool) status {
	t.Helper()
	var st status
	eventually(t, within, what, func() (bool, string) {
		st = showStatus(t, q)
		return st != nil && cond(st), st.String()
	})
	return st
}

// waitRunning waits until both replication threads run and the IO thread is connected.
func waitRunning(t testing.TB, q querier) status {
	t.Helper()
	return waitStatus(t, q, 30*time.Second, "Replica_IO_Running=Yes and Replica_SQL_Running=Yes", func(st status) bool {
		return st["Replica_IO_Running"] == "Yes" && st["Replica_SQL_Running"] == "Yes"
	})
}

// waitCaughtUp waits, with WAIT_FOR_EXECUTED_GTID_SET, until the replica has
// executed everything the source has executed now.
func waitCaughtUp(t testing.TB, src, replica querier) {
	t.Helper()
	want := str(t, src, "SELECT @@gtid_executed")
	waitExecuted(t, replica, want)
}

// waitExecuted waits until q has executed the GTID set want; a replica that
// stops making progress fails with what SHOW REPLICA STATUS said.
func waitExecuted(t testing.TB, q querier, want string) {
	t.Helper()
	testnode.WaitExecuted(t, q, want, catchUpTimeout)
}

// assertSameData compares every table of every schema of src and dst.
func assertSameData(t testing.TB, src, dst *sql.DB) *checksum.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := checksum.Compare(ctx, src, dst, checksum.Options{})
	if err != nil {
		t.Fatalf("checksum.Compare: %v", err)
	}
	for i, d := range rep.Diffs {
		if i == 20 {
			t.Errorf("... and %d more differences", len(rep.Diffs)-20)
			break
		}
		t.Errorf("DIFF %s", d)
	}
	if len(rep.Diffs) > 0 {
		t.FailNow()
	}
	if rep.Tables == 0 {
		t.Fatalf("checksum compared no table")
	}
	return rep
}

// assertSameGTIDs asserts that both nodes have executed exactly the same GTIDs.
func assertSameGTIDs(t testing.TB, src, dst querier) gtid.Set {
	t.Helper()
	a, b := gtidExecuted(t, src), gtidExecuted(t, dst)
	if !a.Equal(b) {
		t.Fatalf("gtid_executed differs: source %s, replica %s (missing on replica: %q, extra on replica: %q)",
			a, b, a.Subtract(b).String(), b.Subtract(a).String())
	}
	return a
}

// assertInSync waits for the replica to catch up, then asserts an exact copy.
func assertInSync(t testing.TB, src, dst *sql.DB) *checksum.Report {
	t.Helper()
	waitCaughtUp(t, src, dst)
	rep := assertSameData(t, src, dst)
	assertSameGTIDs(t, src, dst)
	return rep
}

// binlogGTIDCounts reads every binary log file (binlog.NNNNNN) of a stopped node's
// data directory and counts the GTID events of each GTID. It also returns the
// Previous_gtids of the first file.
func binlogGTIDCounts(t testing.TB, dir string) (map[gtid.GTID]int, gtid.Set) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "binlog.[0-9]*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no binary log files in %s", dir)
	}
	sort.Strings(files)
	counts := map[gtid.GTID]int{}
	var prev gtid.Set
	for i, f := range files {
		err := binlog.ReadFile(f, func(h binlog.EventHeader, ev binlog.Event) error {
			switch e := ev.(type) {
			case *binlog.GTIDEvent:
				counts[e.GTID]++
			case *binlog.PreviousGTIDsEvent:
				if i == 0 {
					prev = e.Set.Clone()
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("reading %s: %v", f, err)
		}
	}
	return counts, prev
}

// assertBinlogOnce asserts that the binary log in dir holds each GTID of want
// exactly once and nothing else (beyond the first file's Previous_gtids).
func assertBinlogOnce(t testing.TB, dir string, want gtid.Set) {
	t.Helper()
	counts, prev := binlogGTIDCounts(t, dir)
	var logged gtid.Set
	dups := 0
	for g, c := range counts {
		logged.Add(g)
		if c != 1 {
			dups++
			if dups <= 20 {
				t.Errorf("GTID %s is in the binary log of %s %d times", g, dir, c)
			}
		}
	}
	if dups > 0 {
		t.Errorf("%d GTIDs are logged more than once", dups)
	}
	all := logged.Union(prev)
	if !all.Equal(want) {
		t.Errorf("binary log of %s holds %s (Previous_gtids %s), want %s (missing %q, extra %q)",
			dir, logged, prev, want, want.Subtract(all).String(), all.Subtract(want).String())
	}
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// conn is one dedicated connection (one MySQL session) from db, closed at the end
// of the test.
func conn(t testing.TB, db *sql.DB) *sql.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), stmtTimeout)
	defer cancel()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("db.Conn: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
