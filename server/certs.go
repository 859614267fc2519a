package server

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Like mysqld (auto_generate_certs, caching_sha2_password_auto_generate_rsa_keys),
// a node whose options name no certificate makes its own at first start, in the
// data directory and under MySQL's file names: a self-signed CA (ca.pem,
// ca-key.pem), a server certificate it signed (server-cert.pem, server-key.pem), a
// client certificate for REQUIRE X509 accounts (client-cert.pem, client-key.pem),
// and caching_sha2_password's RSA pair (private_key.pem, public_key.pem). Private
// keys are written with mode 0600. Files already there are kept, so a restart
// serves the same certificate.

// Auto-generated file names.
const (
	caCertFile     = "ca.pem"
	caKeyFile      = "ca-key.pem"
	serverCertFile = "server-cert.pem"
	serverKeyFile  = "server-key.pem"
	clientCertFile = "client-cert.pem"
	clientKeyFile  = "client-key.pem"
	rsaPrivateFile = "private_key.pem"
	rsaPublicFile  = "public_key.pem"
)

// certValidity is how long generated certificates last (MySQL: ten years).
const certValidity = 10 * 365 * 24 * time.Hour

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// ensureCertificates creates the CA, server and client certificates in dir unless
// any of the CA or server files exists (then the operator's files are used as
// they are, as mysqld does).
func ensureCertificates(dir string) error {
	for _, f := range []string{caCertFile, caKeyFile, serverCertFile, serverKeyFile} {
		if fileExists(filepath.Join(dir, f)) {
			return nil
		}
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("server: generate CA key: %w", err)
	}
	now := time.Now().Add(-time.Hour)
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "binlite_" + Version + "_Auto_Generated_CA_Certificate"},
		NotBefore:             now,
		NotAfter:              now.Add(certValidity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return fmt.Errorf("server: create CA certificate: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return fmt.Errorf("server: parse CA certificate: %w", err)
	}
	host, _ := os.Hostname()
	server := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "binlite_" + Version + "_Auto_Generated_Server_Certificate"},
		NotBefore:    now,
		NotAfter:     now.Add(certValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		// Names a replica with SOURCE_SSL_VERIFY_SERVER_CERT=1 on this machine can check.
		DNSNames:    []string{"localhost", host},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	client := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "binlite_" + Version + "_Auto_Generated_Client_Certificate"},
		NotBefore:    now,
		NotAfter:     now.Add(certValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if err := writeKey(filepath.Join(dir, caKeyFile), caKey); err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, caCertFile), "CERTIFICATE", caDER, 0o644); err != nil {
		return err
	}
	for _, leaf := range []struct {
		tmpl      *x509.Certificate
		cert, key string
	}{{client, clientCertFile, clientKeyFile}, {server, serverCertFile, serverKeyFile}} {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return fmt.Errorf("server: generate key: %w", err)
		}
		der, err := x509.CreateCertificate(rand.Reader, leaf.tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return fmt.Errorf("server: create certificate: %w", err)
		}
		if err := writeKey(filepath.Join(dir, leaf.key), key); err != nil {
			return err
		}
		if err := writePEM(filepath.Join(dir, leaf.cert), "CERTIFICATE", der, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ensureRSAKeys creates caching_sha2_password's key pair unless the private key
// exists.
func ensureRSAKeys(private, public string) error {
	if fileExists(private) {
		return nil
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return fmt.Errorf("server: generate RSA key pair: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return fmt.Errorf("server: encode RSA public key: %w", err)
	}
	if err := writePEM(public, "PUBLIC KEY", pub, 0o644); err != nil {
		return err
	}
	return writeKey(private, key)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// writeKey writes a private key as PKCS#8 PEM, readable by its owner only.
func writeKey(path string, key crypto.PrivateKey) error {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("server: encode %s: %w", path, err)
	}
	return writePEM(path, "PRIVATE KEY", der, 0o600)
}

// writePEM writes one PEM block; the file is created with perm and fsync'd (it is
// written once and must not be found half-written after a crash).
func writePEM(path, typ string, der []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	err = pem.Encode(f, &pem.Block{Type: typ, Bytes: der})
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("server: write %s: %w", path, err)
	}
	return nil
}

// loadRSAKey reads caching_sha2_password's private key and its public half as PEM.
func loadRSAKey(private string) (*rsa.PrivateKey, []byte, error) {
	b, err := os.ReadFile(private)
	if err != nil {
		return nil, nil, fmt.Errorf("server: %w", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, nil, fmt.Errorf("server: %s: no PEM block", private)
	}
	var key any
	switch blk.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(blk.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(blk.Bytes)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("server: %s: %w", private, err)
	}
	rk, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, nil, errors.New("server: " + private + " is not an RSA key")
	}
	pub, err := x509.MarshalPKIXPublicKey(&rk.PublicKey)
	if err != nil {
		return nil, nil, fmt.Errorf("server: %s: %w", private, err)
	}
	return rk, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), nil
}
