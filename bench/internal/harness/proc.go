package harness

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a child process we started and stop by its PID.
type Process struct {
	Name    string
	LogPath string // stdout and stderr of the process

	cmd     *exec.Cmd
	log     *os.File
	done    chan struct{}
	waitErr error

	mu     sync.Mutex
	paused bool
}

// StartProcess starts bin with args, its output appended to logPath. The child gets
// SIGTERM if this program dies, so an aborted benchmark leaves no servers behind.
func StartProcess(name, logPath, bin string, args ...string) (*Process, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Process{Name: name, LogPath: logPath, cmd: cmd, log: f, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

// PID is the process id.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Exited reports whether the process has ended, and how.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		if p.waitErr == nil {
			return true, errors.New("exited with status 0")
		}
		return true, p.waitErr
	default:
		return false, nil
	}
}

// Pause stops the process with SIGSTOP so that it uses no CPU while another system
// is measured; Resume continues it.
func (p *Process) Pause() error { return p.signalPause(true) }

// Resume continues a paused process (SIGCONT).
func (p *Process) Resume() error { return p.signalPause(false) }

func (p *Process) signalPause(pause bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused == pause {
		return nil
	}
	sig := syscall.SIGCONT
	if pause {
		sig = syscall.SIGSTOP
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("%s (pid %d): %v: %w", p.Name, p.PID(), sig, err)
	}
	p.paused = pause
	return nil
}

// Stop sends SIGTERM to the PID and waits up to grace for the process to exit, then
// sends SIGKILL. It returns the process's exit error, if it had one before Stop.
func (p *Process) Stop(grace time.Duration) error {
	if exited, err := p.Exited(); exited {
		return fmt.Errorf("%s had already ended: %w", p.Name, err)
	}
	p.Resume()
	p.cmd.Process.Signal(syscall.SIGTERM) // pidfd-backed: never signals a recycled PID
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	return fmt.Errorf("%s (pid %d) did not stop within %v of SIGTERM; killed", p.Name, p.PID(), grace)
}

// CPUSeconds is the user+system CPU time the process has used so far, read from
// /proc/PID/stat (Linux, 100 clock ticks per second).
func (p *Process) CPUSeconds() (float64, error) {
	return ProcCPUSeconds(p.PID())
}

// ProcCPUSeconds reads utime+stime of pid from /proc.
func ProcCPUSeconds(pid int) (float64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	// After "(comm)": state is field 3; utime and stime are fields 14 and 15.
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	return float64(ut+st) / 100, nil
}

// LogTail returns the last n lines of the process's log.
func (p *Process) LogTail(n int) string { return FileTail(p.LogPath, n) }

// FileTail returns the last n lines of a file ("" if unreadable).
func FileTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
