package engine

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"

	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/sqlitec"
)

// sqliteConn is one raw SQLite connection. mattn's driver caches prepared statements
// per connection (_stmt_cache_size), so callers simply exec/query by SQL text.
type sqliteConn struct {
	*sqlite3.SQLiteConn
	// replaying is set while the connection stores row changes from a binary log
	// (a replica's apply, recovery): SQL function binlite_replaying() reads it, so
	// triggers that compute values (ON UPDATE CURRENT_TIMESTAMP) leave the logged
	// values alone.
	replaying *atomic.Bool
	// state is what the statement-dependent SQL functions (foreign key triggers,
	// AUTO_INCREMENT values, LAST_INSERT_ID(expr)) share with the statement's driver.
	state *stmtState
}

// Functions are extra SQL functions registered on every connection (name → Go func,
// as mattn/go-sqlite3's RegisterFunc takes them); the node adds GTID functions.
type Functions map[string]any

func openConn(path string, readOnly bool, extra Functions) (*sqliteConn, error) {
	q := connParams()
	if readOnly {
		q.Set("_query_only", "1")
	}
	return openWith(path, q, extra)
}

// connParams are every connection's parameters.
func connParams() url.Values {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	// The binary log carries durability (DESIGN §3): SQLite commits need not fsync.
	q.Set("_synchronous", "NORMAL")
	q.Set("_busy_timeout", "10000")
	q.Set("_stmt_cache_size", "256")
	q.Set("_cache_size", "-65536")
	// Foreign keys are binlite's triggers (foreignkey.go), not SQLite's: those check
	// row by row as InnoDB does, name the constraint, and follow the session's
	// foreign_key_checks inside a shared transaction.
	q.Set("_foreign_keys", "0")
	// A cascade through a self-referencing table runs its own trigger again.
	q.Set("_recursive_triggers", "1")
	return q
}

// openWith opens path with the connection parameters q and registers binlite's
// functions.
func openWith(path string, q url.Values, extra Functions) (*sqliteConn, error) {
	replaying := new(atomic.Bool)
	state := &stmtState{replaying: replaying}
	drv := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		if err := registerStmtFunctions(c, state); err != nil {
			return err
		}
		if err := registerWarningFunctions(c, state); err != nil {
			return err
		}
		if err := registerFunctions(c); err != nil {
			return err
		}
		if err := registerDecimal(c); err != nil {
			return err
		}
		if err := registerScalarSubquery(c); err != nil {
			return err
		}
		if err := registerUint64(c); err != nil {
			return err
		}
		if err := registerMath(c, state); err != nil {
			return err
		}
		if err := registerJSON(c); err != nil {
			return err
		}
		if err := registerEnum(c, state); err != nil {
			return err
		}
		if err := registerBytes(c); err != nil {
			return err
		}
		if err := registerTemporal(c, state); err != nil {
			return err
		}
		if err := registerStrings(c, state); err != nil {
			return err
		}
		if err := registerMisc(c, state); err != nil {
			return err
		}
		if err := registerRegexp(c, state); err != nil {
			return err
		}
		if err := registerAggregates(c, state); err != nil {
			return err
		}
		if err := registerCasts(c, state); err != nil {
			return err
		}
		// Text columns declare MySQL collations (COLLATE utf8mb4_general_ci); a
		// connection without them could not even read such a table's schema.
		if err := collation.Register(func(name string, cmp func(a, b string) int) error {
			return sqlitec.RegisterCollation(c, name, cmp)
		}); err != nil {
			return fmt.Errorf("register collations: %w", err)
		}
		if err := c.RegisterFunc("binlite_replaying", replaying.Load, false); err != nil {
			return fmt.Errorf("register binlite_replaying: %w", err)
		}
		for name, fn := range extra {
			if err := c.RegisterFunc(name, fn, false); err != nil {
				return fmt.Errorf("register %s: %w", name, err)
			}
		}
		return nil
	}}
	c, err := drv.Open("file:" + path + "?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("engine: open %s: %w", path, err)
	}
	return &sqliteConn{SQLiteConn: c.(*sqlite3.SQLiteConn), replaying: replaying, state: state}, nil
}

func (c *sqliteConn) exec(sql string, args ...any) (driver.Result, error) {
	c.state.beginStmt()
	return c.execContext(sql, named(args))
}

