package server_test

// Connection limits and timeouts against a node on loopback, with real sockets:
// max_connections (and the connection kept for an administrator),
// max_user_connections, connect_timeout, wait_timeout, net_read_timeout, and a
// CREATE DATABASE that meets a process out of descriptors. Timeouts are set small;
// every assertion about when the server acted has a wide margin.

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	tn "github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/mysqlproto"
)

// userConn opens one connection as user (password pw) and returns it, or the
// error of connecting.
func userConn(t *testing.T, n *tn.Node, user, pw string) (*sql.Conn, error) {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = user, pw, "tcp", n.Addr()
	cfg.Timeout = 10 * time.Second
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxIdleConns(0)
	ctx, cancel := context.WithTimeout(context.Background(), tn.StatementTimeout)
	defer cancel()
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.PingContext(ctx); err != nil {
		c.Close()
		return nil, err
	}
	t.Cleanup(func() { c.Close() })
	return c, nil
}

func mustUserConn(t *testing.T, n *tn.Node, user, pw string) *sql.Conn {
	t.Helper()
	c, err := userConn(t, n, user, pw)
	if err != nil {
		t.Fatalf("connecting as %s: %v", user, err)
	}
	return c
}

func statusInt(t *testing.T, q tn.Querier, name string) int64 {
	t.Helper()
	v := tn.NameValue(t, q, "SHOW GLOBAL STATUS LIKE '"+name+"'")[name]
	i, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("SHOW GLOBAL STATUS %s = %q", name, v)
	}
	return i
}

func TestMaxConnectionsAndAdminExtra(t *testing.T) {
	n := tn.Start(t, tn.Opt("max_connections", "3"))
	root := tn.Conn(t, n.DB(""))
	if got := tn.Int(t, root, "SELECT @@global.max_connections"); got != 3 {
		t.Fatalf("max_connections from the option file = %d", got)
	}
	tn.Exec(t, root, "CREATE USER app@'%' IDENTIFIED BY 'pw'")
	tn.Exec(t, root, "CREATE USER adm@'%' IDENTIFIED BY 'pw'")
	tn.Exec(t, root, "GRANT SUPER, PROCESS ON *.* TO adm@'%'")
	mustUserConn(t, n, "app", "pw")
	mustUserConn(t, n, "app", "pw")

	// max_connections is reached: an ordinary account is refused at login...
	_, err := userConn(t, n, "app", "pw")
	tn.WantError(t, err, 1040, "08004")
	tn.Eventually(t, 20*time.Second, "the refused login to end", func() bool {
		return statusInt(t, root, "Threads_connected") == 3
	})
	// ...an administrator takes the connection kept for it...
	adm := mustUserConn(t, n, "adm", "pw")
	if got := len(tn.Rows(t, adm, "SHOW PROCESSLIST")); got != 4 {
		t.Errorf("sessions seen by the administrator = %d, want 4", got)
	}
	// ...and beyond that even root gets 1040, in place of the greeting.
	_, err = userConn(t, n, "root", "")
	tn.WantError(t, err, 1040, "08004")

	if got := statusInt(t, root, "Connection_errors_max_connections"); got < 1 {
		t.Errorf("Connection_errors_max_connections = %d", got)
	}
	if got := statusInt(t, root, "Max_used_connections"); got != 4 {
		t.Errorf("Max_used_connections = %d, want 4", got)
	}
	if got := statusInt(t, root, "Aborted_connects"); got < 1 {
		t.Errorf("Aborted_connects = %d", got)
	}
	// SET GLOBAL takes effect for the next connection.
	tn.Exec(t, root, "SET GLOBAL max_connections = 10")
	mustUserConn(t, n, "app", "pw")
}

func TestMaxUserConnections(t *testing.T) {
	n := tn.Start(t)
	root := tn.Conn(t, n.DB(""))
	tn.Exec(t, root, "CREATE USER app@'%' IDENTIFIED BY 'pw'")
	tn.Exec(t, root, "SET GLOBAL max_user_connections = 2")
	mustUserConn(t, n, "app", "pw")
	mustUserConn(t, n, "app", "pw")
	_, err := userConn(t, n, "app", "pw")
	me := tn.WantError(t, err, 1203, "42000")
	if me.Message != "User app already has more than 'max_user_connections' active connections" {
		t.Errorf("1203 message %q", me.Message)
	}
	// Each account has its own count.
	tn.Conn(t, n.DB(""))
	tn.Exec(t, root, "SET GLOBAL max_user_connections = 0")
	mustUserConn(t, n, "app", "pw")
}

