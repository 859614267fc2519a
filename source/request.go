package source

import (
	"encoding/binary"
	"time"

	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// DumpRequest is a parsed COM_BINLOG_DUMP or COM_BINLOG_DUMP_GTID.
type DumpRequest struct {
	ServerID  uint32
	UseGTID   bool
	GTIDs     gtid.Set // the replica's executed ∪ received (GTID mode)
	File      string
	Pos       int64
	NonBlock  bool          // BINLOG_DUMP_NON_BLOCK: stop at the end instead of waiting
	Heartbeat time.Duration // from @source_heartbeat_period (0 = default)
	SemiSync  bool          // the replica set @rpl_semi_sync_replica = 1
	ConnID    uint32
}

const flagNonBlock = 0x01

func malformed(what string) error {
	return mysqlerr.New(mysqlerr.ErMalformedPacket, "Malformed communication packet: %s", what)
}

// ParseDumpGTID decodes COM_BINLOG_DUMP_GTID's payload (after the command byte):
// flags u16, server_id u32, name_len u32, name, pos u64, data_len u32, GTID set.
func ParseDumpGTID(p []byte) (DumpRequest, error) {
	var r DumpRequest
	if len(p) < 18 {
		return r, malformed("COM_BINLOG_DUMP_GTID too short")
	}
	flags := binary.LittleEndian.Uint16(p)
	r.NonBlock = flags&flagNonBlock != 0
	r.ServerID = binary.LittleEndian.Uint32(p[2:])
	n := binary.LittleEndian.Uint32(p[6:])
	p = p[10:]
	if uint64(n) > uint64(len(p)) {
		return r, malformed("COM_BINLOG_DUMP_GTID file name")
	}
	r.File, p = string(p[:n]), p[n:]
	if len(p) < 12 {
		return r, malformed("COM_BINLOG_DUMP_GTID position")
	}
	r.Pos = int64(binary.LittleEndian.Uint64(p))
	size := binary.LittleEndian.Uint32(p[8:])
	p = p[12:]
	if uint64(size) != uint64(len(p)) {
		return r, malformed("COM_BINLOG_DUMP_GTID set length")
	}
	set, err := gtid.DecodeBinary(p)
	if err != nil {
		return r, malformed("COM_BINLOG_DUMP_GTID set")
	}
	r.GTIDs, r.UseGTID = set, true
	return r, nil
}

// AppendDumpGTID encodes a COM_BINLOG_DUMP_GTID payload (the replica's side).
func AppendDumpGTID(b []byte, serverID uint32, set gtid.Set) []byte {
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint32(b, serverID)
	b = binary.LittleEndian.AppendUint32(b, 0) // no file name: auto-positioning
	b = binary.LittleEndian.AppendUint64(b, 4)
	data := set.AppendBinary(nil)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// ParseDump decodes COM_BINLOG_DUMP: pos u32, flags u16, server_id u32, file name.
func ParseDump(p []byte) (DumpRequest, error) {
	var r DumpRequest
	if len(p) < 10 {
		return r, malformed("COM_BINLOG_DUMP too short")
	}
	r.Pos = int64(binary.LittleEndian.Uint32(p))
	r.NonBlock = binary.LittleEndian.Uint16(p[4:])&flagNonBlock != 0
	r.ServerID = binary.LittleEndian.Uint32(p[6:])
	r.File = string(p[10:])
	return r, nil
}

// AppendDump encodes a COM_BINLOG_DUMP payload.
func AppendDump(b []byte, serverID uint32, file string, pos int64) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(pos))
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint32(b, serverID)
	return append(b, file...)
}

// Registration is a replica announced by COM_REGISTER_SLAVE.
type Registration struct {
	ServerID uint32
	Host     string
	User     string
	Port     uint16
	SourceID uint32
	UUID     string
	Since    time.Time
}

// ParseRegister decodes COM_REGISTER_SLAVE: server_id u32, host/user/password as
// one-byte-length strings, port u16, rank u32, source id u32.
func ParseRegister(p []byte) (Registration, error) {
	var r Registration
	if len(p) < 4 {
		return r, malformed("COM_REGISTER_SLAVE too short")
	}
	r.ServerID = binary.LittleEndian.Uint32(p)
	p = p[4:]
	str := func() (string, bool) {
		if len(p) < 1 || int(p[0]) > len(p)-1 {
			return "", false
		}
		s := string(p[1 : 1+p[0]])
		p = p[1+p[0]:]
		return s, true
	}
	var ok bool
	if r.Host, ok = str(); !ok {
		return r, malformed("COM_REGISTER_SLAVE host")
	}
	if r.User, ok = str(); !ok {
		return r, malformed("COM_REGISTER_SLAVE user")
	}
	if _, ok = str(); !ok {
		return r, malformed("COM_REGISTER_SLAVE password")
	}
	if len(p) >= 2 {
		r.Port = binary.LittleEndian.Uint16(p)
	}
	if len(p) >= 10 {
		r.SourceID = binary.LittleEndian.Uint32(p[6:])
	}
	return r, nil
}

// AppendRegister encodes COM_REGISTER_SLAVE.
func AppendRegister(b []byte, serverID uint32, host, user string, port uint16) []byte {
	b = binary.LittleEndian.AppendUint32(b, serverID)
	for _, s := range []string{host, user, ""} {
		if len(s) > 255 {
			s = s[:255]
		}
		b = append(b, byte(len(s)))
		b = append(b, s...)
	}
	b = binary.LittleEndian.AppendUint16(b, port)
	b = binary.LittleEndian.AppendUint32(b, 0)
	return binary.LittleEndian.AppendUint32(b, 0)
}
