package gtid

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSeq is the largest sequence number MySQL accepts (GNO_END-1).
const MaxSeq = 1<<63 - 1

// GTID identifies one transaction: the originating server and its sequence number.
type GTID struct {
	UUID UUID
	Seq  uint64
}

// IsZero reports whether g is unset (sequence numbers start at 1).
func (g GTID) IsZero() bool { return g.Seq == 0 }

// String prints "uuid:seq".
func (g GTID) String() string {
	b := make([]byte, 0, 36+1+20)
	b = g.UUID.appendText(b)
	b = append(b, ':')
	return string(strconv.AppendUint(b, g.Seq, 10))
}

// ParseGTID parses "uuid:seq".
func ParseGTID(s string) (GTID, error) {
	us, ns, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return GTID{}, fmt.Errorf("gtid: invalid gtid %q: missing ':'", s)
	}
	u, err := ParseUUID(us)
	if err != nil {
		return GTID{}, fmt.Errorf("gtid: invalid gtid %q: %w", s, err)
	}
	n, err := parseSeq(ns)
	if err != nil {
		return GTID{}, fmt.Errorf("gtid: invalid gtid %q: %w", s, err)
	}
	return GTID{UUID: u, Seq: n}, nil
}

func parseSeq(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty sequence number")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("invalid sequence number %q", s)
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 || n > MaxSeq {
		return 0, fmt.Errorf("sequence number %q out of range 1..%d", s, uint64(MaxSeq))
	}
	return n, nil
}
