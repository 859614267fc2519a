package sqlcompat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

func TestParseStatements(t *testing.T) {
	tests := []struct {
		sql  string
		want Statement
	}{
		{"BEGIN", &Begin{}},
		{"begin work;", &Begin{}},
		{"START TRANSACTION", &Begin{}},
		{"START TRANSACTION READ ONLY", &Begin{ReadOnly: true}},
		{"START TRANSACTION READ WRITE", &Begin{}},
		{"START TRANSACTION WITH CONSISTENT SNAPSHOT, READ WRITE", &Begin{ConsistentSnapshot: true}},
		{"COMMIT", &Commit{}},
		{"COMMIT WORK", &Commit{}},
		{"ROLLBACK", &Rollback{}},
		{"ROLLBACK WORK", &Rollback{}},
		{"SAVEPOINT sp1", &Savepoint{Name: "sp1"}},
		{"ROLLBACK TO sp1", &RollbackTo{Name: "sp1"}},
		{"ROLLBACK WORK TO SAVEPOINT `sp1`", &RollbackTo{Name: "sp1"}},
		{"RELEASE SAVEPOINT sp1", &Release{Name: "sp1"}},

		{"USE `db1`", &Use{DB: "db1"}},
		{"CREATE DATABASE d", &CreateDatabase{Name: "d"}},
		{"CREATE SCHEMA IF NOT EXISTS `d` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", &CreateDatabase{Name: "d", IfNotExists: true}},
		{"/*!40000 CREATE DATABASE IF NOT EXISTS `d` */ /*!40100 DEFAULT CHARACTER SET latin1 */", &CreateDatabase{Name: "d", IfNotExists: true}},
		{"DROP DATABASE d", &DropDatabase{Name: "d"}},
		{"DROP SCHEMA IF EXISTS d", &DropDatabase{Name: "d", IfExists: true}},

		{"FLUSH BINARY LOGS", &FlushBinaryLogs{}},
		{"FLUSH LOGS", &FlushBinaryLogs{}},
		{"FLUSH NO_WRITE_TO_BINLOG BINARY LOGS", &FlushBinaryLogs{}},
		{"FLUSH PRIVILEGES", &FlushOther{What: "PRIVILEGES"}},
		{"FLUSH TABLES", &FlushOther{What: "TABLES"}},
		{"PURGE BINARY LOGS TO 'binlog.000003'", &PurgeBinaryLogs{To: "binlog.000003"}},
		{"PURGE MASTER LOGS BEFORE '2024-01-02 03:04:05'", &PurgeBinaryLogs{Before: "2024-01-02 03:04:05"}},
		{"PURGE BINARY LOGS BEFORE NOW() - INTERVAL 3 DAY", &PurgeBinaryLogs{Before: "NOW() - INTERVAL 3 DAY"}},
		{"RESET BINARY LOGS AND GTIDS", &ResetBinaryLogs{}},
		{"RESET MASTER", &ResetBinaryLogs{}},

		{"CHANGE REPLICATION SOURCE TO SOURCE_HOST='10.0.0.1', SOURCE_PORT=3306, SOURCE_USER='repl', SOURCE_PASSWORD='pw', SOURCE_AUTO_POSITION=1",
			&ChangeSource{Options: map[string]any{"SOURCE_HOST": "10.0.0.1", "SOURCE_PORT": int64(3306), "SOURCE_USER": "repl", "SOURCE_PASSWORD": "pw", "SOURCE_AUTO_POSITION": int64(1)}}},
		{"CHANGE MASTER TO MASTER_HOST='h', MASTER_LOG_FILE='binlog.000001', MASTER_LOG_POS=4, MASTER_CONNECT_RETRY=10, MASTER_RETRY_COUNT=5, MASTER_HEARTBEAT_PERIOD=2.5, MASTER_DELAY=0 FOR CHANNEL 'c1'",
			&ChangeSource{Options: map[string]any{"SOURCE_HOST": "h", "SOURCE_LOG_FILE": "binlog.000001", "SOURCE_LOG_POS": int64(4), "SOURCE_CONNECT_RETRY": int64(10),
				"SOURCE_RETRY_COUNT": int64(5), "SOURCE_HEARTBEAT_PERIOD": 2.5, "SOURCE_DELAY": int64(0)}, Channel: "c1", Named: true}},
		{"CHANGE MASTER 'db1' TO MASTER_HOST='h'", &ChangeSource{Options: map[string]any{"SOURCE_HOST": "h"}, Channel: "db1", Named: true}},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (d1, `d2`), REPLICATE_WILD_IGNORE_TABLE = ('d1.tmp%'), REPLICATE_IGNORE_TABLE = (d1.t), REPLICATE_REWRITE_DB = ((a, b), (c, d)) FOR CHANNEL 'x'",
			&ChangeFilter{Filters: map[string][]string{"REPLICATE_DO_DB": {"d1", "d2"}, "REPLICATE_WILD_IGNORE_TABLE": {"d1.tmp%"}, "REPLICATE_IGNORE_TABLE": {"d1.t"}, "REPLICATE_REWRITE_DB": {"a", "b", "c", "d"}}, Channel: "x", Named: true}},
		{"CHANGE REPLICATION FILTER REPLICATE_IGNORE_DB = ()", &ChangeFilter{Filters: map[string][]string{"REPLICATE_IGNORE_DB": {}}}},
		{"START ALL SLAVES", &StartReplica{IOThread: true, SQLThread: true}},
		{"STOP ALL SLAVES SQL_THREAD", &StopReplica{SQLThread: true}},
		{"START SLAVE 'db1' IO_THREAD", &StartReplica{IOThread: true, Channel: "db1", Named: true}},
		{"RESET SLAVE 'db1' ALL", &ResetReplica{All: true, Channel: "db1", Named: true}},
		{"CHANGE MASTER TO IGNORE_SERVER_IDS = (1, 2), GET_MASTER_PUBLIC_KEY = 1", &ChangeSource{Options: map[string]any{"IGNORE_SERVER_IDS": []int64{1, 2}, "GET_SOURCE_PUBLIC_KEY": int64(1)}}},
		{"START REPLICA", &StartReplica{IOThread: true, SQLThread: true}},
		{"START SLAVE IO_THREAD", &StartReplica{IOThread: true}},
		{"START REPLICA SQL_THREAD FOR CHANNEL 'c'", &StartReplica{SQLThread: true, Channel: "c", Named: true}},
		{"STOP SLAVE IO_THREAD, SQL_THREAD", &StopReplica{IOThread: true, SQLThread: true}},
		{"STOP REPLICA", &StopReplica{IOThread: true, SQLThread: true}},
		{"RESET REPLICA", &ResetReplica{}},
		{"RESET SLAVE ALL FOR CHANNEL ''", &ResetReplica{All: true, Named: true}},

		{"CREATE USER 'repl'@'%' IDENTIFIED BY 'pw'", &CreateUser{User: "repl", Host: "%", Password: "pw", Auth: AuthClause{Password: "pw", HasPassword: true}}},
		{"CREATE USER IF NOT EXISTS repl IDENTIFIED WITH mysql_native_password BY 'pw'", &CreateUser{User: "repl", Host: "%", Password: "pw", Plugin: "mysql_native_password", IfNotExists: true, Auth: AuthClause{Plugin: "mysql_native_password", Password: "pw", HasPassword: true}}},
		{"CREATE USER r IDENTIFIED WITH caching_sha2_password BY 'pw' REQUIRE SSL", &CreateUser{User: "r", Host: "%", Password: "pw", Plugin: "caching_sha2_password", Auth: AuthClause{Plugin: "caching_sha2_password", Password: "pw", HasPassword: true, Require: "SSL"}}},
		{"CREATE USER r IDENTIFIED WITH 'caching_sha2_password' AS '$A$005$x' REQUIRE X509", &CreateUser{User: "r", Host: "%", Plugin: "caching_sha2_password", Auth: AuthClause{Plugin: "caching_sha2_password", AuthString: "$A$005$x", HasAuthString: true, Require: "X509"}}},
		{"ALTER USER r REQUIRE NONE", &AlterUser{User: "r", Host: "%", Auth: AuthClause{Require: "NONE"}}},
		{"ALTER USER r REQUIRE ISSUER 'x'", &Unsupported{What: "REQUIRE ISSUER"}},
		{"CREATE USER `u`@`localhost`", &CreateUser{User: "u", Host: "localhost"}},
		{"DROP USER 'a'@'h', b", &DropUser{Accounts: []Account{{"a", "h"}, {"b", "%"}}}},
		{"DROP USER IF EXISTS a@localhost", &DropUser{Accounts: []Account{{"a", "localhost"}}, IfExists: true}},
		{"ALTER USER 'u'@'%' IDENTIFIED BY 'new'", &AlterUser{User: "u", Host: "%", Password: "new", Auth: AuthClause{Password: "new", HasPassword: true}}},
		{"SET PASSWORD FOR 'u'@'h' = 'pw'", &AlterUser{User: "u", Host: "h", Password: "pw", Auth: AuthClause{Password: "pw", HasPassword: true}}},
		{"SET PASSWORD = 'pw'", &AlterUser{Password: "pw", Auth: AuthClause{Password: "pw", HasPassword: true}}},
		{"GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%'", &Grant{Privs: []string{"REPLICATION SLAVE"}, On: "*.*", User: "repl", Host: "%"}},
		{"GRANT REPLICATION REPLICA, replication client ON *.* TO repl", &Grant{Privs: []string{"REPLICATION SLAVE", "REPLICATION CLIENT"}, On: "*.*", User: "repl", Host: "%"}},
		{"GRANT ALL PRIVILEGES ON `db`.* TO 'u'@'localhost' WITH GRANT OPTION", &Grant{Privs: []string{"ALL"}, On: "db.*", User: "u", Host: "localhost", GrantOption: true}},
		{"GRANT SELECT, SUPER ON db.t TO u", &Grant{Privs: []string{"SELECT", "SUPER"}, On: "db.t", User: "u", Host: "%"}},
		{"REVOKE ALL PRIVILEGES, GRANT OPTION FROM u", &Revoke{Privs: []string{"ALL", "GRANT OPTION"}, User: "u", Host: "%", All: true}},
		{"REVOKE ALL ON *.* FROM u", &Revoke{Privs: []string{"ALL"}, On: "*.*", User: "u", Host: "%"}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.sql, testCtx())
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.sql, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %#v; want %#v", tt.sql, got, tt.want)
		}
	}
}

