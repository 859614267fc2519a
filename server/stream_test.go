package server_test

// Result sets larger than the session's read-ahead stream from SQLite to the
// client (issue 15): their values and types are those of a result read whole,
// an error on a late row ends them with an ERR packet after the rows sent, the
// end packet counts the warnings of every row, and clients that stop reading
// hold up neither other sessions' reads nor the node.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"golang.org/x/sys/unix"

	tn "github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/mysqlproto"
)

// streamRows is enough rows of about 330 bytes to pass the session's 256 KB
// read-ahead several times over.
const streamRows = 4000

// fillStreamTable makes d.s: id 1..streamRows, a DECIMAL, a BIGINT UNSIGNED
// beyond 2^63 (SQLite keeps those in binlite's stored form), a
// padding string, and j, valid JSON except at row bad (0: none).
func fillStreamTable(t *testing.T, c tn.Querier, bad int) {
	t.Helper()
	tn.Exec(t, c, "CREATE DATABASE d")
	tn.Exec(t, c, "CREATE TABLE d.s (id INT PRIMARY KEY, dec2 DECIMAL(10,2), u BIGINT UNSIGNED, pad VARCHAR(400), j TEXT)")
	tn.Exec(t, c, fmt.Sprintf(`INSERT INTO d.s WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < %d)
		SELECT n, n / 4, CAST(CONCAT('1844674407370954', LPAD(n, 4, '0')) AS UNSIGNED), REPEAT('p', 300), '[1]' FROM c`, streamRows))
	if bad > 0 {
		tn.Exec(t, c, "UPDATE d.s SET j = '{bad' WHERE id = ?", bad)
	}
}

