package repltest

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/binlite/binlite/server"
)

// A full disk under a replica's relay log: the IO thread reports ER_DISK_FULL
// and retries (SOURCE_CONNECT_RETRY), the node and its reads go on, and
// replication catches up by itself once there is room.
func TestRelayLogDiskFull(t *testing.T) {
	t.Parallel()
	var full atomic.Bool
	write := func(f *os.File, b []byte) (int, error) {
		if !full.Load() || !strings.Contains(f.Name(), "relay") {
			return f.Write(b)
		}
		n, _ := f.Write(b[:len(b)/2])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	src := startNode(t, "source", 1)
	rep := startNodeWith(t, "replica", 2, func(c *server.Config) { c.LogWrite = write })
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY)", "INSERT INTO d.t VALUES (1)")
	replicate(t, rep.db, src.port())
	waitCaughtUp(t, src.db, rep.db)

	full.Store(true)
	exec(t, src.db, "INSERT INTO d.t VALUES (2)", "INSERT INTO d.t VALUES (3)")
	st := waitStatus(t, rep.db, 30*time.Second, "Last_IO_Errno 1021", func(st status) bool {
		return st["Last_IO_Errno"] == "1021"
	})
	if !strings.Contains(st["Last_IO_Error"], "Disk full (relay") {
		t.Errorf("Last_IO_Error %q", st["Last_IO_Error"])
	}
	if got := integer(t, rep.db, "SELECT COUNT(*) FROM d.t"); got != 1 {
		t.Fatalf("replica rows while its relay log is full: %d", got)
	}

	full.Store(false)
	waitCaughtUp(t, src.db, rep.db)
	assertInSync(t, src.db, rep.db)
	waitStatus(t, rep.db, 30*time.Second, "the IO thread running again", func(st status) bool {
		return st["Replica_IO_Running"] == "Yes" && st["Last_IO_Errno"] == "0"
	})
}

// A full disk under a replica's binary log (its applier logs what it applies):
// the SQL thread stops with ER_DISK_FULL, the node goes on, and START REPLICA
// applies the rest once there is room, with nothing lost or applied twice.
func TestReplicaBinlogDiskFull(t *testing.T) {
	t.Parallel()
	var full atomic.Bool
	write := func(f *os.File, b []byte) (int, error) {
		if !full.Load() || !strings.Contains(filepath.Base(f.Name()), "binlog.") {
			return f.Write(b)
		}
		n, _ := f.Write(b[:len(b)/2])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	src := startNode(t, "source", 1)
	rep := startNodeWith(t, "replica", 2, func(c *server.Config) { c.LogWrite = write })
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY)", "INSERT INTO d.t VALUES (1)")
	replicate(t, rep.db, src.port())
	waitCaughtUp(t, src.db, rep.db)

	full.Store(true)
	exec(t, src.db, "INSERT INTO d.t VALUES (2)", "INSERT INTO d.t VALUES (3)")
	st := waitStatus(t, rep.db, 30*time.Second, "Last_SQL_Errno 1021", func(st status) bool {
		return st["Last_SQL_Errno"] == "1021"
	})
	if st["Replica_SQL_Running"] != "No" {
		t.Errorf("Replica_SQL_Running %q after a full binary log", st["Replica_SQL_Running"])
	}
	if got := integer(t, rep.db, "SELECT COUNT(*) FROM d.t"); got != 1 {
		t.Fatalf("replica rows while its binary log is full: %d", got)
	}

	full.Store(false)
	exec(t, rep.db, "START REPLICA")
	waitCaughtUp(t, src.db, rep.db)
	assertInSync(t, src.db, rep.db)
	assertBinlogOnce(t, rep.dir, gtidExecuted(t, rep.db))
}
