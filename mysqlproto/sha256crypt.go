package mysqlproto

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"strconv"
	"strings"
)

// caching_sha2_password stores "$A$" + 3 hex digits of rounds/1000 + "$" + a 20-byte
// salt + the 43-character SHA256-crypt digest of the password (Drepper's algorithm,
// the glibc crypt "$5$" scheme, with MySQL's longer salt). 5000 rounds is MySQL's
// default (caching_sha2_password_digest_rounds).
const (
	sha2Prefix       = "$A$"
	sha2SaltLen      = 20
	sha2DigestLen    = 43
	sha2DefaultIters = 5000
)

// cryptB64 is crypt(3)'s base-64 alphabet.
const cryptB64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// CachingSHA2AuthString returns the authentication_string MySQL stores for password
// under caching_sha2_password ("" for the empty password), with a fresh salt.
func CachingSHA2AuthString(password string) (string, error) {
	if password == "" {
		return "", nil
	}
	salt := make([]byte, sha2SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("caching_sha2_password salt: %w", err)
	}
	// MySQL's salts are 7-bit and free of NUL and '$', which would end the field.
	for i, c := range salt {
		c &= 0x7f
		if c == 0 || c == '$' {
			c++
		}
		salt[i] = c
	}
	digest := sha256Crypt([]byte(password), salt, sha2DefaultIters)
	return fmt.Sprintf("%s%03X$%s%s", sha2Prefix, sha2DefaultIters/1000, salt, digest), nil
}

// ValidCachingSHA2AuthString reports whether s has the stored form (IDENTIFIED
// WITH caching_sha2_password AS '...').
func ValidCachingSHA2AuthString(s string) bool {
	_, _, _, ok := parseSHA2AuthString(s)
	return ok || s == ""
}

func parseSHA2AuthString(s string) (iters int, salt []byte, digest string, ok bool) {
	if !strings.HasPrefix(s, sha2Prefix) || len(s) != len(sha2Prefix)+4+sha2SaltLen+sha2DigestLen {
		return 0, nil, "", false
	}
	rest := s[len(sha2Prefix):]
	n, err := strconv.ParseUint(rest[:3], 16, 16)
	if err != nil || rest[3] != '$' || n == 0 {
		return 0, nil, "", false
	}
	rest = rest[4:]
	return int(n) * 1000, []byte(rest[:sha2SaltLen]), rest[sha2SaltLen:], true
}

// checkSHA2Password reports whether password matches a stored caching_sha2_password
// authentication_string.
func checkSHA2Password(password []byte, authString string) bool {
	if authString == "" {
		return len(password) == 0
	}
	iters, salt, digest, ok := parseSHA2AuthString(authString)
	if !ok {
		return false
	}
	got := sha256Crypt(password, salt, iters)
	return subtle.ConstantTimeCompare([]byte(got), []byte(digest)) == 1
}

// sha256Crypt is the SHA-256 variant of Drepper's SHA-crypt ("Unix crypt using
// SHA-256 and SHA-512", steps numbered as there), returning the 43-character digest.
func sha256Crypt(key, salt []byte, rounds int) string {
	// Digest B: key, salt, key.
	b := sha256.New()
	b.Write(key)
	b.Write(salt)
	b.Write(key)
	sumB := b.Sum(nil)

	// Digest A: key, salt, then B for each 32 bytes of the key and its remainder,
	// then B or the key for each bit of the key's length.
	a := sha256.New()
	a.Write(key)
	a.Write(salt)
	n := len(key)
	for ; n > 32; n -= 32 {
		a.Write(sumB)
	}
	a.Write(sumB[:n])
	for n = len(key); n > 0; n >>= 1 {
		if n&1 != 0 {
			a.Write(sumB)
		} else {
			a.Write(key)
		}
	}
	sumA := a.Sum(nil)

	// P: the digest of the key repeated once per key byte, stretched to the key's length.
	dp := sha256.New()
	for range key {
		dp.Write(key)
	}
	p := stretch(dp.Sum(nil), len(key))

	// S: the digest of the salt repeated 16+A[0] times, stretched to the salt's length.
	ds := sha256.New()
	for i := 0; i < 16+int(sumA[0]); i++ {
		ds.Write(salt)
	}
	s := stretch(ds.Sum(nil), len(salt))

	c := sumA
	h := sha256.New()
	for i := 0; i < rounds; i++ {
		h.Reset()
		if i&1 != 0 {
			h.Write(p)
		} else {
			h.Write(c)
		}
		if i%3 != 0 {
			h.Write(s)
		}
		if i%7 != 0 {
			h.Write(p)
		}
		if i&1 != 0 {
			h.Write(c)
		} else {
			h.Write(p)
		}
		c = h.Sum(c[:0])
	}

	// The digest's bytes go out in crypt's permuted order, 24 bits per 4 characters.
	var out strings.Builder
	out.Grow(sha2DigestLen)
	put := func(b2, b1, b0 byte, chars int) {
		w := uint32(b2)<<16 | uint32(b1)<<8 | uint32(b0)
		for ; chars > 0; chars-- {
			out.WriteByte(cryptB64[w&0x3f])
			w >>= 6
		}
	}
	for i := 0; i < 10; i++ {
		// Groups (0,10,20), (21,1,11), (12,22,2), ...: each index steps by 10 mod 30.
		i0, i1, i2 := (i*21)%30, (i*21+10)%30, (i*21+20)%30
		put(c[i0], c[i1], c[i2], 4)
	}
	put(0, c[31], c[30], 3)
	return out.String()
}

// stretch repeats sum until it is n bytes long.
func stretch(sum []byte, n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		out = append(out, sum[:min(len(sum), n-len(out))]...)
	}
	return out
}
