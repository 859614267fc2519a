package gtid

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// UUID is a server_uuid: 16 raw bytes.
type UUID [16]byte

// NewUUID returns a random (version 4) UUID.
func NewUUID() UUID {
	return UUID(uuid.New())
}

// ParseUUID parses the 36-character 8-4-4-4-12 form (any case) or 32 bare hex
// digits; surrounding whitespace is ignored.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	t := strings.TrimSpace(s)
	var h string
	switch len(t) {
	case 36:
		if t[8] != '-' || t[13] != '-' || t[18] != '-' || t[23] != '-' {
			return u, fmt.Errorf("gtid: invalid uuid %q", s)
		}
		h = t[0:8] + t[9:13] + t[14:18] + t[19:23] + t[24:36]
	case 32:
		h = t
	default:
		return u, fmt.Errorf("gtid: invalid uuid %q", s)
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return UUID{}, fmt.Errorf("gtid: invalid uuid %q: %w", s, err)
	}
	return u, nil
}

// String prints the UUID in lowercase 8-4-4-4-12 form, as MySQL prints server_uuid.
func (u UUID) String() string {
	var b [36]byte
	u.appendText(b[:0])
	return string(b[:])
}

func (u UUID) appendText(b []byte) []byte {
	const digits = "0123456789abcdef"
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, digits[c>>4], digits[c&0xf])
	}
	return b
}

// IsZero reports whether u is the all-zero UUID.
func (u UUID) IsZero() bool { return u == UUID{} }
