package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// What the replication benchmarks (bench/lag, bench/semisync) share: pointing a
// replica at a source, SHOW GLOBAL STATUS LIKE as a map, and binlite's /status JSON.

// AttachBinliteReplica points a binlite replica at the source listening on
// 127.0.0.1:sourcePort (root without a password, auto-position, heartbeat and
// connect retry every second) and starts replication. Statements in before run first
// (e.g. "SET GLOBAL rpl_semi_sync_replica_enabled = 1").
func AttachBinliteReplica(ctx context.Context, replica *Server, sourcePort int, before ...string) error {
	stmts := append([]string{}, before...)
	stmts = append(stmts,
		fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', "+
			"SOURCE_AUTO_POSITION=1, SOURCE_HEARTBEAT_PERIOD=1, SOURCE_CONNECT_RETRY=1", sourcePort),
		"START REPLICA")
	return replica.Exec(ctx, stmts...)
}

// AttachMariaDBReplica points a MariaDB replica at the primary listening on
// 127.0.0.1:sourcePort with GTID replication (MASTER_USE_GTID=slave_pos, root without
// a password, heartbeat and connect retry every second) and starts it. Statements in
// before run first (e.g. "SET GLOBAL slave_parallel_threads = 4").
func AttachMariaDBReplica(ctx context.Context, replica *Server, sourcePort int, before ...string) error {
	stmts := append([]string{}, before...)
	stmts = append(stmts,
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', MASTER_PASSWORD='', "+
			"MASTER_USE_GTID=slave_pos, MASTER_HEARTBEAT_PERIOD=1, MASTER_CONNECT_RETRY=1", sourcePort),
		"START SLAVE")
	return replica.Exec(ctx, stmts...)
}

// StatusLike is SHOW GLOBAL STATUS LIKE pattern as name → value.
func (s *Server) StatusLike(ctx context.Context, pattern string) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SHOW GLOBAL STATUS LIKE '"+strings.ReplaceAll(pattern, "'", "''")+"'")
	if err != nil {
		return nil, fmt.Errorf("%s: SHOW GLOBAL STATUS LIKE %q: %w", s.Name, pattern, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// StatusUint reads one numeric global status value (0 when absent or not a number).
func StatusUint(st map[string]string, name string) uint64 {
	v, _ := strconv.ParseUint(st[name], 10, 64)
	return v
}

// BinliteStatus is the part of binlite's HTTP /status document the replication
// benchmarks read.
type BinliteStatus struct {
	ServerUUID   string `json:"server_uuid"`
	GTIDExecuted string `json:"gtid_executed"`
	BinlogTxns   uint64 `json:"binlog_transactions"`
	BinlogGroups uint64 `json:"binlog_groups"`
	Replication  []struct {
		Status  map[string]any   `json:"status"`
		Workers []map[string]any `json:"workers"`
	} `json:"replication"`
	SemiSync map[string]any `json:"semi_sync"`
}

// SecondsBehindSource is the first channel's Seconds_Behind_Source; ok is false
// when there is no channel or the value is NULL.
func (st *BinliteStatus) SecondsBehindSource() (v float64, ok bool) {
	if st == nil || len(st.Replication) == 0 {
		return 0, false
	}
	v, ok = st.Replication[0].Status["Seconds_Behind_Source"].(float64)
	return v, ok
}

// ReplicaField is a field of the first channel's status as text ("" if absent).
func (st *BinliteStatus) ReplicaField(name string) string {
	if st == nil || len(st.Replication) == 0 {
		return ""
	}
	switch v := st.Replication[0].Status[name].(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}

var statusClient = &http.Client{Timeout: 10 * time.Second}

// FetchBinliteStatus GETs http://127.0.0.1:HTTPPort/status.
func (s *Server) FetchBinliteStatus(ctx context.Context) (*BinliteStatus, error) {
	if s.HTTPPort == 0 {
		return nil, fmt.Errorf("%s has no HTTP port", s.Name)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://127.0.0.1:%d/status", s.HTTPPort), nil)
	if err != nil {
		return nil, err
	}
	resp, err := statusClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s /status: %w", s.Name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s /status: %s", s.Name, resp.Status)
	}
	var st BinliteStatus
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, fmt.Errorf("%s /status: %w", s.Name, err)
	}
	return &st, nil
}
