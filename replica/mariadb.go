package replica

import (
	"fmt"
	"slices"
)

// MariaDB's SHOW ALL SLAVES STATUS: one row per connection (channel) with
// MariaDB 10.11's columns, as its users' tools read them: Connection_name and
// Slave_SQL_State first, then SHOW SLAVE STATUS's columns in MariaDB's order
// (which has GTID columns of its own), then per-connection counters, then the
// MySQL columns MariaDB lacks.
var allSlavesColumns = []string{
	"Connection_name", "Slave_SQL_State",
	"Slave_IO_State", "Master_Host", "Master_User", "Master_Port", "Connect_Retry", "Master_Log_File",
	"Read_Master_Log_Pos", "Relay_Log_File", "Relay_Log_Pos", "Relay_Master_Log_File", "Slave_IO_Running",
	"Slave_SQL_Running", "Replicate_Do_DB", "Replicate_Ignore_DB", "Replicate_Do_Table", "Replicate_Ignore_Table",
	"Replicate_Wild_Do_Table", "Replicate_Wild_Ignore_Table", "Last_Errno", "Last_Error", "Skip_Counter",
	"Exec_Master_Log_Pos", "Relay_Log_Space", "Until_Condition", "Until_Log_File", "Until_Log_Pos",
	"Master_SSL_Allowed", "Master_SSL_CA_File", "Master_SSL_CA_Path", "Master_SSL_Cert", "Master_SSL_Cipher",
	"Master_SSL_Key", "Seconds_Behind_Master", "Master_SSL_Verify_Server_Cert", "Last_IO_Errno", "Last_IO_Error",
	"Last_SQL_Errno", "Last_SQL_Error", "Replicate_Ignore_Server_Ids", "Master_Server_Id", "Master_SSL_Crl",
	"Master_SSL_Crlpath", "Using_Gtid", "Gtid_IO_Pos", "Replicate_Do_Domain_Ids", "Replicate_Ignore_Domain_Ids",
	"Parallel_Mode", "SQL_Delay", "SQL_Remaining_Delay", "Slave_SQL_Running_State", "Slave_DDL_Groups",
	"Slave_Non_Transactional_Groups", "Slave_Transactional_Groups", "Replicate_Rewrite_DB",
	"Retried_transactions", "Max_relay_log_size", "Executed_log_entries", "Slave_received_heartbeats",
	"Slave_heartbeat_period", "Gtid_Slave_Pos",
}

// allSlavesWithMySQL is allSlavesColumns followed by SHOW SLAVE STATUS's (legacy
// MySQL) columns MariaDB lacks (Master_UUID, Auto_Position, Channel_Name, ...): tools
// that send SHOW ALL SLAVES STATUS first, such as mysqld_exporter, then find the
// MySQL fields they label their series with.
func allSlavesWithMySQL() []string {
	cols := slices.Clone(allSlavesColumns)
	for _, c := range statusColumns {
		if !slices.Contains(cols, c.legacy) {
			cols = append(cols, c.legacy)
		}
	}
	return cols
}

// AllSlavesStatus is SHOW ALL SLAVES STATUS: its columns and one row per channel.
// GTID positions are binlite's (MySQL-style) GTID sets. Transactional_Groups counts
// the transactions the channel applied since its SQL thread started; MariaDB's
// other group counters are 0 (binlite keeps no such split).
func (m *Manager) AllSlavesStatus() ([]string, [][]any) {
	m.mu.Lock()
	names := m.sortedNames()
	chs := make([]*Channel, len(names))
	for i, n := range names {
		chs[i] = m.channels[n]
	}
	m.mu.Unlock()
	cols := allSlavesWithMySQL()
	out := make([][]any, 0, len(chs))
	for _, ch := range chs {
		fields := ch.status(m)
		byLegacy := make(map[string]any, len(fields))
		for _, f := range fields {
			byLegacy[f.Legacy] = f.Value
		}
		ch.mu.Lock()
		s, applied := ch.settings, ch.st.appliedCount
		ch.mu.Unlock()
		usingGTID := "No"
		if s.AutoPosition {
			usingGTID = "Slave_Pos"
		}
		extra := map[string]any{
			"Connection_name":                ch.name,
			"Slave_SQL_State":                byLegacy["Slave_SQL_Running_State"],
			"Using_Gtid":                     usingGTID,
			"Gtid_IO_Pos":                    byLegacy["Retrieved_Gtid_Set"],
			"Replicate_Do_Domain_Ids":        "",
			"Replicate_Ignore_Domain_Ids":    "",
			"Parallel_Mode":                  "conservative",
			"Slave_DDL_Groups":               int64(0),
			"Slave_Non_Transactional_Groups": int64(0),
			"Slave_Transactional_Groups":     int64(applied),
			"Retried_transactions":           int64(0),
			"Max_relay_log_size":             m.relayMaxSize(),
			"Executed_log_entries":           int64(0),
			"Slave_received_heartbeats":      int64(0),
			"Slave_heartbeat_period":         fmt.Sprintf("%.3f", s.HeartbeatPeriod),
			"Gtid_Slave_Pos":                 byLegacy["Executed_Gtid_Set"],
		}
		row := make([]any, len(cols))
		for i, c := range cols {
			if v, ok := extra[c]; ok {
				row[i] = v
			} else {
				row[i] = byLegacy[c]
			}
		}
		out = append(out, row)
	}
	return cols, out
}
