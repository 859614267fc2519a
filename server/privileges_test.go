package server_test

// MySQL 8.4's privilege model against a node on loopback with the Go driver:
// each privilege × statement class allowed and refused at the global, schema
// and table levels, grants taking effect for an open session, the attacks of an
// account with no grants, and SHOW GRANTS' text.

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	tn "github.com/binlite/binlite/internal/testnode"
)

// privUser creates user@'%' (password pw), runs grants as root, and returns a
// connection of the user.
func privUser(t *testing.T, n *tn.Node, root *sql.Conn, user string, grants ...string) *sql.Conn {
	t.Helper()
	tn.Exec(t, root, "CREATE USER "+user+"@'%' IDENTIFIED BY 'pw'")
	for _, g := range grants {
		tn.Exec(t, root, g)
	}
	return mustUserConn(t, n, user, "pw")
}

func privFixture(t *testing.T) (*tn.Node, *sql.Conn) {
	t.Helper()
	n := tn.Start(t)
	root := tn.Conn(t, n.DB(""))
	for _, q := range []string{
		"CREATE DATABASE app", "CREATE DATABASE other",
		"CREATE TABLE app.t (id INT PRIMARY KEY, v INT)", "CREATE TABLE app.u (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE other.s (id INT PRIMARY KEY, secret VARCHAR(10))",
		"INSERT INTO app.t VALUES (1, 10), (2, 20)", "INSERT INTO app.u VALUES (1, 100)", "INSERT INTO other.s VALUES (1, 'x')",
	} {
		tn.Exec(t, root, q)
	}
	return n, root
}

type privCase struct {
	query string
	code  uint16 // 0: allowed
	msg   string // part of the error message
}

func runPrivCases(t *testing.T, c *sql.Conn, who string, cases []privCase) {
	t.Helper()
	for _, pc := range cases {
		_, err := tn.TryExec(c, pc.query)
		if pc.code == 0 {
			if err != nil {
				t.Errorf("%s: %s: %v, want it allowed", who, pc.query, err)
			}
			continue
		}
		var me *mysql.MySQLError
		switch {
		case !errors.As(err, &me):
			t.Errorf("%s: %s: %v, want error %d", who, pc.query, err, pc.code)
		case me.Number != pc.code || !strings.Contains(me.Message, pc.msg):
			t.Errorf("%s: %s: error %d %q, want %d containing %q", who, pc.query, me.Number, me.Message, pc.code, pc.msg)
		}
	}
}

