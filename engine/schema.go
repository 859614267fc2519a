package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// validName restricts schema names to what maps safely onto a file name.
var validName = regexp.MustCompile(`^[A-Za-z0-9_$]{1,64}$`)

// CheckSchemaName returns ER_WRONG_DB_NAME for names binlite cannot store.
func CheckSchemaName(name string) error {
	if !validName.MatchString(name) {
		return mysqlerr.New(mysqlerr.ErWrongDBName, "Incorrect database name '%s'", name)
	}
	return nil
}

// Schema is one MySQL database: a SQLite file, its writer and its readers.
type Schema struct {
	e    *Engine
	name string
	path string
	w    *writer
	cat  atomic.Pointer[catalog]
	ckpt *checkpointer

	readPool
}

// readPool keeps query-only connections to one SQLite file. Readers use WAL snapshots
// and never wait for the writer.
type readPool struct {
	path      string
	max       int
	functions Functions
	mu        sync.Mutex
	free      *sync.Cond // signalled when a reader returns to idle
	idle      []*readConn
	open      int
	closed    bool // the schema is gone: connections given back are closed
	// spare are snapshot connections beyond max, kept for the next transaction
	// (up to maxSpare): opening one costs far more than a transaction's reads.
	spare []*readConn
}

// maxSpare bounds the snapshot connections a pool keeps beyond its max.
const maxSpare = 128

func newReadPool(path string, max int, fns Functions) readPool {
	return readPool{path: path, max: max, functions: fns}
}

type readConn struct {
	*sqliteConn
	attached map[string]bool
}

func schemaPath(dir, name string) string { return filepath.Join(dir, name+".sqlite") }

// openSchema opens an existing schema file and starts its writer.
func (e *Engine) openSchema(name string) (*Schema, error) {
	s := &Schema{e: e, name: name, path: schemaPath(e.opts.Dir, name)}
	s.readPool = newReadPool(s.path, e.opts.ReadersPerSchema, e.opts.Functions)
	s.free = sync.NewCond(&s.mu)
	c, err := openConn(s.path, false, s.e.opts.Functions)
	if err != nil {
		return nil, err
	}
	for _, q := range schemaInit {
		if _, err := c.exec(q); err != nil {
			c.Close()
			return nil, fmt.Errorf("engine: init %s: %w", name, err)
		}
	}
	// The checkpointer moves the WAL into the file, off the commit path.
	if _, err := c.exec(`PRAGMA wal_autocheckpoint=0`); err != nil {
		c.Close()
		return nil, fmt.Errorf("engine: init %s: %w", name, err)
	}
	cat, err := loadCatalog(c)
	if err != nil {
		c.Close()
		return nil, err
	}
	// A file written before binlite enforced foreign keys with triggers gets them.
	if err := syncForeignKeys(c, cat); err != nil {
		c.Close()
		return nil, err
	}
	// A file written before binlite kept zero dates gets today's value checks.
	if err := upgradeZeroDateChecks(c, cat); err != nil {
		c.Close()
		return nil, err
	}
	if err := syncTriggers(c, cat, name); err != nil {
		c.Close()
		return nil, err
	}
	s.cat.Store(&cat)
	if s.w, err = newWriter(s, c, cat); err != nil {
		c.Close()
		return nil, err
	}
	return s, nil
}

func (s *Schema) start() {
	s.startCheckpointer()
	go s.w.run()
}

// Name is the schema's name.
func (s *Schema) Name() string { return s.name }

// Table returns a table's catalog entry, or nil.
func (s *Schema) Table(name string) *Table {
	return (*s.cat.Load())[name]
}

// TableDef returns a table's MySQL definition (its name in any letter case), or
// nil if it has none.
func (s *Schema) TableDef(name string) *mysqlcatalog.Table {
	cat := *s.cat.Load()
	t := cat[name]
	if t == nil {
		for n, c := range cat {
			if strings.EqualFold(n, name) {
				t = c
			}
		}
	}
	if t == nil {
		return nil
	}
	return t.Def
}

// Tables lists the schema's user tables.
func (s *Schema) Tables() []string {
	cat := *s.cat.Load()
	out := make([]string, 0, len(cat))
	for n := range cat {
		out = append(out, n)
	}
	return out
}

func (s *readPool) getReader() (*readConn, error) {
	s.mu.Lock()
	for len(s.idle) == 0 && s.open >= s.max {
		s.free.Wait()
	}
	if n := len(s.idle); n > 0 {
		c := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		return c, nil
	}
	s.open++
	s.mu.Unlock()
	c, err := openConn(s.path, true, s.functions)
	if err != nil {
		s.mu.Lock()
		s.open--
		s.mu.Unlock()
		s.free.Signal()
		return nil, err
	}
	return &readConn{sqliteConn: c, attached: map[string]bool{}}, nil
}

func (s *readPool) putReader(c *readConn) {
	s.mu.Lock()
	if s.closed {
		s.open--
		s.mu.Unlock()
		c.Close()
		return
	}
	s.idle = append(s.idle, c)
	s.mu.Unlock()
	s.free.Signal()
}

// detach stops counting a connection taken with getReader against the pool's
// maximum: a cursor keeps it for as long as its client takes to read (Cursor.Hold).
func (s *readPool) detach() {
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
	s.free.Signal()
}

// putDetached gives back a detached connection: it joins the idle ones when the
// pool has room, else it is closed.
func (s *readPool) putDetached(c *readConn) {
	s.mu.Lock()
	if s.closed || s.open >= s.max {
		s.mu.Unlock()
		c.Close()
		return
	}
	s.open++
	s.idle = append(s.idle, c)
	s.mu.Unlock()
	s.free.Signal()
}

func (s *readPool) closeReaders() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.idle {
		c.Close()
	}
	s.open -= len(s.idle)
	s.idle = nil
	s.closed = true
	for _, c := range s.spare {
		c.Close()
	}
	s.spare = nil
}

// stop flushes and closes the writer, then the idle readers and the checkpointer.
func (s *Schema) stop() error {
	o := s.w.submit(&job{kind: jobStop}, 0)
	s.closeReaders() // before the last checkpoint, which readers' snapshots hold up
	s.ckpt.close()
	return o.err
}

func removeSchemaFiles(path string) error {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("engine: remove %s: %w", path+suffix, err)
		}
	}
	return nil
}
