package replica

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sysvar"
)

// Config is what channels need from their node.
type Config struct {
	Dir      string
	Engine   *engine.Engine
	Log      *binlog.Log // the node's binary log: its executed set is what the node has
	UUID     gtid.UUID
	ServerID uint32
	Port     int
	Vars     *sysvar.Registry
	Logger   *slog.Logger
	// Filters are the option file's replication filters.
	Filters OptionFilters
	// RelayWrite, when set, writes to the relay logs' files (binlog.Options.Write):
	// tests fill the disk with it.
	RelayWrite func(f *os.File, b []byte) (int, error)
}

// Manager holds a node's channels.
type Manager struct {
	cfg  Config
	file settingsFile

	mu       sync.Mutex // guards channels and serialises administrative commands
	channels map[string]*Channel

	overlaps overlaps // tables that two channels change rows of (overlap.go)
}

// Open loads persisted channels and starts those that were running (MySQL starts
// replication at server start unless skip_replica_start is set).
func Open(cfg Config) (*Manager, error) {
	m := &Manager{cfg: cfg, file: settingsFile{path: filepath.Join(cfg.Dir, "replication.json")}, channels: map[string]*Channel{}}
	saved, err := m.file.load()
	if err != nil {
		return nil, err
	}
	for name, s := range saved {
		ch := newChannel(m, name, s)
		m.channels[name] = ch
		// Recover the relay log now, at start-up, rather than inside the first START
		// REPLICA, and so SHOW REPLICA STATUS shows what it holds before threads run.
		if s.Host != "" {
			if _, err := ch.relayLog(); err != nil {
				return nil, err
			}
		}
	}
	if cfg.Vars.Int("skip_replica_start") == 0 {
		for _, ch := range m.channels {
			if !ch.settings.Stopped && ch.settings.Host != "" {
				if err := ch.start(true, true); err != nil {
					cfg.Logger.Warn("starting replication channel", "channel", ch.name, "err", err)
				}
			}
		}
	}
	return m, nil
}

func (m *Manager) relayMaxSize() int64 {
	if n := m.cfg.Vars.Int("max_relay_log_size"); n > 0 {
		return n
	}
	return m.cfg.Vars.Int("max_binlog_size")
}

func (m *Manager) syncRelayLog() int { return int(m.cfg.Vars.Int("sync_relay_log")) }

func (m *Manager) save() error {
	all := map[string]Settings{}
	for name, ch := range m.channels {
		ch.mu.Lock()
		all[name] = ch.settings
		ch.mu.Unlock()
	}
	return m.file.save(all)
}

func noChannel(name string) error {
	return mysqlerr.New(3074, "Replication channel '%s' does not exist.", name)
}

func mustStop() error {
	return mysqlerr.New(mysqlerr.ErSlaveMustStop, "This operation cannot be performed with a running replica; run STOP REPLICA first")
}