func TestParseSet(t *testing.T) {
	tests := []struct {
		sql  string
		want []SetItem
	}{
		{"SET autocommit=0", []SetItem{{Kind: SetSession, Name: "autocommit", Value: int64(0)}}},
		{"SET @@session.autocommit = 1", []SetItem{{Kind: SetSession, Name: "autocommit", Value: int64(1)}}},
		{"SET @@SESSION.AutoCommit = ON", []SetItem{{Kind: SetSession, Name: "autocommit", Value: "ON"}}},
		{"SET GLOBAL max_binlog_size = 1048576", []SetItem{{Kind: SetGlobal, Name: "max_binlog_size", Value: int64(1048576)}}},
		{"SET @@global.max_binlog_size = 1048576", []SetItem{{Kind: SetGlobal, Name: "max_binlog_size", Value: int64(1048576)}}},
		{"SET NAMES utf8mb4 COLLATE utf8mb4_general_ci", []SetItem{{Kind: SetNames, Name: "names", Value: "utf8mb4", Collation: "utf8mb4_general_ci"}}},
		{"SET NAMES 'latin1'", []SetItem{{Kind: SetNames, Name: "names", Value: "latin1"}}},
		{"SET CHARACTER SET utf8", []SetItem{{Kind: SetCharset, Name: "character_set", Value: "utf8"}}},
		{"SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", []SetItem{{Kind: SetTransaction, Name: "transaction_isolation", Value: "READ-COMMITTED"}}},
		{"SET GLOBAL TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY", []SetItem{
			{Kind: SetTransaction, Name: "transaction_isolation", Value: "SERIALIZABLE", Global: true},
			{Kind: SetTransaction, Name: "transaction_read_only", Value: int64(1), Global: true}}},
		{"SET sql_mode='STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'", []SetItem{{Kind: SetSession, Name: "sql_mode", Value: "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"}}},
		{"SET @x = 5, @@wait_timeout=28800", []SetItem{{Kind: SetUser, Name: "x", Value: int64(5), Text: "5"}, {Kind: SetSession, Name: "wait_timeout", Value: int64(28800)}}},
		{"SET GLOBAL rpl_semi_sync_source_enabled = ON", []SetItem{{Kind: SetGlobal, Name: "rpl_semi_sync_source_enabled", Value: "ON"}}},
		{"SET PERSIST x = OFF, y = DEFAULT", []SetItem{{Kind: SetPersist, Name: "x", Value: "OFF"}, {Kind: SetPersist, Name: "y", Value: "DEFAULT"}}},
		{"SET @a = TRUE, @b = FALSE, @c = NULL, @d = -3, @e = 1.5, @f = \"s\"", []SetItem{
			{Kind: SetUser, Name: "a", Value: int64(1), Text: "TRUE"}, {Kind: SetUser, Name: "b", Value: int64(0), Text: "FALSE"}, {Kind: SetUser, Name: "c", Text: "NULL"},
			{Kind: SetUser, Name: "d", Value: int64(-3), Text: "-3"}, {Kind: SetUser, Name: "e", Value: 1.5, Text: "1.5"}, {Kind: SetUser, Name: "f", Value: "s", Text: `"s"`}}},
		{"SET @y = @x, @z = @@autocommit", []SetItem{{Kind: SetUser, Name: "y", Value: int64(7), Text: "@x"}, {Kind: SetUser, Name: "z", Value: int64(1), Text: "@@autocommit"}}},
		{"SET @y = @x + 1", []SetItem{{Kind: SetUser, Name: "y", Expr: "7 + 1", Text: "@x + 1"}}},
		{"SET @y = CONCAT('a', \"b\")", []SetItem{{Kind: SetUser, Name: "y", Expr: "CONCAT('a', 'b')", Text: `CONCAT('a', "b")`}}},
		{"/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */", nil},
	}
	for _, tt := range tests {
		st, err := Parse(tt.sql, testCtx())
		if tt.want == nil {
			if errCode(err) != mysqlerr.ErUnknownSystemVariable {
				t.Errorf("Parse(%q) = %v, %v; want 1193", tt.sql, st, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.sql, err)
			continue
		}
		s, ok := st.(*Set)
		if !ok || !reflect.DeepEqual(s.Items, tt.want) {
			t.Errorf("Parse(%q) = %#v; want %#v", tt.sql, st, tt.want)
		}
	}
}

func TestParseShow(t *testing.T) {
	tests := []struct {
		sql  string
		want Show
	}{
		{"SHOW DATABASES", Show{Kind: ShowDatabases}},
		{"SHOW SCHEMAS LIKE 'sb%'", Show{Kind: ShowDatabases, Like: "sb%"}},
		{"SHOW TABLES", Show{Kind: ShowTables, DB: "sbtest"}},
		{"SHOW FULL TABLES FROM `other` LIKE 't\\_%'", Show{Kind: ShowTables, Full: true, DB: "other", Like: `t\_%`}},
		{"SHOW TABLES IN other", Show{Kind: ShowTables, DB: "other"}},
		{"SHOW CREATE TABLE t", Show{Kind: ShowCreateTable, DB: "sbtest", Table: "t"}},
		{"SHOW CREATE TABLE `o`.`t`", Show{Kind: ShowCreateTable, DB: "o", Table: "t"}},
		{"SHOW CREATE DATABASE x", Show{Kind: ShowCreateDatabase, DB: "x"}},
		{"SHOW VARIABLES", Show{Kind: ShowVariables}},
		{"SHOW GLOBAL VARIABLES LIKE 'max%'", Show{Kind: ShowVariables, Global: true, Like: "max%"}},
		{"SHOW SESSION VARIABLES WHERE Variable_name = 'x'", Show{Kind: ShowVariables, Where: "Variable_name = 'x'"}},
		{"SHOW GLOBAL STATUS LIKE 'Uptime'", Show{Kind: ShowStatus, Global: true, Like: "Uptime"}},
		{"SHOW STATUS", Show{Kind: ShowStatus}},
		{"SHOW COLUMNS FROM t", Show{Kind: ShowColumns, DB: "sbtest", Table: "t"}},
		{"SHOW FULL FIELDS FROM t FROM other", Show{Kind: ShowColumns, Full: true, DB: "other", Table: "t"}},
		{"SHOW COLUMNS IN o.t LIKE 'c%'", Show{Kind: ShowColumns, DB: "o", Table: "t", Like: "c%"}},
		{"DESCRIBE t", Show{Kind: ShowColumns, DB: "sbtest", Table: "t"}},
		{"DESC `o`.t", Show{Kind: ShowColumns, DB: "o", Table: "t"}},
		{"SHOW INDEX FROM t", Show{Kind: ShowIndex, DB: "sbtest", Table: "t"}},
		{"SHOW INDEXES FROM t IN o", Show{Kind: ShowIndex, DB: "o", Table: "t"}},
		{"SHOW KEYS FROM t", Show{Kind: ShowIndex, DB: "sbtest", Table: "t"}},
		{"SHOW WARNINGS", Show{Kind: ShowWarnings}},
		{"SHOW WARNINGS LIMIT 5", Show{Kind: ShowWarnings, Limit: 5}},
		{"SHOW ERRORS", Show{Kind: ShowErrors}},
		{"SHOW ENGINES", Show{Kind: ShowEngines}},
		{"SHOW STORAGE ENGINES", Show{Kind: ShowEngines}},
		{"SHOW PROCESSLIST", Show{Kind: ShowProcesslist}},
		{"SHOW FULL PROCESSLIST", Show{Kind: ShowProcesslist, Full: true}},
		{"SHOW COLLATION", Show{Kind: ShowCollation}},
		{"SHOW CHARACTER SET", Show{Kind: ShowCharset}},
		{"SHOW CHARSET LIKE 'utf8%'", Show{Kind: ShowCharset, Like: "utf8%"}},
		{"SHOW BINARY LOG STATUS", Show{Kind: ShowBinaryLogStatus}},
		{"SHOW MASTER STATUS", Show{Kind: ShowBinaryLogStatus}},
		{"SHOW BINARY LOGS", Show{Kind: ShowBinaryLogs}},
		{"SHOW MASTER LOGS", Show{Kind: ShowBinaryLogs}},
		{"SHOW BINLOG EVENTS", Show{Kind: ShowBinlogEvents}},
		{"SHOW BINLOG EVENTS IN 'binlog.000002' FROM 4 LIMIT 2, 10", Show{Kind: ShowBinlogEvents, Log: "binlog.000002", Pos: 4, Offset: 2, Limit: 10}},
		{"SHOW REPLICA STATUS", Show{Kind: ShowReplicaStatus}},
		{"SHOW SLAVE STATUS FOR CHANNEL 'c1'", Show{Kind: ShowReplicaStatus, Channel: "c1", Legacy: true, ChannelNamed: true}},
		{"SHOW SLAVE 'c1' STATUS", Show{Kind: ShowReplicaStatus, Channel: "c1", Legacy: true, ChannelNamed: true}},
		{"SHOW ALL SLAVES STATUS", Show{Kind: ShowReplicaStatus, Legacy: true, AllSlaves: true}},
		{"SHOW REPLICAS", Show{Kind: ShowReplicas}},
		{"SHOW SLAVE HOSTS", Show{Kind: ShowReplicas}},
		{"SHOW GRANTS", Show{Kind: ShowGrants}},
		{"SHOW GRANTS FOR 'repl'@'%'", Show{Kind: ShowGrants, User: "repl", Host: "%"}},
		{"SHOW GRANTS FOR CURRENT_USER()", Show{Kind: ShowGrants}},
		{"SHOW TABLE STATUS", Show{Kind: ShowTableStatus, DB: "sbtest"}},
		{"SHOW TABLE STATUS FROM o LIKE 'x'", Show{Kind: ShowTableStatus, DB: "o", Like: "x"}},
		{"SHOW TRIGGERS LIKE 't'", Show{Kind: ShowTriggers, DB: "sbtest", Like: "t"}},
	}
	for _, tt := range tests {
		st, err := Parse(tt.sql, testCtx())
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.sql, err)
			continue
		}
		if tt.want.Limit == 0 {
			tt.want.Limit = -1
		}
		if s, ok := st.(*Show); !ok || !reflect.DeepEqual(*s, tt.want) {
			t.Errorf("Parse(%q) = %#v; want %#v", tt.sql, st, tt.want)
		}
	}
}

