package testnode

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/server"
)

// StatementTimeout bounds every statement the helpers run, so a hung server fails
// the test with a message instead of hanging until go test's global timeout.
const StatementTimeout = 30 * time.Second

// Node is a running binlite node owned by a test.
type Node struct {
	*server.Node
	Dir  string // the data directory
	t    testing.TB
	opts []config.Option
	log  *testLog
	open bool
	// configure, when set, adjusts the node's configuration at each start.
	configure func(*server.Config)
}

// Option is a MySQL option-file setting given to the node.
type Option = config.Option

// Opt is a MySQL option-file setting, e.g. Opt("innodb_lock_wait_timeout", "1").
func Opt(name, value string) Option { return Option{Name: name, Value: value} }

// Start runs a node on a fresh temporary data directory (server_id 1, MySQL and
// HTTP on ephemeral loopback ports). It is closed when the test ends.
func Start(t testing.TB, opts ...config.Option) *Node {
	t.Helper()
	return StartDir(t, t.TempDir(), opts...)
}

// StartDir runs a node on dir, which may hold the data of an earlier node.
func StartDir(t testing.TB, dir string, opts ...config.Option) *Node {
	t.Helper()
	n := &Node{Dir: dir, t: t, opts: opts, log: &testLog{t: t}}
	n.open1()
	t.Cleanup(func() {
		n.Stop()
		n.log.stop()
	})
	return n
}

func (n *Node) open1() {
	n.t.Helper()
	cfg := server.Config{
		DataDir:  n.Dir,
		Port:     0,
		HTTPPort: -1,
		ServerID: 1,
		Options:  n.opts,
		Logger:   slog.New(slog.NewTextHandler(n.log, &slog.HandlerOptions{Level: slog.LevelInfo})),
		OnFatal:  func(err error) { n.t.Errorf("binlite node: fatal: %v", err) },
	}
	if n.configure != nil {
		n.configure(&cfg)
	}
	sn, err := server.Open(cfg)
	if err != nil {
		n.t.Fatalf("server.Open(%s): %v", n.Dir, err)
	}
	sn.Start()
	n.Node = sn
	n.open = true
}

// Stop closes the node (idempotent); clients see their connections closed.
func (n *Node) Stop() {
	n.t.Helper()
	if !n.open {
		return
	}
	n.open = false
	if err := n.Node.Close(); err != nil {
		n.t.Errorf("closing node: %v", err)
	}
}

// Restart closes the node and opens its data directory again, as a clean restart
// of the process does. The node listens on new ports: open new client handles.
func (n *Node) Restart() {
	n.t.Helper()
	n.Stop()
	n.open1()
}

// StartWith is Start with configure adjusting the node's configuration (fields
// the option file cannot set, such as server.Config.LogWrite) at each start.
func StartWith(t testing.TB, configure func(*server.Config), opts ...config.Option) *Node {
	t.Helper()
	n := &Node{Dir: t.TempDir(), t: t, opts: opts, log: &testLog{t: t}, configure: configure}
	n.open1()
	t.Cleanup(func() {
		n.Stop()
		n.log.stop()
	})
	return n
}

// DSN is a go-sql-driver/mysql data source name for root on this node; params are
// "name=value" strings added to the query (e.g. "interpolateParams=true").
func (n *Node) DSN(db string, params ...string) string {
	dsn := fmt.Sprintf("root@tcp(%s)/%s", n.Addr(), db)
	if len(params) > 0 {
		dsn += "?" + strings.Join(params, "&")
	}
	return dsn
}

// DB opens a connection pool to db (may be "") and checks that it connects.
// It is closed when the test ends.
func (n *Node) DB(db string, params ...string) *sql.DB {
	n.t.Helper()
	h, err := sql.Open("mysql", n.DSN(db, params...))
	if err != nil {
		n.t.Fatalf("sql.Open: %v", err)
	}
	n.t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), StatementTimeout)
	defer cancel()
	if err := h.PingContext(ctx); err != nil {
		n.t.Fatalf("connecting to %s: %v", n.DSN(db, params...), err)
	}
	return h
}

