package mysqlproto

import (
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"sync"
)

// caching_sha2_password's exchange (server side). The client first answers the
// scramble with SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble). When the
// server holds SHA256(SHA256(pw)) for the account in its cache, it checks that
// answer ("fast authentication", AuthMoreData 0x03). Otherwise it asks for the
// password itself (0x04, "full authentication"): in clear over TLS, or without TLS
// encrypted with the server's RSA public key, which the client may request (0x02).
// A successful full authentication fills the cache; the cache entry remembers the
// authentication_string it was made for, so a changed password invalidates it.

// AuthMoreData payloads.
const (
	authMoreData          byte = 0x01
	sha2RequestPublicKey  byte = 0x02
	sha2FastAuthSuccess   byte = 0x03
	sha2PerformFullAuth   byte = 0x04
	sha2ScrambleResultLen      = sha256.Size
)

// SSLRequirement is an account's REQUIRE clause.
type SSLRequirement int

const (
	RequireNone SSLRequirement = iota // REQUIRE NONE
	RequireSSL                        // REQUIRE SSL: any encrypted connection
	RequireX509                       // REQUIRE X509: a client certificate the CA verified
)

// sha2Cache holds SHA256(SHA256(password)) per account after a full authentication.
type sha2Cache struct {
	mu      sync.Mutex
	entries map[string]sha2Entry
}

type sha2Entry struct {
	authString string
	digest     [sha256.Size]byte
}

func (c *sha2Cache) get(account, authString string) ([sha256.Size]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[account]
	if !ok || e.authString != authString {
		return [sha256.Size]byte{}, false
	}
	return e.digest, true
}

func (c *sha2Cache) put(account, authString string, password []byte) {
	s1 := sha256.Sum256(password)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]sha2Entry{}
	}
	c.entries[account] = sha2Entry{authString: authString, digest: sha256.Sum256(s1[:])}
}

// CachingSHA2Response computes the client's first caching_sha2_password answer to
// scramble (nil for the empty password). It is exported for test clients.
func CachingSHA2Response(password string, scramble []byte) []byte {
	if password == "" {
		return nil
	}
	s1 := sha256.Sum256([]byte(password))
	s2 := sha256.Sum256(s1[:])
	h := sha256.New()
	h.Write(s2[:])
	h.Write(scramble)
	out := h.Sum(nil)
	for i := range out {
		out[i] ^= s1[i]
	}
	return out
}

// fastSHA2Check verifies a scramble answer against the cached double digest.
func fastSHA2Check(response, scramble []byte, digest [sha256.Size]byte) bool {
	if len(response) != sha256.Size {
		return false
	}
	h := sha256.New()
	h.Write(digest[:])
	h.Write(scramble)
	s1 := h.Sum(nil)
	for i := range s1 {
		s1[i] ^= response[i]
	}
	got := sha256.Sum256(s1)
	return subtle.ConstantTimeCompare(got[:], digest[:]) == 1
}

// xorScramble XORs b with the scramble repeated, as the RSA exchange does both ways.
func xorScramble(b, scramble []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[i] = b[i] ^ scramble[i%len(scramble)]
	}
	return out
}

// authSHA2 runs caching_sha2_password for acct after the client's first answer
// resp; it reports whether the login succeeded (errors are I/O failures).
func (s *Server) authSHA2(c *Conn, acct Account, resp, scramble []byte, sec Security) (bool, error) {
	if acct.AuthString == "" {
		// No password: the client sends nothing (some send one NUL byte).
		return len(resp) == 0 || len(resp) == 1 && resp[0] == 0, nil
	}
	if len(resp) == 0 {
		return false, nil
	}
	if len(resp) == sha2ScrambleResultLen {
		if digest, ok := s.sha2.get(acct.Name, acct.AuthString); ok {
			if !fastSHA2Check(resp, scramble, digest) {
				return false, nil
			}
			return true, c.writeAuthMoreData([]byte{sha2FastAuthSuccess})
		}
	}
	if err := c.writeAuthMoreData([]byte{sha2PerformFullAuth}); err != nil {
		return false, err
	}
	p, err := c.ReadPacket()
	if err != nil {
		return false, err
	}
	var password []byte
	switch {
	case c.Secure():
		password = p
	case sec.RSAKey == nil:
		// No key to offer: a password must not cross a plain link in clear.
		return false, nil
	default:
		if len(p) == 1 && p[0] == sha2RequestPublicKey {
			if err := c.writeAuthMoreData(sec.RSAPublicPEM); err != nil {
				return false, err
			}
			if p, err = c.ReadPacket(); err != nil {
				return false, err
			}
		}
		plain, err := rsa.DecryptOAEP(sha1.New(), nil, sec.RSAKey, p, nil)
		if err != nil {
			return false, nil
		}
		password = xorScramble(plain, scramble)
	}
	if n := len(password); n > 0 && password[n-1] == 0 {
		password = password[:n-1]
	}
	if !checkSHA2Password(password, acct.AuthString) {
		return false, nil
	}
	s.sha2.put(acct.Name, acct.AuthString, password)
	return true, nil
}

// writeAuthMoreData sends an AuthMoreData packet and flushes.
func (c *Conn) writeAuthMoreData(data []byte) error {
	b := make([]byte, 0, 1+len(data))
	b = append(b, authMoreData)
	b = append(b, data...)
	if err := c.WritePacket(b); err != nil {
		return fmt.Errorf("auth more data: %w", err)
	}
	return c.Flush()
}
