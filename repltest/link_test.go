package repltest

// The link between replica and source cut and stalled with toxiproxy (in
// process) while the source keeps writing: the IO thread says why in
// Last_IO_Error, reconnects by itself, and the replica ends an exact copy with
// no GTID missing or applied twice.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// loadWriter runs autocommit inserts (unique ids) and updates on a source until
// stopped, counting acknowledged writes.
type loadWriter struct {
	stop  atomic.Bool
	wg    sync.WaitGroup
	acked atomic.Int64
	mu    sync.Mutex
	err   error
}

func startLoadWriter(t testing.TB, q querier, schema string, workers int) *loadWriter {
	t.Helper()
	exec(t, q, "CREATE DATABASE IF NOT EXISTS "+schema, "CREATE TABLE IF NOT EXISTS "+schema+".t (id INT NOT NULL PRIMARY KEY, w INT NOT NULL, n INT NOT NULL DEFAULT 0, s VARCHAR(64))")
	l := &loadWriter{}
	for w := 0; w < workers; w++ {
		l.wg.Add(1)
		go func(w int) {
			defer l.wg.Done()
			for i := 1; !l.stop.Load(); i++ {
				id := w*10_000_000 + i
				q1 := fmt.Sprintf("INSERT INTO %s.t (id, w, s) VALUES (%d, %d, 'row %d')", schema, id, w, id)
				if i%4 == 0 {
					q1 = fmt.Sprintf("UPDATE %s.t SET n = n + 1, s = CONCAT(s, '+') WHERE id = %d", schema, id-1-i%3)
				}
				if err := tryExec(q, q1); err != nil {
					l.mu.Lock()
					l.err = fmt.Errorf("%s: %w", q1, err)
					l.mu.Unlock()
					return
				}
				l.acked.Add(1)
			}
		}(w)
	}
	return l
}

// waitProgress waits until n more writes were acknowledged.
func (l *loadWriter) waitProgress(t testing.TB, n int64) {
	t.Helper()
	target := l.acked.Load() + n
	eventually(t, 60*time.Second, fmt.Sprintf("%d more source writes", n), func() (bool, string) {
		l.mu.Lock()
		err := l.err
		l.mu.Unlock()
		if err != nil {
			t.Fatalf("source writer: %v", err)
		}
		return l.acked.Load() >= target, fmt.Sprint(l.acked.Load())
	})
}

func (l *loadWriter) finish(t testing.TB) {
	t.Helper()
	l.stop.Store(true)
	l.wg.Wait()
	if l.err != nil {
		t.Fatalf("source writer: %v", l.err)
	}
}