// Conn is one dedicated connection from db (one MySQL session), closed at the end
// of the test. Use it whenever session state matters (BEGIN, SET, USE).
func Conn(t testing.TB, db *sql.DB) *sql.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), StatementTimeout)
	defer cancel()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("db.Conn: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Querier is what *sql.DB, *sql.Conn and *sql.Tx have in common.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// TryExec runs a statement with the helpers' timeout and returns its error.
func TryExec(q Querier, query string, args ...any) (sql.Result, error) {
	return ExecWithin(q, StatementTimeout, query, args...)
}

// ExecWithin runs a statement with its own statement timeout.
func ExecWithin(q Querier, timeout time.Duration, query string, args ...any) (sql.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return q.ExecContext(ctx, query, args...)
}

// Exec runs a statement that must succeed.
func Exec(t testing.TB, q Querier, query string, args ...any) sql.Result {
	t.Helper()
	res, err := TryExec(q, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return res
}

// Affected runs a statement that must succeed and returns RowsAffected.
func Affected(t testing.TB, q Querier, query string, args ...any) int64 {
	t.Helper()
	n, err := Exec(t, q, query, args...).RowsAffected()
	if err != nil {
		t.Fatalf("%s: RowsAffected: %v", query, err)
	}
	return n
}

// Rows runs a query and returns every value as text ("NULL" for NULL).
func Rows(t testing.TB, q Querier, query string, args ...any) [][]string {
	t.Helper()
	out, err := TryRows(q, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// TryRows is Rows that returns the error.
func TryRows(q Querier, query string, args ...any) ([][]string, error) {
	_, rows, err := TryResult(q, query, args...)
	return rows, err
}

// Result runs a query and returns its column names and its rows as text.
func Result(t testing.TB, q Querier, query string, args ...any) (cols []string, rows [][]string) {
	t.Helper()
	cols, rows, err := TryResult(q, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return cols, rows
}

// TryResult is Result that returns the error.
func TryResult(q Querier, query string, args ...any) ([]string, [][]string, error) {
	return ResultWithin(q, StatementTimeout, query, args...)
}

// ResultWithin runs a query with its own statement timeout (kill tests allow a
// recovering server longer) and returns column names and rows as text ("NULL" for NULL).
func ResultWithin(q Querier, timeout time.Duration, query string, args ...any) ([]string, [][]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	out := [][]string{}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		out = append(out, row)
	}
	return cols, out, rows.Err()
}

// String runs a query that must return exactly one row and returns its first
// column as text ("NULL" for NULL).
func String(t testing.TB, q Querier, query string, args ...any) string {
	t.Helper()
	rows := Rows(t, q, query, args...)
	if len(rows) != 1 || len(rows[0]) == 0 {
		t.Fatalf("%s: want one row, got %d rows: %v", query, len(rows), rows)
	}
	return rows[0][0]
}

// Int runs a query whose one value is an integer.
func Int(t testing.TB, q Querier, query string, args ...any) int64 {
	t.Helper()
	s := String(t, q, query, args...)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s: want an integer, got %q", query, s)
	}
	return v
}

// NameValue runs a SHOW that returns (name, value) rows, as a map.
func NameValue(t testing.TB, q Querier, query string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, r := range Rows(t, q, query) {
		if len(r) < 2 {
			t.Fatalf("%s: row %v has fewer than two columns", query, r)
		}
		m[r[0]] = r[1]
	}
	return m
}

// GTIDExecuted reads @@gtid_executed and parses it.
func GTIDExecuted(t testing.TB, q Querier) gtid.Set {
	t.Helper()
	return ParseGTIDSet(t, String(t, q, "SELECT @@gtid_executed"))
}

// ParseGTIDSet parses MySQL's GTID set text ("" is the empty set).
func ParseGTIDSet(t testing.TB, s string) gtid.Set {
	t.Helper()
	set, err := gtid.Parse(s)
	if err != nil {
		t.Fatalf("GTID set %q: %v", s, err)
	}
	return set
}

// WantError asserts that err is a MySQL error with the code and SQLSTATE.
func WantError(t testing.TB, err error, code uint16, state string) *mysql.MySQLError {
	t.Helper()
	if err == nil {
		t.Fatalf("want MySQL error %d (%s), got success", code, state)
	}
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("want MySQL error %d (%s), got %T: %v", code, state, err, err)
	}
	if me.Number != code || string(me.SQLState[:]) != state {
		t.Fatalf("want MySQL error %d (%s), got %d (%s): %s", code, state, me.Number, me.SQLState[:], me.Message)
	}
	return me
}

// ExecError runs a statement that must fail with the MySQL error code and SQLSTATE.
func ExecError(t testing.TB, q Querier, code uint16, state, query string, args ...any) *mysql.MySQLError {
	t.Helper()
	_, err := TryExec(q, query, args...)
	if err == nil {
		t.Fatalf("%s: want error %d (%s), got success", query, code, state)
	}
	return WantError(t, fmt.Errorf("%s: %w", query, err), code, state)
}

// QueryError runs a query that must fail with the MySQL error code and SQLSTATE.
func QueryError(t testing.TB, q Querier, code uint16, state, query string, args ...any) *mysql.MySQLError {
	t.Helper()
	_, err := TryRows(q, query, args...)
	if err == nil {
		t.Fatalf("%s: want error %d (%s), got success", query, code, state)
	}
	return WantError(t, fmt.Errorf("%s: %w", query, err), code, state)
}

// Eventually polls cond until it holds or the deadline passes.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	WaitFor(t, within, what, func() (bool, string) { return cond(), "" })
}

// WaitFor polls cond every 10 ms until it holds or within passes; cond's description
// of what it saw last is reported on timeout.
func WaitFor(t testing.TB, within time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, last := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s; last: %s", within, what, last)
		}
		<-tick.C
	}
}

