package compiler

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
)

// testCatalog holds definitions built from real CREATE TABLE statements.
type testCatalog map[string]*catalog.Table

func (c testCatalog) Table(schema, name string) (*catalog.Table, bool) {
	t, ok := c[schema+"."+name]
	return t, ok
}

func mustTable(t testing.TB, ddl string) *catalog.Table {
	t.Helper()
	stmts, _, err := parser.New().Parse(ddl, "", "")
	if err != nil {
		t.Fatal(err)
	}
	def, err := catalog.Build(stmts[0].(*ast.CreateTableStmt), "")
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// TestResultTypes: the types MySQL 8.4 declares for these result columns (its
// documented type rules: 14.6.4 for DECIMAL arithmetic and division, 14.19.1
// for SUM/AVG, 14.4 for IFNULL/CASE aggregation).
func TestResultTypes(t *testing.T) {
	cat := testCatalog{
		"d.emp":    mustTable(t, "CREATE TABLE emp (id INT UNSIGNED NOT NULL PRIMARY KEY, salary DECIMAL(10,2), t TINYINT, b BIT(4), big BIGINT UNSIGNED, f FLOAT, dbl DOUBLE, name VARCHAR(20), born DATE, at DATETIME(3), e ENUM('a','bb'), j JSON, bin VARBINARY(8), body TEXT)"),
		"d.dept":   mustTable(t, "CREATE TABLE dept (id INT NOT NULL PRIMARY KEY, name CHAR(10) NOT NULL)"),
		"d.legacy": nil,
	}
	type want struct {
		typ      byte
		decimals byte
		flags    uint16 // must be set
		unset    uint16 // must not be set
	}
	for _, tc := range []struct {
		sql  string
		want []want
	}{
		{"SELECT id, salary, t, b, big, f, dbl FROM emp", []want{
			{mp.TypeLong, 0, mp.UnsignedFlag | mp.NotNullFlag, 0}, {mp.TypeNewDecimal, 2, 0, mp.UnsignedFlag},
			{mp.TypeTiny, 0, 0, mp.UnsignedFlag}, {mp.TypeBit, 0, 0, 0}, {mp.TypeLongLong, 0, mp.UnsignedFlag, 0},
			{mp.TypeFloat, 31, 0, 0}, {mp.TypeDouble, 31, 0, 0}}},
		{"SELECT name, born, at, e, j, bin, body FROM emp", []want{
			{mp.TypeVarString, 0, 0, mp.BinaryFlag}, {mp.TypeDate, 0, 0, 0}, {mp.TypeDatetime, 3, 0, 0},
			{mp.TypeString, 0, mp.EnumFlag, 0}, {mp.TypeJSON, 0, 0, 0}, {mp.TypeVarString, 0, mp.BinaryFlag, 0}, {mp.TypeBlob, 0, mp.BlobFlag, mp.BinaryFlag}}},
		{"SELECT * FROM dept", []want{{mp.TypeLong, 0, mp.NotNullFlag, 0}, {mp.TypeString, 0, mp.NotNullFlag, 0}}},
		{"SELECT e.salary * 2, e.salary + 1.5, salary / 3, 10 / 3, 7 DIV 2, 1 + 1, 1.5 * 2, f + 1 FROM emp e", []want{
			{mp.TypeNewDecimal, 2, 0, 0}, {mp.TypeNewDecimal, 2, 0, 0}, {mp.TypeNewDecimal, 6, 0, 0}, {mp.TypeNewDecimal, 4, 0, 0},
			{mp.TypeLongLong, 0, 0, 0}, {mp.TypeLongLong, 0, 0, 0}, {mp.TypeNewDecimal, 1, 0, 0}, {mp.TypeDouble, 31, 0, 0}}},
		{"SELECT SUM(salary), AVG(salary), SUM(id), AVG(t), COUNT(*), MAX(name), MIN(salary), SUM(dbl) FROM emp", []want{
			{mp.TypeNewDecimal, 2, 0, 0}, {mp.TypeNewDecimal, 6, 0, 0}, {mp.TypeNewDecimal, 0, 0, 0}, {mp.TypeNewDecimal, 4, 0, 0},
			{mp.TypeLongLong, 0, mp.NotNullFlag, 0}, {mp.TypeVarString, 0, 0, 0}, {mp.TypeNewDecimal, 2, 0, 0}, {mp.TypeDouble, 31, 0, 0}}},
		{"SELECT IFNULL(salary, 0), COALESCE(t, id), CASE WHEN t > 0 THEN 'pos' ELSE name END, IF(t, 1.5, 2), t > 0, name IS NULL FROM emp", []want{
			{mp.TypeNewDecimal, 2, mp.NotNullFlag, 0}, {mp.TypeLongLong, 0, 0, 0}, {mp.TypeVarString, 0, 0, 0}, {mp.TypeNewDecimal, 1, 0, 0},
			{mp.TypeLongLong, 0, 0, 0}, {mp.TypeLongLong, 0, 0, 0}}},
		{"SELECT CAST(salary AS SIGNED), CAST(name AS DECIMAL(8,3)), CAST(id AS CHAR), CAST('2024-01-01' AS DATE), NOW(), NOW(6), CURDATE()", []want{
			{mp.TypeLongLong, 0, 0, mp.UnsignedFlag}, {mp.TypeNewDecimal, 3, 0, 0}, {mp.TypeVarString, 0, 0, 0}, {mp.TypeDate, 0, 0, 0},
			{mp.TypeDatetime, 0, 0, 0}, {mp.TypeDatetime, 6, 0, 0}, {mp.TypeDate, 0, 0, 0}}},
		{"SELECT d.name, (SELECT MAX(salary) FROM emp) FROM dept d JOIN emp ON emp.id = d.id", []want{
			{mp.TypeString, 0, mp.NotNullFlag, 0}, {mp.TypeNewDecimal, 2, 0, mp.NotNullFlag}}},
		{"SELECT id FROM emp UNION SELECT salary FROM emp", []want{{mp.TypeNewDecimal, 2, 0, 0}}},
		{"SELECT x.s FROM (SELECT SUM(salary) AS s FROM emp) AS x", []want{{mp.TypeNewDecimal, 2, 0, 0}}},
		{"SELECT 'abc', NULL, 0x41, 1e3", []want{{mp.TypeVarString, 0, 0, mp.BinaryFlag}, {mp.TypeNull, 0, 0, 0}, {mp.TypeVarString, 0, mp.BinaryFlag, 0}, {mp.TypeDouble, 31, 0, 0}}},
	} {
		stmts, _, err := parser.New().Parse(tc.sql, "", "")
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		p := compileStmt(stmts[0], "d", Mode{}, cat)
		if len(p.Columns) != len(tc.want) {
			t.Errorf("%s: %d columns, want %d", tc.sql, len(p.Columns), len(tc.want))
			continue
		}
		for i, w := range tc.want {
			got := p.Columns[i]
			if got.Type != w.typ || got.Decimals != w.decimals || got.Flags&w.flags != w.flags || got.Flags&w.unset != 0 {
				t.Errorf("%s: column %d = type %#x decimals %d flags %#x; want type %#x decimals %d flags +%#x -%#x", tc.sql, i+1, got.Type, got.Decimals, got.Flags, w.typ, w.decimals, w.flags, w.unset)
			}
		}
	}
}

// TestUnknownStaysUnknown: what the compiler cannot type is left to the values,
// never guessed: a table without a definition, user variables, parameters.
func TestUnknownStaysUnknown(t *testing.T) {
	cat := testCatalog{"d.legacy": nil}
	for _, sql := range []string{"SELECT a FROM legacy", "SELECT @v", "SELECT ?", "SELECT nosuchfunc(1)"} {
		stmts, _, err := parser.New().Parse(sql, "", "")
		if err != nil {
			t.Fatal(err)
		}
		p := compileStmt(stmts[0], "d", Mode{}, cat)
		if len(p.Columns) != 1 || p.Columns[0].Known() {
			t.Errorf("%s: %+v, want one unknown column", sql, p.Columns)
		}
	}
	stmts, _, _ := parser.New().Parse("SELECT * FROM legacy", "", "")
	if p := compileStmt(stmts[0], "d", Mode{}, cat); p.Columns != nil {
		t.Errorf("SELECT * over a table without a definition: %+v, want the column count unknown", p.Columns)
	}
}

// TestCacheFollowsDefinitions: a cached plan is reused while its tables'
// definitions are the same, and redone when DDL replaced one.
func TestCacheFollowsDefinitions(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (a INT)")}
	c := NewCache(2)
	p1 := c.Query("SELECT a FROM t", "d", cat)
	if p2 := c.Query("SELECT a FROM t", "d", cat); p2 != p1 {
		t.Error("the same statement was compiled twice")
	}
	if p1.Columns[0].Type != mp.TypeLong {
		t.Fatalf("a INT typed %#x", p1.Columns[0].Type)
	}
	cat["d.t"] = mustTable(t, "CREATE TABLE t (a DECIMAL(5,1))")
	if p3 := c.Query("SELECT a FROM t", "d", cat); p3 == p1 || p3.Columns[0].Type != mp.TypeNewDecimal {
		t.Errorf("after the table changed: %+v", p3.Columns)
	}
	c.Query("SELECT 1", "d", cat)
	c.Query("SELECT 2", "d", cat)
	if n := c.shapes.order.Len(); n != 2 {
		t.Errorf("cache holds %d plans, bound is 2", n)
	}
}
