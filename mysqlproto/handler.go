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
	// Query runs COM_QUERY text; multi reports CLIENT_MULTI_STATEMENTS. Each
	// statement's result goes to send as soon as the statement has it (more:
	// another statement follows), so that its rows stream to the client before
	// the next statement runs. send fails when the result could not be sent whole:
	// the connection failed, or its rows ended with an error (already sent to the
	// client); Query then runs no further statement and returns that error. Any
	// other error is the failing statement's, sent as an ERR packet.
	Query(sql string, multi bool, send func(res *Result, more bool) error) error
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
	Columns []Column
	Rows    [][]any // nil, int64, uint64, float64, string, []byte, time.Time (also bool, float32, int)
	// More, when set, yields the rows that follow Rows, read while they are sent:
	// the result set is never held whole, and a client that stops reading holds
	// up only its own connection, with at most its write buffer. Its Close gives
	// the warning count of the end packet in place of Warnings.
	More         RowSource
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

// RowSource yields a result set's rows one at a time while they are written.
type RowSource interface {
	// Next returns the next row, valid until the following call, or nil at the
	// end. An error ends the result set with an ERR packet after the rows sent.
	Next() ([]any, error)
	// Close is called once when the result set ends, however it ends (the last
	// row, an error, a failed write); it returns the warning count for the end
	// packet, which is sent only after the last row.
	Close() (warnings uint16)
}
