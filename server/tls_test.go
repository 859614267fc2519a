package server_test

// TLS on the client port and MySQL 8.4's authentication (caching_sha2_password
// beside mysql_native_password), with the clients DBAs use: the mariadb CLI, the
// Go driver and PyMySQL, each with and without TLS and with both plugins.

import (
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-sql-driver/mysql"

	tn "github.com/binlite/binlite/internal/testnode"
)

// tlsConfigSeq names the driver's registered TLS configurations uniquely.
var tlsConfigSeq atomic.Int64

// registerTLS registers a Go driver TLS configuration that trusts the node's
// generated CA (and presents its client certificate when withCert) and returns
// its name for the DSN's tls= parameter.
func registerTLS(t *testing.T, n *tn.Node, withCert bool) string {
	t.Helper()
	pem, err := os.ReadFile(filepath.Join(n.Dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("ca.pem holds no certificate")
	}
	cfg := &tls.Config{RootCAs: pool}
	if withCert {
		pair, err := tls.LoadX509KeyPair(filepath.Join(n.Dir, "client-cert.pem"), filepath.Join(n.Dir, "client-key.pem"))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	name := fmt.Sprintf("binlite-test-%d", tlsConfigSeq.Add(1))
	if err := mysql.RegisterTLSConfig(name, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mysql.DeregisterTLSConfig(name) })
	return name
}

// goLogin logs in with the Go driver (tlsName "" = plain TCP) and returns the
// session's Ssl_version, or the login error.
func goLogin(n *tn.Node, user, password, tlsName string) (string, error) {
	dsn := fmt.Sprintf("%s:%s@tcp(%s)/", user, password, n.Addr())
	if tlsName != "" {
		dsn += "?tls=" + tlsName
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var name, version string
	if err := db.QueryRow("SHOW STATUS LIKE 'Ssl_version'").Scan(&name, &version); err != nil {
		return "", err
	}
	return version, nil
}

func errCode(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// pyLogin logs in with PyMySQL (ca "" = plain TCP) and returns Ssl_version, or
// "ERR <code>".
func pyLogin(t *testing.T, n *tn.Node, user, password, ca string) string {
	t.Helper()
	const script = `
import sys, pymysql
port, user, pw, ca = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
kw = {"ssl": {"ca": ca}} if ca else {}
try:
    c = pymysql.connect(host="127.0.0.1", port=port, user=user, password=pw, **kw)
except pymysql.err.OperationalError as e:
    print("ERR", e.args[0]); sys.exit(0)
cur = c.cursor(); cur.execute("SHOW STATUS LIKE 'Ssl_version'")
print(cur.fetchone()[1])
`
	out, err := exec.Command("/usr/bin/python3", "-c", script, strconv.Itoa(n.Port()), user, password, ca).CombinedOutput()
	if err != nil {
		t.Fatalf("python3 pymysql: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// cliLogin logs in with the mariadb CLI and returns Ssl_version, or "ERR" and the
// client's message.
func cliLogin(t *testing.T, n *tn.Node, user, password string, args ...string) string {
	t.Helper()
	r := mariadb(t, n, "", append([]string{"-u" + user, "-p" + password, "-N", "-B", "-e", "SHOW STATUS LIKE 'Ssl_version'"}, args...)...)
	if r.exit != 0 {
		return "ERR " + strings.TrimSpace(r.stderr)
	}
	_, v, _ := strings.Cut(strings.TrimSpace(r.stdout), "\t")
	return v
}

func TestClientsLogInWithBothPluginsWithAndWithoutTLS(t *testing.T) {
	n := tn.Start(t)
	root := n.DB("")
	ca := filepath.Join(n.Dir, "ca.pem")
	goTLS := registerTLS(t, n, false)

	// One account per client, plugin and transport, so that each login below is the
	// account's first: caching_sha2_password then runs its full authentication (the
	// password in clear over TLS, RSA-encrypted without it); the second login of
	// each is the fast one, from the cache.
	for _, client := range []string{"go", "py", "cli"} {
		for _, tr := range []string{"plain", "tls"} {
			tn.Exec(t, root, fmt.Sprintf("CREATE USER %s_sha2_%s IDENTIFIED WITH caching_sha2_password BY 'Sha2-pw'", client, tr))
			tn.Exec(t, root, fmt.Sprintf("CREATE USER %s_native_%s IDENTIFIED WITH mysql_native_password BY 'Native-pw'", client, tr))
		}
	}
	login := func(t *testing.T, client, user, pw string, secure bool) string {
		switch client {
		case "go":
			name := ""
			if secure {
				name = goTLS
			}
			v, err := goLogin(n, user, pw, name)
			if err != nil {
				return fmt.Sprintf("ERR %d %v", errCode(err), err)
			}
			return v
		case "py":
			if secure {
				return pyLogin(t, n, user, pw, ca)
			}
			return pyLogin(t, n, user, pw, "")
		default:
			if secure {
				return cliLogin(t, n, user, pw, "--ssl", "--ssl-ca="+ca, "--ssl-verify-server-cert")
			}
			return cliLogin(t, n, user, pw, "--skip-ssl")
		}
	}
	for _, client := range []string{"go", "py", "cli"} {
		for _, plugin := range []string{"sha2", "native"} {
			for _, tr := range []string{"plain", "tls"} {
				t.Run(client+"/"+plugin+"/"+tr, func(t *testing.T) {
					user := fmt.Sprintf("%s_%s_%s", client, plugin, tr)
					pw := map[string]string{"sha2": "Sha2-pw", "native": "Native-pw"}[plugin]
					want := ""
					if tr == "tls" {
						want = "TLSv1.3"
					}
					for attempt := range 2 {
						if got := login(t, client, user, pw, tr == "tls"); got != want {
							t.Fatalf("login %d as %s: Ssl_version %q, want %q", attempt+1, user, got, want)
						}
					}
					if got := login(t, client, user, "wrong", tr == "tls"); !strings.HasPrefix(got, "ERR") || !strings.Contains(got, "1045") {
						t.Fatalf("login as %s with a wrong password: %q, want error 1045", user, got)
					}
				})
			}
		}
	}
}

func TestCachingSHA2IsTheDefaultAndStoredAsMySQL(t *testing.T) {
	n := tn.Start(t)
	root := n.DB("")
	tn.Exec(t, root, "CREATE USER dflt IDENTIFIED BY 'pw'")
	tn.Exec(t, root, "CREATE USER nat IDENTIFIED WITH mysql_native_password BY 'pw'")
	got := tn.Rows(t, root, "SELECT User, plugin, LEFT(authentication_string, 7), LENGTH(authentication_string) FROM mysql.user WHERE User IN ('dflt', 'nat') ORDER BY User")
	want := [][]string{{"dflt", "caching_sha2_password", "$A$005$", "70"}, {"nat", "mysql_native_password", "*D82180", "41"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("mysql.user: %v, want %v", got, want)
	}
	if v := tn.Rows(t, root, "SELECT @@authentication_policy"); v[0][0] != "*,," {
		t.Fatalf("@@authentication_policy = %v", v)
	}
	// ALTER USER ... IDENTIFIED BY keeps the plugin; WITH changes it.
	tn.Exec(t, root, "ALTER USER nat IDENTIFIED BY 'new'")
	tn.Exec(t, root, "ALTER USER dflt IDENTIFIED WITH mysql_native_password BY 'new'")
	got = tn.Rows(t, root, "SELECT User, plugin FROM mysql.user WHERE User IN ('dflt', 'nat') ORDER BY User")
	if fmt.Sprint(got) != "[[dflt mysql_native_password] [nat mysql_native_password]]" {
		t.Fatalf("after ALTER USER: %v", got)
	}
	for _, u := range []string{"dflt", "nat"} {
		if _, err := goLogin(n, u, "new", ""); err != nil {
			t.Fatalf("login as %s with the new password: %v", u, err)
		}
	}
	// A stored hash is taken as is (IDENTIFIED ... AS), as mysqldump writes it.
	hash := tn.Rows(t, root, "SELECT authentication_string FROM mysql.user WHERE User = 'dflt'")[0][0]
	tn.Exec(t, root, fmt.Sprintf("CREATE USER copy IDENTIFIED WITH mysql_native_password AS '%s'", hash))
	if _, err := goLogin(n, "copy", "new", ""); err != nil {
		t.Fatalf("login as an account created AS its hash: %v", err)
	}
	if _, err := tn.TryExec(root, "CREATE USER bad IDENTIFIED WITH caching_sha2_password AS 'nope'"); errCode(err) != 1827 {
		t.Fatalf("malformed hash: %v, want 1827", err)
	}
	if _, err := tn.TryExec(root, "CREATE USER bad IDENTIFIED WITH sha256_password BY 'x'"); errCode(err) != 1524 {
		t.Fatalf("unknown plugin: %v, want 1524", err)
	}
	// Keys are the owner's alone.
	for _, f := range []string{"ca-key.pem", "server-key.pem", "client-key.pem", "private_key.pem"} {
		st, err := os.Stat(filepath.Join(n.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", f, st.Mode().Perm())
		}
	}
}

func TestAuthSwitchBetweenPlugins(t *testing.T) {
	n := tn.Start(t)
	root := n.DB("")
	tn.Exec(t, root, "CREATE USER sw IDENTIFIED WITH caching_sha2_password BY 'pw'")
	tn.Exec(t, root, "CREATE USER nat IDENTIFIED WITH mysql_native_password BY 'pw'")
	// The CLI starts with mysql_native_password; the account wants caching_sha2.
	ca := filepath.Join(n.Dir, "ca.pem")
	if got := cliLogin(t, n, "sw", "pw", "--default-auth=mysql_native_password", "--ssl", "--ssl-ca="+ca); got != "TLSv1.3" {
		t.Fatalf("native-first client on a caching_sha2 account: %q", got)
	}
	if got := cliLogin(t, n, "sw", "pw", "--default-auth=mysql_native_password", "--skip-ssl"); got != "" {
		t.Fatalf("native-first client on a caching_sha2 account, fast path: %q", got)
	}
	// The greeting proposes caching_sha2; the account wants mysql_native_password.
	if got := cliLogin(t, n, "nat", "pw", "--skip-ssl"); got != "" {
		t.Fatalf("caching_sha2-first client on a native account: %q", got)
	}
}

func TestRequireSSLAndSecureTransport(t *testing.T) {
	n := tn.Start(t)
	root := n.DB("")
	goTLS := registerTLS(t, n, false)
	goX509 := registerTLS(t, n, true)
	tn.Exec(t, root, "CREATE USER s IDENTIFIED BY 'pw' REQUIRE SSL")
	tn.Exec(t, root, "CREATE USER x IDENTIFIED BY 'pw' REQUIRE X509")
	tn.Exec(t, root, "CREATE USER p IDENTIFIED BY 'pw'")
	if got := tn.Rows(t, root, "SELECT User, ssl_type FROM mysql.user WHERE User IN ('p','s','x') ORDER BY User"); fmt.Sprint(got) != "[[p ] [s ANY] [x X509]]" {
		t.Fatalf("ssl_type: %v", got)
	}
	check := func(user, tlsName string, want uint16) {
		t.Helper()
		_, err := goLogin(n, user, "pw", tlsName)
		if errCode(err) != want || want == 0 && err != nil {
			t.Fatalf("login as %s (tls=%q): %v, want error %d", user, tlsName, err, want)
		}
	}
	check("s", "", 1045)
	check("s", goTLS, 0)
	check("x", goTLS, 1045)
	check("x", goX509, 0)
	check("p", "", 0)
	tn.Exec(t, root, "ALTER USER s REQUIRE NONE")
	check("s", "", 0)

	tn.Exec(t, root, "SET GLOBAL require_secure_transport = ON")
	check("p", "", 3159)
	check("p", goTLS, 0)
	if got := pyLogin(t, n, "p", "pw", ""); got != "ERR 3159" {
		t.Fatalf("PyMySQL without TLS under require_secure_transport: %q", got)
	}
	tn.Exec(t, root, "SET GLOBAL require_secure_transport = OFF")
	check("p", "", 0)
}

func TestSslStatusAndVariables(t *testing.T) {
	n := tn.Start(t)
	name := registerTLS(t, n, false)
	db, err := sql.Open("mysql", n.DSN("", "tls="+name))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := tn.Rows(t, db, "SHOW STATUS LIKE 'Ssl_cipher'")
	if len(got) != 1 || got[0][1] != "TLS_AES_128_GCM_SHA256" && got[0][1] != "TLS_AES_256_GCM_SHA384" && got[0][1] != "TLS_CHACHA20_POLY1305_SHA256" {
		t.Fatalf("Ssl_cipher over TLS 1.3: %v", got)
	}
	if got := tn.Rows(t, n.DB(""), "SHOW STATUS LIKE 'Ssl_cipher'"); got[0][1] != "" {
		t.Fatalf("Ssl_cipher over plain TCP: %v", got)
	}
	vars := tn.Rows(t, db, "SELECT @@have_ssl, @@ssl_cert, @@ssl_key, @@ssl_ca, @@tls_version")
	if fmt.Sprint(vars) != "[[YES server-cert.pem server-key.pem ca.pem TLSv1.2,TLSv1.3]]" {
		t.Fatalf("TLS variables: %v", vars)
	}
}

// TestOperatorCertificate gives a node its own certificate (ssl_cert, ssl_key,
// ssl_ca options) and a TLS 1.2-only tls_version.
func TestOperatorCertificate(t *testing.T) {
	gen := tn.Start(t) // a node's generated CA and server certificate stand for the operator's
	dir := t.TempDir()
	for _, f := range []string{"ca.pem", "server-cert.pem", "server-key.pem"} {
		b, err := os.ReadFile(filepath.Join(gen.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "my-"+f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	n := tn.Start(t, tn.Opt("ssl_cert", filepath.Join(dir, "my-server-cert.pem")), tn.Opt("ssl_key", filepath.Join(dir, "my-server-key.pem")),
		tn.Opt("ssl_ca", filepath.Join(dir, "my-ca.pem")), tn.Opt("tls_version", "TLSv1.2"))
	if _, err := os.Stat(filepath.Join(n.Dir, "server-cert.pem")); !os.IsNotExist(err) {
		t.Fatalf("a node given a certificate generated its own: %v", err)
	}
	if got := cliLogin(t, n, "root", "", "--ssl", "--ssl-ca="+filepath.Join(dir, "my-ca.pem"), "--ssl-verify-server-cert"); got != "TLSv1.2" {
		t.Fatalf("CLI over the operator's certificate: Ssl_version %q, want TLSv1.2", got)
	}
}