func TestPrivilegesTableLevel(t *testing.T) {
	n, root := privFixture(t)
	c := privUser(t, n, root, "tbl", "GRANT SELECT, INSERT ON app.t TO tbl@'%'")
	denied := func(p, table string) string {
		return p + " command denied to user 'tbl'@'localhost' for table '" + table + "'"
	}
	runPrivCases(t, c, "table SELECT, INSERT on app.t", []privCase{
		{"SELECT * FROM app.t", 0, ""},
		{"INSERT INTO app.t VALUES (3, 30)", 0, ""},
		{"INSERT INTO app.t SELECT id + 10, v FROM app.t", 0, ""},
		{"SELECT * FROM app.u", 1142, denied("SELECT", "app.u")},
		{"SELECT * FROM app.t JOIN app.u USING (id)", 1142, denied("SELECT", "app.u")},
		{"SELECT * FROM app.t WHERE id IN (SELECT id FROM app.u)", 1142, denied("SELECT", "app.u")},
		{"SELECT (SELECT secret FROM other.s LIMIT 1)", 1142, denied("SELECT", "other.s")},
		{"INSERT INTO app.t SELECT id + 20, v FROM app.u", 1142, denied("SELECT", "app.u")},
		{"UPDATE app.t SET v = 1", 1142, denied("UPDATE", "app.t")},
		{"DELETE FROM app.t", 1142, denied("DELETE", "app.t")},
		{"REPLACE INTO app.t VALUES (1, 1)", 1142, denied("DELETE", "app.t")},
		{"INSERT INTO app.t VALUES (1, 1) ON DUPLICATE KEY UPDATE v = 2", 1142, denied("UPDATE", "app.t")},
		{"CREATE TABLE app.n (id INT)", 1142, denied("CREATE", "app.n")},
		{"DROP TABLE app.t", 1142, denied("DROP", "app.t")},
		{"TRUNCATE TABLE app.t", 1142, denied("DROP", "app.t")},
		{"ALTER TABLE app.t ADD COLUMN w INT", 1142, denied("ALTER", "app.t")},
		{"CREATE INDEX iv ON app.t (v)", 1142, denied("INDEX", "app.t")},
		{"RENAME TABLE app.t TO app.t2", 1142, denied("ALTER", "app.t")},
		{"CREATE DATABASE newdb", 1044, "Access denied for user 'tbl'@'%' to database 'newdb'"},
		{"DROP DATABASE app", 1044, "Access denied for user 'tbl'@'%' to database 'app'"},
		{"LOCK TABLES app.t READ", 1044, "to database 'app'"},
		{"SHOW CREATE TABLE app.u", 1142, "SHOW command denied to user 'tbl'@'localhost' for table 'app.u'"},
		{"SHOW CREATE TABLE app.t", 0, ""},
		{"USE app", 0, ""},
		{"USE other", 1044, "Access denied for user 'tbl'@'%' to database 'other'"},
	})
	// SHOW TABLES, SHOW DATABASES and information_schema list what the account can see.
	if got := tn.Rows(t, c, "SHOW TABLES FROM app"); len(got) != 1 || got[0][0] != "t" {
		t.Errorf("SHOW TABLES FROM app = %v, want [t]", got)
	}
	if got := tn.Rows(t, c, "SHOW DATABASES"); strings.Contains(privRows(got), "other") || strings.Contains(privRows(got), "mysql") || !strings.Contains(privRows(got), "app") {
		t.Errorf("SHOW DATABASES = %v", got)
	}
	if got := tn.Rows(t, c, "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ('information_schema', 'performance_schema') ORDER BY 1, 2"); privRows(got) != "app t" {
		t.Errorf("information_schema.TABLES = %v, want app.t only", got)
	}
	if got := tn.Rows(t, c, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN ('information_schema', 'performance_schema')"); privRows(got) != "app" {
		t.Errorf("information_schema.SCHEMATA = %v", got)
	}
	if got := tn.Rows(t, c, "SELECT DISTINCT TABLE_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'other'"); len(got) != 0 {
		t.Errorf("information_schema.COLUMNS shows other's tables: %v", got)
	}
}

func privRows(rows [][]string) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, strings.Join(r, " "))
	}
	return strings.Join(parts, ", ")
}

