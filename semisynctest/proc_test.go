package semisynctest

// binlite as a separate process, for kill -9.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
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

// binliteBinary builds cmd/binlite once per test binary.
func binliteBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		var err error
		if buildDir, err = os.MkdirTemp("", "semisynctest-bin-"); err != nil {
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

// proc is a binlite server process on a fresh data directory. It listens on a port
// of its own choosing (port = 0 in its option file), read from its log.
type proc struct {
	t       testing.TB
	name    string
	dir     string
	logPath string
	addr    string
	db      *sql.DB

	cmd    *osexec.Cmd
	exited chan struct{}
}

var readyAddr = regexp.MustCompile(`msg="binlite ready" addr=(\S+)`)

// startProc runs `binlite serve` with opts in its option file and waits until it
// accepts clients; it is killed when the test ends.
func startProc(t testing.TB, name string, id uint32, opts ...config.Option) *proc {
	t.Helper()
	return startProcEnv(t, name, id, nil, opts...)
}

// startProcEnv is startProc with env added to the process's environment.
func startProcEnv(t testing.TB, name string, id uint32, env []string, opts ...config.Option) *proc {
	t.Helper()
	side := t.TempDir()
	p := &proc{t: t, name: name, dir: t.TempDir(), logPath: filepath.Join(side, name+".log")}
	var b strings.Builder
	b.WriteString("[mysqld]\nport = 0\n")
	for _, o := range opts {
		fmt.Fprintf(&b, "%s = %s\n", o.Name, o.Value)
	}
	cnf := filepath.Join(side, name+".cnf")
	if err := os.WriteFile(cnf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(p.logPath)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = osexec.Command(binliteBinary(t), "serve", "--datadir", p.dir, "--server-id", fmt.Sprint(id), "--config", cnf)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		logf.Close()
		t.Fatalf("%s: start: %v", name, err)
	}
	p.exited = make(chan struct{})
	go func() {
		p.cmd.Wait()
		logf.Close()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.kill()
		if p.db != nil {
			p.db.Close()
		}
		if b, err := os.ReadFile(p.logPath); err == nil && bytes.Contains(b, []byte("WARNING: DATA RACE")) {
			// The server is built with the race detector under go test -race.
			t.Errorf("%s reports a data race", name)
		}
		if t.Failed() {
			p.logTail(40)
		}
	})

	// The address is in the "binlite ready" line.
	waitFor(t, 60*time.Second, name+" to log \"binlite ready\"", func() (bool, string) {
		select {
		case <-p.exited:
			p.logTail(40)
			t.Fatalf("%s exited during start-up: %v", name, p.cmd.ProcessState)
		default:
		}
		f, err := os.Open(p.logPath)
		if err != nil {
			return false, err.Error()
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := readyAddr.FindStringSubmatch(sc.Text()); m != nil {
				p.addr = m[1]
				return true, ""
			}
		}
		return false, "no ready line yet"
	})
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", p.addr
	cfg.Timeout = 5 * time.Second
	if p.db, err = sql.Open("mysql", cfg.FormatDSN()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.db.PingContext(ctx); err != nil {
		t.Fatalf("%s: connecting to %s: %v", name, p.addr, err)
	}
	return p
}

// kill sends SIGKILL and waits for the process to be gone (idempotent).
func (p *proc) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
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
