package repltest

// binlite as a separate process, for kill -9.

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/binlite/binlite/internal/testnode"

	"github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/config"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	// The driver logs every connection a killed node drops; the tests say what matters.
	mysql.SetLogger(log.New(io.Discard, "", 0))
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binliteBinary builds cmd/binlite once per test binary.
func binliteBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		var err error
		if buildDir, err = os.MkdirTemp("", "repltest-bin-"); err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(buildDir, "binlite")
		buildErr = testnode.BuildBinary(buildBin)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

// freePort picks a free loopback port outside the kernel's ephemeral range, so
// that a port given up by a killed process is not handed to another listener
// before the process restarts on it.
func freePort(t testing.TB) int {
	t.Helper()
	for i := 0; i < 200; i++ {
		p := 20000 + rand.IntN(10000)
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err == nil {
			ln.Close()
			return p
		}
	}
	t.Fatalf("no free port found")
	return 0
}

// proc is a binlite server process with a fixed data directory and port.
type proc struct {
	t       testing.TB
	name    string
	bin     string
	dir     string
	logPath string
	cnf     string   // option file ("" = none)
	env     []string // extra environment of the next starts (a crash point)
	port    int
	id      uint32
	db      *sql.DB // root pool on port; reconnects across restarts

	mu     sync.Mutex
	cmd    *osexec.Cmd
	exited chan struct{}
	ready  chan struct{} // closed while the process serves
	starts int
}

// newProc prepares a process on a fresh data directory; opts go to its option file.
func newProc(t testing.TB, name string, id uint32, opts ...config.Option) *proc {
	t.Helper()
	p := &proc{t: t, name: name, bin: binliteBinary(t), dir: t.TempDir(), port: freePort(t), id: id, ready: make(chan struct{})}
	side := t.TempDir()
	p.logPath = filepath.Join(side, name+".log")
	if len(opts) > 0 {
		var b strings.Builder
		b.WriteString("[mysqld]\n")
		for _, o := range opts {
			fmt.Fprintf(&b, "%s = %s\n", o.Name, o.Value)
		}
		p.cnf = filepath.Join(side, name+".cnf")
		writeFile(t, p.cnf, b.String())
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", p.addr()
	cfg.Timeout = 5 * time.Second
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	p.db = db
	t.Cleanup(func() {
		p.mu.Lock()
		running := p.cmd != nil
		p.mu.Unlock()
		if running {
			p.kill()
		}
		db.Close()
		if b, err := os.ReadFile(p.logPath); err == nil && bytes.Contains(b, []byte("WARNING: DATA RACE")) {
			// The server is built with the race detector under go test -race.
			t.Errorf("%s reports a data race", p.name)
		}
		if t.Failed() {
			p.logTail(60)
		}
	})
	return p
}

func (p *proc) addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port)) }

// start runs the process and waits until it accepts clients.
func (p *proc) start() {
	p.t.Helper()
	logf, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.t.Fatal(err)
	}
	p.starts++
	fmt.Fprintf(logf, "=== start %d\n", p.starts)
	args := []string{"serve", "--datadir", p.dir, "--port", strconv.Itoa(p.port), "--server-id", strconv.Itoa(int(p.id))}
	if p.cnf != "" {
		args = append(args, "--config", p.cnf)
	}
	cmd := osexec.Command(p.bin, args...)
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		p.t.Fatalf("%s: start: %v", p.name, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		logf.Close()
		close(exited)
	}()
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()

	deadline := time.Now().Add(60 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := p.db.PingContext(ctx)
		cancel()
		if err == nil {
			break
		}
		select {
		case <-exited:
			p.logTail(40)
			p.t.Fatalf("%s exited during start-up (start %d): %v", p.name, p.starts, cmd.ProcessState)
		default:
		}
		if time.Now().After(deadline) {
			p.logTail(40)
			p.t.Fatalf("%s did not accept clients within 60 s (start %d): %v", p.name, p.starts, err)
		}
		<-tick.C
	}
	p.mu.Lock()
	close(p.ready)
	p.mu.Unlock()
}

// waitReady returns a channel closed while the process serves clients.
func (p *proc) waitReady() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ready
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd = nil
	select {
	case <-p.ready:
		p.ready = make(chan struct{})
	default:
	}
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
}

// awaitSelfKill waits for the process to kill itself at its armed crash point
// (BINLITE_CRASH_AT) and checks it did so with SIGKILL.
func (p *proc) awaitSelfKill(timeout time.Duration) error {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return fmt.Errorf("%s is not running", p.name)
	}
	select {
	case <-exited:
	case <-time.After(timeout):
		return fmt.Errorf("%s: the crash point was not reached within %v", p.name, timeout)
	}
	p.mu.Lock()
	p.cmd = nil
	select {
	case <-p.ready:
		p.ready = make(chan struct{})
	default:
	}
	p.mu.Unlock()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		return fmt.Errorf("%s exited with %v, not SIGKILL at its crash point", p.name, cmd.ProcessState)
	}
	return nil
}

// crashLine is the crash point's last log line.
func (p *proc) crashLine() string {
	b, _ := os.ReadFile(p.logPath)
	log := string(b)
	i := strings.LastIndex(log, `msg="test crash: SIGKILL"`)
	if i < 0 {
		return "(no crash line)"
	}
	line := log[i:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return line
}

// stop shuts the process down cleanly (SIGTERM) and waits for it.
func (p *proc) stop() {
	p.t.Helper()
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd = nil
	select {
	case <-p.ready:
		p.ready = make(chan struct{})
	default:
	}
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		if !cmd.ProcessState.Success() {
			p.logTail(40)
			p.t.Errorf("%s: clean shutdown exited with %v", p.name, cmd.ProcessState)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		p.logTail(40)
		p.t.Errorf("%s did not stop within 60 s of SIGTERM", p.name)
	}
}

// logTail prints the end of the process's log to the test log.
func (p *proc) logTail(lines int) {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return
	}
	start := len(b)
	for n := 0; start > 0 && n <= lines; {
		start--
		if b[start] == '\n' {
			n++
		}
	}
	p.t.Logf("--- last lines of %s's log (%s):\n%s", p.name, p.logPath, b[start:])
}
