package crashtest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// tornTailRE matches binlog/recover.go's warning.
var tornTailRE = regexp.MustCompile(`msg="binlog: truncating torn tail" file=(\S+) old_size=(\d+) new_size=(\d+)`)

// damage is bytes appended after the last whole event of the active binary-log
// file, as a crash in the middle of writing the next group could leave them.
type damage struct {
	name string
	tail func(next []byte, rng *rand.Rand) []byte // next: a whole encoded next transaction
}

var damages = []damage{
	{"prefix of the next GTID event", func(next []byte, rng *rand.Rand) []byte {
		return next[:1+rng.IntN(gtidEventLen(next)-1)]
	}},
	{"GTID event and part of the rows event", func(next []byte, rng *rand.Rand) []byte {
		g := gtidEventLen(next)
		return next[:g+1+rng.IntN(len(next)-binlog.MinEventLen-g-1)]
	}},
	{"transaction without its COMMIT event", func(next []byte, _ *rand.Rand) []byte {
		return next[:len(next)-binlog.MinEventLen]
	}},
	{"COMMIT event cut short", func(next []byte, rng *rand.Rand) []byte {
		return next[:len(next)-1-rng.IntN(binlog.MinEventLen-1)]
	}},
	{"whole transaction with a bad checksum", func(next []byte, _ *rand.Rand) []byte {
		b := append([]byte(nil), next...)
		b[len(b)-1] ^= 0xff // the COMMIT event's CRC32C
		return b
	}},
	{"zeros", func(_ []byte, rng *rand.Rand) []byte {
		return make([]byte, 1+rng.IntN(8192))
	}},
	{"random bytes", func(_ []byte, rng *rand.Rand) []byte {
		b := make([]byte, 1+rng.IntN(200))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return b
	}},
}

func gtidEventLen(b []byte) int {
	return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
}

// TestTornTail appends, after the last whole event of the active binary-log file,
// what a crash in the middle of writing the next group could leave (a prefix of a
// real encoded transaction, one with a bad checksum, zeros, noise), restarts, and
// checks that the server truncates exactly those bytes with a log line, that
// everything before them is intact in the log and in storage, and that the GTID the
// torn transaction carried is issued to the next real write. The server is killed
// only when idle, so storage is never ahead of the log by construction.
func TestTornTail(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))

	srv := newServer(t)
	srv.start()
	m := newModel()
	h := newHistory()
	db := srv.openDB()
	setupLoad(t, db, m)
	db.Close()

	for _, d := range damages {
		runQuietLoad(t, srv, m, rng.Uint64(), 100)
		srv.kill()
		log, err := readLog(srv.dir)
		if err != nil {
			t.Fatalf("binary log before damage: %v", err)
		}
		path, err := lastFile(srv.dir)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		size := st.Size()
		n := uint64(len(log.gtids))
		tornID := m.newID()
		next := encodeNextTransaction(log.uuid, n+1, tornID)
		junk := d.tail(next, rng)
		appendFile(t, path, junk)

		srv.start()
		checkTruncated(t, srv, d.name, path, size, size+int64(len(junk)))
		rec := verify(t, srv, m, h)
		if rec.n != n {
			t.Fatalf("%s: the log held %d transactions before the damage, %d after recovery", d.name, n, rec.n)
		}
		if _, ok := lookup(rec.storage, "c1", "t", tornID); ok {
			t.Fatalf("%s: the torn transaction's row c1.t id=%d is stored", d.name, tornID)
		}
		checkNextWrite(t, srv, m, h, n)
		t.Logf("%s: %d bytes truncated; %d transactions intact", d.name, len(junk), n)
	}
	tornRotation(t, srv, m, h, rng)
	srv.stop()
}

