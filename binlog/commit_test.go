package binlog

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/binlite/binlite/gtid"
)

func TestConcurrentCommitGroups(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions())
	defer l.Close()
	const n = 50
	txs := make([]*Transaction, n)
	// Every goroutine is running before any commits, so that the commits arrive
	// together (and group) however slowly goroutines start on a loaded machine.
	var wg, ready sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		txs[i] = sampleTx(i)
		ready.Add(1)
		wg.Go(func() {
			ready.Done()
			<-start
			if err := l.Commit([]*Transaction{txs[i]}); err != nil {
				t.Error(err)
			}
		})
	}
	ready.Wait()
	close(start)
	wg.Wait()
	seen := map[uint64]bool{}
	for _, tx := range txs {
		if tx.GTID.UUID != testUUID || tx.GTID.Seq < 1 || tx.GTID.Seq > n || seen[tx.GTID.Seq] {
			t.Fatalf("bad or duplicate gtid %v", tx.GTID)
		}
		seen[tx.GTID.Seq] = true
		if tx.ImmediateCommitUS == 0 || tx.OriginalCommitUS != tx.ImmediateCommitUS {
			t.Fatalf("timestamps not set: %+v", tx)
		}
	}
	if got := l.Executed().String(); got != testUUIDText+":1-50" {
		t.Fatalf("executed %q", got)
	}
	st := l.Stats()
	if st.Transactions != n || st.Groups >= n || st.Syncs != st.Groups {
		t.Fatalf("stats %+v: want grouping", st)
	}
	t.Logf("%d transactions in %d groups", st.Transactions, st.Groups)

	// Everything is on disk in order of sequence number.
	var seqs []uint64
	if err := l.ScanTransactions("", func(_ string, tx *Transaction) error {
		seqs = append(seqs, tx.GTID.Seq)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("file order %v", seqs)
		}
	}
}

func TestCommitReplicaGTIDs(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions())
	defer l.Close()
	src := gtid.NewUUID()
	tx := sampleTx(1)
	tx.GTID = gtid.GTID{UUID: src, Seq: 42}
	tx.OriginalCommitUS = 77
	if err := l.Commit([]*Transaction{tx}); err != nil {
		t.Fatal(err)
	}
	if tx.GTID.Seq != 42 || tx.OriginalCommitUS != 77 {
		t.Fatalf("replica gtid changed: %+v", tx)
	}
	dup := sampleTx(2)
	dup.GTID = tx.GTID
	if err := l.Commit([]*Transaction{dup}); !errors.Is(err, ErrDuplicateGTID) {
		t.Fatalf("duplicate: %v", err)
	}
	// Duplicates inside one call are refused as a whole.
	a, b := sampleTx(3), sampleTx(4)
	a.GTID = gtid.GTID{UUID: src, Seq: 50}
	b.GTID = a.GTID
	if err := l.Commit([]*Transaction{a, b}); !errors.Is(err, ErrDuplicateGTID) {
		t.Fatalf("duplicate in call: %v", err)
	}
	// An own GTID arriving from elsewhere moves the counter past it.
	own := sampleTx(5)
	own.GTID = gtid.GTID{UUID: testUUID, Seq: 10}
	next := sampleTx(6)
	if err := l.Commit([]*Transaction{own, next}); err != nil {
		t.Fatal(err)
	}
	if next.GTID.Seq != 11 {
		t.Fatalf("next own seq %d, want 11", next.GTID.Seq)
	}
	want := mustSet(t, src.String()+":42,"+testUUIDText+":10-11")
	if !l.Executed().Equal(want) {
		t.Fatalf("executed %v want %v", l.Executed(), want)
	}
	if err := l.Commit([]*Transaction{{}}); err == nil {
		t.Fatal("empty transaction accepted")
	}
	if err := l.Commit([]*Transaction{{Events: []Event{&CommitEvent{}}}}); err == nil {
		t.Fatal("Commit event inside a transaction accepted")
	}
}

func TestCommitFailureIsSticky(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions())
	l.ioMu.Lock()
	l.f.Close() // the next write fails like a dead disk
	l.ioMu.Unlock()
	if err := l.Commit([]*Transaction{sampleTx(1)}); err == nil {
		t.Fatal("commit on closed fd succeeded")
	}
	if err := l.Commit([]*Transaction{sampleTx(2)}); err == nil {
		t.Fatal("commit after failure succeeded")
	}
	if !l.Executed().IsEmpty() {
		t.Fatal("failed commit is executed")
	}
}