// closedWithin reads nc until the server closes it and returns how long that took
// and what arrived; it fails the test after limit.
func closedWithin(t *testing.T, nc net.Conn, limit time.Duration) (time.Duration, []byte) {
	t.Helper()
	start := time.Now()
	nc.SetReadDeadline(start.Add(limit))
	b, err := io.ReadAll(nc)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("connection still open after %v", limit)
	}
	return time.Since(start), b
}

func TestConnectTimeout(t *testing.T) {
	n := tn.Start(t, tn.Opt("connect_timeout", "2"))
	root := tn.Conn(t, n.DB(""))
	before := statusInt(t, root, "Aborted_connects")
	silent, err := net.Dial("tcp", n.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	// Half a handshake: the greeting's read, then part of a response header.
	half, err := net.Dial("tcp", n.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := half.Write([]byte{0x50, 0}); err != nil {
		t.Fatal(err)
	}
	el, _ := closedWithin(t, silent, 30*time.Second)
	if el < time.Second {
		t.Errorf("silent connection closed after %v, before connect_timeout (2 s)", el)
	}
	closedWithin(t, half, 30*time.Second)
	tn.Eventually(t, 20*time.Second, "Aborted_connects to count both", func() bool {
		return statusInt(t, root, "Aborted_connects") == before+2
	})
}

func TestWaitTimeoutClosesIdleSession(t *testing.T) {
	n := tn.Start(t)
	root := tn.Conn(t, n.DB(""))
	idle := tn.Conn(t, n.DB(""))
	tn.Exec(t, idle, "SET SESSION wait_timeout = 1")
	id := tn.Int(t, idle, "SELECT CONNECTION_ID()")
	tn.Eventually(t, 30*time.Second, "the idle session to be closed", func() bool {
		for _, r := range tn.Rows(t, root, "SHOW PROCESSLIST") {
			if r[0] == strconv.FormatInt(id, 10) {
				return false
			}
		}
		return true
	})
	// The client finds its connection gone: MySQL 8.0.24 and later tell it why
	// (ER_CLIENT_INTERACTION_TIMEOUT) before closing.
	_, err := tn.TryExec(idle, "SELECT 1")
	var me *mysql.MySQLError
	switch {
	case err == nil:
		t.Fatal("the timed-out session still answers")
	case errors.As(err, &me) && me.Number != 4031:
		t.Fatalf("after wait_timeout: %v, want 4031 or a closed connection", err)
	}
	t.Logf("after wait_timeout the client sees: %v", err)
	// The session variable started from the global one, which others keep.
	if got := tn.Int(t, root, "SELECT @@session.wait_timeout"); got != 28800 {
		t.Errorf("root's wait_timeout = %d", got)
	}
	tn.Exec(t, root, "SET GLOBAL wait_timeout = 7")
	if got := tn.Int(t, root, "SELECT @@session.wait_timeout"); got != 28800 {
		t.Errorf("SET GLOBAL changed an existing session's wait_timeout to %d", got)
	}
	if got := tn.Int(t, tn.Conn(t, n.DB("")), "SELECT @@session.wait_timeout"); got != 7 {
		t.Errorf("a new session's wait_timeout = %d, want the global 7", got)
	}
}

func TestNetReadTimeoutDropsStalledPacket(t *testing.T) {
	n := tn.Start(t, tn.Opt("net_read_timeout", "1"))
	ctx, cancel := context.WithTimeout(context.Background(), tn.StatementTimeout)
	defer cancel()
	c, err := mysqlproto.Dial(ctx, n.Addr(), "root", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A header announcing 16 MiB-1 bytes of COM_QUERY, then nothing.
	if _, err := c.NetConn().Write([]byte{0xff, 0xff, 0xff, 0, 0x03}); err != nil {
		t.Fatal(err)
	}
	el, _ := closedWithin(t, c.NetConn(), 30*time.Second)
	if el < 500*time.Millisecond {
		t.Errorf("closed after %v, before net_read_timeout (1 s)", el)
	}
}

// fillDescriptors opens /dev/null until the process has no descriptor left but
// spare, under a soft limit lowered to at most 4096 so that it is quick; undo
// closes them and restores the limit.
func fillDescriptors(t *testing.T, spare int) (undo func()) {
	t.Helper()
	var orig syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
		t.Fatal(err)
	}
	lowered := orig
	lowered.Cur = min(orig.Cur, 4096)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lowered); err != nil {
		t.Fatal(err)
	}
	var files []*os.File
	undo = func() {
		for _, f := range files {
			f.Close()
		}
		files = nil
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
			t.Errorf("restoring RLIMIT_NOFILE: %v", err)
		}
	}
	for {
		f, err := os.Open(os.DevNull)
		if err != nil {
			if !errors.Is(err, syscall.EMFILE) {
				undo()
				t.Fatalf("filling descriptors: %v", err)
			}
			break
		}
		files = append(files, f)
	}
	for range spare {
		files[len(files)-1].Close()
		files = files[:len(files)-1]
	}
	return undo
}

