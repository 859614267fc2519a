package semisynctest

// Semi-synchronous replication over TLS, as MySQL 8.4 runs it: the source requires
// secure transport, the replication account uses caching_sha2_password (the
// default) and REQUIRE SSL, and the replica connects with SOURCE_SSL=1, verifying
// the source's certificate against its CA.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/server"
)

// startSecureNode runs a node like startNode, with its root pool on TLS (trusting
// the node's generated CA), so that require_secure_transport may be on.
func startSecureNode(t *testing.T, name string, id uint32, opts ...config.Option) (*node, string) {
	t.Helper()
	dir := t.TempDir()
	n := &node{t: t, name: name, log: &logBuf{t: t, prefix: name + ": "}}
	srv, err := server.Open(server.Config{
		DataDir: dir, HTTPPort: -1, ServerID: id, Options: opts,
		Logger:  slog.New(slog.NewTextHandler(n.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		OnFatal: func(err error) { t.Errorf("%s: fatal: %v", name, err) },
	})
	if err != nil {
		t.Fatalf("%s: server.Open: %v", name, err)
	}
	srv.Start()
	n.srv = srv
	t.Cleanup(func() {
		if n.db != nil {
			n.db.Close()
		}
		if err := n.srv.Close(); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
		n.log.stop()
	})
	ca, err := os.ReadFile(filepath.Join(dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", srv.Addr()
	cfg.TLS = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
	cfg.Timeout = 5 * time.Second
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.db = sql.OpenDB(connector)
	ctx, cancel := context.WithTimeout(context.Background(), testnode.StatementTimeout)
	defer cancel()
	if err := n.db.PingContext(ctx); err != nil {
		t.Fatalf("%s: TLS connection: %v", name, err)
	}
	return n, dir
}

func TestSemiSyncOverTLS(t *testing.T) {
	const secret = "Repl-Secret-7f3a"
	src, srcDir := startSecureNode(t, "source", 1, opt("require_secure_transport", "ON"),
		opt("rpl_semi_sync_source_enabled", "ON"), opt("rpl_semi_sync_source_timeout", "600000"),
		opt("rpl_semi_sync_source_wait_no_replica", "OFF")) // the account is created before a replica connects
	rep, repDir := startSecureNode(t, "replica", 2, opt("rpl_semi_sync_replica_enabled", "ON"))
	exec(t, src.db, "CREATE USER repl@'%' IDENTIFIED BY '"+secret+"' REQUIRE SSL")
	exec(t, src.db, "GRANT REPLICATION SLAVE ON *.* TO repl@'%'")
	if p := str(t, src.db, "SELECT plugin FROM mysql.user WHERE User = 'repl'"); p != "caching_sha2_password" {
		t.Fatalf("replication account's plugin: %s", p)
	}
	ca := filepath.Join(srcDir, "ca.pem")
	exec(t, rep.db, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='%s', "+
		"SOURCE_SSL=1, SOURCE_SSL_CA='%s', SOURCE_SSL_VERIFY_SERVER_CERT=1, SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1",
		src.srv.Port(), secret, ca))
	exec(t, rep.db, "START REPLICA")
	waitReplicaConnected(t, rep.db)

	before := sourceCounters(t, src.db)
	exec(t, src.db, "CREATE DATABASE tl")
	exec(t, src.db, "CREATE TABLE tl.t (id INT PRIMARY KEY, v VARCHAR(20))")
	for i := 1; i <= 5; i++ {
		exec(t, src.db, fmt.Sprintf("INSERT INTO tl.t VALUES (%d, 'row %d')", i, i))
	}
	after := sourceCounters(t, src.db)
	if !after.On || after.Yes-before.Yes < 7 || after.No != before.No {
		t.Fatalf("semi-sync over TLS: before %v, after %v: want 7 more acknowledged commits and none without", before, after)
	}
	waitCaughtUp(t, src.db, rep.db)
	if got := rows(t, rep.db, "SELECT COUNT(*), MAX(v) FROM tl.t"); fmt.Sprint(got) != "[[5 row 5]]" {
		t.Fatalf("replica rows: %v", got)
	}

	st := replicaStatus(t, rep.db)
	for k, want := range map[string]string{"Source_SSL_Allowed": "Yes", "Source_SSL_CA_File": ca, "Source_SSL_Verify_Server_Cert": "Yes", "Source_User": "repl"} {
		if st[k] != want {
			t.Errorf("SHOW REPLICA STATUS %s = %q, want %q", k, st[k], want)
		}
	}
	if got := rows(t, rep.db, "SELECT SSL_ALLOWED, SSL_VERIFY_SERVER_CERTIFICATE FROM performance_schema.replication_connection_configuration"); fmt.Sprint(got) != "[[YES YES]]" {
		t.Errorf("replication_connection_configuration: %v", got)
	}
	// The source sees the replica's dump connection encrypted.
	if got := rows(t, src.db, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'repl'"); got[0][0] == "0" {
		t.Errorf("no connection of the replication account on the source")
	}

	// The password is nowhere but replication.json, which only its owner can read.
	for k, v := range st {
		if strings.Contains(v, secret) {
			t.Errorf("SHOW REPLICA STATUS %s shows the source password", k)
		}
	}
	resp, err := http.Get("http://" + rep.srv.HTTPAddr() + "/status")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"Source_SSL_Allowed":"Yes"`) || strings.Contains(string(body), secret) {
		t.Errorf("/status: want Source_SSL_Allowed and no password:\n%s", body)
	}
	if strings.Contains(rep.log.String(), secret) {
		t.Errorf("the replica logged the source password")
	}
	fi, err := os.Stat(filepath.Join(repDir, "replication.json"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("replication.json mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestReplicaWithoutTLSIsRefused: a source with require_secure_transport=ON turns
// away a replica on SOURCE_SSL=0 (3159), and one that cannot verify the source's
// certificate fails with a TLS error (2026).
func TestReplicaWithoutTLSIsRefused(t *testing.T) {
	src, _ := startSecureNode(t, "source", 1, opt("require_secure_transport", "ON"))
	exec(t, src.db, "CREATE USER repl@'%' IDENTIFIED BY 'pw'")
	exec(t, src.db, "GRANT REPLICATION SLAVE ON *.* TO repl@'%'")
	for _, c := range []struct {
		name, opts string
		errno      string
	}{
		{"plain", "SOURCE_SSL=0, GET_SOURCE_PUBLIC_KEY=1", "3159"},
		{"wrong-ca", "SOURCE_SSL=1, SOURCE_SSL_VERIFY_SERVER_CERT=1", "2026"}, // the system roots do not know the node's CA
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, _ := startSecureNode(t, "replica", 2)
			exec(t, rep.db, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', %s, SOURCE_CONNECT_RETRY=1", src.srv.Port(), c.opts))
			exec(t, rep.db, "START REPLICA")
			waitFor(t, 30*time.Second, "Last_IO_Errno "+c.errno, func() (bool, string) {
				st := replicaStatus(t, rep.db)
				return st["Last_IO_Errno"] == c.errno, fmt.Sprintf("Last_IO_Errno %s: %s", st["Last_IO_Errno"], st["Last_IO_Error"])
			})
		})
	}
}