// execMore runs another SQLite statement of the MySQL statement running: it
// shares its NOW() and its warnings.
func (c *sqliteConn) execMore(sql string, args ...any) (driver.Result, error) {
	return c.execContext(sql, named(args))
}

// maxCachedSQL bounds the statements a connection keeps prepared (the driver's
// statement cache, _stmt_cache_size): a longer one (a large literal) is prepared
// for its one run and finalized after it, or its text and SQLite's copies of
// its literals would stay in memory until 256 other statements pushed it out.
const maxCachedSQL = 64 << 10

// oneShot reports whether sql is run without the statement cache. A text that
// may hold several statements is left to the driver, which runs them all.
func oneShot(sql string) bool {
	return len(sql) > maxCachedSQL && !strings.Contains(sql, ";")
}

func (c *sqliteConn) execContext(sql string, args []driver.NamedValue) (driver.Result, error) {
	if !oneShot(sql) {
		return c.ExecContext(context.Background(), sql, args)
	}
	st, err := c.Prepare(sql)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.(driver.StmtExecContext).ExecContext(context.Background(), args)
}

func (c *sqliteConn) queryContext(sql string, args []driver.NamedValue) (driver.Rows, error) {
	if !oneShot(sql) {
		return c.QueryContext(context.Background(), sql, args)
	}
	st, err := c.Prepare(sql)
	if err != nil {
		return nil, err
	}
	r, err := st.(driver.StmtQueryContext).QueryContext(context.Background(), args)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &oneShotRows{SQLiteRows: r.(*sqlite3.SQLiteRows), st: st}, nil
}

// oneShotRows finalizes its statement when closed.
type oneShotRows struct {
	*sqlite3.SQLiteRows
	st driver.Stmt
}

func (r *oneShotRows) Close() error {
	err := r.SQLiteRows.Close()
	if cerr := r.st.Close(); err == nil {
		err = cerr
	}
	return err
}

// rowids reads the rowids query q gives, in its order, as the statement's first
// SQLite step.
func (c *sqliteConn) rowids(q string, args []any) ([]int64, error) {
	rows, err := c.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				return ids, nil
			}
			return nil, err
		}
		id, ok := dest[0].(int64)
		if !ok {
			return nil, fmt.Errorf("engine: rowid query gave %T", dest[0])
		}
		ids = append(ids, id)
	}
}

func (c *sqliteConn) query(sql string, args ...any) (driver.Rows, error) {
	c.state.beginStmt()
	return c.queryContext(sql, named(args))
}

func named(args []any) []driver.NamedValue {
	if len(args) == 0 {
		return nil
	}
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: bindValue(a)}
	}
	return nv
}

// bindValue turns protocol values into what SQLite stores as MySQL would: integers as
// int64 (unsigned ones beyond int64 as text, which SQLite keeps exactly), times in
// MySQL's DATETIME text form.
func bindValue(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case uint32:
		return int64(x)
	case uint:
		return bindValue(uint64(x))
	case uint64:
		if x > math.MaxInt64 {
			return strconv.FormatUint(x, 10)
		}
		return int64(x)
	case float32:
		return float64(x)
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case time.Time:
		if x.Nanosecond() != 0 {
			return x.Format("2006-01-02 15:04:05.000000")
		}
		return x.Format("2006-01-02 15:04:05")
	}
	return v
}

