package infoschema

import (
	"fmt"
	"strings"
	"time"
)

// performance_schema's threads and replication tables.

func threads(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, p := range src.Processes() {
		out = append(out, Values{"THREAD_ID": int64(p.ID), "NAME": "thread/sql/one_connection", "TYPE": "FOREGROUND",
			"PROCESSLIST_ID": int64(p.ID), "PROCESSLIST_USER": p.User, "PROCESSLIST_HOST": p.Host, "PROCESSLIST_DB": nullIfEmpty(p.DB),
			"PROCESSLIST_COMMAND": p.Command, "PROCESSLIST_TIME": p.Time, "PROCESSLIST_STATE": nullIfEmpty(p.State),
			"PROCESSLIST_INFO": nullIfEmpty(p.Info), "INSTRUMENTED": "YES", "HISTORY": "YES", "CONNECTION_TYPE": "TCP/IP",
			"RESOURCE_GROUP": "USR_default", "EXECUTION_ENGINE": "PRIMARY", "TELEMETRY_ACTIVE": "NO"})
	}
	return out
}

func nameValues(vars [][2]string) []Values {
	out := make([]Values, 0, len(vars))
	for _, v := range vars {
		out = append(out, Values{"VARIABLE_NAME": v[0], "VARIABLE_VALUE": v[1]})
	}
	return out
}

// field reads a SHOW REPLICA STATUS field as text.
func field(ch map[string]any, name string) string {
	v := ch[name]
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func intField(ch map[string]any, name string) int64 {
	switch x := ch[name].(type) {
	case int64:
		return x
	case uint64:
		return int64(x)
	case int:
		return int64(x)
	case uint32:
		return int64(x)
	}
	return 0
}

func connectionConfiguration(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, ch := range src.Channels() {
		auto := "0"
		if intField(ch, "Auto_Position") == 1 {
			auto = "1"
		}
		out = append(out, Values{"CHANNEL_NAME": field(ch, "Channel_Name"), "HOST": field(ch, "Source_Host"),
			"PORT": intField(ch, "Source_Port"), "USER": field(ch, "Source_User"), "AUTO_POSITION": auto,
			"SSL_ALLOWED": strings.ToUpper(field(ch, "Source_SSL_Allowed")), "SSL_CA_FILE": field(ch, "Source_SSL_CA_File"),
			"SSL_CERTIFICATE": field(ch, "Source_SSL_Cert"), "SSL_KEY": field(ch, "Source_SSL_Key"),
			"SSL_VERIFY_SERVER_CERTIFICATE": strings.ToUpper(field(ch, "Source_SSL_Verify_Server_Cert")),
			"TLS_VERSION":                   field(ch, "Source_TLS_Version"), "CONNECTION_RETRY_INTERVAL": intField(ch, "Connect_Retry"),
			"CONNECTION_RETRY_COUNT": intField(ch, "Source_Retry_Count"), "HEARTBEAT_INTERVAL": float64(30),
			"GET_PUBLIC_KEY": map[int64]string{0: "NO", 1: "YES"}[intField(ch, "Get_Source_public_key")], "COMPRESSION_ALGORITHM": "uncompressed", "ZSTD_COMPRESSION_LEVEL": int64(3),
			"SOURCE_CONNECTION_AUTO_FAILOVER": "0", "GTID_ONLY": "0"})
	}
	return out
}

func connectionStatus(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, ch := range src.Channels() {
		state := "OFF"
		switch field(ch, "Replica_IO_Running") {
		case "Yes":
			state = "ON"
		case "Connecting":
			state = "CONNECTING"
		}
		out = append(out, Values{"CHANNEL_NAME": field(ch, "Channel_Name"), "SOURCE_UUID": field(ch, "Source_UUID"),
			"SERVICE_STATE": state, "RECEIVED_TRANSACTION_SET": field(ch, "Retrieved_Gtid_Set"),
			"LAST_ERROR_NUMBER": intField(ch, "Last_IO_Errno"), "LAST_ERROR_MESSAGE": field(ch, "Last_IO_Error")})
	}
	return out
}

func applierConfiguration(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, ch := range src.Channels() {
		out = append(out, Values{"CHANNEL_NAME": field(ch, "Channel_Name"), "DESIRED_DELAY": intField(ch, "SQL_Delay"),
			"REQUIRE_ROW_FORMAT": "NO", "REQUIRE_TABLE_PRIMARY_KEY_CHECK": "STREAM", "ASSIGN_GTIDS_TO_ANONYMOUS_TRANSACTIONS_TYPE": "OFF"})
	}
	return out
}

func applierStatus(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, ch := range src.Channels() {
		state := "OFF"
		if field(ch, "Replica_SQL_Running") == "Yes" {
			state = "ON"
		}
		out = append(out, Values{"CHANNEL_NAME": field(ch, "Channel_Name"), "SERVICE_STATE": state, "REMAINING_DELAY": nil})
	}
	return out
}

func byWorker(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, w := range src.Workers() {
		state := "OFF"
		if w.Running {
			state = "ON"
		}
		v := Values{"CHANNEL_NAME": w.Channel, "WORKER_ID": int64(w.ID), "THREAD_ID": nil, "SERVICE_STATE": state,
			"LAST_ERROR_NUMBER": w.LastErrno, "LAST_ERROR_MESSAGE": w.LastError, "LAST_APPLIED_TRANSACTION": w.LastApplied,
			"APPLYING_TRANSACTION": w.Applying, "APPLYING_SCHEMA": w.Schema, "APPLIED_TRANSACTIONS": int64(w.Applied)}
		for col, t := range map[string]time.Time{
			"LAST_APPLIED_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP":  w.LastOriginalCommit,
			"LAST_APPLIED_TRANSACTION_IMMEDIATE_COMMIT_TIMESTAMP": w.LastImmediateCommit,
			"LAST_APPLIED_TRANSACTION_START_APPLY_TIMESTAMP":      w.LastStartApply,
			"LAST_APPLIED_TRANSACTION_END_APPLY_TIMESTAMP":        w.LastEndApply,
			"APPLYING_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP":      w.ApplyingOriginalCommit,
			"APPLYING_TRANSACTION_IMMEDIATE_COMMIT_TIMESTAMP":     w.ApplyingImmediateCommit,
			"APPLYING_TRANSACTION_START_APPLY_TIMESTAMP":          w.ApplyingStartApply,
		} {
			if !t.IsZero() { // else the column's zero, '0000-00-00 00:00:00.000000', as MySQL shows
				v[col] = t.UTC().Format("2006-01-02 15:04:05.000000")
			}
		}
		out = append(out, v)
	}
	return out
}
