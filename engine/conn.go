package engine

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// sqliteConn is one raw SQLite connection. mattn's driver caches prepared statements
// per connection (_stmt_cache_size), so callers simply exec/query by SQL text.
type sqliteConn struct {
	*sqlite3.SQLiteConn
}

// Functions are extra SQL functions registered on every connection (name → Go func,
// as mattn/go-sqlite3's RegisterFunc takes them); the node adds GTID functions.
type Functions map[string]any

func openConn(path string, readOnly bool, extra Functions) (*sqliteConn, error) {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	// The binary log carries durability (DESIGN §3): SQLite commits need not fsync.
	q.Set("_synchronous", "NORMAL")
	q.Set("_busy_timeout", "10000")
	q.Set("_stmt_cache_size", "256")
	q.Set("_cache_size", "-65536")
	q.Set("_foreign_keys", "1")
	if readOnly {
		q.Set("_query_only", "1")
	}
	drv := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		if err := registerFunctions(c); err != nil {
			return err
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
	return &sqliteConn{c.(*sqlite3.SQLiteConn)}, nil
}

func (c *sqliteConn) exec(sql string, args ...any) (driver.Result, error) {
	return c.ExecContext(context.Background(), sql, named(args))
}

func (c *sqliteConn) query(sql string, args ...any) (driver.Rows, error) {
	return c.QueryContext(context.Background(), sql, named(args))
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
		{"concat", concat, true},
		{"concat_ws", concatWS, true},
		{"if", func(cond any, a, b any) any {
			if truthy(cond) {
				return a
			}
			return b
		}, true},
		{"md5", func(s []byte) string { h := md5.Sum(s); return hex.EncodeToString(h[:]) }, true},
		{"sha1", func(s []byte) string { h := sha1.Sum(s); return hex.EncodeToString(h[:]) }, true},
		{"rand", func() float64 { return rand.Float64() }, false},
		{"uuid", func() string { return newRandomUUID() }, false},
		{"lcase", strings.ToLower, true},
		{"ucase", strings.ToUpper, true},
	}
	for _, f := range fns {
		if err := c.RegisterFunc(f.name, f.impl, f.pure); err != nil {
			return fmt.Errorf("register %s: %w", f.name, err)
		}
	}
	return nil
}

func unixTimestamp(args ...any) int64 {
	if len(args) == 0 || args[0] == nil {
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

// concat follows MySQL: NULL if any argument is NULL (SQLite's concat skips NULLs).
func concat(args ...any) any {
	var b strings.Builder
	for _, a := range args {
		if a == nil {
			return nil
		}
		b.WriteString(toText(a))
	}
	return b.String()
}

func concatWS(sep any, args ...any) any {
	if sep == nil {
		return nil
	}
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if a != nil {
			parts = append(parts, toText(a))
		}
	}
	return strings.Join(parts, toText(sep))
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
	switch x := v.(type) {
	case nil:
		return false
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

func newRandomUUID() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(rand.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
