package crashtest

import (
	"testing"
)

// TestRolledBackRowsStayOutOfTheLog checks that changes undone inside an explicit
// transaction — by ROLLBACK TO SAVEPOINT, or by a statement that fails half-way —
// are left out of the binary log as they are left out of storage. After a kill -9
// and restart, storage must equal the log. The rolled-back rows go to the same
// table as the statement before them: when the capture appended them to that
// statement's rows event, truncating the event list at the savepoint or at the
// failed statement left them in (the bug this test was written for).
func TestRolledBackRowsStayOutOfTheLog(t *testing.T) {
	cases := []struct {
		name  string
		steps []string
	}{
		{"rollback to savepoint", []string{
			"BEGIN",
			"USE c1",
			"INSERT INTO t (id, v, who) VALUES (1, 1, 'kept')",
			"SAVEPOINT sp1",
			"INSERT INTO t (id, v, who) VALUES (2, 2, 'rolled back to sp1')",
			"ROLLBACK TO SAVEPOINT sp1",
			"INSERT INTO t (id, v, who) VALUES (3, 3, 'kept')",
			"COMMIT",
		}},
		{"failed statement", []string{
			"BEGIN",
			"USE c1",
			"INSERT INTO t (id, v, who) VALUES (1, 1, 'kept')",
			// Inserts id 2, then fails on the duplicate id 1: SQLite undoes the
			// whole statement, so id 2 must not be logged either.
			"!INSERT INTO t (id, v, who) VALUES (2, 2, 'undone by the failed statement'), (1, 1, 'duplicate')",
			"INSERT INTO t (id, v, who) VALUES (3, 3, 'kept')",
			"COMMIT",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t)
			srv.start()
			db := srv.openDB()
			defer db.Close()
			setupLoad(t, db, newModel())
			conn, err := db.Conn(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range tc.steps {
				mustFail := q[0] == '!'
				if mustFail {
					q = q[1:]
				}
				_, err := conn.ExecContext(t.Context(), q)
				if mustFail != (err != nil) {
					t.Fatalf("%s: error %v, expected an error: %v", q, err, mustFail)
				}
			}
			conn.Close()

			srv.kill()
			srv.start()
			rec := verify(t, srv, nil, newHistory())
			if _, ok := lookup(rec.storage, "c1", "t", 2); ok {
				t.Errorf("c1.t id=2 is stored although it was rolled back")
			}
			for _, id := range []int64{1, 3} {
				if _, ok := lookup(rec.storage, "c1", "t", id); !ok {
					t.Errorf("c1.t id=%d was committed but is missing", id)
				}
			}
			srv.stop()
		})
	}
}
