package server

import (
	"encoding/json"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/binlite/binlite/replica"
)

// Status is the JSON document served at /status.
type Status struct {
	ServerID      uint32          `json:"server_id"`
	ServerUUID    string          `json:"server_uuid"`
	Version       string          `json:"version"`
	Role          string          `json:"role"` // standalone, source, replica, intermediate
	UptimeSeconds int64           `json:"uptime_seconds"`
	ReadOnly      bool            `json:"read_only"`
	GTIDExecuted  string          `json:"gtid_executed"`
	GTIDPurged    string          `json:"gtid_purged"`
	BinlogFile    string          `json:"binlog_file"`
	BinlogPos     int64           `json:"binlog_position"`
	Connections   int             `json:"connections"`
	Transactions  uint64          `json:"binlog_transactions"`
	Groups        uint64          `json:"binlog_groups"`
	Schemas       []string        `json:"schemas"`
	Replication   []ChannelStatus `json:"replication,omitempty"`
	Replicas      []ReplicaInfo   `json:"replicas"` // SHOW REPLICAS
	// Overlaps are tables two replication channels change rows of (a user error:
	// two sources writing the same table).
	Overlaps []replica.Overlap `json:"channel_overlaps,omitempty"`
	SemiSync SemiSyncStatus    `json:"semi_sync"`
}

// SemiSyncStatus mirrors the Rpl_semi_sync_* status variables.
type SemiSyncStatus struct {
	SourceEnabled  bool   `json:"source_enabled"`
	SourceStatus   bool   `json:"source_status"`
	Clients        int    `json:"source_clients"`
	YesTx          uint64 `json:"source_yes_tx"`
	NoTx           uint64 `json:"source_no_tx"`
	NoTimes        uint64 `json:"source_no_times"`
	AvgWaitUS      uint64 `json:"source_tx_avg_wait_time_us"`
	ReplicaEnabled bool   `json:"replica_enabled"`
	ReplicaStatus  bool   `json:"replica_status"`
}

// ChannelStatus is a replication channel in the JSON status: SHOW REPLICA STATUS's
// fields by their MySQL 8.4 names, plus the applier workers and what the topology
// page shows of the link.
type ChannelStatus struct {
	Fields  map[string]any `json:"status"`
	Workers []WorkerStatus `json:"workers"`
	// LagSeconds is Seconds_Behind_Source (null when NULL).
	LagSeconds *int64 `json:"lag_seconds"`
	// GTIDsBehind counts the transactions received (Retrieved_Gtid_Set) and not
	// executed yet.
	GTIDsBehind uint64 `json:"gtids_behind"`
	// SemiSync: the receiver is connected as a semi-sync replica.
	SemiSync bool `json:"semi_sync"`
	// Applied counts the transactions the channel applied since the node started.
	Applied uint64 `json:"applied_transactions"`
}

// WorkerStatus is one applier worker.
type WorkerStatus struct {
	ID          int    `json:"worker_id"`
	Schema      string `json:"applying_schema"`
	Applying    string `json:"applying_transaction"`
	LastApplied string `json:"last_applied_transaction"`
	Applied     uint64 `json:"applied_transactions"`
	LastErrno   uint16 `json:"last_error_number"`
	LastError   string `json:"last_error_message"`
}

// Status reports the node's state.
func (n *Node) Status() Status {
	file, pos := n.log.Position()
	st := n.log.Stats()
	channels, replicas := n.channelStatus(), n.replicaInfo()
	return Status{
		ServerID:      n.id.ServerID,
		ServerUUID:    n.id.UUID.String(),
		Version:       Version,
		Role:          role(len(channels), len(replicas)),
		UptimeSeconds: int64(time.Since(n.env.Started).Seconds()),
		ReadOnly:      n.vars.Int("read_only") != 0 || n.vars.Int("super_read_only") != 0,
		GTIDExecuted:  n.eng.Executed().String(),
		GTIDPurged:    n.log.Purged().String(),
		BinlogFile:    file,
		BinlogPos:     pos,
		Connections:   n.env.List.Count(),
		Transactions:  st.Transactions,
		Groups:        st.Groups,
		Schemas:       n.eng.Schemas(),
		Replication:   channels,
		Replicas:      replicas,
		Overlaps:      n.replicas.Overlaps(),
		SemiSync:      n.semiStatus(),
	}
}

func (n *Node) semiStatus() SemiSyncStatus {
	st := n.semi.Status()
	return SemiSyncStatus{
		SourceEnabled: n.semi.Settings().Enabled, SourceStatus: st.On, Clients: st.Clients,
		YesTx: st.YesTx, NoTx: st.NoTx, NoTimes: st.NoTimes, AvgWaitUS: st.AvgWaitUS,
		ReplicaEnabled: n.vars.Int("rpl_semi_sync_replica_enabled") != 0, ReplicaStatus: n.replicas.SemiSyncActive(),
	}
}