func TestStreamedResultValues(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	c := tn.Conn(t, db)
	fillStreamTable(t, c, 0)
	const q = "SELECT id, dec2, u, pad, id * 2.5 FROM d.s ORDER BY id"
	check := func(name string, rows *sql.Rows) {
		t.Helper()
		types, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		if got := types[1].DatabaseTypeName(); got != "DECIMAL" {
			t.Errorf("%s: dec2 is %s", name, got)
		}
		if got := types[2].DatabaseTypeName(); got != "UNSIGNED BIGINT" {
			t.Errorf("%s: u is %s", name, got)
		}
		i := 0
		for rows.Next() {
			i++
			var id int
			var dec, u, pad, product string
			if err := rows.Scan(&id, &dec, &u, &pad, &product); err != nil {
				t.Fatalf("%s: row %d: %v", name, i, err)
			}
			want := fmt.Sprintf("%d.%02d", i/4, i%4*25)
			if id != i || dec != want || u != fmt.Sprintf("1844674407370954%04d", i) || len(pad) != 300 ||
				product != strconv.FormatFloat(float64(i)*2.5, 'f', 1, 64) {
				t.Fatalf("%s: row %d = %d %s %s %d %s, want %d %s 1844674407370954%04d 300 %.1f", name, i, id, dec, u, len(pad), product,
					i, want, i, float64(i)*2.5)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if i != streamRows {
			t.Fatalf("%s: %d rows, want %d", name, i, streamRows)
		}
	}
	rows, err := c.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	check("text protocol", rows)
	rows.Close()
	rows, err = c.QueryContext(context.Background(), q+" LIMIT ?", streamRows) // prepared: binary rows
	if err != nil {
		t.Fatal(err)
	}
	check("binary protocol", rows)
	rows.Close()
	// Several statements: the streamed result goes whole before the next runs.
	multi := n.DB("", "multiStatements=true")
	mc := tn.Conn(t, multi)
	rows, err = mc.QueryContext(context.Background(), q+"; SELECT COUNT(*) FROM d.s")
	if err != nil {
		t.Fatal(err)
	}
	check("first of two statements", rows)
	var count int
	if !rows.NextResultSet() || !rows.Next() {
		t.Fatalf("no second result: %v", rows.Err())
	}
	if err := rows.Scan(&count); err != nil || count != streamRows {
		t.Fatalf("second result: %d, %v", count, err)
	}
	rows.Close()
	if got := tn.Int(t, mc, "SELECT COUNT(*) FROM d.s"); got != streamRows {
		t.Fatalf("count after a streamed multi-statement result = %d", got)
	}
}

func TestStreamedResultErrorAfterRows(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	c := tn.Conn(t, db)
	const bad = 3500 // past the read-ahead: rows have been sent when it fails
	fillStreamTable(t, c, bad)
	for _, prepared := range []bool{false, true} {
		q, args := "SELECT id, pad, JSON_EXTRACT(j, '$[0]') FROM d.s ORDER BY id", []any(nil)
		if prepared {
			q, args = q+" LIMIT ?", []any{streamRows}
		}
		rows, err := c.QueryContext(context.Background(), q, args...)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for rows.Next() {
			got++
		}
		err = rows.Err()
		rows.Close()
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 3141 {
			t.Fatalf("prepared=%v: after %d rows: err %v, want 3141", prepared, got, err)
		}
		if got == 0 || got >= bad {
			t.Fatalf("prepared=%v: %d rows before the error, want some and fewer than %d", prepared, got, bad)
		}
		// The error is the statement's diagnostics, and the session goes on.
		if _, w := tn.Result(t, c, "SHOW WARNINGS"); len(w) != 1 || w[0][0] != "Error" || w[0][1] != "3141" {
			t.Fatalf("prepared=%v: SHOW WARNINGS after the error = %v", prepared, w)
		}
		if v := tn.Int(t, c, "SELECT 7"); v != 7 {
			t.Fatalf("session after the error: %d", v)
		}
	}
}

// rawSession logs root in with binlite's own client, for what drivers neither
// show (the end packet's warning count) nor do (stop reading a result).
func rawSession(t *testing.T, addr string) *mysqlproto.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := mysqlproto.Dial(ctx, addr, "root", "")
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func sendQuery(t *testing.T, c *mysqlproto.Conn, q string) {
	t.Helper()
	c.ResetSequence()
	if err := c.WritePacket(append([]byte{0x03}, q...)); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
}

// readTextResult reads a whole result set (the client did not ask for
// CLIENT_DEPRECATE_EOF): its row count, the warning count of its EOF packet and
// its last row's payload.
func readTextResult(t *testing.T, c *mysqlproto.Conn) (rows int, warnings int, last []byte) {
	t.Helper()
	c.NetConn().SetReadDeadline(time.Now().Add(tn.StatementTimeout))
	defer c.NetConn().SetReadDeadline(time.Time{})
	read := func() []byte {
		p, err := c.ReadPacket()
		if err != nil {
			t.Fatal(err)
		}
		if p[0] == 0xff {
			t.Fatalf("ERR %d: %s", int(p[1])|int(p[2])<<8, p[9:])
		}
		return p
	}
	ncols := int(read()[0])
	for range ncols {
		read()
	}
	if p := read(); p[0] != 0xfe {
		t.Fatalf("no EOF after the columns: %x", p[:min(len(p), 16)])
	}
	for {
		p := read()
		if p[0] == 0xfe && len(p) < 9 {
			return rows, int(p[1]) | int(p[2])<<8, last
		}
		rows, last = rows+1, p
	}
}

func TestStreamedResultCountsWarningsOfEveryRow(t *testing.T) {
	n := tn.Start(t)
	c := tn.Conn(t, n.DB(""))
	fillStreamTable(t, c, 0)
	rc := rawSession(t, n.Addr())
	// Each row past id 3000 (beyond the read-ahead) warns 1292.
	sendQuery(t, rc, "SELECT id, pad, CASE WHEN id > 3000 THEN CAST(CONCAT(id, 'x') AS SIGNED) END FROM d.s ORDER BY id")
	rows, warnings, _ := readTextResult(t, rc)
	if rows != streamRows || warnings != streamRows-3000 {
		t.Fatalf("%d rows, %d warnings in the EOF packet; want %d, %d", rows, warnings, streamRows, streamRows-3000)
	}
	sendQuery(t, rc, "SELECT @@warning_count")
	if _, _, last := readTextResult(t, rc); string(last[1:]) != strconv.Itoa(streamRows-3000) {
		t.Fatalf("@@warning_count = %q, want %d", last[1:], streamRows-3000)
	}
}

// unread is how many bytes wait in a client socket's receive queue.
func unread(t *testing.T, nc net.Conn) int {
	t.Helper()
	sc, err := nc.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var ierr error
	if err := sc.Control(func(fd uintptr) { n, ierr = unix.IoctlGetInt(int(fd), unix.SIOCINQ) }); err != nil {
		t.Fatal(err)
	}
	if ierr != nil {
		t.Fatal(ierr)
	}
	return n
}

// queries counts the sessions SHOW PROCESSLIST shows running text q.
func queries(t *testing.T, c tn.Querier, q string) int {
	n := 0
	for _, r := range tn.Rows(t, c, "SHOW PROCESSLIST") {
		if r[7] == q {
			n++
		}
	}
	return n
}

func TestStalledReadersHoldUpNoOneElse(t *testing.T) {
	n := tn.Start(t)
	c := tn.Conn(t, n.DB(""))
	tn.Exec(t, c, "CREATE DATABASE d")
	tn.Exec(t, c, "CREATE TABLE d.big (id INT PRIMARY KEY, pad VARCHAR(1000))")
	// 20 MB: far more than a stalled client's socket buffers take.
	for i := range 4 {
		tn.Exec(t, c, fmt.Sprintf(`INSERT INTO d.big WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < 5000)
			SELECT n + %d, REPEAT('b', 1000) FROM c`, i*5000))
	}
	// More stalled readers than a schema has read connections (8).
	const stalled = 12
	const q = "SELECT * FROM big"
	var clients []*mysqlproto.Conn
	for range stalled {
		rc := rawSession(t, n.Addr())
		sendQuery(t, rc, "USE d") // reads of d go to its pool of read connections
		if p, err := rc.ReadPacket(); err != nil || p[0] != 0 {
			t.Fatalf("USE d: %x %v", p, err)
		}
		sendQuery(t, rc, q)
		clients = append(clients, rc)
	}
	// Each has rows waiting, so each session's cursor is open and streaming.
	tn.WaitFor(t, tn.StatementTimeout, "rows at every stalled client", func() (bool, string) {
		waiting := 0
		for _, rc := range clients {
			if unread(t, rc.NetConn()) > 0 {
				waiting++
			}
		}
		return waiting == stalled, fmt.Sprintf("%d of %d have rows", waiting, stalled)
	})
	// Others read the same table, from the same schema's pool, meanwhile.
	cd := tn.Conn(t, n.DB("d"))
	if got := tn.Int(t, cd, "SELECT COUNT(*) FROM big"); got != 20000 {
		t.Fatalf("COUNT(*) = %d", got)
	}
	if got := tn.String(t, cd, "SELECT LENGTH(pad) FROM big WHERE id = 17"); got != "1000" {
		t.Fatalf("LENGTH = %s", got)
	}
	tn.Exec(t, c, "INSERT INTO d.big VALUES (20001, 'w')")
	if got := queries(t, c, q); got != stalled {
		t.Fatalf("%d sessions still reading, want the %d stalled ones", got, stalled)
	}
	// Once the clients go, so do their sessions.
	for _, rc := range clients {
		rc.Close()
	}
	tn.WaitFor(t, tn.StatementTimeout, "the stalled sessions to end", func() (bool, string) {
		got := queries(t, c, q)
		return got == 0, fmt.Sprintf("%d left", got)
	})
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM d.big"); got != 20001 {
		t.Fatalf("COUNT(*) = %d", got)
	}
}
