package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Table is one table's MySQL definition.
type Table struct {
	Name        string       `json:"name"`
	Columns     []Column     `json:"columns"`
	Indexes     []Index      `json:"indexes,omitempty"` // in MySQL's order: PRIMARY, UNIQUE, the others
	ForeignKeys []ForeignKey `json:"foreign_keys,omitempty"`
	Checks      []Check      `json:"checks,omitempty"`
	Engine      string       `json:"engine"`
	Charset     string       `json:"charset"`
	Collation   string       `json:"collation"`
	Comment     string       `json:"comment,omitempty"`
	// AutoIncrement is AUTO_INCREMENT=N as declared; the live counter is SQLite's.
	AutoIncrement uint64 `json:"auto_increment,omitempty"`
	// View is set for a view (view.go); Triggers are the table's, in the order
	// they fire (MySQL's ACTION_ORDER).
	View     *View     `json:"view,omitempty"`
	Triggers []Trigger `json:"triggers,omitempty"`
}

// ExactDecimal reports whether the column keeps DECIMAL values exactly, as text
// ordered by the binlite_decimal collation (package decimal): every DECIMAL
// column but a generated one, whose value SQLite computes.
func (c *Column) ExactDecimal() bool { return c.Type.Base == "decimal" && c.Generated == nil }

// Column is one column's MySQL definition.
type Column struct {
	Name          string     `json:"name"`
	Type          Type       `json:"type"`
	Nullable      bool       `json:"nullable"`
	Default       *Default   `json:"default,omitempty"` // nil: no DEFAULT clause
	OnUpdate      string     `json:"on_update,omitempty"`
	AutoIncrement bool       `json:"auto_increment,omitempty"`
	Comment       string     `json:"comment,omitempty"`
	Generated     *Generated `json:"generated,omitempty"`
	Invisible     bool       `json:"invisible,omitempty"`
	// NoDefault: ALTER ... DROP DEFAULT took the column's default away (MySQL then
	// prints no DEFAULT clause, not even DEFAULT NULL).
	NoDefault bool `json:"no_default,omitempty"`
	// DefaultSupplied: the SQLite table's own DEFAULT clause does not give the
	// column its MySQL default (an expression that reads other columns, or a
	// default ALTER changed), so an INSERT that leaves the column out must write
	// it (see Table.InsertDefaults).
	DefaultSupplied bool `json:"default_supplied,omitempty"`
}

// Type is a MySQL column type as declared.
type Type struct {
	Base      string   `json:"base"`             // lower-case MySQL name: int, varchar, decimal, enum ...
	Length    int      `json:"length,omitempty"` // display width, character or byte length, precision; 0: none given
	Scale     int      `json:"scale,omitempty"`  // DECIMAL/FLOAT/DOUBLE digits after the point, or fsp of temporal types
	HasScale  bool     `json:"has_scale,omitempty"`
	Unsigned  bool     `json:"unsigned,omitempty"`
	Zerofill  bool     `json:"zerofill,omitempty"`
	Elems     []string `json:"elems,omitempty"` // ENUM and SET values
	Charset   string   `json:"charset,omitempty"`
	Collation string   `json:"collation,omitempty"`
}

// Default is a column's DEFAULT clause.
type Default struct {
	Null bool   `json:"null,omitempty"`
	Lit  string `json:"lit,omitempty"`  // a literal, normalised to the column's type
	Bits bool   `json:"bits,omitempty"` // Lit is a b'...' literal
	Expr string `json:"expr,omitempty"` // an expression as MySQL prints it: CURRENT_TIMESTAMP(3), (rand())
	// SQLite is an expression default as SQLite evaluates it (column names
	// quoted as they are in the table), and Refs the columns it reads.
	SQLite string   `json:"sqlite,omitempty"`
	Refs   []string `json:"refs,omitempty"`
	// Implicit: no DEFAULT clause; Lit is the default MySQL gives the column
	// anyway (a NOT NULL ENUM's first member), which SHOW CREATE TABLE omits.
	Implicit bool `json:"implicit,omitempty"`
}

// Generated is a generated column's expression as MySQL prints it.
type Generated struct {
	Expr   string `json:"expr"`
	Stored bool   `json:"stored"`
}

// Index is a key: PRIMARY, UNIQUE, INDEX or FULLTEXT.
type Index struct {
	Name    string      `json:"name"`
	Kind    string      `json:"kind"`
	Parts   []IndexPart `json:"parts"`
	Comment string      `json:"comment,omitempty"`
}

// IndexPart is one key part: a column, with a prefix length, or an expression.
type IndexPart struct {
	Column string `json:"column,omitempty"`
	Expr   string `json:"expr,omitempty"`
	Length int    `json:"length,omitempty"`
	Desc   bool   `json:"desc,omitempty"`
}