// Change applies CHANGE REPLICATION SOURCE TO ... [FOR CHANNEL name].
func (m *Manager) Change(name string, opts map[string]any) error {
	if !validChannel.MatchString(name) {
		return mysqlerr.New(3063, "Invalid channel name '%s'", name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := m.channels[name]
	if ch == nil {
		ch = newChannel(m, name, defaultSettings())
	} else if io, sql := ch.running(); io || sql {
		return mustStop()
	}
	ch.mu.Lock()
	s := ch.settings
	ch.mu.Unlock()
	if err := s.Apply(opts); err != nil {
		return err
	}
	if opts["SOURCE_LOG_FILE"] != nil || opts["SOURCE_LOG_POS"] != nil || opts["SOURCE_HOST"] != nil || opts["SOURCE_PORT"] != nil {
		// A new source or start position: forget how far the old one was read.
		if err := newSourcePosition(ch).remove(); err != nil {
			return err
		}
	}
	ch.mu.Lock()
	ch.settings = s
	ch.mu.Unlock()
	m.channels[name] = ch
	return m.save()
}

// targets resolves a channel argument: "" without any named channel means the default
// one; START/STOP without FOR CHANNEL act on every channel, as in MySQL.
func (m *Manager) targets(name string, all bool) ([]*Channel, error) {
	if name == "" && all {
		out := make([]*Channel, 0, len(m.channels))
		for _, n := range m.sortedNames() {
			out = append(out, m.channels[n])
		}
		if len(out) == 0 {
			return nil, mysqlerr.New(mysqlerr.ErBadSlave, "The server is not configured as replica; fix in config file or with CHANGE REPLICATION SOURCE TO")
		}
		return out, nil
	}
	ch := m.channels[name]
	if ch == nil {
		if name == "" {
			return nil, mysqlerr.New(mysqlerr.ErBadSlave, "The server is not configured as replica; fix in config file or with CHANGE REPLICATION SOURCE TO")
		}
		return nil, noChannel(name)
	}
	return []*Channel{ch}, nil
}

func (m *Manager) sortedNames() []string {
	names := make([]string, 0, len(m.channels))
	for n := range m.channels {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Start runs START REPLICA [IO_THREAD] [SQL_THREAD] [FOR CHANNEL].
func (m *Manager) Start(name string, named, io, sql bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	chs, err := m.targets(name, !named)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		if err := ch.start(io, sql); err != nil {
			return err
		}
		ch.mu.Lock()
		ch.settings.Stopped = false
		ch.mu.Unlock()
	}
	return m.save()
}

// Stop runs STOP REPLICA.
func (m *Manager) Stop(name string, named, io, sql bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	chs, err := m.targets(name, !named)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		ch.stop(io, sql)
		if io && sql {
			ch.mu.Lock()
			ch.settings.Stopped = true
			ch.mu.Unlock()
		}
	}
	return m.save()
}

// Reset runs RESET REPLICA [ALL]: the relay log goes; ALL also forgets the settings.
func (m *Manager) Reset(name string, named, all bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	chs, err := m.targets(name, !named)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		if io, sql := ch.running(); io || sql {
			return mustStop()
		}
	}
	for _, ch := range chs {
		if err := ch.resetRelay(); err != nil {
			return err
		}
		if all {
			ch.close()
			delete(m.channels, ch.name)
			m.overlaps.forget(ch.name)
		}
	}
	return m.save()
}

// Close stops every channel.
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ch := range m.channels {
		ch.close()
	}
}

// HasChannel reports whether the named channel exists.
func (m *Manager) HasChannel(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.channels[name] != nil
}

// Channels lists channel names.
func (m *Manager) Channels() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sortedNames()
}

// Retrieved is the union of every channel's Retrieved_Gtid_Set.
func (m *Manager) Retrieved() gtid.Set {
	m.mu.Lock()
	chs := make([]*Channel, 0, len(m.channels))
	for _, ch := range m.channels {
		chs = append(chs, ch)
	}
	m.mu.Unlock()
	var s gtid.Set
	for _, ch := range chs {
		ch.mu.Lock()
		if ch.relay != nil {
			s = s.Union(ch.relay.Executed())
		}
		ch.mu.Unlock()
	}
	return s
}

// WaitExecuted blocks until the node has executed every GTID in want, ctx ends
// (false), or timeout passes (false; timeout <= 0 waits forever).
func (m *Manager) WaitExecuted(ctx context.Context, want gtid.Set, timeout time.Duration) bool {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return m.cfg.Engine.WaitExecuted(ctx, want)
}

// WaitPosition implements SOURCE_POS_WAIT: wait until the channel has read past
// file:pos and applied everything it had read. It returns the number of seconds
// waited-for events... as MySQL, -1 on timeout, NULL (ok=false) if the channel is not
// running.
func (m *Manager) WaitPosition(ctx context.Context, name, file string, pos int64, timeout time.Duration) (int64, bool) {
	m.mu.Lock()
	ch := m.channels[name]
	m.mu.Unlock()
	if ch == nil {
		return 0, false
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	for {
		sig := ch.appliedSignal()
		ch.mu.Lock()
		st := ch.st
		sqlOn := ch.sql != nil
		ch.mu.Unlock()
		if !sqlOn {
			return 0, false
		}
		if st.caughtUp && (st.execFile > file || (st.execFile == file && st.execPos >= pos)) {
			return 0, true
		}
		select {
		case <-ctx.Done():
			return -1, true
		case <-sig:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// SemiSyncActive reports whether any channel's receiver is connected as a semi-sync
// replica (Rpl_semi_sync_replica_status).
func (m *Manager) SemiSyncActive() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ch := range m.channels {
		ch.mu.Lock()
		on := ch.st.semiSync
		ch.mu.Unlock()
		if on {
			return true
		}
	}
	return false
}
