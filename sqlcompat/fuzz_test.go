package sqlcompat

import "testing"

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		seedCreate, sysbenchCreate, "SELECT @@version_comment LIMIT 1", "INSERT INTO t SET a=1 ON DUPLICATE KEY UPDATE a=VALUES(a)",
		"SET NAMES utf8mb4", "SHOW FULL TABLES FROM x LIKE 'a'", "ALTER TABLE t ADD (a INT), DROP b", "CHANGE MASTER TO MASTER_HOST='h'",
		"/*!40101 SET x=1 */", "SELECT 'a\\'b', `c``d`, x'00', b'1', @x, ?", "GRANT ALL ON *.* TO u@h", "CREATE TABLE t (a INT, KEY (a(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		_, _ = Parse(sql, testCtx())
		_, _ = Parse(sql, nil)
		for _, s := range Split(sql) {
			_, _ = Parse(s, testCtx())
		}
	})
}
