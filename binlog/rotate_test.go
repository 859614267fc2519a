package binlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRotationBySizeAndFlush(t *testing.T) {
	dir := t.TempDir()
	opts := testOptions()
	opts.MaxSize = 1000
	l := openTest(t, dir, opts)
	defer l.Close()
	commitN(t, l, 30)
	files, err := l.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("only %d files", len(files))
	}
	// Each file's Previous_gtids is the union of everything before it.
	var seen int
	for i, f := range files {
		if got := f.PreviousGTIDs.Count(); got != uint64(seen) {
			t.Fatalf("file %d %s previous count %d, want %d", i, f.Name, got, seen)
		}
		if i < len(files)-1 && f.Size <= opts.MaxSize {
			t.Fatalf("%s rotated at %d bytes", f.Name, f.Size)
		}
		_ = ReadFile(filepath.Join(dir, f.Name), func(h EventHeader, ev Event) error {
			if h.Type == TypeCommit {
				seen++
			}
			return nil
		})
	}
	if seen != 30 {
		t.Fatalf("saw %d commits", seen)
	}
	name, _ := l.Position()
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	name2, pos2 := l.Position()
	if name2 != nextFileName("binlog", name) || pos2 <= 4 {
		t.Fatalf("after flush %s %d", name2, pos2)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "binlog.index"))
	if !strings.HasSuffix(string(idx), name2+"\n") || strings.Count(string(idx), "\n") != len(files)+1 {
		t.Fatalf("index %q", idx)
	}
	all, _ := l.Files()
	if !all[len(all)-1].PreviousGTIDs.Equal(l.Executed()) {
		t.Fatal("previous gtids of new file != executed")
	}
}

func TestPurge(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	defer l.Close()
	for range 4 {
		commitN(t, l, 2)
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := l.Files()
	if len(files) != 5 {
		t.Fatalf("%d files", len(files))
	}
	if err := l.PurgeTo("binlog.999999"); err == nil {
		t.Fatal("purge to unknown file succeeded")
	}
	if err := l.PurgeTo(files[2].Name); err != nil {
		t.Fatal(err)
	}
	if !l.Purged().Equal(files[2].PreviousGTIDs) || l.Purged().Count() != 4 {
		t.Fatalf("purged %v", l.Purged())
	}
	for _, f := range files[:2] {
		if _, err := os.Stat(filepath.Join(dir, f.Name)); !os.IsNotExist(err) {
			t.Fatalf("%s not deleted", f.Name)
		}
	}
	// PurgeBefore never removes the active file.
	old := time.Now().Add(-time.Hour)
	for _, f := range files {
		os.Chtimes(filepath.Join(dir, f.Name), old, old)
	}
	if err := l.PurgeBefore(time.Now()); err != nil {
		t.Fatal(err)
	}
	left, _ := l.Files()
	if len(left) != 1 || left[0].Name != files[4].Name {
		t.Fatalf("left %v", left)
	}
	if !l.Purged().Equal(l.Executed()) {
		t.Fatalf("purged %v executed %v", l.Purged(), l.Executed())
	}
	// Reopen: purged comes from the first file.
	l.crash()
	l2 := openTest(t, dir, testOptions())
	defer l2.Close()
	if l2.Purged().Count() != 8 || l2.Executed().Count() != 8 {
		t.Fatalf("after reopen purged %v executed %v", l2.Purged(), l2.Executed())
	}
}

func TestExpireAtRotation(t *testing.T) {
	dir := t.TempDir()
	opts := testOptions()
	opts.ExpireSeconds = 60
	l := openTest(t, dir, opts)
	defer l.Close()
	commitN(t, l, 1)
	l.Flush()
	commitN(t, l, 1)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "binlog.000001"), old, old)
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	files, _ := l.Files()
	if len(files) != 2 || files[0].Name != "binlog.000002" {
		t.Fatalf("files %v", files)
	}
}

func TestReset(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	defer l.Close()
	commitN(t, l, 3)
	l.Flush()
	commitN(t, l, 3)
	if err := l.Reset(); err != nil {
		t.Fatal(err)
	}
	files, _ := l.Files()
	if len(files) != 1 || files[0].Name != "binlog.000001" || !files[0].PreviousGTIDs.IsEmpty() {
		t.Fatalf("files %v", files)
	}
	if !l.Executed().IsEmpty() || !l.Purged().IsEmpty() {
		t.Fatal("sets not empty")
	}
	tx := sampleTx(1)
	if err := l.Commit([]*Transaction{tx}); err != nil || tx.GTID.Seq != 1 {
		t.Fatalf("after reset seq %d err %v", tx.GTID.Seq, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "binlog.000002")); !os.IsNotExist(err) {
		t.Fatal("old file left behind")
	}
}
