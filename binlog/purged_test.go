package binlog

import (
	"errors"
	"testing"

	"github.com/binlite/binlite/gtid"
)

// TestAddPurgedDurableAndPositioned: a set added by SET gtid_purged joins executed
// and purged, survives a crash, keeps the server's own numbers from being issued
// again, is named by every position after it (GTIDsAt) and not by those before,
// and is gone after Reset.
func TestAddPurgedDurableAndPositioned(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	commitN(t, l, 2)
	before, beforePos := l.Position()
	other := "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"
	add := mustSet(t, other+":1-100,"+testUUIDText+":3-9")

	var overlap *PurgedOverlapError
	if err := l.AddPurged(mustSet(t, testUUIDText+":2-3")); !errors.As(err, &overlap) || overlap.Shared.String() != testUUIDText+":2" {
		t.Fatalf("AddPurged of an executed GTID: %v", err)
	}
	if err := l.AddPurged(add); err != nil {
		t.Fatal(err)
	}
	want := mustSet(t, testUUIDText+":1-9,"+other+":1-100")
	if !l.Executed().Equal(want) || !l.Purged().Equal(add) {
		t.Fatalf("executed %s purged %s, want %s and %s", l.Executed(), l.Purged(), want, add)
	}
	commitN(t, l, 1) // takes the server's next free number, 10
	want.Add(gtid.GTID{UUID: testUUID, Seq: 10})
	l.crash()

	l = openTest(t, dir, testOptions())
	defer l.Close()
	if !l.Executed().Equal(want) || !l.Purged().Equal(add) {
		t.Fatalf("after a crash: executed %s purged %s, want %s and %s", l.Executed(), l.Purged(), want, add)
	}
	if set, ok, err := l.GTIDsAt(before, beforePos); err != nil || !ok || set.String() != testUUIDText+":1-2" {
		t.Errorf("GTIDsAt(%s, %d) before the SET = %s, %v, %v", before, beforePos, set, ok, err)
	}
	file, pos := l.Position()
	if file == before {
		t.Errorf("AddPurged did not rotate the log")
	}
	if set, ok, err := l.GTIDsAt(file, pos); err != nil || !ok || !set.Equal(want) {
		t.Errorf("GTIDsAt(%s, %d) = %s, %v, %v; want %s", file, pos, set, ok, err, want)
	}
	if _, ok, err := l.GTIDsAt(file, pos+1); ok || err != nil {
		t.Errorf("GTIDsAt beyond the durable end: ok %v err %v", ok, err)
	}
	if _, ok, _ := l.GTIDsAt("binlog.999999", FirstEventPos); ok {
		t.Errorf("GTIDsAt of a file not in the index answered")
	}

	if err := l.Reset(); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = openTest(t, dir, testOptions())
	defer l.Close()
	if !l.Executed().IsEmpty() || !l.Purged().IsEmpty() {
		t.Fatalf("after Reset and reopen: executed %s purged %s", l.Executed(), l.Purged())
	}
}
