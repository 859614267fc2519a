package repltest

// kill -9 of a multi-source replica while both channels apply in parallel: it
// ends identical to both sources, each GTID applied once.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/binlite/binlite/checksum"
)

func TestKillMultiSourceReplica(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 19))
	t.Logf("seed %d", seed)
	a := startNode(t, "source1", 191)
	b := startNode(t, "source2", 192)
	for _, src := range []*node{a, b} {
		c := conn(t, src.db)
		exec(t, c, "SET SESSION sql_log_bin = 0")
		createReplUser(t, c)
	}
	rep := newProc(t, "replica", 193, opt("replica_parallel_workers", "4"), opt("max_relay_log_size", "16384"))
	rep.start()
	exec(t, rep.db,
		changeSourceSQL(a.port())+" FOR CHANNEL 'one'",
		fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', GET_SOURCE_PUBLIC_KEY=1, SOURCE_AUTO_POSITION=0, SOURCE_LOG_FILE='binlog.000001', SOURCE_LOG_POS=4, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1 FOR CHANNEL 'two'", b.port()),
		"START REPLICA")

	loadA := newMultiLoad(t, a.db, []string{"a1", "a2"}, nil)
	loadB := newMultiLoad(t, b.db, []string{"b1", "b2"}, nil)
	loadA.start(2)
	loadB.start(2)
	defer func() {
		for _, l := range []*multiLoad{loadA, loadB} {
			l.stop.Store(true)
			l.wg.Wait()
		}
	}()
	loadA.waitProgress(t, 100)
	loadB.waitProgress(t, 100)
	for k := 1; k <= 3; k++ {
		// Both channels applying: wait for progress of both sources, then kill.
		loadA.waitProgress(t, int64(50+rng.IntN(200)))
		loadB.waitProgress(t, int64(1+rng.IntN(50)))
		rep.kill()
		loadA.waitProgress(t, int64(50+rng.IntN(200)))
		rep.start()
		t.Logf("kill %d done", k)
	}
	loadA.finish(t)
	loadB.finish(t)
	for _, ch := range []string{"one", "two"} {
		waitChannel(t, rep.db, ch, "channel "+ch+" running after the kills", bothRunning)
	}
	waitCaughtUp(t, a.db, rep.db)
	waitCaughtUp(t, b.db, rep.db)
	for _, src := range []struct {
		n   *node
		dbs []string
	}{{a, []string{"a1", "a2"}}, {b, []string{"b1", "b2"}}} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		rpt, err := checksum.Compare(ctx, src.n.db, rep.db, checksum.Options{Databases: src.dbs})
		cancel()
		if err != nil {
			t.Fatalf("checksum.Compare: %v", err)
		}
		for _, d := range rpt.Diffs {
			t.Errorf("%s: DIFF %s", src.n.name, d)
		}
		if rpt.Tables != 2 {
			t.Errorf("%s: checksum compared %d tables, want 2", src.n.name, rpt.Tables)
		}
	}
	loadA.verifyAcknowledged(t, rep.db)
	loadB.verifyAcknowledged(t, rep.db)
	all := gtidExecuted(t, a.db).Union(gtidExecuted(t, b.db))
	if got := gtidExecuted(t, rep.db); !got.Equal(all) {
		t.Fatalf("replica gtid_executed %s, want %s", got, all)
	}
	for ch, st := range channelStatus(t, rep.db, "SHOW REPLICA STATUS") {
		if st["Last_SQL_Errno"] != "0" {
			t.Errorf("channel %s: %v", ch, st)
		}
	}
	rep.stop()
	assertBinlogOnce(t, rep.dir, all)
	t.Logf("%d + %d acknowledged writes, %d transactions", loadA.acked, loadB.acked, all.Count())
}