// tornRotation simulates a crash while FLUSH BINARY LOGS was creating the next file:
// the new file holds only part of its header. The server must recreate the header
// (with a log line) and lose nothing.
func tornRotation(t *testing.T, srv *server, m *model, h *history, rng *rand.Rand) {
	t.Helper()
	runQuietLoad(t, srv, m, rng.Uint64(), 100)
	db := srv.openDB()
	if _, err := db.Exec("FLUSH BINARY LOGS"); err != nil {
		t.Fatalf("FLUSH BINARY LOGS: %v", err)
	}
	db.Close()
	srv.kill()
	log, err := readLog(srv.dir)
	if err != nil {
		t.Fatalf("binary log before damage: %v", err)
	}
	n := uint64(len(log.gtids))
	path, err := lastFile(srv.dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := 1 + rng.Int64N(st.Size()-1)
	if err := os.Truncate(path, cut); err != nil {
		t.Fatal(err)
	}
	srv.start()
	if !strings.Contains(srv.log(), `msg="binlog: recreating header of last file after crash during rotation"`) {
		t.Fatalf("torn header of %s (cut to %d of %d bytes): no log line about recreating it:\n%s", path, cut, st.Size(), tail(srv.log(), 3000))
	}
	rec := verify(t, srv, m, h)
	if rec.n != n {
		t.Fatalf("torn header: the log held %d transactions before, %d after recovery", n, rec.n)
	}
	checkNextWrite(t, srv, m, h, n)
	t.Logf("header of a new file cut to %d of %d bytes: recreated; %d transactions intact", cut, st.Size(), n)
}

// runQuietLoad runs the write load until at least minAcks transactions were
// acknowledged, then stops the clients (the server keeps running).
func runQuietLoad(t *testing.T, srv *server, m *model, seed uint64, minAcks int) {
	t.Helper()
	db := srv.openDB()
	defer db.Close()
	l := startLoad(t, db, m, defaultMix, seed)
	deadline := time.Now().Add(60 * time.Second)
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	for m.peekStats().acked < minAcks {
		if time.Now().After(deadline) {
			l.halt(t)
			t.Fatalf("fewer than %d transactions acknowledged within 60s", minAcks)
		}
		<-poll.C
	}
	l.halt(t)
	if s := m.takeStats(); s.unknown > 0 {
		t.Fatalf("%d statements without an answer while the server was running", s.unknown)
	}
}

// encodeNextTransaction encodes what the server would write next: GTID uuid:seq,
// an INSERT of c1.t id, COMMIT.
func encodeNextTransaction(uuid gtid.UUID, seq uint64, id int64) []byte {
	now := time.Now()
	ts, us := uint32(now.Unix()), uint64(now.UnixMicro())
	b := binlog.AppendEvent(nil, &binlog.GTIDEvent{GTID: gtid.GTID{UUID: uuid, Seq: seq}, OriginalCommitUS: us, ImmediateCommitUS: us, Schemas: []string{"c1"}}, ts, 1)
	b = binlog.AppendEvent(b, &binlog.RowsEvent{
		Schema: "c1", Table: "t", Columns: []string{"id", "v", "who"}, PK: []int{0},
		Rows: []binlog.RowChange{{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(id), binlog.IntValue(1), binlog.TextValue("torn")}}},
	}, ts, 1)
	return binlog.AppendEvent(b, &binlog.CommitEvent{}, ts, 1)
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// checkTruncated checks the warning in the server's log and the file's new size.
func checkTruncated(t *testing.T, srv *server, what, path string, newSize, oldSize int64) {
	t.Helper()
	log := srv.log()
	mt := tornTailRE.FindStringSubmatch(log)
	if mt == nil {
		t.Fatalf("%s: no torn-tail warning in the server log:\n%s", what, tail(log, 3000))
	}
	want := []string{path, strconv.FormatInt(oldSize, 10), strconv.FormatInt(newSize, 10)}
	if got := mt[1:]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: torn-tail warning names file, old size, new size %v; want %v\n%s", what, got, want, mt[0])
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() != newSize {
		t.Fatalf("%s: %s is %d bytes after recovery, want %d", what, path, st.Size(), newSize)
	}
}
