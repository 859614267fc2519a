package semisynctest

// Test harness: in-process nodes whose log is kept for assertions, toxiproxy links,
// replication set-up, the Rpl_semi_sync_* status, and waits with deadlines.

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/go-sql-driver/mysql"
	"github.com/rs/zerolog"

	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/server"
)

func TestMain(m *testing.M) {
	// The driver logs every connection a killed or cut node drops; the tests say
	// what matters.
	mysql.SetLogger(log.New(io.Discard, "", 0))
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// Aliases of the shared SQL helpers.
var (
	exec    = testnode.Exec
	tryExec = testnode.TryExec
	str     = testnode.String
	integer = testnode.Int
	rows    = testnode.Rows
	conn    = testnode.Conn
)

type querier = testnode.Querier

func opt(name, value string) config.Option { return config.Option{Name: name, Value: value} }

// logBuf keeps every line a node logs (for assertions on what it says) and also
// sends it to the test log until the test ends.
type logBuf struct {
	mu      sync.Mutex
	t       testing.TB
	prefix  string
	buf     bytes.Buffer
	stopped bool
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if !l.stopped {
		l.t.Log(l.prefix + strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (l *logBuf) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
}

// String is everything logged so far.
func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// linesWith returns the logged lines that contain s.
func (l *logBuf) linesWith(s string) []string {
	var out []string
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}

// node is an in-process binlite server owned by a test.
type node struct {
	t    testing.TB
	name string
	srv  *server.Node
	db   *sql.DB // root pool
	log  *logBuf
}

// startNode runs a node with server id id on a fresh data directory; it is closed
// when the test ends.
func startNode(t testing.TB, name string, id uint32, opts ...config.Option) *node {
	t.Helper()
	n := &node{t: t, name: name, log: &logBuf{t: t, prefix: name + ": "}}
	srv, err := server.Open(server.Config{
		DataDir:  t.TempDir(),
		Port:     0,
		HTTPPort: -1,
		ServerID: id,
		Options:  opts,
		Logger:   slog.New(slog.NewTextHandler(n.log, &slog.HandlerOptions{Level: slog.LevelInfo})),
		OnFatal:  func(err error) { t.Errorf("%s: fatal: %v", name, err) },
	})
	if err != nil {
		t.Fatalf("%s: server.Open: %v", name, err)
	}
	srv.Start()
	n.srv = srv
	n.db = openDB(t, srv.Addr())
	t.Cleanup(func() {
		n.db.Close()
		if err := n.srv.Close(); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
		n.log.stop()
	})
	return n
}

// openDB opens a root pool to addr and checks that it connects.
func openDB(t testing.TB, addr string) *sql.DB {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", addr
	cfg.Timeout = 5 * time.Second
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatalf("sql.Open %s: %v", addr, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testnode.StatementTimeout)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		t.Fatalf("connecting to %s: %v", addr, err)
	}
	return db
}

// ---- toxiproxy -------------------------------------------------------------------

// link is a toxiproxy proxy, in process, in front of a source.
type link struct {
	t     testing.TB
	proxy *toxiproxy.Proxy
	port  int
}

// newLink starts a proxy to upstream (host:port) on an ephemeral loopback port.
func newLink(t testing.TB, upstream string) *link {
	t.Helper()
	api := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(api, "binlite", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("toxiproxy: %v", err)
	}
	t.Cleanup(p.Stop)
	port, err := strconv.Atoi(p.Listen[strings.LastIndex(p.Listen, ":")+1:])
	if err != nil {
		t.Fatalf("proxy address %q: %v", p.Listen, err)
	}
	return &link{t: t, proxy: p, port: port}
}

// latency delays the stream ("downstream": source to replica, "upstream": replica
// to source) by ms milliseconds, on open connections and new ones.
func (l *link) latency(name, stream string, ms int) {
	l.t.Helper()
	js := fmt.Sprintf(`{"name":%q,"type":"latency","stream":%q,"toxicity":1,"attributes":{"latency":%d}}`, name, stream, ms)
	if _, err := l.proxy.Toxics.AddToxicJson(strings.NewReader(js)); err != nil {
		l.t.Fatalf("adding latency toxic %s: %v", name, err)
	}
}

// roundTrip adds rt of latency to the round trip, half in each direction.
func (l *link) roundTrip(rt time.Duration) {
	l.t.Helper()
	half := int(rt.Milliseconds() / 2)
	l.latency("rt_down", "downstream", half)
	l.latency("rt_up", "upstream", half)
}

func (l *link) remove(name string) {
	l.t.Helper()
	if err := l.proxy.Toxics.RemoveToxic(context.Background(), name); err != nil {
		l.t.Fatalf("removing toxic %s: %v", name, err)
	}
}

// cut closes both sides of every proxied connection and refuses new ones.
func (l *link) cut() { l.proxy.Stop() }

// heal listens again on the same port.
func (l *link) heal() {
	l.t.Helper()
	if err := l.proxy.Start(); err != nil {
		l.t.Fatalf("toxiproxy restart: %v", err)
	}
}

// ---- replication -----------------------------------------------------------------

// replicate points a replica at the source on port (root, auto-position, retry and
// heartbeat every second) and starts replication.
func replicate(t testing.TB, replica querier, port int) {
	t.Helper()
	exec(t, replica, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1", port))
	exec(t, replica, "START REPLICA")
}

// replicaStatus is SHOW REPLICA STATUS's one row by column name (nil: no row).
func replicaStatus(t testing.TB, q querier) map[string]string {
	t.Helper()
	cols, r := testnode.Result(t, q, "SHOW REPLICA STATUS")
	if len(r) == 0 {
		return nil
	}
	st := map[string]string{}
	for i, c := range cols {
		st[c] = r[0][i]
	}
	return st
}

// waitReplicaConnected waits until the replica's IO thread is connected as a
// semi-sync replica and its SQL thread runs.
func waitReplicaConnected(t testing.TB, rep querier) {
	t.Helper()
	waitFor(t, 30*time.Second, "replica IO and SQL running with Rpl_semi_sync_replica_status=ON", func() (bool, string) {
		st := replicaStatus(t, rep)
		semi := semiStatus(t, rep)["Rpl_semi_sync_replica_status"]
		return st["Replica_IO_Running"] == "Yes" && st["Replica_SQL_Running"] == "Yes" && semi == "ON",
			fmt.Sprintf("IO %s, SQL %s, Rpl_semi_sync_replica_status %s, Last_IO_Error %q", st["Replica_IO_Running"], st["Replica_SQL_Running"], semi, st["Last_IO_Error"])
	})
}

// waitCaughtUp waits until the replica has executed everything the source has now.
func waitCaughtUp(t testing.TB, src, rep querier) {
	t.Helper()
	want := str(t, src, "SELECT @@gtid_executed")
	testnode.WaitExecuted(t, rep, want, 60*time.Second)
}

// ---- semi-sync status ------------------------------------------------------------

// semiStatus is SHOW STATUS LIKE 'Rpl_semi_sync%' as a map.
func semiStatus(t testing.TB, q querier) map[string]string {
	t.Helper()
	return testnode.NameValue(t, q, "SHOW STATUS LIKE 'Rpl_semi_sync%'")
}

// counters are the source's semi-sync counters at one instant.
type counters struct {
	On                           bool
	Clients, Yes, No, NoTimes    int64
	AvgWait, WaitTime, Waits, WS int64
}

func (c counters) String() string {
	on := "OFF"
	if c.On {
		on = "ON"
	}
	return fmt.Sprintf("status=%s clients=%d yes_tx=%d no_tx=%d no_times=%d avg_wait=%dus waits=%d wait_sessions=%d", on, c.Clients, c.Yes, c.No, c.NoTimes, c.AvgWait, c.Waits, c.WS)
}

func sourceCounters(t testing.TB, q querier) counters {
	t.Helper()
	m := semiStatus(t, q)
	num := func(name string) int64 {
		v, ok := m["Rpl_semi_sync_source_"+name]
		if !ok {
			t.Fatalf("SHOW STATUS has no Rpl_semi_sync_source_%s (has %v)", name, keys(m))
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("Rpl_semi_sync_source_%s = %q, not a number", name, v)
		}
		return n
	}
	st := m["Rpl_semi_sync_source_status"]
	if st != "ON" && st != "OFF" {
		t.Fatalf("Rpl_semi_sync_source_status = %q, want ON or OFF", st)
	}
	return counters{
		On: st == "ON", Clients: num("clients"), Yes: num("yes_tx"), No: num("no_tx"), NoTimes: num("no_times"),
		AvgWait: num("tx_avg_wait_time"), WaitTime: num("tx_wait_time"), Waits: num("tx_waits"), WS: num("wait_sessions"),
	}
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// waitCounters waits until cond holds for the source's counters.
func waitCounters(t testing.TB, src querier, within time.Duration, what string, cond func(c counters) bool) counters {
	t.Helper()
	var c counters
	waitFor(t, within, what, func() (bool, string) {
		c = sourceCounters(t, src)
		return cond(c), c.String()
	})
	return c
}

// waitFor polls cond until it holds or within passes; cond's description of what it
// saw is reported on timeout.
func waitFor(t testing.TB, within time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	testnode.WaitFor(t, within, what, cond)
}

// ---- timing ----------------------------------------------------------------------

// timedExec runs a statement that must succeed and returns how long it took.
func timedExec(t testing.TB, q querier, query string, args ...any) time.Duration {
	t.Helper()
	start := time.Now()
	exec(t, q, query, args...)
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// semiPair is a semi-sync source and one semi-sync replica connected through a
// toxiproxy link, with a schema ss and table ss.t (id INT PRIMARY KEY, v INT)
// replicated.
type semiPair struct {
	src, rep *node
	link     *link
}

func startPair(t testing.TB, srcOpts ...config.Option) *semiPair {
	t.Helper()
	src := startNode(t, "source", 1, append([]config.Option{opt("rpl_semi_sync_source_enabled", "ON")}, srcOpts...)...)
	rep := startNode(t, "replica", 2, opt("rpl_semi_sync_replica_enabled", "ON"))
	l := newLink(t, src.srv.Addr())
	replicate(t, rep.db, l.port)
	waitReplicaConnected(t, rep.db)
	waitCounters(t, src.db, 30*time.Second, "Rpl_semi_sync_source_clients=1", func(c counters) bool { return c.Clients == 1 })
	exec(t, src.db, "CREATE DATABASE ss")
	exec(t, src.db, "CREATE TABLE ss.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL DEFAULT 0)")
	waitCaughtUp(t, src.db, rep.db)
	return &semiPair{src: src, rep: rep, link: l}
}
