package sqlcompat

import (
	"fmt"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Context supplies what translation needs from the session and the engine.
// Every field may be nil.
type Context struct {
	DB string // current database ('' = none)
	// DefaultCollation is what a new table without its own character set or
	// collation gets (the server's collation_server; "" is MySQL 8.4's default).
	DefaultCollation string
	// SysVar returns the value of @@name (global scope when global is set);
	// ok=false makes Parse fail with 1193 Unknown system variable.
	SysVar func(name string, global bool) (any, bool)
	// UserVar returns the value of @name, nil if unset.
	UserVar func(name string) any
	// AutoInc returns the AUTO_INCREMENT column of schema.table, if any.
	AutoInc func(schema, table string) (column string, ok bool)
	// Columns returns a table's columns in order (for INSERT without a column list).
	Columns func(schema, table string) []string
	// TableDef returns a table's MySQL definition (nil if unknown), so that a
	// literal written into a column is stored as MySQL stores it (see
	// catalog.Type.StoreText).
	TableDef func(schema, table string) *catalog.Table
	// TableExists reports whether schema.table exists (CREATE TABLE ... LIKE of a
	// table without a definition: 1146 or 1235).
	TableExists func(schema, table string) bool
	// User and Host are the session's account, a DEFINER's default
	// (root@localhost when empty).
	User, Host string
	// SQLMode is the session's sql_mode, under which a trigger's body is
	// compiled (a replayed CREATE TRIGGER carries its own: viewtrigger.go).
	SQLMode string
	// Collation is the connection's collation (@@collation_connection).
	Collation string
	// Func returns the value of a zero-argument connection function named in
	// upper case (DATABASE, LAST_INSERT_ID, CONNECTION_ID, VERSION, USER,
	// CURRENT_USER, ROW_COUNT, FOUND_ROWS); ok=false leaves the call to SQLite.
	Func func(name string) (any, bool)
}

// Statement is a parsed MySQL statement; its dynamic type says what it is.
type Statement interface{ statement() }

// Transactions.
type (
	// Begin is BEGIN [WORK] or START TRANSACTION [modifiers].
	Begin struct{ ReadOnly, ConsistentSnapshot bool }
	// Commit is COMMIT [WORK].
	Commit struct{}
	// Rollback is ROLLBACK [WORK].
	Rollback struct{}
	// Savepoint is SAVEPOINT name.
	Savepoint struct{ Name string }
	// RollbackTo is ROLLBACK [WORK] TO [SAVEPOINT] name.
	RollbackTo struct{ Name string }
	// Release is RELEASE SAVEPOINT name.
	Release struct{ Name string }
)

// Databases.
type (
	// Use is USE db.
	Use struct{ DB string }
	// CreateDatabase is CREATE DATABASE|SCHEMA; charset options are ignored.
	CreateDatabase struct {
		Name        string
		IfNotExists bool
	}
	// DropDatabase is DROP DATABASE|SCHEMA.
	DropDatabase struct {
		Name     string
		IfExists bool
	}
)

// SetKind says what a SET item assigns.
type SetKind int

// SET item kinds.
const (
	SetSession     SetKind = iota + 1 // SET x=, SET SESSION x=, SET @@x=, SET @@session.x=
	SetGlobal                         // SET GLOBAL x=, SET @@global.x=
	SetUser                           // SET @x=
	SetNames                          // SET NAMES cs [COLLATE c]; Value is the charset
	SetCharset                        // SET CHARACTER SET cs; Value is the charset
	SetTransaction                    // SET [GLOBAL|SESSION] TRANSACTION ...
	SetPersist                        // SET PERSIST x=, SET PERSIST_ONLY x=
)

// Set is a SET statement.
type Set struct{ Items []SetItem }

// SetItem is one assignment of a SET statement.
type SetItem struct {
	Kind SetKind
	// Name is lower-case without @@ or scope prefixes. SetTransaction items use
	// "transaction_isolation" (Value "READ-COMMITTED" ...) or
	// "transaction_read_only" (Value int64 0/1).
	Name string
	// Value is the evaluated constant: int64, float64, string, nil; TRUE/FALSE
	// become int64 1/0; ON, OFF, DEFAULT and other bare words become their
	// upper-case spelling. When the value is not a constant it is nil and Expr
	// holds the expression translated to SQLite.
	Value any
	Expr  string
	// Text is the value's MySQL text (a user variable's value is typed from it).
	Text string
	// Global marks SET GLOBAL TRANSACTION.
	Global bool
	// Next marks SET TRANSACTION without GLOBAL or SESSION: the characteristic
	// is the next transaction's only.
	Next bool
	// Collation is the COLLATE of SET NAMES.
	Collation string
}

// ShowKind says what a SHOW statement lists.
type ShowKind int

// SHOW kinds.
const (
	ShowDatabases ShowKind = iota + 1
	ShowTables
	ShowCreateTable
	ShowCreateDatabase
	ShowVariables
	ShowStatus
	ShowColumns // also DESCRIBE/DESC/EXPLAIN t
	ShowIndex
	ShowWarnings
	ShowErrors
	ShowEngines
	ShowProcesslist
	ShowCollation
	ShowCharset
	ShowBinaryLogStatus // also SHOW MASTER STATUS
	ShowBinaryLogs      // also SHOW MASTER LOGS
	ShowBinlogEvents
	ShowReplicaStatus // also SHOW SLAVE STATUS
	ShowReplicas      // also SHOW SLAVE HOSTS
	ShowGrants
	ShowTableStatus
	ShowTriggers
	ShowProcedureStatus
	ShowFunctionStatus
	ShowEvents
	ShowPlugins
	ShowPrivileges
	ShowCreateView
	ShowOpenTables
	ShowCreateTrigger
)

// Show is a SHOW (or DESCRIBE) statement. DB defaults to Context.DB where the
// statement takes a database.
type Show struct {
	Kind    ShowKind
	Global  bool
	Full    bool
	DB      string
	Table   string
	Like    string // the LIKE pattern, decoded
	Where   string // the WHERE condition, as MySQL text
	Channel string // FOR CHANNEL
	// SHOW BINLOG EVENTS [IN 'log'] [FROM pos] [LIMIT [offset,] n]: Limit is -1 when absent.
	Log    string
	Pos    int64
	Offset int64
	Limit  int64
	// SHOW GRANTS FOR user@host.
	User, Host string
	// Legacy marks the old spelling (SHOW SLAVE STATUS), whose column names differ.
	Legacy bool
	// ChannelNamed: FOR CHANNEL (or MariaDB's SHOW SLAVE 'name' STATUS) was given.
	ChannelNamed bool
	// AllSlaves is MariaDB's SHOW ALL SLAVES STATUS (its own columns).
	AllSlaves bool
	// IfNotExists: SHOW CREATE DATABASE IF NOT EXISTS.
	IfNotExists bool
}

// Binlog administration.
type (
	// FlushBinaryLogs is FLUSH BINARY LOGS or FLUSH LOGS.
	FlushBinaryLogs struct{}
	// FlushOther is any other FLUSH (TABLES, PRIVILEGES, STATUS ...): a no-op.
	FlushOther struct{ What string }
	// PurgeBinaryLogs is PURGE BINARY|MASTER LOGS TO 'file' | BEFORE datetime.
	PurgeBinaryLogs struct {
		To     string
		Before string // the datetime text (a string literal's value, else the expression text)
	}
	// ResetBinaryLogs is RESET BINARY LOGS AND GTIDS or RESET MASTER.
	ResetBinaryLogs struct{}
)

// Replication administration.
type (
	// ChangeSource is CHANGE REPLICATION SOURCE TO / CHANGE MASTER TO. Option
	// keys are upper-case with MASTER_ spelled SOURCE_; values are int64,
	// float64, string (bare words upper-case) or []int64 (IGNORE_SERVER_IDS).
	// Named is set when a channel is named (FOR CHANNEL, or MariaDB's connection
	// name: CHANGE MASTER 'name' TO); otherwise the statement is the default
	// channel's, or for START/STOP/RESET every channel's.
	ChangeSource struct {
		Options map[string]any
		Channel string
		Named   bool
	}
	// StartReplica is START REPLICA|SLAVE and MariaDB's START ALL SLAVES. With no
	// thread named both flags are set.
	StartReplica struct {
		IOThread, SQLThread bool
		Channel             string
		Named               bool
	}
	// StopReplica is STOP REPLICA|SLAVE and STOP ALL SLAVES.
	StopReplica struct {
		IOThread, SQLThread bool
		Channel             string
		Named               bool
	}
	// ResetReplica is RESET REPLICA|SLAVE [ALL].
	ResetReplica struct {
		All     bool
		Channel string
		Named   bool
	}
	// ChangeFilter is CHANGE REPLICATION FILTER: Filters maps REPLICATE_DO_DB ...
	// REPLICATE_REWRITE_DB to their lists (db names, db.table names or patterns;
	// REWRITE_DB's pairs as "from", "to", ...). No channel named: every channel.
	ChangeFilter struct {
		Filters map[string][]string
		Channel string
		Named   bool
	}
)

// Account is a MySQL account, user@host.
type Account struct{ User, Host string }

// Users and privileges.
type (
	// CreateUser is CREATE USER [IF NOT EXISTS] u@h [IDENTIFIED [WITH plugin] BY 'pw'].
	CreateUser struct {
		User, Host, Password, Plugin string
		IfNotExists                  bool
		Auth                         AuthClause
	}
	// DropUser is DROP USER [IF EXISTS] u@h, ...
	DropUser struct {
		Accounts []Account
		IfExists bool
	}
	// AlterUser is ALTER USER u@h IDENTIFIED BY 'pw' or SET PASSWORD [FOR u@h] = 'pw'.
	// User is empty for SET PASSWORD without FOR (the current user).
	AlterUser struct {
		User, Host, Password, Plugin string
		IfExists                     bool
		Auth                         AuthClause
	}
	// Grant is GRANT privs ON what TO u@h.
	Grant struct {
		Privs       []string // upper-case; ALL PRIVILEGES is "ALL", REPLICATION REPLICA is "REPLICATION SLAVE"
		On          string   // "*.*", "db.*", "db.t", "t"
		User, Host  string
		GrantOption bool
	}
	// Revoke is REVOKE privs ON what FROM u@h, or (All) REVOKE ALL PRIVILEGES,
	// GRANT OPTION FROM u@h.
	Revoke struct {
		Privs      []string
		On         string
		User, Host string
		All        bool
	}
)

// DDLOp says what a DDL statement does.
type DDLOp int

// DDL operations.
const (
	CreateTable DDLOp = iota + 1
	DropTable
	AlterTable
	CreateIndex
	DropIndex
	TruncateTable
	RenameTable
	CreateView // also CREATE OR REPLACE VIEW and ALTER VIEW (viewtrigger.go)
	DropView
	CreateTrigger
	DropTrigger
)

// DDL is a table or index definition statement translated to SQLite.
type DDL struct {
	Op          DDLOp
	Schema      string   // the statement's db qualifier, else Context.DB
	Table       string   // the (first) table
	Tables      []string // every table named (DROP TABLE a, b; RENAME TABLE)
	IfExists    bool
	IfNotExists bool
	// SQLite holds the statements to run, in order, on the schema's SQLite
	// database; table names in them are unqualified. It may be empty (a no-op
	// such as a FULLTEXT index).
	SQLite        []string
	Original      string
	AutoIncColumn string // CreateTable: the AUTO_INCREMENT column, if any
	Temporary     bool   // CREATE/DROP TEMPORARY TABLE
	// CatalogBefore and CatalogAfter keep the schema's catalog of MySQL
	// definitions in step (see addCatalog); they run around SQLite, in the same
	// SQLite transaction.
	CatalogBefore, CatalogAfter []string
	// ValueChecks are CREATE TABLE's table constraints that refuse values the
	// MySQL columns cannot hold (catalog.Table.ValueChecks).
	ValueChecks []string
	// Warnings are what MySQL notes about the statement itself (deprecated syntax).
	Warnings []mysqlerr.Warning
	// Select is CREATE TABLE ... SELECT's query and parts (SQLite is empty: the
	// session compiles the table once it knows the query's result types).
	Select *CreateSelect
	// DroppedColumns and DroppedIndexes are the old columns and keys an ALTER
	// TABLE drops (for the checks of foreign keys that need them).
	DroppedColumns, DroppedIndexes []string

	create   *createParts    // CREATE TABLE as parsed, re-rendered once the definition is built
	defaults []*alterDefault // ALTER TABLE ... ALTER COLUMN ... SET/DROP DEFAULT
	// planned: an ALTER TABLE compiled against the table's definition (alter.go),
	// whose catalog statements are made.
	planned bool
	// counted is 1 + the index in SQLite of the statement whose changed rows are
	// the DDL's affected rows (ALTER TABLE's copy, when MySQL copies); 0: none.
	counted int
	// Def is CREATE TABLE's MySQL definition (nil when the grammar did not take it),
	// or CREATE VIEW's view.
	Def *catalog.Table
	// OrReplace: CREATE OR REPLACE VIEW; AlterView: ALTER VIEW.
	OrReplace, AlterView bool
	// Trigger is CREATE TRIGGER's trigger (Table is its table) or, with only
	// its name, DROP TRIGGER's.
	Trigger *catalog.Trigger
	def     *catalog.Table // CreateTable: the definition MySQL's grammar gave, while translating
}

// CountedStatement is 1 + the index in Statements of the statement whose
// changed rows MySQL reports as the DDL's affected rows (the rows an ALTER TABLE
// copies); 0 when it reports none.
func (d *DDL) CountedStatement() int {
	if d.counted == 0 {
		return 0
	}
	return len(d.CatalogBefore) + d.counted
}

// Statements is everything the schema's SQLite runs for the DDL, in order.
func (d *DDL) Statements() []string {
	if len(d.SQLite) == 0 && len(d.CatalogBefore) == 0 && len(d.CatalogAfter) == 0 {
		return nil // a no-op (a FULLTEXT index) changes nothing
	}
	out := make([]string, 0, len(d.CatalogBefore)+len(d.SQLite)+len(d.CatalogAfter))
	out = append(out, d.CatalogBefore...)
	out = append(out, d.SQLite...)
	if len(d.ValueChecks) > 0 && len(d.SQLite) > 0 {
		// SQLite[0] is the CREATE TABLE: the checks go before its closing parenthesis.
		create := out[len(d.CatalogBefore)]
		if end := strings.LastIndexByte(create, ')'); end > 0 {
			out[len(d.CatalogBefore)] = create[:end] + ", " + strings.Join(d.ValueChecks, ", ") + create[end:]
		}
	}
	return append(out, d.CatalogAfter...)
}

// QueryKind says what a Query does.
type QueryKind int

// Query kinds.
const (
	Select QueryKind = iota + 1
	Insert
	Replace
	Update
	Delete
	Other
)

// Query is a DML statement or query translated to SQLite.
type Query struct {
	Kind      QueryKind
	SQLite    string
	NumParams int
	Schemas   []string // databases other than Context.DB named in table references
	Tables    []string // tables referenced, unqualified, in order of appearance
	// ZeroToNullParams lists the 0-based indexes of ? placeholders that sit in
	// an AUTO_INCREMENT column of an INSERT/REPLACE: bind NULL when the argument is 0.
	ZeroToNullParams []int
	ReadOnly         bool
	// InsertRows is the number of rows of an INSERT/REPLACE's VALUES list (0 for
	// INSERT ... SELECT). IgnoreDuplicates marks INSERT IGNORE without ON DUPLICATE
	// KEY UPDATE: each row it leaves out is a MySQL warning (1062).
	InsertRows       int
	IgnoreDuplicates bool
	// Warnings are what MySQL notes about values the statement's literals lost
	// on their way into their columns (1265: a DECIMAL rounded, a DATE's time).
	Warnings []mysqlerr.Warning
	// Then and EachRow: the compiler's further SQLite statements of the same
	// statement, and its rowid query (engine.Stmt's fields of the same names).
	Then       []string
	EachRow    string
	RowsApart  bool
	CountsRows bool
	// Point: an UPDATE or DELETE of at most the row whose integer primary key
	// these give (the compiler's Emitted.Point); Locking: a locking read.
	Point   []PointValue
	Locking bool
	// ValuesOnly: an INSERT or REPLACE that reads no table (the compiler's).
	ValuesOnly bool
	// StoreParams converts the values bound to the ? the statement writes into
	// columns as their literals are (compiler.Emitted.StoreParams); nil when it
	// has none. done marks the converted ones.
	StoreParams func(args []any) (out []any, done []bool, notes []mysqlerr.Warning, err error)
}

// PointValue is one primary-key column's value of a point write: Param ≥ 0 is
// the 0-based ? it comes from, else Value.
type PointValue struct {
	Param int
	Value int64
}

// Unsupported is a statement binlite recognizes but does not implement.
type Unsupported struct{ What string }

// Err is the 1235 error to return to the client.
func (u *Unsupported) Err() *mysqlerr.Error {
	return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s'", u.What)
}

func (*Begin) statement()           {}
func (*Commit) statement()          {}
func (*Rollback) statement()        {}
func (*Savepoint) statement()       {}
func (*RollbackTo) statement()      {}
func (*Release) statement()         {}
func (*Use) statement()             {}
func (*CreateDatabase) statement()  {}
func (*DropDatabase) statement()    {}
func (*Set) statement()             {}
func (*Show) statement()            {}
func (*FlushBinaryLogs) statement() {}
func (*FlushOther) statement()      {}
func (*PurgeBinaryLogs) statement() {}
func (*ResetBinaryLogs) statement() {}
func (*ChangeSource) statement()    {}
func (*StartReplica) statement()    {}
func (*ChangeFilter) statement()    {}
func (*StopReplica) statement()     {}
func (*ResetReplica) statement()    {}
func (*CreateUser) statement()      {}
func (*DropUser) statement()        {}
func (*AlterUser) statement()       {}
func (*Grant) statement()           {}
func (*Revoke) statement()          {}
func (*DDL) statement()             {}
func (*Query) statement()           {}
func (*Unsupported) statement()     {}

// String names the kind for logs and tests.
func (k QueryKind) String() string {
	switch k {
	case Select:
		return "SELECT"
	case Insert:
		return "INSERT"
	case Replace:
		return "REPLACE"
	case Update:
		return "UPDATE"
	case Delete:
		return "DELETE"
	case Other:
		return "OTHER"
	}
	return fmt.Sprintf("QueryKind(%d)", int(k))
}
