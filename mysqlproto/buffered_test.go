package mysqlproto

import (
	"bytes"
	"testing"
)

func framed(seq byte, payload []byte) []byte {
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// TestPacketBuffered: only a whole packet in the read buffer counts; the start of
// one (its header, or part of its payload) means the next read waits.
func TestPacketBuffered(t *testing.T) {
	p1, p2 := framed(0, []byte("first")), framed(1, []byte("second packet"))
	cases := []struct {
		name   string
		stream []byte
		after  bool // PacketBuffered after reading the first packet
	}{
		{"two whole packets", append(append([]byte{}, p1...), p2...), true},
		{"a packet and a header", append(append([]byte{}, p1...), p2[:4]...), false},
		{"a packet and part of a header", append(append([]byte{}, p1...), p2[:2]...), false},
		{"a packet and part of a payload", append(append([]byte{}, p1...), p2[:len(p2)-1]...), false},
		{"one packet", p1, false},
		{"a packet and an empty one", append(append([]byte{}, p1...), framed(1, nil)...), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newConn(nil, bytes.NewReader(tc.stream), &bytes.Buffer{}, 0)
			if c.PacketBuffered() {
				t.Fatal("PacketBuffered before anything was read")
			}
			got, err := c.ReadPacket()
			if err != nil || string(got) != "first" {
				t.Fatalf("ReadPacket = %q, %v", got, err)
			}
			if b := c.PacketBuffered(); b != tc.after {
				t.Fatalf("PacketBuffered = %v, want %v", b, tc.after)
			}
			if tc.after {
				if _, err := c.ReadPacket(); err != nil {
					t.Fatalf("the buffered packet did not read: %v", err)
				}
			}
		})
	}
}
