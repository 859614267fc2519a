package replica

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// TLSSettings are a channel's SOURCE_SSL* options. As in MySQL: SOURCE_SSL=1
// encrypts the link; a SOURCE_SSL_CA makes the receiver verify the source's
// certificate chain; SOURCE_SSL_VERIFY_SERVER_CERT=1 also checks that the
// certificate names SOURCE_HOST. GET_SOURCE_PUBLIC_KEY=1 lets a
// caching_sha2_password login without TLS fetch the source's RSA key.
type TLSSettings struct {
	Enabled      bool   `json:"ssl,omitempty"`
	CA           string `json:"ssl_ca,omitempty"`
	Cert         string `json:"ssl_cert,omitempty"`
	Key          string `json:"ssl_key,omitempty"`
	VerifyServer bool   `json:"ssl_verify_server_cert,omitempty"`
	Version      string `json:"tls_version,omitempty"`
	GetPublicKey bool   `json:"get_source_public_key,omitempty"`
}

// Client-side error of a TLS set-up that failed (CR_SSL_CONNECTION_ERROR).
const errSSLConnection uint16 = 2026

func (t *TLSSettings) apply(k string, v any) error {
	var err error
	flag := func() bool {
		var n int
		n, err = integer(k, v)
		return n != 0
	}
	switch k {
	case "SOURCE_SSL":
		t.Enabled = flag()
	case "SOURCE_SSL_CA":
		t.CA = str(v)
	case "SOURCE_SSL_CERT":
		t.Cert = str(v)
	case "SOURCE_SSL_KEY":
		t.Key = str(v)
	case "SOURCE_SSL_VERIFY_SERVER_CERT":
		t.VerifyServer = flag()
	case "SOURCE_TLS_VERSION":
		t.Version = str(v)
		if _, _, verr := tlsVersionRange(t.Version); verr != nil {
			return verr
		}
	case "GET_SOURCE_PUBLIC_KEY":
		t.GetPublicKey = flag()
	default:
		// SOURCE_SSL_CIPHER, _CAPATH, _CRL, _CRLPATH, SOURCE_TLS_CIPHERSUITES,
		// SOURCE_PUBLIC_KEY_PATH: an empty value is the default.
		if str(v) != "" {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CHANGE REPLICATION SOURCE option %s'", k)
		}
	}
	return err
}

// tlsVersionRange reads a TLS version list ("TLSv1.2,TLSv1.3"; empty: both).
func tlsVersionRange(s string) (minV, maxV uint16, err error) {
	if strings.TrimSpace(s) == "" {
		return tls.VersionTLS12, tls.VersionTLS13, nil
	}
	for _, v := range strings.Split(s, ",") {
		var id uint16
		switch strings.TrimSpace(v) {
		case "TLSv1.2":
			id = tls.VersionTLS12
		case "TLSv1.3":
			id = tls.VersionTLS13
		default:
			return 0, 0, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to CHANGE REPLICATION SOURCE: SOURCE_TLS_VERSION '%s'", s)
		}
		if minV == 0 || id < minV {
			minV = id
		}
		maxV = max(maxV, id)
	}
	return minV, maxV, nil
}

// config builds the receiver's TLS configuration (nil when SOURCE_SSL=0).
func (t TLSSettings) config(host string) (*tls.Config, error) {
	if !t.Enabled {
		return nil, nil
	}
	minV, maxV, err := tlsVersionRange(t.Version)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{ServerName: host, MinVersion: minV, MaxVersion: maxV}
	if t.CA != "" {
		b, err := os.ReadFile(t.CA)
		if err != nil {
			return nil, mysqlerr.New(errSSLConnection, "SSL connection error: SOURCE_SSL_CA: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(b) {
			return nil, mysqlerr.New(errSSLConnection, "SSL connection error: SOURCE_SSL_CA %s holds no certificate", t.CA)
		}
		cfg.RootCAs = pool
	}
	if t.Cert != "" || t.Key != "" {
		pair, err := tls.LoadX509KeyPair(t.Cert, t.Key)
		if err != nil {
			return nil, mysqlerr.New(errSSLConnection, "SSL connection error: SOURCE_SSL_CERT/SOURCE_SSL_KEY: %v", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	switch {
	case t.VerifyServer:
		// Chain and host name, Go's default verification.
	case cfg.RootCAs != nil:
		// MySQL's VERIFY_CA: the chain, not the name.
		pool := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			return verifyChain(raw, pool)
		}
	default:
		// SOURCE_SSL=1 alone encrypts without checking who answers, as in MySQL.
		cfg.InsecureSkipVerify = true
	}
	return cfg, nil
}

func verifyChain(raw [][]byte, roots *x509.CertPool) error {
	if len(raw) == 0 {
		return fmt.Errorf("source presented no certificate")
	}
	certs := make([]*x509.Certificate, len(raw))
	for i, b := range raw {
		c, err := x509.ParseCertificate(b)
		if err != nil {
			return fmt.Errorf("source certificate: %w", err)
		}
		certs[i] = c
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
	return err
}

// allowed is Source_SSL_Allowed.
func (t TLSSettings) allowed() string {
	if t.Enabled {
		return "Yes"
	}
	return "No"
}
