package sqlitec

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mattn/go-sqlite3"
)

func openConn(t *testing.T) *sqlite3.SQLiteConn {
	t.Helper()
	c, err := (&sqlite3.SQLiteDriver{}).Open("file:" + filepath.Join(t.TempDir(), "t.sqlite") + "?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*sqlite3.SQLiteConn)
}

func execDriver(t *testing.T, c *sqlite3.SQLiteConn, q string) {
	t.Helper()
	if _, err := c.ExecContext(context.Background(), q, nil); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// rows reads q through the driver, typeof() included, as Go values.
func rows(t *testing.T, c *sqlite3.SQLiteConn, q string) [][]driver.Value {
	t.Helper()
	r, err := c.QueryContext(context.Background(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out [][]driver.Value
	for {
		row := make([]driver.Value, len(r.Columns()))
		if err := r.Next(row); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
}

// Every kind of argument reaches SQLite with its storage class, empty text and blobs
// stay distinct from NULL, the changed-row count is SQLite's, and a statement runs
// again with new arguments.
func TestExecBindsEveryKind(t *testing.T) {
	dc := openConn(t)
	execDriver(t, dc, `CREATE TABLE t (id INTEGER PRIMARY KEY, i, r, s, b, n)`)
	c, err := Open(dc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ins, err := c.Prepare(`INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	for _, row := range []struct {
		id   int64
		s, b []byte
	}{{1, []byte("héllo"), []byte{0, 1, 2}}, {2, []byte{}, []byte{}}, {3, make([]byte, 10000), []byte("x")}} {
		c.ResetArgs()
		c.Int(row.id)
		c.Int(-1 << 40)
		c.Real(2.5)
		c.Text(row.s)
		c.Blob(row.b)
		c.Null()
		n, err := ins.Exec()
		if err != nil || n != 1 {
			t.Fatalf("insert %d: %d rows, %v", row.id, n, err)
		}
	}
	got := rows(t, dc, `SELECT id, i, typeof(i), r, typeof(r), s, typeof(s), b, typeof(b), typeof(n) FROM t ORDER BY id`)
	want := [][]driver.Value{
		{int64(1), int64(-1 << 40), "integer", 2.5, "real", "héllo", "text", []byte{0, 1, 2}, "blob", "null"},
		{int64(2), int64(-1 << 40), "integer", 2.5, "real", "", "text", []byte{}, "blob", "null"},
		{int64(3), int64(-1 << 40), "integer", 2.5, "real", string(make([]byte, 10000)), "text", []byte("x"), "blob", "null"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		// The driver returns text of columns without a declared type as bytes: compare
		// everything but the blob column (7) as strings.
		for j, v := range got[i] {
			if b, ok := v.([]byte); ok && j != 7 {
				got[i][j] = string(b)
			}
		}
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d: %#v, want %#v", i, got[i], want[i])
		}
	}

	upd, err := c.Prepare(`UPDATE t SET i = i + ? WHERE id >= ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer upd.Close()
	c.ResetArgs()
	c.Int(1)
	c.Int(2)
	if n, err := upd.Exec(); err != nil || n != 2 {
		t.Fatalf("update: %d rows, %v; want 2", n, err)
	}
}

// A failing statement reports SQLite's code and message, changes nothing, and the
// statement can run again.
func TestExecError(t *testing.T) {
	dc := openConn(t)
	execDriver(t, dc, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`)
	execDriver(t, dc, `INSERT INTO t VALUES (1, 'a')`)
	c, err := Open(dc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ins, err := c.Prepare(`INSERT INTO t VALUES (?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	c.ResetArgs()
	c.Int(1)
	c.Text([]byte("b"))
	_, err = ins.Exec()
	var se *Error
	if !errors.As(err, &se) || se.Code != 19 || se.ExtendedCode != 1555 || se.Msg != "UNIQUE constraint failed: t.id" {
		t.Fatalf("duplicate key: %#v", err)
	}
	c.ResetArgs()
	c.Int(2)
	c.Null()
	if _, err = ins.Exec(); err == nil || err.Error() != "NOT NULL constraint failed: t.v" {
		t.Fatalf("null: %v", err)
	}
	c.ResetArgs()
	c.Int(2)
	c.Text([]byte("b"))
	if n, err := ins.Exec(); err != nil || n != 1 {
		t.Fatalf("after errors: %d rows, %v", n, err)
	}
	if got := rows(t, dc, `SELECT COUNT(*) FROM t`); got[0][0] != int64(2) {
		t.Fatalf("%v rows, want 2", got[0][0])
	}
	if _, err := c.Prepare(`UPDATE nosuch SET x = 1`); err == nil || err.Error() != "no such table: nosuch" {
		t.Fatalf("prepare on a missing table: %v", err)
	}
}

// A prepared statement follows a change of its table (SQLite re-prepares it).
func TestStatementSurvivesSchemaChange(t *testing.T) {
	dc := openConn(t)
	execDriver(t, dc, `CREATE TABLE t (id INTEGER PRIMARY KEY, v)`)
	c, err := Open(dc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ins, err := c.Prepare(`INSERT INTO t (id, v) VALUES (?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	execDriver(t, dc, `ALTER TABLE t ADD COLUMN w DEFAULT 7`)
	c.ResetArgs()
	c.Int(1)
	c.Int(2)
	if _, err := ins.Exec(); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, dc, `SELECT w FROM t`); got[0][0] != int64(7) {
		t.Fatalf("w = %v, want 7", got[0][0])
	}
}
