package mysqlproto

import (
	"bufio"
	"context"
	"crypto/rsa"
	"crypto/tls"
	"fmt"
	"net"
)

// Security is the transport and authentication material in force: the server reads
// it through Config.Security at every connection, so a changed setting (SET GLOBAL
// require_secure_transport) applies from the next login.
type Security struct {
	// TLS, when set, makes the greeting advertise CLIENT_SSL and lets a client
	// upgrade with an SSLRequest packet. Set ClientCAs and ClientAuth
	// (VerifyClientCertIfGiven) for accounts that REQUIRE X509.
	TLS *tls.Config
	// RequireSecureTransport refuses logins over plain TCP with
	// ER_SECURE_TRANSPORT_REQUIRED (3159), as MySQL's require_secure_transport.
	RequireSecureTransport bool
	// RSAKey is caching_sha2_password's key pair: a client without TLS that must send
	// its password (full authentication) asks for the public key (RSAPublicPEM) and
	// sends the password encrypted with it. Without a key such clients are refused.
	RSAKey       *rsa.PrivateKey
	RSAPublicPEM []byte
}

func (s *Server) security() Security {
	if s.cfg.Security == nil {
		return Security{}
	}
	if sec := s.cfg.Security(); sec != nil {
		return *sec
	}
	return Security{}
}

// bufferedConn reads through the reader that already holds bytes of the peer's
// TLS handshake (a client sends its ClientHello right behind the SSLRequest).
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }

// TLSState returns the connection's TLS state; nil over plain TCP.
func (c *Conn) TLSState() *tls.ConnectionState {
	tc, ok := c.netConn.(*tls.Conn)
	if !ok {
		return nil
	}
	st := tc.ConnectionState()
	return &st
}

// Secure reports whether the connection is encrypted.
func (c *Conn) Secure() bool {
	_, ok := c.netConn.(*tls.Conn)
	return ok
}

// startTLS turns the connection into a TLS one; server says which side it is. The
// write buffer must be empty (flushed): writes go to netConn, which becomes the TLS
// connection.
func (c *Conn) startTLS(ctx context.Context, cfg *tls.Config, server bool) error {
	raw := bufferedConn{Conn: c.netConn, r: c.r}
	var tc *tls.Conn
	if server {
		tc = tls.Server(raw, cfg)
	} else {
		tc = tls.Client(raw, cfg)
	}
	if err := tc.HandshakeContext(ctx); err != nil {
		return fmt.Errorf("TLS handshake: %w", err)
	}
	c.netConn = tc
	c.r = bufio.NewReaderSize(tc, 16<<10)
	return nil
}

// TLSVersionName is MySQL's name of a TLS version (Ssl_version).
func TLSVersionName(v uint16) string {
	switch v {
	case tls.VersionTLS10:
		return "TLSv1"
	case tls.VersionTLS11:
		return "TLSv1.1"
	case tls.VersionTLS12:
		return "TLSv1.2"
	case tls.VersionTLS13:
		return "TLSv1.3"
	}
	return ""
}

// opensslCipherNames are OpenSSL's names of the TLS 1.2 suites Go offers, which is
// how MySQL reports Ssl_cipher. TLS 1.3 suites have the same name in both.
var opensslCipherNames = map[uint16]string{
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256:         "ECDHE-RSA-AES128-GCM-SHA256",
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384:         "ECDHE-RSA-AES256-GCM-SHA384",
	tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256:   "ECDHE-RSA-CHACHA20-POLY1305",
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256:       "ECDHE-ECDSA-AES128-GCM-SHA256",
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384:       "ECDHE-ECDSA-AES256-GCM-SHA384",
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: "ECDHE-ECDSA-CHACHA20-POLY1305",
	tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA:            "ECDHE-RSA-AES128-SHA",
	tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA:            "ECDHE-RSA-AES256-SHA",
	tls.TLS_RSA_WITH_AES_128_GCM_SHA256:               "AES128-GCM-SHA256",
	tls.TLS_RSA_WITH_AES_256_GCM_SHA384:               "AES256-GCM-SHA384",
}

// TLSCipherName is MySQL's (OpenSSL's) name of a cipher suite (Ssl_cipher).
func TLSCipherName(id uint16) string {
	if n, ok := opensslCipherNames[id]; ok {
		return n
	}
	return tls.CipherSuiteName(id)
}