func TestCreateDatabaseOutOfDescriptors(t *testing.T) {
	n := tn.Start(t)
	root := tn.Conn(t, n.DB(""))
	tn.Exec(t, root, "CREATE DATABASE before_fill")
	// No descriptor left, then one (enough for the file, not for its WAL): each
	// CREATE DATABASE fails as a statement, leaves no schema and no file, and the
	// session and the node go on.
	for _, spare := range []int{0, 1} {
		name := fmt.Sprintf("nofd%d", spare)
		undo := fillDescriptors(t, spare)
		_, err := tn.TryExec(root, "CREATE DATABASE "+name)
		undo()
		me := tn.WantError(t, err, 1006, "HY000")
		t.Logf("with %d spare descriptors: %s", spare, me.Message)
		if got := tn.Rows(t, root, "SHOW DATABASES LIKE '"+name+"'"); len(got) != 0 {
			t.Fatalf("%s listed after the failed CREATE: %v", name, got)
		}
		if _, err := os.Stat(filepath.Join(n.Dir, name+".sqlite")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s's file after the failed CREATE: %v", name, err)
		}
	}
	if got := tn.Int(t, root, "SELECT 1"); got != 1 {
		t.Fatal("session broken")
	}
	// The client was told the CREATE failed: after a restart the schema is still
	// absent, and it can be created now that descriptors are back.
	n.Restart()
	root = tn.Conn(t, n.DB(""))
	if got := tn.Rows(t, root, "SHOW DATABASES LIKE 'nofd%'"); len(got) != 0 {
		t.Fatalf("after restart: %v", got)
	}
	tn.Exec(t, root, "CREATE DATABASE nofd0")
	tn.Exec(t, root, "CREATE TABLE nofd0.t (id INT PRIMARY KEY)")
	tn.Exec(t, root, "INSERT INTO nofd0.t VALUES (1)")
	if got := tn.Int(t, root, "SELECT COUNT(*) FROM nofd0.t"); got != 1 {
		t.Fatalf("rows = %d", got)
	}
}

func TestLimitVariables(t *testing.T) {
	n := tn.Start(t)
	root := tn.Conn(t, n.DB(""))
	want := map[string]string{
		"max_connections":      "151",
		"max_user_connections": "0",
		"connect_timeout":      "10",
		"wait_timeout":         "28800",
		"interactive_timeout":  "28800",
		"net_read_timeout":     "30",
		"net_write_timeout":    "60",
	}
	for name, v := range want {
		if got := tn.String(t, root, "SELECT @@global."+name); got != v {
			t.Errorf("@@global.%s = %s, want MySQL 8.4's default %s", name, got, v)
		}
	}
	if got := tn.Int(t, root, "SELECT @@open_files_limit"); got < 256 {
		t.Errorf("@@open_files_limit = %d", got)
	}
	tn.ExecError(t, root, 1238, "HY000", "SET GLOBAL open_files_limit = 10")
	// connect_timeout's minimum is 2, as in MySQL.
	tn.Exec(t, root, "SET GLOBAL connect_timeout = 1")
	if got := tn.Int(t, root, "SELECT @@global.connect_timeout"); got != 2 {
		t.Errorf("connect_timeout after SET 1 = %d, want 2", got)
	}
	for _, name := range []string{"Threads_connected", "Max_used_connections", "Aborted_connects", "Aborted_clients",
		"Connection_errors_max_connections", "Connection_errors_internal", "Connection_errors_accept", "Connections"} {
		statusInt(t, root, name)
	}
}

