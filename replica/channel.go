package replica

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

var validChannel = regexp.MustCompile(`^[A-Za-z0-9_-]{0,64}$`)

// relayBase names a channel's relay log files (relay-bin.000001, relay-bin-<ch>.000001).
func relayBase(channel string) string {
	if channel == "" {
		return "relay-bin"
	}
	return "relay-bin-" + channel
}

// thread is a running IO or SQL goroutine.
type thread struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func (t *thread) stop() {
	if t == nil {
		return
	}
	t.cancel()
	<-t.done
}

// Channel is one replication channel: a source, a relay log, a receiver and an applier.
type Channel struct {
	m    *Manager
	name string

	mu          sync.Mutex
	settings    Settings
	relay       *binlog.Log
	io, sql     *thread
	st          state
	applied     chan struct{}       // closed and replaced whenever the applier makes progress
	applyStream *engine.ApplyStream // the running (or last) applier's workers
}

// state is what SHOW REPLICA STATUS reports, kept by the threads.
type state struct {
	ioRunning      string // No, Connecting, Yes
	ioState        string
	sqlState       string
	lastIOErrno    uint16
	lastIOError    string
	lastIOTime     time.Time
	lastSQLErrno   uint16
	lastSQLError   string
	lastSQLTime    time.Time
	sourceUUID     string
	sourceServerID uint32
	readFile       string
	readPos        int64
	execFile       string
	execPos        int64
	relayFile      string
	relayPos       int64
	oldestUS       uint64 // original commit time of the oldest transaction being applied
	caughtUp       bool   // the applier has applied everything in the relay log
	lastApplied    gtid.GTID
	appliedCount   uint64
	semiSync       bool // the receiver is connected as a semi-sync replica
}

func newChannel(m *Manager, name string, s Settings) *Channel {
	return &Channel{m: m, name: name, settings: s, st: state{ioRunning: "No"}, applied: make(chan struct{})}
}

func (ch *Channel) relayLog() (*binlog.Log, error) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if ch.relay != nil {
		return ch.relay, nil
	}
	l, err := binlog.Open(ch.m.cfg.Dir, binlog.Options{
		ServerUUID:     ch.m.cfg.UUID,
		ServerID:       ch.m.cfg.ServerID,
		BaseName:       relayBase(ch.name),
		MaxSize:        ch.m.relayMaxSize(),
		SyncBinlog:     ch.m.syncRelayLog(),
		KeepTimestamps: true,
		Logger:         ch.m.cfg.Logger,
		Write:          ch.m.cfg.RelayWrite,
	})
	if err != nil {
		return nil, fmt.Errorf("replica: relay log of channel '%s': %w", ch.name, err)
	}
	ch.relay = l
	return l, nil
}

func (ch *Channel) setIOError(code uint16, msg string) {
	ch.mu.Lock()
	ch.st.lastIOErrno, ch.st.lastIOError, ch.st.lastIOTime = code, msg, time.Now()
	ch.mu.Unlock()
	if code != 0 {
		ch.m.cfg.Logger.Warn("replica IO thread error", "channel", ch.name, "errno", code, "error", msg)
	}
}

func (ch *Channel) setSQLError(code uint16, msg string) {
	ch.mu.Lock()
	ch.st.lastSQLErrno, ch.st.lastSQLError, ch.st.lastSQLTime = code, msg, time.Now()
	ch.mu.Unlock()
	if code != 0 {
		ch.m.cfg.Logger.Error("replica SQL thread stopped", "channel", ch.name, "errno", code, "error", msg)
	}
}

func (ch *Channel) update(f func(st *state)) {
	ch.mu.Lock()
	f(&ch.st)
	ch.mu.Unlock()
}

// notifyApplied wakes waiters (WAIT_FOR_EXECUTED_GTID_SET, SOURCE_POS_WAIT).
func (ch *Channel) notifyApplied() {
	ch.mu.Lock()
	close(ch.applied)
	ch.applied = make(chan struct{})
	ch.mu.Unlock()
}

func (ch *Channel) appliedSignal() <-chan struct{} {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.applied
}

func (ch *Channel) start(io, sql bool) error {
	ch.mu.Lock()
	if ch.settings.Host == "" {
		ch.mu.Unlock()
		return mysqlerr.New(mysqlerr.ErBadSlave, "The server is not configured as replica; fix in config file or with CHANGE REPLICATION SOURCE TO")
	}
	ch.mu.Unlock()
	if _, err := ch.relayLog(); err != nil {
		return err
	}
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if io && ch.io == nil {
		ch.st.lastIOErrno, ch.st.lastIOError = 0, ""
		ch.io = ch.spawn(ch.runIO)
	}
	if sql && ch.sql == nil {
		ch.st.lastSQLErrno, ch.st.lastSQLError = 0, ""
		ch.sql = ch.spawn(ch.runSQL)
	}
	return nil
}

// spawn runs a thread; when it ends by itself (fatal error) it clears its slot.
func (ch *Channel) spawn(run func(ctx context.Context)) *thread {
	ctx, cancel := context.WithCancel(context.Background())
	t := &thread{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		run(ctx)
		ch.mu.Lock()
		if ch.io == t {
			ch.io = nil
			ch.st.ioRunning, ch.st.ioState = "No", ""
		}
		if ch.sql == t {
			ch.sql = nil
			ch.st.sqlState = ""
		}
		ch.mu.Unlock()
	}()
	return t
}

func (ch *Channel) stop(io, sql bool) {
	ch.mu.Lock()
	var ti, ts *thread
	if io {
		ti, ch.io = ch.io, nil
	}
	if sql {
		ts, ch.sql = ch.sql, nil
	}
	ch.mu.Unlock()
	ti.stop()
	ts.stop()
	ch.mu.Lock()
	if io {
		ch.st.ioRunning, ch.st.ioState = "No", ""
	}
	if sql {
		ch.st.sqlState = ""
	}
	ch.mu.Unlock()
}

func (ch *Channel) running() (io, sql bool) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.io != nil, ch.sql != nil
}

// resetRelay deletes the relay log (RESET REPLICA); threads must be stopped.
func (ch *Channel) resetRelay() error {
	l, err := ch.relayLog()
	if err != nil {
		return err
	}
	if err := l.Reset(); err != nil {
		return err
	}
	if err := newSourcePosition(ch).remove(); err != nil {
		return err
	}
	ch.update(func(st *state) {
		st.readFile, st.readPos, st.execFile, st.execPos, st.relayFile, st.relayPos = "", 0, "", 0, "", 0
	})
	return nil
}

func (ch *Channel) close() {
	ch.stop(true, true)
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if ch.relay != nil {
		ch.relay.Close()
		ch.relay = nil
	}
}
