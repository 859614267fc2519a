package sqlcompat

import (
	"database/sql"
	"testing"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/decimal"
)

// Text columns declare MySQL collations, which the engine registers on its
// connections, and the engine's binlite_autoinc hands out InnoDB's ids; here
// SQLite's own AUTOINCREMENT stands in for it (NULL and 0 pick the next id).
func init() {
	sql.Register("sqlite3_autoinc", &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		if err := collation.Register(c.RegisterCollation); err != nil {
			return err
		}
		if err := c.RegisterCollation("binlite_decimal", decimal.Compare); err != nil {
			return err
		}
		return c.RegisterFunc(AutoIncFunc, func(v any) any {
			switch x := v.(type) {
			case int64:
				if x == 0 {
					return nil
				}
			case string:
				if x == "0" {
					return nil
				}
			}
			return v
		}, false)
	}})
}

// execMySQL translates one MySQL statement and runs it on db, binding args
// the way the engine will (NULL for a 0 in an AUTO_INCREMENT placeholder).
func execMySQL(t *testing.T, db *sql.DB, ctx *Context, stmt string, args ...any) {
	t.Helper()
	st, err := Parse(stmt, ctx)
	if err != nil {
		t.Fatalf("Parse(%q): %v", stmt, err)
	}
	switch s := st.(type) {
	case *DDL:
		for _, q := range s.SQLite {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%q → %q: %v", stmt, q, err)
			}
		}
	case *Query:
		if s.NumParams != len(args) {
			t.Fatalf("%q: %d params, %d args", stmt, s.NumParams, len(args))
		}
		for _, i := range s.ZeroToNullParams {
			if args[i] == 0 {
				args[i] = nil
			}
		}
		if _, err := db.Exec(s.SQLite, args...); err != nil {
			t.Fatalf("%q → %q: %v", stmt, s.SQLite, err)
		}
	default:
		t.Fatalf("%q parsed to %T", stmt, st)
	}
}

