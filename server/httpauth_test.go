package server_test

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// httpStatusCode returns the status code of GET url with an optional bearer token.
func httpStatusCode(t *testing.T, url, token string) int {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestHTTPBindsToLoopbackByDefault(t *testing.T) {
	n := tn.Start(t, tn.Opt("bind_address", "0.0.0.0"))
	host, _, err := net.SplitHostPort(n.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	if host != "127.0.0.1" {
		t.Fatalf("HTTP endpoint on %s with bind_address=0.0.0.0, want 127.0.0.1 unless http_bind_address says otherwise", n.HTTPAddr())
	}
	for _, path := range []string{"/status", "/metrics", "/debug/pprof/"} {
		if code := httpStatusCode(t, "http://"+n.HTTPAddr()+path, ""); code != 200 {
			t.Errorf("GET %s on loopback: %d, want 200", path, code)
		}
	}
}

func TestHTTPBeyondLoopbackNeedsToken(t *testing.T) {
	n := tn.Start(t, tn.Opt("http_bind_address", "0.0.0.0"), tn.Opt("http_token", "s3cret-token"))
	_, port, _ := net.SplitHostPort(n.HTTPAddr())
	base := "http://127.0.0.1:" + port
	for _, c := range []struct {
		path, token string
		want        int
	}{
		{"/metrics", "", 200},
		{"/status", "", 401},
		{"/status", "wrong", 401},
		{"/status", "s3cret-token", 200},
		{"/debug/pprof/", "", 401},
		{"/debug/pprof/heap", "", 401},
		{"/debug/pprof/", "s3cret-token", 200},
	} {
		if got := httpStatusCode(t, base+c.path, c.token); got != c.want {
			t.Errorf("GET %s with token %q: %d, want %d", c.path, c.token, got, c.want)
		}
	}
	// Without a token configured, nothing but /metrics answers.
	open := tn.Start(t, tn.Opt("http_bind_address", "0.0.0.0"))
	_, port, _ = net.SplitHostPort(open.HTTPAddr())
	if got := httpStatusCode(t, "http://127.0.0.1:"+port+"/status", ""); got != 401 {
		t.Errorf("GET /status beyond loopback without http_token configured: %d, want 401", got)
	}
}

// TestReplicationSettingsFileMode: replication.json holds the source password; a
// file an older version left world-readable is made the owner's at start.
func TestReplicationSettingsFileMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "replication.json")
	old := `{"": {"host": "127.0.0.1", "port": 1, "user": "repl", "password": "Old-Secret-1", "auto_position": true, "connect_retry": 60, "retry_count": 1, "heartbeat_period": 30, "stopped": true}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	n := tn.StartDir(t, dir)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("replication.json mode %v after start, want 0600", fi.Mode().Perm())
	}
	db := n.DB("")
	tn.Exec(t, db, "CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD='New-Secret-2'")
	if fi, err = os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("replication.json after CHANGE REPLICATION SOURCE: %v %v, want mode 0600", fi.Mode(), err)
	}
	_, rows := tn.Result(t, db, "SHOW REPLICA STATUS")
	for _, r := range rows {
		if strings.Contains(strings.Join(r, " "), "Secret") {
			t.Fatalf("SHOW REPLICA STATUS shows the password: %v", r)
		}
	}
}
