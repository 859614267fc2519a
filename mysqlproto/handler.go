package mysqlproto

import (
	"crypto/tls"
	"net"
)

// ConnInfo describes an authenticated connection to NewHandler.
type ConnInfo struct {
	ID           uint32
	User         string
	Host         string // client IP
	RemoteAddr   net.Addr
	DB           string // from the handshake
	Capabilities uint32 // negotiated CLIENT_* flags
	Conn         *Conn
	TLS          *tls.ConnectionState // nil over plain TCP
}

// Handler executes commands for one connection; it is used by a single goroutine.
type Handler interface {
	// UseDB handles COM_INIT_DB and a database named in the handshake.
	UseDB(db string) error
	// Query runs COM_QUERY text; multi reports CLIENT_MULTI_STATEMENTS. It returns
	// the results of the statements run before an error, then the error.
	Query(sql string, multi bool) ([]*Result, error)
	// Prepare handles COM_STMT_PREPARE.
	Prepare(sql string) (Stmt, error)
	// FieldList handles COM_FIELD_LIST.
	FieldList(table, wildcard string) ([]Column, error)
	// Status reports session state for the status flags of every OK/EOF packet.
	Status() (autocommit, inTxn bool)
	// Close is called once the connection is gone (or reset).
	Close()
}

// EscapesReporter is optionally implemented by a Handler whose session may have
// NO_BACKSLASH_ESCAPES in its sql_mode: the status flags then say so
// (StatusNoBackslashEscapes), as MySQL's do.
type EscapesReporter interface {
	NoBackslashEscapes() bool
}

// RawCommander is optionally implemented by a Handler to receive commands this
// package does not know (e.g. COM_BINLOG_DUMP_GTID, COM_REGISTER_SLAVE). The
// sequence id is already positioned for the response; returning handled=false
// sends ER_UNKNOWN_COM_ERROR, and a non-nil err is sent as an ERR packet.
type RawCommander interface {
	RawCommand(cmd byte, payload []byte, c *Conn) (handled bool, err error)
}

// Stmt is a prepared statement created by Handler.Prepare. The protocol layer owns
// statement ids, parameter types and long data.
type Stmt interface {
	NumParams() int
	Columns() []Column // may be nil for statements without a result set
	// Execute runs the statement; args hold nil, int64, uint64, float64, string,
	// []byte or time.Time.
	Execute(args []any) (*Result, error)
	Close()
}

// Result is one statement's outcome: a result set when Columns is non-nil,
// otherwise an OK packet.
type Result struct {
	Columns      []Column
	Rows         [][]any // nil, int64, uint64, float64, string, []byte, time.Time (also bool, float32, int)
	AffectedRows uint64
	LastInsertID uint64
	Warnings     uint16
	Info         string
}

// Column is a column definition. Charset 0 is filled in: binary for numeric and
// temporal types, utf8mb4 otherwise.
type Column struct {
	Schema, Table, OrgTable, Name, OrgName string
	Charset                                uint16
	Length                                 uint32
	Type                                   byte
	Flags                                  uint16
	Decimals                               byte
}
