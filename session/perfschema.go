package session

import (
	"slices"
	"strings"

	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/sqlcompat"
)

const perfSchema = "performance_schema"

// readsPerfSchema reports whether a query names performance_schema tables.
func (s *Session) readsPerfSchema(q *sqlcompat.Query) bool {
	return slices.ContainsFunc(q.Schemas, func(d string) bool { return strings.EqualFold(d, perfSchema) }) ||
		(strings.EqualFold(s.db, perfSchema) && len(q.Tables) > 0)
}

// perfSchemaTables builds the replication views of performance_schema from live state.
func (s *Session) perfSchemaTables() []engine.VirtualTable {
	byWorker := engine.VirtualTable{Schema: perfSchema, Name: "replication_applier_status_by_worker",
		Columns: []string{"CHANNEL_NAME", "WORKER_ID", "THREAD_ID", "SERVICE_STATE", "APPLYING_SCHEMA", "LAST_APPLIED_TRANSACTION", "APPLYING_TRANSACTION", "APPLIED_TRANSACTIONS", "LAST_ERROR_NUMBER", "LAST_ERROR_MESSAGE"}}
	for _, w := range s.env.Replicas.Workers() {
		state := "OFF"
		if w.Running {
			state = "ON"
		}
		gt := func(g interface {
			IsZero() bool
			String() string
		}) string {
			if g.IsZero() {
				return ""
			}
			return g.String()
		}
		byWorker.Rows = append(byWorker.Rows, []any{w.Channel, int64(w.ID), nil, state, w.Schema, gt(w.LastApplied), gt(w.Applying), int64(w.Applied), int64(w.LastErrno), w.LastError})
	}
	conn := engine.VirtualTable{Schema: perfSchema, Name: "replication_connection_status",
		Columns: []string{"CHANNEL_NAME", "SOURCE_UUID", "SERVICE_STATE", "RECEIVED_TRANSACTION_SET", "LAST_ERROR_NUMBER", "LAST_ERROR_MESSAGE"}}
	applier := engine.VirtualTable{Schema: perfSchema, Name: "replication_applier_status",
		Columns: []string{"CHANNEL_NAME", "SERVICE_STATE", "REMAINING_DELAY", "COUNT_TRANSACTIONS_RETRIES"}}
	for _, row := range s.env.Replicas.Status("", true) {
		f := map[string]any{}
		for _, x := range row {
			f[x.Name] = x.Value
		}
		ioState := "OFF"
		switch f["Replica_IO_Running"] {
		case "Yes":
			ioState = "ON"
		case "Connecting":
			ioState = "CONNECTING"
		}
		sqlState := "OFF"
		if f["Replica_SQL_Running"] == "Yes" {
			sqlState = "ON"
		}
		conn.Rows = append(conn.Rows, []any{f["Channel_Name"], f["Source_UUID"], ioState, f["Retrieved_Gtid_Set"], f["Last_IO_Errno"], f["Last_IO_Error"]})
		applier.Rows = append(applier.Rows, []any{f["Channel_Name"], sqlState, nil, int64(0)})
	}
	return []engine.VirtualTable{byWorker, conn, applier}
}
