package infoschema

import (
	"sort"
	"strings"

	"github.com/binlite/binlite/catalog"
)

// builder makes one virtual table's rows.
type builder func(s *Schemas, src *Source) []Values

// Rows are the rows of a virtual table, laid out in its columns' order; nil if
// schema.name is not a virtual table. A table without a builder (VIEWS,
// TRIGGERS, ROUTINES ...: binlite has none of those objects) is empty.
func (s *Schemas) Rows(schema, name string, src *Source) [][]any {
	def := s.Table(schema, name)
	if def == nil {
		return nil
	}
	out := [][]any{}
	b := builders[Canonical(schema)+"."+strings.ToUpper(def.Name)]
	if b == nil {
		return out
	}
	for _, v := range b(s, src) {
		out = append(out, row(def, v))
	}
	return out
}

// builders are keyed by schema.TABLE (upper-case table name).
var builders = map[string]builder{
	"information_schema.SCHEMATA":                              schemata,
	"information_schema.TABLES":                                tables,
	"information_schema.COLUMNS":                               columns,
	"information_schema.STATISTICS":                            statistics,
	"information_schema.KEY_COLUMN_USAGE":                      keyColumnUsage,
	"information_schema.REFERENTIAL_CONSTRAINTS":               referentialConstraints,
	"information_schema.TABLE_CONSTRAINTS":                     tableConstraints,
	"information_schema.CHECK_CONSTRAINTS":                     checkConstraints,
	"information_schema.PARTITIONS":                            partitions,
	"information_schema.PROCESSLIST":                           processlist,
	"information_schema.CHARACTER_SETS":                        characterSets,
	"information_schema.COLLATIONS":                            collations,
	"information_schema.COLLATION_CHARACTER_SET_APPLICABILITY": applicability,
	"information_schema.ENGINES":                               engines,
	"information_schema.PLUGINS":                               plugins,
	"information_schema.VIEWS":                                 views,
	"information_schema.TRIGGERS":                              triggers,
	"performance_schema.THREADS":                               threads,
	"performance_schema.GLOBAL_VARIABLES":                      func(_ *Schemas, src *Source) []Values { return nameValues(src.Variables(true)) },
	"performance_schema.SESSION_VARIABLES":                     func(_ *Schemas, src *Source) []Values { return nameValues(src.Variables(false)) },
	"performance_schema.GLOBAL_STATUS":                         func(_ *Schemas, src *Source) []Values { return nameValues(src.Status()) },
	"performance_schema.SESSION_STATUS":                        func(_ *Schemas, src *Source) []Values { return nameValues(src.Status()) },
	"performance_schema.REPLICATION_CONNECTION_CONFIGURATION":  connectionConfiguration,
	"performance_schema.REPLICATION_CONNECTION_STATUS":         connectionStatus,
	"performance_schema.REPLICATION_APPLIER_CONFIGURATION":     applierConfiguration,
	"performance_schema.REPLICATION_APPLIER_STATUS":            applierStatus,
	"performance_schema.REPLICATION_APPLIER_STATUS_BY_WORKER":  byWorker,
}

// allTables are the node's schemas, then the virtual ones, each with its tables
// (virtual tables marked by kind).
type listed struct {
	schema string
	Table
	kind string // BASE TABLE or SYSTEM VIEW
}

func (s *Schemas) all(src *Source, withVirtual bool) []listed {
	var out []listed
	for _, sc := range src.Schemas() {
		for _, t := range sc.Tables {
			out = append(out, listed{sc.Name, t, tableKind(t)})
		}
	}
	if withVirtual {
		for _, schema := range []string{InformationSchema, PerformanceSchema} {
			kind := "SYSTEM VIEW"
			if schema == PerformanceSchema {
				kind = "BASE TABLE"
			}
			for _, n := range s.Tables(schema) {
				out = append(out, listed{schema, Table{Name: n, Def: s.Table(schema, n)}, kind})
			}
		}
	}
	return out
}

func schemata(_ *Schemas, src *Source) []Values {
	names := []string{InformationSchema, PerformanceSchema}
	for _, sc := range src.Schemas() {
		names = append(names, sc.Name)
	}
	sort.Strings(names)
	out := make([]Values, 0, len(names))
	for _, n := range names {
		coll := src.DefaultCollation
		if IsVirtual(n) {
			coll = textCollation
		}
		out = append(out, Values{"CATALOG_NAME": "def", "SCHEMA_NAME": n, "DEFAULT_CHARACTER_SET_NAME": catalog.CharsetOf(coll),
			"DEFAULT_COLLATION_NAME": coll, "DEFAULT_ENCRYPTION": "NO"})
	}
	return out
}

