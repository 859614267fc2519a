package compiler

import (
	"strconv"
	"testing"
)

// BenchmarkQuery: a cached plan (prepared statements, repeated text) and a new
// text each time (text protocol with literals), on sysbench's point select.
func BenchmarkQuery(b *testing.B) {
	cat := testCatalog{"d.sbtest1": mustTable(b, "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT '0', c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))")}
	b.Run("hit", func(b *testing.B) {
		c := NewCache(4096)
		for i := 0; i < b.N; i++ {
			c.Query("SELECT c FROM sbtest1 WHERE id=?", "d", cat)
		}
	})
	b.Run("miss", func(b *testing.B) {
		c := NewCache(4096)
		for i := 0; i < b.N; i++ {
			c.Query("SELECT c FROM sbtest1 WHERE id="+strconv.Itoa(i), "d", cat)
		}
	})
}

// BenchmarkEmit: SQLite SQL for a prepared statement's text (cached) and for
// sysbench's text-protocol INSERT, new values each time (parsed and emitted).
func BenchmarkEmit(b *testing.B) {
	cat := testCatalog{"d.sbtest1": mustTable(b, "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT '0', c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))")}
	b.Run("prepared", func(b *testing.B) {
		c := NewCache(4096)
		for i := 0; i < b.N; i++ {
			c.Emit("UPDATE sbtest1 SET k=k+1 WHERE id=?", "d", "utf8mb4_general_ci", cat)
		}
	})
	b.Run("text-insert", func(b *testing.B) {
		c := NewCache(4096)
		for i := 0; i < b.N; i++ {
			c.Emit("INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, "+strconv.Itoa(i)+", '12753605448-93539302555-72247844980-30936104622-52696814896-82110206642-93209730343-10940864896-28606053106-55942285503', '14309211695-71287112783-42546205522-03941073353-22482610423')", "d", "utf8mb4_general_ci", cat)
		}
	})
}

// BenchmarkEmitFunctions: a new statement text of nested string functions,
// typed and emitted (collations and types are worked out once per
// expression).
func BenchmarkEmitFunctions(b *testing.B) {
	cat := testCatalog{"d.t": mustTable(b, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40), w VARCHAR(40) COLLATE utf8mb4_bin)")}
	c := NewCache(4096)
	for i := 0; i < b.N; i++ {
		c.Emit("SELECT UPPER(LOWER(CONCAT(TRIM(v), LPAD(w, "+strconv.Itoa(i)+", 'x'), REPLACE(UPPER(LOWER(REVERSE(v))), 'a', w)))), LOCATE('a', CONCAT(v, w)) FROM t", "d", "utf8mb4_general_ci", cat)
	}
}
