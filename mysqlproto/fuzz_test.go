package mysqlproto

import (
	"bytes"
	"io"
	"math"
	"testing"
)

func frame(seq byte, payload []byte) []byte {
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// FuzzReadPacket feeds arbitrary bytes to the packet reader: errors, no panics,
// and never more than the maximum packet size buffered.
func FuzzReadPacket(f *testing.F) {
	f.Add(frame(0, []byte{ComQuery, 's', 'e', 'l'}))
	f.Add(frame(0, nil))
	f.Add(append(frame(0, []byte{ComPing}), frame(1, []byte{1, 2})...))
	f.Add([]byte{0xff, 0xff, 0xff, 0, 1, 2, 3})
	f.Add(append(frame(0, bytes.Repeat([]byte{1}, 300)), frame(0, nil)...))
	f.Add([]byte{5, 0, 0, 3, 1})
	const maxPacket = 1 << 12
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newConn(nil, bytes.NewReader(data), io.Discard, maxPacket)
		for range 64 {
			c.ResetSequence()
			p, err := c.ReadPacket()
			if err != nil {
				return
			}
			if len(p) > maxPacket {
				t.Fatalf("payload of %d bytes exceeds max %d", len(p), maxPacket)
			}
		}
	})
}

// FuzzDecodeExecute feeds arbitrary COM_STMT_EXECUTE payloads to the parameter
// decoder of a statement with n parameters (with and without bound types).
func FuzzDecodeExecute(f *testing.F) {
	types := []uint16{uint16(TypeLongLong), uint16(TypeVarString), uint16(TypeDouble)}
	vals := appendUint64(nil, 7)
	vals = appendLenEncString(vals, "abc")
	vals = appendUint64(vals, math.Float64bits(1.5))
	f.Add(uint8(3), false, executePayload(1, 0, []byte{0}, types, vals))
	f.Add(uint8(3), true, executePayload(1, 0, []byte{0}, nil, vals))
	f.Add(uint8(3), false, executePayload(1, 0, []byte{7}, types, nil))
	f.Add(uint8(1), false, executePayload(1, 0, []byte{0}, []uint16{uint16(TypeDatetime)}, []byte{11, 0xe8, 7, 1, 2, 3, 4, 5, 1, 0, 0, 0}))
	f.Add(uint8(1), false, executePayload(1, 0, []byte{0}, []uint16{uint16(TypeTime)}, []byte{12, 1, 1, 0, 0, 0, 3, 4, 5, 1, 0, 0, 0}))
	f.Add(uint8(1), false, executePayload(1, 0, []byte{0}, []uint16{uint16(TypeBlob)}, []byte{0xfe, 1, 2, 3, 4, 5, 6, 7, 8}))
	f.Add(uint8(0), false, []byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, n uint8, preBound bool, data []byte) {
		ps := &preparedStmt{numParams: int(n)}
		if preBound {
			ps.paramTypes = make([]uint16, n)
			for i := range ps.paramTypes {
				ps.paramTypes[i] = types[i%len(types)]
			}
			ps.longData = map[int][]byte{0: []byte("long")}
		}
		_, args, err := ps.decodeExecute(data)
		if err == nil && len(args) != int(n) && n != 0 {
			t.Fatalf("%d args for %d params", len(args), n)
		}
	})
}
