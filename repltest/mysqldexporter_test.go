package repltest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/internal/testnode"
)

// exporterScrapers are prometheus-mysqld-exporter 0.14's default collectors.
var exporterScrapers = []string{"global_status", "global_variables", "slave_status",
	"info_schema.innodb_cmp", "info_schema.innodb_cmpmem", "info_schema.query_response_time"}

// replicationScrapers are collectors a replica's dashboard adds (--collect.NAME).
var replicationScrapers = []string{"perf_schema.replication_applier_status_by_worker",
	"perf_schema.replication_group_members", "perf_schema.replication_group_member_stats",
	"binlog_size", "info_schema.tables"}

// scrapeExporter runs Debian's prometheus-mysqld-exporter against n with its
// default collectors, scrapes /metrics once it answers, and returns the samples by
// series ("name{labels}" → value) with the exporter's output.
func scrapeExporter(t testing.TB, bin string, n *node, extra ...string) (map[string]float64, string) {
	t.Helper()
	port, err := testnode.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	args := []string{"--web.listen-address=" + listen}
	for _, c := range extra {
		args = append(args, "--collect."+c)
	}
	p := startTool(t, []string{fmt.Sprintf("DATA_SOURCE_NAME=root@tcp(127.0.0.1:%d)/", n.port())}, bin, args...)
	defer p.stop()
	var body string
	eventually(t, 60*time.Second, "the exporter to answer /metrics", func() (bool, string) {
		if !p.running() {
			t.Fatalf("prometheus-mysqld-exporter exited:\n%s", p.out.String())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+listen+"/metrics", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, err.Error()
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			return false, fmt.Sprint(resp.Status, err)
		}
		body = string(b)
		return true, ""
	})
	samples := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		samples[line[:i]] = v
	}
	return samples, p.out.String()
}

// checkScrape asserts a scrape without any error: mysql_up 1, the last-scrape
// error gauge 0, a duration for every collector and no collector's error counted
// or logged.
func checkScrape(t testing.TB, who string, samples map[string]float64, log string, scrapers []string) {
	t.Helper()
	if samples["mysql_up"] != 1 {
		t.Errorf("%s: mysql_up = %v, want 1", who, samples["mysql_up"])
	}
	if v, ok := samples["mysql_exporter_last_scrape_error"]; !ok || v != 0 {
		t.Errorf("%s: mysql_exporter_last_scrape_error = %v (present %v), want 0", who, v, ok)
	}
	for _, s := range scrapers {
		if _, ok := samples[`mysql_exporter_collector_duration_seconds{collector="collect.`+s+`"}`]; !ok {
			t.Errorf("%s: collector %s did not run", who, s)
		}
	}
	for series, v := range samples {
		if strings.HasPrefix(series, "mysql_exporter_scrape_errors_total") && v != 0 {
			t.Errorf("%s: %s = %v", who, series, v)
		}
	}
	if strings.Contains(log, "Error from scraper") || strings.Contains(log, "level=error") {
		t.Errorf("%s: the exporter logged errors:\n%s", who, log)
	}
}

// TestMysqldExporter: prometheus-mysqld-exporter (Debian's 0.14) scrapes a source
// and a replica with its default collectors and no error; the replica's
// mysql_slave_status_* series report its replication, the source's log_bin is 1,
// and the replica's per-worker and group collectors answer too.
func TestMysqldExporter(t *testing.T) {
	t.Parallel()
	bin := needTool(t, "prometheus-mysqld-exporter", "prometheus-mysqld-exporter")
	src := startNode(t, "source", 201)
	rep := startNode(t, "replica", 202)
	createReplUser(t, src.db)
	exec(t, src.db, "CREATE DATABASE m", "CREATE TABLE m.t (id INT PRIMARY KEY)", "INSERT INTO m.t VALUES (1), (2)")
	replicate(t, rep.db, src.port())
	waitRunning(t, rep.db)
	waitCaughtUp(t, src.db, rep.db)

	samples, log := scrapeExporter(t, bin, src)
	checkScrape(t, "source", samples, log, exporterScrapers)
	if samples["mysql_global_variables_log_bin"] != 1 || samples["mysql_global_variables_server_id"] != 201 {
		t.Errorf("source: log_bin %v server_id %v", samples["mysql_global_variables_log_bin"], samples["mysql_global_variables_server_id"])
	}
	for series := range samples {
		if strings.HasPrefix(series, "mysql_slave_status_") {
			t.Errorf("source: %s (it replicates from no one)", series)
		}
	}

	samples, log = scrapeExporter(t, bin, rep, replicationScrapers...)
	checkScrape(t, "replica", samples, log, append(append([]string(nil), exporterScrapers...), replicationScrapers...))
	// A worker that applied a transaction shows the source's commit time of it.
	applied := false
	for series, v := range samples {
		if strings.HasPrefix(series, "mysql_perf_schema_last_applied_transaction_original_commit_timestamp_seconds{") && v > 0 {
			applied = true
		}
	}
	if !applied {
		t.Errorf("replica: no worker's last_applied_transaction_original_commit_timestamp_seconds")
	}
	uuid := serverUUID(t, src.db)
	labels := fmt.Sprintf(`{channel_name="",connection_name="",master_host="127.0.0.1",master_uuid="%s"}`, uuid)
	for name, want := range map[string]float64{
		"slave_io_running":      1,
		"slave_sql_running":     1,
		"master_server_id":      201,
		"master_port":           float64(src.port()),
		"auto_position":         1,
		"last_io_errno":         0,
		"last_sql_errno":        0,
		"seconds_behind_master": 0,
	} {
		series := "mysql_slave_status_" + name + labels
		if got, ok := samples[series]; !ok || got != want {
			t.Errorf("replica: %s = %v (present %v), want %v", series, got, ok, want)
		}
	}
}