func queryInts(t *testing.T, db *sql.DB, ctx *Context, stmt string, args ...any) []int64 {
	t.Helper()
	q := mustQueryCtx(t, ctx, stmt)
	rows, err := db.Query(q.SQLite, args...)
	if err != nil {
		t.Fatalf("%q → %q: %v", stmt, q.SQLite, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func mustQueryCtx(t *testing.T, ctx *Context, stmt string) *Query {
	t.Helper()
	st, err := Parse(stmt, ctx)
	if err != nil {
		t.Fatalf("Parse(%q): %v", stmt, err)
	}
	q, ok := st.(*Query)
	if !ok {
		t.Fatalf("Parse(%q) = %T", stmt, st)
	}
	return q
}

func TestSQLiteIntegration(t *testing.T) {
	db, err := sql.Open("sqlite3_autoinc", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := testCtx()
	ctx.AutoInc = func(schema, table string) (string, bool) { return "id", table == "sbtest1" || table == "sbtest" }

	// sysbench prepare
	execMySQL(t, db, ctx, "DROP TABLE IF EXISTS sbtest1")
	execMySQL(t, db, ctx, sysbenchCreate)
	execMySQL(t, db, ctx, "INSERT INTO sbtest1(k, c, pad) VALUES(1,'a','b'),(2,'c','d'),(3,'e','f')")
	execMySQL(t, db, ctx, "CREATE INDEX k_1 ON sbtest1(k)")
	// oltp_insert: id 0 means "next id", as literal and as placeholder
	execMySQL(t, db, ctx, "INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, 5012, 'x', 'y')")
	execMySQL(t, db, ctx, "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", 0, 7, "c", "p")
	execMySQL(t, db, ctx, "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", 10, 8, "c", "p")
	if got := queryInts(t, db, ctx, "SELECT id FROM sbtest.sbtest1 ORDER BY id"); len(got) != 6 || got[3] != 4 || got[4] != 5 || got[5] != 10 {
		t.Fatalf("ids = %v; want [1 2 3 4 5 10]", got)
	}
	// oltp_read_write statements
	if got := queryInts(t, db, ctx, "SELECT k FROM sbtest1 WHERE id=?", 4); len(got) != 1 || got[0] != 5012 {
		t.Errorf("point select = %v", got)
	}
	if got := queryInts(t, db, ctx, "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", 1, 3); len(got) != 1 || got[0] != 6 {
		t.Errorf("sum range = %v", got)
	}
	queryInts(t, db, ctx, "SELECT k FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", 1, 3)
	queryInts(t, db, ctx, "SELECT DISTINCT k FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY k", 1, 3)
	execMySQL(t, db, ctx, "UPDATE sbtest1 SET k=k+1 WHERE id=?", 1)
	execMySQL(t, db, ctx, "UPDATE sbtest1 SET c=? WHERE id=?", "zz", 2)
	execMySQL(t, db, ctx, "DELETE FROM sbtest1 WHERE id=?", 3)
	if got := queryInts(t, db, ctx, "SELECT k FROM sbtest1 WHERE id IN (1, 3) FOR UPDATE"); len(got) != 1 || got[0] != 2 {
		t.Errorf("after update/delete = %v", got)
	}

	// the seed's table, upserts, INSERT ... SET, ALTER, TRUNCATE
	execMySQL(t, db, ctx, seedCreate)
	execMySQL(t, db, ctx, "INSERT INTO `sbtest` (`id`, `k`) VALUES (0, 1)")
	execMySQL(t, db, ctx, "INSERT INTO `sbtest` (`id`, `k`) VALUES (0, 2)")
	if got := queryInts(t, db, ctx, "SELECT id FROM sbtest ORDER BY id"); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("seed ids = %v; want [1 2]", got)
	}
	execMySQL(t, db, ctx, "INSERT INTO sbtest (id, k) VALUES (2, 20) ON DUPLICATE KEY UPDATE k = VALUES(k) + 1")
	execMySQL(t, db, ctx, "INSERT IGNORE INTO sbtest (id, k) VALUES (1, 99)")
	execMySQL(t, db, ctx, "INSERT INTO sbtest SET id = 0, k = 30, c = \"it\\'s\"")
	if got := queryInts(t, db, ctx, "SELECT k FROM sbtest ORDER BY id"); len(got) != 3 || got[0] != 1 || got[1] != 21 || got[2] != 30 {
		t.Errorf("seed k = %v; want [1 21 30]", got)
	}
	execMySQL(t, db, ctx, "ALTER TABLE sbtest ADD COLUMN extra INT NOT NULL DEFAULT 5, ADD UNIQUE KEY uk (extra, id), DROP KEY k")
	execMySQL(t, db, ctx, "CREATE TABLE IF NOT EXISTS wide (a BIGINT(20) UNSIGNED NOT NULL, b VARCHAR(32) CHARACTER SET utf8mb4 DEFAULT NULL COMMENT 'x', e ENUM('a','b') DEFAULT 'a', "+
		"ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, d DECIMAL(10,2) DEFAULT -1.5, PRIMARY KEY (a, b), UNIQUE KEY uk (b(10)), KEY (d), KEY (d)) ENGINE=InnoDB")
	execMySQL(t, db, ctx, "REPLACE INTO wide (a, b) VALUES (1, 'x'), (1, 'x')")
	if got := queryInts(t, db, ctx, "SELECT COUNT(*) FROM wide"); len(got) != 1 || got[0] != 1 {
		t.Errorf("wide count = %v", got)
	}
	execMySQL(t, db, ctx, "TRUNCATE TABLE wide")
	execMySQL(t, db, ctx, "DROP INDEX uk ON sbtest")
	execMySQL(t, db, ctx, "RENAME TABLE wide TO wider")
	execMySQL(t, db, ctx, "DROP TABLE IF EXISTS wider, sbtest")
	if got := queryInts(t, db, ctx, "SELECT @@autocommit"); len(got) != 1 || got[0] != 1 {
		t.Errorf("@@autocommit = %v", got)
	}
}
