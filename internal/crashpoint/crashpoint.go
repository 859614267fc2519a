// Package crashpoint kills a binlite process with SIGKILL at a named point of its
// commit path (engine/testpoint.go, binlog.PointWritten), for the crash tests: a
// kill at a random instant rarely lands inside a window a few microseconds wide,
// such as a group being durable in the binary log while storage has not committed
// it. The test starts `binlite serve` with the environment variable
//
//	BINLITE_CRASH_AT=<point>[+<then>][@<n>]
//
// The n-th time (default 1) a goroutine reaches point, the process logs a line
// ("test crash point reached") and is killed at once, or, with +then, that
// goroutine stops there and the process is killed when any goroutine next reaches
// then (or after a second if none does): commit.log-synced+commit.ahead kills the
// process with group N durable in the log and uncommitted, after the writer ran a
// statement of group N+1.
package crashpoint

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// EnvVar names the environment variable that arms a crash point.
const EnvVar = "BINLITE_CRASH_AT"

// thenWait bounds how long a stopped goroutine waits for the second point.
const thenWait = time.Second

// Crash is one armed crash point.
type Crash struct {
	point, then string
	nth         int64
	log         *slog.Logger
	// kill sends SIGKILL to this process and park stops the calling goroutine for
	// good; tests replace both.
	kill, park func()

	reached atomic.Int64
	armed   atomic.Bool // point was reached the n-th time: then kills
	killing atomic.Bool
	killed  chan struct{}
}

// Parse reads a spec of the form <point>[+<then>][@<n>].
func Parse(spec string, log *slog.Logger) (*Crash, error) {
	c := &Crash{nth: 1, log: log, killed: make(chan struct{}), kill: killSelf, park: func() { select {} }}
	if i := strings.LastIndexByte(spec, '@'); i >= 0 {
		n, err := strconv.ParseInt(spec[i+1:], 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("crashpoint: %q: the count after @ must be a positive integer", spec)
		}
		c.nth, spec = n, spec[:i]
	}
	c.point, c.then, _ = strings.Cut(spec, "+")
	if c.point == "" {
		return nil, fmt.Errorf("crashpoint: %q names no point", spec)
	}
	return c, nil
}

// FromEnv arms the crash point EnvVar names; nil when it is unset.
func FromEnv(log *slog.Logger) (*Crash, error) {
	spec := os.Getenv(EnvVar)
	if spec == "" {
		return nil, nil
	}
	return Parse(spec, log)
}

// Hook is called at every named point (engine.Options.TestPoint,
// binlog.Options.TestPoint).
func (c *Crash) Hook(name string) {
	if name == c.then && c.armed.Load() {
		c.die(name)
		return
	}
	if name != c.point || c.reached.Add(1) != c.nth {
		return
	}
	c.log.Warn("test crash point reached", "point", name, "n", c.nth, "then", c.then)
	if c.then == "" {
		c.die(name)
		return
	}
	c.armed.Store(true)
	select {
	case <-c.killed:
	case <-time.After(thenWait):
		c.die(c.then + " not reached within " + thenWait.String())
	}
	c.park()
}

// die kills the process once; a second caller stops where it is.
func (c *Crash) die(at string) {
	if !c.killing.CompareAndSwap(false, true) {
		c.park()
		return
	}
	c.log.Warn("test crash: SIGKILL", "at", at)
	c.kill()
	close(c.killed)
	c.park()
}

func killSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
}
