package session

import (
	"crypto/tls"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/sysvar"
	"github.com/binlite/binlite/users"
)

// Session is one client connection. It is driven by a single goroutine (the
// protocol layer's), except process(), which SHOW PROCESSLIST calls from others.
type Session struct {
	env      *Env
	id       uint32
	user     string
	host     string
	super    bool // SUPER or CONNECTION_ADMIN: writes despite read_only
	account  *users.Account
	priv     privileges // privilege.go
	db       string
	vars     *sysvar.Vars
	userVars map[string]any
	// txnReadOnly: the open transaction (txn) is READ ONLY.
	txnReadOnly bool
	// nextTxn: what SET TRANSACTION without GLOBAL or SESSION set for the next
	// transaction only (see nexttxn.go).
	nextTxn nextTxn
	// locks holds the writers of the schemas LOCK TABLES (lockedTables) or FLUSH
	// TABLES WITH READ LOCK (lockedAll) locked, until UNLOCK TABLES (locktables.go).
	locks        *engine.Txn
	lockedAll    bool
	lockedTables []sqlcompat.LockedTable
	txn          *engine.Txn // open transaction (BEGIN, or implicit with autocommit=0)
	lastID       uint64
	rowCount     int64
	since        time.Time
	// warnings is the diagnostics area of the last statement (SHOW WARNINGS,
	// @@warning_count); notes collects what the running statement adds to it.
	warnings []mysqlerr.Warning
	notes    []mysqlerr.Warning
	// compile holds the variables statements are compiled for (see compileVars).
	compile compileVars
	// queryNotes are the running data statement's notes about its literals.
	queryNotes []mysqlerr.Warning
	// lostWarnings counts the statement's warnings beyond those the engine kept.
	lostWarnings int
	// temps are the session's temporary tables (temptables.go).
	temps tempTables
	// timeouts caches the network timeouts (see Timeouts).
	timeouts netTimeouts

	// tls is the connection's TLS state (nil over plain TCP), for Ssl_cipher.
	tls *tls.ConnectionState

	mu   sync.Mutex // guards info for SHOW PROCESSLIST
	info string
	// dumping is the Command of a connection serving a binary log dump.
	dumping string
}

var _ mysqlproto.Handler = (*Session)(nil)

// New starts a session for an authenticated connection.
func New(env *Env, ci *mysqlproto.ConnInfo) *Session {
	s := &Session{
		env:      env,
		id:       ci.ID,
		user:     ci.User,
		host:     ci.Host,
		account:  &users.Account{User: ci.User, Host: ci.Host},
		vars:     env.Vars.NewSession(),
		userVars: map[string]any{},
		since:    time.Now(),
		tls:      ci.TLS,
	}
	if env.Users != nil {
		if a, ok := env.Users.Find(ci.User, ci.Host); ok {
			s.account = a
		}
	}
	if ci.User == "root" && env.Users == nil {
		s.account.Privileges = []string{"ALL"}
	}
	s.priv = newPrivileges(s.account)
	s.super = s.hasGlobal(users.Super, users.ConnectionAdmin)
	startTimeouts(s.vars, ci.Capabilities&mysqlproto.ClientInteractive != 0)
	env.Stats.Connections.Add(1)
	env.List.add(s)
	return s
}

func (s *Session) process() ProcessInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	cmd := "Sleep"
	if s.info != "" {
		cmd = "Query"
	}
	if s.dumping != "" {
		// A replica's dump connection, as MySQL lists it (orchestrator finds
		// replicas by this Command).
		return ProcessInfo{ID: s.id, User: s.user, Host: s.host, DB: s.db, Command: s.dumping,
			State: "Source has sent all binlog to replica; waiting for more updates", Since: s.since}
	}
	return ProcessInfo{ID: s.id, User: s.user, Host: s.host, DB: s.db, Command: cmd, Info: s.info, Since: s.since}
}

// setDumping marks the connection as serving a binary log dump (command is
// "Binlog Dump" or "Binlog Dump GTID").
func (s *Session) setDumping(command string) {
	s.mu.Lock()
	s.dumping = command
	s.since = time.Now()
	s.mu.Unlock()
}