// A client that connects with CLIENT_INTERACTIVE (the mariadb CLI at a terminal)
// has its session's wait_timeout start from the global interactive_timeout, as in
// MySQL; other clients take the global wait_timeout.
func TestInteractiveClientTakesInteractiveTimeout(t *testing.T) {
	n := tn.Start(t, tn.Opt("interactive_timeout", "1234"), tn.Opt("wait_timeout", "567"))
	c := dialInteractive(t, n.Addr())
	c.write(0, append([]byte{0x03}, "SELECT @@session.wait_timeout"...))
	// Column count, column definition, EOF, then the row.
	for range 3 {
		c.read()
	}
	if row := c.read(); string(row[1:]) != "1234" {
		t.Errorf("interactive client: wait_timeout row %q, want 1234", row)
	}
	if got := tn.Int(t, tn.Conn(t, n.DB("")), "SELECT @@session.wait_timeout"); got != 567 {
		t.Errorf("go-sql-driver session: wait_timeout = %d, want 567", got)
	}
}

// handClient frames packets by hand, for what the drivers do not send.
type handClient struct {
	t  *testing.T
	nc net.Conn
}

func (c *handClient) write(seq byte, payload []byte) {
	c.t.Helper()
	n := len(payload)
	if _, err := c.nc.Write(append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *handClient) read() []byte {
	c.t.Helper()
	var hdr [4]byte
	if _, err := io.ReadFull(c.nc, hdr[:]); err != nil {
		c.t.Fatal(err)
	}
	p := make([]byte, int(hdr[0])|int(hdr[1])<<8|int(hdr[2])<<16)
	if _, err := io.ReadFull(c.nc, p); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// dialInteractive logs in as root (no password) with CLIENT_INTERACTIVE.
func dialInteractive(t *testing.T, addr string) *handClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(tn.StatementTimeout))
	c := &handClient{t: t, nc: nc}
	c.read() // the greeting: root has no password, so its scramble is not needed
	caps := mysqlproto.ClientProtocol41 | mysqlproto.ClientSecureConnection | mysqlproto.ClientPluginAuth |
		mysqlproto.ClientLongPassword | mysqlproto.ClientTransactions | mysqlproto.ClientInteractive
	b := binary.LittleEndian.AppendUint32(nil, caps)
	b = binary.LittleEndian.AppendUint32(b, 1<<24)
	b = append(b, 45) // utf8mb4_general_ci
	b = append(b, make([]byte, 23)...)
	b = append(b, "root\x00"...)
	b = append(b, 0) // empty auth response
	b = append(b, "mysql_native_password\x00"...)
	c.write(1, b)
	if p := c.read(); p[0] != 0 {
		t.Fatalf("login: %q", p)
	}
	return c
}

// A CREATE DATABASE interrupted after it made the schema's file leaves a marker
// beside it: at the next start the file goes, and the schema is made again only if
// the binary log holds its CREATE.
func TestInterruptedCreateDatabase(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, tn.Conn(t, n.DB("")), "CREATE DATABASE logged")
	n.Stop()
	src, err := os.ReadFile(filepath.Join(n.Dir, "logged.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	// "unlogged": a file whose CREATE never reached the binary log; "logged": one
	// whose CREATE did, interrupted before the marker went.
	for _, f := range []string{"unlogged.sqlite", "unlogged.sqlite-creating", "logged.sqlite-creating"} {
		data := src
		if filepath.Ext(f) != ".sqlite" {
			data = nil
		}
		if err := os.WriteFile(filepath.Join(n.Dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n.Restart()
	root := tn.Conn(t, n.DB(""))
	if got := tn.Rows(t, root, "SHOW DATABASES LIKE '%logged'"); len(got) != 1 || got[0][0] != "logged" {
		t.Fatalf("databases after restart: %v, want only logged", got)
	}
	for _, f := range []string{"unlogged.sqlite", "unlogged.sqlite-creating", "logged.sqlite-creating"} {
		if _, err := os.Stat(filepath.Join(n.Dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after restart: %v", f, err)
		}
	}
	tn.Exec(t, root, "CREATE TABLE logged.t (id INT PRIMARY KEY)")
}
