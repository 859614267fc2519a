package crashtest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ddlModel records what clients were told about schema and table DDL.
type ddlModel struct {
	mu      sync.Mutex
	nextID  int64
	created map[string]status // CREATE DATABASE
	dropped map[string]status // DROP DATABASE
	tables  map[string]status // CREATE TABLE, "schema.table"
	dropTbl map[string]status // DROP TABLE
	rows    map[string]status // INSERT of id 1 into "schema.table"
}

func newDDLModel() *ddlModel {
	return &ddlModel{created: map[string]status{}, dropped: map[string]status{}, tables: map[string]status{}, dropTbl: map[string]status{}, rows: map[string]status{}}
}

func (m *ddlModel) record(set map[string]status, key string, st status) {
	m.mu.Lock()
	defer m.mu.Unlock()
	set[key] = st
}

func (m *ddlModel) newName(prefix string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	return fmt.Sprintf("%s%d", prefix, m.nextID)
}

// check compares the model with storage and resolves unknown outcomes.
func (m *ddlModel) check(got storage) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var v []string
	exists := func(schema string) bool { return got[schema] != nil }
	for _, s := range sortedKeys(m.created) {
		cst, dst := m.created[s], m.dropped[s]
		_, wasDropped := m.dropped[s]
		switch {
		case wasDropped && dst == acked && exists(s):
			v = append(v, fmt.Sprintf("PHANTOM: schema %s exists although DROP DATABASE was acknowledged", s))
		case cst == acked && (!wasDropped || dst == failed) && !exists(s):
			v = append(v, fmt.Sprintf("LOST: schema %s is missing although CREATE DATABASE was acknowledged", s))
		case cst == failed && exists(s):
			v = append(v, fmt.Sprintf("PHANTOM: schema %s exists although CREATE DATABASE failed", s))
		}
		if cst == unknown {
			m.created[s] = resolved(exists(s) || wasDropped)
		}
		if wasDropped && dst == unknown {
			m.dropped[s] = resolved(!exists(s))
		}
	}
	for _, key := range sortedKeys(m.tables) {
		schema, table := splitKey(key)
		if !exists(schema) {
			continue // dropped (checked above) or never created
		}
		_, ok := got[schema][table]
		cst, dst := m.tables[key], m.dropTbl[key]
		_, wasDropped := m.dropTbl[key]
		switch {
		case wasDropped && dst == acked && ok:
			v = append(v, fmt.Sprintf("PHANTOM: table %s exists although DROP TABLE was acknowledged", key))
		case cst == acked && (!wasDropped || dst == failed) && !ok:
			v = append(v, fmt.Sprintf("LOST: table %s is missing although CREATE TABLE was acknowledged", key))
		case cst == failed && ok:
			v = append(v, fmt.Sprintf("PHANTOM: table %s exists although CREATE TABLE failed", key))
		}
		if cst == unknown {
			m.tables[key] = resolved(ok || wasDropped)
		}
		if wasDropped && dst == unknown {
			m.dropTbl[key] = resolved(!ok)
		}
	}
	for _, key := range sortedKeys(m.rows) {
		schema, table := splitKey(key)
		if _, tableExists := got[schema][table]; !tableExists {
			continue // its table is gone (checked above)
		}
		_, ok := lookup(got, schema, table, 1)
		switch st := m.rows[key]; {
		case st == acked && !ok:
			v = append(v, fmt.Sprintf("LOST: %s id=1 is missing although its INSERT was acknowledged", key))
		case st == failed && ok:
			v = append(v, fmt.Sprintf("PHANTOM: %s id=1 exists although its INSERT failed", key))
		case st == unknown:
			m.rows[key] = resolved(ok)
		}
	}
	return v
}

func resolved(present bool) status {
	if present {
		return acked
	}
	return failed
}

func splitKey(key string) (schema, table string) {
	for i := range key {
		if key[i] == '.' {
			return key[:i], key[i+1:]
		}
	}
	return key, ""
}

