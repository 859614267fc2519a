package mysqlproto

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSHA256CryptMatchesOpenSSL checks the digest against openssl's "$5$" crypt,
// which is the same algorithm with salts of at most 16 bytes and 5000 rounds.
func TestSHA256CryptMatchesOpenSSL(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed")
	}
	for _, c := range []struct{ pw, salt string }{
		{"secret", "saltsalt"},
		{"p", "x"},
		{strings.Repeat("long password ", 5), "0123456789abcdef"},
		{"exactly thirty-two bytes long!!!", "AbCd"},
	} {
		out, err := exec.Command("openssl", "passwd", "-5", "-salt", c.salt, c.pw).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSpace(string(out))
		want = want[strings.LastIndexByte(want, '$')+1:]
		if got := sha256Crypt([]byte(c.pw), []byte(c.salt), 5000); got != want {
			t.Errorf("sha256Crypt(%q, %q) = %s, openssl says %s", c.pw, c.salt, got, want)
		}
	}
}

func TestCachingSHA2AuthString(t *testing.T) {
	s, err := CachingSHA2AuthString("pw")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, "$A$005$") || len(s) != 70 {
		t.Fatalf("authentication_string %q: want $A$005$ + 20-byte salt + 43-char digest", s)
	}
	if !checkSHA2Password([]byte("pw"), s) || checkSHA2Password([]byte("pW"), s) {
		t.Fatal("password check disagrees with the stored digest")
	}
	if !ValidCachingSHA2AuthString(s) || ValidCachingSHA2AuthString("*ABC") {
		t.Fatal("ValidCachingSHA2AuthString is wrong")
	}
}