func TestLinkCutByToxiproxyReconnects(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 121)
	rep := startNode(t, "replica", 122)
	createReplUser(t, src.db)

	api := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	proxy := toxiproxy.NewProxy(api, "binlite", "127.0.0.1:0", src.srv.Addr())
	if err := proxy.Start(); err != nil {
		t.Fatalf("toxiproxy: %v", err)
	}
	t.Cleanup(proxy.Stop)
	var proxyPort int
	if _, err := fmt.Sscanf(proxy.Listen[strings.LastIndex(proxy.Listen, ":")+1:], "%d", &proxyPort); err != nil {
		t.Fatalf("proxy address %q: %v", proxy.Listen, err)
	}

	replicate(t, rep.db, proxyPort)
	waitRunning(t, rep.db)
	load := startLoadWriter(t, src.db, "link", 3)
	defer func() {
		load.stop.Store(true)
		load.wg.Wait()
	}()
	load.waitProgress(t, 50)

	cycles := 3
	if testing.Short() {
		cycles = 2
	}
	for c := 1; c <= cycles; c++ {
		// Cut: the proxy closes both connections and refuses new ones.
		proxy.Stop()
		st := waitStatus(t, rep.db, 30*time.Second, "Replica_IO_Running=Connecting with a Last_IO_Error", func(st status) bool {
			return st["Replica_IO_Running"] == "Connecting" && st["Last_IO_Error"] != ""
		})
		t.Logf("cut %d: Last_IO_Errno %s, Last_IO_Error %q, Replica_IO_State %q", c, st["Last_IO_Errno"], st["Last_IO_Error"], st["Replica_IO_State"])
		if st["Last_IO_Errno"] == "0" {
			t.Errorf("cut %d: Last_IO_Errno is 0 while Last_IO_Error is %q", c, st["Last_IO_Error"])
		}
		if st["Replica_SQL_Running"] != "Yes" {
			t.Errorf("cut %d: Replica_SQL_Running = %s while the link is down", c, st["Replica_SQL_Running"])
		}
		if st["Last_IO_Error_Timestamp"] == "" {
			t.Errorf("cut %d: Last_IO_Error_Timestamp is empty", c)
		}
		// It keeps retrying (SOURCE_CONNECT_RETRY=1) and says so.
		first := st["Last_IO_Error"]
		waitStatus(t, rep.db, 30*time.Second, "a later reconnect attempt in Last_IO_Error", func(st status) bool {
			return st["Last_IO_Error"] != "" && st["Last_IO_Error"] != first && st["Replica_IO_Running"] == "Connecting"
		})
		load.waitProgress(t, 100) // the source goes on while the link is down

		// Heal: the IO thread reconnects by itself and catches up.
		if err := proxy.Start(); err != nil {
			t.Fatalf("toxiproxy restart: %v", err)
		}
		waitStatus(t, rep.db, 30*time.Second, "Replica_IO_Running=Yes after the link is back", func(st status) bool {
			return st["Replica_IO_Running"] == "Yes"
		})
		waitCaughtUp(t, src.db, rep.db)
		load.waitProgress(t, 50)
	}

	// A stalled link (the proxy silently drops everything, the TCP connection stays
	// open): no heartbeat arrives, so the replica gives up on the connection after
	// its net timeout and says why.
	if _, err := proxy.Toxics.AddToxicJson(strings.NewReader(`{"name":"stall","type":"timeout","stream":"downstream","toxicity":1,"attributes":{"timeout":0}}`)); err != nil {
		t.Fatalf("adding the timeout toxic: %v", err)
	}
	st := waitStatus(t, rep.db, 45*time.Second, "a Last_IO_Error for the stalled link", func(st status) bool {
		return st["Last_IO_Error"] != ""
	})
	t.Logf("stall: Replica_IO_Running %s, Last_IO_Errno %s, Last_IO_Error %q", st["Replica_IO_Running"], st["Last_IO_Errno"], st["Last_IO_Error"])
	if err := proxy.Toxics.RemoveToxic(context.Background(), "stall"); err != nil {
		t.Fatalf("removing the toxic: %v", err)
	}
	waitStatus(t, rep.db, 60*time.Second, "Replica_IO_Running=Yes after the stall", func(st status) bool {
		return st["Replica_IO_Running"] == "Yes" && st["Last_IO_Error"] == ""
	})
	load.waitProgress(t, 50)

	load.finish(t)
	assertInSync(t, src.db, rep.db)
	st = showStatus(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS at the end", st, map[string]string{
		"Replica_IO_Running":  "Yes",
		"Replica_SQL_Running": "Yes",
		"Last_SQL_Errno":      "0",
	})
	if n := integer(t, src.db, "SELECT COUNT(*) FROM link.t"); n != integer(t, rep.db, "SELECT COUNT(*) FROM link.t") || n == 0 {
		t.Errorf("row counts differ or are 0: source %d", n)
	}
	want := gtidExecuted(t, rep.db)
	rep.close()
	assertBinlogOnce(t, rep.dir, want)
	t.Logf("%d acknowledged source writes over %d cuts and a stall", load.acked.Load(), cycles)
}