func sortedKeys(m map[string]status) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ddlClient creates a schema, a table in it and a row, then a table and a row in
// the shared schema "ddl", round after round, and drops some of its older schemas
// and shared tables.
func ddlClient(conn *sql.Conn, m *ddlModel, rng *rand.Rand, stop *atomic.Bool) {
	exec := func(q string) status {
		_, err := conn.ExecContext(context.Background(), q)
		return classify(err)
	}
	var mine, sharedTables []string
	for !stop.Load() {
		s := m.newName("d")
		st := exec("CREATE DATABASE " + s)
		m.record(m.created, s, st)
		if st == unknown {
			return
		}
		if st == acked {
			mine = append(mine, s)
			tb := s + ".t"
			st = exec("CREATE TABLE " + tb + " (id INT NOT NULL PRIMARY KEY, v INT NOT NULL, who VARCHAR(32))")
			m.record(m.tables, tb, st)
			if st == unknown {
				return
			}
			if st == acked {
				st = exec("INSERT INTO " + tb + " (id, v, who) VALUES (1, 42, 'ddl')")
				m.record(m.rows, tb, st)
				if st == unknown {
					return
				}
			}
		}
		shared := "ddl." + m.newName("t")
		st = exec("CREATE TABLE " + shared + " (id INT NOT NULL PRIMARY KEY, v INT NOT NULL, who VARCHAR(32))")
		m.record(m.tables, shared, st)
		if st == unknown {
			return
		}
		if st == acked {
			// DML in the schema whose writer runs the other clients' DDL.
			st = exec("INSERT INTO " + shared + " (id, v, who) VALUES (1, 7, 'shared')")
			m.record(m.rows, shared, st)
			if st == unknown {
				return
			}
			sharedTables = append(sharedTables, shared)
		}
		if len(sharedTables) > 2 && rng.IntN(3) == 0 {
			i := rng.IntN(len(sharedTables) - 1)
			victim := sharedTables[i]
			sharedTables = append(sharedTables[:i], sharedTables[i+1:]...)
			st = exec("DROP TABLE " + victim)
			m.record(m.dropTbl, victim, st)
			if st == unknown {
				return
			}
		}
		if len(mine) > 2 && rng.IntN(2) == 0 {
			i := rng.IntN(len(mine) - 1) // never the newest
			victim := mine[i]
			mine = append(mine[:i], mine[i+1:]...)
			st = exec("DROP DATABASE " + victim)
			m.record(m.dropped, victim, st)
			if st == unknown {
				return
			}
		}
	}
}

// TestKillDuringDDL kills binlite at random instants while clients run CREATE
// DATABASE, CREATE TABLE, INSERT and DROP DATABASE in a loop, and checks after each
// restart that every acknowledged schema and table exists (and every acknowledged
// drop took effect), and that the schemas, tables and rows in storage are exactly
// what the binary log's DDL and row events say.
func TestKillDuringDDL(t *testing.T) {
	iterations := 8
	if testing.Short() {
		iterations = 3
	}
	const clients = 4
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))

	srv := newServer(t)
	srv.start()
	m := newDDLModel()
	h := newHistory()
	db := srv.openDB()
	if _, err := db.Exec("CREATE DATABASE ddl"); err != nil {
		t.Fatal(err)
	}
	m.record(m.created, "ddl", acked)
	db.Close()

	for i := range iterations {
		db := srv.openDB()
		var stop atomic.Bool
		var wg sync.WaitGroup
		for c := range clients {
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func(crng *rand.Rand) {
				defer wg.Done()
				defer conn.Close()
				ddlClient(conn, m, crng, &stop)
			}(rand.New(rand.NewPCG(rng.Uint64(), uint64(c))))
		}
		delay := randomDelay(rng, 50*time.Millisecond, 800*time.Millisecond)
		time.Sleep(delay) // the random instant of the kill
		srv.kill()
		stop.Store(true)
		waitGroupWithin(t, &wg, 90*time.Second)
		db.Close()

		srv.start()
		rec := verify(t, srv, nil, h)
		if v := m.check(rec.storage); len(v) > 0 {
			t.Fatalf("after restart %d of %s:\n  %v\nserver log:\n%s", srv.starts, srv.dir, v, tail(srv.log(), 3000))
		}
		t.Logf("round %d: killed after %v; %d schemas, log has %d transactions", i+1, delay.Round(time.Millisecond), len(rec.storage), rec.n)
	}
	srv.stop()
}

func waitGroupWithin(t *testing.T, wg *sync.WaitGroup, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("clients did not stop within %v", d)
	}
}
