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
