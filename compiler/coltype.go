package compiler

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
)

// ColType is a result column's MySQL type as the protocol declares it.
type ColType struct {
	Type     byte
	Flags    uint16
	Length   uint32
	Decimals byte
	Charset  uint16
	// BitBytes > 0 marks a BIT column: values go out as that many big-endian bytes.
	BitBytes int
	// PadChar marks a CHAR column: MySQL returns its values without trailing spaces.
	PadChar bool
}

// Known reports whether the type was worked out (the zero ColType is unknown).
func (c ColType) Known() bool { return c.Type != 0 || c.Length != 0 }

// notFixed is MySQL's decimals for types without a fixed number of digits.
const notFixed = 31

// collationIDs are the protocol ids of the collations binlite has (MySQL's
// numbering, information_schema.COLLATIONS.ID).
var collationIDs = map[string]uint16{
	"utf8mb4_general_ci": 45, "utf8mb4_bin": 46, "utf8mb4_unicode_ci": 224, "utf8mb4_unicode_520_ci": 246,
	"utf8mb4_0900_ai_ci": 255, "utf8mb4_0900_as_ci": 305, "utf8mb4_0900_as_cs": 278, "utf8mb4_0900_bin": 309,
	"utf8mb3_general_ci": 33, "utf8mb3_bin": 83, "utf8mb3_unicode_ci": 192, "utf8mb3_unicode_520_ci": 214,
	"latin1_swedish_ci": 8, "latin1_general_ci": 48, "latin1_general_cs": 49, "latin1_bin": 47,
	"ascii_general_ci": 11, "ascii_bin": 65, "binary": 63,
}

// collationID is the protocol id of a collation (utf8mb4_0900_ai_ci for one
// binlite does not know).
func collationID(c string) uint16 {
	if id, ok := collationIDs[c]; ok {
		return id
	}
	return mp.CharsetUTF8MB40900
}

// binaryCollation: MySQL flags a text column of a _bin collation BINARY.
func binaryCollation(c string) bool { return strings.HasSuffix(c, "_bin") }

// FromColumn is the type MySQL declares for a table column.
func FromColumn(c *catalog.Column) ColType {
	ct := columnType(c.Type)
	if !c.Nullable {
		ct.Flags |= mp.NotNullFlag
	}
	if c.AutoIncrement {
		ct.Flags |= mp.AutoIncrementFlag
	}
	return ct
}

func columnType(ty catalog.Type) ColType {
	var ct ColType
	num := func(code byte, signedLen, unsignedLen uint32) {
		ct.Type, ct.Charset, ct.Flags = code, mp.CharsetBinary, mp.NumFlag
		ct.Length = signedLen
		if ty.Unsigned {
			ct.Flags |= mp.UnsignedFlag
			ct.Length = unsignedLen
		}
		if ty.Zerofill {
			ct.Flags |= mp.ZerofillFlag
			if ty.Length > 0 {
				ct.Length = uint32(ty.Length)
			}
		}
	}
	switch ty.Base {
	case "tinyint":
		num(mp.TypeTiny, 4, 3)
		if ty.Length == 1 && !ty.Zerofill {
			ct.Length = 1
		}
	case "smallint":
		num(mp.TypeShort, 6, 5)
	case "mediumint":
		num(mp.TypeInt24, 9, 8)
	case "int":
		num(mp.TypeLong, 11, 10)
	case "bigint":
		num(mp.TypeLongLong, 20, 20)
	case "decimal":
		num(mp.TypeNewDecimal, 0, 0)
		ct.Length = uint32(ty.Length)
		if ty.Scale > 0 {
			ct.Length++
		}
		if !ty.Unsigned {
			ct.Length++
		}
		ct.Decimals = byte(ty.Scale)
	case "float", "double":
		code, length := mp.TypeFloat, uint32(12)
		if ty.Base == "double" {
			code, length = mp.TypeDouble, 22
		}
		num(code, length, length)
		ct.Decimals = notFixed
		if ty.HasScale {
			ct.Length, ct.Decimals = uint32(ty.Length), byte(ty.Scale)
		}
	case "bit":
		ct = ColType{Type: mp.TypeBit, Charset: mp.CharsetBinary, Flags: mp.UnsignedFlag, Length: uint32(ty.Length), BitBytes: (ty.Length + 7) / 8}
	case "year":
		ct = ColType{Type: mp.TypeYear, Charset: mp.CharsetBinary, Flags: mp.UnsignedFlag | mp.ZerofillFlag | mp.NumFlag, Length: 4}
	case "date":
		ct = ColType{Type: mp.TypeDate, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag, Length: 10}
	case "datetime", "timestamp", "time":
		code, length := mp.TypeDatetime, uint32(19)
		switch ty.Base {
		case "timestamp":
			code = mp.TypeTimestamp
		case "time":
			code, length = mp.TypeTime, 10
		}
		ct = ColType{Type: code, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag, Length: length, Decimals: byte(ty.Scale)}
		if ty.Scale > 0 {
			ct.Length += uint32(ty.Scale) + 1
		}
		if ty.Base == "timestamp" {
			ct.Flags |= mp.TimestampFlag
		}
	case "char", "varchar", "binary", "varbinary":
		code := mp.TypeString
		if ty.Base == "varchar" || ty.Base == "varbinary" {
			code = mp.TypeVarString
		}
		ct = ColType{Type: code, Length: uint32(ty.Length), Charset: collationID(ty.Collation), PadChar: ty.Base == "char"}
		if ty.Base == "binary" || ty.Base == "varbinary" {
			ct.Charset, ct.Flags = mp.CharsetBinary, mp.BinaryFlag
		} else {
			ct.Length *= catalog.MaxCharBytes(ty.Charset)
			if binaryCollation(ty.Collation) {
				ct.Flags |= mp.BinaryFlag
			}
		}
	case "tinytext", "text", "mediumtext", "longtext", "tinyblob", "blob", "mediumblob", "longblob":
		ct = ColType{Type: mp.TypeBlob, Flags: mp.BlobFlag, Length: ty.MaxBytes()}
		if ty.IsBinary() {
			ct.Charset, ct.Flags = mp.CharsetBinary, mp.BlobFlag|mp.BinaryFlag
		} else {
			ct.Charset = collationID(ty.Collation)
			if ty.Base != "longtext" {
				ct.Length *= catalog.MaxCharBytes(ty.Charset)
			}
			if binaryCollation(ty.Collation) {
				ct.Flags |= mp.BinaryFlag
			}
		}
	case "enum", "set":
		longest := 0
		for _, e := range ty.Elems {
			longest = max(longest, len([]rune(e)))
		}
		if ty.Base == "set" {
			longest = 0
			for _, e := range ty.Elems {
				longest += len([]rune(e)) + 1
			}
			longest = max(longest-1, 0)
		}
		ct = ColType{Type: mp.TypeString, Length: uint32(longest) * catalog.MaxCharBytes(ty.Charset), Charset: collationID(ty.Collation), Flags: mp.EnumFlag}
		if ty.Base == "set" {
			ct.Flags = mp.SetFlag
		}
	case "json":
		ct = ColType{Type: mp.TypeJSON, Charset: mp.CharsetBinary, Flags: mp.BlobFlag | mp.BinaryFlag, Length: 4294967295}
	}
	return ct
}

