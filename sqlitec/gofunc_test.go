package sqlitec

import (
	"database/sql/driver"
	"reflect"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// A Go function sees each argument's type and value, gives results of every
// type (empty text and blobs stay distinct from NULL), and fails a statement
// with its message.
func TestRegisterFunc(t *testing.T) {
	c := openConn(t)
	describe := func(ctx Context, args []Value) {
		var b strings.Builder
		for i := range args {
			v := &args[i]
			switch v.Type() {
			case TypeInteger:
				b.WriteString("i")
			case TypeFloat:
				b.WriteString("f")
			case TypeText:
				b.WriteString("t" + string(v.Bytes()))
			case TypeBlob:
				b.WriteString("b" + string(v.Bytes()))
			case TypeNull:
				b.WriteString("n")
			}
		}
		ctx.ResultString(b.String())
	}
	echo := func(ctx Context, args []Value) {
		if len(args) == 0 {
			return // NULL
		}
		ctx.ResultValue(&args[0])
	}
	fail := func(ctx Context, args []Value) { ctx.ResultError("binlite-error:1235:no") }
	for name, fn := range map[string]Func{"describe": describe, "echo": echo, "fail": fail} {
		if err := RegisterFunc(c, name, -1, true, fn); err != nil {
			t.Fatal(err)
		}
	}
	got := rows(t, c, "SELECT describe(1, 2.5, 'x', X'41', NULL, '', X'', 1, 2, 3, 4, 5), echo(7), echo(1.5), echo(''), echo(X''), echo(NULL), echo(), typeof(echo('')), typeof(echo(X''))")
	want := []driver.Value{"iftxbAntbiiiii", int64(7), 1.5, "", []byte{}, nil, nil, "text", "blob"}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("got %#v\nwant %#v", got[0], want)
	}
	if _, err := c.Query("SELECT fail()", nil); err == nil || !strings.Contains(err.Error(), "binlite-error:1235:no") {
		t.Errorf("fail(): %v", err)
	}
}

type sumAgg struct{ n, rows int64 }

func (s *sumAgg) Step(c Context, args []Value) {
	s.rows++
	s.n += args[0].Int()
}

func (s *sumAgg) Final(c Context) {
	if s.rows == 0 {
		return
	}
	c.ResultInt(s.n)
}

// An aggregate keeps one state per group; a group of no rows gets a fresh one.
func TestRegisterAggregate(t *testing.T) {
	c := openConn(t)
	if err := RegisterAggregate(c, "isum", 1, func() Aggregate { return &sumAgg{} }); err != nil {
		t.Fatal(err)
	}
	execDriver(t, c, "CREATE TABLE t (g INT, v INT)")
	execDriver(t, c, "INSERT INTO t VALUES (1, 1), (1, 2), (2, 10)")
	got := rows(t, c, "SELECT g, isum(v) FROM t GROUP BY g ORDER BY g")
	if !reflect.DeepEqual(got, [][]driver.Value{{int64(1), int64(3)}, {int64(2), int64(10)}}) {
		t.Errorf("GROUP BY: %v", got)
	}
	if got := rows(t, c, "SELECT isum(v) FROM t WHERE g > 5"); got[0][0] != nil {
		t.Errorf("no rows: %v", got)
	}
}

func BenchmarkGoFunc(b *testing.B) {
	c, err := (&sqlite3.SQLiteDriver{}).Open(":memory:")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	conn := c.(*sqlite3.SQLiteConn)
	if err := RegisterFunc(conn, "gofn", 2, true, func(ctx Context, args []Value) { ctx.ResultInt(int64(len(args[0].Bytes())) + args[1].Int()) }); err != nil {
		b.Fatal(err)
	}
	if err := conn.RegisterFunc("refl", func(s string, n int64) int64 { return int64(len(s)) + n }, true); err != nil {
		b.Fatal(err)
	}
	for _, fn := range []string{"gofn", "refl"} {
		b.Run(fn, func(b *testing.B) {
			q := "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 1000) SELECT sum(" + fn + "('abc' || i, i)) FROM r"
			for i := 0; i < b.N; i++ {
				rows, err := conn.Query(q, nil)
				if err != nil {
					b.Fatal(err)
				}
				dest := make([]driver.Value, 1)
				rows.Next(dest)
				rows.Close()
			}
		})
	}
}
