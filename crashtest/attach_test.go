package crashtest

import (
	"fmt"
	"testing"
)

// TestReadsNamingManySchemas was found by this suite's verifier, which reads every
// schema after a restart: a connection with no current schema that reads
// `schema.table` of more than ten different schemas fails with "too many attached
// databases - max 10". Reads without a current schema go to a shared pool of SQLite
// connections that ATTACH each schema a query names and never detach them; SQLite
// allows ten attachments per connection. MySQL has no such limit.
func TestReadsNamingManySchemas(t *testing.T) {
	const schemas = 12
	srv := newServer(t)
	srv.start()
	db := srv.openDB()
	defer db.Close()
	for i := range schemas {
		for _, q := range []string{
			fmt.Sprintf("CREATE DATABASE r%d", i),
			fmt.Sprintf("CREATE TABLE r%d.t (id INT NOT NULL PRIMARY KEY)", i),
			fmt.Sprintf("INSERT INTO r%d.t (id) VALUES (%d)", i, i),
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := range schemas {
		var id int
		q := fmt.Sprintf("SELECT id FROM r%d.t", i)
		if err := conn.QueryRowContext(t.Context(), q).Scan(&id); err != nil {
			t.Fatalf("%s (the %dth schema this connection reads without USE): %v", q, i+1, err)
		}
		if id != i {
			t.Fatalf("%s = %d, want %d", q, id, i)
		}
	}
	srv.stop()
}
