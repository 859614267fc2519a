package sqlcompat

import (
	"strings"
	"testing"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// alterCtx is a schema d whose tables are made by creates (their definitions
// as CREATE TABLE compiles them).
func alterCtx(t *testing.T, creates ...string) *Context {
	t.Helper()
	defs := map[string]*catalog.Table{}
	for _, c := range creates {
		st, err := Parse(c, &Context{DB: "d", DefaultCollation: "utf8mb4_general_ci"})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		d := st.(*DDL)
		defs[strings.ToLower(d.Table)] = d.Def
	}
	return &Context{DB: "d", DefaultCollation: "utf8mb4_general_ci", TableDef: func(schema, table string) *catalog.Table {
		return defs[strings.ToLower(table)]
	}}
}

const itemsDDL = "CREATE TABLE items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL, qty INT, price DECIMAL(8,2) DEFAULT 1.50, KEY (name), CONSTRAINT few CHECK (qty < 100))"

func alterDDL(t *testing.T, ctx *Context, sql string) *DDL {
	t.Helper()
	st, err := Parse(sql, ctx)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	d, ok := st.(*DDL)
	if !ok {
		t.Fatalf("%s: %#v", sql, st)
	}
	return d
}

// What SQLite can change in place is changed in place; the rest rebuilds the
// table, in SQLite's order, with the rows copied by one INSERT ... SELECT.
func TestAlterStatements(t *testing.T) {
	ctx := alterCtx(t, itemsDDL)
	rebuild := []string{`DROP TABLE IF EXISTS "binlite_alter_new"`, `CREATE TABLE "binlite_alter_new" (`, `INSERT INTO "binlite_alter_new" (`,
		`UPDATE sqlite_sequence`, `INSERT INTO sqlite_sequence`, `DROP TABLE "items"`, `PRAGMA legacy_alter_table = ON`,
		`ALTER TABLE "binlite_alter_new" RENAME TO "items"`, `PRAGMA legacy_alter_table = OFF`, `CREATE INDEX "items.name" ON "items"`}
	for _, c := range []struct {
		sql     string
		want    []string // each statement's start, in order (catalog statements after)
		counted bool
	}{
		{"ALTER TABLE items ADD INDEX q (qty)", []string{`CREATE INDEX "items.q" ON "items" ("qty")`}, false},
		{"ALTER TABLE items DROP INDEX name", []string{`DROP INDEX "items.name"`}, false},
		{"ALTER TABLE items RENAME INDEX name TO n", []string{`DROP INDEX "items.name"`, `CREATE INDEX "items.n" ON "items" ("name")`}, false},
		{"ALTER TABLE items ADD COLUMN note VARCHAR(5)", []string{`ALTER TABLE "items" ADD COLUMN "note" VARCHAR(5) COLLATE utf8mb4_general_ci CONSTRAINT "binlite:length:note"`}, false},
		{"ALTER TABLE items ADD COLUMN n INT NOT NULL", []string{`ALTER TABLE "items" ADD COLUMN "n" INT NOT NULL DEFAULT 0 CONSTRAINT`}, false},
		{"ALTER TABLE items RENAME COLUMN price TO cost", []string{`ALTER TABLE "items" RENAME COLUMN "price" TO "cost"`}, false},
		{"ALTER TABLE items MODIFY price DECIMAL(8,2) DEFAULT 2", nil, false},
		{"ALTER TABLE items ALTER COLUMN qty SET DEFAULT 3, ADD COLUMN z INT", []string{`ALTER TABLE "items" ADD COLUMN "z" INT CONSTRAINT`}, false},
		{"ALTER TABLE items ADD COLUMN note VARCHAR(5) FIRST", rebuild, false},
		{"ALTER TABLE items MODIFY qty BIGINT", rebuild, true},
		{"ALTER TABLE items ADD CHECK (qty > 0)", rebuild, true},
		{"ALTER TABLE items DROP CHECK few, DROP COLUMN qty", rebuild, false},
		{"ALTER TABLE items CHANGE name title VARCHAR(10) NOT NULL", append([]string{`ALTER TABLE "items" RENAME COLUMN "name" TO "title"`}, rebuild...), true},
		{"ALTER TABLE items CHANGE name title VARCHAR(30) NOT NULL", append([]string{`ALTER TABLE "items" RENAME COLUMN "name" TO "title"`}, rebuild...), false},
	} {
		d := alterDDL(t, ctx, c.sql)
		if len(d.SQLite) != len(c.want) {
			t.Errorf("%s: %d statements, want %d:\n%s", c.sql, len(d.SQLite), len(c.want), strings.Join(d.SQLite, "\n"))
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(d.SQLite[i], w) {
				t.Errorf("%s: statement %d is\n%s\nwant %s...", c.sql, i+1, d.SQLite[i], w)
			}
		}
		if counted := d.CountedStatement() > 0; counted != c.counted {
			t.Errorf("%s: counts the copied rows: %v, want %v", c.sql, counted, c.counted)
		} else if counted && !strings.HasPrefix(d.Statements()[d.CountedStatement()-1], `INSERT INTO "binlite_alter_new"`) {
			t.Errorf("%s: counted statement %s", c.sql, d.Statements()[d.CountedStatement()-1])
		}
		last := d.CatalogAfter[len(d.CatalogAfter)-1]
		if !strings.HasPrefix(last, "UPDATE binlite_catalog SET def = ") || d.Def == nil {
			t.Errorf("%s: no catalog change (%s)", c.sql, last)
		}
	}
}

// ALTER COLUMN ... SET/DROP DEFAULT alone changes the definition only; among
// other changes the plan takes it, and the INSERT writes a default the SQLite
// table kept in place does not hold.
func TestAlterDefaults(t *testing.T) {
	ctx := alterCtx(t, itemsDDL)
	d := alterDDL(t, ctx, "ALTER TABLE items ALTER COLUMN qty SET DEFAULT 3")
	if len(d.SQLite) != 0 || len(d.CatalogAfter) != 1 || !strings.Contains(d.CatalogAfter[0], "binlite_alter_default(") {
		t.Errorf("ALTER COLUMN ... SET DEFAULT alone: %q %q", d.SQLite, d.CatalogAfter)
	}
	d = alterDDL(t, ctx, "ALTER TABLE items ALTER COLUMN qty SET DEFAULT 3, ALTER price DROP DEFAULT, ADD INDEX (qty)")
	qty, _ := d.Def.Column("qty")
	price, _ := d.Def.Column("price")
	if qty.Default == nil || qty.Default.Lit != "3" || !qty.DefaultSupplied || price.Default != nil || !price.NoDefault || !price.DefaultSupplied {
		t.Errorf("defaults: qty %+v %+v, price %+v %+v", *qty, qty.Default, *price, price.Default)
	}
}

// The new definition: columns where the statement puts them, renamed and
// redefined, keys following their columns, CHECKs added and dropped.
func TestAlterDefinition(t *testing.T) {
	ctx := alterCtx(t, itemsDDL)
	d := alterDDL(t, ctx, "ALTER TABLE items ADD COLUMN a INT FIRST, ADD COLUMN b INT AFTER name, CHANGE name title VARCHAR(30) NOT NULL, "+
		"MODIFY price DECIMAL(9,3) AFTER id, DROP CHECK few, ADD CONSTRAINT plenty CHECK (qty > 1), ADD UNIQUE KEY (qty), COMMENT 'stock'")
	want := "CREATE TABLE `items` (\n" +
		"  `a` int DEFAULT NULL,\n" +
		"  `id` int NOT NULL AUTO_INCREMENT,\n" +
		"  `price` decimal(9,3) DEFAULT NULL,\n" +
		"  `title` varchar(30) NOT NULL,\n" +
		"  `b` int DEFAULT NULL,\n" +
		"  `qty` int DEFAULT NULL,\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  UNIQUE KEY `qty` (`qty`),\n" +
		"  KEY `name` (`title`),\n" +
		"  CONSTRAINT `plenty` CHECK ((`qty` > 1))\n" +
		") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='stock'"
	if got := d.Def.ShowCreate(0); got != want {
		t.Errorf("definition:\n%s\nwant:\n%s", got, want)
	}
	copyRows := ""
	for _, q := range d.SQLite {
		if strings.HasPrefix(q, `INSERT INTO "binlite_alter_new"`) {
			copyRows = q
		}
	}
	for _, part := range []string{`"title"`, `binlite_adjust_dec("price", 9, 3, 0, NULL, 'price', 0)`, ` FROM "items" ORDER BY "id"`} {
		if !strings.Contains(copyRows, part) {
			t.Errorf("the copy has no %s:\n%s", part, copyRows)
		}
	}
}

// ALTER TABLE's refusals are MySQL's.
func TestAlterErrors(t *testing.T) {
	ctx := alterCtx(t, itemsDDL,
		"CREATE TABLE g (a INT, b INT AS (a + 1))",
		"CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES items (id))",
		"CREATE TABLE one (a INT)")
	for sql, code := range map[string]uint16{
		"ALTER TABLE items DROP COLUMN nosuch":                 mysqlerr.ErCantDropFieldOrKey,
		"ALTER TABLE items DROP INDEX nosuch":                  mysqlerr.ErCantDropFieldOrKey,
		"ALTER TABLE items MODIFY nosuch INT":                  mysqlerr.ErBadField,
		"ALTER TABLE items CHANGE nosuch x INT":                mysqlerr.ErBadField,
		"ALTER TABLE items ADD COLUMN qty INT":                 mysqlerr.ErDupFieldName,
		"ALTER TABLE items CHANGE qty name INT":                mysqlerr.ErDupFieldName,
		"ALTER TABLE items ADD COLUMN x INT AFTER nosuch":      mysqlerr.ErBadField,
		"ALTER TABLE items DROP CHECK nosuch":                  mysqlerr.ErCheckConstraintNotFound,
		"ALTER TABLE items DROP CONSTRAINT nosuch":             mysqlerr.ErConstraintNotFound,
		"ALTER TABLE items ADD CONSTRAINT few CHECK (qty > 0)": mysqlerr.ErCheckConstraintDupName,
		"ALTER TABLE items DROP COLUMN qty":                    mysqlerr.ErDependentByCheckConstraint,
		"ALTER TABLE items RENAME COLUMN qty TO q":             mysqlerr.ErDependentByCheckConstraint,
		"ALTER TABLE items ADD PRIMARY KEY (name)":             mysqlerr.ErMultiplePriKey,
		"ALTER TABLE items ADD INDEX name (qty)":               mysqlerr.ErDupKeyName,
		"ALTER TABLE items RENAME INDEX nosuch TO x":           mysqlerr.ErKeyDoesNotExist,
		"ALTER TABLE items DROP PRIMARY KEY":                   mysqlerr.ErWrongAutoKey,
		"ALTER TABLE items ADD INDEX (nosuch)":                 mysqlerr.ErKeyColumnDoesNotExist,
		"ALTER TABLE g DROP COLUMN a":                          mysqlerr.ErDependentByGeneratedColumn,
		"ALTER TABLE c DROP COLUMN pid":                        mysqlerr.ErFKColumnCannotDrop,
		"ALTER TABLE one DROP COLUMN a":                        mysqlerr.ErCantRemoveAllFields,
		"ALTER TABLE items MODIFY qty DATE":                    mysqlerr.ErNotSupportedYet,
		"ALTER TABLE items CONVERT TO CHARACTER SET latin1":    mysqlerr.ErNotSupportedYet,
		"ALTER TABLE items DEFAULT CHARSET latin1":             mysqlerr.ErNotSupportedYet,
	} {
		st, err := Parse(sql, ctx)
		if u, ok := st.(*Unsupported); ok {
			err = u.Err()
		}
		if got := errCode(err); got != code {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
}

// CREATE TABLE ... LIKE copies the definition but its foreign keys, and names
// its CHECK constraints anew; the binary log carries the statement itself.
func TestCreateLike(t *testing.T) {
	ctx := alterCtx(t, "CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, pid INT COMMENT 'p', CONSTRAINT mine CHECK (pid > 0), FOREIGN KEY (pid) REFERENCES x (id)) AUTO_INCREMENT=50 COMMENT='s'")
	d := alterDDL(t, ctx, "CREATE TABLE dst LIKE src")
	want := "CREATE TABLE `dst` (\n" +
		"  `id` int NOT NULL AUTO_INCREMENT,\n" +
		"  `pid` int DEFAULT NULL COMMENT 'p',\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  KEY `pid` (`pid`),\n" +
		"  CONSTRAINT `dst_chk_1` CHECK ((`pid` > 0))\n" +
		") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='s'"
	if got := d.Def.ShowCreate(0); got != want {
		t.Errorf("definition:\n%s\nwant:\n%s", got, want)
	}
	if d.Original != "CREATE TABLE dst LIKE src" || d.Table != "dst" || !strings.HasPrefix(d.SQLite[0], `CREATE TABLE "dst" (`) {
		t.Errorf("statement: %q %q %q", d.Original, d.Table, d.SQLite[0])
	}
	ctx.TableExists = func(schema, table string) bool { return false }
	if _, err := Parse("CREATE TABLE dst LIKE nosuch", ctx); errCode(err) != mysqlerr.ErNoSuchTable {
		t.Errorf("LIKE a missing table: %v", err)
	}
}

// CREATE TABLE ... SELECT's parts, which the session completes.
func TestCreateSelectParts(t *testing.T) {
	for sql, want := range map[string]CreateSelect{
		"CREATE TABLE t AS SELECT 1":                                                 {Query: "SELECT 1"},
		"CREATE TABLE t SELECT a FROM u":                                             {Query: "SELECT a FROM u"},
		"CREATE TABLE t (SELECT a FROM u)":                                           {Query: "(SELECT a FROM u)"},
		"CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB IGNORE AS SELECT 1 AS id": {Definitions: "id INT PRIMARY KEY", Options: "ENGINE=InnoDB", Duplicates: "IGNORE", Query: "SELECT 1 AS id"},
		"CREATE TABLE t CHARSET latin1 REPLACE WITH x AS (SELECT 1) SELECT * FROM x": {Options: "CHARSET latin1", Duplicates: "REPLACE", Query: "WITH x AS (SELECT 1) SELECT * FROM x"},
	} {
		d := alterDDL(t, &Context{DB: "d"}, sql)
		if d.Select == nil || *d.Select != want {
			t.Errorf("%s: %+v, want %+v", sql, d.Select, want)
		}
	}
}
