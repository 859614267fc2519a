package server_test

// sysbench 1.0.20 (libmysqlclient, server-side prepared statements) against an
// in-process node: prepare, then the four OLTP workloads with 8 threads each,
// with zero errors, and the data and the binary log consistent afterwards.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
)

const (
	sbTables    = 2
	sbTableSize = 2000
	sbThreads   = 8
	sbSeconds   = 3
)

// sysbench runs one sysbench command (prepare, run, cleanup) of workload on n.
func sysbench(t *testing.T, n *tn.Node, workload, command string, extra ...string) string {
	t.Helper()
	path, err := exec.LookPath("sysbench")
	if err != nil {
		t.Fatalf("sysbench 1.0.20 is required (apt-get install sysbench): %v", err)
	}
	args := []string{
		"--db-driver=mysql",
		"--mysql-host=127.0.0.1",
		"--mysql-port=" + strconv.Itoa(n.Port()),
		"--mysql-user=root",
		"--mysql-db=sbtest",
		fmt.Sprintf("--tables=%d", sbTables),
		fmt.Sprintf("--table-size=%d", sbTableSize),
		fmt.Sprintf("--threads=%d", sbThreads),
	}
	args = append(args, extra...)
	args = append(args, workload, command)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	text := out.String()
	if err != nil || strings.Contains(text, "FATAL") {
		t.Fatalf("sysbench %s %s: %v\n%s", workload, command, err, text)
	}
	return text
}

var (
	sbTransactions  = regexp.MustCompile(`(?m)^\s*transactions:\s+(\d+)\s`)
	sbIgnoredErrors = regexp.MustCompile(`(?m)^\s*ignored errors:\s+(\d+)\s`)
)

// sbCount extracts a counter from sysbench's report.
func sbCount(t *testing.T, re *regexp.Regexp, out string) int64 {
	t.Helper()
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("sysbench report has no %q line:\n%s", re, out)
	}
	v, _ := strconv.ParseInt(m[1], 10, 64)
	return v
}

// sbTableRows checks that every table's ids are unique and returns the total
// number of rows.
func sbTableRows(t *testing.T, q tn.Querier) int64 {
	t.Helper()
	var total int64
	for i := 1; i <= sbTables; i++ {
		r := tn.Rows(t, q, fmt.Sprintf("SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), SUM(k) FROM sbtest%d", i))[0]
		if r[0] != r[1] {
			t.Errorf("sbtest%d: %s rows but %s distinct ids", i, r[0], r[1])
		}
		if r[2] != "1" {
			t.Errorf("sbtest%d: MIN(id) = %s, want 1", i, r[2])
		}
		if sum, err := strconv.ParseInt(r[3], 10, 64); err != nil || sum <= 0 {
			t.Errorf("sbtest%d: SUM(k) = %q, want a positive integer", i, r[3])
		}
		count, _ := strconv.ParseInt(r[0], 10, 64)
		total += count
	}
	return total
}

func TestSysbenchOLTPWorkloadsRunWithoutErrors(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	tn.Exec(t, db, "CREATE DATABASE sbtest")

	out := sysbench(t, n, "oltp_read_write", "prepare")
	for i := 1; i <= sbTables; i++ {
		if want := fmt.Sprintf("Inserting %d records into 'sbtest%d'", sbTableSize, i); !strings.Contains(out, want) {
			t.Errorf("prepare output lacks %q:\n%s", want, out)
		}
	}
	q := tn.Conn(t, n.DB("sbtest"))
	if got := tn.Rows(t, q, "SHOW TABLES"); !equalRows(got, [][]string{{"sbtest1"}, {"sbtest2"}}) {
		t.Fatalf("SHOW TABLES after prepare = %v", got)
	}
	for i := 1; i <= sbTables; i++ {
		r := tn.Rows(t, q, fmt.Sprintf("SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest%d", i))
		if want := [][]string{{strconv.Itoa(sbTableSize), "1", strconv.Itoa(sbTableSize)}}; !equalRows(r, want) {
			t.Fatalf("sbtest%d after prepare: COUNT, MIN(id), MAX(id) = %v, want %v", i, r, want)
		}
	}

	rows := int64(sbTables * sbTableSize)
	for _, w := range []struct {
		name          string
		writes        bool  // every transaction commits one GTID
		insertsPerTxn int64 // rows each transaction adds
	}{
		{name: "oltp_read_write", writes: true},
		{name: "oltp_write_only", writes: true},
		{name: "oltp_insert", writes: true, insertsPerTxn: 1},
		{name: "oltp_point_select"},
	} {
		t.Run(w.name, func(t *testing.T) {
			before := tn.GTIDExecuted(t, q)
			out := sysbench(t, n, w.name, "run", fmt.Sprintf("--time=%d", sbSeconds), "--report-interval=0")
			txns := sbCount(t, sbTransactions, out)
			// Explicit transactions run concurrently (docs/transactions.md): on 2 x
			// 2,000 rows with 8 threads two of them now and then lock rows in
			// opposite orders and one gets 1213, as on InnoDB; sysbench retries it
			// (its only ignored errors are 1213 and 1205). More than a few per cent
			// would be a lock-table defect.
			if errs := sbCount(t, sbIgnoredErrors, out); errs*20 > txns {
				t.Errorf("ignored errors: %d of %d transactions, want at most 5%%\n%s", errs, txns, out)
			}
			if txns == 0 {
				t.Fatalf("no transactions:\n%s", out)
			}
			after := tn.GTIDExecuted(t, q)
			added := int64(after.Count() - before.Count())
			if !before.IsSubset(after) {
				t.Errorf("gtid_executed lost transactions: %s -> %s", before, after)
			}
			switch {
			case w.writes && added != txns:
				t.Errorf("%d transactions added %d GTIDs, want one each", txns, added)
			case !w.writes && added != 0:
				t.Errorf("read-only workload added %d GTIDs", added)
			}
			rows += txns * w.insertsPerTxn
			if got := sbTableRows(t, q); got != rows {
				t.Errorf("%d rows in the tables, want %d", got, rows)
			}
			t.Logf("%s: %d transactions in %ds, %d GTIDs", w.name, txns, sbSeconds, added)
		})
	}

	// The binary log holds exactly the transactions gtid_executed lists.
	executed := tn.GTIDExecuted(t, q)
	if iv := executed.Intervals(serverUUID(t, q)); len(iv) != 1 || iv[0].Lo != 1 {
		t.Errorf("gtid_executed %s is not one interval from 1", executed)
	}
	status := tn.NameValue(t, q, "SHOW STATUS")
	if status["Binlog_commits"] != strconv.FormatUint(executed.Count(), 10) {
		t.Errorf("SHOW STATUS Binlog_commits = %s, gtid_executed has %d transactions", status["Binlog_commits"], executed.Count())
	}
	body, _ := httpGet(t, "http://"+n.HTTPAddr()+"/status")
	var st struct {
		Transactions uint64 `json:"binlog_transactions"`
		GTIDExecuted string `json:"gtid_executed"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("/status: %v\n%s", err, body)
	}
	if st.Transactions != executed.Count() || st.GTIDExecuted != executed.String() {
		t.Errorf("/status binlog_transactions = %d, gtid_executed = %s; @@gtid_executed = %s (%d)", st.Transactions, st.GTIDExecuted, executed, executed.Count())
	}

	sysbench(t, n, "oltp_read_write", "cleanup")
	if got := tn.Rows(t, q, "SHOW TABLES"); len(got) != 0 {
		t.Errorf("SHOW TABLES after cleanup = %v, want none", got)
	}
}
