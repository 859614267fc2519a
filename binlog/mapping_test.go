package binlog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// mapsOf counts the memory maps of path in this process.
func mapsOf(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	return strings.Count(string(b), path)
}

// A mapping reader follows a file as it grows past its map (mapped again each time),
// its rows events stay readable after the reader is gone and the file's maps are
// collected, and the maps go away once no event refers to them.
func TestMapFilesFollowsGrowthAndOutlivesReader(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	var want []*RowsEvent
	commit := func(n int) {
		for range n {
			i := len(want)
			ev := &RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "c"}, PK: []int{0},
				Rows: []RowChange{{Op: OpUpdate,
					Before: []Value{IntValue(int64(i)), TextValue("before")},
					After:  []Value{IntValue(int64(i)), TextValue(fmt.Sprintf("%0300d", i))}}}}
			want = append(want, ev)
			if err := l.Commit([]*Transaction{{Schemas: []string{"db"}, Events: []Event{ev}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	commit(40)
	path := filepath.Join(dir, "binlog.000001")
	before := mapsOf(t, path)

	var got []*RowsEvent
	func() {
		r, err := OpenReader(dir, "binlog.000001", 0)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		r.DeferRows()
		r.MapFiles()
		r.ef.reserve = 4096 // a new map every few events
		collect := func(ev Event, _ EventHeader) {
			if re, ok := ev.(*RowsEvent); ok {
				got = append(got, re)
			}
		}
		readToEOF(t, r, collect)
		if r.ef.m == nil {
			t.Fatal("the reader did not map the file")
		}
		commit(40) // the file grows under the reader
		readToEOF(t, r, collect)
	}()
	l.Close()
	if len(got) != len(want) {
		t.Fatalf("read %d rows events, wrote %d", len(got), len(want))
	}
	if mapsOf(t, path) <= before {
		t.Fatalf("no map of %s while its events are alive", path)
	}

	// The reader is closed; only the events hold their maps now.
	runtime.GC()
	runtime.GC()
	var buf RowBuffer
	for i, re := range got {
		checkLoaded(t, i, re, &buf, want[i])
	}

	got = nil
	deadline := time.Now().Add(10 * time.Second)
	for mapsOf(t, path) > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d maps of %s remain after its events are gone", mapsOf(t, path)-before, path)
		}
		runtime.GC()
		runtime.Gosched() // the cleanups run on their own goroutine
	}
}

// A file that cannot be mapped is read through windows as before.
func TestMapFilesFallsBackToWindows(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	ev := &RowsEvent{Schema: "db", Table: "t", Columns: []string{"id"}, PK: []int{0},
		Rows: []RowChange{{Op: OpInsert, After: []Value{IntValue(7)}}}}
	if err := l.Commit([]*Transaction{{Schemas: []string{"db"}, Events: []Event{ev}}}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	r := openReader(t, dir, 0)
	r.MapFiles()
	r.ef.reserve = 1 << 62 // a map larger than the address space: refused
	n := 0
	readToEOF(t, r, func(e Event, _ EventHeader) {
		if re, ok := e.(*RowsEvent); ok {
			n++
			if !reflect.DeepEqual(normalize(re), normalize(ev)) {
				t.Fatalf("read %+v, want %+v", re, ev)
			}
		}
	})
	if n != 1 || r.ef.m != nil || r.ef.useMap {
		t.Fatalf("read %d rows events, map %v, still mapping %v; want 1 through windows", n, r.ef.m != nil, r.ef.useMap)
	}
}

// Stepping over large events of a mapped file reads their headers from the map, and
// from the file once it has grown past the map.
func TestMapFilesSkipsPastTheMap(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	commit := func(n int) {
		for range n {
			big := &Transaction{Schemas: []string{"db"}, Events: []Event{&RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "pad"}, PK: []int{0},
				Rows: []RowChange{{Op: OpInsert, After: []Value{IntValue(1), TextValue(strings.Repeat("x", 8<<10))}}}}}}
			if err := l.Commit([]*Transaction{big}); err != nil {
				t.Fatal(err)
			}
		}
	}
	commit(3)
	r := openReader(t, dir, 0)
	r.MapFiles()
	r.ef.reserve = 4096
	seen := 0
	step := func() {
		for {
			ev, _, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ev.(*GTIDEvent); !ok {
				continue
			}
			seen++
			for {
				typ, ok, err := r.SkipTxnEvent()
				if err != nil || !ok {
					t.Fatalf("transaction %d: %v %v %v", seen, typ, ok, err)
				}
				if typ == TypeCommit {
					break
				}
			}
			if seen == 1 {
				commit(20) // the file outgrows the map made for its first events
			}
		}
	}
	step()
	if seen != 23 {
		t.Fatalf("stepped over %d transactions, want 23", seen)
	}
}
