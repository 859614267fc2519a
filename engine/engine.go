package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/binlite/binlite/binlog"
	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// DDLTranslator compiles a DDL statement replayed from a binary log (recovery, a
// replica's applier) into SQLite statements; tableDef reads the schema's MySQL
// table definitions as they stand before the statement.
type DDLTranslator func(schema, mysqlSQL string, tableDef func(table string) *mysqlcatalog.Table) ([]string, error)

// Options configures an Engine.
type Options struct {
	Dir              string      // where the schema files live
	Log              *binlog.Log // the node's binary log (already opened and recovered)
	Logger           *slog.Logger
	OnFatal          func(error) // storage and binary log disagree: the node must stop
	TranslateDDL     DDLTranslator
	MaxGroup         int // most transactions per group commit (default 8192)
	ReadersPerSchema int // read connections per schema (default 8)
	Functions        Functions
	// AfterSync, when set, is called once per commit group after its binary-log write
	// is durable and before storage commits it (semi-sync AFTER_SYNC); AfterCommit after
	// storage commits and before clients are answered (AFTER_COMMIT). ntx is the
	// number of transactions in the group.
	AfterSync   func(ntx int, file string, endPos int64)
	AfterCommit func(ntx int, file string, endPos int64)
	// SkipAppliedGTIDs turns off recording applied GTIDs in the schemas (invariant 2).
	// It exists only so benchmarks can measure what crash safety costs; a node running
	// with it may apply a transaction twice after a crash.
	SkipAppliedGTIDs func() bool
	// GatherWindow, when set, says how long a writer may wait for more statements before
	// sealing a group (non-zero while semi-sync waits make each group cost a round trip).
	GatherWindow func() time.Duration
	// RunHold bounds how long a writer holds a run of replicated transactions open
	// while their coordinator is still dispatching (default 250ms; see ApplyStream).
	RunHold time.Duration
	// PipelineDepth, when set, says how many binary-log groups of a schema may share
	// one SQLite commit, the writer executing each while the one before is written
	// and fsynced (pipeline.go); 1 turns the overlap off. Read at each commit;
	// default DefaultPipelineDepth.
	PipelineDepth func() int
	// AlwaysOverlap, when set and true, sends every group the pipeline's depth allows
	// to the log stage with execution overlapping it, whatever recent log writes
	// looked like (pipeline.go's overlapNext): for tests that must reach the
	// pipeline's states, and to measure overlap against its absence.
	AlwaysOverlap func() bool
	// TestPoint, when set, is called at the named points of the commit path
	// (testpoint.go); crash tests stop the process there.
	TestPoint func(point string)
}

// DefaultPipelineDepth is Options.PipelineDepth's default: a group executes while
// the one before it is in the binary log, and the two commit together.
const DefaultPipelineDepth = 2

func (e *Engine) alwaysOverlap() bool {
	return e.opts.AlwaysOverlap != nil && e.opts.AlwaysOverlap()
}

func (e *Engine) pipelineDepth() int {
	if e.opts.PipelineDepth == nil {
		return DefaultPipelineDepth
	}
	return max(e.opts.PipelineDepth(), 1)
}

// Engine is the set of schemas of one node.
type Engine struct {
	opts    Options
	log     *slog.Logger
	ddlMu   sync.Mutex // serialises CREATE/DROP DATABASE and resets
	mu      sync.RWMutex
	schemas map[string]*Schema
	scratch readPool // for statements that name no schema
	failed  atomic.Bool
	once    sync.Once
	claims  claims
	locks   waitGraph
	visible visibleSet
	commits commitCounters
	// txnStats counts what interleaved transactions did (TxnStats).
	txnStats txnCounters
	// execJobs keeps the jobs of autocommit statements for reuse (Exec).
	execJobs sync.Pool
}

