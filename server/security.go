package server

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sysvar"
)

// securityVars are the TLS and authentication variables, under MySQL 8.4's names.
// Certificate paths are relative to the data directory, as mysqld's are.
func securityVars() []sysvar.Def {
	ro := func(name string, v any) sysvar.Def {
		return sysvar.Def{Name: name, Scope: sysvar.Global, Kind: kindOf(v), Default: v, ReadOnly: true}
	}
	return []sysvar.Def{
		ro("ssl_cert", ""),
		ro("ssl_key", ""),
		ro("ssl_ca", ""),
		ro("ssl_capath", ""),
		ro("ssl_cipher", ""),
		ro("tls_version", "TLSv1.2,TLSv1.3"),
		ro("have_ssl", "YES"),
		ro("have_openssl", "YES"),
		{Name: "auto_generate_certs", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(1), ReadOnly: true},
		{Name: "require_secure_transport", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0)},
		ro("caching_sha2_password_private_key_path", rsaPrivateFile),
		ro("caching_sha2_password_public_key_path", rsaPublicFile),
		{Name: "caching_sha2_password_auto_generate_rsa_keys", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(1), ReadOnly: true},
		ro("caching_sha2_password_digest_rounds", int64(5000)),
		// MySQL 8.4 replaced default_authentication_plugin with authentication_policy;
		// its first element ('*': caching_sha2_password) is the plugin of new accounts.
		{Name: "authentication_policy", Scope: sysvar.Global, Kind: sysvar.String, Default: "*,,"},
	}
}

// setupSecurity loads (or first generates) the certificate and the RSA key pair and
// builds the TLS configuration clients upgrade to.
func (n *Node) setupSecurity() error {
	dir := n.cfg.DataDir
	inDir := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	cert, key, ca := n.vars.String("ssl_cert"), n.vars.String("ssl_key"), n.vars.String("ssl_ca")
	if cert == "" && key == "" && n.vars.Int("auto_generate_certs") != 0 {
		if err := ensureCertificates(dir); err != nil {
			return err
		}
		if fileExists(inDir(serverCertFile)) && fileExists(inDir(serverKeyFile)) {
			cert, key = serverCertFile, serverKeyFile
			if ca == "" && fileExists(inDir(caCertFile)) {
				ca = caCertFile
			}
			for name, v := range map[string]string{"ssl_cert": cert, "ssl_key": key, "ssl_ca": ca} {
				if err := n.vars.Init(name, v); err != nil {
					return err
				}
			}
		}
	}
	sec := &mysqlproto.Security{}
	if cert != "" || key != "" {
		cfg, err := serverTLSConfig(inDir(cert), inDir(key), inDir(ca), n.vars.String("tls_version"))
		if err != nil {
			return err
		}
		sec.TLS = cfg
	} else {
		n.vars.Init("have_ssl", "DISABLED")
		n.vars.Init("have_openssl", "DISABLED")
	}
	private := inDir(n.vars.String("caching_sha2_password_private_key_path"))
	public := inDir(n.vars.String("caching_sha2_password_public_key_path"))
	if n.vars.Int("caching_sha2_password_auto_generate_rsa_keys") != 0 {
		if err := ensureRSAKeys(private, public); err != nil {
			return err
		}
	}
	if fileExists(private) {
		var err error
		if sec.RSAKey, sec.RSAPublicPEM, err = loadRSAKey(private); err != nil {
			return err
		}
	}
	n.sec = sec
	return nil
}

// security is what the protocol server reads at every connection.
func (n *Node) security() *mysqlproto.Security {
	s := *n.sec
	s.RequireSecureTransport = n.vars.Int("require_secure_transport") != 0
	return &s
}

// serverTLSConfig loads the server's certificate and, with a CA, verifies client
// certificates that are presented (REQUIRE X509 accounts need one).
func serverTLSConfig(cert, key, ca, versions string) (*tls.Config, error) {
	if cert == "" || key == "" {
		return nil, fmt.Errorf("server: ssl_cert and ssl_key must be set together")
	}
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		return nil, fmt.Errorf("server: load ssl_cert/ssl_key: %w", err)
	}
	minV, maxV, err := tlsVersions(versions)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: minV, MaxVersion: maxV}
	if ca != "" {
		b, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("server: ssl_ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("server: ssl_ca %s: no certificate", ca)
		}
		cfg.ClientCAs = pool
		cfg.ClientAuth = tls.VerifyClientCertIfGiven
	}
	return cfg, nil
}

// tlsVersions reads tls_version ("TLSv1.2,TLSv1.3"): the lowest and highest named.
// MySQL 8.4 supports only TLSv1.2 and TLSv1.3.
func tlsVersions(s string) (minV, maxV uint16, err error) {
	for _, v := range strings.Split(s, ",") {
		var id uint16
		switch strings.TrimSpace(v) {
		case "TLSv1.2":
			id = tls.VersionTLS12
		case "TLSv1.3":
			id = tls.VersionTLS13
		case "":
			continue
		default:
			return 0, 0, fmt.Errorf("server: tls_version: %q is not supported (TLSv1.2, TLSv1.3)", strings.TrimSpace(v))
		}
		if minV == 0 || id < minV {
			minV = id
		}
		maxV = max(maxV, id)
	}
	if minV == 0 {
		return 0, 0, fmt.Errorf("server: tls_version is empty")
	}
	return minV, maxV, nil
}
