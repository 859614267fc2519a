package mysqlproto

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

// recorder collects what test handlers saw, across connections.
type recorder struct {
	mu       sync.Mutex
	args     [][]any
	opened   int
	closed   int
	useDB    []string
	lastInfo ConnInfo
}

func (r *recorder) addArgs(a []any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.args = append(r.args, a)
}

func (r *recorder) snapshot() [][]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]any(nil), r.args...)
}

func (r *recorder) counts() (opened, closed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opened, r.closed
}

// testAuth knows root (no password) and alice/secret.
type testAuth struct{}

func (testAuth) Lookup(user, host string) ([]byte, bool) {
	switch user {
	case "root":
		return nil, true
	case "alice":
		return PasswordStage2("secret"), true
	}
	return nil, false
}

// testHandler answers a fixed repertoire of statements.
type testHandler struct {
	rec   *recorder
	db    string
	inTxn bool
}

func (h *testHandler) UseDB(db string) error {
	if db == "nodb" {
		return mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	h.db = db
	h.rec.mu.Lock()
	h.rec.useDB = append(h.rec.useDB, db)
	h.rec.mu.Unlock()
	return nil
}

func (h *testHandler) Status() (bool, bool) { return !h.inTxn, h.inTxn }

func (h *testHandler) Close() {
	h.rec.mu.Lock()
	h.rec.closed++
	h.rec.mu.Unlock()
}

func (h *testHandler) Query(sql string, multi bool, send func(*Result, bool) error) error {
	stmts := []string{sql}
	if multi {
		stmts = nil
		for _, s := range strings.Split(sql, ";") {
			if strings.TrimSpace(s) != "" {
				stmts = append(stmts, s)
			}
		}
	}
	for i, s := range stmts {
		r, err := h.one(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		if err := send(r, i < len(stmts)-1); err != nil {
			return err
		}
	}
	return nil
}

// countSource yields rows 1..n, or fails at row n; Close reports n warnings.
type countSource struct {
	n, i   int
	fail   bool
	closed int
}

func (c *countSource) Next() ([]any, error) {
	c.i++
	if c.fail && c.i == c.n {
		return nil, mysqlerr.New(mysqlerr.ErDataOutOfRange, "Out of range value at row %d", c.i)
	}
	if c.i > c.n {
		return nil, nil
	}
	return []any{int64(c.i)}, nil
}

func (c *countSource) Close() uint16 {
	c.closed++
	return uint16(c.n)
}

func varchar(name string) Column { return Column{Name: name, Type: TypeVarString, Length: 255} }

func (h *testHandler) one(sql string) (*Result, error) {
	lower := strings.ToLower(sql)
	switch {
	case lower == "select @@version_comment limit 1":
		return &Result{Columns: []Column{varchar("@@version_comment")}, Rows: [][]any{{"binlite test"}}}, nil
	case lower == "select 1":
		return &Result{Columns: []Column{{Name: "1", Type: TypeLongLong}}, Rows: [][]any{{int64(1)}}}, nil
	case lower == "select 'hello' as greeting":
		return &Result{Columns: []Column{varchar("greeting")}, Rows: [][]any{{"hello"}}}, nil
	case lower == "select database()":
		var v any
		if h.db != "" {
			v = h.db
		}
		return &Result{Columns: []Column{varchar("database()")}, Rows: [][]any{{v}}}, nil
	case lower == "select types":
		return &Result{
			Columns: []Column{
				{Name: "i", Type: TypeLongLong},
				{Name: "u", Type: TypeLongLong, Flags: UnsignedFlag},
				{Name: "f", Type: TypeDouble},
				{Name: "s", Type: TypeVarString},
				{Name: "b", Type: TypeBlob, Flags: BinaryFlag | BlobFlag},
				{Name: "t", Type: TypeDatetime},
				{Name: "n", Type: TypeVarString},
				{Name: "d", Type: TypeNewDecimal},
			},
			Rows: [][]any{
				{int64(-42), uint64(18446744073709551615), 0.1, "héllo", []byte{0, 1, 2}, time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), nil, "12.50"},
				{int64(7), uint64(0), 1e20, "", []byte{}, time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC), "x", "-1.00"},
			},
		}, nil
	case strings.HasPrefix(lower, "insert"):
		return &Result{AffectedRows: 3, LastInsertID: 42, Info: "Records: 3"}, nil
	case lower == "begin":
		h.inTxn = true
		return &Result{}, nil
	case lower == "commit":
		h.inTxn = false
		return &Result{}, nil
	case lower == "fail":
		return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table 'test.nope' doesn't exist")
	case lower == "plain error":
		return nil, errors.New("boom")
	case lower == "unknown outcome":
		return nil, fmt.Errorf("commit: %w", mysqlerr.ErrOutcomeUnknown)
	case strings.HasPrefix(lower, "stream "):
		// stream N [FAIL]: N rows after one in Rows, from a RowSource that
		// fails in place of row N when FAIL follows.
		var n int
		var fail string
		fmt.Sscanf(lower, "stream %d %s", &n, &fail)
		return &Result{Columns: []Column{{Name: "i", Type: TypeLongLong}}, Rows: [][]any{{int64(0)}},
			More: &countSource{n: n, fail: fail == "fail"}}, nil
	case lower == "panic":
		panic("deliberate test panic")
	case strings.HasPrefix(lower, "select big"):
		return &Result{Columns: []Column{{Name: "big", Type: TypeLongBlob}}, Rows: [][]any{{strings.Repeat("z", 17<<20)}}}, nil
	}
	return nil, mysqlerr.New(mysqlerr.ErParse, "You have an error in your SQL syntax near '%s'", sql)
}

