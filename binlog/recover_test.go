package binlog

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/binlite/binlite/gtid"
)

// crashedLog writes n transactions, abandons the log, and returns the active
// file's bytes plus the end offset of each transaction.
func crashedLog(t *testing.T, n int) (data []byte, ends []int64) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	_, start := l.Position()
	ends = append(ends, start) // ends[0] = end of header events
	for i := range n {
		if err := l.Commit([]*Transaction{sampleTx(i)}); err != nil {
			t.Fatal(err)
		}
		_, pos := l.Position()
		ends = append(ends, pos)
	}
	l.crash()
	data, err := os.ReadFile(filepath.Join(dir, "binlog.000001"))
	if err != nil {
		t.Fatal(err)
	}
	return data, ends
}

// reopenDamaged writes data as the only file and reopens; it checks that
// exactly the first `keep` transactions survive.
func reopenDamaged(t *testing.T, data []byte, keep int, ends []int64, what string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "binlog.000001"), data, 0o640); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "binlog.index"), []byte("binlog.000001\n"), 0o640)
	l, err := Open(dir, testOptions())
	if err != nil {
		t.Fatalf("%s: Open: %v", what, err)
	}
	defer l.crash()
	var want gtid.Set
	if keep > 0 {
		want.AddRange(testUUID, 1, uint64(keep))
	}
	if !l.Executed().Equal(want) {
		t.Fatalf("%s: executed %q, want %q", what, l.Executed(), want)
	}
	if _, pos := l.Position(); pos != ends[keep] {
		t.Fatalf("%s: position %d, want %d", what, pos, ends[keep])
	}
	tx := sampleTx(0)
	if err := l.Commit([]*Transaction{tx}); err != nil || tx.GTID.Seq != uint64(keep+1) {
		t.Fatalf("%s: commit after recovery: seq %d err %v", what, tx.GTID.Seq, err)
	}
}

func TestRecoverTruncatedEveryOffset(t *testing.T) {
	const n = 5
	data, ends := crashedLog(t, n)
	if int64(len(data)) != ends[n] {
		t.Fatalf("file %d bytes, position %d", len(data), ends[n])
	}
	for off := ends[n-1]; off < ends[n]; off++ {
		reopenDamaged(t, data[:off], n-1, ends, "truncate")
	}
	reopenDamaged(t, data, n, ends, "intact")
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		off := ends[0] + r.Int64N(ends[n]-ends[0])
		keep := 0
		for keep < n && ends[keep+1] <= off {
			keep++
		}
		reopenDamaged(t, data[:off], keep, ends, "random truncate")
	}
}

func TestRecoverFlippedBytes(t *testing.T) {
	const n = 6
	data, ends := crashedLog(t, n)
	r := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		off := ends[n-2] + r.Int64N(ends[n]-ends[n-2]) // damage in the last two transactions
		keep := n - 2
		if off >= ends[n-1] {
			keep = n - 1
		}
		bad := append([]byte(nil), data...)
		bad[off] ^= byte(1 + r.IntN(255))
		reopenDamaged(t, bad, keep, ends, "flip")
	}
	// Garbage appended after the last commit is dropped as well.
	reopenDamaged(t, append(append([]byte(nil), data...), 1, 2, 3), n, ends, "garbage")
}

func TestRecoverRotationCrash(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	commitN(t, l, 3)
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	l.crash()
	// Crash after the index named the new file, before its header was durable.
	if err := os.WriteFile(filepath.Join(dir, "binlog.000002"), nil, 0o640); err != nil {
		t.Fatal(err)
	}
	l = openTest(t, dir, testOptions())
	files, _ := l.Files()
	if len(files) != 2 || files[1].PreviousGTIDs.Count() != 3 {
		t.Fatalf("files %+v", files)
	}
	l.crash()
	// Crash after the Rotate event, before the new file or index entry existed.
	os.Remove(filepath.Join(dir, "binlog.000002"))
	os.WriteFile(filepath.Join(dir, "binlog.index"), []byte("binlog.000001\n"), 0o640)
	l = openTest(t, dir, testOptions())
	defer l.Close()
	files, _ = l.Files()
	if len(files) != 2 || files[1].PreviousGTIDs.Count() != 3 || l.Executed().Count() != 3 {
		t.Fatalf("files %+v", files)
	}
	// Missing index: the files in the directory are used.
	l.crash()
	os.Remove(filepath.Join(dir, "binlog.index"))
	l = openTest(t, dir, testOptions())
	if l.Executed().Count() != 3 {
		t.Fatalf("executed %v", l.Executed())
	}
	tx := sampleTx(9)
	if err := l.Commit([]*Transaction{tx}); err != nil || tx.GTID.Seq != 4 {
		t.Fatalf("seq %d err %v", tx.GTID.Seq, err)
	}
}
