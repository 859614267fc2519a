package crashpoint

import (
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

func testCrash(t *testing.T, spec string) (*Crash, *atomic.Int32) {
	t.Helper()
	c, err := Parse(spec, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	kills := new(atomic.Int32)
	c.kill = func() { kills.Add(1) }
	c.park = func() {}
	return c, kills
}

func TestParse(t *testing.T) {
	for _, bad := range []string{"", "@3", "a@0", "a@x", "+b"} {
		if _, err := Parse(bad, slog.Default()); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	c, _ := testCrash(t, "commit.log-synced+commit.ahead@7")
	if c.point != "commit.log-synced" || c.then != "commit.ahead" || c.nth != 7 {
		t.Fatalf("parsed %+v", c)
	}
}

// The n-th arrival kills; earlier ones and other points do not.
func TestKillAtNth(t *testing.T) {
	c, kills := testCrash(t, "p@3")
	c.Hook("p")
	c.Hook("q")
	c.Hook("p")
	if kills.Load() != 0 {
		t.Fatal("killed before the third arrival")
	}
	c.Hook("p")
	if kills.Load() != 1 {
		t.Fatal("not killed at the third arrival")
	}
	c.Hook("p")
	if kills.Load() != 1 {
		t.Fatal("killed twice")
	}
}

// With +then the goroutine at point waits and the next arrival at then kills.
func TestKillAtThen(t *testing.T) {
	c, kills := testCrash(t, "p+q")
	c.Hook("q") // not armed yet
	done := make(chan struct{})
	go func() {
		c.Hook("p")
		close(done)
	}()
	for !c.armed.Load() {
		time.Sleep(time.Millisecond)
	}
	if kills.Load() != 0 {
		t.Fatal("killed before then")
	}
	c.Hook("q")
	<-done
	if kills.Load() != 1 {
		t.Fatalf("%d kills, want 1", kills.Load())
	}
}

// When then never comes, the point kills after thenWait.
func TestKillWhenThenNeverComes(t *testing.T) {
	c, kills := testCrash(t, "p+q")
	start := time.Now()
	c.Hook("p")
	if kills.Load() != 1 || time.Since(start) < thenWait {
		t.Fatalf("%d kills after %v", kills.Load(), time.Since(start))
	}
}
