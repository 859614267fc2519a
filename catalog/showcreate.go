package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SQL is the type as MySQL 8.4 prints it in SHOW CREATE TABLE and
// information_schema.COLUMNS.COLUMN_TYPE: integer display widths only for
// TINYINT(1) and ZEROFILL columns, lower-case words.
func (ty Type) SQL() string {
	var s string
	switch ty.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		s = ty.Base
		if ty.Zerofill {
			w := ty.Length
			if w == 0 {
				w = map[string]int{"tinyint": 3, "smallint": 5, "mediumint": 8, "int": 10, "bigint": 20}[ty.Base]
			}
			s += "(" + strconv.Itoa(w) + ")"
		} else if ty.Base == "tinyint" && ty.Length == 1 {
			s += "(1)"
		}
	case "decimal":
		s = fmt.Sprintf("decimal(%d,%d)", ty.Length, ty.Scale)
	case "float", "double":
		s = ty.Base
		if ty.HasScale {
			s += fmt.Sprintf("(%d,%d)", ty.Length, ty.Scale)
		}
	case "bit", "char", "binary", "varchar", "varbinary":
		s = fmt.Sprintf("%s(%d)", ty.Base, ty.Length)
	case "datetime", "timestamp", "time":
		s = ty.Base
		if ty.Scale > 0 {
			s += "(" + strconv.Itoa(ty.Scale) + ")"
		}
	case "enum", "set":
		vals := make([]string, len(ty.Elems))
		for i, e := range ty.Elems {
			vals[i] = quoteString(e)
		}
		s = ty.Base + "(" + strings.Join(vals, ",") + ")"
	default:
		s = ty.Base
	}
	if ty.Unsigned {
		s += " unsigned"
	}
	if ty.Zerofill {
		s += " zerofill"
	}
	return s
}

// ShowCreate renders CREATE TABLE as MySQL 8.4's SHOW CREATE TABLE prints it.
// nextAutoInc is the table's AUTO_INCREMENT counter (the next value); MySQL shows
// it when it is above 1.
func (t *Table) ShowCreate(nextAutoInc uint64) string {
	var lines []string
	for i := range t.Columns {
		lines = append(lines, "  "+t.columnSQL(&t.Columns[i]))
	}
	for _, ix := range t.Indexes {
		lines = append(lines, "  "+indexSQL(ix))
	}
	for _, fk := range t.ForeignKeys {
		lines = append(lines, "  "+foreignKeySQL(fk))
	}
	for _, c := range t.SortedChecks() {
		lines = append(lines, "  "+c.Definition())
	}
	var b strings.Builder
	b.WriteString("CREATE TABLE " + quoteIdent(t.Name) + " (\n")
	b.WriteString(strings.Join(lines, ",\n"))
	b.WriteString("\n) " + t.Options(nextAutoInc))
	return b.String()
}

// SortedChecks are the CHECK constraints in the order SHOW CREATE TABLE lists
// them: by name.
func (t *Table) SortedChecks() []Check {
	checks := slices.Clone(t.Checks)
	slices.SortStableFunc(checks, func(a, b Check) int { return strings.Compare(a.Name, b.Name) })
	return checks
}

// Options are the table options as SHOW CREATE TABLE prints them after the
// definitions: ENGINE=... [AUTO_INCREMENT=n] DEFAULT CHARSET=... [COLLATE=...] [COMMENT=...].
func (t *Table) Options(nextAutoInc uint64) string {
	var b strings.Builder
	b.WriteString("ENGINE=" + t.Engine)
	if nextAutoInc > 1 {
		b.WriteString(" AUTO_INCREMENT=" + strconv.FormatUint(nextAutoInc, 10))
	}
	b.WriteString(" DEFAULT CHARSET=" + t.Charset)
	if t.Collation != primaryCollation[t.Charset] || t.Collation == "utf8mb4_0900_ai_ci" {
		b.WriteString(" COLLATE=" + t.Collation)
	}
	if t.Comment != "" {
		b.WriteString(" COMMENT=" + quoteString(t.Comment))
	}
	return b.String()
}

// ColumnDefinition is column c of t as SHOW CREATE TABLE prints it (its
// character set shows where it is not the table's).
func (t *Table) ColumnDefinition(c *Column) string { return t.columnSQL(c) }

// Definition is the key as SHOW CREATE TABLE prints it.
func (ix Index) Definition() string { return indexSQL(ix) }

// Definition is the foreign key as SHOW CREATE TABLE prints it.
func (fk ForeignKey) Definition() string { return foreignKeySQL(fk) }

