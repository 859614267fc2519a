package repltest

import (
	"fmt"
	"strings"
	"testing"
)

// TestBigintUnsignedReplicatesExactly: BIGINT UNSIGNED and BIT(64) values across
// 2^63 (from there kept as 8-byte BLOBs, package u64) reach the replica as the
// source stores them: rows events carry the stored form, the replica applies it
// to the same form, and the checksum (which walks the primary key, a BIGINT
// UNSIGNED, in chunks bounded by parameters across 2^63) finds no difference.
func TestBigintUnsignedReplicatesExactly(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db, "CREATE DATABASE wide",
		"CREATE TABLE wide.u (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, v BIGINT UNSIGNED, b BIT(64), n INT, KEY (v))",
		"INSERT INTO wide.u VALUES (1, 1, 1, 1)")
	// a statement the compiler leaves to sqlcompat computes with v: fine while no
	// value from 2^63 is there (the replica remembers it scanned for none) ...
	waitCaughtUp(t, src.db, rep.db)
	computed := "SELECT v + 1 FROM wide.u WHERE id = 1 AND FOUND_ROWS() = 0"
	if got := str(t, rep.db, computed); got != "2" {
		t.Fatalf("%s on the replica: %s", computed, got)
	}
	exec(t, src.db, "DELETE FROM wide.u")
	// 1500 rows around 2^63: more than one checksum chunk, split across it
	const first = uint64(1<<63) - 750
	for start := first; start < first+1500; start += 250 {
		var vals []string
		for id := start; id < start+250; id++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, %d, %d)", id, ^id, id, id%7))
		}
		exec(t, src.db, "INSERT INTO wide.u VALUES "+strings.Join(vals, ", "))
	}
	if _, err := src.db.Exec("INSERT INTO wide.u (id, v, b) VALUES (?, ?, ?)", uint64(18446744073709551615), uint64(1), uint64(18446744073709551615)); err != nil {
		t.Fatal(err)
	}
	exec(t, src.db,
		"UPDATE wide.u SET v = v - 1, n = n + 1 WHERE id BETWEEN 9223372036854775800 AND 9223372036854775815",
		"UPDATE wide.u SET b = b + 1 WHERE id = 9223372036854775807",
		"DELETE FROM wide.u WHERE id % 100 = 3")
	report := assertInSync(t, src.db, rep.db)
	// ... and refused once the applier wrote one there
	if err := tryExec(rep.db, computed); errCode(err) != 1235 {
		t.Errorf("%s on the replica after 2^63 and more arrived: %v, want 1235", computed, err)
	}
	if report.Rows < 1400 {
		t.Errorf("checksum compared %d rows", report.Rows)
	}
	q := "SELECT id, v, HEX(b), n FROM wide.u WHERE id IN (9223372036854775807, 9223372036854775808, 18446744073709551615) ORDER BY id"
	want := "9223372036854775807 9223372036854775807 8000000000000000 1|" +
		"9223372036854775808 9223372036854775806 8000000000000000 2|" +
		"18446744073709551615 1 FFFFFFFFFFFFFFFF NULL"
	for name, db := range map[string]querier{"source": src.db, "replica": rep.db} {
		var got []string
		for _, r := range rows(t, db, q) {
			got = append(got, strings.Join(r, " "))
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%s: %q, want %q", name, strings.Join(got, "|"), want)
		}
	}
}
