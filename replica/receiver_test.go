package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// scriptedLink delivers a source's packets in segments, as TCP reads would:
// PacketBuffered is true while the current segment has packets left. A read past
// the end of a segment is a read that would wait for the network; the link then
// calls beforeWait (which checks what the receiver did before blocking) and moves
// on to the next segment, or ends the stream when there is none.
type scriptedLink struct {
	segments   [][][]byte
	beforeWait func(next int) // next: index of the segment about to arrive
	waits      int
	acks       [][]byte
}

func (l *scriptedLink) PacketBuffered() bool {
	return len(l.segments) > 0 && len(l.segments[0]) > 0
}

func (l *scriptedLink) ReadPacket() ([]byte, error) {
	for len(l.segments) > 0 && len(l.segments[0]) == 0 {
		l.segments = l.segments[1:]
		l.waits++
		if l.beforeWait != nil {
			l.beforeWait(l.waits)
		}
	}
	if len(l.segments) == 0 {
		return nil, io.EOF
	}
	p := l.segments[0][0]
	l.segments[0] = l.segments[0][1:]
	return p, nil
}

func (l *scriptedLink) WriteSidePacket(p []byte) error {
	l.acks = append(l.acks, append([]byte(nil), p...))
	return nil
}

// streamFixture is a channel with a real relay log and the events of a source
// whose uuid is srcUUID.
type streamFixture struct {
	ch      *Channel
	relay   *binlog.Log
	srcUUID gtid.UUID
	pos     uint64
}

