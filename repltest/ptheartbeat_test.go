package repltest

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPtHeartbeat: percona-toolkit's pt-heartbeat (Debian's 3.2.1) keeps its
// heartbeat row current on the source with --update; on a replica, --check prints
// the replication delay once and --monitor prints a line per interval, both finding
// the source's server id from SHOW SLAVE STATUS or taking it from
// --master-server-id.
func TestPtHeartbeat(t *testing.T) {
	t.Parallel()
	bin := needTool(t, "pt-heartbeat", "percona-toolkit")
	src := startNode(t, "source", 191)
	rep := startNode(t, "replica", 192)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE hb")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)

	dsn := func(n *node) string { return fmt.Sprintf("h=127.0.0.1,P=%d,u=root", n.port()) }
	sentinel := filepath.Join(t.TempDir(), "pt-heartbeat-sentinel")
	upd := startTool(t, nil, bin, dsn(src), "--database", "hb", "--create-table", "--update", "--interval", "0.2", "--sentinel", sentinel)
	// The table exists on the replica once the source's CREATE TABLE and first
	// heartbeat have replicated.
	var first string
	eventually(t, 60*time.Second, "the heartbeat row on the replica", func() (bool, string) {
		if !upd.running() {
			t.Fatalf("pt-heartbeat --update exited:\n%s", upd.out.String())
		}
		_, r, err := tryResult(rep.db, "SELECT ts, server_id FROM hb.heartbeat")
		if err != nil || len(r) != 1 {
			return false, fmt.Sprint(r, err)
		}
		first = r[0][0]
		return r[0][1] == "191", fmt.Sprint(r)
	})
	// The row keeps moving: a later heartbeat replaces the first.
	eventually(t, 60*time.Second, "a newer heartbeat on the replica", func() (bool, string) {
		ts := str(t, rep.db, "SELECT ts FROM hb.heartbeat")
		return ts != first, ts
	})

	for _, args := range [][]string{
		{dsn(rep), "--database", "hb", "--check"},
		{dsn(rep), "--database", "hb", "--check", "--master-server-id", "191"},
	} {
		out := strings.TrimSpace(runTool(t, "", bin, args...))
		if lag, err := strconv.ParseFloat(out, 64); err != nil || lag < 0 {
			t.Errorf("pt-heartbeat %v printed %q, want a delay in seconds", args, out)
		}
	}
	out := runTool(t, "", bin, dsn(rep), "--database", "hb", "--monitor", "--master-server-id", "191", "--interval", "0.5", "--run-time", "2")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		// "0.20s [  0.00s,  0.00s,  0.00s ]"
		f := strings.Fields(l)
		if len(f) == 0 || !strings.HasSuffix(f[0], "s") {
			t.Errorf("pt-heartbeat --monitor line %q", l)
			continue
		}
		if _, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "s"), 64); err != nil {
			t.Errorf("pt-heartbeat --monitor line %q: %v", l, err)
		}
	}
	if len(lines) == 0 || lines[0] == "" {
		t.Errorf("pt-heartbeat --monitor printed nothing")
	}
	// pt-heartbeat's own way to stop: it exits between two updates, so no update
	// is in flight when the copies are compared.
	runTool(t, "", bin, "--stop", "--sentinel", sentinel)
	eventually(t, 60*time.Second, "pt-heartbeat --update to exit after --stop", func() (bool, string) { return !upd.running(), "" })
	assertInSync(t, src.db, rep.db)
}
