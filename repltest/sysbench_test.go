package repltest

// sysbench oltp_read_write on the source while a replica follows: the replica ends
// an exact copy.

import (
	"bytes"
	"context"
	"fmt"
	osexec "os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sysbench runs one sysbench command against the node listening on port.
func sysbench(t testing.TB, port int, args ...string) string {
	t.Helper()
	path, err := osexec.LookPath("sysbench")
	if err != nil {
		t.Fatalf("sysbench 1.0.20 is required: %v", err)
	}
	all := append([]string{
		"--db-driver=mysql",
		"--mysql-host=127.0.0.1",
		"--mysql-port=" + strconv.Itoa(port),
		"--mysql-user=root",
		"--mysql-db=sbtest",
	}, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := osexec.CommandContext(ctx, path, all...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	text := out.String()
	if err != nil || strings.Contains(text, "FATAL") {
		t.Fatalf("sysbench %v: %v\n%s", args, err, text)
	}
	return text
}

var sbTransactions = regexp.MustCompile(`(?m)^\s*transactions:\s+(\d+)\s`)

func TestSysbenchOLTPReadWriteReplicates(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 31)
	rep := startNode(t, "replica", 32)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)

	seconds, size := 4, 2000
	if testing.Short() {
		seconds, size = 2, 1000
	}
	common := []string{"--tables=2", fmt.Sprintf("--table-size=%d", size), "--threads=8"}
	exec(t, src.db, "CREATE DATABASE sbtest")
	sysbench(t, src.port(), append(common, "oltp_read_write", "prepare")...)
	out := sysbench(t, src.port(), append(common, fmt.Sprintf("--time=%d", seconds), "--report-interval=0", "oltp_read_write", "run")...)
	m := sbTransactions.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("sysbench report has no transactions line:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[1]); n == 0 {
		t.Fatalf("sysbench ran no transaction:\n%s", out)
	}
	t.Logf("sysbench oltp_read_write: %s transactions in %d s", m[1], seconds)

	rpt := assertInSync(t, src.db, rep.db)
	if rpt.Tables != 2 {
		t.Errorf("checksum compared %d tables, want sbtest1 and sbtest2", rpt.Tables)
	}
	st := showStatus(t, rep.db)
	checkFields(t, "SHOW REPLICA STATUS after sysbench", st, map[string]string{
		"Replica_IO_Running":  "Yes",
		"Replica_SQL_Running": "Yes",
		"Last_SQL_Errno":      "0",
		"Last_IO_Errno":       "0",
	})
	// The replica's own binary log (log_replica_updates) holds each GTID once.
	want := gtidExecuted(t, rep.db)
	rep.close()
	assertBinlogOnce(t, rep.dir, want)
}