// testLog sends the node's log lines to the test log until the test ends.
type testLog struct {
	mu      sync.Mutex
	t       testing.TB
	stopped bool
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (l *testLog) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
}

// WaitExecuted waits with WAIT_FOR_EXECUTED_GTID_SET until q has executed want,
// failing after within. The statement's own deadline is longer than the wait, so a
// replica that stops making progress fails here with what it was doing (SHOW
// REPLICA STATUS, gtid_executed) rather than with a bare "context deadline exceeded".
func WaitExecuted(t testing.TB, q Querier, want string, within time.Duration) {
	t.Helper()
	query := fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s', %d)", want, int((within+time.Second-1)/time.Second))
	_, rows, err := ResultWithin(q, within+StatementTimeout, query)
	if err == nil && len(rows) == 1 && len(rows[0]) == 1 && rows[0][0] == "0" {
		return
	}
	got := fmt.Sprint(rows)
	if err != nil {
		got = err.Error()
	}
	executed := "?"
	if r, err := TryRows(q, "SELECT @@gtid_executed"); err == nil && len(r) == 1 {
		executed = r[0][0]
	}
	t.Fatalf("did not execute %s within %v (WAIT_FOR_EXECUTED_GTID_SET: %s); gtid_executed %s; SHOW REPLICA STATUS: %s",
		want, within, got, executed, ReplicaStatusText(q))
}

// ReplicaStatusText is SHOW REPLICA STATUS as "Name=value" pairs, one row per
// channel, for failure messages (the error text if the statement fails).
func ReplicaStatusText(q Querier) string {
	cols, rows, err := TryResult(q, "SHOW REPLICA STATUS")
	if err != nil {
		return "(" + err.Error() + ")"
	}
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteString(" | ")
		}
		for j, c := range cols {
			if r[j] != "" && r[j] != "NULL" {
				fmt.Fprintf(&b, "%s=%q ", c, r[j])
			}
		}
	}
	if len(rows) == 0 {
		return "(no channel)"
	}
	return b.String()
}

// FreePort is a loopback TCP port that was free a moment ago (for servers a test
// starts as processes: another process may still take it before they listen).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
