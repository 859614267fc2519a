package mysqlproto

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func wantMySQLError(t *testing.T, err error, code uint16, state string) {
	t.Helper()
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("error %v (%T), want *mysql.MySQLError %d", err, err, code)
	}
	if me.Number != code || string(me.SQLState[:]) != state {
		t.Fatalf("error %d (%s) %q, want %d (%s)", me.Number, me.SQLState[:], me.Message, code, state)
	}
}

func TestDriverConnectAuth(t *testing.T) {
	addr, _, rec := startServer(t, nil)
	if err := openDB(t, "root@tcp("+addr+")/").Ping(); err != nil {
		t.Fatalf("root: %v", err)
	}
	db := openDB(t, "alice:secret@tcp("+addr+")/mydb")
	var got sql.NullString
	if err := db.QueryRow("select database()").Scan(&got); err != nil || got.String != "mydb" {
		t.Fatalf("alice with db: %v %v", got, err)
	}
	rec.mu.Lock()
	info := rec.lastInfo
	rec.mu.Unlock()
	if info.User != "alice" || info.Host != "127.0.0.1" || info.DB != "mydb" || info.ID == 0 || info.Conn == nil {
		t.Fatalf("ConnInfo = %+v", info)
	}
	err := openDB(t, "alice:wrong@tcp("+addr+")/").Ping()
	wantMySQLError(t, err, 1045, "28000")
	if !strings.Contains(err.Error(), "Access denied for user 'alice'@'127.0.0.1' (using password: YES)") {
		t.Fatalf("message: %v", err)
	}
	err = openDB(t, "alice@tcp("+addr+")/").Ping()
	wantMySQLError(t, err, 1045, "28000")
	if !strings.Contains(err.Error(), "(using password: NO)") {
		t.Fatalf("message: %v", err)
	}
	wantMySQLError(t, openDB(t, "root:pw@tcp("+addr+")/").Ping(), 1045, "28000")
	wantMySQLError(t, openDB(t, "nobody@tcp("+addr+")/").Ping(), 1045, "28000")
	wantMySQLError(t, openDB(t, "root@tcp("+addr+")/nodb").Ping(), 1049, "42000")
}

