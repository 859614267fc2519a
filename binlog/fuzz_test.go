package binlog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func seedEvents() [][]byte {
	var seeds [][]byte
	for _, ev := range allEvents() {
		seeds = append(seeds, AppendEvent(nil, ev, 1700000000, 1))
	}
	tx := sampleTx(3)
	tx.GTID.UUID, tx.GTID.Seq = testUUID, 3
	b, _ := appendTx(nil, tx, 1, 1)
	return append(seeds, b)
}

func FuzzDecodeEvent(f *testing.F) {
	for _, s := range seedEvents() {
		f.Add(s)
		f.Add(s[:len(s)/2])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, ev, err := DecodeEvent(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		// A decoded event re-encodes to bytes that decode and encode the same
		// (the input itself may use non-minimal varints).
		again := AppendEvent(nil, ev, h.Timestamp, h.ServerID)
		_, ev2, err := DecodeEvent(again)
		if err != nil {
			t.Fatalf("re-encoded %s does not decode: %v", ev.Type(), err)
		}
		if !bytes.Equal(AppendEvent(nil, ev2, h.Timestamp, h.ServerID), again) {
			t.Fatalf("re-encode of %s is not stable", ev.Type())
		}
	})
}

func FuzzReadFile(f *testing.F) {
	var all []byte
	for _, s := range seedEvents() {
		f.Add(s)
		all = append(all, s...)
	}
	f.Add(all)
	hdr := appendFileHeader(nil, testUUID, 1, 1, mustSet(f, testUUIDText+":1-3"))
	f.Add(append(hdr[len(Magic):], all...))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body []byte) {
		path := filepath.Join(dir, "binlog.000001")
		if err := os.WriteFile(path, append([]byte(Magic), body...), 0o640); err != nil {
			t.Fatal(err)
		}
		err := ReadFile(path, func(EventHeader, Event) error { return nil })
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTruncated) {
			t.Fatalf("untyped error %v", err)
		}
		var out bytes.Buffer
		derr := Dump(&out, path)
		if (err == nil) != (derr == nil) {
			t.Fatalf("ReadFile %v but Dump %v", err, derr)
		}
	})
}

func TestDumpCorrupt(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	commitN(t, l, 2)
	_, pos := l.Position()
	l.crash()
	path := filepath.Join(dir, "binlog.000001")
	data, _ := os.ReadFile(path)
	data[pos-3] ^= 1 // last Commit event's checksum
	os.WriteFile(path, data, 0o640)
	var out bytes.Buffer
	err := Dump(&out, path)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "at ") {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(out.String(), "# ERROR:") || strings.Count(out.String(), "COMMIT/*!*/;") != 1 {
		t.Fatalf("output:\n%s", out.String())
	}
}

// A rows event read with its rows deferred loads exactly what a full decode gives,
// and a row list the full decode refuses is ErrCorrupt from Load, never a panic.
func FuzzDeferredRows(f *testing.F) {
	for _, ev := range allEvents() {
		if re, ok := ev.(*RowsEvent); ok {
			f.Add(re.appendPayload(nil))
		}
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		full := &decoder{b: bytes.Clone(p), alias: true}
		var want RowsEvent
		want.decodePayload(full)
		if full.err == nil && len(full.b) != 0 {
			full.fail("trailing bytes")
		}
		lazy := &decoder{b: bytes.Clone(p), alias: true, lazy: true}
		var got RowsEvent
		got.decodePayload(lazy)
		if lazy.err != nil {
			if full.err == nil {
				t.Fatalf("deferred decode refused what the full decode took: %v", lazy.err)
			}
			return
		}
		var buf RowBuffer
		rows, err := got.Load(&buf)
		if full.err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("full decode failed (%v) but Load gave %v", full.err, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		got.Rows = rows
		if !reflect.DeepEqual(normalize(&got), normalize(&want)) {
			t.Fatalf("loaded %+v, want %+v", rows, want.Rows)
		}
	})
}
