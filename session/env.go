package session

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/infoschema"
	"github.com/binlite/binlite/replica"
	"github.com/binlite/binlite/semisync"
	"github.com/binlite/binlite/source"
	"github.com/binlite/binlite/sysvar"
	"github.com/binlite/binlite/users"
)

// Env is what every session of a node shares.
type Env struct {
	Engine  *engine.Engine
	Log     *binlog.Log
	Vars    *sysvar.Registry
	Version string
	Started time.Time
	Stats   Stats
	List    Registry

	Source   *source.Service
	Replicas *replica.Manager
	Users    *users.Store
	Semi     *semisync.Source
	// Plans caches what the compiler works out per statement (nil: none).
	Plans *compiler.Cache
	// Ctx ends when the node shuts down (dump threads stop).
	Ctx context.Context

	// virtual holds information_schema's and performance_schema's definitions
	// (infoschema.go), made on first use.
	virtualOnce sync.Once
	virtual     *infoschema.Schemas
	virtualErr  error
	// Conns, when set, reads the protocol server's connection counters for SHOW
	// STATUS (Threads_connected, Max_used_connections, Aborted_connects, ...).
	Conns ConnStats
}

// Stats are node-wide counters shown by SHOW STATUS and the metrics endpoint.
type Stats struct {
	Questions   atomic.Int64
	Connections atomic.Int64
	Commits     atomic.Int64 // transactions that reached the binary log
	Rollbacks   atomic.Int64
	Errors      atomic.Int64
}

// Registry lists live sessions for SHOW PROCESSLIST.
type Registry struct {
	mu       sync.Mutex
	sessions map[uint32]*Session
}

func (r *Registry) add(s *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions == nil {
		r.sessions = map[uint32]*Session{}
	}
	r.sessions[s.id] = s
}

func (r *Registry) remove(s *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sessions, s.id)
}

// Count is the number of connected sessions.
func (r *Registry) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// ProcessInfo is one SHOW PROCESSLIST row.
type ProcessInfo struct {
	ID             uint32
	User, Host, DB string
	Command, Info  string
	State          string
	Since          time.Time
}

// Snapshot lists sessions by id.
func (r *Registry) Snapshot() []ProcessInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]ProcessInfo, 0, len(r.sessions))
	for _, s := range r.sessions {
		out = append(out, s.process())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
