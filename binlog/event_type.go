package binlog

import "fmt"

// EventType is the on-disk event type byte.
type EventType uint8

// Event types of format version 1. Values are fixed on disk; never renumber.
const (
	TypeFormatDescription EventType = 1
	TypePreviousGTIDs     EventType = 2
	TypeGTID              EventType = 3
	TypeRows              EventType = 4
	TypeQuery             EventType = 5
	TypeCommit            EventType = 6
	TypeHeartbeat         EventType = 7
	TypeRotate            EventType = 8
	TypeStop              EventType = 9
)

// String names the type the way mysqlbinlog labels events.
func (t EventType) String() string {
	switch t {
	case TypeFormatDescription:
		return "Format_desc"
	case TypePreviousGTIDs:
		return "Previous_gtids"
	case TypeGTID:
		return "Gtid"
	case TypeRows:
		return "Rows"
	case TypeQuery:
		return "Query"
	case TypeCommit:
		return "Commit"
	case TypeHeartbeat:
		return "Heartbeat"
	case TypeRotate:
		return "Rotate"
	case TypeStop:
		return "Stop"
	}
	return fmt.Sprintf("Unknown(%d)", uint8(t))
}

func (t EventType) known() bool { return t.newEvent() != nil }

func (t EventType) newEvent() Event {
	switch t {
	case TypeFormatDescription:
		return &FormatDescriptionEvent{}
	case TypePreviousGTIDs:
		return &PreviousGTIDsEvent{}
	case TypeGTID:
		return &GTIDEvent{}
	case TypeRows:
		return &RowsEvent{}
	case TypeQuery:
		return &QueryEvent{}
	case TypeCommit:
		return &CommitEvent{}
	case TypeHeartbeat:
		return &HeartbeatEvent{}
	case TypeRotate:
		return &RotateEvent{}
	case TypeStop:
		return &StopEvent{}
	}
	return nil
}
