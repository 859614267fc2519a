package semisync

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Settings are the rpl_semi_sync_source_* variables.
type Settings struct {
	Enabled    bool
	Timeout    time.Duration
	AfterSync  bool // wait point AFTER_SYNC (true) or AFTER_COMMIT
	WaitCount  int  // rpl_semi_sync_source_wait_for_replica_count
	WaitNoRepl bool // rpl_semi_sync_source_wait_no_replica
}

// Status is what SHOW STATUS LIKE 'Rpl_semi_sync_source%' reports.
type Status struct {
	On           bool
	Clients      int
	YesTx        uint64
	NoTx         uint64
	NoTimes      uint64
	AvgWaitUS    uint64
	TotalWaitUS  uint64
	Waits        uint64
	WaitSessions int
}

// Source tracks semi-sync replicas and commit groups waiting for them.
type Source struct {
	log *slog.Logger
	now func() time.Time

	mu       sync.Mutex
	set      Settings
	on       bool           // Rpl_semi_sync_source_status
	clients  map[uint64]Pos // acknowledged position per semi-sync replica connection
	changed  chan struct{}  // closed and replaced on every ack or setting change
	st       Status
	waiting  int
	lastSent Pos // latest position the log has made durable, for "caught up"
}

// NewSource makes the tracker.
func NewSource(set Settings, log *slog.Logger) *Source {
	s := &Source{log: log, now: time.Now, clients: map[uint64]Pos{}, changed: make(chan struct{})}
	s.Configure(set)
	return s
}

// Configure applies new settings (SET GLOBAL rpl_semi_sync_source_*).
func (s *Source) Configure(set Settings) {
	if set.WaitCount <= 0 {
		set.WaitCount = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	was := s.set.Enabled
	s.set = set
	if set.Enabled && !was {
		s.on = true
		s.log.Info("semi-sync replication enabled on the source")
	}
	if !set.Enabled {
		s.on = false
	}
	s.wakeLocked()
}

// Settings returns the current settings.
func (s *Source) Settings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set
}

func (s *Source) wakeLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// AddClient registers a semi-sync replica connection.
func (s *Source) AddClient(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[id] = Pos{}
	s.wakeLocked()
}

// RemoveClient forgets a replica connection.
func (s *Source) RemoveClient(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.clients, id)
	s.wakeLocked()
}

// Ack records that replica id has made everything up to p durable.
func (s *Source) Ack(id uint64, p Pos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[id]; !ok {
		return
	}
	if p.AtLeast(s.clients[id]) {
		s.clients[id] = p
	}
	if s.set.Enabled && !s.on && s.ackedLocked(s.lastSent) >= s.set.WaitCount {
		s.on = true
		s.log.Info("semi-sync replication switched back ON: a replica has caught up", "position", p)
	}
	s.wakeLocked()
}

// ackedLocked counts replicas that acknowledged p.
func (s *Source) ackedLocked(p Pos) int {
	n := 0
	for _, a := range s.clients {
		if a.AtLeast(p) {
			n++
		}
	}
	return n
}

// Wait blocks a commit group of ntx transactions ending at p until enough replicas
// acknowledge p, the timeout passes (then the source turns semi-sync OFF and carries
// on asynchronously), or ctx ends. It returns whether the group was acknowledged.
func (s *Source) Wait(ctx context.Context, p Pos, ntx int) bool {
	s.mu.Lock()
	if p.AtLeast(s.lastSent) {
		s.lastSent = p
	}
	if !s.set.Enabled {
		s.mu.Unlock()
		return false
	}
	if !s.on || (len(s.clients) == 0 && !s.set.WaitNoRepl) {
		s.st.NoTx += uint64(ntx)
		s.mu.Unlock()
		return false
	}
	start := s.now()
	deadline := start.Add(s.set.Timeout)
	s.waiting++
	defer func() { s.waiting--; s.mu.Unlock() }()
	for {
		if s.ackedLocked(p) >= s.set.WaitCount {
			waited := uint64(s.now().Sub(start).Microseconds())
			s.st.YesTx += uint64(ntx)
			s.st.Waits++
			s.st.TotalWaitUS += waited
			return true
		}
		if !s.on || !s.set.Enabled {
			s.st.NoTx += uint64(ntx)
			return false
		}
		left := deadline.Sub(s.now())
		if left <= 0 {
			s.on = false
			s.st.NoTimes++
			s.st.NoTx += uint64(ntx)
			s.log.Warn("semi-sync wait timed out; switching to asynchronous replication",
				"timeout", s.set.Timeout, "position", p, "semi_sync_replicas", len(s.clients))
			s.wakeLocked()
			return false
		}
		ch := s.changed
		s.mu.Unlock()
		t := time.NewTimer(left)
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
		s.mu.Lock()
		if ctx.Err() != nil {
			s.st.NoTx += uint64(ntx)
			return false
		}
	}
}

// Status reports the counters.
func (s *Source) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.On = s.on
	st.Clients = len(s.clients)
	st.WaitSessions = s.waiting
	if st.Waits > 0 {
		st.AvgWaitUS = st.TotalWaitUS / st.Waits
	}
	return st
}