// Simple result types of expressions.
var (
	typeBigint  = ColType{Type: mp.TypeLongLong, Charset: mp.CharsetBinary, Flags: mp.NumFlag | mp.BinaryFlag, Length: 21}
	typeBool    = ColType{Type: mp.TypeLongLong, Charset: mp.CharsetBinary, Flags: mp.NumFlag | mp.BinaryFlag, Length: 1}
	typeDouble  = ColType{Type: mp.TypeDouble, Charset: mp.CharsetBinary, Flags: mp.NumFlag | mp.BinaryFlag, Length: 23, Decimals: notFixed}
	typeNull    = ColType{Type: mp.TypeNull, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag}
	typeVarchar = ColType{Type: mp.TypeVarString, Charset: mp.CharsetUTF8MB40900}
)

func decimalType(precision, scale int, unsigned bool) ColType {
	precision = min(precision, 65)
	scale = min(scale, 30)
	ct := ColType{Type: mp.TypeNewDecimal, Charset: mp.CharsetBinary, Flags: mp.NumFlag | mp.BinaryFlag, Decimals: byte(scale), Length: uint32(precision)}
	if scale > 0 {
		ct.Length++
	}
	if unsigned {
		ct.Flags |= mp.UnsignedFlag
	} else {
		ct.Length++
	}
	return ct
}

// isInt, isDecimal, ... classify a known type for the arithmetic rules.
func (c ColType) isInt() bool {
	switch c.Type {
	case mp.TypeTiny, mp.TypeShort, mp.TypeInt24, mp.TypeLong, mp.TypeLongLong, mp.TypeYear, mp.TypeBit:
		return true
	}
	return false
}

// Wide reports whether values of the type are BIGINT UNSIGNED (or BIT(64)) ones,
// which SQLite keeps from 2^63 up in the BLOB form of package u64 (emitu64.go).
func (c ColType) Wide() bool {
	return c.Type == mp.TypeLongLong && c.Flags&mp.UnsignedFlag != 0 || c.Type == mp.TypeBit && c.Length == 64
}

func (c ColType) isDecimal() bool { return c.Type == mp.TypeNewDecimal }

func (c ColType) isApprox() bool { return c.Type == mp.TypeFloat || c.Type == mp.TypeDouble }

func (c ColType) isString() bool {
	switch c.Type {
	case mp.TypeString, mp.TypeVarString, mp.TypeVarchar, mp.TypeBlob, mp.TypeJSON,
		mp.TypeTinyBlob, mp.TypeMediumBlob, mp.TypeLongBlob:
		return true
	}
	return false
}

func (c ColType) isTemporal() bool {
	switch c.Type {
	case mp.TypeDate, mp.TypeDatetime, mp.TypeTimestamp, mp.TypeTime:
		return true
	}
	return false
}

// intDigits is how many digits an integer type's values may have.
func (c ColType) intDigits() int {
	switch c.Type {
	case mp.TypeTiny:
		return 3
	case mp.TypeShort:
		return 5
	case mp.TypeInt24:
		return 8
	case mp.TypeLong:
		return 10
	}
	return 20
}

// precisionScale is a numeric type's digits before and after the point.
func (c ColType) precisionScale() (int, int) {
	if c.isDecimal() {
		p := int(c.Length) - 1
		if c.Decimals > 0 {
			p--
		}
		if c.Flags&mp.UnsignedFlag != 0 {
			p++
		}
		return p, int(c.Decimals)
	}
	return c.intDigits(), 0
}
