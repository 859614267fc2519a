package binlog

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// fullDisk is an Options.Write that fails as a full disk does while full is
// set: it writes half of what it is given, then reports ENOSPC. only, when set,
// limits the failures to files whose name contains it.
type fullDisk struct {
	mu   sync.Mutex
	full bool
	only string
}

func (d *fullDisk) set(full bool, only string) {
	d.mu.Lock()
	d.full, d.only = full, only
	d.mu.Unlock()
}

func (d *fullDisk) write(f *os.File, b []byte) (int, error) {
	d.mu.Lock()
	full := d.full && (d.only == "" || strings.Contains(f.Name(), d.only))
	d.mu.Unlock()
	if !full {
		return f.Write(b)
	}
	n, err := f.Write(b[:len(b)/2])
	if err != nil {
		return n, err
	}
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// scanSeqs reads every transaction of the log's files, as a reader (and recovery)
// does, and returns their sequence numbers.
func scanSeqs(t *testing.T, l *Log) []uint64 {
	t.Helper()
	var seqs []uint64
	if err := l.ScanTransactions("", func(_ string, tx *Transaction) error {
		seqs = append(seqs, tx.GTID.Seq)
		return nil
	}); err != nil {
		t.Fatalf("scan: %v", err)
	}
	return seqs
}

func TestDiskFullTakesTheGroupBack(t *testing.T) {
	dir := t.TempDir()
	disk := &fullDisk{}
	opts := testOptions()
	opts.Write = disk.write
	l := openTest(t, dir, opts)
	commitN(t, l, 2)
	size := l.size

	disk.set(true, "")
	tx := sampleTx(3)
	err := l.Commit([]*Transaction{tx})
	if !IsDiskFull(err) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("commit on a full disk: %v, want a disk-full error", err)
	}
	if !tx.GTID.IsZero() {
		t.Fatalf("the refused transaction kept GTID %v", tx.GTID)
	}
	if st, err := os.Stat(filepath.Join(dir, "binlog.000001")); err != nil || st.Size() != size {
		t.Fatalf("file is %d bytes after the refused group, want %d (%v)", st.Size(), size, err)
	}
	if got := l.Executed().String(); got != testUUIDText+":1-2" {
		t.Fatalf("executed %s", got)
	}
	if got := scanSeqs(t, l); len(got) != 2 {
		t.Fatalf("a reader sees %v", got)
	}
	// Still full: still refused, still clean.
	if err := l.Commit([]*Transaction{sampleTx(4)}); !IsDiskFull(err) {
		t.Fatalf("second commit on a full disk: %v", err)
	}

	// Room again: commits go on, with the next number.
	disk.set(false, "")
	tx = sampleTx(5)
	if err := l.Commit([]*Transaction{tx}); err != nil {
		t.Fatalf("commit once there is room: %v", err)
	}
	if tx.GTID.Seq != 3 {
		t.Fatalf("GTID %v after the refused groups, want sequence 3", tx.GTID)
	}
	l.crash()
	l = openTest(t, dir, testOptions())
	defer l.Close()
	if got := l.Executed().String(); got != testUUIDText+":1-3" {
		t.Fatalf("executed after a restart: %s", got)
	}
	if got := scanSeqs(t, l); len(got) != 3 || got[2] != 3 {
		t.Fatalf("after a restart a reader sees %v", got)
	}
}

func TestDiskFullDuringRotation(t *testing.T) {
	dir := t.TempDir()
	disk := &fullDisk{}
	opts := testOptions()
	opts.Write = disk.write
	opts.MaxSize = 1 // every group rotates
	l := openTest(t, dir, opts)
	commitN(t, l, 1) // binlog.000002 is active

	// The group fits; the next file's header does not.
	disk.set(true, "binlog.000003")
	if err := l.Commit([]*Transaction{sampleTx(2)}); err != nil {
		t.Fatalf("the group is durable whatever the rotation meets: %v", err)
	}
	if names := l.fileNames(); len(names) != 2 {
		t.Fatalf("files %v after a rotation with no room", names)
	}
	if _, err := os.Stat(filepath.Join(dir, "binlog.000003")); !os.IsNotExist(err) {
		t.Fatalf("the next file was left behind: %v", err)
	}
	disk.set(false, "")
	if err := l.Commit([]*Transaction{sampleTx(3)}); err != nil {
		t.Fatal(err)
	}
	if names := l.fileNames(); len(names) != 3 {
		t.Fatalf("files %v once there is room", names)
	}
	l.crash()
	l = openTest(t, dir, testOptions())
	defer l.Close()
	if got := l.Executed().String(); got != testUUIDText+":1-3" {
		t.Fatalf("executed after a restart: %s", got)
	}
	if got := scanSeqs(t, l); len(got) != 3 {
		t.Fatalf("after a restart a reader sees %v", got)
	}
}

// TestDiskFullOnTmpfs fills a real (small) filesystem. It needs to mount a
// tmpfs, which takes privileges; it skips where mounting is refused.
func TestDiskFullOnTmpfs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	logDir := filepath.Join(dir, "log")
	l := openTest(t, logDir, testOptions())
	// Fill the filesystem with a file that can be removed to make room again.
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()
	// Groups go in while pages remain, then the disk is full.
	var full error
	committed := 0
	for i := range 10000 {
		if err := l.Commit([]*Transaction{sampleTx(i)}); err != nil {
			full = err
			break
		}
		committed++
	}
	if !IsDiskFull(full) {
		t.Fatalf("after %d commits: %v, want a disk-full error", committed, full)
	}
	if got := len(scanSeqs(t, l)); got != committed {
		t.Fatalf("a reader sees %d transactions, %d were committed", got, committed)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := l.Commit([]*Transaction{sampleTx(1)}); err != nil {
		t.Fatalf("commit once there is room: %v", err)
	}
	l.crash()
	l = openTest(t, logDir, testOptions())
	defer l.Close()
	if got := len(scanSeqs(t, l)); got != committed+1 {
		t.Fatalf("after a restart %d transactions, want %d", got, committed+1)
	}
	t.Logf("%d groups fitted, then the disk was full; one more once there was room", committed)
}
