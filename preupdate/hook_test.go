package preupdate

import (
	"database/sql/driver"
	"testing"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/binlog"
)

func open(t *testing.T) (*sqlite3.SQLiteConn, *Recorder) {
	t.Helper()
	c, err := (&sqlite3.SQLiteDriver{}).Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	conn := c.(*sqlite3.SQLiteConn)
	rec, err := Install(conn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close(); conn.Close() })
	return conn, rec
}

func record(t *testing.T, conn *sqlite3.SQLiteConn, rec *Recorder, sql string, args ...driver.Value) []Change {
	t.Helper()
	rec.Start()
	if _, err := conn.Exec(sql, args); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	data, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	var out []Change
	if err := Decode(data, func(c *Change) error { out = append(out, *c); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every storage class comes back as SQLite stored it: TEXT and BLOB stay distinct even
// in a column without a declared type, and the rowid alias carries the rowid.
func TestImagesKeepStorageClasses(t *testing.T) {
	conn, rec := open(t)
	if _, err := conn.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, i INT, r REAL, s TEXT, b BLOB, x)", nil); err != nil {
		t.Fatal(err)
	}
	got := record(t, conn, rec, "INSERT INTO t VALUES (7, 42, 1.5, 'text', x'00ff', 'untyped text'), (8, NULL, -2, '', x'', x'6162')")
	if len(got) != 2 || got[0].Op != OpInsert || got[0].Table != "t" || got[0].DB != "main" || got[0].Old != nil {
		t.Fatalf("changes %+v", got)
	}
	want := []binlog.Value{binlog.IntValue(7), binlog.IntValue(42), binlog.RealValue(1.5), binlog.TextValue("text"), binlog.BlobValue([]byte{0, 0xff}), binlog.TextValue("untyped text")}
	for i, v := range want {
		if !got[0].New[i].Equal(v) {
			t.Errorf("column %d: %+v, want %+v", i, got[0].New[i], v)
		}
	}
	if k := got[1].New[1].Kind; k != binlog.KindNull {
		t.Errorf("NULL came back as %v", k)
	}
	if v := got[1].New[2]; v.Kind != binlog.KindReal || v.Real != -2 {
		t.Errorf("REAL column holding -2: %+v", v)
	}
	if v := got[1].New[5]; v.Kind != binlog.KindBlob || string(v.Bytes) != "ab" {
		t.Errorf("blob in an untyped column: %+v", v)
	}

	upd := record(t, conn, rec, "UPDATE t SET i = i + 1 WHERE id = 7")
	if len(upd) != 1 || upd[0].Op != OpUpdate || upd[0].Old[1].Int != 42 || upd[0].New[1].Int != 43 || upd[0].Old[0].Int != 7 {
		t.Fatalf("update %+v", upd)
	}
	del := record(t, conn, rec, "DELETE FROM t WHERE id = 8")
	if len(del) != 1 || del[0].Op != OpDelete || del[0].New != nil || del[0].Old[0].Int != 8 {
		t.Fatalf("delete %+v", del)
	}
}

// Internal tables are not recorded, and nothing is recorded between Stop and Start.
func TestSkipsInternalTablesAndIdleTime(t *testing.T) {
	conn, rec := open(t)
	for _, q := range []string{"CREATE TABLE binlite_x (a)", "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, a)"} {
		if _, err := conn.Exec(q, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := record(t, conn, rec, "INSERT INTO binlite_x VALUES (1)"); len(got) != 0 {
		t.Fatalf("internal table recorded: %+v", got)
	}
	// AUTOINCREMENT writes sqlite_sequence too: only the user table's row is recorded.
	if got := record(t, conn, rec, "INSERT INTO t (a) VALUES ('v')"); len(got) != 1 || got[0].Table != "t" {
		t.Fatalf("changes %+v", got)
	}
	if _, err := conn.Exec("INSERT INTO t (a) VALUES ('unrecorded')", nil); err != nil {
		t.Fatal(err)
	}
	if got := record(t, conn, rec, "UPDATE t SET a = 'w' WHERE id = 1"); len(got) != 1 {
		t.Fatalf("changes recorded while stopped leaked in: %+v", got)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{18, 4, 0, 0, 0, 'm', 'a', 'i', 'n', 1, 0, 0, 0, 't', 1, 0, 0, 0, 5})
	f.Add([]byte{23, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Decode(b, func(*Change) error { return nil })
	})
}
