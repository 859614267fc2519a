package session

import (
	"strconv"
	"strings"

	"github.com/binlite/binlite/engine"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/u64"
)

// columnType maps a SQLite declared type (the MySQL type binlite kept in the DDL) to
// the MySQL column type clients decode. Every integer type is sent as LONGLONG:
// SQLite integers are 64-bit whatever the declaration says.
func columnType(decl string) (typ byte, length uint32, charset uint16, flags uint16, decimals byte) {
	d := strings.ToUpper(decl)
	n := declLength(d)
	switch {
	case d == "":
		return mp.TypeVarString, 65535, mp.CharsetUTF8MB4, 0, 31
	case strings.Contains(d, "BOOL"):
		return mp.TypeTiny, 1, mp.CharsetBinary, mp.NumFlag, 0
	case strings.Contains(d, "INT") && strings.Contains(d, "UNSIGNED"):
		return mp.TypeLongLong, 20, mp.CharsetBinary, mp.NumFlag | mp.UnsignedFlag, 0
	case strings.Contains(d, "INT"):
		return mp.TypeLongLong, 20, mp.CharsetBinary, mp.NumFlag, 0
	case strings.Contains(d, "DEC") || strings.Contains(d, "NUMERIC"):
		return mp.TypeNewDecimal, 65, mp.CharsetBinary, mp.NumFlag, 30
	case strings.Contains(d, "DOUB") || strings.Contains(d, "REAL") || strings.Contains(d, "FLOA"):
		return mp.TypeDouble, 22, mp.CharsetBinary, mp.NumFlag, 31
	case strings.HasPrefix(d, "DATETIME"):
		return mp.TypeDatetime, 19, mp.CharsetBinary, mp.BinaryFlag, 0
	case strings.HasPrefix(d, "TIMESTAMP"):
		return mp.TypeTimestamp, 19, mp.CharsetBinary, mp.BinaryFlag, 0
	case d == "DATE":
		return mp.TypeDate, 10, mp.CharsetBinary, mp.BinaryFlag, 0
	case strings.Contains(d, "BLOB") || strings.Contains(d, "BINARY"):
		return mp.TypeBlob, 65535, mp.CharsetBinary, mp.BlobFlag | mp.BinaryFlag, 0
	case strings.Contains(d, "TEXT") || strings.Contains(d, "CLOB") || d == "JSON":
		return mp.TypeBlob, 65535 * 4, mp.CharsetUTF8MB4, mp.BlobFlag, 0
	case strings.HasPrefix(d, "VARCHAR") || strings.HasPrefix(d, "NVARCHAR"):
		return mp.TypeVarString, n * 4, mp.CharsetUTF8MB4, 0, 0
	case strings.Contains(d, "CHAR"):
		return mp.TypeString, n * 4, mp.CharsetUTF8MB4, 0, 0
	}
	return mp.TypeVarString, 65535, mp.CharsetUTF8MB4, 0, 0
}

func declLength(d string) uint32 {
	i := strings.IndexByte(d, '(')
	j := strings.IndexAny(d, ",)")
	if i < 0 || j <= i {
		return 255
	}
	n, err := strconv.Atoi(strings.TrimSpace(d[i+1 : j]))
	if err != nil || n <= 0 {
		return 255
	}
	return uint32(n)
}

// valueType types an expression column from a value, for the text protocol.
func valueType(v any) (byte, uint32, uint16, uint16, byte) {
	switch v.(type) {
	case int64, bool:
		return mp.TypeLongLong, 21, mp.CharsetBinary, mp.NumFlag | mp.BinaryFlag, 0
	case float64:
		return mp.TypeDouble, 23, mp.CharsetBinary, mp.NumFlag | mp.BinaryFlag, 31
	case []byte:
		return mp.TypeBlob, 65535, mp.CharsetBinary, mp.BlobFlag | mp.BinaryFlag, 0
	}
	return mp.TypeVarString, 65535, mp.CharsetUTF8MB4, 0, 31
}

// columns builds column definitions. With sample set (text protocol), expression
// columns take their type from the first non-NULL value; prepared statements keep
// the declared-type mapping so prepare and execute metadata agree.
func columns(rows *engine.Rows, db string, sample bool) []mp.Column {
	cols := make([]mp.Column, len(rows.Columns))
	for i, c := range rows.Columns {
		typ, length, cs, flags, dec := columnType(c.DeclType)
		if c.DeclType == "" && sample {
			for _, r := range rows.Values {
				if r[i] != nil {
					typ, length, cs, flags, dec = valueType(r[i])
					break
				}
			}
		}
		name := c.Name
		if len(name) >= 2 && name[0] == '\'' && name[len(name)-1] == '\'' {
			// MySQL names a string literal's column by its value: SELECT 'x' gives x.
			name = strings.ReplaceAll(name[1:len(name)-1], "''", "'")
		}
		cols[i] = mp.Column{Schema: db, Name: name, OrgName: name, Type: typ, Length: length, Charset: cs, Flags: flags, Decimals: dec}
	}
	return cols
}

func textResult(rows *engine.Rows, db string) *mp.Result {
	decoded := decodeUint64(rows)
	cols := columns(rows, db, true)
	for _, i := range decoded {
		cols[i].Flags |= mp.UnsignedFlag // its values say so, whatever the declaration
	}
	return &mp.Result{Columns: cols, Rows: rows.Values}
}

// decodeUint64 gives the values of a BIGINT UNSIGNED table column read as it is
// (its declared type tells it) as numbers: from 2^63 SQLite holds the BLOB form of
// package u64. Typed results get this from their type (typeResult); this is for
// the columns the compiler did not type (a statement sqlcompat translated). It
// returns the columns where it decoded a value.
func decodeUint64(rows *engine.Rows) (decoded []int) {
	for _, i := range wideColumns(rows.Columns) {
		found := false
		for _, r := range rows.Values {
			if n, ok := u64.Wide(r[i]); ok {
				r[i], found = n, true
			}
		}
		if found {
			decoded = append(decoded, i)
		}
	}
	return decoded
}

// wideColumns are the columns whose values decodeUint64 decodes.
func wideColumns(cols []engine.ResultColumn) []int {
	var out []int
	for i, c := range cols {
		if !engine.WideDecl(c.DeclType) || strings.Contains(strings.ToUpper(c.DeclType), "BIT") {
			continue // BIT(64) sends the stored form's bytes, which are its value
		}
		out = append(out, i)
	}
	return out
}

// stringResult builds a result of text columns, for SHOW statements.
func stringResult(names []string, rows [][]any) *mp.Result {
	cols := make([]mp.Column, len(names))
	for i, n := range names {
		cols[i] = mp.Column{Name: n, OrgName: n, Type: mp.TypeVarString, Length: 1024, Charset: mp.CharsetUTF8MB4}
	}
	if rows == nil {
		rows = [][]any{}
	}
	return &mp.Result{Columns: cols, Rows: rows}
}
