package mysqlproto

import (
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"fmt"
)

// Authenticator supplies account credentials for mysql_native_password.
type Authenticator interface {
	// Lookup returns SHA1(SHA1(password)) for user connecting from host (nil/empty =
	// empty password); found=false means no such user or host not allowed →
	// ER_ACCESS_DENIED_ERROR 1045.
	Lookup(user, host string) (stage2 []byte, found bool)
}

// PasswordStage2 returns SHA1(SHA1(password)), the form Authenticator.Lookup returns
// (nil for the empty password).
func PasswordStage2(password string) []byte {
	if password == "" {
		return nil
	}
	s1 := sha1.Sum([]byte(password))
	s2 := sha1.Sum(s1[:])
	return s2[:]
}

// NativePasswordResponse computes the client's mysql_native_password response:
// SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))). It is exported for test clients.
func NativePasswordResponse(password string, scramble []byte) []byte {
	if password == "" {
		return nil
	}
	s1 := sha1.Sum([]byte(password))
	s2 := sha1.Sum(s1[:])
	h := sha1.New()
	h.Write(scramble)
	h.Write(s2[:])
	out := h.Sum(nil)
	for i := range out {
		out[i] ^= s1[i]
	}
	return out
}

// verifyNativePassword checks a client response against the stored stage2 hash
// without knowing the password: XOR recovers SHA1(pw), whose SHA1 must equal stage2.
func verifyNativePassword(response, scramble, stage2 []byte) bool {
	if len(stage2) == 0 {
		return len(response) == 0
	}
	if len(response) != sha1.Size || len(stage2) != sha1.Size {
		return false
	}
	h := sha1.New()
	h.Write(scramble)
	h.Write(stage2)
	stage1 := h.Sum(nil)
	for i := range stage1 {
		stage1[i] ^= response[i]
	}
	got := sha1.Sum(stage1)
	return subtle.ConstantTimeCompare(got[:], stage2) == 1
}

// newScramble returns 20 random bytes in 1..127 without '$': clients read part of
// the scramble as a NUL-terminated string, and MySQL keeps it printable-ish too.
func newScramble() ([]byte, error) {
	b := make([]byte, scrambleLen)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("generate scramble: %w", err)
	}
	for i, c := range b {
		c &= 0x7f
		if c == 0 || c == '$' {
			c++
		}
		b[i] = c
	}
	return b, nil
}
