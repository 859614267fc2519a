package mysqlproto

import (
	"errors"
	"io"
	"testing"
	"time"
)

// A result with More goes out row by row: its rows after those in Rows, then
// the end packet with the warnings its source counted, or an ERR packet where
// the source failed, after the rows already sent.
func TestRawStreamedResult(t *testing.T) {
	addr, _, _ := startServer(t, nil)
	for _, caps := range []uint32{rawCaps, rawCaps | ClientDeprecateEOF} {
		rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, caps)
		rc.command(ComQuery, []byte("stream 5000"))
		first, rows, _ := rc.readResult()
		if first[0] != 1 || len(rows) != 5001 {
			t.Fatalf("caps %x: first %x, %d rows, want 5001", caps, first, len(rows))
		}
		// The end packet counts the source's warnings (5000).
		rc.command(ComQuery, []byte("stream 7"))
		rc.read()
		rc.read()
		if !rc.deprecateEOF() {
			rc.read()
		}
		var end []byte
		for {
			p := rc.read()
			if isEnd(p) {
				end = p
				break
			}
		}
		if w := warningsOfEnd(end, rc.deprecateEOF()); w != 7 {
			t.Fatalf("caps %x: end packet %x counts %d warnings, want 7", caps, end, w)
		}

		rc.command(ComQuery, []byte("stream 3000 fail"))
		rc.read() // column count
		rc.read() // column
		if !rc.deprecateEOF() {
			rc.read()
		}
		n := 0
		for {
			p := rc.read()
			if p[0] == headerErr {
				if code := int(p[1]) | int(p[2])<<8; code != 1690 {
					t.Fatalf("ERR %d after %d rows", code, n)
				}
				break
			}
			if isEnd(p) {
				t.Fatalf("end packet where the source failed, after %d rows", n)
			}
			n++
		}
		if n != 3000 { // row 0 and rows 1..2999
			t.Fatalf("%d rows before the ERR packet, want 3000", n)
		}
		// The connection goes on.
		rc.command(ComQuery, []byte("select 1"))
		if _, rows, _ := rc.readResult(); len(rows) != 1 {
			t.Fatalf("after a failed stream: %d rows", len(rows))
		}
	}
}

func warningsOfEnd(p []byte, deprecateEOF bool) int {
	if !deprecateEOF {
		return int(p[1]) | int(p[2])<<8
	}
	r := &reader{buf: p[1:]}
	r.lenEncInt()
	r.lenEncInt()
	r.uint16()
	return int(r.uint16())
}

// A statement whose outcome is unknown ends the connection with no answer.
func TestRawUnknownOutcomeClosesWithoutAnswer(t *testing.T) {
	addr, _, _ := startServer(t, nil)
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps|ClientMultiStatements)
	rc.command(ComQuery, []byte("select 1; unknown outcome"))
	rc.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	p, err := rc.c.ReadPacket()
	if err == nil {
		t.Fatalf("got a packet %x; want the connection closed with no answer", p)
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read: %v, want the connection closed", err)
	}
}
