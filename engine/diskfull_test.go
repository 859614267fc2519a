package engine

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/binlite/binlite/binlog"
	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// A group the binary log refuses for want of space, behind one durable in the log
// in the same SQLite transaction: its statement fails with ER_DISK_FULL, the
// durable group commits (applied again from its row events), the node goes on,
// and writes succeed once there is room.
func TestPipelineDiskFullBehindDurableGroup(t *testing.T) {
	dir := t.TempDir()
	var full atomic.Bool
	write := func(f *os.File, b []byte) (int, error) {
		if !full.Load() {
			return f.Write(b)
		}
		n, _ := f.Write(b[:len(b)/2])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	u, _ := gtid.ParseUUID("11111111-2222-3333-4444-555555555555")
	l, err := binlog.Open(dir, binlog.Options{ServerUUID: u, ServerID: 1, SyncBinlog: 1, Logger: logger, Write: write})
	if err != nil {
		t.Fatal(err)
	}
	gs := newGates(PointLogBegin, PointLogSynced)
	e, err := Open(Options{Dir: dir, Log: l, Logger: logger, TestPoint: gs.hook,
		OnFatal: func(err error) { t.Errorf("fatal: %v", err) },
		TranslateDDL: func(_, sql string, _ func(string) *mysqlcatalog.Table) ([]string, error) {
			return []string{sql}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	te := &testEngine{Engine: e, log: l, dir: dir}
	defer te.close(t)
	setup(t, te.Engine, "d")
	expectOverlap(t, te.Engine, "d")

	a := send(t, te.Engine, "d", "INSERT INTO t VALUES (1, 1)")
	gs.wait(t, PointLogBegin) // group N = {a} in the log stage
	b := send(t, te.Engine, "d", "INSERT INTO t VALUES (2, 2)")
	gs.waitCount(t, PointAhead, 1) // b ran into group N+1
	gs.release(PointLogBegin)
	gs.wait(t, PointLogSynced) // N is durable; N+1 follows it to the log...
	full.Store(true)           // ...and finds the disk full
	gs.release(PointLogSynced)

	ra, err := a.wait(t)
	if err != nil {
		t.Fatalf("durable group: %v", err)
	}
	if _, err := b.wait(t); !mysqlerr.Is(err, mysqlerr.ErDiskFull) {
		t.Fatalf("refused group: %v, want 1021", err)
	}
	if ids := visibleIDs(t, te.Engine, "d"); fmt.Sprint(ids) != "[1]" {
		t.Fatalf("rows %v, want [1]", ids)
	}
	if _, err := te.Exec("d", Stmt{SQL: "INSERT INTO t VALUES (3, 3)"}, testWait); !mysqlerr.Is(err, mysqlerr.ErDiskFull) {
		t.Fatalf("while full: %v, want 1021", err)
	}
	full.Store(false)
	rc := mustExec(t, te.Engine, "d", "INSERT INTO t VALUES (3, 3)")
	if rc.GTID.Seq != ra.GTID.Seq+1 {
		t.Fatalf("GTID %v after %v: the refused numbers must be handed out again", rc.GTID, ra.GTID)
	}
	if ids := visibleIDs(t, te.Engine, "d"); fmt.Sprint(ids) != "[1 3]" {
		t.Fatalf("rows %v, want [1 3]", ids)
	}
	if n := len(loggedTxns(t, te.log)); n != 4 { // CREATE DATABASE, CREATE TABLE, 1, 3
		t.Fatalf("log holds %d transactions, want 4", n)
	}
}
