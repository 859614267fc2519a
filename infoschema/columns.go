package infoschema

import (
	"strings"
	"unicode/utf8"

	"github.com/binlite/binlite/catalog"
)

// The meaning of a column's definition in information_schema.COLUMNS (and SHOW
// COLUMNS, which MySQL answers from it).

// ColumnKey is COLUMN_KEY: PRI for a primary key column (or the first NOT NULL
// UNIQUE key's when there is no primary key, which InnoDB makes the clustered
// key), UNI for a single-column UNIQUE key, MUL for the first column of any other
// key.
func ColumnKey(def *catalog.Table, col string) string {
	pk, hasPK := def.PrimaryKey()
	if !hasPK {
		for i := range def.Indexes {
			ix := &def.Indexes[i]
			if ix.Kind != catalog.KindUnique {
				continue
			}
			notNull := true
			for _, p := range ix.Parts {
				if c, ok := def.Column(p.Column); !ok || c.Nullable {
					notNull = false
				}
			}
			if notNull {
				pk, hasPK = ix, true
				break
			}
		}
	}
	if hasPK {
		for _, p := range pk.Parts {
			if strings.EqualFold(p.Column, col) {
				return "PRI"
			}
		}
	}
	key := ""
	for _, ix := range def.Indexes {
		if len(ix.Parts) == 0 || !strings.EqualFold(ix.Parts[0].Column, col) {
			continue
		}
		if ix.Kind == catalog.KindUnique && len(ix.Parts) == 1 {
			return "UNI"
		}
		key = "MUL"
	}
	return key
}

// ColumnDefault is COLUMN_DEFAULT: NULL without a DEFAULT clause or with DEFAULT
// NULL, an expression default as MySQL prints it without its parentheses, a
// literal as its text.
func ColumnDefault(c *catalog.Column) any {
	switch {
	case c.Default == nil || c.Default.Null || c.Default.Implicit:
		return nil
	case c.Default.Expr != "":
		return unparen(c.Default.Expr)
	case c.Default.Bits:
		return "b'" + c.Default.Lit + "'"
	}
	return c.Default.Lit
}

// Extra is EXTRA: auto_increment, DEFAULT_GENERATED for an expression default,
// on update ..., VIRTUAL/STORED GENERATED, INVISIBLE.
func Extra(c *catalog.Column) string {
	var extra []string
	if c.Default != nil && c.Default.Expr != "" && !c.Default.Null {
		extra = append(extra, "DEFAULT_GENERATED")
	}
	if c.AutoIncrement {
		extra = append(extra, "auto_increment")
	}
	if c.OnUpdate != "" {
		extra = append(extra, "on update "+c.OnUpdate)
	}
	if c.Generated != nil {
		if c.Generated.Stored {
			extra = append(extra, "STORED GENERATED")
		} else {
			extra = append(extra, "VIRTUAL GENERATED")
		}
	}
	if c.Invisible {
		extra = append(extra, "INVISIBLE")
	}
	return strings.Join(extra, " ")
}

// columnValues is one COLUMNS row.
func columnValues(schema, table string, def *catalog.Table, i int) Values {
	c := &def.Columns[i]
	ty := c.Type
	v := Values{
		"TABLE_CATALOG": "def", "TABLE_SCHEMA": schema, "TABLE_NAME": table, "COLUMN_NAME": c.Name,
		"ORDINAL_POSITION": int64(i + 1), "COLUMN_DEFAULT": ColumnDefault(c), "IS_NULLABLE": yesNo(c.Nullable),
		"DATA_TYPE": ty.Base, "COLUMN_TYPE": ty.SQL(), "COLUMN_KEY": ColumnKey(def, c.Name), "EXTRA": Extra(c),
		"PRIVILEGES": "select,insert,update,references", "COLUMN_COMMENT": c.Comment, "GENERATION_EXPRESSION": "",
		"CHARACTER_MAXIMUM_LENGTH": nil, "CHARACTER_OCTET_LENGTH": nil, "NUMERIC_PRECISION": nil,
		"NUMERIC_SCALE": nil, "DATETIME_PRECISION": nil, "CHARACTER_SET_NAME": nil, "COLLATION_NAME": nil,
	}
	if c.Generated != nil {
		v["GENERATION_EXPRESSION"] = c.Generated.Expr
	}
	if chars, octets, ok := lengths(ty); ok {
		v["CHARACTER_MAXIMUM_LENGTH"], v["CHARACTER_OCTET_LENGTH"] = chars, octets
	}
	if ty.IsTextual() {
		v["CHARACTER_SET_NAME"], v["COLLATION_NAME"] = ty.Charset, ty.Collation
	}
	switch ty.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		p := map[string]int64{"tinyint": 3, "smallint": 5, "mediumint": 7, "int": 10, "bigint": 19}[ty.Base]
		if ty.Base == "bigint" && ty.Unsigned {
			p = 20
		}
		v["NUMERIC_PRECISION"], v["NUMERIC_SCALE"] = p, int64(0)
	case "decimal":
		v["NUMERIC_PRECISION"], v["NUMERIC_SCALE"] = int64(ty.Length), int64(ty.Scale)
	case "float", "double":
		p := int64(12)
		if ty.Base == "double" {
			p = 22
		}
		if ty.HasScale {
			p = int64(ty.Length)
			v["NUMERIC_SCALE"] = int64(ty.Scale)
		}
		v["NUMERIC_PRECISION"] = p
	case "bit":
		v["NUMERIC_PRECISION"] = int64(max(ty.Length, 1))
	case "datetime", "timestamp", "time":
		v["DATETIME_PRECISION"] = int64(ty.Scale)
	}
	return v
}

// lengths are CHARACTER_MAXIMUM_LENGTH and CHARACTER_OCTET_LENGTH of a string
// type (ok=false for other types).
func lengths(ty catalog.Type) (chars, octets int64, ok bool) {
	perChar := int64(1)
	if ty.IsTextual() {
		perChar = int64(catalog.MaxCharBytes(ty.Charset))
	}
	switch ty.Base {
	case "char", "varchar", "binary", "varbinary":
		n := int64(max(ty.Length, 0))
		if (ty.Base == "char" || ty.Base == "binary") && ty.Length == 0 {
			n = 1
		}
		return n, n * perChar, true
	case "tinytext", "text", "mediumtext", "longtext", "tinyblob", "blob", "mediumblob", "longblob":
		n := int64(ty.MaxBytes())
		return n, n, true
	case "enum", "set":
		n := 0
		for i, e := range ty.Elems {
			l := utf8.RuneCountInString(e)
			if ty.Base == "set" {
				n += l
				if i > 0 {
					n++ // the comma
				}
			} else {
				n = max(n, l)
			}
		}
		return int64(n), int64(n) * perChar, true
	}
	return 0, 0, false
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// unparen is an expression without the parentheses around it, if it has them.
func unparen(e string) string {
	if strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") {
		return e[1 : len(e)-1]
	}
	return e
}
