package repltest

// source → replica1 → replica2: replica1 logs what it applies with the original
// GTIDs (log_replica_updates), so replica2 ends an exact copy of the source.

import (
	"fmt"
	"sync"
	"testing"
)

func TestChainSourceReplicaReplica(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 81)
	r1 := startNode(t, "replica1", 82)
	r2 := startNode(t, "replica2", 83)
	createReplUser(t, src.db) // the account replicates to replica1, which serves replica2 with it
	exec(t, src.db, "CREATE DATABASE c1", "CREATE TABLE c1.t (id INT PRIMARY KEY, v TEXT)", "INSERT INTO c1.t VALUES (1, 'a')")

	if got := str(t, r1.db, "SELECT @@log_replica_updates"); got != "1" {
		t.Errorf("@@log_replica_updates = %s, want 1 (ON by default)", got)
	}
	replicate(t, r1.db, src.port())
	waitRunning(t, r1.db)
	waitCaughtUp(t, src.db, r1.db)
	replicate(t, r2.db, r1.port())
	waitRunning(t, r2.db)

	// Load on the source while both links run.
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			db := fmt.Sprintf("cw%d", w)
			if err := tryExec(src.db, "CREATE DATABASE "+db); err != nil {
				t.Errorf("%v", err)
				return
			}
			if err := tryExec(src.db, "CREATE TABLE "+db+".t (id INT PRIMARY KEY, n INT NOT NULL)"); err != nil {
				t.Errorf("%v", err)
				return
			}
			for i := 1; i <= 60; i++ {
				q := fmt.Sprintf("INSERT INTO %s.t VALUES (%d, 0)", db, i)
				if i%3 == 0 {
					q = fmt.Sprintf("UPDATE %s.t SET n = n + 1 WHERE id = %d", db, i-1)
				}
				if err := tryExec(src.db, q); err != nil {
					t.Errorf("%s: %v", q, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	exec(t, src.db, "ALTER TABLE c1.t ADD COLUMN w INT NULL", "UPDATE c1.t SET w = 5", "CREATE INDEX w_i ON c1.t (w)")

	waitCaughtUp(t, src.db, r1.db)
	waitCaughtUp(t, src.db, r2.db)
	assertSameData(t, src.db, r1.db)
	assertSameData(t, src.db, r2.db)
	assertSameData(t, r1.db, r2.db)
	all := assertSameGTIDs(t, src.db, r1.db)
	assertSameGTIDs(t, src.db, r2.db)

	srcUUID, r1UUID := serverUUID(t, src.db), serverUUID(t, r1.db)
	st := showStatus(t, r2.db)
	checkFields(t, "replica2 SHOW REPLICA STATUS", st, map[string]string{
		"Source_UUID":      r1UUID,
		"Source_Server_Id": "82",
		"Source_Port":      fmt.Sprint(r1.port()),
	})
	// The GTIDs replica2 executed are the ORIGINAL source's, not replica1's.
	uu := gtidExecuted(t, r2.db).UUIDs()
	if len(uu) != 1 || uu[0].String() != srcUUID {
		t.Errorf("replica2 gtid_executed uuids = %v, want only the original source %s (replica1 is %s)", uu, srcUUID, r1UUID)
	}
	if got := st["Retrieved_Gtid_Set"]; got != all.String() {
		t.Errorf("replica2 Retrieved_Gtid_Set = %q, want %q", got, all.String())
	}

	// Each GTID is logged once on the intermediate and the last replica.
	r1.close()
	r2.close()
	assertBinlogOnce(t, r1.dir, all)
	assertBinlogOnce(t, r2.dir, all)
}
