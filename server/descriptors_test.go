package server_test

// A node in a child process whose descriptor limit is lowered with prlimit, flooded
// with sockets that never log in: it refuses what its descriptors cannot hold,
// keeps serving an established session (CREATE DATABASE included) and never exits.
// The child is this test binary run again (TestMain), so no build is needed.

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/config"
	tn "github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/server"
)

// childNodeEnv, when set, makes the test binary run a node on that data directory
// instead of the tests; childOptsEnv holds its options as name=value;... pairs.
const (
	childNodeEnv = "BINLITE_TEST_CHILD_NODE"
	childOptsEnv = "BINLITE_TEST_CHILD_OPTS"
	// childFullEnv names a file: while it exists, the child's log writes find
	// the disk full (fullDisk).
	childFullEnv = "BINLITE_TEST_CHILD_FULL"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(childNodeEnv); dir != "" {
		os.Exit(runChildNode(dir, os.Getenv(childOptsEnv)))
	}
	os.Exit(m.Run())
}

// runChildNode serves a node until stdin closes or SIGTERM; it prints "PORT n"
// once it listens.
func runChildNode(dir, opts string) int {
	var options []config.Option
	for _, kv := range strings.Split(opts, ";") {
		if name, value, ok := strings.Cut(kv, "="); ok {
			options = append(options, config.Option{Name: name, Value: value})
		}
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg := server.Config{DataDir: dir, ServerID: 1, Options: options, Logger: logger}
	if flag := os.Getenv(childFullEnv); flag != "" {
		cfg.LogWrite = (&fullDisk{flag: flag}).write
	}
	n, err := server.Open(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child node:", err)
		return 2
	}
	n.Start()
	fmt.Printf("PORT %d\n", n.Port())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	eof := make(chan struct{})
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		close(eof)
	}()
	select {
	case <-stop:
	case <-eof:
	}
	if err := n.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "child node close:", err)
		return 1
	}
	return 0
}

// childNode is a node running in a child process.
type childNode struct {
	cmd    *exec.Cmd
	addr   string
	exited chan struct{}
	stdin  interface{ Close() error }
}

// startChildNode runs this test binary as a node under prlimit --nofile=soft:hard.
func startChildNode(t *testing.T, soft, hard int, opts ...string) *childNode {
	t.Helper()
	return startChildNodeIn(t, t.TempDir(), nil, soft, hard, opts...)
}

// startChildNodeIn is startChildNode on data directory dir, with env added to
// the child's environment.
func startChildNodeIn(t *testing.T, dir string, env []string, soft, hard int, opts ...string) *childNode {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is required: %v", err)
	}
	cmd := exec.Command(prlimit, fmt.Sprintf("--nofile=%d:%d", soft, hard), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childNodeEnv+"="+dir, childOptsEnv+"="+strings.Join(opts, ";"))
	cmd.Env = append(cmd.Env, env...)
	logPath := t.TempDir() + "/child.log"
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &childNode{cmd: cmd, exited: make(chan struct{}), stdin: stdin}
	go func() {
		cmd.Wait()
		logFile.Close()
		close(c.exited)
	}()
	t.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-c.exited
		}
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				t.Logf("child node's log:\n%s", b)
			}
		}
	})
	ports := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "PORT "); ok {
				ports <- p
			}
		}
	}()
	select {
	case p := <-ports:
		c.addr = net.JoinHostPort("127.0.0.1", p)
	case <-c.exited:
		b, _ := os.ReadFile(logPath)
		t.Fatalf("child node exited before listening:\n%s", b)
	case <-time.After(60 * time.Second):
		t.Fatal("child node did not start within 60 s")
	}
	return c
}

func (c *childNode) alive() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

func (c *childNode) db(t *testing.T) *sql.DB {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", c.addr
	cfg.Timeout = 10 * time.Second
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestDescriptorFloodKeepsServing(t *testing.T) {
	// 256 descriptors (the soft limit starts lower: the node raises it) and a
	// max_connections far above what they allow, so the descriptor reserve is what
	// holds.
	child := startChildNode(t, 128, 256, "max_connections=5000")
	db := child.db(t)
	root := tn.Conn(t, db)
	if got := tn.Int(t, root, "SELECT @@open_files_limit"); got != 256 {
		t.Fatalf("@@open_files_limit = %d, want the hard limit 256", got)
	}
	tn.Exec(t, root, "CREATE DATABASE before_flood")
	tn.Exec(t, root, "CREATE TABLE before_flood.t (id INT PRIMARY KEY)")

	// 600 sockets that never log in: more than the process has descriptors.
	var flood []net.Conn
	defer func() {
		for _, nc := range flood {
			nc.Close()
		}
	}()
	refused := 0
	for range 600 {
		nc, err := net.DialTimeout("tcp", child.addr, 10*time.Second)
		if err != nil {
			t.Fatalf("dial %d: %v", len(flood), err)
		}
		flood = append(flood, nc)
	}
	// Every socket beyond what the descriptors allow is answered 1040 and closed.
	buf := make([]byte, 64)
	for _, nc := range flood {
		nc.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if n, _ := nc.Read(buf); n > 7 && buf[4] == 0xff && buf[5] == 0x10 && buf[6] == 0x04 {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no connection of the flood was refused with 1040")
	}
	t.Logf("%d of %d unauthenticated sockets refused with 1040", refused, len(flood))

	// The established session goes on: DDL that opens files, writes, reads.
	tn.Exec(t, root, "CREATE DATABASE during_flood")
	tn.Exec(t, root, "CREATE TABLE during_flood.t (id INT PRIMARY KEY, v VARCHAR(10))")
	tn.Exec(t, root, "INSERT INTO during_flood.t VALUES (1, 'a'), (2, 'b')")
	tn.Exec(t, root, "INSERT INTO before_flood.t VALUES (1)")
	if got := tn.Int(t, root, "SELECT COUNT(*) FROM during_flood.t"); got != 2 {
		t.Fatalf("rows = %d", got)
	}
	if got := tn.Int(t, root, "SELECT COUNT(*) FROM before_flood.t"); got != 1 {
		t.Fatalf("rows = %d", got)
	}
	st := tn.NameValue(t, root, "SHOW GLOBAL STATUS LIKE 'Connection_errors_%'")
	t.Logf("during the flood: Connection_errors_internal=%s Connection_errors_accept=%s",
		st["Connection_errors_internal"], st["Connection_errors_accept"])
	if st["Connection_errors_internal"] == "0" {
		t.Errorf("Connection_errors_internal = 0 after refusals")
	}

	// Once the flood is gone, new clients connect again.
	for _, nc := range flood {
		nc.Close()
	}
	flood = nil
	tn.Eventually(t, 30*time.Second, "a new session after the flood", func() bool {
		fresh, err := sql.Open("mysql", "root@tcp("+child.addr+")/")
		if err != nil {
			return false
		}
		defer fresh.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return fresh.PingContext(ctx) == nil
	})
	if !child.alive() {
		t.Fatal("the node exited")
	}
}
