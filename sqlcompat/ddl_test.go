package sqlcompat

import (
	"reflect"
	"testing"
)

const seedCreate = "CREATE TABLE `sbtest` (`id` int(10) unsigned NOT NULL AUTO_INCREMENT, `k` int(10) unsigned NOT NULL DEFAULT '0', `c` char(120) NOT NULL DEFAULT '', `pad` char(60) NOT NULL DEFAULT '', PRIMARY KEY (`id`), KEY `k` (`k`)) ENGINE=InnoDB DEFAULT CHARSET=latin1"

const sysbenchCreate = "CREATE TABLE sbtest1(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n) /*! ENGINE = innodb */ "

func TestDDL(t *testing.T) {
	tests := []struct {
		sql  string
		want DDL
	}{
		{seedCreate, DDL{Op: CreateTable, Schema: "sbtest", Table: "sbtest", AutoIncColumn: "id", SQLite: []string{
			`CREATE TABLE "sbtest" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "k" INT NOT NULL DEFAULT 0, "c" CHAR(120) COLLATE latin1_swedish_ci NOT NULL DEFAULT '', "pad" CHAR(60) COLLATE latin1_swedish_ci NOT NULL DEFAULT '')`,
			`CREATE INDEX "sbtest.k" ON "sbtest" ("k")`}}},
		{sysbenchCreate, DDL{Op: CreateTable, Schema: "sbtest", Table: "sbtest1", AutoIncColumn: "id", SQLite: []string{
			`CREATE TABLE "sbtest1" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "k" INTEGER NOT NULL DEFAULT 0, "c" CHAR(120) COLLATE utf8mb4_0900_ai_ci NOT NULL DEFAULT '', "pad" CHAR(60) COLLATE utf8mb4_0900_ai_ci NOT NULL DEFAULT '')`}}},
		{"CREATE INDEX k_1 ON sbtest1(k)", DDL{Op: CreateIndex, Schema: "sbtest", Table: "sbtest1", SQLite: []string{`CREATE INDEX "sbtest1.k_1" ON "sbtest1" ("k")`}}},
		{"DROP TABLE IF EXISTS sbtest1", DDL{Op: DropTable, Schema: "sbtest", Table: "sbtest1", IfExists: true, SQLite: []string{`DROP TABLE IF EXISTS "sbtest1"`}}},
		{"CREATE TABLE IF NOT EXISTS o.t (a BIGINT(20) UNSIGNED ZEROFILL NOT NULL, b VARCHAR(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL COMMENT 'x', " +
			"e ENUM('a','b') DEFAULT 'a', s SET('x','y'), j JSON, f BOOLEAN DEFAULT FALSE, d DECIMAL(10,2) DEFAULT -1.5, dbl DOUBLE PRECISION, " +
			"ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, dt DATETIME(6) DEFAULT NOW(6), bl MEDIUMBLOB, tx LONGTEXT, " +
			"PRIMARY KEY (a, b), UNIQUE KEY uk (b(10), e DESC), UNIQUE (j), INDEX (d), KEY (d), FULLTEXT KEY ft (tx), " +
			"CONSTRAINT fk FOREIGN KEY (a) REFERENCES o.p (id) ON DELETE CASCADE, CHECK (a > 0)) ENGINE=MyISAM AUTO_INCREMENT=5 ROW_FORMAT=DYNAMIC COMMENT='t' PARTITION BY HASH(a) PARTITIONS 2",
			DDL{Op: CreateTable, Schema: "o", Table: "t", IfNotExists: true, SQLite: []string{
				`CREATE TABLE IF NOT EXISTS "t" ("a" BIGINT UNSIGNED NOT NULL, "b" VARCHAR(32) COLLATE utf8mb4_bin NOT NULL, "e" TEXT COLLATE utf8mb4_0900_ai_ci DEFAULT 'a', "s" TEXT COLLATE utf8mb4_0900_ai_ci, "j" TEXT, "f" INTEGER DEFAULT 0, ` +
					`"d" DECTEXT(10,2) COLLATE binlite_decimal DEFAULT '-1.50', "dbl" DOUBLE, "ts" TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, "dt" DATETIME(6) DEFAULT CURRENT_TIMESTAMP, "bl" MEDIUMBLOB, "tx" LONGTEXT COLLATE utf8mb4_0900_ai_ci, ` +
					`PRIMARY KEY ("a", "b"), FOREIGN KEY ("a") REFERENCES p (id) ON DELETE CASCADE, CHECK (a > 0))`,
				`CREATE UNIQUE INDEX IF NOT EXISTS "t.uk" ON "t" ("b", "e" DESC)`,
				`CREATE UNIQUE INDEX IF NOT EXISTS "t.j" ON "t" ("j")`,
				`CREATE INDEX IF NOT EXISTS "t.d" ON "t" ("d")`,
				`CREATE INDEX IF NOT EXISTS "t.d_2" ON "t" ("d")`}}},
		{"CREATE TABLE t (id BIGINT AUTO_INCREMENT PRIMARY KEY, v INT UNIQUE)", DDL{Op: CreateTable, Schema: "sbtest", Table: "t", AutoIncColumn: "id", SQLite: []string{
			`CREATE TABLE "t" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "v" INT UNIQUE)`}}},
		{"CREATE UNIQUE INDEX `u` USING BTREE ON `o`.`t` (c(10), d) USING BTREE COMMENT 'x' ALGORITHM=INPLACE", DDL{Op: CreateIndex, Schema: "o", Table: "t",
			SQLite: []string{`CREATE UNIQUE INDEX "t.u" ON "t" ("c", "d")`}}},
		{"CREATE FULLTEXT INDEX f ON t (c)", DDL{Op: CreateIndex, Schema: "sbtest", Table: "t"}},
		{"DROP INDEX k_1 ON sbtest1", DDL{Op: DropIndex, Schema: "sbtest", Table: "sbtest1", SQLite: []string{`DROP INDEX "sbtest1.k_1"`}}},
		{"DROP TABLE a, `b` CASCADE", DDL{Op: DropTable, Schema: "sbtest", Table: "a", Tables: []string{"a", "b"}, SQLite: []string{`DROP TABLE "a"`, `DROP TABLE "b"`}}},
		{"DROP TEMPORARY TABLE IF EXISTS o.x", DDL{Op: DropTable, Schema: "o", Table: "x", IfExists: true, SQLite: []string{`DROP TABLE IF EXISTS "x"`}}},
		{"TRUNCATE TABLE sbtest1", DDL{Op: TruncateTable, Schema: "sbtest", Table: "sbtest1", SQLite: []string{`DELETE FROM "sbtest1"`}}},
		{"TRUNCATE o.t", DDL{Op: TruncateTable, Schema: "o", Table: "t", SQLite: []string{`DELETE FROM "t"`}}},
		{"RENAME TABLE a TO b, c TO d", DDL{Op: RenameTable, Schema: "sbtest", Table: "a", Tables: []string{"a", "b", "c", "d"},
			SQLite: []string{`ALTER TABLE "a" RENAME TO "b"`, `ALTER TABLE "c" RENAME TO "d"`}}},
		{"ALTER TABLE t ADD COLUMN x INT NOT NULL DEFAULT 0, ADD y VARCHAR(10), DROP COLUMN z, DROP w, RENAME TO u, " +
			"RENAME COLUMN a TO b, ADD INDEX ix (x), ADD UNIQUE KEY (y), DROP INDEX old, DROP KEY old2, ENGINE=InnoDB, ADD FULLTEXT (y)",
			DDL{Op: AlterTable, Schema: "sbtest", Table: "t", Tables: []string{"t", "u"}, SQLite: []string{
				`ALTER TABLE "t" ADD COLUMN "x" INT NOT NULL DEFAULT 0`,
				`ALTER TABLE "t" ADD COLUMN "y" VARCHAR(10) COLLATE utf8mb4_0900_ai_ci`,
				`ALTER TABLE "t" DROP COLUMN "z"`,
				`ALTER TABLE "t" DROP COLUMN "w"`,
				`ALTER TABLE "t" RENAME COLUMN "a" TO "b"`,
				`CREATE INDEX "t.ix" ON "t" ("x")`,
				`CREATE UNIQUE INDEX "t.y" ON "t" ("y")`,
				`DROP INDEX "t.old"`,
				`DROP INDEX "t.old2"`,
				`ALTER TABLE "t" RENAME TO "u"`}}},
		{"ALTER TABLE t ADD (p INT, q TEXT)", DDL{Op: AlterTable, Schema: "sbtest", Table: "t", SQLite: []string{
			`ALTER TABLE "t" ADD COLUMN "p" INT`, `ALTER TABLE "t" ADD COLUMN "q" TEXT COLLATE utf8mb4_0900_ai_ci`}}},
		{"/*!40000 ALTER TABLE `t` DISABLE KEYS */", DDL{Op: AlterTable, Schema: "sbtest", Table: "t"}},
	}
	for _, tt := range tests {
		st := mustParse(t, tt.sql)
		d, ok := st.(*DDL)
		if !ok {
			t.Errorf("Parse(%q) = %#v; want *DDL", tt.sql, st)
			continue
		}
		want := tt.want
		want.Original = d.Original
		// The catalog statements have their own test (TestCatalogStatements).
		want.Temporary, want.CatalogBefore, want.CatalogAfter, want.ValueChecks, want.Warnings, want.Def, want.def = d.Temporary, d.CatalogBefore, d.CatalogAfter, d.ValueChecks, d.Warnings, d.Def, d.def
		if want.Tables == nil {
			want.Tables = []string{want.Table}
		}
		if !reflect.DeepEqual(*d, want) {
			t.Errorf("Parse(%q)\n got %#v\nwant %#v", tt.sql, *d, want)
		}
	}
}