func tables(s *Schemas, src *Source) []Values {
	var out []Values
	created := src.Started.UTC().Format("2006-01-02 15:04:05")
	for _, t := range s.all(src, true) {
		v := Values{"TABLE_CATALOG": "def", "TABLE_SCHEMA": t.schema, "TABLE_NAME": t.Name, "TABLE_TYPE": t.kind,
			"VERSION": int64(10), "CREATE_TIME": created, "CREATE_OPTIONS": "", "TABLE_COMMENT": ""}
		switch {
		case t.kind == "SYSTEM VIEW":
			v["CREATE_TIME"] = created
		case t.kind == "VIEW":
			v["CREATE_TIME"], v["TABLE_COMMENT"] = nil, "VIEW"
		case t.schema == PerformanceSchema:
			v["ENGINE"], v["ROW_FORMAT"], v["TABLE_COLLATION"] = "PERFORMANCE_SCHEMA", "Dynamic", "utf8mb4_0900_ai_ci"
			v["TABLE_ROWS"], v["AVG_ROW_LENGTH"], v["DATA_LENGTH"], v["MAX_DATA_LENGTH"], v["INDEX_LENGTH"], v["DATA_FREE"] = int64(0), int64(0), int64(0), int64(0), int64(0), int64(0)
		default:
			v["ENGINE"], v["ROW_FORMAT"] = "InnoDB", "Dynamic"
			v["TABLE_ROWS"], v["AVG_ROW_LENGTH"], v["DATA_LENGTH"], v["MAX_DATA_LENGTH"], v["INDEX_LENGTH"], v["DATA_FREE"] = int64(0), int64(0), int64(16384), int64(0), int64(0), int64(0)
			if t.NextAutoIncrement > 0 {
				v["AUTO_INCREMENT"] = int64(t.NextAutoIncrement)
			}
			if t.Def != nil {
				v["TABLE_COLLATION"], v["TABLE_COMMENT"] = t.Def.Collation, t.Def.Comment
				if t.Def.Engine != "" {
					v["ENGINE"] = t.Def.Engine
				}
			}
		}
		out = append(out, v)
	}
	return out
}

func columns(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, true) {
		if t.Def == nil {
			continue
		}
		for i := range t.Def.Columns {
			v := columnValues(t.schema, t.Name, t.Def, i)
			if t.kind == "SYSTEM VIEW" || t.schema == PerformanceSchema {
				v["PRIVILEGES"] = "select"
			}
			out = append(out, v)
		}
	}
	return out
}

func statistics(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, false) {
		if t.Def == nil {
			continue
		}
		for _, ix := range t.Def.Indexes {
			for i, p := range ix.Parts {
				v := Values{"TABLE_CATALOG": "def", "TABLE_SCHEMA": t.schema, "TABLE_NAME": t.Name,
					"NON_UNIQUE": int64(1), "INDEX_SCHEMA": t.schema, "INDEX_NAME": ix.Name, "SEQ_IN_INDEX": int64(i + 1),
					"COLLATION": "A", "CARDINALITY": int64(0), "SUB_PART": nil, "NULLABLE": "", "INDEX_TYPE": "BTREE",
					"COMMENT": "", "INDEX_COMMENT": ix.Comment, "IS_VISIBLE": "YES", "COLUMN_NAME": nil, "EXPRESSION": nil}
				if ix.Kind == catalog.KindPrimary || ix.Kind == catalog.KindUnique {
					v["NON_UNIQUE"] = int64(0)
				}
				if ix.Kind == catalog.KindFulltext {
					v["INDEX_TYPE"], v["COLLATION"], v["CARDINALITY"] = "FULLTEXT", nil, nil
				}
				if p.Desc {
					v["COLLATION"] = "D"
				}
				if p.Length > 0 {
					v["SUB_PART"] = int64(p.Length)
				}
				if p.Column != "" {
					v["COLUMN_NAME"] = p.Column
					if c, ok := t.Def.Column(p.Column); ok && c.Nullable {
						v["NULLABLE"] = "YES"
					}
				} else {
					v["EXPRESSION"] = unparen(p.Expr)
					v["NULLABLE"] = "YES"
				}
				out = append(out, v)
			}
		}
	}
	return out
}

func partitions(s *Schemas, src *Source) []Values {
	var out []Values
	created := src.Started.UTC().Format("2006-01-02 15:04:05")
	for _, t := range s.all(src, false) {
		out = append(out, Values{"TABLE_CATALOG": "def", "TABLE_SCHEMA": t.schema, "TABLE_NAME": t.Name,
			"TABLE_ROWS": int64(0), "AVG_ROW_LENGTH": int64(0), "DATA_LENGTH": int64(16384), "MAX_DATA_LENGTH": int64(0),
			"INDEX_LENGTH": int64(0), "DATA_FREE": int64(0), "CREATE_TIME": created, "PARTITION_COMMENT": ""})
	}
	return out
}