func newStreamFixture(t *testing.T) *streamFixture {
	t.Helper()
	dir := t.TempDir()
	m := &Manager{cfg: Config{Dir: dir, Logger: slog.New(slog.DiscardHandler), ServerID: 2}}
	relay, err := binlog.Open(dir, binlog.Options{ServerUUID: mustUUID(t, "22222222-2222-2222-2222-222222222222"), ServerID: 2, BaseName: relayBase(""), SyncBinlog: 10000, KeepTimestamps: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { relay.Close() })
	return &streamFixture{ch: newChannel(m, "", Settings{}), relay: relay, srcUUID: mustUUID(t, "11111111-1111-1111-1111-111111111111"), pos: uint64(binlog.FirstEventPos)}
}

func mustUUID(t *testing.T, s string) gtid.UUID {
	t.Helper()
	u, err := gtid.ParseUUID(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// packet frames an event as the dump service sends it: an OK byte, the semi-sync
// header when semi is set, then the event.
func (f *streamFixture) packet(ev binlog.Event, semi, needAck bool) []byte {
	p := []byte{0}
	if semi {
		flag := byte(0)
		if needAck {
			flag = 1
		}
		p = append(p, 0xef, flag)
	}
	p = binlog.AppendEvent(p, ev, 1700000000, 1)
	if _, isHB := ev.(*binlog.HeartbeatEvent); !isHB {
		if _, isRot := ev.(*binlog.RotateEvent); !isRot {
			f.pos += uint64(len(binlog.AppendEvent(nil, ev, 0, 0)))
		}
	}
	return p
}

// txn returns the packets of transaction seq of the source: GTID, a DDL, COMMIT.
func (f *streamFixture) txn(seq uint64, semi, ackCommit bool) [][]byte {
	g := gtid.GTID{UUID: f.srcUUID, Seq: seq}
	return [][]byte{
		f.packet(&binlog.GTIDEvent{GTID: g, OriginalCommitUS: 1, ImmediateCommitUS: 1, Schemas: []string{"s"}}, semi, false),
		f.packet(&binlog.QueryEvent{Schema: "s", SQL: fmt.Sprintf("CREATE TABLE t%d (id INT)", seq)}, semi, false),
		f.packet(&binlog.CommitEvent{}, semi, ackCommit),
	}
}

func (f *streamFixture) heartbeat(semi bool) []byte {
	return f.packet(&binlog.HeartbeatEvent{File: "binlog.000001", Pos: f.pos}, semi, false)
}

func (f *streamFixture) rotate(semi, needAck bool) []byte {
	return f.packet(&binlog.RotateEvent{NextFile: "binlog.000002", Position: uint64(binlog.FirstEventPos)}, semi, needAck)
}

func (f *streamFixture) has(seqs ...uint64) error {
	for _, s := range seqs {
		if !f.relay.Contains(gtid.GTID{UUID: f.srcUUID, Seq: s}) {
			return fmt.Errorf("relay log lacks %s:%d (holds %s)", f.srcUUID, s, f.relay.Executed())
		}
	}
	return nil
}

func concat(parts ...[][]byte) [][]byte {
	var out [][]byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestReceiverWritesBatchBeforeWaiting: whatever the last packet of what arrived
// together was, every whole transaction received is in the relay log before the
// receiver waits for the network again. Before the fix, a heartbeat (or rotate, or a
// skipped transaction) behind the last COMMIT left the batch in memory for good.
func TestReceiverWritesBatchBeforeWaiting(t *testing.T) {
	cases := []struct {
		name    string
		semi    bool
		filePos bool // a file/position channel (skips transactions its relay log has)
		segment func(f *streamFixture) [][]byte
		want    []uint64
	}{
		{"heartbeat after commit", false, false, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, false, false), [][]byte{f.heartbeat(false)})
		}, []uint64{1}},
		{"heartbeat after commit, file/position", false, true, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, false, false), [][]byte{f.heartbeat(false)})
		}, []uint64{1}},
		{"several transactions then heartbeats", false, false, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, false, false), f.txn(2, false, false), [][]byte{f.heartbeat(false), f.heartbeat(false)})
		}, []uint64{1, 2}},
		{"rotate after commit", false, false, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, false, false), [][]byte{f.rotate(false, false)})
		}, []uint64{1}},
		{"skipped duplicate after commit, file/position", false, true, func(f *streamFixture) [][]byte {
			// Transaction 1 is sent twice (a resumed file/position stream); the second
			// copy is stepped over.
			return concat(f.txn(1, false, false), f.txn(2, false, false), f.txn(1, false, false))
		}, []uint64{1, 2}},
		{"semi-sync, unflagged commit then heartbeat", true, false, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, true, false), [][]byte{f.heartbeat(true)})
		}, []uint64{1}},
		{"semi-sync, flagged commit then heartbeat", true, false, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, true, true), f.txn(2, true, false), [][]byte{f.heartbeat(true)})
		}, []uint64{1, 2}},
		{"transaction then the start of the next", false, false, func(f *streamFixture) [][]byte {
			return concat(f.txn(1, false, false), f.txn(2, false, false)[:2])
		}, []uint64{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newStreamFixture(t)
			var sp *sourcePosition
			if tc.filePos {
				sp = newSourcePosition(f.ch)
			}
			seg := tc.segment(f)
			var checked bool
			link := &scriptedLink{segments: [][][]byte{{f.rotate(tc.semi, false)}, seg}}
			link.beforeWait = func(next int) {
				if next == 2 {
					checked = true
					if err := f.has(tc.want...); err != nil {
						t.Errorf("before waiting for the network: %v", err)
					}
				}
			}
			err := f.ch.stream(context.Background(), link, f.relay, tc.semi, sp)
			if !errors.Is(err, io.EOF) {
				t.Fatalf("stream ended with %v, want the link's EOF", err)
			}
			if !checked {
				t.Fatal("the receiver never waited for the network after the segment")
			}
			if tc.semi && len(link.acks) == 0 && tc.name == "semi-sync, flagged commit then heartbeat" {
				t.Error("flagged COMMIT was not acknowledged")
			}
		})
	}
}

// TestReceiverBatchBounds: a receiver that never has to wait (a replica catching up
// on a long stream) still writes the relay log every relayBatchTxns transactions.
func TestReceiverBatchBounds(t *testing.T) {
	f := newStreamFixture(t)
	n := relayBatchTxns + 10
	var seg [][]byte
	for i := 1; i <= n; i++ {
		seg = append(seg, f.txn(uint64(i), false, false)...)
	}
	reads, firstBatchAt := 0, -1
	link := &scriptedLink{segments: [][][]byte{seg}}
	counting := &countingLink{scriptedLink: link, onRead: func() {
		reads++
		if firstBatchAt < 0 && f.has(1) == nil {
			firstBatchAt = reads
		}
	}}
	if err := f.ch.stream(context.Background(), counting, f.relay, false, nil); !errors.Is(err, io.EOF) {
		t.Fatalf("stream ended with %v", err)
	}
	// The first batch is written right after the relayBatchTxns-th COMMIT is read,
	// before the next read: 3 packets a transaction.
	if want := 3*relayBatchTxns + 1; firstBatchAt != want {
		t.Errorf("first relay write seen at read %d, want %d", firstBatchAt, want)
	}
	for i := 1; i <= n; i++ {
		if err := f.has(uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
}

type countingLink struct {
	*scriptedLink
	onRead func()
}

func (c *countingLink) ReadPacket() ([]byte, error) {
	c.onRead()
	return c.scriptedLink.ReadPacket()
}
