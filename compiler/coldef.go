package compiler

import (
	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
)

// CREATE TABLE ... SELECT makes a column for each result column of the query that
// no column of its own definition names, of the type the value is sent as
// (MySQL's create_table_from_items): ColumnType turns a result type back into a
// column type. A column of a table the query reads keeps that column's own
// definition instead (the session's createSelect does that).

// maxVarchar is the longest VARCHAR, in characters, CREATE TABLE ... SELECT
// makes; a longer string is a TEXT (MySQL's CONVERT_IF_BIGGER_TO_BLOB).
const maxVarchar = 512

// ColumnType is the type of the column CREATE TABLE ... SELECT makes for a
// result column of type ct; ok=false for a type it cannot make (GEOMETRY, or one
// not worked out).
func ColumnType(ct ColType) (ty catalog.Type, ok bool) {
	unsigned := ct.Flags&mp.UnsignedFlag != 0
	integer := func(base string) (catalog.Type, bool) {
		return catalog.Type{Base: base, Unsigned: unsigned}, true
	}
	switch ct.Type {
	case mp.TypeTiny:
		if ct.Length == 1 {
			return catalog.Type{Base: "tinyint", Length: 1, Unsigned: unsigned}, true
		}
		return integer("tinyint")
	case mp.TypeShort:
		return integer("smallint")
	case mp.TypeInt24:
		return integer("mediumint")
	case mp.TypeLong:
		return integer("int")
	case mp.TypeLongLong:
		return integer("bigint")
	case mp.TypeNewDecimal, mp.TypeDecimal:
		precision := int(ct.Length)
		if ct.Decimals > 0 {
			precision--
		}
		if !unsigned {
			precision--
		}
		precision = min(max(precision, int(ct.Decimals), 1), 65)
		return catalog.Type{Base: "decimal", Length: precision, Scale: int(ct.Decimals), HasScale: true, Unsigned: unsigned}, true
	case mp.TypeFloat:
		return catalog.Type{Base: "float", Unsigned: unsigned}, true
	case mp.TypeDouble:
		return catalog.Type{Base: "double", Unsigned: unsigned}, true
	case mp.TypeDate, mp.TypeNewDate:
		return catalog.Type{Base: "date"}, true
	case mp.TypeDatetime:
		return catalog.Type{Base: "datetime", Scale: fsp(ct)}, true
	case mp.TypeTimestamp:
		return catalog.Type{Base: "timestamp", Scale: fsp(ct)}, true
	case mp.TypeTime:
		return catalog.Type{Base: "time", Scale: fsp(ct)}, true
	case mp.TypeYear:
		return catalog.Type{Base: "year"}, true
	case mp.TypeJSON:
		return catalog.Type{Base: "json"}, true
	case mp.TypeBit:
		return catalog.Type{Base: "bit", Length: max(int(ct.Length), 1)}, true
	case mp.TypeNull:
		return catalog.Type{Base: "binary", Length: 0, Charset: "binary"}, true
	case mp.TypeString, mp.TypeVarString, mp.TypeVarchar:
		if ct.Charset == mp.CharsetBinary {
			base := "varbinary"
			if ct.Type == mp.TypeString {
				base = "binary"
			}
			if ct.Length > 65535 {
				return blobType(ct)
			}
			return catalog.Type{Base: base, Length: int(ct.Length), Charset: "binary"}, true
		}
		coll := collationName(ct.Charset)
		charset := catalog.CharsetOf(coll)
		chars := int(ct.Length / catalog.MaxCharBytes(charset))
		if chars > maxVarchar {
			return blobType(ct)
		}
		base := "varchar"
		if ct.Type == mp.TypeString && ct.Flags&(mp.EnumFlag|mp.SetFlag) == 0 {
			base = "char"
		}
		return catalog.Type{Base: base, Length: chars, Charset: charset, Collation: coll}, true
	case mp.TypeBlob, mp.TypeTinyBlob, mp.TypeMediumBlob, mp.TypeLongBlob:
		return blobType(ct)
	}
	return catalog.Type{}, false
}

// blobType is the TEXT or BLOB type that holds ct's values.
func blobType(ct ColType) (catalog.Type, bool) {
	sizes := []struct {
		max        uint32
		blob, text string
	}{{255, "tinyblob", "tinytext"}, {65535, "blob", "text"}, {16777215, "mediumblob", "mediumtext"}, {4294967295, "longblob", "longtext"}}
	for _, s := range sizes {
		if ct.Length <= s.max {
			if ct.Charset == mp.CharsetBinary {
				return catalog.Type{Base: s.blob, Charset: "binary"}, true
			}
			coll := collationName(ct.Charset)
			return catalog.Type{Base: s.text, Charset: catalog.CharsetOf(coll), Collation: coll}, true
		}
	}
	return catalog.Type{}, false
}

// fsp is a temporal result type's fractional seconds precision.
func fsp(ct ColType) int {
	if ct.Decimals > 6 {
		return 0
	}
	return int(ct.Decimals)
}

// collationName is the collation of protocol id id (utf8mb4_0900_ai_ci for one
// binlite does not know).
func collationName(id uint16) string {
	for name, n := range collationIDs {
		if n == id {
			return name
		}
	}
	return "utf8mb4_0900_ai_ci"
}
