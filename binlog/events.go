package binlog

import (
	"encoding/binary"

	"github.com/binlite/binlite/gtid"
)

// Event is one decoded binlog event. It is sealed: only this package's event
// types implement it.
type Event interface {
	Type() EventType
	appendPayload(b []byte) []byte
	decodePayload(d *decoder)
}

// FormatVersion is the format version written in Format_description.
const FormatVersion = 1

// FormatDescriptionEvent is the first event of every file.
type FormatDescriptionEvent struct {
	Version    uint16
	ServerUUID gtid.UUID
	ServerID   uint32
	Created    uint32 // unix seconds
}

// PreviousGTIDsEvent holds every GTID written in earlier files.
type PreviousGTIDsEvent struct {
	Set gtid.Set
}

// GTIDEvent opens a transaction.
type GTIDEvent struct {
	GTID              gtid.GTID
	OriginalCommitUS  uint64 // µs since epoch, on the originating server
	ImmediateCommitUS uint64 // µs since epoch, on the server that wrote this log
	Schemas           []string
}

// QueryEvent carries a DDL statement and the schema it ran in.
type QueryEvent struct {
	Schema, SQL string
}

// CommitEvent closes a transaction.
type CommitEvent struct{}

// HeartbeatEvent is sent by dump threads when idle or after skipping transactions the
// replica has; it names the source position reached (as MySQL's heartbeat does) and is
// never written to files.
type HeartbeatEvent struct {
	File string
	Pos  uint64
}

// RotateEvent ends a file and names the next.
type RotateEvent struct {
	NextFile string
	Position uint64
}

// StopEvent ends a file at a clean shutdown.
type StopEvent struct{}

func (*FormatDescriptionEvent) Type() EventType { return TypeFormatDescription }
func (*PreviousGTIDsEvent) Type() EventType     { return TypePreviousGTIDs }
func (*GTIDEvent) Type() EventType              { return TypeGTID }
func (*QueryEvent) Type() EventType             { return TypeQuery }
func (*CommitEvent) Type() EventType            { return TypeCommit }
func (*HeartbeatEvent) Type() EventType         { return TypeHeartbeat }
func (*RotateEvent) Type() EventType            { return TypeRotate }
func (*StopEvent) Type() EventType              { return TypeStop }

func (e *FormatDescriptionEvent) appendPayload(b []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, e.Version)
	b = append(b, e.ServerUUID[:]...)
	b = binary.LittleEndian.AppendUint32(b, e.ServerID)
	return binary.LittleEndian.AppendUint32(b, e.Created)
}

func (e *FormatDescriptionEvent) decodePayload(d *decoder) {
	e.Version = d.u16()
	copy(e.ServerUUID[:], d.take(16))
	e.ServerID = d.u32()
	e.Created = d.u32()
	if d.err == nil && e.Version != FormatVersion {
		d.fail("unsupported format version %d", e.Version)
	}
}

func (e *PreviousGTIDsEvent) appendPayload(b []byte) []byte {
	return appendStr(b, e.Set.String())
}

func (e *PreviousGTIDsEvent) decodePayload(d *decoder) {
	s := d.str()
	if d.err != nil {
		return
	}
	set, err := gtid.Parse(s)
	if err != nil {
		d.fail("%v", err)
	}
	e.Set = set
}

func (e *GTIDEvent) appendPayload(b []byte) []byte {
	b = append(b, e.GTID.UUID[:]...)
	b = binary.LittleEndian.AppendUint64(b, e.GTID.Seq)
	b = binary.LittleEndian.AppendUint64(b, e.OriginalCommitUS)
	b = binary.LittleEndian.AppendUint64(b, e.ImmediateCommitUS)
	b = binary.AppendUvarint(b, uint64(len(e.Schemas)))
	for _, s := range e.Schemas {
		b = appendStr(b, s)
	}
	return b
}

func (e *GTIDEvent) decodePayload(d *decoder) {
	copy(e.GTID.UUID[:], d.take(16))
	e.GTID.Seq = d.u64()
	e.OriginalCommitUS = d.u64()
	e.ImmediateCommitUS = d.u64()
	n := d.count(1)
	if n == 1 && d.names != nil {
		if b := d.bytes(); d.err == nil {
			e.Schemas = d.names.oneSchema(b)
		}
	} else if n > 0 {
		e.Schemas = make([]string, n)
		for i := range e.Schemas {
			e.Schemas[i] = d.name()
		}
	}
	if d.err == nil && e.GTID.Seq == 0 {
		d.fail("gtid sequence 0")
	}
}

func (e *QueryEvent) appendPayload(b []byte) []byte {
	return appendStr(appendStr(b, e.Schema), e.SQL)
}

func (e *QueryEvent) decodePayload(d *decoder) {
	e.Schema = d.str()
	e.SQL = d.str()
}

func (*CommitEvent) appendPayload(b []byte) []byte { return b }
func (*CommitEvent) decodePayload(*decoder)        {}
func (e *HeartbeatEvent) appendPayload(b []byte) []byte {
	b = appendStr(b, e.File)
	return binary.LittleEndian.AppendUint64(b, e.Pos)
}

func (e *HeartbeatEvent) decodePayload(d *decoder) {
	e.File = d.str()
	e.Pos = d.u64()
}
func (*StopEvent) appendPayload(b []byte) []byte { return b }
func (*StopEvent) decodePayload(*decoder)        {}

func (e *RotateEvent) appendPayload(b []byte) []byte {
	b = appendStr(b, e.NextFile)
	return binary.LittleEndian.AppendUint64(b, e.Position)
}

func (e *RotateEvent) decodePayload(d *decoder) {
	e.NextFile = d.str()
	e.Position = d.u64()
}
