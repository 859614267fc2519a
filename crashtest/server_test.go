package crashtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/internal/testnode"
)

// readyTimeout bounds start-up, recovery included.
const readyTimeout = 60 * time.Second

// server is one binlite data directory and the process serving it, if any.
type server struct {
	t       testing.TB
	dir     string // the data directory
	logDir  string // one stderr file per start
	port    int
	cmd     *exec.Cmd
	exited  chan struct{} // closed when cmd has been waited for
	waitErr error
	logPath string // stderr of the current (or last) process
	starts  int
	config  string   // option file passed with --config, if any
	env     []string // extra environment of the next starts (a crash point)
	// signalled: this test sent the current process a signal, so its exit is ours.
	signalled bool
}

// newServer prepares a data directory that is kept (and named in the test log)
// when the test fails, so a failure can be inspected with `binlite binlog dump`.
// options are [mysqld] option-file lines such as "max_binlog_size = 65536".
func newServer(t testing.TB, options ...string) *server {
	t.Helper()
	root, err := os.MkdirTemp("", "binlite-crashtest-")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, dir: filepath.Join(root, "data"), logDir: filepath.Join(root, "logs")}
	if err := os.MkdirAll(s.logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if len(options) > 0 {
		s.config = filepath.Join(root, "my.cnf")
		text := "[mysqld]\n" + strings.Join(options, "\n") + "\n"
		if err := os.WriteFile(s.config, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if s.running() {
			s.kill()
		}
		s.checkRaces()
		if t.Failed() {
			t.Logf("data directory and server logs kept in %s", root)
			return
		}
		os.RemoveAll(root)
	})
	return s
}

func (s *server) running() bool {
	if s.cmd == nil {
		return false
	}
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// launch starts the process on a fresh port without waiting for it to be ready.
func (s *server) launch() error {
	port, err := testnode.FreePort()
	if err != nil {
		return err
	}
	s.starts++
	s.logPath = filepath.Join(s.logDir, fmt.Sprintf("serve-%03d.log", s.starts))
	logf, err := os.Create(s.logPath)
	if err != nil {
		return err
	}
	defer logf.Close() // the child holds its own descriptor
	args := []string{"serve", "--datadir", s.dir, "--port", fmt.Sprint(port), "--server-id", "1"}
	if s.config != "" {
		args = append(args, "--config", s.config)
	}
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start binlite: %w", err)
	}
	s.cmd, s.port, s.exited, s.waitErr, s.signalled = cmd, port, make(chan struct{}), nil, false
	go func(exited chan struct{}) {
		s.waitErr = cmd.Wait()
		close(exited)
	}(s.exited)
	return nil
}

// start launches the server and waits until it answers a MySQL ping. A port taken
// between freePort and the server's listen, and a signal from another process
// (see interference), are retried; any other early exit fails the test with the
// server's log.
func (s *server) start() {
	s.t.Helper()
	for attempt := 0; ; attempt++ {
		if err := s.launch(); err != nil {
			s.t.Fatal(err)
		}
		err := s.waitReady(readyTimeout)
		if err == nil {
			return
		}
		log := s.log()
		if attempt < 5 && strings.Contains(log, "address already in use") {
			continue
		}
		if why := s.interference(); why != "" && attempt < 5 {
			s.t.Logf("%s; starting it again", why)
			continue
		}
		if s.running() {
			s.kill()
		}
		s.t.Fatalf("binlite did not start on %s: %v\nserver log:\n%s", s.dir, err, tail(log, 4000))
	}
}

// waitReady polls until a connection succeeds, the process exits, or the deadline.
func (s *server) waitReady(timeout time.Duration) error {
	db, err := sql.Open("mysql", s.dsn())
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(timeout)
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %v: %w", timeout, err)
		}
		select {
		case <-s.exited:
			return fmt.Errorf("process exited before it was ready: %v", s.waitErr)
		case <-poll.C:
		}
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill() {
	s.t.Helper()
	s.signal(syscall.SIGKILL)
}

