package binlog

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/binlite/binlite/gtid"
)

func allEvents() []Event {
	return []Event{
		&FormatDescriptionEvent{Version: FormatVersion, ServerUUID: testUUID, ServerID: 7, Created: 1700000000},
		&PreviousGTIDsEvent{Set: gtid.MustParse(testUUIDText + ":1-77:80")},
		&PreviousGTIDsEvent{},
		&GTIDEvent{GTID: gtid.GTID{UUID: testUUID, Seq: 9}, OriginalCommitUS: 1, ImmediateCommitUS: 2, Schemas: []string{"a", "b"}},
		&GTIDEvent{GTID: gtid.GTID{UUID: testUUID, Seq: 1}},
		&RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "v", "r", "b", "n"}, PK: []int{0, 1}, Rows: []RowChange{
			{Op: OpInsert, After: []Value{IntValue(math.MinInt64), TextValue("héllo"), RealValue(-2.25), BlobValue([]byte{0, 1, 2}), NullValue()}},
			{Op: OpUpdate, Before: []Value{IntValue(1), TextValue("")}, After: []Value{IntValue(math.MaxInt64), TextValue("x")}},
			{Op: OpDelete, Before: []Value{IntValue(-1)}},
		}},
		&RowsEvent{Schema: "db", Table: "empty"},
		&QueryEvent{Schema: "db", SQL: "CREATE TABLE t (id INT PRIMARY KEY)"},
		&CommitEvent{}, &HeartbeatEvent{}, &StopEvent{},
		&RotateEvent{NextFile: "binlog.000002", Position: 4},
	}
}

func TestEventRoundTrip(t *testing.T) {
	var buf []byte
	for _, ev := range allEvents() {
		buf = AppendEvent(buf[:0], ev, 1234, 99)
		h, got, err := DecodeEvent(append(buf, 0xff, 0xee)) // trailing bytes are the next event's
		if err != nil {
			t.Fatalf("%T: %v", ev, err)
		}
		if h.Type != ev.Type() || h.Timestamp != 1234 || h.ServerID != 99 || h.EndPos != int64(len(buf)) {
			t.Fatalf("%T: header %+v", ev, h)
		}
		if !reflect.DeepEqual(normalize(got), normalize(ev)) {
			t.Fatalf("%T: got %+v want %+v", ev, got, ev)
		}
	}
}

// A decoded event encodes to the bytes it came from (relay and replica logs copy
// decoded rows payloads instead of encoding them again).
func TestDecodedEventReencodes(t *testing.T) {
	for _, ev := range allEvents() {
		orig := AppendEvent(nil, ev, 1234, 99)
		_, got, err := DecodeEvent(orig)
		if err != nil {
			t.Fatalf("%T: %v", ev, err)
		}
		if again := AppendEvent(nil, got, 1234, 99); !bytes.Equal(again, orig) {
			t.Fatalf("%T: re-encoded\n%x\nwant\n%x", ev, again, orig)
		}
	}
}

// normalize maps empty images and text to a canonical form for DeepEqual.
func normalize(ev Event) Event {
	r, ok := ev.(*RowsEvent)
	if !ok {
		if p, ok := ev.(*PreviousGTIDsEvent); ok {
			return &PreviousGTIDsEvent{Set: gtid.MustParse(p.Set.String())}
		}
		return ev
	}
	c := *r
	c.Rows, c.raw, c.frame, c.rows, c.nrows, c.keep = nil, nil, nil, nil, 0, nil
	for _, rc := range r.Rows {
		rc.Before, rc.After = normImg(rc.Before), normImg(rc.After)
		c.Rows = append(c.Rows, rc)
	}
	return &c
}

func normImg(img []Value) []Value {
	if len(img) == 0 {
		return nil
	}
	out := make([]Value, len(img))
	for i, v := range img {
		if len(v.Bytes) == 0 {
			v.Bytes = nil
		}
		out[i] = v
	}
	return out
}

func TestDecodeErrors(t *testing.T) {
	good := AppendEvent(nil, &QueryEvent{Schema: "db", SQL: "DROP TABLE t"}, 1, 1)
	flip := func(i int) []byte { b := append([]byte(nil), good...); b[i] ^= 0x40; return b }
	setLen := func(n uint32) []byte {
		b := append([]byte(nil), good...)
		b[0], b[1], b[2], b[3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
		return b
	}
	unknown := AppendEvent(nil, &CommitEvent{}, 1, 1)
	unknown[4] = 200
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"short", good[:3], ErrTruncated},
		{"cut", good[:len(good)-1], ErrTruncated},
		{"len too small", setLen(5), ErrCorrupt},
		{"len huge", setLen(0xffffffff), ErrCorrupt},
		{"len 1GiB+1", setLen(MaxEventLen + 1), ErrCorrupt},
		{"crc", flip(len(good) - 1), ErrCorrupt},
		{"payload", flip(HeaderLen + 1), ErrCorrupt},
		{"unknown type", unknown, ErrCorrupt},
	}
	for _, c := range cases {
		if _, _, err := DecodeEvent(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
}

func TestAppendEventAllocs(t *testing.T) {
	tx := sampleTx(1)
	tx.GTID = gtid.GTID{UUID: testUUID, Seq: 1}
	buf := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() {
		buf, _ = appendTx(buf[:0], tx, 1, 1)
	})
	if allocs > 1 { // the GTIDEvent may escape through the interface
		t.Fatalf("appendTx allocates %.1f times", allocs)
	}
}
