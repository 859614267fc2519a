package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// stmtState is what binlite's statement-dependent SQL functions read and write on
// one connection. Whoever drives the connection (one goroutine at a time: the
// writer, a session holding its lease, a reader's user) sets it up before a
// statement and reads it after; the functions run inside that statement, on the
// same goroutine.
type stmtState struct {
	handle    unsafe.Pointer // the connection's sqlite3*, for last_insert_rowid
	replaying *atomic.Bool   // see sqliteConn.replaying
	// fkOff turns the foreign key triggers off (binlite_fk_checks()): the running
	// statement's session has foreign_key_checks=0, or it is DDL.
	fkOff bool
	// ignoring: the running statement is an IGNORE one (binlite_lenient()).
	ignoring bool
	// zeroOK: the running statement wrote a date with zero parts that its
	// sql_mode lets a column keep (binlite_zero_ok, binlite_zero_date).
	zeroOK bool
	// strict: the running DDL is a session's under strict sql_mode: a value an
	// ALTER TABLE's copy cannot keep fails it (see rebuild.go).
	strict bool
	// alloc hands out the running INSERT's AUTO_INCREMENT values (binlite_autoinc),
	// nil for other statements.
	alloc *autoIncAlloc
	// lastIDSet says LAST_INSERT_ID(expr) ran in the statement; lastID is the value.
	lastIDSet bool
	lastID    uint64
	// warnings are what the running statement's functions warned about (see
	// execwarn.go), the first maxWarnings of them; lostWarnings counts the rest.
	warnings     []mysqlerr.Warning
	lostWarnings int
	// rows numbers, per column, the rows a value adjustment without a row number
	// from the compiler saw (UPDATE, INSERT ... SELECT): MySQL's "at row N".
	rows map[string]int64
	// now is the running statement's NOW() (set by its first call: MySQL's NOW()
	// is the time the statement began, the same in every row).
	now time.Time
	// counted is how many rows binlite_counted() met: the rows an IGNORE write
	// set out to write, of which SQLite's OR IGNORE may have left some out.
	counted int64
	// serial numbers the connection's statements: state a function keeps for
	// one statement (RAND(seed)'s sequence) is that statement's while it is
	// the same.
	serial uint64
}

// beginStmt clears what belongs to the previous statement.
func (st *stmtState) beginStmt() {
	st.now, st.counted, st.zeroOK = time.Time{}, 0, false
	st.serial++
	st.warnings, st.lostWarnings = st.warnings[:0], 0
}

// stmtNow is the running statement's NOW().
func (st *stmtState) stmtNow() time.Time {
	if st.now.IsZero() {
		st.now = time.Now()
	}
	return st.now
}

// warnf records a warning of the running statement.
func (st *stmtState) warnf(code uint16, format string, args ...any) {
	st.warn(mysqlerr.Warn(code, format, args...))
}

// notef records a note of the running statement.
func (st *stmtState) notef(code uint16, format string, args ...any) {
	st.warn(mysqlerr.Note(code, format, args...))
}

// registerStmtFunctions adds the functions that use st to a connection.
func registerStmtFunctions(c *sqlite3.SQLiteConn, st *stmtState) error {
	h, err := sqlitec.Handle(c)
	if err != nil {
		return err
	}
	st.handle = h
	for name, fn := range map[string]any{
		"binlite_fk_checks": st.fkChecks,
		"binlite_autoinc":   st.autoinc,
		"binlite_autoinc_null": func(v any) (any, error) {
			return st.autoIncValue(v, isNull(v))
		},
		"last_insert_id":  st.setLastInsertID,
		"binlite_counted": st.count,
	} {
		if err := c.RegisterFunc(name, fn, false); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// count is binlite_counted(): true, counting the row it is evaluated for.
func (st *stmtState) count() bool {
	st.counted++
	return true
}

// fkChecks is binlite_fk_checks(): whether the foreign key triggers act. They do
// not while a connection replays logged row changes (a replica's apply, recovery):
// the source checked the rows and logged what its actions changed, as MySQL
// replicas apply row events without foreign key checks.
func (st *stmtState) fkChecks() bool {
	return !st.fkOff && !st.replaying.Load()
}

// lastInsertRowid is the rowid of the connection's latest successful INSERT.
func (st *stmtState) lastInsertRowid() int64 { return sqlitec.LastInsertRowid(st.handle) }

// setLastInsertID is LAST_INSERT_ID(expr): it returns expr as an unsigned BIGINT and
// makes it the session's LAST_INSERT_ID() (the session reads it after the statement).
func (st *stmtState) setLastInsertID(v any) any {
	if isNull(v) {
		st.lastIDSet, st.lastID = true, 0
		return nil
	}
	var u uint64
	switch x := v.(type) {
	case int64:
		u = uint64(x)
	case float64:
		u = uint64(int64(math.Round(x)))
	default:
		s := strings.TrimSpace(toText(x))
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			u = n
		} else if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			u = uint64(n)
		} else if f, err := strconv.ParseFloat(s, 64); err == nil {
			u = uint64(int64(math.Round(f)))
		}
	}
	st.lastIDSet, st.lastID = true, u
	if u > math.MaxInt64 {
		return strconv.FormatUint(u, 10)
	}
	return int64(u)
}

// takeLastID returns and clears what LAST_INSERT_ID(expr) set.
func (st *stmtState) takeLastID() (uint64, bool) {
	v, ok := st.lastID, st.lastIDSet
	st.lastID, st.lastIDSet = 0, false
	return v, ok
}
