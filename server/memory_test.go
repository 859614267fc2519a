package server_test

// The node's memory against clients that stop reading a large result and
// against a large statement (issue 15): the node runs in a child process
// (startChildNode) so that its resident set, read from /proc, is its own.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/mysqlproto"
)

// procStatus reads a field of /proc/PID/status in kB, as bytes.
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

func TestStalledReadersOfALargeResultKeepMemoryBounded(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("writes 200 MB; RSS means nothing under the race detector")
	}
	child := startChildNode(t, 4096, 4096)
	pid := child.cmd.Process.Pid
	c := tn.Conn(t, child.db(t))
	tn.Exec(t, c, "CREATE DATABASE d")
	tn.Exec(t, c, "CREATE TABLE d.t (id INT PRIMARY KEY, pad VARCHAR(1000))")
	// 200 MB in 20 statements of 10 MB.
	const batches, perBatch = 20, 10000
	for i := range batches {
		tn.Exec(t, c, fmt.Sprintf(`INSERT INTO d.t WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < %d)
			SELECT n + %d, REPEAT('r', 1000) FROM c`, perBatch, i*perBatch))
	}
	base := procStatus(t, pid, "VmRSS")

	// Four clients ask for the whole table and read none of it.
	const q = "SELECT * FROM t"
	var clients []*mysqlproto.Conn
	for range 4 {
		rc := rawSession(t, child.addr)
		sendQuery(t, rc, "USE d")
		if p, err := rc.ReadPacket(); err != nil || p[0] != 0 {
			t.Fatalf("USE d: %x %v", p, err)
		}
		sendQuery(t, rc, q)
		clients = append(clients, rc)
	}
	// Until every client's receive queue has rows and stops growing (the node
	// waits on a full socket), watch the node's resident set.
	peak := base
	last := make([]int, len(clients))
	steady := 0
	tn.WaitFor(t, 60*time.Second, "the four sessions to stall", func() (bool, string) {
		peak = max(peak, procStatus(t, pid, "VmRSS"))
		same := true
		for i, rc := range clients {
			n := unread(t, rc.NetConn())
			same = same && n > 0 && n == last[i]
			last[i] = n
		}
		if same {
			steady++
		} else {
			steady = 0
		}
		return steady >= 100, fmt.Sprintf("unread %v", last)
	})
	for range 20 {
		peak = max(peak, procStatus(t, pid, "VmRSS"))
	}
	if got := queries(t, c, q); got != 4 {
		t.Fatalf("%d sessions running the query, want 4", got)
	}
	t.Logf("node RSS %d MB after writing 200 MB; at most %d MB while 4 clients stall on it (%d KB unread at each)",
		base>>20, peak>>20, last[0]>>10)
	if limit := base + 64<<20; peak > limit {
		t.Errorf("RSS reached %d MB, more than %d MB + 64 MB", peak>>20, base>>20)
	}
	for _, rc := range clients {
		rc.Close()
	}
	tn.WaitFor(t, tn.StatementTimeout, "the stalled sessions to end", func() (bool, string) {
		n := queries(t, c, q)
		return n == 0, fmt.Sprintf("%d left", n)
	})
	t.Logf("node RSS %d MB once they are gone", procStatus(t, pid, "VmRSS")>>20)
	if !child.alive() {
		t.Fatal("the node exited")
	}
}

func TestLargeQueryMemory(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("sends 50 MB; RSS means nothing under the race detector")
	}
	child := startChildNode(t, 4096, 4096)
	pid := child.cmd.Process.Pid
	c := tn.Conn(t, child.db(t))
	tn.Exec(t, c, "SELECT 1")
	rc := rawSession(t, child.addr)
	const size = 50 << 20
	query := "SELECT LENGTH('" + strings.Repeat("q", size) + "') AS n"
	base := procStatus(t, pid, "VmRSS")
	// The peak from here on (Linux resets VmHWM on writing 5 to clear_refs).
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the node's peak RSS: %v", err)
	}
	sendQuery(t, rc, query)
	query = ""
	rows, _, last := readTextResult(t, rc)
	if rows != 1 || string(last[1:]) != strconv.Itoa(size) {
		t.Fatalf("%d rows, %q", rows, last)
	}
	peak := procStatus(t, pid, "VmHWM")
	// What the statement took is given back once it is done: by the time the
	// session answers its next command.
	sendQuery(t, rc, "SELECT 1")
	readTextResult(t, rc)
	after := procStatus(t, pid, "VmRSS")
	t.Logf("node RSS %d MB before a %d MB query, peak %d MB, %d MB after", base>>20, size>>20, peak>>20, after>>20)
	if peak-base > 16*size {
		t.Errorf("a %d MB query took RSS from %d to %d MB: more than 16 times its size", size>>20, base>>20, peak>>20)
	}
	if after-base > 64<<20 {
		t.Errorf("RSS %d MB after the query, %d MB before: not given back", after>>20, base>>20)
	}
	tn.Exec(t, c, "SELECT 1")
}
