package config

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := `
# comment
[client]
port = 1
[mysqld]
server-id = 7
port=3307
log_replica_updates
loose-sync-binlog = 0   # trailing comment
datadir = "/tmp/x y"
[mysqldump]
quick
`
	opts, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"server_id": "7", "port": "3307", "log_replica_updates": "ON", "sync_binlog": "0", "datadir": "/tmp/x y"}
	if len(opts) != len(want) {
		t.Fatalf("got %d options %+v, want %d", len(opts), opts, len(want))
	}
	for _, o := range opts {
		if want[o.Name] != o.Value {
			t.Errorf("%s = %q, want %q", o.Name, o.Value, want[o.Name])
		}
	}
}

func TestParseMalformed(t *testing.T) {
	if _, err := Parse(strings.NewReader("[mysqld\nport=1")); err == nil {
		t.Fatal("malformed section accepted")
	}
}
