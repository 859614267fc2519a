package compiler

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"

	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
)

// TestEmitEnumJSONBinary pins the SQLite text for ENUM/SET, JSON and binary
// string values; each line is a MySQL rule (manual 13.3.5, 13.3.6, 13.5, 13.3.3).
func TestEmitEnumJSONBinary(t *testing.T) {
	cat := testCatalog{
		"d.es":   mustTable(t, "CREATE TABLE es (id INT PRIMARY KEY, e ENUM('small','medium','large') COLLATE utf8mb4_general_ci, s SET('a','b','c','d') COLLATE utf8mb4_general_ci, en ENUM('x','y') NOT NULL)"),
		"d.js":   mustTable(t, "CREATE TABLE js (id INT PRIMARY KEY, j JSON, d DECIMAL(5,2))"),
		"d.bins": mustTable(t, "CREATE TABLE bins (id INT PRIMARY KEY, b BINARY(4), vb VARBINARY(8), mb MEDIUMBLOB, v VARCHAR(10))"),
	}
	const members = `'["small","medium","large"]'`
	cases := []struct{ mysql, sqlite string }{
		// a number written into an ENUM is the member of that index, into a SET a mask;
		// a string names a member in any letter case
		{"INSERT INTO es VALUES (2, 1, 5, 2)", "INSERT INTO `es` (`id`, `e`, `s`, `en`) VALUES (2, 'small', 'a,c', 'y')"},
		{"INSERT INTO es (id, e, s) VALUES (5, 'SMALL', 'd,B,b')", "INSERT INTO `es` (`id`, `e`, `s`) VALUES (5, 'small', 'b,d')"},
		// IGNORE keeps the empty error value and the members there are
		{"INSERT IGNORE INTO es (id, e, s, en) VALUES (7, 'xl', 'a,e', 'z')", "INSERT OR IGNORE INTO `es` (`id`, `e`, `s`, `en`) VALUES (7, '', 'a', '')"},
		{"INSERT IGNORE INTO es (id, en) VALUES (8, NULL)", "INSERT OR IGNORE INTO `es` (`id`, `en`) VALUES (8, 'x')"},
		// a bound value is converted when bound, as its literal (Emitted.StoreParams)
		{"INSERT INTO es (id, e) VALUES (?, ?)", "INSERT INTO `es` (`id`, `e`) VALUES (?1, ?2)"},
		// computed values are converted by the engine
		// numeric contexts use the index (mask); comparison with a string the text
		{"SELECT e + 0, s & 1, e = 2, e = 'medium' FROM es ORDER BY e, s DESC",
			"SELECT binlite_int((binlite_enum_index(`e`, " + members + ") + 0), '(binlite_enum_index(`e`, ''[\"small\",\"medium\",\"large\"]'') + 0)') AS `e + 0`, (binlite_set_mask(`s`, '[\"a\",\"b\",\"c\",\"d\"]') & 1) AS `s & 1`, " +
				"(binlite_enum_index(`e`, " + members + ") = 2) AS `e = 2`, (`e` = 'medium') AS `e = 'medium'` FROM `es` " +
				"ORDER BY binlite_enum_index(`e`, " + members + "), binlite_set_mask(`s`, '[\"a\",\"b\",\"c\",\"d\"]') DESC"},
		// a parameter compares by index when a number is bound, by text otherwise
		{"SELECT id FROM es WHERE e = ?", "SELECT `id` FROM `es` WHERE CASE WHEN (typeof(?1) IN ('integer', 'real')) THEN (binlite_enum_index(`e`, " + members + ") = ?1) ELSE (`e` = CAST(?1 AS TEXT)) END"},
		{"SELECT FIND_IN_SET('B', s) FROM es", "SELECT find_in_set('B', `s`, 'utf8mb4_general_ci') AS `FIND_IN_SET('B', s)` FROM `es`"},
		// JSON is stored in MySQL's text: literals here, the rest by the engine
		{`INSERT INTO js VALUES (1, '{"b": 1,"a":[1,2]}', 1.5)`, "INSERT INTO `js` (`id`, `j`, `d`) VALUES (1, '{\"a\": [1, 2], \"b\": 1}', '1.50')"},
		{"INSERT INTO js (id, j) VALUES (?, ?)", "INSERT INTO `js` (`id`, `j`) VALUES (?1, binlite_json_store('s', ?2, 'j'))"},
		// values put into documents say how they convert: JSON, decimal, boolean, SQL value
		{"UPDATE js SET j = JSON_SET(j, '$.a', JSON_ARRAY(1.50, 'x'), '$.b', d, '$.c', 1 > 0)",
			"UPDATE `js` SET `j` = binlite_json_store('j', binlite_json_set('jsjsdsb', `j`, '$.a', binlite_json_array('ds', '1.50', 'x'), '$.b', `d`, '$.c', (1 > 0)), 'j')"},
		// -> compares as JSON (a string is a JSON string); ->> by utf8mb4_bin
		{"SELECT id FROM js WHERE j->'$[1]' = 'two' AND j->>'$.k' = 'v'",
			"SELECT `id` FROM `js` WHERE ((binlite_json_cmp('js', binlite_json_extract('js', `j`, '$[1]'), 'two') = 0) AND (binlite_json_unquote('j', binlite_json_extract('js', `j`, '$.k')) = 'v' COLLATE utf8mb4_bin))"},
		// binary strings compare with text as bytes; UPPER leaves them; CAST AS BINARY(n) pads
		{"SELECT vb = 'ab', vb = ?, 0x41 = 'A', HEX(UPPER(vb)), CHAR_LENGTH(mb), CAST('ab' AS BINARY(4)) FROM bins",
			"SELECT (`vb` = X'6162') AS `vb = 'ab'`, (`vb` = CAST(?1 AS BLOB)) AS `vb = ?`, (X'41' = X'41') AS `0x41 = 'A'`, hex((`vb`)) AS `HEX(UPPER(vb))`, " +
				"length(CAST(`mb` AS BLOB)) AS `CHAR_LENGTH(mb)`, X'61620000' AS `CAST('ab' AS BINARY(4))` FROM `bins`"},
		// INSERT ... SELECT converts what it writes as VALUES do
		{"INSERT INTO es (id, e) SELECT id, 2 FROM es", "INSERT INTO `es` (`id`, `e`) WITH binlite_src(`binlite_c1`, `binlite_c2`) AS (SELECT `id`, 2 AS `2` FROM `es`) SELECT `binlite_c1`, binlite_enum_store(`binlite_c2`, " + members + ", 'utf8mb4_general_ci', 'enum', 0) FROM binlite_src"},
		{"UPDATE bins SET b = ?, vb = CONCAT('a', 'b')", "UPDATE `bins` SET `b` = binlite_binary_pad(?1, 4), `vb` = CAST(concat('a', 'b') AS BLOB)"},
	}
	for _, c := range cases {
		em, err := NewCache(8).Emit(c.mysql, "d", "utf8mb4_general_ci", cat)
		if err != nil || em == nil {
			t.Errorf("%s: not compiled (%v)", c.mysql, err)
			continue
		}
		if em.SQL != c.sqlite {
			t.Errorf("%s\n got: %s\nwant: %s", c.mysql, em.SQL, c.sqlite)
		}
	}

	errs := map[string]uint16{
		"INSERT INTO es (id, e) VALUES (1, 'xl')":  mysqlerr.ErWarnDataTruncated,
		"INSERT INTO es (id, e) VALUES (1, 0)":     mysqlerr.ErWarnDataTruncated,
		"INSERT INTO es (id, e) VALUES (1, 4)":     mysqlerr.ErWarnDataTruncated,
		"INSERT INTO es (id, s) VALUES (1, 16)":    mysqlerr.ErWarnDataTruncated,
		"INSERT INTO es (id, s) VALUES (1, 'a,e')": mysqlerr.ErWarnDataTruncated,
		"INSERT INTO js VALUES (1, '{bad', 1)":     mysqlerr.ErInvalidJSONText,
		"INSERT INTO js VALUES (1, '', 1)":         mysqlerr.ErInvalidJSONText,
		"SELECT JSON_EXTRACT(j) FROM js":           mysqlerr.ErWrongParamcountToNative,
		"SELECT JSON_TABLE_NOSUCH(j) FROM js":      mysqlerr.ErNotSupportedYet,
	}
	for sql, code := range errs {
		_, err := NewCache(8).Emit(sql, "d", "utf8mb4_general_ci", cat)
		if !mysqlerr.Is(err, code) {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
	em, err := NewCache(8).Emit("INSERT IGNORE INTO es (id, e) VALUES (1, 'xl')", "d", "utf8mb4_general_ci", cat)
	if err != nil || len(em.Warnings) != 1 || em.Warnings[0].Code != mysqlerr.ErWarnDataTruncated {
		t.Errorf("INSERT IGNORE of a value no member names: %v, %+v; want warning 1265", err, em)
	}
}

// TestResultTypesEnumJSONBinary: MySQL's types for an ENUM in a numeric context
// (BIGINT), JSON functions (JSON; JSON_UNQUOTE LONGTEXT utf8mb4_bin), HEX of
// long strings (MEDIUMTEXT, LONGTEXT), and a hexadecimal literal (UNSIGNED).
func TestResultTypesEnumJSONBinary(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (e ENUM('a','b'), s SET('x'), j JSON, vb VARBINARY(8), tb TINYBLOB, bl BLOB, mb MEDIUMBLOB)")}
	for sql, want := range map[string][]byte{
		"SELECT e + 0, s + 0, e = 1":                                        {mp.TypeLongLong, mp.TypeLongLong, mp.TypeLongLong},
		"SELECT JSON_EXTRACT(j, '$'), j->>'$', JSON_OBJECT(), JSON_KEYS(j)": {mp.TypeJSON, mp.TypeLongBlob, mp.TypeJSON, mp.TypeJSON},
		"SELECT JSON_LENGTH(j), JSON_CONTAINS_PATH(j, 'one', '$')":          {mp.TypeLongLong, mp.TypeLongLong},
		"SELECT HEX(vb), HEX(tb), HEX(bl), HEX(mb), HEX(LOWER(mb))":         {mp.TypeVarString, mp.TypeVarString, mp.TypeMediumBlob, mp.TypeLongBlob, mp.TypeLongBlob},
		"SELECT UPPER(vb), LOWER(mb), X'41'":                                {mp.TypeVarString, mp.TypeMediumBlob, mp.TypeVarString},
	} {
		stmts, _, err := parser.New().Parse(sql+" FROM t", "", "")
		if err != nil {
			t.Fatal(err)
		}
		p := compileStmt(stmts[0], "d", Mode{}, cat)
		if len(p.Columns) != len(want) {
			t.Errorf("%s: %d columns", sql, len(p.Columns))
			continue
		}
		for i, w := range want {
			if p.Columns[i].Type != w {
				t.Errorf("%s: column %d is type %#x, want %#x", sql, i+1, p.Columns[i].Type, w)
			}
		}
		if sql == "SELECT UPPER(vb), LOWER(mb), X'41'" {
			if p.Columns[0].Flags&mp.BinaryFlag == 0 || p.Columns[2].Flags&mp.UnsignedFlag == 0 {
				t.Errorf("%s: flags %#x %#x, want UPPER of bytes binary and X'41' unsigned", sql, p.Columns[0].Flags, p.Columns[2].Flags)
			}
		}
	}
}
