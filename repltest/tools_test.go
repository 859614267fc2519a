package repltest

// Running the real client tools from Debian (mariadb-client, percona-toolkit,
// prometheus-mysqld-exporter) against test nodes.

import (
	"bytes"
	"context"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// needTool returns the path of a Debian tool, skipping the test when it is missing.
func needTool(t testing.TB, name, pkg string) string {
	t.Helper()
	path, err := osexec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (apt-get install %s)", name, pkg)
	}
	return path
}

// runTool runs a client tool and returns its stdout; a failure fails the test.
func runTool(t testing.TB, stdin string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := osexec.CommandContext(ctx, name, args...)
	var out, errOut bytes.Buffer
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstderr: %s", name, strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

// toolProc is a tool running in the background (pt-heartbeat --update, an
// exporter), killed when the test ends.
type toolProc struct {
	cmd    *osexec.Cmd
	out    lockedBuffer
	exited chan struct{}
}

// startTool starts name with args (and env added to the test's environment).
func startTool(t testing.TB, env []string, name string, args ...string) *toolProc {
	t.Helper()
	p := &toolProc{cmd: osexec.Command(name, args...), exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	go func() {
		p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, p.out.String())
		}
	})
	return p
}

// stop kills the process and waits for it (idempotent).
func (p *toolProc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.exited
}

// running reports whether the process has not exited.
func (p *toolProc) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// lockedBuffer is a bytes.Buffer safe for a process's writes and the test's reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
