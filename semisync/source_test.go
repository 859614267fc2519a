package semisync

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"
)

func newTest(set Settings) *Source {
	return NewSource(set, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

func pos(off int64) Pos { return Pos{File: "binlog.000001", Offset: off} }

func TestAckReleasesGroup(t *testing.T) {
	s := newTest(Settings{Enabled: true, Timeout: 10 * time.Second, AfterSync: true})
	s.AddClient(1)
	done := make(chan bool)
	go func() { done <- s.Wait(context.Background(), pos(100), 5) }()
	s.Ack(1, pos(50)) // not far enough
	select {
	case <-done:
		t.Fatal("released by an ack of an earlier position")
	case <-time.After(50 * time.Millisecond):
	}
	s.Ack(1, pos(120))
	if !<-done {
		t.Fatal("not acknowledged")
	}
	st := s.Status()
	if !st.On || st.YesTx != 5 || st.NoTx != 0 || st.Clients != 1 || st.Waits != 1 {
		t.Fatalf("status %+v", st)
	}
}

func TestTimeoutFallsBackAndRecovers(t *testing.T) {
	s := newTest(Settings{Enabled: true, Timeout: 50 * time.Millisecond, AfterSync: true, WaitNoRepl: true})
	s.AddClient(7)
	start := time.Now()
	if s.Wait(context.Background(), pos(100), 1) {
		t.Fatal("acknowledged without an ack")
	}
	if el := time.Since(start); el < 50*time.Millisecond {
		t.Fatalf("gave up after %v, before the timeout", el)
	}
	st := s.Status()
	if st.On || st.NoTimes != 1 || st.NoTx != 1 {
		t.Fatalf("after timeout: %+v", st)
	}
	// While OFF, commits do not wait at all: with the timeout now an hour (a change
	// of settings keeps the status OFF), a commit that waited would not return.
	s.Configure(Settings{Enabled: true, Timeout: time.Hour, AfterSync: true, WaitNoRepl: true})
	if s.Status().On {
		t.Fatal("switched ON by a change of the timeout")
	}
	offDone := make(chan bool, 1)
	go func() { offDone <- s.Wait(context.Background(), pos(200), 3) }()
	select {
	case acked := <-offDone:
		if acked {
			t.Fatal("acknowledged while OFF without an ack")
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("waited while OFF: %+v", s.Status())
	}
	if st := s.Status(); st.On || st.NoTx != 4 || st.NoTimes != 1 || st.Waits != 0 || st.WaitSessions != 0 {
		t.Fatalf("after a commit while OFF: %+v, want OFF, no_tx 4, no_times 1, no waits", st)
	}
	// An ack short of the log's end does not switch back; one that catches up does.
	s.Ack(7, pos(150))
	if s.Status().On {
		t.Fatal("switched ON before catching up")
	}
	s.Ack(7, pos(200))
	if st := s.Status(); !st.On || st.NoTx != 4 {
		t.Fatalf("after catching up: %+v", st)
	}
}

func TestWaitCountNeedsSeveralReplicas(t *testing.T) {
	s := newTest(Settings{Enabled: true, Timeout: 5 * time.Second, WaitCount: 2})
	s.AddClient(1)
	s.AddClient(2)
	done := make(chan bool)
	go func() { done <- s.Wait(context.Background(), pos(10), 1) }()
	s.Ack(1, pos(10))
	select {
	case <-done:
		t.Fatal("released with one of two acks")
	case <-time.After(50 * time.Millisecond):
	}
	s.Ack(2, pos(11))
	if !<-done {
		t.Fatal("not released by the second ack")
	}
}

func TestDisabledNeverWaits(t *testing.T) {
	s := newTest(Settings{Enabled: false, Timeout: time.Hour})
	if s.Wait(context.Background(), pos(1), 1) {
		t.Fatal("acknowledged while disabled")
	}
	if st := s.Status(); st.On || st.NoTx != 0 {
		t.Fatalf("status %+v", st)
	}
}
