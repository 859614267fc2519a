package sqlcompat

import (
	"regexp"
	"testing"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// definition translates a CREATE TABLE and returns the definition it stores.
func definition(t *testing.T, create string) *catalog.Table {
	t.Helper()
	st, err := Parse(create, testCtx())
	if err != nil {
		t.Fatal(err)
	}
	d := st.(*DDL)
	m := regexp.MustCompile(`SELECT '[^']*', '(.*)' WHERE NOT EXISTS`).FindStringSubmatch(d.CatalogBefore[0])
	if m == nil {
		t.Fatalf("no definition stored: %v", d.CatalogBefore)
	}
	def, err := catalog.Decode(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// TestCreateTableDefaults: SQLite declares the defaults it can hold, as the
// column stores them, and not one that reads other columns; a generated DECIMAL
// is rounded to its scale.
func TestCreateTableDefaults(t *testing.T) {
	st, err := Parse("CREATE TABLE d (a INT DEFAULT 1, b INT DEFAULT (a * 2), u VARCHAR(36) DEFAULT (UUID()), p DECIMAL(5,2) DEFAULT 1.005, "+
		"c CHAR(3) DEFAULT 'x  ', t DECIMAL(6,1) AS (p / 3) STORED)", testCtx())
	if err != nil {
		t.Fatal(err)
	}
	want := `CREATE TABLE "d" ("a" INT DEFAULT 1, "b" INT, "u" VARCHAR(36) COLLATE utf8mb4_0900_ai_ci DEFAULT (UUID()), "p" DECTEXT(5,2) COLLATE binlite_decimal DEFAULT '1.01', "c" CHAR(3) COLLATE utf8mb4_0900_ai_ci DEFAULT 'x', ` +
		`"t" DECIMAL(6,1) GENERATED ALWAYS AS (round((p * 1.0 / 3), 1)) STORED)`
	if got := st.(*DDL).SQLite[0]; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestInsertDefaultsSQL: how an INSERT or UPDATE is written for the defaults and
// generated columns of its table.
func TestInsertDefaultsSQL(t *testing.T) {
	def := definition(t, "CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY, status VARCHAR(10) NOT NULL DEFAULT 'new', qty INT DEFAULT 1, "+
		"price DECIMAL(8,2) DEFAULT 9.99, doubled INT DEFAULT (qty * 2), g INT AS (qty + 1))")
	ctx := testCtx()
	ctx.TableDef = func(schema, table string) *catalog.Table {
		if table == "d" {
			return def
		}
		return nil
	}
	for in, want := range map[string]string{
		"INSERT INTO d (status, qty, doubled) VALUES ('a', 2, 3)": `INSERT INTO d (status, qty, doubled) VALUES ('a', 2, 3)`,
		"INSERT INTO d (qty) VALUES (?), (DEFAULT)": `INSERT INTO d ("qty", "doubled") SELECT "qty", "doubled" FROM (SELECT *, (qty * 2) AS "doubled" FROM ` +
			`(SELECT column1 AS "qty" FROM (VALUES (?), (1))))`,
		"INSERT INTO d () VALUES ()": `INSERT INTO d ("qty", "doubled") SELECT "qty", "doubled" FROM (SELECT *, (qty * 2) AS "doubled" FROM ` +
			`(SELECT 1 AS "qty" FROM (VALUES (NULL))))`,
		"INSERT INTO d (status, doubled) VALUES (DEFAULT, 4), ('b', 5)": `INSERT INTO d ("status", "doubled") VALUES ('new', 4), ('b', 5)`,
		"INSERT INTO d VALUES (NULL, 'a', 3, 1.5, 0, DEFAULT)":          `INSERT INTO d ("id", "status", "qty", "price", "doubled") VALUES (NULL, 'a', 3, '1.50', 0)`,
		"INSERT INTO d SET status = 'x', doubled = DEFAULT(price)":      `INSERT INTO d ("status", "doubled") VALUES ('x', ('9.99'))`,
		"INSERT INTO d (status, qty) SELECT 'x', 4 ON DUPLICATE KEY UPDATE qty = 5": `INSERT INTO d ("status", "qty", "doubled") SELECT "status", "qty", "doubled" FROM ` +
			`(SELECT *, (qty * 2) AS "doubled" FROM (SELECT "status", "qty" FROM (SELECT NULL AS "status", NULL AS "qty" WHERE 0 UNION ALL SELECT * FROM ( SELECT 'x', 4 WHERE true)))) WHERE true ON CONFLICT DO UPDATE SET qty = 5`,
		"UPDATE d SET qty = DEFAULT, g = DEFAULT WHERE id = (SELECT 1 WHERE 1)": `UPDATE d SET qty = 1 WHERE id = (SELECT 1 WHERE 1)`,
		"UPDATE d SET doubled = DEFAULT":                                        `UPDATE d SET doubled = (qty * 2)`,
	} {
		st, err := Parse(in, ctx)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := st.(*Query).SQLite; got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
	for in, code := range map[string]uint16{
		"INSERT INTO d (qty, g) VALUES (1, 2)":                     3105,
		"INSERT INTO d (qty, g) VALUES (1, DEFAULT), (2, 3)":       3105,
		"UPDATE d SET g = 1":                                       3105,
		"INSERT INTO d (status) VALUES (DEFAULT(doubled))":         3773,
		"INSERT INTO d (qty) VALUES (1), ()":                       1136,
		"INSERT INTO d (qty, doubled) VALUES (1, DEFAULT), (2, 3)": 1235,
		"UPDATE d SET qty = 2, doubled = DEFAULT":                  1235,
		"SELECT DEFAULT(qty) FROM d":                               1235,
	} {
		_, err := Parse(in, ctx)
		if got := codeOf(err); got != code {
			t.Errorf("%s: %v, want error %d", in, err, code)
		}
	}
}

func codeOf(err error) uint16 {
	if me, ok := mysqlerr.As(err); ok {
		return me.Code
	}
	return 0
}
