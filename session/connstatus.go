package session

import (
	"fmt"

	"github.com/binlite/binlite/mysqlproto"
)

// connectionRows are the status variables of connections and their limits, in
// MySQL's names: what max_connections, connect_timeout and the descriptor reserve
// refused or closed is visible in SHOW GLOBAL STATUS, as an operator expects.
func (s *Session) connectionRows() [][]any {
	if s.env.Conns == nil {
		// No protocol server behind the session (tests): count sessions.
		return [][]any{
			{"Connections", fmt.Sprint(s.env.Stats.Connections.Load())},
			{"Threads_connected", fmt.Sprint(s.env.List.Count())},
		}
	}
	st := s.env.Conns()
	maxUsedTime := ""
	if !st.MaxUsedTime.IsZero() {
		maxUsedTime = st.MaxUsedTime.UTC().Format("2006-01-02 15:04:05")
	}
	return [][]any{
		{"Aborted_clients", fmt.Sprint(st.AbortedClients)},
		{"Aborted_connects", fmt.Sprint(st.AbortedConnects)},
		{"Connection_errors_accept", fmt.Sprint(st.ErrorsAccept)},
		{"Connection_errors_internal", fmt.Sprint(st.ErrorsInternal)},
		{"Connection_errors_max_connections", fmt.Sprint(st.ErrorsMaxConnections)},
		{"Connections", fmt.Sprint(st.Connections)},
		{"Max_used_connections", fmt.Sprint(st.MaxUsed)},
		{"Max_used_connections_time", maxUsedTime},
		{"Threads_connected", fmt.Sprint(st.Connected)},
	}
}

// ConnStats is how a session reads the protocol server's connection counters.
type ConnStats func() mysqlproto.ConnStats
