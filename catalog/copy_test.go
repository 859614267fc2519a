package catalog

import (
	"strings"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

func col(name string, ty Type, nullable bool) *Column {
	return &Column{Name: name, Type: ty, Nullable: nullable}
}

var (
	tInt        = Type{Base: "int"}
	tInt11      = Type{Base: "int", Length: 11}
	tTiny       = Type{Base: "tinyint"}
	tBigint     = Type{Base: "bigint"}
	tBigintU    = Type{Base: "bigint", Unsigned: true}
	tDec        = Type{Base: "decimal", Length: 6, Scale: 2, HasScale: true}
	tVarchar5   = Type{Base: "varchar", Length: 5, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tVarchar20  = Type{Base: "varchar", Length: 20, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tVarchar70  = Type{Base: "varchar", Length: 70, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tChar5      = Type{Base: "char", Length: 5, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tLatin      = Type{Base: "varchar", Length: 20, Charset: "latin1", Collation: "latin1_swedish_ci"}
	tDate       = Type{Base: "date"}
	tDatetime   = Type{Base: "datetime"}
	tDatetime3  = Type{Base: "datetime", Scale: 3}
	tBlob       = Type{Base: "blob", Charset: "binary"}
	tEnumAB     = Type{Base: "enum", Elems: []string{"a", "b"}, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tEnumABC    = Type{Base: "enum", Elems: []string{"a", "b", "c"}, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tEnumBA     = Type{Base: "enum", Elems: []string{"b", "a"}, Charset: "utf8mb4", Collation: "utf8mb4_general_ci"}
	tDouble     = Type{Base: "double"}
	tFloat      = Type{Base: "float"}
	tJSON       = Type{Base: "json"}
	tBinary4    = Type{Base: "binary", Length: 4, Charset: "binary"}
	tVarbinary4 = Type{Base: "varbinary", Length: 4, Charset: "binary"}
)

// CopyValue converts a value as MySQL's ALTER TABLE does, or refuses (1235) a
// conversion binlite would make differently.
func TestCopyValue(t *testing.T) {
	for _, c := range []struct {
		from, to Type
		want     string // the expression's start; "" for a refusal
	}{
		{tInt, tInt11, `"v"`},
		{tInt, tTiny, `binlite_adjust_int("v", -128, 127, NULL, 'v', 0)`},
		{tInt, tBigintU, `binlite_adjust_int("v", 0, 9223372036854775807, NULL, 'v', 0)`},
		{tVarchar20, tInt, `binlite_adjust_int(`},
		{tDouble, tDec, `binlite_adjust_dec("v", 6, 2, 0, NULL, 'v', 0)`},
		{tVarchar20, tVarchar5, `binlite_adjust_text("v", 5, 0, NULL, 'v', 0)`},
		{tVarchar20, tChar5, `binlite_alter_text(rtrim("v", ' '), 5, 0, 'v')`},
		{tInt, tVarchar5, `binlite_alter_text("v", 5, 0, 'v')`},
		{tVarchar20, tEnumAB, `binlite_enum_store("v", '["a","b"]'`},
		{tEnumAB, tEnumBA, `binlite_enum_store(`},
		{tVarchar20, tDate, `"v"`},
		{tDate, tDatetime3, `("v" || ' 00:00:00.000')`},
		{tVarchar20, tJSON, `"v"`},
		{tVarbinary4, tBlob, `binlite_adjust_text("v", 65535, 1, NULL, 'v', 0)`},
		{tFloat, tDouble, `"v"`},
		{tDouble, tFloat, ""},
		{tDatetime, tDate, ""},
		{tDatetime, tDatetime3, ""},
		{tInt, tDate, ""},
		{tVarchar20, tBlob, ""},
		{tVarbinary4, tBinary4, ""},
		{tVarchar20, tLatin, ""},
		{tDouble, tVarchar20, ""},
	} {
		got, err := CopyValue(`"v"`, col("v", c.from, true), col("v", c.to, true))
		switch {
		case c.want == "" && codeOf(err) != mysqlerr.ErNotSupportedYet:
			t.Errorf("%s → %s: %q, %v; want 1235", c.from.SQL(), c.to.SQL(), got, err)
		case c.want != "" && (err != nil || !strings.HasPrefix(got, c.want)):
			t.Errorf("%s → %s: %q, %v; want %s...", c.from.SQL(), c.to.SQL(), got, err, c.want)
		}
	}
}

// NullCopy gives a column made NOT NULL its implicit default for a NULL, and
// says which error strict mode gives.
func TestNullCopy(t *testing.T) {
	for _, c := range []struct {
		ty      Type
		copying bool
		want    string
	}{
		{tInt, false, `binlite_alter_null("v", 0, 'v', 0)`},
		{tVarchar5, true, `binlite_alter_null("v", '', 'v', 1)`},
		{tEnumAB, false, `binlite_alter_null("v", 'a', 'v', 0)`},
		{Type{Base: "decimal", Length: 5, Scale: 2}, false, `binlite_alter_null("v", '0.00', 'v', 0)`},
	} {
		got, err := NullCopy(`"v"`, col("v", c.ty, false), c.copying)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.ty.SQL(), got, err, c.want)
		}
	}
	if _, err := NullCopy(`"v"`, col("v", tDate, false), false); codeOf(err) != mysqlerr.ErNotSupportedYet {
		t.Errorf("DATE made NOT NULL: %v, want 1235", err)
	}
}

// ChangeCopies says when InnoDB copies the rows (the affected rows MySQL reports).
func TestChangeCopies(t *testing.T) {
	for _, c := range []struct {
		from, to Type
		want     bool
	}{
		{tVarchar5, tVarchar20, false},
		{tVarchar20, tVarchar5, true},
		{tVarchar20, tVarchar70, true}, // 80 bytes to 280: a second length byte
		{tInt, tInt11, false},
		{tInt, tBigint, true},
		{tEnumAB, tEnumABC, false},
		{tEnumAB, tEnumBA, true},
		{tDec, Type{Base: "decimal", Length: 8, Scale: 2, HasScale: true}, true},
		{tVarchar20, tLatin, true},
	} {
		if got := ChangeCopies(col("v", c.from, true), col("v", c.to, true)); got != c.want {
			t.Errorf("%s → %s: copies %v, want %v", c.from.SQL(), c.to.SQL(), got, c.want)
		}
	}
	stored := col("g", tInt, true)
	stored.Generated = &Generated{Expr: "(`a` + 1)", Stored: true}
	if !ChangeCopies(col("g", tInt, true), stored) {
		t.Errorf("a column made STORED generated does not copy")
	}
}

// Dependent refuses to drop or rename a column a CHECK constraint, a generated
// column or a default expression reads.
func TestDependent(t *testing.T) {
	def, err := Build(parseCreate(t, "CREATE TABLE t (a INT, b INT, c INT AS (b * 2), d INT DEFAULT (a + 1), e INT, CONSTRAINT ck CHECK (e > 0))"), "")
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range map[string]uint16{
		"e": mysqlerr.ErDependentByCheckConstraint,
		"b": mysqlerr.ErDependentByGeneratedColumn,
		"a": mysqlerr.ErNotSupportedYet,
		"c": 0,
		"d": 0,
	} {
		if got := codeOf(def.Dependent(name)); got != code {
			t.Errorf("Dependent(%s) = %d, want %d", name, got, code)
		}
	}
}

// RenameReferenceJSON follows a referenced column's new name in the foreign
// keys that reference it, and leaves every other definition as it is.
func TestRenameReferenceJSON(t *testing.T) {
	child, err := Build(parseCreate(t, "CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id))"), "")
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := child.Encode()
	out, err := RenameReferenceJSON(enc, "P", "ID", "pk")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Decode(out)
	if rc := got.ForeignKeys[0].RefColumns; len(rc) != 1 || rc[0] != "pk" {
		t.Errorf("referenced columns after the rename: %v", rc)
	}
	if same, _ := RenameReferenceJSON(enc, "other", "id", "pk"); same != enc {
		t.Errorf("a definition that references another table changed: %s", same)
	}
}

// An unnamed CHECK takes the next number a named one does not use (ALTER TABLE
// ... ADD CHECK builds the table again with the old constraints named).
func TestCheckNamesSkipUsed(t *testing.T) {
	def, err := Build(parseCreate(t, "CREATE TABLE t (a INT, CONSTRAINT t_chk_1 CHECK (a > 0), CONSTRAINT t_chk_2 CHECK (a < 9), CHECK (a <> 5))"), "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range def.Checks {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "t_chk_1,t_chk_2,t_chk_3" {
		t.Errorf("check names: %v", names)
	}
}

// SHOW CREATE TABLE's text builds the same definition again: ALTER TABLE and
// CREATE TABLE ... LIKE rest on it.
func TestShowCreateRoundTrip(t *testing.T) {
	for _, sql := range []string{
		"CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL COMMENT 'it''s', price DECIMAL(10,2) DEFAULT 0, " +
			"qty INT CHECK (qty >= 0), e ENUM('a','b') NOT NULL, c CHAR(3) CHARACTER SET latin1, ts TIMESTAMP(3) NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), " +
			"g INT AS (qty * 2) STORED, b BIT(3) DEFAULT b'101', UNIQUE KEY u (name(10)), KEY (qty), CONSTRAINT named CHECK (price >= 0) NOT ENFORCED) COMMENT='x'",
		"CREATE TABLE d (a INT DEFAULT (1 + 1), u VARCHAR(36) DEFAULT (uuid()), j JSON DEFAULT (json_array()))",
	} {
		def, err := Build(parseCreate(t, sql), "utf8mb4_general_ci")
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		text := def.ShowCreate(0)
		again, err := Build(parseCreate(t, text), "utf8mb4_general_ci")
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := again.ShowCreate(0); got != text {
			t.Errorf("SHOW CREATE TABLE of SHOW CREATE TABLE's text:\n%s\nwant:\n%s", got, text)
		}
	}
}
