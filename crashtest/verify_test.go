package crashtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/binlite/binlite/gtid"
)

// history remembers every GTID seen in the binary log across restarts of one data
// directory, with its content: a GTID must never disappear or change content.
type history struct {
	fp map[gtid.GTID]uint64
}

func newHistory() *history { return &history{fp: map[gtid.GTID]uint64{}} }

// recovered is what one verification read.
type recovered struct {
	log     *logState
	storage storage
	n       uint64 // GTIDs in the log: gtid_executed must be uuid:1-n
}

// verify checks a restarted, idle server: the binary log is whole and replays to
// exactly what storage holds, gtid_executed is 1-N with N the log's GTID count, no
// GTID was reused or lost since the last verification, and (if m is given) every
// client-visible outcome holds. All violations are reported together. No client is
// connected, so the log files do not change while they are read.
func verify(t *testing.T, srv *server, m *model, h *history) *recovered {
	t.Helper()
	log, err := readLog(srv.dir)
	if err != nil {
		t.Fatalf("binary log of %s after restart: %v\nserver log:\n%s", srv.dir, err, tail(srv.log(), 4000))
	}
	var got storage
	var executed string
	for attempt := 0; ; attempt++ {
		got, executed, err = readServer(srv, log)
		if err == nil {
			break
		}
		if attempt < 3 && srv.recoverFromInterference() {
			if log, err = readLog(srv.dir); err != nil {
				t.Fatalf("binary log of %s after restart: %v", srv.dir, err)
			}
			continue
		}
		t.Fatalf("reading the restarted server: %v\nserver log:\n%s", err, tail(srv.log(), 3000))
	}
	var v []string
	v = append(v, compareStorage(log, got)...)
	v = append(v, checkGTIDs(log, executed, h)...)
	if m != nil {
		violations, dirty := m.checkAgainst(got)
		v = append(v, violations...)
		for _, d := range dirty {
			// Reported, but the stored data is consistent: keep killing.
			t.Errorf("after restart %d of %s: %s", srv.starts, srv.dir, d)
		}
	}
	if len(v) > 0 {
		t.Fatalf("after restart %d of %s, %d invariant violations:\n  %s\nserver log:\n%s",
			srv.starts, srv.dir, len(v), strings.Join(v, "\n  "), tail(srv.log(), 3000))
	}
	return &recovered{log: log, storage: got, n: uint64(len(log.gtids))}
}

// readServer reads storage and "server_uuid:gtid_executed" from the running server.
func readServer(srv *server, log *logState) (storage, string, error) {
	db := srv.openDB()
	defer db.Close()
	ctx := context.Background()
	got, err := readStorage(ctx, db, log)
	if err != nil {
		return nil, "", err
	}
	var uuid, executed string
	if err := db.QueryRowContext(ctx, "SELECT @@server_uuid, @@gtid_executed").Scan(&uuid, &executed); err != nil {
		return nil, "", fmt.Errorf("SELECT @@server_uuid, @@gtid_executed: %w", err)
	}
	return got, uuid + ":" + executed, nil
}

// checkGTIDs compares @@gtid_executed with the log and the log with its history.
// vars is "server_uuid:gtid_executed".
func checkGTIDs(log *logState, vars string, h *history) []string {
	var v []string
	uuidText, executedText, _ := strings.Cut(vars, ":")
	uuid, err := gtid.ParseUUID(uuidText)
	if err != nil {
		return []string{fmt.Sprintf("@@server_uuid %q: %v", uuidText, err)}
	}
	executed, err := gtid.Parse(executedText)
	if err != nil {
		return []string{fmt.Sprintf("@@gtid_executed %q: %v", executedText, err)}
	}
	n := uint64(len(log.gtids))
	if !log.uuid.IsZero() && log.uuid != uuid {
		v = append(v, fmt.Sprintf("binary log written by uuid %s, server says %s", log.uuid, uuid))
	}
	var want gtid.Set
	want.AddRange(uuid, 1, n)
	if !executed.Equal(want) {
		v = append(v, fmt.Sprintf("@@gtid_executed is %q; the binary log holds %d GTIDs, so it must be %q", executedText, n, want))
	}
	if logSet := log.executedSet(); !logSet.Equal(want) {
		v = append(v, fmt.Sprintf("the binary log's GTIDs are %q, not the contiguous %q", logSet, want))
	}
	var lost, changed []string
	for g, fp := range h.fp {
		now, ok := log.fp[g]
		switch {
		case !ok:
			lost = append(lost, g.String())
		case now != fp:
			changed = append(changed, g.String())
		}
	}
	if len(lost) > 0 {
		v = append(v, fmt.Sprintf("%d GTIDs that were in the binary log before the crash are gone: %v", len(lost), firstN(lost, 10)))
	}
	if len(changed) > 0 {
		v = append(v, fmt.Sprintf("REUSED: %d GTIDs now name a different transaction than before the crash: %v", len(changed), firstN(changed, 10)))
	}
	for g, fp := range log.fp {
		h.fp[g] = fp
	}
	return v
}

func firstN(s []string, n int) []string {
	return s[:min(len(s), n)]
}

// checkNextWrite makes one autocommit write and checks that it takes GTID n+1:
// the restarted server accepts writes and continues the sequence.
func checkNextWrite(t *testing.T, srv *server, m *model, h *history, n uint64) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		w := rowWrite{schema: "c1", id: m.newID(), v: int64(n), who: nullText{String: "after-restart", Valid: true}}
		r := m.addTxn(fmt.Sprintf("first write after restart %d (c1.t id=%d)", srv.starts, w.id), w)
		err := nextWrite(srv, w, n)
		if err == nil {
			m.settle(r, acked)
			return
		}
		m.settle(r, classify(err))
		if attempt < 3 && srv.recoverFromInterference() {
			n = verify(t, srv, m, h).n
			continue
		}
		t.Fatalf("after restart %d: %v", srv.starts, err)
	}
}

func nextWrite(srv *server, w rowWrite, n uint64) error {
	db := srv.openDB()
	defer db.Close()
	if _, err := db.Exec("INSERT INTO c1.t (id, v, who) VALUES (?, ?, ?)", w.id, w.v, w.who.String); err != nil {
		return fmt.Errorf("first write: %w", err)
	}
	var uuidText, executedText string
	if err := db.QueryRow("SELECT @@server_uuid, @@gtid_executed").Scan(&uuidText, &executedText); err != nil {
		return err
	}
	uuid, err := gtid.ParseUUID(uuidText)
	if err != nil {
		return err
	}
	got, err := gtid.Parse(executedText)
	if err != nil {
		return err
	}
	var want gtid.Set
	want.AddRange(uuid, 1, n+1)
	if !got.Equal(want) {
		return fmt.Errorf("after one write, @@gtid_executed is %q, want %q", executedText, want)
	}
	return nil
}