func TestSyncBinlogPolicy(t *testing.T) {
	for _, c := range []struct{ sync, groups, syncs int }{{0, 6, 0}, {1, 6, 6}, {3, 6, 2}} {
		opts := testOptions()
		opts.SyncBinlog = c.sync
		l := openTest(t, t.TempDir(), opts)
		commitN(t, l, c.groups)
		if st := l.Stats(); st.Syncs != uint64(c.syncs) || st.Groups != uint64(c.groups) {
			t.Errorf("sync_binlog=%d: %+v", c.sync, st)
		}
		l.Close()
	}
}

func TestSequenceSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	commitN(t, l, 5)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Commit([]*Transaction{sampleTx(0)}); !errors.Is(err, ErrClosed) {
		t.Fatalf("commit after close: %v", err)
	}
	l = openTest(t, dir, testOptions())
	tx := sampleTx(6)
	if err := l.Commit([]*Transaction{tx}); err != nil {
		t.Fatal(err)
	}
	if tx.GTID.Seq != 6 {
		t.Fatalf("seq after restart %d", tx.GTID.Seq)
	}
	// Purge everything but the active file: the counter still comes from purged.
	files, _ := l.Files()
	if err := l.PurgeTo(files[len(files)-1].Name); err != nil {
		t.Fatal(err)
	}
	l.crash()
	l = openTest(t, dir, testOptions())
	defer l.Close()
	tx = sampleTx(7)
	if err := l.Commit([]*Transaction{tx}); err != nil || tx.GTID.Seq != 7 {
		t.Fatalf("seq %d err %v", tx.GTID.Seq, err)
	}
}

// A group larger than the encoding buffer is written in pieces; a request that
// fails in the middle of it is left out whole, the others keep their order, and
// the group is durable and readable after a reopen.
func TestLargeGroupWrittenInChunks(t *testing.T) {
	dir := t.TempDir()
	opts := testOptions()
	opts.MaxSize = 64 << 20
	l := openTest(t, dir, opts)
	src := gtid.NewUUID()
	pad := TextValue(string(make([]byte, 100<<10)))
	var batch []*commitReq
	for i := range 30 {
		seq := uint64(i + 1)
		if i == 15 {
			seq = 4 // already in this group: refused
		}
		tx := &Transaction{GTID: gtid.GTID{UUID: src, Seq: seq}, Schemas: []string{"db"}, Events: []Event{&RowsEvent{
			Schema: "db", Table: "t", Columns: []string{"id", "pad"}, PK: []int{0},
			Rows: []RowChange{{Op: OpInsert, After: []Value{IntValue(int64(i)), pad}}},
		}}}
		batch = append(batch, &commitReq{txns: []*Transaction{tx}, sig: make(chan commitSignal, 1)})
	}
	l.ioMu.Lock()
	l.mu.Lock()
	err := l.writeGroup(batch)
	l.mu.Unlock()
	l.ioMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	var want []uint64
	for i, r := range batch {
		if i == 15 {
			if !errors.Is(r.err, ErrDuplicateGTID) {
				t.Fatalf("request 15: err %v, want a duplicate GTID", r.err)
			}
			continue
		}
		if r.err != nil {
			t.Fatalf("request %d: %v", i, r.err)
		}
		want = append(want, uint64(i+1))
	}
	if st := l.Stats(); st.Groups != 1 || st.Syncs != 1 || st.Transactions != 29 {
		t.Fatalf("stats %+v: want one group of 29 with one sync", st)
	}
	l.Close()

	l = openTest(t, dir, opts)
	defer l.Close()
	var got []uint64
	if err := l.ScanTransactions("", func(_ string, tx *Transaction) error {
		if tx.GTID.UUID == src {
			got = append(got, tx.GTID.Seq)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after reopen the log holds %v, want %v", got, want)
	}
	var ex gtid.Set
	ex.AddRange(src, 1, 15)
	ex.AddRange(src, 17, 30)
	if !l.Executed().Equal(ex) {
		t.Fatalf("executed %s, want %s", l.Executed(), ex)
	}
}
