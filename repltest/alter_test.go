package repltest

import (
	"strings"
	"testing"
)

// TestAlterTableReplicates: ALTER TABLE travels as its text and a replica
// compiles it against its own copy of the definition into the same table: the
// same SQLite schema, the same MySQL definition (SHOW CREATE TABLE), the same
// rows, the AUTO_INCREMENT counter where the source has it. CREATE TABLE ...
// LIKE travels as its text too; CREATE TABLE ... SELECT as the CREATE TABLE of
// the table it made and the rows, in one transaction. A failed ALTER is not
// logged at all.
func TestAlterTableReplicates(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db,
		"CREATE DATABASE alt",
		"CREATE TABLE alt.p (id INT PRIMARY KEY)",
		"CREATE TABLE alt.t (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10) NOT NULL, qty INT, pid INT, KEY (name), FOREIGN KEY (pid) REFERENCES p (id))",
		"INSERT INTO alt.p VALUES (1), (2)",
		"INSERT INTO alt.t (name, qty, pid) VALUES ('a', 1, 1), ('b', NULL, 2), ('c', 3, NULL)",
		"DELETE FROM alt.t WHERE name = 'c'",
		"ALTER TABLE alt.t ADD COLUMN note VARCHAR(5) DEFAULT 'x' AFTER id, ADD COLUMN first INT FIRST",
	)
	// Under strict mode the NULL refuses the change; a session without strict
	// mode converts it to 0 with a warning, and the replica converts it the same.
	wantErr(t, src.db, 1265, "ALTER TABLE alt.t MODIFY qty BIGINT NOT NULL DEFAULT 5")
	c := conn(t, src.db)
	exec(t, c, "SET SESSION sql_mode = ''", "ALTER TABLE alt.t MODIFY qty BIGINT NOT NULL DEFAULT 5")
	exec(t, src.db, "ALTER TABLE alt.t MODIFY name VARCHAR(1) NOT NULL, ADD CONSTRAINT c1 CHECK (qty < 100)")
	wantErr(t, src.db, 1265, "ALTER TABLE alt.t MODIFY note VARCHAR(5), MODIFY name VARCHAR(0)")
	exec(t, src.db,
		"ALTER TABLE alt.t CHANGE name title VARCHAR(20) NOT NULL, DROP COLUMN first",
		"ALTER TABLE alt.t DROP CHECK c1, ADD CONSTRAINT c2 CHECK (qty >= 0)",
		"CREATE TABLE alt.l LIKE alt.t",
		"INSERT INTO alt.t (title, qty, pid) VALUES ('d', 7, 1)",
		"CREATE TABLE alt.s AS SELECT id, title, qty * 2 AS q2, NOW() AS at FROM alt.t",
		"INSERT INTO alt.l (title) VALUES ('in l')",
	)
	assertInSync(t, src.db, rep.db)

	if s, r := sqliteSchema(t, src.dir, "alt"), sqliteSchema(t, rep.dir, "alt"); s != r {
		t.Errorf("SQLite schema of the replica:\n%s\nsource:\n%s", r, s)
	}
	for _, table := range []string{"t", "l", "s"} {
		s := rows(t, src.db, "SHOW CREATE TABLE alt."+table)[0][1]
		r := rows(t, rep.db, "SHOW CREATE TABLE alt."+table)[0][1]
		if s != r {
			t.Errorf("SHOW CREATE TABLE %s on the replica:\n%s\nsource:\n%s", table, r, s)
		}
	}
	want := "CREATE TABLE `t` (\n" +
		"  `id` int NOT NULL AUTO_INCREMENT,\n" +
		"  `note` varchar(5) DEFAULT 'x',\n" +
		"  `title` varchar(20) NOT NULL,\n" +
		"  `qty` bigint NOT NULL DEFAULT '5',\n" +
		"  `pid` int DEFAULT NULL,\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  KEY `name` (`title`),\n" +
		"  KEY `pid` (`pid`),\n" +
		"  CONSTRAINT `t_ibfk_1` FOREIGN KEY (`pid`) REFERENCES `p` (`id`),\n" +
		"  CONSTRAINT `c2` CHECK ((`qty` >= 0))\n" +
		") ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"
	if got := rows(t, rep.db, "SHOW CREATE TABLE alt.t")[0][1]; got != want {
		t.Errorf("SHOW CREATE TABLE t on the replica:\n%s\nwant:\n%s", got, want)
	}
	var got []string
	for _, r := range rows(t, rep.db, "SELECT id, note, title, qty, IFNULL(pid, 'NULL') FROM alt.t ORDER BY id") {
		got = append(got, strings.Join(r, "|"))
	}
	if strings.Join(got, "; ") != "1|x|a|1|1; 2|x|b|0|2; 4|x|d|7|1" {
		t.Errorf("rows of t on the replica: %v", got)
	}
	// CREATE TABLE ... SELECT's NOW() is the source's value: the rows travelled.
	if s, r := str(t, src.db, "SELECT GROUP_CONCAT(at) FROM alt.s"), str(t, rep.db, "SELECT GROUP_CONCAT(at) FROM alt.s"); s != r {
		t.Errorf("alt.s.at: source %s, replica %s", s, r)
	}
}
