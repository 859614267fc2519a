package repltest

import (
	"fmt"
	"testing"
	"time"
)

// TestTimestampsAcrossZones: TIMESTAMP values written in a session whose
// time_zone is +05:30 (literals, parameters, NOW(), CURRENT_TIMESTAMP defaults
// and ON UPDATE) are logged as stored, in UTC; a replica whose time_zone is
// -08:00 stores the same and shows them in its sessions' zones.
func TestTimestampsAcrossZones(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2, opt("time_zone", "-08:00"))
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db, "CREATE DATABASE tz", `CREATE TABLE tz.ev (id INT PRIMARY KEY, ts TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL,
		dt DATETIME NULL, made TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP, seen TIMESTAMP NULL ON UPDATE CURRENT_TIMESTAMP, n INT)`)
	c := conn(t, src.db)
	exec(t, c, "SET time_zone = '+05:30'",
		"INSERT INTO tz.ev (id, ts, ts6, dt) VALUES (1, '2024-06-01 12:00:00', '2024-06-01 12:00:00.654321', '2024-06-01 12:00:00')",
		"INSERT INTO tz.ev (id, ts) VALUES (2, NOW())")
	if _, err := c.ExecContext(t.Context(), "INSERT INTO tz.ev (id, ts, ts6) VALUES (?, ?, ?)", 3, "2024-01-01 05:30:01", time.Date(2030, 1, 1, 0, 0, 0, 1000, time.UTC)); err != nil {
		t.Fatal(err)
	}
	exec(t, c, "UPDATE tz.ev SET n = 1, ts = ts + INTERVAL 1 DAY WHERE id = 3")
	waitCaughtUp(t, src.db, rep.db)

	q := "SELECT id, ts, ts6, dt, UNIX_TIMESTAMP(ts), made IS NOT NULL, seen IS NOT NULL FROM tz.ev ORDER BY id"
	srcUTC, repUTC := conn(t, src.db), conn(t, rep.db)
	exec(t, srcUTC, "SET time_zone = '+00:00'")
	exec(t, repUTC, "SET time_zone = '+00:00'")
	want := fmt.Sprint(rows(t, srcUTC, q))
	if got := fmt.Sprint(rows(t, repUTC, q)); got != want {
		t.Errorf("replica in UTC:\n got %s\nwant %s", got, want)
	}
	if got := str(t, srcUTC, "SELECT ts FROM tz.ev WHERE id = 1"); got != "2024-06-01 06:30:00" {
		t.Errorf("source stored %s for 2024-06-01 12:00:00 in +05:30", got)
	}
	// The replica's own sessions read in its zone, -08:00.
	if got := str(t, rep.db, "SELECT ts FROM tz.ev WHERE id = 1"); got != "2024-05-31 22:30:00" {
		t.Errorf("replica in -08:00 reads %s", got)
	}
	if got := str(t, rep.db, "SELECT TIMESTAMPDIFF(MINUTE, made, CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', '-08:00')) BETWEEN 0 AND 60 FROM tz.ev WHERE id = 2"); got != "1" {
		t.Errorf("the source's CURRENT_TIMESTAMP default read on the replica: %v", rows(t, rep.db, "SELECT made, UTC_TIMESTAMP() FROM tz.ev"))
	}
	// The checksum reads every table in the sessions' zones: the same zone on both.
	exec(t, rep.db, "SET GLOBAL time_zone = 'SYSTEM'")
	assertInSync(t, src.db, rep.db)
}
