package server_test

// A full disk under the binary log (issue 15): writes fail with ER_DISK_FULL,
// reads go on, the node never stops, and writes succeed again by themselves once
// there is room; nothing acknowledged is lost across a kill -9.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/server"
)

// fullDisk is a server.Config.LogWrite that fails as a full disk does while it
// is full (or, for a child node, while the file flag exists): it writes half of
// what it is given, then reports ENOSPC.
type fullDisk struct {
	mu   sync.Mutex
	full bool
	flag string
}

func (d *fullDisk) set(full bool) {
	d.mu.Lock()
	d.full = full
	d.mu.Unlock()
}

func (d *fullDisk) write(f *os.File, b []byte) (int, error) {
	d.mu.Lock()
	full := d.full
	d.mu.Unlock()
	if d.flag != "" {
		_, err := os.Stat(d.flag)
		full = err == nil
	}
	if !full {
		return f.Write(b)
	}
	n, err := f.Write(b[:len(b)/2])
	if err != nil {
		return n, err
	}
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func TestDiskFullFailsWritesAndReadsGoOn(t *testing.T) {
	disk := &fullDisk{}
	n := tn.StartWith(t, func(c *server.Config) { c.LogWrite = disk.write })
	c := tn.Conn(t, n.DB(""))
	tn.Exec(t, c, "CREATE DATABASE d")
	tn.Exec(t, c, "CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(20))")
	tn.Exec(t, c, "INSERT INTO d.t VALUES (1, 'before')")
	before := tn.GTIDExecuted(t, c)

	disk.set(true)
	me := tn.ExecError(t, c, 1021, "HY000", "INSERT INTO d.t VALUES (2, 'full')")
	if !strings.Contains(me.Message, "Disk full (binlog.000001)") {
		t.Errorf("message %q", me.Message)
	}
	// An explicit transaction fails at COMMIT, and is gone.
	tn.Exec(t, c, "BEGIN")
	tn.Exec(t, c, "INSERT INTO d.t VALUES (3, 'txn')")
	tn.ExecError(t, c, 1021, "HY000", "COMMIT")
	tn.ExecError(t, c, 1021, "HY000", "CREATE TABLE d.u (id INT PRIMARY KEY)")
	// Reads go on, and see none of it.
	if got := tn.Rows(t, c, "SELECT id, v FROM d.t ORDER BY id"); len(got) != 1 || got[0][1] != "before" {
		t.Fatalf("rows while the disk is full: %v", got)
	}
	if got := tn.GTIDExecuted(t, c); !got.Equal(before) {
		t.Fatalf("gtid_executed %s while the disk is full, was %s", got, before)
	}

	// Room again: writes succeed, without a restart.
	disk.set(false)
	tn.Exec(t, c, "INSERT INTO d.t VALUES (2, 'after')")
	tn.Exec(t, c, "CREATE TABLE d.u (id INT PRIMARY KEY)")
	if got := tn.Rows(t, c, "SELECT id, v FROM d.t ORDER BY id"); len(got) != 2 || got[1][1] != "after" {
		t.Fatalf("rows once there is room: %v", got)
	}
	after := tn.GTIDExecuted(t, c)
	n.Restart() // recovery reads a clean log
	c = tn.Conn(t, n.DB(""))
	if got := tn.GTIDExecuted(t, c); !got.Equal(after) {
		t.Fatalf("gtid_executed %s after a restart, was %s", got, after)
	}
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM d.t"); got != 2 {
		t.Fatalf("%d rows after a restart", got)
	}
}

// TestDiskFullThenKill fills the disk of a node in a child process, frees it,
// and kills the node: nothing acknowledged is lost, nothing refused appears.
func TestDiskFullThenKill(t *testing.T) {
	dir := t.TempDir()
	flag := filepath.Join(t.TempDir(), "full")
	child := startChildNodeIn(t, dir, []string{childFullEnv + "=" + flag}, 4096, 4096)
	c := tn.Conn(t, child.db(t))
	tn.Exec(t, c, "CREATE DATABASE d")
	tn.Exec(t, c, "CREATE TABLE d.t (id INT PRIMARY KEY)")
	acked := 0
	for i := 1; i <= 20; i++ {
		tn.Exec(t, c, "INSERT INTO d.t VALUES (?)", i)
		acked++
	}
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 21; i <= 30; i++ {
		tn.ExecError(t, c, 1021, "HY000", fmt.Sprintf("INSERT INTO d.t VALUES (%d)", i))
	}
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM d.t"); got != int64(acked) {
		t.Fatalf("%d rows while the disk is full, %d acknowledged", got, acked)
	}
	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	for i := 31; i <= 40; i++ {
		tn.Exec(t, c, "INSERT INTO d.t VALUES (?)", i)
		acked++
	}
	executed := tn.String(t, c, "SELECT @@gtid_executed")
	if !child.alive() {
		t.Fatal("the node exited")
	}
	child.cmd.Process.Kill() // kill -9
	<-child.exited

	child = startChildNodeIn(t, dir, nil, 4096, 4096)
	c = tn.Conn(t, child.db(t))
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM d.t"); got != int64(acked) {
		t.Fatalf("%d rows after kill -9 and restart, %d acknowledged", got, acked)
	}
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM d.t WHERE id BETWEEN 21 AND 30"); got != 0 {
		t.Fatalf("%d refused rows after restart", got)
	}
	if got := tn.String(t, c, "SELECT @@gtid_executed"); got != executed {
		t.Fatalf("gtid_executed %s after restart, was %s", got, executed)
	}
}