func (n *Node) channelStatus() []ChannelStatus {
	workers := n.replicas.Workers()
	links := map[string]replica.Link{}
	for _, l := range n.replicas.Links() {
		links[l.Channel] = l
	}
	var out []ChannelStatus
	for _, row := range n.replicas.Status("", true) {
		cs := ChannelStatus{Fields: map[string]any{}}
		for _, f := range row {
			cs.Fields[f.Name] = f.Value
		}
		if v, ok := cs.Fields["Seconds_Behind_Source"].(int64); ok {
			cs.LagSeconds = &v
		}
		name, _ := cs.Fields["Channel_Name"].(string)
		l := links[name]
		cs.GTIDsBehind, cs.SemiSync, cs.Applied = l.Behind, l.SemiSync, l.Applied
		for _, w := range workers {
			if w.Channel != cs.Fields["Channel_Name"] {
				continue
			}
			ws := WorkerStatus{ID: w.ID, Schema: w.Schema, Applied: w.Applied, LastErrno: w.LastErrno, LastError: w.LastError}
			if !w.Applying.IsZero() {
				ws.Applying = w.Applying.String()
			}
			if !w.LastApplied.IsZero() {
				ws.LastApplied = w.LastApplied.String()
			}
			cs.Workers = append(cs.Workers, ws)
		}
		out = append(out, cs)
	}
	return out
}

func (n *Node) httpHandler() http.Handler {
	reg := prometheus.NewRegistry()
	gauge := func(name, help string, f func() float64) {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "binlite", Name: name, Help: help}, f))
	}
	counter := func(name, help string, f func() float64) {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "binlite", Name: name, Help: help}, f))
	}
	counter("binlog_transactions_total", "Transactions written to the binary log.", func() float64 { return float64(n.log.Stats().Transactions) })
	counter("binlog_groups_total", "Group commits (one write and one fsync each).", func() float64 { return float64(n.log.Stats().Groups) })
	counter("binlog_syncs_total", "fdatasync calls on the binary log.", func() float64 { return float64(n.log.Stats().Syncs) })
	counter("storage_commits_total", "SQLite commits of the schema writers' group commits.", func() float64 { return float64(n.eng.CommitStats().StorageCommits) })
	counter("storage_commit_groups_total", "Binary-log groups those commits held.", func() float64 { return float64(n.eng.CommitStats().LogGroups) })
	counter("storage_commit_groups_overlapped_total", "Binary-log groups written while their writer executed the next group.", func() float64 { return float64(n.eng.CommitStats().Overlapped) })
	counter("storage_commit_set_aside_total", "Groups taken out of a storage commit and applied again after it.", func() float64 { return float64(n.eng.CommitStats().SetAside) })
	counter("questions_total", "Statements received from clients.", func() float64 { return float64(n.env.Stats.Questions.Load()) })
	counter("connections_total", "Client connections accepted.", func() float64 { return float64(n.env.Stats.Connections.Load()) })
	gauge("threads_connected", "Connected clients.", func() float64 { return float64(n.env.List.Count()) })
	gauge("gtid_executed_count", "Transactions in gtid_executed.", func() float64 { return float64(n.eng.Executed().Count()) })
	gauge("rpl_semi_sync_source_status", "1 when the source waits for semi-sync acknowledgements.", func() float64 {
		if n.semi.Status().On {
			return 1
		}
		return 0
	})
	gauge("rpl_semi_sync_source_clients", "Connected semi-sync replicas.", func() float64 { return float64(n.semi.Status().Clients) })
	counter("rpl_semi_sync_source_yes_tx_total", "Transactions acknowledged by a semi-sync replica.", func() float64 { return float64(n.semi.Status().YesTx) })
	counter("rpl_semi_sync_source_no_tx_total", "Transactions committed without an acknowledgement.", func() float64 { return float64(n.semi.Status().NoTx) })
	counter("rpl_semi_sync_source_no_times_total", "Times semi-sync fell back to asynchronous.", func() float64 { return float64(n.semi.Status().NoTimes) })
	gauge("rpl_semi_sync_source_tx_avg_wait_seconds", "Average wait for an acknowledgement.", func() float64 { return float64(n.semi.Status().AvgWaitUS) / 1e6 })
	gauge("replica_seconds_behind_source", "Seconds_Behind_Source of the most lagging channel (-1 when not replicating).", func() float64 {
		lag := -1.0
		for _, row := range n.replicas.Status("", true) {
			for _, f := range row {
				if v, ok := f.Value.(int64); ok && f.Name == "Seconds_Behind_Source" && float64(v) > lag {
					lag = float64(v)
				}
			}
		}
		return lag
	})
	reg.MustRegister(newChannelMetrics(n))
	mux := http.NewServeMux()
	n.serveTopology(mux)
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/status", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(n.Status())
	})
	return mux
}
