package infoschema

import (
	"strings"

	"github.com/binlite/binlite/catalog"
)

// Keys and constraints: KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS,
// TABLE_CONSTRAINTS and CHECK_CONSTRAINTS, from the catalog's keys, foreign keys
// and checks.

// refSchema is the schema a foreign key of a table in schema refers to.
func refSchema(schema string, fk *catalog.ForeignKey) string {
	if fk.RefSchema != "" {
		return fk.RefSchema
	}
	return schema
}

func keyColumnUsage(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, false) {
		if t.Def == nil {
			continue
		}
		base := func(name string) Values {
			return Values{"CONSTRAINT_CATALOG": "def", "CONSTRAINT_SCHEMA": t.schema, "CONSTRAINT_NAME": name,
				"TABLE_CATALOG": "def", "TABLE_SCHEMA": t.schema, "TABLE_NAME": t.Name,
				"POSITION_IN_UNIQUE_CONSTRAINT": nil, "REFERENCED_TABLE_SCHEMA": nil, "REFERENCED_TABLE_NAME": nil, "REFERENCED_COLUMN_NAME": nil}
		}
		for _, ix := range t.Def.Indexes {
			if ix.Kind != catalog.KindPrimary && ix.Kind != catalog.KindUnique {
				continue
			}
			pos := 0
			for _, p := range ix.Parts {
				if p.Column == "" {
					continue
				}
				pos++
				v := base(ix.Name)
				v["COLUMN_NAME"], v["ORDINAL_POSITION"] = p.Column, int64(pos)
				out = append(out, v)
			}
		}
		for i := range t.Def.ForeignKeys {
			fk := &t.Def.ForeignKeys[i]
			for j, col := range fk.Columns {
				v := base(fk.Name)
				v["COLUMN_NAME"], v["ORDINAL_POSITION"], v["POSITION_IN_UNIQUE_CONSTRAINT"] = col, int64(j+1), int64(j+1)
				v["REFERENCED_TABLE_SCHEMA"], v["REFERENCED_TABLE_NAME"] = refSchema(t.schema, fk), fk.RefTable
				if j < len(fk.RefColumns) {
					v["REFERENCED_COLUMN_NAME"] = fk.RefColumns[j]
				}
				out = append(out, v)
			}
		}
	}
	return out
}

func referentialConstraints(s *Schemas, src *Source) []Values {
	all := s.all(src, false)
	def := func(schema, table string) *catalog.Table {
		for _, t := range all {
			if t.schema == schema && strings.EqualFold(t.Name, table) {
				return t.Def
			}
		}
		return nil
	}
	rule := func(r string) string {
		if r == "" {
			return "NO ACTION"
		}
		return strings.ToUpper(r)
	}
	var out []Values
	for _, t := range all {
		if t.Def == nil {
			continue
		}
		for i := range t.Def.ForeignKeys {
			fk := &t.Def.ForeignKeys[i]
			rs := refSchema(t.schema, fk)
			out = append(out, Values{"CONSTRAINT_CATALOG": "def", "CONSTRAINT_SCHEMA": t.schema, "CONSTRAINT_NAME": fk.Name,
				"UNIQUE_CONSTRAINT_CATALOG": "def", "UNIQUE_CONSTRAINT_SCHEMA": rs,
				"UNIQUE_CONSTRAINT_NAME": uniqueOn(def(rs, fk.RefTable), fk.RefColumns), "MATCH_OPTION": "NONE",
				"UPDATE_RULE": rule(fk.OnUpdate), "DELETE_RULE": rule(fk.OnDelete), "TABLE_NAME": t.Name, "REFERENCED_TABLE_NAME": fk.RefTable})
		}
	}
	return out
}

// uniqueOn names the PRIMARY or UNIQUE key of def whose columns are cols (nil if
// none: MySQL's UNIQUE_CONSTRAINT_NAME is then NULL).
func uniqueOn(def *catalog.Table, cols []string) any {
	if def == nil {
		return nil
	}
	for _, ix := range def.Indexes {
		if (ix.Kind != catalog.KindPrimary && ix.Kind != catalog.KindUnique) || len(ix.Parts) != len(cols) {
			continue
		}
		same := true
		for i, p := range ix.Parts {
			same = same && strings.EqualFold(p.Column, cols[i])
		}
		if same {
			return ix.Name
		}
	}
	return nil
}

func tableConstraints(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, false) {
		if t.Def == nil {
			continue
		}
		add := func(name, kind, enforced string) {
			out = append(out, Values{"CONSTRAINT_CATALOG": "def", "CONSTRAINT_SCHEMA": t.schema, "CONSTRAINT_NAME": name,
				"TABLE_SCHEMA": t.schema, "TABLE_NAME": t.Name, "CONSTRAINT_TYPE": kind, "ENFORCED": enforced})
		}
		for _, ix := range t.Def.Indexes {
			switch ix.Kind {
			case catalog.KindPrimary:
				add(ix.Name, "PRIMARY KEY", "YES")
			case catalog.KindUnique:
				add(ix.Name, "UNIQUE", "YES")
			}
		}
		for _, fk := range t.Def.ForeignKeys {
			add(fk.Name, "FOREIGN KEY", "YES")
		}
		for _, c := range t.Def.Checks {
			add(c.Name, "CHECK", yesNo(!c.NotEnforced))
		}
	}
	return out
}

func checkConstraints(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, false) {
		if t.Def == nil {
			continue
		}
		for _, c := range t.Def.Checks {
			out = append(out, Values{"CONSTRAINT_CATALOG": "def", "CONSTRAINT_SCHEMA": t.schema, "CONSTRAINT_NAME": c.Name, "CHECK_CLAUSE": c.Expr})
		}
	}
	return out
}