// registerFunctions adds the MySQL functions that SQLite lacks or spells differently.
// They are registered on every connection so that reads, writes and replays agree.
func registerFunctions(c *sqlite3.SQLiteConn) error {
	fns := []struct {
		name string
		impl any
		pure bool
	}{
		{"now", func() string { return time.Now().Format("2006-01-02 15:04:05") }, false},
		{"sysdate", func() string { return time.Now().Format("2006-01-02 15:04:05") }, false},
		{"curdate", func() string { return time.Now().Format("2006-01-02") }, false},
		{"curtime", func() string { return time.Now().Format("15:04:05") }, false},
		{"utc_timestamp", func() string { return time.Now().UTC().Format("2006-01-02 15:04:05") }, false},
		{"unix_timestamp", unixTimestamp, false},
		{"from_unixtime", func(s int64) string { return time.Unix(s, 0).Format("2006-01-02 15:04:05") }, true},
		{"binlite_set_ok", setMembersValid, true},
		{"binlite_fail", fail, false},
		{compiler.TriggerAutoIncFunc, triggerAutoInc, true},
		{compiler.TriggerAutoIncNullFunc, triggerAutoIncNull, true},
		// ALTER TABLE ... ALTER COLUMN ... SET/DROP DEFAULT's catalog change.
		{"binlite_alter_default", mysqlcatalog.AlterDefaultJSON, true},
		// ALTER TABLE ... RENAME COLUMN's change of the foreign keys that reference the column.
		{"binlite_rename_ref", mysqlcatalog.RenameReferenceJSON, true},
		{"if", func(cond any, a, b any) any {
			if truthy(cond) {
				return a
			}
			return b
		}, true},
		{"md5", hashHex(func(b []byte) []byte { h := md5.Sum(b); return h[:] }), true},
		{"sha1", hashHex(func(b []byte) []byte { h := sha1.Sum(b); return h[:] }), true},
		{"rand", func() float64 { return rand.Float64() }, false},
		{"floor", func(v any) any { return rounded(v, math.Floor) }, true},
		{"ceil", func(v any) any { return rounded(v, math.Ceil) }, true},
		{"ceiling", func(v any) any { return rounded(v, math.Ceil) }, true},
		{"pow", func(a, b any) float64 { return math.Pow(toFloat(a), toFloat(b)) }, true},
		{"power", func(a, b any) float64 { return math.Pow(toFloat(a), toFloat(b)) }, true},
		{"sqrt", func(a any) any {
			if f := toFloat(a); !isNull(a) && f >= 0 {
				return math.Sqrt(f)
			}
			return nil // MySQL: NULL for negative arguments
		}, true},
	}
	for _, f := range fns {
		if err := c.RegisterFunc(f.name, f.impl, f.pure); err != nil {
			return fmt.Errorf("register %s: %w", f.name, err)
		}
	}
	return nil
}

// toFloat reads a numeric SQL argument (SQLite passes ints, reals or text).
func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	case []byte:
		f, _ := strconv.ParseFloat(strings.TrimSpace(string(x)), 64)
		return f
	}
	return 0
}

// rounded is FLOOR/CEIL: integers stay integers, NULL stays NULL.
func rounded(v any, f func(float64) float64) any {
	if isNull(v) {
		return nil
	}
	if x, ok := v.(int64); ok {
		return x
	}
	r := f(toFloat(v))
	if r >= math.MinInt64 && r <= math.MaxInt64 {
		return int64(r)
	}
	return r
}

func unixTimestamp(args ...any) int64 {
	if len(args) == 0 || isNull(args[0]) {
		return time.Now().Unix()
	}
	var s string
	switch v := args[0].(type) {
	case int64:
		return v
	case float64:
		return int64(v)
	case string:
		s = v
	case []byte:
		s = string(v)
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04:05.999999", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t.Unix()
		}
	}
	return 0
}

// isNull recognises SQL NULL as mattn/go-sqlite3 passes it to functions taking any:
// a nil []byte (an empty BLOB arrives as a non-nil empty slice).
func isNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []byte:
		return x == nil
	}
	return false
}

func toText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

func truthy(v any) bool {
	if isNull(v) {
		return false
	}
	switch x := v.(type) {
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != "" && x != "0"
	case []byte:
		return len(x) > 0 && string(x) != "0"
	case bool:
		return x
	}
	return true
}

// setMembersValid reports whether v is a SET value of the allowed members
// (comma-separated both): every member of v is one of them. Value checks of SET
// columns call it (catalog.Table.ValueChecks).
func setMembersValid(v, allowed string) bool {
	if v == "" {
		return true
	}
	ok := map[string]bool{}
	for _, a := range strings.Split(allowed, ",") {
		ok[a] = true
	}
	for _, m := range strings.Split(v, ",") {
		if !ok[m] {
			return false
		}
	}
	return true
}

// hashHex makes MD5() or SHA1() of a hash function: NULL for NULL, a number
// hashed as its text, the digest in lowercase hex.
func hashHex(sum func([]byte) []byte) func(any) any {
	return func(v any) any {
		if isNull(v) {
			return nil
		}
		b, ok := v.([]byte)
		if !ok {
			b = []byte(toText(v))
		}
		return hex.EncodeToString(sum(b))
	}
}