func (h *testHandler) Prepare(sql string) (Stmt, error) {
	if sql == "bad" {
		return nil, mysqlerr.New(mysqlerr.ErParse, "You have an error in your SQL syntax")
	}
	return &testStmt{sql: sql, n: strings.Count(sql, "?"), rec: h.rec}, nil
}

func (h *testHandler) FieldList(table, wildcard string) ([]Column, error) {
	if table != "t" {
		return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table 'test.%s' doesn't exist", table)
	}
	return []Column{{Table: "t", Name: "id", Type: TypeLong, Flags: PriKeyFlag | NotNullFlag}, varchar("name")}, nil
}

// RawCommand answers command 0x1e (COM_BINLOG_DUMP_GTID) with an OK packet.
func (h *testHandler) RawCommand(cmd byte, payload []byte, c *Conn) (bool, error) {
	if cmd != ComBinlogDumpGTID {
		return false, nil
	}
	if string(payload) == "err" {
		return true, mysqlerr.New(mysqlerr.ErMasterFatalReadingLog, "no binlog")
	}
	return true, c.WriteOK(uint64(len(payload)), 0)
}

// testStmt echoes its arguments as a row whose column types follow the Go types;
// "select conv" returns values of mismatched Go types to exercise conversion, and
// "insert" statements return an OK packet.
type testStmt struct {
	sql string
	n   int
	rec *recorder
}

func (s *testStmt) NumParams() int { return s.n }
func (s *testStmt) Close()         {}
func (s *testStmt) Columns() []Column {
	if strings.HasPrefix(s.sql, "insert") {
		return nil
	}
	cols := make([]Column, s.n)
	for i := range cols {
		cols[i] = varchar(fmt.Sprint("p", i))
	}
	return cols
}

func (s *testStmt) Execute(args []any) (*Result, error) {
	s.rec.addArgs(args)
	switch {
	case strings.HasPrefix(s.sql, "insert"):
		return &Result{AffectedRows: 1, LastInsertID: 7}, nil
	case strings.HasPrefix(s.sql, "panic"):
		panic("deliberate stmt panic")
	case strings.HasPrefix(s.sql, "fail"):
		return nil, mysqlerr.New(mysqlerr.ErDupEntry, "Duplicate entry '1' for key 'PRIMARY'")
	case s.sql == "select conv":
		return &Result{
			Columns: []Column{
				{Name: "a", Type: TypeVarString}, {Name: "b", Type: TypeLongLong},
				{Name: "c", Type: TypeLongLong}, {Name: "d", Type: TypeLongLong},
				{Name: "e", Type: TypeDatetime}, {Name: "f", Type: TypeDouble},
				{Name: "g", Type: TypeLong}, {Name: "h", Type: TypeDate},
				{Name: "i", Type: TypeTime}, {Name: "j", Type: TypeFloat},
				{Name: "k", Type: TypeTiny}, {Name: "l", Type: TypeShort},
			},
			Rows: [][]any{{int64(-5), 3.9, "123", "abc", time.Date(2023, 4, 5, 6, 7, 8, 9000, time.UTC), "2.5",
				int64(-7), time.Date(2023, 4, 5, 0, 0, 0, 0, time.UTC), "-25:01:02", 1.5, int64(-3), int64(300)}},
		}, nil
	}
	cols := make([]Column, len(args))
	for i, a := range args {
		c := Column{Name: fmt.Sprint("p", i)}
		switch a.(type) {
		case int64:
			c.Type = TypeLongLong
		case uint64:
			c.Type, c.Flags = TypeLongLong, UnsignedFlag
		case float64:
			c.Type = TypeDouble
		case []byte:
			c.Type, c.Flags = TypeBlob, BinaryFlag|BlobFlag
		case time.Time:
			c.Type = TypeDatetime
		default:
			c.Type = TypeVarString
		}
		cols[i] = c
	}
	return &Result{Columns: cols, Rows: [][]any{args}}, nil
}

// startServer runs a Server with the test handler on 127.0.0.1 and returns its
// address; it is closed when the test ends.
func startServer(t testing.TB, mod func(*Config)) (string, *Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	cfg := Config{
		Auth: testAuth{},
		NewHandler: func(ci *ConnInfo) (Handler, error) {
			rec.mu.Lock()
			rec.opened++
			rec.lastInfo = *ci
			rec.mu.Unlock()
			return &testHandler{rec: rec}, nil
		},
		Logger: slog.New(slog.DiscardHandler),
	}
	if mod != nil {
		mod(&cfg)
	}
	srv := NewServer(cfg)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return l.Addr().String(), srv, rec
}
