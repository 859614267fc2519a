package gtid

import (
	"encoding/binary"
	"errors"
)

// AppendBinary encodes the set the way MySQL's COM_BINLOG_DUMP_GTID carries it:
// n_sids u64, then per uuid: 16 bytes, n_intervals u64, and intervals as start u64
// and end u64 (exclusive), little endian.
func (s Set) AppendBinary(b []byte) []byte {
	uuids := s.UUIDs()
	b = binary.LittleEndian.AppendUint64(b, uint64(len(uuids)))
	for _, u := range uuids {
		b = append(b, u[:]...)
		ivs := s.Intervals(u)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(ivs)))
		for _, iv := range ivs {
			b = binary.LittleEndian.AppendUint64(b, iv.Lo)
			b = binary.LittleEndian.AppendUint64(b, iv.Hi+1)
		}
	}
	return b
}

var errBinarySet = errors.New("gtid: malformed binary GTID set")

// DecodeBinary decodes AppendBinary's encoding, never trusting counts beyond the
// bytes present.
func DecodeBinary(b []byte) (Set, error) {
	var s Set
	u64 := func() (uint64, bool) {
		if len(b) < 8 {
			return 0, false
		}
		v := binary.LittleEndian.Uint64(b)
		b = b[8:]
		return v, true
	}
	n, ok := u64()
	if !ok || n > uint64(len(b))/24 {
		return s, errBinarySet
	}
	for i := uint64(0); i < n; i++ {
		if len(b) < 16 {
			return s, errBinarySet
		}
		var u UUID
		copy(u[:], b[:16])
		b = b[16:]
		m, ok := u64()
		if !ok || m > uint64(len(b))/16 {
			return s, errBinarySet
		}
		for j := uint64(0); j < m; j++ {
			lo, ok1 := u64()
			hi, ok2 := u64()
			if !ok1 || !ok2 || lo == 0 || hi <= lo || hi-1 > MaxSeq {
				return s, errBinarySet
			}
			s.AddRange(u, lo, hi-1)
		}
	}
	if len(b) != 0 {
		return s, errBinarySet
	}
	return s, nil
}
