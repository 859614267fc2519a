package semisynctest

// Names as MySQL has them: Rpl_semi_sync_source_* status variables and their
// legacy Rpl_semi_sync_master_* twins with equal values; rpl_semi_sync_* system
// variables settable under either spelling (SET GLOBAL and the option file), each
// spelling mirroring the other and taking effect; the same numbers in the HTTP
// status and metrics.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/internal/testnode"
)

var statusSuffixes = []string{"status", "clients", "yes_tx", "no_tx", "no_times", "tx_avg_wait_time", "tx_wait_time", "tx_waits", "wait_sessions"}

// varPairs are the system variables by their current and legacy names.
var varPairs = [][2]string{
	{"rpl_semi_sync_source_enabled", "rpl_semi_sync_master_enabled"},
	{"rpl_semi_sync_source_timeout", "rpl_semi_sync_master_timeout"},
	{"rpl_semi_sync_source_wait_point", "rpl_semi_sync_master_wait_point"},
	{"rpl_semi_sync_source_wait_for_replica_count", "rpl_semi_sync_master_wait_for_slave_count"},
	{"rpl_semi_sync_source_wait_no_replica", "rpl_semi_sync_master_wait_no_slave"},
	{"rpl_semi_sync_replica_enabled", "rpl_semi_sync_slave_enabled"},
}

// checkStatusTwins asserts that every Rpl_semi_sync_source_* has its master twin
// with the same value, in one SHOW STATUS.
func checkStatusTwins(t *testing.T, what string, q querier) map[string]string {
	t.Helper()
	m := semiStatus(t, q)
	for _, s := range statusSuffixes {
		src, ok1 := m["Rpl_semi_sync_source_"+s]
		old, ok2 := m["Rpl_semi_sync_master_"+s]
		if !ok1 || !ok2 {
			t.Errorf("%s: SHOW STATUS LIKE 'Rpl_semi_sync%%' lacks Rpl_semi_sync_source_%s (%v) or Rpl_semi_sync_master_%s (%v); has %v", what, s, ok1, s, ok2, keys(m))
			continue
		}
		if src != old {
			t.Errorf("%s: Rpl_semi_sync_source_%s = %q but Rpl_semi_sync_master_%s = %q", what, s, src, s, old)
		}
	}
	if m["Rpl_semi_sync_replica_status"] == "" || m["Rpl_semi_sync_replica_status"] != m["Rpl_semi_sync_slave_status"] {
		t.Errorf("%s: Rpl_semi_sync_replica_status = %q, Rpl_semi_sync_slave_status = %q; want both, equal", what, m["Rpl_semi_sync_replica_status"], m["Rpl_semi_sync_slave_status"])
	}
	return m
}

// checkVarTwins asserts that both spellings of every variable have the same value.
func checkVarTwins(t *testing.T, what string, q querier) map[string]string {
	t.Helper()
	m := testnode.NameValue(t, q, "SHOW GLOBAL VARIABLES LIKE 'rpl_semi_sync%'")
	for _, p := range varPairs {
		a, ok1 := m[p[0]]
		b, ok2 := m[p[1]]
		if !ok1 || !ok2 {
			t.Errorf("%s: SHOW GLOBAL VARIABLES lacks %s (%v) or %s (%v)", what, p[0], ok1, p[1], ok2)
			continue
		}
		if a != b {
			t.Errorf("%s: %s = %q but %s = %q", what, p[0], a, p[1], b)
		}
		if sa, sb := str(t, q, "SELECT @@global."+p[0]), str(t, q, "SELECT @@global."+p[1]); sa != sb {
			t.Errorf("%s: @@%s = %q but @@%s = %q", what, p[0], sa, p[1], sb)
		}
	}
	return m
}