// Open opens every schema file in opts.Dir, re-applies binary-log transactions that a
// schema has not recorded (crash recovery), and starts the writers.
func Open(opts Options) (*Engine, error) {
	if opts.MaxGroup <= 0 {
		opts.MaxGroup = 8192
	}
	if opts.RunHold <= 0 {
		opts.RunHold = 250 * time.Millisecond
	}
	if opts.ReadersPerSchema <= 0 {
		opts.ReadersPerSchema = 8
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if err := checkRowCapture(); err != nil {
		return nil, err
	}
	e := &Engine{opts: opts, log: opts.Logger, schemas: map[string]*Schema{}}
	e.scratch = newReadPool(":memory:", 64, opts.Functions)
	e.scratch.free = sync.NewCond(&e.scratch.mu)
	if err := removeUnloggedSchemas(opts.Dir, e.log); err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(opts.Dir, "*.sqlite"))
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sqlite")
		if CheckSchemaName(name) != nil {
			continue
		}
		s, err := e.openSchema(name)
		if err != nil {
			e.closeAll()
			return nil, err
		}
		e.schemas[name] = s
	}
	if err := e.recover(); err != nil {
		e.closeAll()
		return nil, err
	}
	// After recovery every transaction of the log is in storage.
	e.visible.reset(opts.Log.Executed())
	for _, s := range e.schemas {
		s.start()
	}
	return e, nil
}

func (e *Engine) closeAll() {
	for _, s := range e.schemas {
		s.w.close()
		s.closeReaders()
	}
}

// Close flushes and stops every writer and closes all connections.
func (e *Engine) Close() error {
	e.mu.Lock()
	schemas := e.schemas
	e.schemas = map[string]*Schema{}
	e.mu.Unlock()
	// Schemas stop at once: closing a connection costs time in proportion to every
	// connection's registered functions (the driver scans one process-wide table of
	// them), so a node with many schemas took minutes to stop one after another
	// under the race detector.
	errs := make([]error, len(schemas))
	var wg sync.WaitGroup
	i := 0
	for _, s := range schemas {
		wg.Add(1)
		go func(i int, s *Schema) {
			defer wg.Done()
			errs[i] = s.stop()
		}(i, s)
		i++
	}
	wg.Wait()
	e.scratch.closeReaders()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) fatal(err error) {
	e.failed.Store(true)
	e.log.Error("fatal storage error; node must stop and recover from the binary log", "err", err)
	e.once.Do(func() {
		if e.opts.OnFatal != nil {
			go e.opts.OnFatal(err)
		}
	})
}

func (e *Engine) translateDDL(schema, sql string, tableDef func(table string) *mysqlcatalog.Table) ([]string, error) {
	if e.opts.TranslateDDL == nil {
		return nil, fmt.Errorf("engine: no DDL translator configured")
	}
	return e.opts.TranslateDDL(schema, sql, tableDef)
}