func TestDriverTextQuery(t *testing.T) {
	addr, _, _ := startServer(t, nil)
	for _, parseTime := range []bool{false, true} {
		dsn := "root@tcp(" + addr + ")/"
		if parseTime {
			dsn += "?parseTime=true"
		}
		db := openDB(t, dsn)
		rows, err := db.Query("select types")
		if err != nil {
			t.Fatal(err)
		}
		var (
			i int64
			u uint64
			f float64
			s string
			b []byte
			n sql.NullString
			d string
		)
		if !rows.Next() {
			t.Fatal("no row")
		}
		if parseTime {
			var ts time.Time
			err = rows.Scan(&i, &u, &f, &s, &b, &ts, &n, &d)
			if !ts.Equal(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)) {
				t.Errorf("time = %v", ts)
			}
		} else {
			var ts string
			err = rows.Scan(&i, &u, &f, &s, &b, &ts, &n, &d)
			if ts != "2024-01-02 03:04:05" {
				t.Errorf("time = %q", ts)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if i != -42 || u != math.MaxUint64 || f != 0.1 || s != "héllo" || !bytes.Equal(b, []byte{0, 1, 2}) || n.Valid || d != "12.50" {
			t.Errorf("row 1 = %v %v %v %q %v %v %q", i, u, f, s, b, n, d)
		}
		if !rows.Next() {
			t.Fatal("no row 2")
		}
		var ts string
		if err := rows.Scan(&i, &u, &f, &s, &b, &ts, &n, &d); err != nil && !parseTime {
			t.Fatal(err)
		}
		if !parseTime && ts != "2024-01-02 03:04:05.123456" {
			t.Errorf("time = %q", ts)
		}
		if f != 1e20 || n.String != "x" {
			t.Errorf("row 2 = %v %v", f, n)
		}
		if rows.Next() {
			t.Fatal("extra row")
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
}

func TestDriverExecAndErrors(t *testing.T) {
	addr, _, _ := startServer(t, nil)
	db := openDB(t, "root@tcp("+addr+")/")
	res, err := db.Exec("insert into t values (1),(2),(3)")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 3 {
		t.Errorf("affected = %d", n)
	}
	if id, _ := res.LastInsertId(); id != 42 {
		t.Errorf("last id = %d", id)
	}
	_, err = db.Exec("fail")
	wantMySQLError(t, err, 1146, "42S02")
	_, err = db.Exec("plain error")
	wantMySQLError(t, err, 1105, "HY000")

	// A panic in the handler becomes ER_UNKNOWN_ERROR and the connection survives.
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.ExecContext(context.Background(), "panic")
	wantMySQLError(t, err, 1105, "HY000")
	var one int
	if err := conn.QueryRowContext(context.Background(), "select 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("after panic: %v %v", one, err)
	}
	_, err = conn.ExecContext(context.Background(), "panic ?", 1) // prepared path
	wantMySQLError(t, err, 1105, "HY000")
}

func TestDriverBigResult(t *testing.T) {
	if testing.Short() {
		t.Skip("large packet")
	}
	addr, _, _ := startServer(t, nil)
	db := openDB(t, "root@tcp("+addr+")/")
	var s string
	if err := db.QueryRow("select big").Scan(&s); err != nil {
		t.Fatal(err)
	}
	if len(s) != 17<<20 || strings.Trim(s, "z") != "" {
		t.Fatalf("len = %d", len(s))
	}
}

func TestDriverPrepared(t *testing.T) {
	addr, _, rec := startServer(t, nil)
	db := openDB(t, "root@tcp("+addr+")/?interpolateParams=false&parseTime=true")
	stmt, err := db.Prepare("select ?, ?, ?, ?, ?, ?, ?, ?, ?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	ts := time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC)
	args := []any{int64(5), int64(-7), uint64(math.MaxUint64), 2.5, "str", []byte("raw\x00bytes"), nil, ts, true}
	var (
		i1, i2 int64
		u      uint64
		f      float64
		s      string
		b      []byte
		n      sql.NullString
		tstr   string
		bo     int64
	)
	for range 2 { // the second run re-executes the same statement
		if err := stmt.QueryRow(args...).Scan(&i1, &i2, &u, &f, &s, &b, &n, &tstr, &bo); err != nil {
			t.Fatal(err)
		}
		if i1 != 5 || i2 != -7 || u != math.MaxUint64 || f != 2.5 || s != "str" || string(b) != "raw\x00bytes" || n.Valid || bo != 1 {
			t.Fatalf("echo = %v %v %v %v %q %q %v %v", i1, i2, u, f, s, b, n, bo)
		}
		if tstr != "2024-01-02 03:04:05.123456" {
			t.Fatalf("time echo = %q", tstr)
		}
	}
	got := rec.snapshot()
	if len(got) != 2 {
		t.Fatalf("executions = %d", len(got))
	}
	want := []any{int64(5), int64(-7), uint64(math.MaxUint64), 2.5, "str", "raw\x00bytes", nil, "2024-01-02 03:04:05.123456", int64(1)}
	for _, g := range got {
		for i := range want {
			if g[i] != want[i] {
				t.Errorf("arg %d = %#v, want %#v", i, g[i], want[i])
			}
		}
	}

	res, err := db.Exec("insert into t values (?)", 1)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := res.LastInsertId(); id != 7 {
		t.Errorf("last id = %d", id)
	}
	_, err = db.Exec("fail ?", 1)
	wantMySQLError(t, err, 1062, "23000")
	_, err = db.Prepare("bad")
	wantMySQLError(t, err, 1064, "42000")

	// Values converted to the column types on the binary protocol.
	var (
		a        string
		bb, c, d int64
		e        time.Time
		ff       float64
		g        int64
		h        time.Time
		tm       string
		j        float32
		k, l     int64
	)
	conv, err := db.Prepare("select conv")
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Close()
	if err := conv.QueryRow().Scan(&a, &bb, &c, &d, &e, &ff, &g, &h, &tm, &j, &k, &l); err != nil {
		t.Fatal(err)
	}
	if a != "-5" || bb != 3 || c != 123 || d != 0 || !e.Equal(time.Date(2023, 4, 5, 6, 7, 8, 9000, time.UTC)) ||
		ff != 2.5 || g != -7 || !h.Equal(time.Date(2023, 4, 5, 0, 0, 0, 0, time.UTC)) || tm != "-25:01:02" || j != 1.5 || k != -3 || l != 300 {
		t.Fatalf("conv = %q %v %v %v %v %v %v %v %q %v %v %v", a, bb, c, d, e, ff, g, h, tm, j, k, l)
	}
}

func TestDriverMultiStatements(t *testing.T) {
	addr, _, _ := startServer(t, nil)
	db := openDB(t, "root@tcp("+addr+")/?multiStatements=true")
	rows, err := db.Query("select 1; select 'hello' as greeting; insert into t values (1)")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if strings.Join(got, ",") != "1,hello" {
		t.Fatalf("got %v", got)
	}
	_, err = db.Exec("insert into t values (1); fail; select 1")
	wantMySQLError(t, err, 1146, "42S02")
	var one int
	if err := db.QueryRow("select 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
}

func TestDriverMaxPacket(t *testing.T) {
	addr, srv, _ := startServer(t, func(c *Config) { c.MaxAllowedPacket = 4096 })
	db := openDB(t, "root@tcp("+addr+")/")
	db.SetMaxIdleConns(0)
	_, err := db.Exec("insert into t values ('" + strings.Repeat("x", 100<<10) + "')")
	wantMySQLError(t, err, 1153, "08S01")
	if err := openDB(t, "root@tcp("+addr+")/").Ping(); err != nil {
		t.Fatalf("server down after oversized packet: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for srv.ConnCount() > 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}
