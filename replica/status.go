package replica

import (
	"time"

	"github.com/binlite/binlite/engine"
)

// Field is one SHOW REPLICA STATUS column: MySQL 8.4's name, the legacy SHOW SLAVE
// STATUS name, and the value (nil = NULL).
type Field struct {
	Name, Legacy string
	Value        any
}

// Status returns one row of fields per channel (all channels when name is "" and
// several exist).
func (m *Manager) Status(name string, all bool) [][]Field {
	m.mu.Lock()
	var chs []*Channel
	if all {
		for _, n := range m.sortedNames() {
			chs = append(chs, m.channels[n])
		}
	} else if ch := m.channels[name]; ch != nil {
		chs = append(chs, ch)
	}
	m.mu.Unlock()
	rows := make([][]Field, 0, len(chs))
	for _, ch := range chs {
		rows = append(rows, ch.status(m))
	}
	return rows
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

func (ch *Channel) status(m *Manager) []Field {
	ch.mu.Lock()
	s, st := ch.settings, ch.st
	sqlOn := ch.sql != nil
	ioRunning := st.ioRunning
	if ch.io == nil {
		ioRunning = "No"
	}
	var retrieved string
	relayFile := st.relayFile
	if ch.relay != nil {
		retrieved = ch.relay.Executed().String()
		if relayFile == "" {
			if files, err := ch.relay.Files(); err == nil && len(files) > 0 {
				relayFile = files[0].Name
			}
		}
	}
	ch.mu.Unlock()
	// MySQL: NULL when the SQL thread is not running, or when it has applied all of
	// the relay log and the receiver is not running; otherwise the age of what is
	// being applied (0 when caught up with a running receiver).
	var lag any
	switch {
	case !sqlOn:
	case st.oldestUS > 0:
		lag = max(int64(0), int64(time.Since(time.UnixMicro(int64(st.oldestUS))).Seconds()))
	case ioRunning == "Yes":
		lag = int64(0)
	}
	errTime := func(t time.Time, code uint16) string {
		if code == 0 || t.IsZero() {
			return ""
		}
		return t.Format("060102 15:04:05")
	}
	autoPos := int64(0)
	if s.AutoPosition {
		autoPos = 1
	}
	lastErrno, lastError := st.lastSQLErrno, st.lastSQLError
	filters := m.cfg.Filters.effective(ch.name, s.Filters)
	vals := map[string]any{
		"Replica_IO_State":            st.ioState,
		"Source_Host":                 s.Host,
		"Source_User":                 s.User,
		"Source_Port":                 int64(s.Port),
		"Connect_Retry":               int64(s.ConnectRetry),
		"Source_Log_File":             st.readFile,
		"Read_Source_Log_Pos":         st.readPos,
		"Relay_Log_File":              relayFile,
		"Relay_Log_Pos":               st.relayPos,
		"Relay_Source_Log_File":       st.execFile,
		"Replica_IO_Running":          ioRunning,
		"Replica_SQL_Running":         yesNo(sqlOn),
		"Last_Errno":                  int64(lastErrno),
		"Last_Error":                  lastError,
		"Exec_Source_Log_Pos":         st.execPos,
		"Seconds_Behind_Source":       lag,
		"Last_IO_Errno":               int64(st.lastIOErrno),
		"Last_IO_Error":               st.lastIOError,
		"Last_SQL_Errno":              int64(st.lastSQLErrno),
		"Last_SQL_Error":              st.lastSQLError,
		"Source_Server_Id":            int64(st.sourceServerID),
		"Source_UUID":                 st.sourceUUID,
		"SQL_Delay":                   int64(s.Delay),
		"Replica_SQL_Running_State":   st.sqlState,
		"Source_Retry_Count":          int64(s.RetryCount),
		"Last_IO_Error_Timestamp":     errTime(st.lastIOTime, st.lastIOErrno),
		"Last_SQL_Error_Timestamp":    errTime(st.lastSQLTime, st.lastSQLErrno),
		"Retrieved_Gtid_Set":          retrieved,
		"Executed_Gtid_Set":           m.cfg.Engine.Executed().String(),
		"Auto_Position":               autoPos,
		"Channel_Name":                ch.name,
		"Replicate_Do_DB":             filters.text(DoDB),
		"Replicate_Ignore_DB":         filters.text(IgnoreDB),
		"Replicate_Do_Table":          filters.text(DoTable),
		"Replicate_Ignore_Table":      filters.text(IgnoreTable),
		"Replicate_Wild_Do_Table":     filters.text(WildDoTable),
		"Replicate_Wild_Ignore_Table": filters.text(WildIgnoreTable),
		"Replicate_Rewrite_DB":        filters.text(RewriteDB),
		// TLS to the source
		"Source_SSL_Allowed":            s.TLS.allowed(),
		"Source_SSL_CA_File":            s.TLS.CA,
		"Source_SSL_Cert":               s.TLS.Cert,
		"Source_SSL_Key":                s.TLS.Key,
		"Source_SSL_Verify_Server_Cert": yesNo(s.TLS.VerifyServer),
		"Source_TLS_Version":            s.TLS.Version,
		"Get_Source_public_key":         boolInt(s.TLS.GetPublicKey),
	}
	out := make([]Field, len(statusColumns))
	for i, c := range statusColumns {
		v, ok := vals[c.name]
		if !ok {
			v = c.fixed
		}
		out[i] = Field{Name: c.name, Legacy: c.legacy, Value: v}
	}
	return out
}

// StatusColumns are SHOW REPLICA STATUS's column names (SHOW SLAVE STATUS's when
// legacy), for a result with no channel.
func StatusColumns(legacy bool) []string {
	out := make([]string, len(statusColumns))
	for i, c := range statusColumns {
		out[i] = c.name
		if legacy {
			out[i] = c.legacy
		}
	}
	return out
}

// statusColumns are MySQL 8.4's SHOW REPLICA STATUS columns in order (tools such as
// mariadb-dump --dump-slave read them by position), with the legacy name and the
// value of those binlite has no setting for (no filters, no UNTIL).
var statusColumns = []struct {
	name, legacy string
	fixed        any
}{
	{"Replica_IO_State", "Slave_IO_State", ""},
	{"Source_Host", "Master_Host", ""},
	{"Source_User", "Master_User", ""},
	{"Source_Port", "Master_Port", int64(0)},
	{"Connect_Retry", "Connect_Retry", int64(0)},
	{"Source_Log_File", "Master_Log_File", ""},
	{"Read_Source_Log_Pos", "Read_Master_Log_Pos", int64(0)},
	{"Relay_Log_File", "Relay_Log_File", ""},
	{"Relay_Log_Pos", "Relay_Log_Pos", int64(0)},
	{"Relay_Source_Log_File", "Relay_Master_Log_File", ""},
	{"Replica_IO_Running", "Slave_IO_Running", "No"},
	{"Replica_SQL_Running", "Slave_SQL_Running", "No"},
	{"Replicate_Do_DB", "Replicate_Do_DB", ""},
	{"Replicate_Ignore_DB", "Replicate_Ignore_DB", ""},
	{"Replicate_Do_Table", "Replicate_Do_Table", ""},
	{"Replicate_Ignore_Table", "Replicate_Ignore_Table", ""},
	{"Replicate_Wild_Do_Table", "Replicate_Wild_Do_Table", ""},
	{"Replicate_Wild_Ignore_Table", "Replicate_Wild_Ignore_Table", ""},
	{"Last_Errno", "Last_Errno", int64(0)},
	{"Last_Error", "Last_Error", ""},
	{"Skip_Counter", "Skip_Counter", int64(0)},
	{"Exec_Source_Log_Pos", "Exec_Master_Log_Pos", int64(0)},
	{"Relay_Log_Space", "Relay_Log_Space", int64(0)},
	{"Until_Condition", "Until_Condition", "None"},
	{"Until_Log_File", "Until_Log_File", ""},
	{"Until_Log_Pos", "Until_Log_Pos", int64(0)},
	{"Source_SSL_Allowed", "Master_SSL_Allowed", "No"},
	{"Source_SSL_CA_File", "Master_SSL_CA_File", ""},
	{"Source_SSL_CA_Path", "Master_SSL_CA_Path", ""},
	{"Source_SSL_Cert", "Master_SSL_Cert", ""},
	{"Source_SSL_Cipher", "Master_SSL_Cipher", ""},
	{"Source_SSL_Key", "Master_SSL_Key", ""},
	{"Seconds_Behind_Source", "Seconds_Behind_Master", nil},
	{"Source_SSL_Verify_Server_Cert", "Master_SSL_Verify_Server_Cert", "No"},
	{"Last_IO_Errno", "Last_IO_Errno", int64(0)},
	{"Last_IO_Error", "Last_IO_Error", ""},
	{"Last_SQL_Errno", "Last_SQL_Errno", int64(0)},
	{"Last_SQL_Error", "Last_SQL_Error", ""},
	{"Replicate_Ignore_Server_Ids", "Replicate_Ignore_Server_Ids", ""},
	{"Source_Server_Id", "Master_Server_Id", int64(0)},
	{"Source_UUID", "Master_UUID", ""},
	{"Source_Info_File", "Master_Info_File", "mysql.slave_master_info"},
	{"SQL_Delay", "SQL_Delay", int64(0)},
	{"SQL_Remaining_Delay", "SQL_Remaining_Delay", nil},
	{"Replica_SQL_Running_State", "Slave_SQL_Running_State", ""},
	{"Source_Retry_Count", "Master_Retry_Count", int64(0)},
	{"Source_Bind", "Master_Bind", ""},
	{"Last_IO_Error_Timestamp", "Last_IO_Error_Timestamp", ""},
	{"Last_SQL_Error_Timestamp", "Last_SQL_Error_Timestamp", ""},
	{"Source_SSL_Crl", "Master_SSL_Crl", ""},
	{"Source_SSL_Crlpath", "Master_SSL_Crlpath", ""},
	{"Retrieved_Gtid_Set", "Retrieved_Gtid_Set", ""},
	{"Executed_Gtid_Set", "Executed_Gtid_Set", ""},
	{"Auto_Position", "Auto_Position", int64(0)},
	{"Replicate_Rewrite_DB", "Replicate_Rewrite_DB", ""},
	{"Channel_Name", "Channel_Name", ""},
	{"Source_TLS_Version", "Master_TLS_Version", ""},
	{"Source_public_key_path", "Master_public_key_path", ""},
	{"Get_Source_public_key", "Get_master_public_key", int64(0)},
	{"Network_Namespace", "Network_Namespace", ""},
}

// WorkerRow is one row of performance_schema.replication_applier_status_by_worker.
type WorkerRow struct {
	Channel string
	engine.WorkerStatus
	Running bool
}

// Workers reports the applier workers of every channel.
func (m *Manager) Workers() []WorkerRow {
	m.mu.Lock()
	names := m.sortedNames()
	chs := make([]*Channel, len(names))
	for i, n := range names {
		chs[i] = m.channels[n]
	}
	m.mu.Unlock()
	var out []WorkerRow
	for _, ch := range chs {
		ch.mu.Lock()
		st, running := ch.applyStream, ch.sql != nil
		ch.mu.Unlock()
		if st == nil {
			continue
		}
		for _, w := range st.Workers() {
			out = append(out, WorkerRow{Channel: ch.name, WorkerStatus: w.Status(), Running: running})
		}
	}
	return out
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