func TestPrivilegesSchemaLevel(t *testing.T) {
	n, root := privFixture(t)
	c := privUser(t, n, root, "sch", "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, INDEX, LOCK TABLES, CREATE TEMPORARY TABLES ON app.* TO sch@'%'")
	runPrivCases(t, c, "schema privileges on app", []privCase{
		{"SELECT * FROM app.t JOIN app.u USING (id)", 0, ""},
		{"UPDATE app.t SET v = v + 1 WHERE id = 1", 0, ""},
		{"DELETE FROM app.u WHERE id = 5", 0, ""},
		{"CREATE TABLE app.n (id INT PRIMARY KEY)", 0, ""},
		{"CREATE INDEX iv ON app.t (v)", 0, ""},
		{"ALTER TABLE app.n ADD COLUMN w INT", 0, ""},
		{"RENAME TABLE app.n TO app.n2", 0, ""},
		{"TRUNCATE TABLE app.n2", 0, ""},
		{"DROP TABLE app.n2", 0, ""},
		{"LOCK TABLES app.t READ", 0, ""},
		{"UNLOCK TABLES", 0, ""},
		{"CREATE TEMPORARY TABLE app.tmp (id INT)", 0, ""},
		{"INSERT INTO app.tmp VALUES (1)", 0, ""},
		{"CREATE DATABASE app2", 1044, "to database 'app2'"},
		{"SELECT * FROM other.s", 1142, "SELECT command denied to user 'sch'@'localhost' for table 'other.s'"},
		{"UPDATE app.t, other.s SET app.t.v = 1 WHERE app.t.id = other.s.id", 1142, "for table 'other.s'"},
		{"INSERT INTO other.s VALUES (2, 'y')", 1142, "INSERT command denied"},
		{"CREATE TABLE other.x (id INT)", 1142, "CREATE command denied"},
	})
	// The grant takes effect for the open session's next statement; so does the revoke.
	tn.QueryError(t, c, 1142, "42000", "SELECT * FROM other.s")
	tn.Exec(t, root, "GRANT SELECT ON other.* TO sch@'%'")
	if got := tn.Int(t, c, "SELECT COUNT(*) FROM other.s"); got != 1 {
		t.Errorf("after GRANT: %d rows", got)
	}
	tn.Exec(t, root, "REVOKE SELECT ON other.* FROM sch@'%'")
	tn.QueryError(t, c, 1142, "42000", "SELECT * FROM other.s")
	// Prepared statements are checked at prepare and again at every execution.
	st, err := c.PrepareContext(t.Context(), "SELECT v FROM app.t WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v int
	if err := st.QueryRowContext(t.Context(), 1).Scan(&v); err != nil {
		t.Fatalf("prepared SELECT: %v", err)
	}
	tn.Exec(t, root, "REVOKE SELECT ON app.* FROM sch@'%'")
	tn.WantError(t, st.QueryRowContext(t.Context(), 1).Scan(&v), 1142, "42000")
	if _, err := c.PrepareContext(t.Context(), "SELECT v FROM app.u WHERE id = ?"); err == nil {
		t.Errorf("PREPARE of a SELECT without SELECT succeeded")
	} else {
		tn.WantError(t, err, 1142, "42000")
	}
	// UPDATE with a WHERE needs SELECT on the columns it reads (1143), as MySQL's.
	tn.ExecError(t, c, 1143, "42000", "UPDATE app.t SET v = 1 WHERE id = 1")
	tn.Exec(t, c, "UPDATE app.t SET v = 1")
}

func TestPrivilegesGlobalLevel(t *testing.T) {
	n, root := privFixture(t)
	reader := privUser(t, n, root, "reader", "GRANT SELECT ON *.* TO reader@'%'")
	runPrivCases(t, reader, "global SELECT", []privCase{
		{"SELECT * FROM app.t JOIN other.s USING (id)", 0, ""},
		{"SELECT COUNT(*) FROM mysql.user", 0, ""},
		{"INSERT INTO app.t VALUES (9, 9)", 1142, "INSERT command denied to user 'reader'@'localhost' for table 'app.t'"},
		{"SET GLOBAL max_connections = 200", 1227, "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation"},
		{"FLUSH TABLES", 1227, "the RELOAD privilege(s)"},
		{"FLUSH BINARY LOGS", 1227, "the RELOAD privilege(s)"},
		{"SHOW BINARY LOG STATUS", 1227, "the SUPER, REPLICATION CLIENT privilege(s)"},
		{"SHOW REPLICA STATUS", 1227, "the SUPER, REPLICATION CLIENT privilege(s)"},
		{"SHOW BINARY LOGS", 1227, "the SUPER, REPLICATION CLIENT privilege(s)"},
		{"SHOW REPLICAS", 1227, "the REPLICATION SLAVE privilege(s)"},
		{"CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1'", 1227, "the SUPER or REPLICATION_SLAVE_ADMIN privilege(s)"},
		{"START REPLICA", 1227, "the SUPER or REPLICATION_SLAVE_ADMIN privilege(s)"},
		{"STOP REPLICA", 1227, "the SUPER or REPLICATION_SLAVE_ADMIN privilege(s)"},
		{"RESET REPLICA", 1227, "the RELOAD privilege(s)"},
		{"PURGE BINARY LOGS BEFORE NOW()", 1227, "the SUPER or BINLOG_ADMIN privilege(s)"},
		{"RESET BINARY LOGS AND GTIDS", 1227, "the RELOAD privilege(s)"},
		{"CREATE USER x@'%'", 1227, "the CREATE USER privilege(s)"},
		{"DROP USER reader@'%'", 1227, "the CREATE USER privilege(s)"},
		{"ALTER USER root@'localhost' IDENTIFIED BY 'x'", 1227, "the CREATE USER privilege(s)"},
		{"ALTER USER reader@'%' IDENTIFIED BY 'pw2'", 0, ""},
		{"GRANT SELECT ON app.* TO reader@'%'", 1044, "Access denied for user 'reader'@'%' to database 'app'"},
		{"GRANT SELECT ON *.* TO reader@'%'", 1045, "Access denied for user 'reader'@'%' (using password: YES)"},
		{"GRANT SELECT ON app.t TO reader@'%'", 1142, "GRANT OPTION command denied"},
	})
	// SHOW PROCESSLIST: one's own sessions without PROCESS, every session with it.
	if got := tn.Rows(t, reader, "SHOW PROCESSLIST"); len(got) != 1 || got[0][1] != "reader" {
		t.Errorf("SHOW PROCESSLIST without PROCESS = %v", got)
	}
	if got := tn.Rows(t, reader, "SELECT USER FROM information_schema.PROCESSLIST"); len(got) != 1 {
		t.Errorf("information_schema.PROCESSLIST without PROCESS = %v", got)
	}
	admin := privUser(t, n, root, "admin", "GRANT PROCESS, RELOAD, REPLICATION CLIENT, SYSTEM_VARIABLES_ADMIN, BINLOG_ADMIN, REPLICATION_SLAVE_ADMIN, CREATE USER ON *.* TO admin@'%'")
	runPrivCases(t, admin, "admin privileges", []privCase{
		{"SET GLOBAL max_connections = 200", 0, ""},
		{"FLUSH TABLES", 0, ""},
		{"SHOW BINARY LOG STATUS", 0, ""},
		{"SHOW REPLICA STATUS", 0, ""},
		{"PURGE BINARY LOGS BEFORE '2000-01-01 00:00:00'", 0, ""},
		{"STOP REPLICA", 1200, "not configured as replica"}, // past the privilege check
		{"CREATE USER x@'%'", 0, ""},
		{"DROP USER x@'%'", 0, ""},
		{"SELECT * FROM app.t", 1142, "SELECT command denied"},
		{"SHOW GRANTS FOR reader@'%'", 1044, "to database 'mysql'"},
	})
	if got := len(tn.Rows(t, admin, "SHOW PROCESSLIST")); got < 3 {
		t.Errorf("SHOW PROCESSLIST with PROCESS lists %d sessions", got)
	}
	// SUPER stands for the dynamic privileges MySQL lets it stand for.
	super := privUser(t, n, root, "sup", "GRANT SUPER ON *.* TO sup@'%'")
	runPrivCases(t, super, "SUPER", []privCase{
		{"SET GLOBAL max_connections = 300", 0, ""},
		{"STOP REPLICA", 1200, "not configured as replica"},
		{"PURGE BINARY LOGS BEFORE '2000-01-01 00:00:00'", 0, ""},
		{"FLUSH TABLES", 1227, "RELOAD"},
	})
}

func TestPrivilegesAttackWithoutGrants(t *testing.T) {
	n, root := privFixture(t)
	c := privUser(t, n, root, "nobody")
	for _, q := range []string{
		"SELECT authentication_string FROM mysql.user",
		"SELECT * FROM app.t",
		"SELECT * FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'mysql' AND TABLE_NAME = 'user' AND (SELECT COUNT(*) FROM mysql.user) > 0",
	} {
		tn.QueryError(t, c, 1142, "42000", q)
	}
	tn.ExecError(t, c, 1044, "42000", "USE mysql")
	tn.ExecError(t, c, 1142, "42000", "UPDATE mysql.user SET privileges = 'ALL,SUPER' WHERE User = 'nobody'")
	tn.ExecError(t, c, 1142, "42000", "INSERT INTO mysql.db VALUES ('%', 'app', 'nobody', 'SELECT')")
	tn.ExecError(t, c, 1044, "42000", "DROP DATABASE mysql")
	tn.ExecError(t, c, 1044, "42000", "DROP DATABASE app")
	tn.ExecError(t, c, 1044, "42000", "CREATE DATABASE evil")
	tn.ExecError(t, c, 1142, "42000", "CREATE TABLE app.evil (id INT)")
	tn.ExecError(t, c, 1227, "42000", "CREATE USER backdoor@'%'")
	tn.ExecError(t, c, 1045, "28000", "GRANT ALL ON *.* TO nobody@'%'")
	// The internal tables do not exist for any client, root included.
	for _, who := range []*sql.Conn{c, root} {
		tn.QueryError(t, who, 1146, "42S02", "SELECT * FROM app.binlite_gtid_applied")
		tn.ExecError(t, who, 1146, "42S02", "DELETE FROM app.binlite_gtid_applied")
		tn.ExecError(t, who, 1146, "42S02", "INSERT INTO mysql.binlite_catalog VALUES ('x', 'y')")
	}
	if got := tn.Rows(t, c, "SHOW DATABASES"); privRows(got) != "information_schema, performance_schema" {
		t.Errorf("SHOW DATABASES without grants = %v", got)
	}
	if got := tn.Rows(t, c, "SHOW GRANTS"); privRows(got) != "GRANT USAGE ON *.* TO `nobody`@`%`" {
		t.Errorf("SHOW GRANTS = %v", got)
	}
	// Nothing changed: root still alone, mysql still there, no new account.
	if got := tn.Int(t, root, "SELECT COUNT(*) FROM mysql.user WHERE User IN ('backdoor') OR privileges LIKE '%SUPER%'"); got != 0 {
		t.Errorf("accounts with SUPER or backdoor: %d", got)
	}
	// Reconnected, the account is still without privileges.
	c2 := mustUserConn(t, n, "nobody", "pw")
	tn.ExecError(t, c2, 1227, "42000", "CREATE USER backdoor@'%'")
}

func TestPrivilegesGrantOptionAndShowGrants(t *testing.T) {
	n, root := privFixture(t)
	tn.Exec(t, root, "CREATE USER plain@'%'")
	boss := privUser(t, n, root, "boss", "GRANT SELECT, INSERT ON app.* TO boss@'%' WITH GRANT OPTION", "GRANT UPDATE ON app.t TO boss@'%'")
	// A grantor grants what it holds with GRANT OPTION, nothing more.
	tn.Exec(t, boss, "GRANT SELECT ON app.* TO plain@'%'")
	tn.Exec(t, boss, "GRANT INSERT ON app.u TO plain@'%'")
	tn.ExecError(t, boss, 1044, "42000", "GRANT DELETE ON app.* TO plain@'%'")
	tn.ExecError(t, boss, 1044, "42000", "GRANT SELECT ON other.* TO plain@'%'")
	// GRANT OPTION on app.* covers app.t, where boss holds UPDATE: MySQL lets it grant that.
	tn.Exec(t, boss, "GRANT UPDATE ON app.t TO plain@'%'")
	tn.ExecError(t, boss, 1142, "42000", "GRANT DELETE ON app.t TO plain@'%'")
	tn.Exec(t, root, "REVOKE UPDATE ON app.t FROM plain@'%'")
	tn.ExecError(t, boss, 1410, "42000", "GRANT SELECT ON app.* TO ghost@'%'")

	want := map[string][]string{
		"plain": {"GRANT USAGE ON *.* TO `plain`@`%`", "GRANT SELECT ON `app`.* TO `plain`@`%`", "GRANT INSERT ON `app`.`u` TO `plain`@`%`"},
		"boss":  {"GRANT USAGE ON *.* TO `boss`@`%`", "GRANT SELECT, INSERT ON `app`.* TO `boss`@`%` WITH GRANT OPTION", "GRANT UPDATE ON `app`.`t` TO `boss`@`%`"},
	}
	for user, lines := range want {
		cols, rows := tn.Result(t, root, "SHOW GRANTS FOR "+user+"@'%'")
		if cols[0] != "Grants for "+user+"@%" {
			t.Errorf("SHOW GRANTS column %q", cols[0])
		}
		var got []string
		for _, r := range rows {
			got = append(got, r[0])
		}
		if strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("SHOW GRANTS FOR %s:\n%s\nwant\n%s", user, strings.Join(got, "\n"), strings.Join(lines, "\n"))
		}
	}
	tn.Exec(t, root, "GRANT ALL PRIVILEGES ON other.* TO plain@'%'")
	tn.Exec(t, root, "GRANT REPLICATION SLAVE, BINLOG_ADMIN, CONNECTION_ADMIN ON *.* TO plain@'%'")
	got := privRows(tn.Rows(t, root, "SHOW GRANTS FOR plain@'%'"))
	for _, w := range []string{"GRANT REPLICATION SLAVE ON *.* TO `plain`@`%`", "GRANT BINLOG_ADMIN,CONNECTION_ADMIN ON *.* TO `plain`@`%`", "GRANT ALL PRIVILEGES ON `other`.* TO `plain`@`%`"} {
		if !strings.Contains(got, w) {
			t.Errorf("SHOW GRANTS FOR plain lacks %q: %s", w, got)
		}
	}
	// REVOKE at each level, then REVOKE ALL PRIVILEGES, GRANT OPTION.
	tn.Exec(t, root, "REVOKE INSERT ON app.u FROM plain@'%'")
	tn.Exec(t, root, "REVOKE BINLOG_ADMIN ON *.* FROM plain@'%'")
	tn.ExecError(t, root, 1141, "42000", "REVOKE SELECT ON nowhere.* FROM plain@'%'")
	tn.Exec(t, root, "REVOKE ALL PRIVILEGES, GRANT OPTION FROM plain@'%'")
	if got := privRows(tn.Rows(t, root, "SHOW GRANTS FOR plain@'%'")); got != "GRANT USAGE ON *.* TO `plain`@`%`" {
		t.Errorf("after REVOKE ALL: %s", got)
	}
	// Level checks: a global privilege on a schema, a schema privilege on a table.
	tn.ExecError(t, root, 1221, "HY000", "GRANT SUPER ON app.* TO plain@'%'")
	tn.ExecError(t, root, 1144, "42000", "GRANT LOCK TABLES ON app.t TO plain@'%'")
	tn.ExecError(t, root, 1235, "42000", "GRANT SELECT (id) ON app.t TO plain@'%'")
	tn.ExecError(t, root, 1235, "42000", "CREATE ROLE r1")
	// DROP USER takes the account's grants with it.
	tn.Exec(t, root, "DROP USER boss@'%'")
	if got := tn.Int(t, root, "SELECT COUNT(*) FROM mysql.db WHERE User = 'boss'"); got != 0 {
		t.Errorf("mysql.db rows of a dropped user: %d", got)
	}
	// A GRANT ALL ON *.* account checks nothing further: root-like.
	all := privUser(t, n, root, "allp", "GRANT ALL ON *.* TO allp@'%'")
	tn.Exec(t, all, "CREATE DATABASE made")
	tn.Exec(t, all, "DROP DATABASE made")
	tn.ExecError(t, all, 1045, "28000", "GRANT SELECT ON *.* TO plain@'%'") // ALL without GRANT OPTION
}