func (s *Session) setInfo(q string) {
	s.mu.Lock()
	s.info = q
	s.since = time.Now()
	s.mu.Unlock()
}

// Close rolls back an open transaction and drops the temporary tables.
func (s *Session) Close() {
	if s.txn != nil {
		s.txn.Rollback()
		s.txn = nil
		s.nextTxn = nextTxn{}
	}
	s.unlockTables()
	s.temps.close()
	s.env.List.remove(s)
	if s.env.Source != nil {
		s.env.Source.Unregister(s.id)
	}
}

// Status reports autocommit and whether a transaction is open.
func (s *Session) Status() (autocommit, inTxn bool) {
	return s.compileVars().autocommit, s.txn != nil
}

// UseDB handles COM_INIT_DB.
func (s *Session) UseDB(db string) error {
	if err := s.useAllowed(db); err != nil {
		return err
	}
	if !s.env.Engine.HasSchema(db) && !isVirtualSchema(db) {
		return mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	s.db = db
	return nil
}

// Query runs COM_QUERY text, statement by statement when multi-statements are on;
// each result is sent (its rows streamed) before the next statement runs.
func (s *Session) Query(sql string, multi bool, send func(*mysqlproto.Result, bool) error) error {
	sql = s.respell(sql)
	stmts := []string{sql}
	if multi {
		stmts = sqlcompat.Split(sql)
		if len(stmts) == 0 {
			stmts = []string{sql}
		}
	}
	read := s.compileVars().read
	for i, text := range stmts {
		if i > 0 && s.compileVars().read != read {
			// The rest was split and respelled by the sql_mode before the change.
			s.env.Stats.Errors.Add(1)
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'statements after a change of ANSI_QUOTES, NO_BACKSLASH_ESCAPES or REAL_AS_FLOAT in one multi-statement query'")
		}
		s.env.Stats.Questions.Add(1)
		s.setInfo(text)
		res, err := s.run(text, nil, nil)
		if err == nil {
			err = send(res, i < len(stmts)-1)
		} else {
			s.env.Stats.Errors.Add(1)
		}
		s.setInfo("")
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) parseCtx() *sqlcompat.Context {
	ctx := &sqlcompat.Context{
		DB:               s.db,
		DefaultCollation: s.env.Vars.String("collation_server"),
		SysVar: func(name string, global bool) (any, bool) {
			switch name {
			case "warning_count":
				return int64(s.warningCount()), true
			case "error_count":
				n := 0
				for _, w := range s.warnings {
					if w.Level == "Error" {
						n++
					}
				}
				return int64(n), true
			}
			v, err := s.vars.Get(name, global)
			if err != nil {
				return nil, false
			}
			return v, true
		},
		UserVar: func(name string) any {
			if _, typedNull := s.userVars[strings.ToLower(name)].(compiler.TypedNull); typedNull {
				return nil // sqlcompat reads values only
			}
			return s.userVars[strings.ToLower(name)]
		},
		AutoInc:  s.env.Engine.AutoIncColumn,
		Columns:  s.env.Engine.Columns,
		TableDef: engineCatalog{s.env.Engine}.tableDef,
		TableExists: func(schema, table string) bool {
			_, ok := engineCatalog{s.env.Engine}.Table(schema, table)
			return ok
		},
		Func:      s.function,
		User:      s.user,
		Host:      s.hostPattern(),
		SQLMode:   s.sessionVar("sql_mode"),
		Collation: strings.ToLower(s.sessionVar("collation_connection")),
	}
	if len(s.temps.defs) > 0 {
		s.withTemps(ctx)
	}
	return ctx
}

// function answers the connection functions sqlcompat replaces with literals.
func (s *Session) function(name string) (any, bool) {
	switch name {
	case "DATABASE", "SCHEMA":
		if s.db == "" {
			return nil, true
		}
		return s.db, true
	case "LAST_INSERT_ID":
		return int64(s.lastID), true
	case "CONNECTION_ID":
		return int64(s.id), true
	case "VERSION":
		return s.env.Version, true
	case "USER", "SESSION_USER", "SYSTEM_USER":
		return s.user + "@" + s.host, true
	case "CURRENT_USER":
		return s.user + "@" + s.hostPattern(), true
	case "ROW_COUNT":
		return s.rowCount, true
	case "FOUND_ROWS":
		return int64(0), true
	}
	return nil, false
}

func (s *Session) hostPattern() string {
	if s.user == "root" {
		return "localhost"
	}
	return "%"
}

// run parses and executes one statement. stmt is non-nil for prepared executions.
// It keeps the statement's diagnostics area: its warnings and notes, or its error;
// SHOW WARNINGS and SHOW ERRORS read the previous statement's and leave it.
func (s *Session) run(text string, st sqlcompat.Statement, args []any) (*mysqlproto.Result, error) {
	if st == nil {
		var err error
		// A data statement the compiler compiles needs nothing of sqlcompat's
		// translation, which costs as much again as the compile.
		if ptext, q, pargs, ok := s.textParams(text); ok {
			text, st, args = ptext, q, pargs
		} else if q, ok, cerr := s.compiledOnly(text); ok {
			st, err = q, cerr
		} else {
			st, err = sqlcompat.Parse(text, s.parseCtx())
		}
		if err != nil {
			s.warnings, s.lostWarnings = []mysqlerr.Warning{errorEntry(err)}, 0
			return nil, err
		}
	}
	if sh, ok := st.(*sqlcompat.Show); ok && (sh.Kind == sqlcompat.ShowWarnings || sh.Kind == sqlcompat.ShowErrors) {
		return s.execute(text, st, args)
	}
	s.notes, s.lostWarnings = s.notes[:0], 0
	res, err := s.execute(text, st, args)
	if err != nil {
		s.warnings, s.lostWarnings = []mysqlerr.Warning{errorEntry(err)}, 0
		return nil, err
	}
	var parsed []mysqlerr.Warning
	switch x := st.(type) {
	case *sqlcompat.Query:
		parsed = s.queryNotes
	case *sqlcompat.DDL:
		parsed = x.Warnings
	}
	s.warnings = append(append([]mysqlerr.Warning(nil), parsed...), s.notes...)
	if res != nil {
		res.Warnings = uint16(min(s.warningCount(), 65535))
	}
	return res, nil
}

// errorEntry is an error as SHOW WARNINGS lists it.
func errorEntry(err error) mysqlerr.Warning {
	me := mysqlerr.From(err)
	return mysqlerr.Warning{Level: "Error", Code: me.Code, Message: me.Message}
}

// execute runs one parsed statement.
func (s *Session) execute(text string, st sqlcompat.Statement, args []any) (*mysqlproto.Result, error) {
	if err := s.authorize(text, st); err != nil {
		return nil, err
	}
	if _, isQuery := st.(*sqlcompat.Query); !isQuery {
		if err := s.modeGuard(text); err != nil {
			return nil, err
		}
	}
	switch x := st.(type) {
	case *sqlcompat.Query:
		q, db, err := s.resolve(text, x)
		if err != nil {
			return nil, err
		}
		compiled := false
		if q, compiled, err = s.compiled(text, q, db); err != nil {
			return nil, err
		}
		s.queryNotes = q.Warnings
		if s.namesTemp(q, db) {
			return s.tempQuery(text, q, db, args)
		}
		// An INSERT's text alone may be refused (1364, 1048); an UPDATE's plan
		// matters only for its parameters.
		if q.Kind == sqlcompat.Insert || q.Kind == sqlcompat.Replace || q.Kind == sqlcompat.Update && len(args) > 0 {
			// The values of a VALUES list are converted as their literals are.
			var done []bool
			if q.StoreParams != nil && len(args) > 0 {
				var notes []mysqlerr.Warning
				if args, done, notes, err = q.StoreParams(args); err != nil {
					return nil, err
				}
				if len(notes) > 0 {
					s.queryNotes = append(q.Warnings[:len(q.Warnings):len(q.Warnings)], notes...)
				}
			}
			if args, err = s.typeParams(text, q, compiled, args, done); err != nil {
				return nil, err
			}
		}
		res, err := s.query(q, db, args, s.uint64Guard(text, q, db, compiled))
		if len(q.Tables) > 0 && !mysqlerr.Is(err, mysqlerr.ErReadOnlyTransaction) {
			s.endStatementTxn() // a statement reading no table, or refused before it began, is no transaction
		}
		if err == nil && res.Columns != nil && q.Kind == sqlcompat.Select {
			s.typeResult(text, res)
		}
		return res, err
	case *sqlcompat.DDL:
		return s.ddl(x)
	case *sqlcompat.Begin:
		if err := s.implicitCommit(); err != nil {
			return nil, err
		}
		s.beginTxn()
		s.txnReadOnly = x.ReadOnly || s.readOnlyNext()
		if x.ConsistentSnapshot && s.txn.Snapshots {
			if err := s.txn.SnapshotAll(); err != nil {
				return nil, err
			}
		}
		return ok(), nil
	case *sqlcompat.Commit:
		return ok(), s.commit()
	case *sqlcompat.Rollback:
		s.rollback()
		return ok(), nil
	case *sqlcompat.Savepoint:
		s.ensureTxn()
		if s.txn == nil {
			return ok(), nil
		}
		return ok(), s.txn.Savepoint(x.Name)
	case *sqlcompat.RollbackTo:
		if s.txn == nil {
			return nil, mysqlerr.New(mysqlerr.ErSavepointDoesNotExist, "SAVEPOINT %s does not exist", x.Name)
		}
		return ok(), s.txn.RollbackTo(x.Name)
	case *sqlcompat.Release:
		if s.txn == nil {
			return nil, mysqlerr.New(mysqlerr.ErSavepointDoesNotExist, "SAVEPOINT %s does not exist", x.Name)
		}
		return ok(), s.txn.Release(x.Name)
	case *sqlcompat.Use:
		return ok(), s.UseDB(x.DB)
	case *sqlcompat.CreateDatabase:
		if err := s.writable(); err != nil {
			return nil, err
		}
		if err := s.unloggedRefusal("CREATE DATABASE"); err != nil {
			return nil, err
		}
		if err := s.implicitCommit(); err != nil {
			return nil, err
		}
		if err := s.env.Engine.CreateSchema(x.Name, x.IfNotExists); err != nil {
			return nil, err
		}
		return &mysqlproto.Result{AffectedRows: 1}, nil
	case *sqlcompat.DropDatabase:
		if err := s.writable(); err != nil {
			return nil, err
		}
		if err := s.unloggedRefusal("DROP DATABASE"); err != nil {
			return nil, err
		}
		if err := s.implicitCommit(); err != nil {
			return nil, err
		}
		s.temps.dropSchema(x.Name) // MySQL keeps them; their file is about to go
		if err := s.env.Engine.DropSchema(x.Name, x.IfExists); err != nil {
			return nil, err
		}
		if s.db == x.Name {
			s.db = ""
		}
		return ok(), nil
	case *sqlcompat.Set:
		s.compile.known = false // read again: the SET may change them
		s.timeouts.known = false
		err := s.set(x)
		s.compile.known = false // a user variable's value compiled with them midway
		return ok(), err
	case *sqlcompat.Show:
		return s.show(x)
	case *sqlcompat.FlushBinaryLogs:
		if err := s.env.Log.Flush(); err != nil {
			return nil, fmt.Errorf("FLUSH BINARY LOGS: %w", err)
		}
		return ok(), nil
	case *sqlcompat.FlushOther:
		return ok(), nil
	case *sqlcompat.LockTables:
		return ok(), s.lockTables(x)
	case *sqlcompat.UnlockTables:
		s.unlockTables()
		return ok(), nil
	case *sqlcompat.PurgeBinaryLogs:
		return ok(), s.purge(x)
	case *sqlcompat.ResetBinaryLogs:
		return ok(), s.env.Engine.ResetGTIDs(s.env.Log.Reset)
	case *sqlcompat.ChangeSource:
		return ok(), s.env.Replicas.Change(x.Channel, x.Options)
	case *sqlcompat.ChangeFilter:
		return ok(), s.env.Replicas.ChangeFilter(x.Channel, x.Named, x.Filters)
	case *sqlcompat.StartReplica:
		return ok(), s.env.Replicas.Start(x.Channel, x.Named, x.IOThread, x.SQLThread)
	case *sqlcompat.StopReplica:
		return ok(), s.env.Replicas.Stop(x.Channel, x.Named, x.IOThread, x.SQLThread)
	case *sqlcompat.ResetReplica:
		return ok(), s.env.Replicas.Reset(x.Channel, x.Named, x.All)
	case *sqlcompat.CreateUser, *sqlcompat.DropUser, *sqlcompat.AlterUser, *sqlcompat.Grant, *sqlcompat.Revoke:
		return s.accountStmt(st)
	case *sqlcompat.Unsupported:
		return nil, x.Err()
	}
	return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s'", firstWords(text))
}

func firstWords(sql string) string {
	f := strings.Fields(sql)
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ")
}

func ok() *mysqlproto.Result { return &mysqlproto.Result{} }

func (s *Session) lockWait() time.Duration {
	return time.Duration(s.vars.Int("innodb_lock_wait_timeout")) * time.Second
}

// writable enforces read_only / super_read_only (invariant 4).
func (s *Session) writable() error {
	if s.env.Vars.Int("super_read_only") != 0 {
		return mysqlerr.New(mysqlerr.ErOptionPreventsStmt, "The MySQL server is running with the --super-read-only option so it cannot execute this statement")
	}
	if s.env.Vars.Int("read_only") != 0 && !s.super {
		return mysqlerr.New(mysqlerr.ErOptionPreventsStmt, "The MySQL server is running with the --read-only option so it cannot execute this statement")
	}
	return nil
}

// ensureTxn opens the implicit transaction of autocommit=0.
func (s *Session) ensureTxn() {
	if s.txn == nil && !s.compileVars().autocommit {
		s.beginTxn()
		s.txnReadOnly = s.readOnlyNext()
	}
}

// beginTxn opens the session's transaction at its isolation level: REPEATABLE
// READ and SERIALIZABLE read one snapshot (engine.Txn.Snapshots), READ COMMITTED
// and READ UNCOMMITTED the latest committed rows at each statement.
func (s *Session) beginTxn() {
	s.txn = s.env.Engine.Begin(s.lockWait())
	iso := s.isolationNext()
	s.txn.Snapshots = !strings.EqualFold(iso, "READ-COMMITTED") && !strings.EqualFold(iso, "READ-UNCOMMITTED")
}

// readOnlyRefusal is MySQL's error for a write in a READ ONLY transaction (START
// TRANSACTION READ ONLY, or transaction_read_only for the session's transactions,
// autocommitted statements included); nil when the write may run.
func (s *Session) readOnlyRefusal() error {
	if s.txn != nil && s.txnReadOnly || s.txn == nil && s.readOnlyNext() {
		return mysqlerr.New(mysqlerr.ErReadOnlyTransaction, "Cannot execute statement in a READ ONLY transaction.")
	}
	return nil
}

func (s *Session) commit() error {
	if s.txn == nil {
		return nil
	}
	t := s.txn
	s.txn = nil
	s.nextTxn = nextTxn{}
	res, err := t.Commit()
	if err != nil {
		return err
	}
	if res.GTID.Seq != 0 {
		s.env.Stats.Commits.Add(1)
	}
	return nil
}

func (s *Session) rollback() {
	if s.txn != nil {
		s.txn.Rollback()
		s.txn = nil
		s.env.Stats.Rollbacks.Add(1)
	}
}

// implicitCommit commits an open transaction before DDL and BEGIN, as MySQL does.
func (s *Session) implicitCommit() error {
	return s.commit()
}