// stop shuts the server down cleanly (SIGTERM: the binary log gets a STOP event)
// and fails the test if it does not exit with status 0.
func (s *server) stop() {
	s.t.Helper()
	if err := s.terminate(); err != nil {
		s.t.Fatalf("clean shutdown: %v\nserver log:\n%s", err, tail(s.log(), 4000))
	}
}

// terminate sends SIGTERM and returns the process's exit error (nil if someone
// else had already stopped it).
func (s *server) terminate() error {
	s.t.Helper()
	s.signal(syscall.SIGTERM)
	if !s.signalled {
		return nil
	}
	return s.waitErr
}

func (s *server) signal(sig syscall.Signal) {
	s.t.Helper()
	s.send(sig)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		// Its goroutines' stacks (Go prints them on SIGQUIT) say where it hangs.
		s.send(syscall.SIGQUIT)
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
		}
		s.t.Fatalf("binlite did not exit within 30s of %v; its log, with the stacks SIGQUIT printed:\n%s", sig, tail(s.log(), 60000))
	}
}

// send delivers sig without waiting. A process that has already exited is left
// alone (its exit is reported by interference).
func (s *server) send(sig syscall.Signal) {
	s.t.Helper()
	if !s.running() {
		if why := s.interference(); why != "" {
			s.t.Logf("%s before the test's %v", why, sig)
		}
		return
	}
	s.signalled = true
	if err := s.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.t.Fatalf("signal %v: %v", sig, err)
	}
}

// interference explains an exit this test did not cause: the process died of a
// signal, or shut down cleanly (SIGTERM/SIGINT), without this test signalling it.
// On a shared machine another program's raw-PID kill can hit a reused PID. It
// returns "" if the process is running, was signalled by this test, or exited on
// its own (a crash of binlite itself, which is never excused).
func (s *server) interference() string {
	if s.cmd == nil || s.running() || s.signalled {
		return ""
	}
	var ee *exec.ExitError
	if errors.As(s.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("binlite (%s) was killed by a signal (%v) this test did not send", filepath.Base(s.logPath), ws.Signal())
		}
		return ""
	}
	if s.waitErr == nil && strings.Contains(s.log(), `msg="shutting down"`) {
		return fmt.Sprintf("binlite (%s) shut down on a SIGTERM or SIGINT this test did not send", filepath.Base(s.logPath))
	}
	return ""
}

// recoverFromInterference is called after a failed request: if the server was
// stopped by someone else, it restarts it and reports true. It waits briefly for
// the process to be reaped, since the failure can be seen before the exit.
func (s *server) recoverFromInterference() bool {
	s.t.Helper()
	if s.cmd != nil && !s.signalled {
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
		}
	}
	why := s.interference()
	if why == "" {
		return false
	}
	s.t.Logf("%s; restarting it", why)
	s.start()
	return true
}

// killDuringStartup starts the server and kills it after delay, typically while it
// is still recovering; it does not wait for readiness.
func (s *server) killDuringStartup(delay time.Duration) {
	s.t.Helper()
	if err := s.launch(); err != nil {
		s.t.Fatal(err)
	}
	time.Sleep(delay) // the random instant of the kill
	s.kill()
}

// checkRaces fails the test if a server process reported a data race: its
// binary is built with the race detector when the tests run under it
// (testnode.BuildBinary), and a race report goes to the server's log.
func (s *server) checkRaces() {
	logs, _ := filepath.Glob(filepath.Join(s.logDir, "*.log"))
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if i := strings.Index(string(b), "WARNING: DATA RACE"); i >= 0 {
			s.t.Errorf("%s reports a data race:\n%s", filepath.Base(p), tail(string(b[i:]), 6000))
		}
	}
}

// log returns the stderr of the current or last process.
func (s *server) log() string {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", s.logPath, err)
	}
	return string(b)
}

func (s *server) dsn() string {
	return fmt.Sprintf("root@tcp(127.0.0.1:%d)/?interpolateParams=true&timeout=5s&readTimeout=60s&writeTimeout=60s", s.port)
}

// openDB opens a connection pool to the running server.
func (s *server) openDB() *sql.DB {
	s.t.Helper()
	db, err := sql.Open("mysql", s.dsn())
	if err != nil {
		s.t.Fatal(err)
	}
	db.SetMaxIdleConns(64)
	return db
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
