package server_test

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// /metrics has a series per replication channel, labelled with its name.
func TestChannelMetricsPerChannel(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	// Two channels pointing nowhere: configured, not started.
	for _, ch := range []string{"a", "b"} {
		tn.Exec(t, db, "CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=1, SOURCE_USER='r' FOR CHANNEL '"+ch+"'")
	}
	body, _ := httpGet(t, "http://"+n.HTTPAddr()+"/metrics")
	for _, want := range []string{
		`binlite_replica_channel_io_running{channel="a"} 0`,
		`binlite_replica_channel_sql_running{channel="b"} 0`,
		`binlite_replica_channel_seconds_behind_source{channel="a"} -1`,
		`binlite_replica_channel_overlaps{channel="b"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