// Definition is the CHECK constraint as SHOW CREATE TABLE prints it.
func (c Check) Definition() string {
	s := "CONSTRAINT " + quoteIdent(c.Name) + " CHECK (" + c.Expr + ")"
	if c.NotEnforced {
		s += " /*!80016 NOT ENFORCED */"
	}
	return s
}

func (t *Table) columnSQL(c *Column) string {
	var b strings.Builder
	b.WriteString(quoteIdent(c.Name) + " " + c.Type.SQL())
	if c.Type.Charset != "" && c.Type.Base != "json" {
		// MySQL prints the character set of a column whose collation is not the
		// table's, and the collation when it is not its character set's primary
		// one (or is utf8mb4_0900_ai_ci, always named).
		if c.Type.Collation != t.Collation || c.Type.Charset != t.Charset {
			b.WriteString(" CHARACTER SET " + c.Type.Charset)
			if c.Type.Collation != primaryCollation[c.Type.Charset] || c.Type.Collation == "utf8mb4_0900_ai_ci" {
				b.WriteString(" COLLATE " + c.Type.Collation)
			}
		}
	}
	if c.Generated != nil {
		kind := "VIRTUAL"
		if c.Generated.Stored {
			kind = "STORED"
		}
		b.WriteString(" GENERATED ALWAYS AS (" + c.Generated.Expr + ") " + kind)
	}
	if !c.Nullable {
		b.WriteString(" NOT NULL")
	} else if c.Type.Base == "timestamp" {
		b.WriteString(" NULL")
	}
	if c.Invisible {
		b.WriteString(" /*!80023 INVISIBLE */")
	}
	switch {
	case c.Generated != nil || c.AutoIncrement:
	case c.Default != nil && c.Default.Implicit:
	case c.Default != nil && c.Default.Null:
		b.WriteString(" DEFAULT NULL")
	case c.Default != nil && c.Default.Expr != "":
		b.WriteString(" DEFAULT " + c.Default.Expr)
	case c.Default != nil && c.Default.Bits:
		b.WriteString(" DEFAULT " + c.Default.Lit)
	case c.Default != nil:
		b.WriteString(" DEFAULT " + quoteString(c.Default.Lit))
	case c.Nullable && !c.Type.IsBlobLike() && !c.NoDefault:
		b.WriteString(" DEFAULT NULL")
	}
	if c.OnUpdate != "" {
		b.WriteString(" ON UPDATE " + c.OnUpdate)
	}
	if c.AutoIncrement {
		b.WriteString(" AUTO_INCREMENT")
	}
	if c.Comment != "" {
		b.WriteString(" COMMENT " + quoteString(c.Comment))
	}
	return b.String()
}

func indexSQL(ix Index) string {
	var parts []string
	for _, p := range ix.Parts {
		s := p.Expr
		if p.Column != "" {
			s = quoteIdent(p.Column)
			if p.Length > 0 {
				s += "(" + strconv.Itoa(p.Length) + ")"
			}
		}
		if p.Desc {
			s += " DESC"
		}
		parts = append(parts, s)
	}
	cols := "(" + strings.Join(parts, ",") + ")"
	var s string
	switch ix.Kind {
	case KindPrimary:
		s = "PRIMARY KEY " + cols
	case KindUnique:
		s = "UNIQUE KEY " + quoteIdent(ix.Name) + " " + cols
	case KindFulltext:
		s = "FULLTEXT KEY " + quoteIdent(ix.Name) + " " + cols
	default:
		s = "KEY " + quoteIdent(ix.Name) + " " + cols
	}
	if ix.Comment != "" {
		s += " COMMENT " + quoteString(ix.Comment)
	}
	return s
}

func foreignKeySQL(fk ForeignKey) string {
	q := func(names []string) string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = quoteIdent(n)
		}
		return strings.Join(out, ", ")
	}
	ref := quoteIdent(fk.RefTable)
	if fk.RefSchema != "" {
		ref = quoteIdent(fk.RefSchema) + "." + ref
	}
	s := "CONSTRAINT " + quoteIdent(fk.Name) + " FOREIGN KEY (" + q(fk.Columns) + ") REFERENCES " + ref + " (" + q(fk.RefColumns) + ")"
	if fk.OnDelete != "" {
		s += " ON DELETE " + fk.OnDelete
	}
	if fk.OnUpdate != "" {
		s += " ON UPDATE " + fk.OnUpdate
	}
	return s
}
