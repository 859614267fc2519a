package session

import (
	"slices"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/infoschema"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// SHOW TABLES, COLUMNS, INDEX and TABLE STATUS of the virtual schemas, and SHOW
// INDEX and TABLE STATUS from the catalog's definitions, as information_schema
// shows them (MySQL 8.4 answers these SHOWs from information_schema).

// virtualDef is the definition of a virtual table (nil for other tables).
func (s *Session) virtualDef(db, table string) *catalog.Table {
	v, err := s.env.virtualSchemas()
	if err != nil {
		return nil
	}
	return v.Table(db, table)
}

// showVirtualTables is SHOW [FULL] TABLES of a virtual schema.
func (s *Session) showVirtualTables(x *sqlcompat.Show) (*mp.Result, error) {
	v, err := s.env.virtualSchemas()
	if err != nil {
		return nil, err
	}
	db := infoschema.Canonical(x.DB)
	kind := "SYSTEM VIEW"
	if db == infoschema.PerformanceSchema {
		kind = "BASE TABLE"
	}
	rows := [][]any{}
	names := v.Tables(db)
	slices.Sort(names)
	for _, t := range names {
		if x.Full {
			rows = append(rows, []any{t, kind})
		} else {
			rows = append(rows, []any{t})
		}
	}
	cols := []string{"Tables_in_" + db}
	if x.Full {
		cols = append(cols, "Table_type")
	}
	return stringResult(cols, rows), nil
}

var showIndexColumns = []string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation", "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible", "Expression"}

// showIndexFromDef is SHOW INDEX from a table's definition: information_schema's
// STATISTICS rows of the table.
func (s *Session) showIndexFromDef(db, table string, def *catalog.Table) (*mp.Result, error) {
	rows, err := s.statisticsOf(db, table, def)
	if err != nil {
		return nil, err
	}
	// The types of information_schema.STATISTICS's columns.
	res := stringResult(showIndexColumns, rows)
	setColumn(res, 1, mp.TypeLong, 0, 11)
	setColumn(res, 3, mp.TypeLong, mp.UnsignedFlag, 10)
	setColumn(res, 6, mp.TypeLongLong, 0, 21)
	setColumn(res, 7, mp.TypeLongLong, 0, 21)
	setColumn(res, 14, mp.TypeBlob, mp.BlobFlag, 0xffffffff)
	return res, nil
}

// statisticsOf lays the STATISTICS rows of one table out as SHOW INDEX does.
func (s *Session) statisticsOf(db, table string, def *catalog.Table) ([][]any, error) {
	v, err := s.env.virtualSchemas()
	if err != nil {
		return nil, err
	}
	src := s.virtualSource()
	src.Schemas = func() []infoschema.Schema {
		return []infoschema.Schema{{Name: db, Tables: []infoschema.Table{{Name: table, Def: def}}}}
	}
	stats := v.Table(infoschema.InformationSchema, "STATISTICS")
	col := map[string]int{}
	for i, c := range stats.Columns {
		col[c.Name] = i
	}
	rows := [][]any{}
	for _, r := range v.Rows(infoschema.InformationSchema, "STATISTICS", src) {
		out := []any{table}
		for _, n := range []string{"NON_UNIQUE", "INDEX_NAME", "SEQ_IN_INDEX", "COLUMN_NAME", "COLLATION", "CARDINALITY", "SUB_PART", "PACKED", "NULLABLE", "INDEX_TYPE", "COMMENT", "INDEX_COMMENT", "IS_VISIBLE", "EXPRESSION"} {
			out = append(out, r[col[n]])
		}
		rows = append(rows, out)
	}
	return rows, nil
}

var tableStatusColumns = []string{"Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length", "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time", "Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment"}

// showTableStatusOf is SHOW TABLE STATUS: information_schema's TABLES rows of
// the schema.
func (s *Session) showTableStatusOf(db string) (*mp.Result, error) {
	v, err := s.env.virtualSchemas()
	if err != nil {
		return nil, err
	}
	if !isVirtualSchema(db) {
		if _, err := s.schemaFor(db); err != nil {
			return nil, err
		}
	}
	src := s.virtualSource()
	tables := v.Table(infoschema.InformationSchema, "TABLES")
	col := map[string]int{}
	for i, c := range tables.Columns {
		col[c.Name] = i
	}
	rows := [][]any{}
	for _, r := range v.Rows(infoschema.InformationSchema, "TABLES", src) {
		if !strings.EqualFold(fmtValue(r[col["TABLE_SCHEMA"]]), db) {
			continue
		}
		out := []any{}
		for _, n := range []string{"TABLE_NAME", "ENGINE", "VERSION", "ROW_FORMAT", "TABLE_ROWS", "AVG_ROW_LENGTH", "DATA_LENGTH", "MAX_DATA_LENGTH", "INDEX_LENGTH", "DATA_FREE", "AUTO_INCREMENT", "CREATE_TIME", "UPDATE_TIME", "CHECK_TIME", "TABLE_COLLATION", "CHECKSUM", "CREATE_OPTIONS", "TABLE_COMMENT"} {
			out = append(out, r[col[n]])
		}
		rows = append(rows, out)
	}
	res := stringResult(tableStatusColumns, rows)
	for _, i := range []int{2, 4, 5, 6, 7, 8, 9, 10, 15} {
		res.Columns[i].Type, res.Columns[i].Length = mp.TypeLongLong, 21
	}
	res.Columns[11].Type, res.Columns[11].Length = mp.TypeDatetime, 19
	res.Columns[12].Type, res.Columns[12].Length = mp.TypeDatetime, 19
	res.Columns[13].Type, res.Columns[13].Length = mp.TypeDatetime, 19
	return res, nil
}

// setColumn gives a SHOW result's column the type of the information_schema
// column MySQL answers it from.
func setColumn(res *mp.Result, i int, typ byte, flags uint16, length uint32) {
	c := &res.Columns[i]
	c.Type, c.Flags, c.Length = typ, flags, length
	if typ != mp.TypeBlob && typ != mp.TypeVarString {
		c.Charset = mp.CharsetBinary
		c.Flags |= mp.NumFlag
	}
}
