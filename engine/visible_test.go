package engine

import (
	"context"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// WaitExecuted returns once the last wanted GTID becomes visible, not at a later
// poll, and gives up when its context ends.
func TestWaitExecutedWakesAtCommit(t *testing.T) {
	e := &Engine{}
	u := gtid.NewUUID()
	var want gtid.Set
	want.AddRange(u, 1, 3)
	done := make(chan bool, 1)
	go func() { done <- e.WaitExecuted(context.Background(), want) }()

	e.visible.add([]*binlog.Transaction{{GTID: gtid.GTID{UUID: u, Seq: 1}}, {GTID: gtid.GTID{UUID: u, Seq: 3}}})
	select {
	case <-done:
		t.Fatal("returned while 2 was still missing")
	case <-time.After(50 * time.Millisecond):
	}
	e.visible.add([]*binlog.Transaction{{GTID: gtid.GTID{UUID: u, Seq: 2}}})
	select {
	case ok := <-done:
		if !ok {
			t.Fatal("WaitExecuted reported false")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still waiting after the set became visible")
	}

	var more gtid.Set
	more.AddRange(u, 1, 4)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- e.WaitExecuted(ctx, more) }()
	cancel()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("true without GTID 4")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("did not give up when its context ended")
	}
}