func TestParseUnsupported(t *testing.T) {
	for _, sql := range []string{
		"LOAD DATA INFILE 'x' INTO TABLE t",
		"CREATE PROCEDURE p() BEGIN END", "CREATE TABLE t LIKE u", "CREATE TEMPORARY TABLE t LIKE u",
		"UPDATE sbtest1 SET k=k+1 WHERE id=1 LIMIT 1", "DELETE FROM t ORDER BY id LIMIT 10", "DELETE t1 FROM t1 JOIN t2",
		"UPDATE t1, t2 SET t1.a = t2.a", "ALTER TABLE t MODIFY c INT", "ALTER TABLE t CHANGE a b INT",
		"SELECT 1 INTO @x", "SELECT * FROM t INTO OUTFILE '/tmp/x'", "EXPLAIN SELECT 1", "CALL p()",
		"SHOW FOOBAR", "ALTER TABLE t ADD PRIMARY KEY (a)", "DROP INDEX `PRIMARY` ON t",
		"START REPLICA UNTIL SQL_AFTER_GTIDS='x'", "RENAME TABLE a TO other.b", "GRANT r1 TO u",
		"ALTER TABLE t ADD COLUMN x INT AFTER k", "ALTER TABLE t ADD CHECK (a > 1)", "ALTER TABLE t ADD CONSTRAINT c CHECK (a > 1)", "ALTER TABLE t ADD x INT FIRST", "ALTER TABLE t ADD (x INT, y INT AFTER x)",
	} {
		st, err := Parse(sql, testCtx())
		u, ok := st.(*Unsupported)
		if err != nil || !ok {
			t.Errorf("Parse(%q) = %#v, %v; want *Unsupported", sql, st, err)
			continue
		}
		if e := u.Err(); e.Code != mysqlerr.ErNotSupportedYet || !strings.Contains(e.Message, "doesn't yet support '") {
			t.Errorf("Unsupported(%q).Err() = %v", sql, e)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		sql  string
		code uint16
		near string
	}{
		{"", mysqlerr.ErEmptyQuery, ""},
		{"  ;  ", mysqlerr.ErEmptyQuery, ""},
		{"-- just a comment", mysqlerr.ErEmptyQuery, ""},
		{"garbage here", mysqlerr.ErParse, "near 'garbage here' at line 1"},
		{"SELECT 'oops", mysqlerr.ErParse, "near ''oops' at line 1"},
		{"SHOW", mysqlerr.ErParse, "near '' at line 1"},
		{"BEGIN\nWORK NOW", mysqlerr.ErParse, "near 'NOW' at line 2"},
		{"SET", mysqlerr.ErParse, ""},
		{"SET x", mysqlerr.ErParse, ""},
		{"USE", mysqlerr.ErParse, ""},
		{"SELECT 1; SELECT 2", mysqlerr.ErParse, "near '; SELECT 2'"},
		{"CREATE TABLE t (", mysqlerr.ErParse, ""},
		{"SELECT @@nope", mysqlerr.ErUnknownSystemVariable, "Unknown system variable 'nope'"},
		{"SET @@global.nope2 = @@global.nope", mysqlerr.ErUnknownSystemVariable, "'nope'"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.sql, testCtx())
		me, ok := mysqlerr.As(err)
		if !ok || me.Code != tt.code || !strings.Contains(me.Message, tt.near) {
			t.Errorf("Parse(%q) error %v; want code %d containing %q", tt.sql, err, tt.code, tt.near)
			continue
		}
		if tt.code == mysqlerr.ErParse && !strings.HasPrefix(me.Message, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '") {
			t.Errorf("Parse(%q) message %q lacks MySQL's shape", tt.sql, me.Message)
		}
	}
}

func TestParseNilContext(t *testing.T) {
	st, err := Parse("SELECT DATABASE()", nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := st.(*Query); q.SQLite != "SELECT DATABASE()" {
		t.Errorf("got %q", q.SQLite)
	}
}

func TestParseLockTables(t *testing.T) {
	for sql, want := range map[string]Statement{
		"LOCK TABLES a READ, b.c AS x READ LOCAL, d LOW_PRIORITY WRITE": &LockTables{Tables: []LockedTable{{Schema: "sbtest", Table: "a"}, {Schema: "b", Table: "c"}, {Schema: "sbtest", Table: "d", Write: true}}},
		"LOCK TABLE `a` READ /*!32311 LOCAL */":                         &LockTables{Tables: []LockedTable{{Schema: "sbtest", Table: "a"}}},
		"UNLOCK TABLES":                                                 &UnlockTables{},
		"FLUSH TABLES WITH READ LOCK":                                   &LockTables{All: true},
	} {
		got, err := Parse(sql, testCtx())
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", sql, got, err, want)
		}
	}
}