func TestStatusAndVariableNames(t *testing.T) {
	// The option file uses the legacy spellings.
	src := startNode(t, "source", 1, opt("rpl_semi_sync_master_enabled", "ON"), opt("rpl_semi_sync_master_timeout", "300"))
	rep := startNode(t, "replica", 2)

	vars := checkVarTwins(t, "source at start", src.db)
	want := map[string]string{
		"rpl_semi_sync_source_enabled":                "ON",
		"rpl_semi_sync_source_timeout":                "300",
		"rpl_semi_sync_source_wait_point":             "AFTER_SYNC",
		"rpl_semi_sync_source_wait_for_replica_count": "1",
		"rpl_semi_sync_source_wait_no_replica":        "ON",
		"rpl_semi_sync_replica_enabled":               "OFF",
	}
	for name, v := range want {
		if vars[name] != v {
			t.Errorf("SHOW GLOBAL VARIABLES: %s = %q, want %q", name, vars[name], v)
		}
	}
	if st := checkStatusTwins(t, "source at start", src.db); st["Rpl_semi_sync_source_status"] != "ON" || st["Rpl_semi_sync_replica_status"] != "OFF" {
		t.Errorf("source at start: Rpl_semi_sync_source_status %q, Rpl_semi_sync_replica_status %q; want ON, OFF", st["Rpl_semi_sync_source_status"], st["Rpl_semi_sync_replica_status"])
	}

	// No replica and rpl_semi_sync_source_wait_no_replica=ON: the first commit waits
	// for the timeout given under the legacy name (300 ms), then the source is OFF.
	d := timedExec(t, src.db, "CREATE DATABASE ss")
	if d < 270*time.Millisecond {
		t.Errorf("with no replica and wait_no_replica ON, CREATE DATABASE took %v, want >= the 300 ms rpl_semi_sync_master_timeout", d)
	}
	exec(t, src.db, "CREATE TABLE ss.t (id INT NOT NULL PRIMARY KEY, v INT NOT NULL DEFAULT 0)")
	st := checkStatusTwins(t, "source after a timeout", src.db)
	if st["Rpl_semi_sync_master_status"] != "OFF" || st["Rpl_semi_sync_master_no_times"] != "1" || st["Rpl_semi_sync_master_no_tx"] != "2" {
		t.Errorf("after a timeout and an async commit: Rpl_semi_sync_master_status %q, _no_times %q, _no_tx %q; want OFF, 1, 2",
			st["Rpl_semi_sync_master_status"], st["Rpl_semi_sync_master_no_times"], st["Rpl_semi_sync_master_no_tx"])
	}

	// SET GLOBAL under one spelling shows under both.
	sets := []struct{ set, other, value, want string }{
		{"rpl_semi_sync_master_enabled", "rpl_semi_sync_source_enabled", "OFF", "0"},
		{"rpl_semi_sync_source_enabled", "rpl_semi_sync_master_enabled", "ON", "1"},
		{"rpl_semi_sync_master_enabled", "rpl_semi_sync_source_enabled", "0", "0"},
		{"rpl_semi_sync_master_enabled", "rpl_semi_sync_source_enabled", "1", "1"},
		{"rpl_semi_sync_master_timeout", "rpl_semi_sync_source_timeout", "1234", "1234"},
		{"rpl_semi_sync_source_timeout", "rpl_semi_sync_master_timeout", "43210", "43210"},
		{"rpl_semi_sync_master_wait_point", "rpl_semi_sync_source_wait_point", "'AFTER_COMMIT'", "AFTER_COMMIT"},
		{"rpl_semi_sync_source_wait_point", "rpl_semi_sync_master_wait_point", "'AFTER_SYNC'", "AFTER_SYNC"},
		{"rpl_semi_sync_master_wait_for_slave_count", "rpl_semi_sync_source_wait_for_replica_count", "3", "3"},
		{"rpl_semi_sync_source_wait_for_replica_count", "rpl_semi_sync_master_wait_for_slave_count", "1", "1"},
		{"rpl_semi_sync_master_wait_no_slave", "rpl_semi_sync_source_wait_no_replica", "OFF", "0"},
		{"rpl_semi_sync_source_wait_no_replica", "rpl_semi_sync_master_wait_no_slave", "ON", "1"},
		{"rpl_semi_sync_slave_enabled", "rpl_semi_sync_replica_enabled", "ON", "1"},
		{"rpl_semi_sync_replica_enabled", "rpl_semi_sync_slave_enabled", "OFF", "0"},
	}
	for _, s := range sets {
		exec(t, src.db, fmt.Sprintf("SET GLOBAL %s = %s", s.set, s.value))
		for _, name := range []string{s.set, s.other} {
			if got := str(t, src.db, "SELECT @@global."+name); got != s.want {
				t.Errorf("after SET GLOBAL %s = %s: @@%s = %q, want %q", s.set, s.value, name, got, s.want)
			}
		}
	}
	checkVarTwins(t, "source after the SETs", src.db)

	// The legacy switch drives the status.
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_master_enabled = OFF")
	if st := checkStatusTwins(t, "after rpl_semi_sync_master_enabled = OFF", src.db); st["Rpl_semi_sync_source_status"] != "OFF" {
		t.Errorf("Rpl_semi_sync_source_status = %q after SET GLOBAL rpl_semi_sync_master_enabled = OFF", st["Rpl_semi_sync_source_status"])
	}
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_master_enabled = ON")
	if st := checkStatusTwins(t, "after rpl_semi_sync_master_enabled = ON", src.db); st["Rpl_semi_sync_source_status"] != "ON" {
		t.Errorf("Rpl_semi_sync_source_status = %q after SET GLOBAL rpl_semi_sync_master_enabled = ON", st["Rpl_semi_sync_source_status"])
	}
	// The legacy timeout takes effect: no replica, so the commit waits for it (and
	// not for the 43.21 s set before).
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_master_timeout = 200")
	if d := timedExec(t, src.db, "INSERT INTO ss.t VALUES (1, 0)"); d < 180*time.Millisecond || d > 5*time.Second {
		t.Errorf("with rpl_semi_sync_master_timeout = 200 and no replica the commit took %v, want about 200 ms", d)
	}
	// wait_no_replica OFF (legacy name): with no replica, commits do not wait (for
	// the 30 s timeout, which would also count in no_times).
	for _, q := range []string{"SET GLOBAL rpl_semi_sync_master_timeout = 30000", "SET GLOBAL rpl_semi_sync_master_enabled = OFF", "SET GLOBAL rpl_semi_sync_master_enabled = ON", "SET GLOBAL rpl_semi_sync_master_wait_no_slave = OFF"} {
		exec(t, src.db, q)
	}
	before := sourceCounters(t, src.db)
	if d := timedExec(t, src.db, "INSERT INTO ss.t VALUES (2, 0)"); d >= 5*time.Second {
		t.Errorf("with rpl_semi_sync_master_wait_no_slave = OFF and no replica the commit took %v: it waited", d)
	}
	if after := sourceCounters(t, src.db); after.No != before.No+1 || after.NoTimes != before.NoTimes {
		t.Errorf("commit without replicas and wait_no_replica OFF: %v -> %v; want no_tx +1, no_times unchanged", before, after)
	}
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_source_wait_no_replica = ON")

	// Wrong values and scopes are refused as MySQL refuses them.
	testnode.ExecError(t, src.db, 1231, "42000", "SET GLOBAL rpl_semi_sync_source_wait_point = 'AFTER_NOTHING'")
	testnode.ExecError(t, src.db, 1231, "42000", "SET GLOBAL rpl_semi_sync_master_wait_point = 'SOMETIME'")
	testnode.ExecError(t, src.db, 1229, "HY000", "SET SESSION rpl_semi_sync_source_enabled = ON")
	testnode.ExecError(t, src.db, 1229, "HY000", "SET rpl_semi_sync_master_timeout = 10")
	checkVarTwins(t, "source after refused SETs", src.db)

	// A replica turned semi-sync with the legacy name reports it under both names
	// once connected, and the source counts it; an acknowledged commit shows in
	// yes_tx under both names.
	exec(t, rep.db, "SET GLOBAL rpl_semi_sync_slave_enabled = ON")
	exec(t, src.db, "SET GLOBAL rpl_semi_sync_source_timeout = 30000")
	replicate(t, rep.db, src.srv.Port())
	waitReplicaConnected(t, rep.db)
	waitCounters(t, src.db, 30*time.Second, "the replica counted as a semi-sync client and the source back ON", func(c counters) bool {
		return c.Clients == 1 && c.On
	})
	exec(t, src.db, "INSERT INTO ss.t VALUES (3, 0)")
	st = checkStatusTwins(t, "source with a semi-sync replica", src.db)
	if st["Rpl_semi_sync_master_clients"] != "1" || st["Rpl_semi_sync_master_yes_tx"] == "0" {
		t.Errorf("with a semi-sync replica: Rpl_semi_sync_master_clients %q, _yes_tx %q; want 1 and > 0", st["Rpl_semi_sync_master_clients"], st["Rpl_semi_sync_master_yes_tx"])
	}
	if rst := checkStatusTwins(t, "replica", rep.db); rst["Rpl_semi_sync_slave_status"] != "ON" {
		t.Errorf("replica: Rpl_semi_sync_slave_status = %q, want ON", rst["Rpl_semi_sync_slave_status"])
	}
	if got := testnode.NameValue(t, src.db, "SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_source_yes_tx'"); got["Rpl_semi_sync_source_yes_tx"] != st["Rpl_semi_sync_source_yes_tx"] {
		t.Errorf("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_source_yes_tx' = %v, SHOW STATUS says %q", got, st["Rpl_semi_sync_source_yes_tx"])
	}

	// The HTTP status and metrics say the same.
	c := sourceCounters(t, src.db)
	var js struct {
		SemiSync struct {
			SourceEnabled bool  `json:"source_enabled"`
			SourceStatus  bool  `json:"source_status"`
			Clients       int64 `json:"source_clients"`
			YesTx         int64 `json:"source_yes_tx"`
			NoTx          int64 `json:"source_no_tx"`
			NoTimes       int64 `json:"source_no_times"`
			AvgWaitUS     int64 `json:"source_tx_avg_wait_time_us"`
		} `json:"semi_sync"`
	}
	if err := json.Unmarshal([]byte(httpGet(t, "http://"+src.srv.HTTPAddr()+"/status")), &js); err != nil {
		t.Fatalf("/status: %v", err)
	}
	ss := js.SemiSync
	if !ss.SourceEnabled || ss.SourceStatus != c.On || ss.Clients != c.Clients || ss.YesTx != c.Yes || ss.NoTx != c.No || ss.NoTimes != c.NoTimes || ss.AvgWaitUS != c.AvgWait {
		t.Errorf("/status semi_sync = %+v, SHOW STATUS says %v", ss, c)
	}
	metrics := httpGet(t, "http://"+src.srv.HTTPAddr()+"/metrics")
	for name, v := range map[string]int64{
		"binlite_rpl_semi_sync_source_status":         1,
		"binlite_rpl_semi_sync_source_clients":        c.Clients,
		"binlite_rpl_semi_sync_source_yes_tx_total":   c.Yes,
		"binlite_rpl_semi_sync_source_no_tx_total":    c.No,
		"binlite_rpl_semi_sync_source_no_times_total": c.NoTimes,
	} {
		if got, ok := metricValue(metrics, name); !ok || got != float64(v) {
			t.Errorf("/metrics %s = %v (present %v), SHOW STATUS says %d", name, got, ok, v)
		}
	}
	var rjs struct {
		SemiSync struct {
			ReplicaEnabled bool `json:"replica_enabled"`
			ReplicaStatus  bool `json:"replica_status"`
		} `json:"semi_sync"`
	}
	if err := json.Unmarshal([]byte(httpGet(t, "http://"+rep.srv.HTTPAddr()+"/status")), &rjs); err != nil {
		t.Fatalf("replica /status: %v", err)
	}
	if !rjs.SemiSync.ReplicaEnabled || !rjs.SemiSync.ReplicaStatus {
		t.Errorf("replica /status semi_sync = %+v, want replica_enabled and replica_status true", rjs.SemiSync)
	}
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	cl := &http.Client{Timeout: 10 * time.Second}
	resp, err := cl.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, resp.Status, err)
	}
	return string(b)
}

// metricValue finds an unlabelled sample in Prometheus text format.
func metricValue(text, name string) (float64, bool) {
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			v, err := strconv.ParseFloat(f[1], 64)
			return v, err == nil
		}
	}
	return 0, false
}