// ForeignKey is a FOREIGN KEY constraint.
type ForeignKey struct {
	Name       string   `json:"name"`
	Columns    []string `json:"columns"`
	RefSchema  string   `json:"ref_schema,omitempty"`
	RefTable   string   `json:"ref_table"`
	RefColumns []string `json:"ref_columns"`
	OnDelete   string   `json:"on_delete,omitempty"` // CASCADE, SET NULL, NO ACTION, SET DEFAULT; "" is RESTRICT
	OnUpdate   string   `json:"on_update,omitempty"`
}

// Check is a CHECK constraint.
type Check struct {
	Name        string `json:"name"`
	Expr        string `json:"expr"`
	NotEnforced bool   `json:"not_enforced,omitempty"`
}

// Index kinds.
const (
	KindPrimary  = "PRIMARY"
	KindUnique   = "UNIQUE"
	KindIndex    = "INDEX"
	KindFulltext = "FULLTEXT"
)

// Column returns the column named name (MySQL column names are case-insensitive).
func (t *Table) Column(name string) (*Column, bool) {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return &t.Columns[i], true
		}
	}
	return nil, false
}

// PrimaryKey returns the PRIMARY index, if any.
func (t *Table) PrimaryKey() (*Index, bool) {
	for i := range t.Indexes {
		if t.Indexes[i].Kind == KindPrimary {
			return &t.Indexes[i], true
		}
	}
	return nil, false
}

// Encode is the stored form of a definition.
func (t *Table) Encode() (string, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return "", fmt.Errorf("catalog: encode %s: %w", t.Name, err)
	}
	return string(b), nil
}

// Decode reads a stored definition.
func Decode(s string) (*Table, error) {
	var t Table
	if err := json.Unmarshal([]byte(s), &t); err != nil {
		return nil, fmt.Errorf("catalog: decode definition: %w", err)
	}
	return &t, nil
}

// Wide reports whether the type holds unsigned 64-bit values, which binlite keeps
// from 2^63 up as 8-byte BLOBs (package u64): BIGINT UNSIGNED and BIT(64).
func (ty Type) Wide() bool {
	return ty.Base == "bigint" && ty.Unsigned || ty.Base == "bit" && ty.Length == 64
}

// IsTextual reports whether values of the type are character strings (they have
// a character set).
func (ty Type) IsTextual() bool {
	switch ty.Base {
	case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set":
		return ty.Charset != "binary"
	}
	return false
}

// IsBlobLike reports whether the type is a BLOB or TEXT (which print no DEFAULT NULL).
func (ty Type) IsBlobLike() bool {
	switch ty.Base {
	case "tinyblob", "blob", "mediumblob", "longblob", "tinytext", "text", "mediumtext", "longtext":
		return true
	}
	return false
}

// Deprecations are the warnings MySQL 8.4 gives for deprecated syntax in the
// definition (1681): integer display widths (except TINYINT(1)), ZEROFILL,
// FLOAT(M,D)/DOUBLE(M,D), UNSIGNED on DECIMAL, FLOAT and DOUBLE. Each text once,
// in column order.
func (t *Table) Deprecations() []string {
	var out []string
	add := func(s string) { out = append(out, s) } // MySQL warns once per column
	for _, c := range t.Columns {
		ty := c.Type
		switch ty.Base {
		case "tinyint", "smallint", "mediumint", "int", "bigint":
			if ty.Zerofill {
				add("The ZEROFILL attribute is deprecated and will be removed in a future release. Use the LPAD function to zero-pad numbers, or store the formatted numbers in a CHAR column.")
			}
			if ty.Length > 0 && !(ty.Base == "tinyint" && ty.Length == 1 && !ty.Zerofill) {
				add("Integer display width is deprecated and will be removed in a future release.")
			}
		case "decimal", "float", "double":
			if ty.Base != "decimal" && ty.HasScale {
				add("Specifying number of digits for floating point data types is deprecated and will be removed in a future release.")
			}
			if ty.Unsigned {
				add("UNSIGNED for decimal and floating point data types is deprecated and support for it will be removed in a future release.")
			}
		}
	}
	return out
}

// MaxBytes is the longest value in bytes of a TEXT or BLOB type (0 for others).
func (ty Type) MaxBytes() uint32 {
	switch ty.Base {
	case "tinytext", "tinyblob":
		return 255
	case "text", "blob":
		return 65535
	case "mediumtext", "mediumblob":
		return 16777215
	case "longtext", "longblob":
		return 4294967295
	}
	return 0
}