func (e *Engine) schema(name string) (*Schema, error) {
	if name == "" {
		return nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	e.mu.RLock()
	s := e.schemas[name]
	e.mu.RUnlock()
	if s == nil {
		return nil, unknownDB(name)
	}
	return s, nil
}

// Schema returns a schema by name (ER_BAD_DB_ERROR if missing).
func (e *Engine) Schema(name string) (*Schema, error) { return e.schema(name) }

// HasSchema reports whether a schema exists.
func (e *Engine) HasSchema(name string) bool {
	_, err := e.schema(name)
	return err == nil
}

// Schemas lists schema names in order.
func (e *Engine) Schemas() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]string, 0, len(e.schemas))
	for n := range e.schemas {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// AutoIncColumn returns the AUTO_INCREMENT column of a table, if any.
func (e *Engine) AutoIncColumn(schema, table string) (string, bool) {
	s, err := e.schema(schema)
	if err != nil {
		return "", false
	}
	t := s.Table(table)
	if t == nil || t.AutoInc == "" {
		return "", false
	}
	return t.AutoInc, true
}

// Columns returns a table's column names in order (nil if unknown).
func (e *Engine) Columns(schema, table string) []string {
	s, err := e.schema(schema)
	if err != nil {
		return nil
	}
	if t := s.Table(table); t != nil {
		return t.all
	}
	return nil
}

func schemaDDL(verb, name string) string { return verb + " DATABASE `" + name + "`" }

// schemaDDLName recognises the canonical CREATE/DROP DATABASE text binlite logs.
func schemaDDLName(sql string) (verb, name string, ok bool) {
	for _, v := range []string{"CREATE", "DROP"} {
		p := v + " DATABASE `"
		if strings.HasPrefix(sql, p) && strings.HasSuffix(sql, "`") {
			return v, sql[len(p) : len(sql)-1], true
		}
	}
	return "", "", false
}

// SchemaDDL reports whether sql is CREATE or DROP DATABASE (verb, schema name).
func SchemaDDL(sql string) (verb, name string, ok bool) { return schemaDDLName(sql) }

// CreateSchema creates a schema: logged first, then the file is made.
func (e *Engine) CreateSchema(name string, ifNotExists bool) error {
	return e.createSchema(name, ifNotExists, nil)
}

// DropSchema drops a schema.
func (e *Engine) DropSchema(name string, ifExists bool) error {
	return e.dropSchema(name, ifExists, nil)
}

// logSchemaDDL writes CREATE/DROP DATABASE to the binary log; repl carries a source's
// GTID when a replica applies it.
func (e *Engine) logSchemaDDL(verb, name string, repl *binlog.Transaction) (*binlog.Transaction, error) {
	tx := &binlog.Transaction{Schemas: []string{name}, Events: []binlog.Event{&binlog.QueryEvent{Schema: name, SQL: schemaDDL(verb, name)}}}
	if repl != nil {
		tx.GTID, tx.OriginalCommitUS, tx.ServerID = repl.GTID, repl.OriginalCommitUS, repl.ServerID
	}
	if err := e.opts.Log.Commit([]*binlog.Transaction{tx}); err != nil {
		if errors.Is(err, binlog.ErrDuplicateGTID) {
			return nil, err
		}
		e.fatal(err)
		return nil, mysqlerr.New(mysqlerr.ErErrorOnWrite, "Error writing binary log: %v", err)
	}
	e.afterSync([]*binlog.Transaction{tx})
	e.afterCommit([]*binlog.Transaction{tx})
	return tx, nil
}

// afterSync and afterCommit run the semi-sync hooks for a group of transactions that
// Log.Commit wrote together (they share the group's end position).
func (e *Engine) afterSync(txs []*binlog.Transaction) {
	if e.opts.AfterSync != nil && len(txs) > 0 {
		last := txs[len(txs)-1]
		e.opts.AfterSync(len(txs), last.File, last.EndPos)
	}
}

func (e *Engine) afterCommit(txs []*binlog.Transaction) {
	if e.opts.AfterCommit != nil && len(txs) > 0 {
		last := txs[len(txs)-1]
		e.opts.AfterCommit(len(txs), last.File, last.EndPos)
	}
}

func (e *Engine) createSchema(name string, ifNotExists bool, repl *binlog.Transaction) error {
	if err := CheckSchemaName(name); err != nil {
		return err
	}
	if e.failed.Load() {
		return mysqlerr.New(mysqlerr.ErServerShutdown, "Server shutdown in progress")
	}
	e.ddlMu.Lock()
	defer e.ddlMu.Unlock()
	if e.HasSchema(name) {
		if ifNotExists {
			return nil
		}
		return mysqlerr.New(mysqlerr.ErDBCreateExists, "Can't create database '%s'; database exists", name)
	}
	// The file first, then the log (see prepareSchemaFile).
	s, err := e.prepareSchemaFile(name)
	if err != nil {
		return err
	}
	tx, err := e.logSchemaDDL("CREATE", name, repl)
	if err != nil {
		e.discardSchemaFile(s)
		return err
	}
	e.creationLogged(name)
	if err := s.w.begin(); err != nil {
		e.fatal(err)
		return err
	}
	if err := s.w.commitWith([]*binlog.Transaction{tx}); err != nil {
		e.fatal(err)
		return err
	}
	s.start()
	e.mu.Lock()
	e.schemas[name] = s
	e.mu.Unlock()
	e.visible.add([]*binlog.Transaction{tx})
	return nil
}

func (e *Engine) createSchemaFile(name string, tx *binlog.Transaction) (*Schema, error) {
	s, err := e.openSchema(name)
	if err != nil {
		return nil, err
	}
	if tx == nil {
		return s, nil
	}
	if err := s.w.begin(); err != nil {
		return nil, err
	}
	if err := s.w.commitWith([]*binlog.Transaction{tx}); err != nil {
		return nil, err
	}
	return s, nil
}

// CreateSystemSchema creates a schema that is not replicated (MySQL's `mysql`
// schema, made at initialisation on every node) and runs its DDL, unlogged.
func (e *Engine) CreateSystemSchema(name string, ddl []string) error {
	e.ddlMu.Lock()
	defer e.ddlMu.Unlock()
	s, err := e.schema(name)
	if err != nil {
		if s, err = e.createSchemaFile(name, nil); err != nil {
			return err
		}
		s.start()
		e.mu.Lock()
		e.schemas[name] = s
		e.mu.Unlock()
	}
	o := s.w.submit(&job{kind: jobCall, call: func(c *sqliteConn) error {
		for _, q := range ddl {
			if _, err := c.exec(q); err != nil {
				return fmt.Errorf("engine: system schema %s: %w", name, err)
			}
		}
		return s.w.reloadCatalog()
	}}, 0)
	return o.err
}

// dropSchema drops a schema. Its writer is flushed and stopped first so that every
// earlier write precedes the DROP in the binary log.
func (e *Engine) dropSchema(name string, ifExists bool, repl *binlog.Transaction) error {
	e.ddlMu.Lock()
	defer e.ddlMu.Unlock()
	e.mu.Lock()
	s := e.schemas[name]
	if s == nil {
		e.mu.Unlock()
		if ifExists {
			if repl != nil {
				// Keep the source's GTID even though there was nothing to drop here.
				tx, err := e.logSchemaDDL("DROP", name, repl)
				if err == nil {
					e.visible.add([]*binlog.Transaction{tx})
				}
				return err
			}
			return nil
		}
		return mysqlerr.New(mysqlerr.ErDBDropExists, "Can't drop database '%s'; database doesn't exist", name)
	}
	delete(e.schemas, name)
	e.mu.Unlock()
	if err := s.stop(); err != nil {
		e.log.Warn("closing schema before drop", "schema", name, "err", err)
	}
	tx, err := e.logSchemaDDL("DROP", name, repl)
	if err != nil {
		return err
	}
	err = removeSchemaFiles(s.path)
	e.visible.add([]*binlog.Transaction{tx})
	return err
}

// Exec runs an autocommit write through the schema's group commit. wait bounds the
// time spent queued behind explicit transactions (innodb_lock_wait_timeout).
func (e *Engine) Exec(db string, st Stmt, wait time.Duration) (Result, error) {
	if e.failed.Load() {
		return Result{}, mysqlerr.New(mysqlerr.ErServerShutdown, "Server shutdown in progress")
	}
	s, err := e.schema(db)
	if err != nil {
		return Result{}, err
	}
	if st.Unlogged {
		o := s.w.submit(&job{kind: jobUnlogged, stmt: st}, wait)
		return o.res, o.err
	}
	j, _ := e.execJobs.Get().(*job)
	if j == nil {
		j = &job{kind: jobExec}
	}
	j.stmt = st
	o, inline := s.w.tryInline(j)
	if !inline {
		o = s.w.submit(j, wait)
	}
	if j.reusable() {
		// A statement per client round trip: its job, answer channel and wait timer
		// are reused rather than allocated each time.
		j.stmt = Stmt{}
		j.state.Store(jobPending)
		e.execJobs.Put(j)
	}
	return o.res, o.err
}

// Apply applies a replicated transaction that touches exactly one schema, keeping its
// GTID; it shares the schema's group commit with everything else.
func (e *Engine) Apply(tx *binlog.Transaction) (Result, error) {
	if len(tx.Schemas) != 1 {
		return Result{}, fmt.Errorf("engine: apply %s: touches %d schemas", tx.GTID, len(tx.Schemas))
	}
	s, err := e.schema(tx.Schemas[0])
	if err != nil {
		return Result{}, err
	}
	o := s.w.submit(&job{kind: jobApply, apply: tx}, 0)
	return o.res, o.err
}

// Query runs a read on the schema's read pool (db "" = no schema), attaching the other
// schemas the statement names.
func (e *Engine) Query(db string, attach []string, sql string, args []any) (*Rows, error) {
	return e.QueryGuarded(db, attach, sql, args, nil)
}

// QueryGuarded is Query with g (nil: none) checked in the same read transaction.
func (e *Engine) QueryGuarded(db string, attach []string, sql string, args []any, g *Guard) (*Rows, error) {
	cur, err := e.QueryCursor(db, attach, sql, args, g)
	if err != nil {
		return nil, err
	}
	return cur.All()
}

// QueryCursor is QueryGuarded read row by row: the cursor keeps a read connection
// of the schema's pool until it ends.
func (e *Engine) QueryCursor(db string, attach []string, sql string, args []any, g *Guard) (*Cursor, error) {
	pool := &e.scratch
	if db != "" {
		s, err := e.schema(db)
		if err != nil {
			return nil, err
		}
		pool = &s.readPool
	}
	c, err := pool.getReader()
	if err != nil {
		return nil, err
	}
	if err := e.attach(c, db, attach); err != nil {
		pool.putReader(c)
		return nil, err
	}
	cur, err := e.guardedCursor(c.sqliteConn, g, sql, args, db)
	if err != nil {
		pool.putReader(c)
		return nil, err
	}
	cur.pool, cur.rc = pool, c
	return cur, nil
}

// maxAttached is SQLite's compile-time limit on attached databases per connection.
const maxAttached = 10

// attach makes the other schemas a query names readable on a pooled read connection.
// Connections keep what they attached; when a query needs room, older ones go.
func (e *Engine) attach(c *readConn, db string, names []string) error {
	var need []string
	for _, a := range names {
		if a != db && !c.attached[a] && !slices.Contains(need, a) {
			need = append(need, a)
		}
	}
	if len(need) == 0 {
		return nil
	}
	if len(need) > maxAttached {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a query naming more than %d other databases'", maxAttached)
	}
	if len(c.attached)+len(need) > maxAttached {
		for a := range c.attached {
			if slices.Contains(names, a) {
				continue
			}
			if _, err := c.exec(`DETACH DATABASE ` + quoteIdent(a)); err != nil {
				return translateError(err, db)
			}
			delete(c.attached, a)
		}
	}
	for _, a := range need {
		other, err := e.schema(a)
		if err != nil {
			return err
		}
		if _, err := c.exec(`ATTACH DATABASE ? AS `+quoteIdent(a), "file:"+other.path+"?mode=ro"); err != nil {
			return translateError(err, db)
		}
		c.attached[a] = true
	}
	return nil
}

// ResetGTIDs clears every schema's applied-GTID record (RESET BINARY LOGS AND GTIDS);
// the caller resets the binary log in the same critical section.
func (e *Engine) ResetGTIDs(resetLog func() error) error {
	e.ddlMu.Lock()
	defer e.ddlMu.Unlock()
	marker := filepath.Join(e.opts.Dir, "reset-in-progress")
	if err := writeMarker(marker); err != nil {
		return err
	}
	for _, name := range e.Schemas() {
		s, err := e.schema(name)
		if err != nil {
			continue
		}
		o := s.w.submit(&job{kind: jobCall, call: clearApplied}, 0)
		if o.err != nil {
			return o.err
		}
	}
	if err := resetLog(); err != nil {
		return err
	}
	e.visible.reset(gtid.Set{})
	return os.Remove(marker)
}

// AddPurged adds set to gtid_executed and gtid_purged (SET GLOBAL gtid_purged): the
// binary log records it durably, and it is visible at once. No schema records it
// in its applied GTIDs: those hold what the schema's writer applied, and recovery
// compares them with binary log transactions only, which set is not among.
func (e *Engine) AddPurged(set gtid.Set) error {
	e.ddlMu.Lock()
	defer e.ddlMu.Unlock()
	if err := e.opts.Log.AddPurged(set); err != nil {
		return err
	}
	e.visible.union(set)
	return nil
}

func clearApplied(c *sqliteConn) error {
	_, err := c.exec(`DELETE FROM ` + appliedTable)
	return err
}

func writeMarker(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("engine: %w", err)
	}
	return f.Close()
}
