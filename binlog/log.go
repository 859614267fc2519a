package binlog

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/binlite/binlite/gtid"
)

// Options configure a Log. Zero values pick MySQL's defaults.
type Options struct {
	ServerUUID gtid.UUID
	ServerID   uint32
	// MaxSize is max_binlog_size: rotate after the group that crosses it
	// (default 1 GiB).
	MaxSize int64
	// SyncBinlog is sync_binlog: 1 = fdatasync every group, 0 = never,
	// N = every N groups. Negative values mean the default, 1.
	SyncBinlog int
	// ExpireSeconds is binlog_expire_logs_seconds, checked at each rotation;
	// 0 = off.
	ExpireSeconds int64
	Logger        *slog.Logger
	Now           func() time.Time // for tests; default time.Now
	// BaseName names the files (default "binlog"); relay logs use another.
	BaseName string
	// KeepTimestamps keeps a transaction's ImmediateCommitUS when it is set: relay logs
	// store the source's commit times, which lag and SOURCE_DELAY are measured from.
	KeepTimestamps bool
	// TestPoint, when set, is called at PointWritten; crash tests stop the process
	// there.
	TestPoint func(point string)
	// Write, when set, writes b to the log's file f in place of f.Write: tests
	// make it fail as a full disk does (part of b written, then ENOSPC).
	Write func(f *os.File, b []byte) (int, error)
}

// PointWritten is where Options.TestPoint is called when a group has been written
// to the file and is not yet fdatasynced: a process killed there leaves the group in
// the page cache (it survives; a power failure would not).
const PointWritten = "binlog.written"

// DefaultMaxSize is max_binlog_size's default.
const DefaultMaxSize = 1 << 30

// FileInfo describes one file in the index.
type FileInfo struct {
	Name          string
	Size          int64
	PreviousGTIDs gtid.Set
}

// Stats counts group commits, for tests and SHOW STATUS.
type Stats struct {
	Groups       uint64 // group writes
	Syncs        uint64 // fdatasync calls on group writes
	Transactions uint64 // transactions written
}

type fileEntry struct {
	name string
	prev gtid.Set
}

// Log is an open binary log. All methods are safe for concurrent use.
type Log struct {
	dir  string
	opts Options
	log  *slog.Logger

	// ioMu serializes everything that touches files: group writes,
	// rotation, purge, reset, close. Lock order: ioMu, then mu.
	ioMu     sync.Mutex
	f        *os.File
	fd       int
	size     int64  // bytes in the active file
	buf      []byte // reusable group encode buffer
	unsynced int    // groups written since the last fdatasync

	mu      sync.Mutex
	pending []*commitReq
	leading bool
	failed  error // sticky: a write or sync failed
	closed  bool
	files   []fileEntry // index order; the last one is active
	// executed changes under mu and execMu together; Contains and Executed read it
	// under execMu alone, so a replica's applier asking for every transaction does
	// not wait while a large group is being encoded under mu.
	execMu   sync.RWMutex
	executed gtid.Set
	purged   gtid.Set
	declared gtid.Set // added by SET gtid_purged (purged.go)
	nextSeq  uint64
	durPos   int64
	durCh    chan struct{} // closed and replaced on each durable group/rotation
	stats    Stats
}

// Open opens (creating if needed) the binary log in dir and recovers it: a
// torn or corrupt tail of the last file is truncated back to the end of the
// last whole transaction.
func Open(dir string, opts Options) (*Log, error) {
	if opts.MaxSize <= 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.SyncBinlog < 0 {
		opts.SyncBinlog = 1
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BaseName == "" {
		opts.BaseName = "binlog"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("binlog: open %s: %w", dir, err)
	}
	l := &Log{dir: dir, opts: opts, log: opts.Logger, durCh: make(chan struct{})}
	if err := l.recover(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) path(name string) string { return filepath.Join(l.dir, name) }

// Dir returns the log's directory.
func (l *Log) Dir() string { return l.dir }

// Executed returns a copy of gtid_executed: everything durable in the log.
func (l *Log) Executed() gtid.Set {
	l.execMu.RLock()
	defer l.execMu.RUnlock()
	return l.executed.Clone()
}

// Contains reports whether g is in the executed set, without copying the set (the
// replica applier asks this for every transaction).
func (l *Log) Contains(g gtid.GTID) bool {
	l.execMu.RLock()
	defer l.execMu.RUnlock()
	return l.executed.Contains(g)
}

// Purged returns a copy of gtid_purged: GTIDs in files no longer present.
func (l *Log) Purged() gtid.Set {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.purged.Clone()
}

// Position returns the active file and the end of the last durable group.
func (l *Log) Position() (file string, pos int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.files[len(l.files)-1].name, l.durPos
}

// Stats returns group commit counters.
func (l *Log) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Files lists the files in the index with their sizes (SHOW BINARY LOGS).
func (l *Log) Files() ([]FileInfo, error) {
	l.mu.Lock()
	ents := append([]fileEntry(nil), l.files...)
	l.mu.Unlock()
	out := make([]FileInfo, 0, len(ents))
	for _, e := range ents {
		st, err := os.Stat(l.path(e.name))
		if err != nil {
			return nil, fmt.Errorf("binlog: files: %w", err)
		}
		out = append(out, FileInfo{Name: e.name, Size: st.Size(), PreviousGTIDs: e.prev.Clone()})
	}
	return out, nil
}

// Close writes a Stop event, syncs and closes the active file. Commits
// queued behind Close fail with ErrClosed.
func (l *Log) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	failed := l.failed
	l.mu.Unlock()

	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	var err error
	if failed == nil {
		l.buf = AppendEvent(l.buf[:0], &StopEvent{}, uint32(l.opts.Now().Unix()), l.opts.ServerID)
		if _, err = l.f.Write(l.buf); err == nil {
			err = l.f.Sync()
		}
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.mu.Lock()
	close(l.durCh) // wake WaitDurable callers; they see closed
	l.mu.Unlock()
	if err != nil {
		return fmt.Errorf("binlog: close %s: %w", l.f.Name(), err)
	}
	return nil
}

// fail records a sticky write failure; the server must stop
// (binlog_error_action=ABORT_SERVER).
func (l *Log) fail(err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failed == nil {
		l.failed = err
		l.log.Error("binlog: write failed; refusing further commits", "err", err)
	}
	return l.failed
}

// publishLocked records a new durable end and wakes WaitDurable callers.
// Caller holds mu.
func (l *Log) publishLocked(pos int64) {
	l.durPos = pos
	close(l.durCh)
	l.durCh = make(chan struct{})
}
