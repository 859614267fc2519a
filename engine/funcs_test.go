package engine

import (
	"fmt"
	"strings"
	"testing"
)

// funcCase is one query of the built-in functions the compiler emits, its
// first row as fmt prints it, and the warning codes it gives.
type funcCase struct {
	sql, want string
	warnings  []uint16
}

func runFuncCases(t *testing.T, cases []funcCase) {
	t.Helper()
	e := openTest(t, t.TempDir())
	defer e.close(t)
	for _, c := range cases {
		rows, err := e.Query("", nil, c.sql, nil)
		if err != nil {
			if c.want != "error" && !strings.HasPrefix(c.want, "error ") {
				t.Errorf("%s: %v", c.sql, err)
			} else if c.want != "error" && !strings.Contains(err.Error(), strings.TrimPrefix(c.want, "error ")) {
				t.Errorf("%s: %v, want %s", c.sql, err, c.want)
			}
			continue
		}
		if got := fmt.Sprint(rows.Values[0]); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.sql, got, c.want)
		}
		var codes []uint16
		for _, w := range rows.Warnings {
			codes = append(codes, w.Code)
		}
		if fmt.Sprint(codes) != fmt.Sprint(c.warnings) && !(len(codes) == 0 && len(c.warnings) == 0) {
			t.Errorf("%s: warnings %v, want %v", c.sql, codes, c.warnings)
		}
	}
}

// TestStringFunctions: MySQL's string functions with NULL in and out,
// positions in characters (bytes of a binary string), collations where they
// compare.
func TestStringFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{"SELECT binlite_upper('héllo'), binlite_lower('ÀB'), binlite_upper(NULL), binlite_upper(X'61'), binlite_upper(12), ucase(NULL)", "[HÉLLO àb <nil> [97] 12 <nil>]", nil},
		{"SELECT char_length('日本'), char_length(X'E697A5'), char_length(NULL), char_length(2.5), reverse('héllo'), reverse(NULL)", "[2 3 <nil> 3 olléh <nil>]", nil},
		{"SELECT binlite_substr('héllo', 2, 3), binlite_substr('abc', 0), binlite_substr('abc', -2), binlite_substr('abc', -5), binlite_substr('abc', 2, -1), binlite_substr(NULL, 1), binlite_substr('abc', NULL)", "[éll  bc   <nil> <nil>]", nil},
		{"SELECT left('héllo', 2), right('héllo', 2), left(NULL, 1), left('abc', -1), right('abc', 10)", "[hé lo <nil>  abc]", nil},
		{"SELECT lpad('é', 3, 'üx'), rpad('abc', 2, 'x'), lpad('a', -1, 'x'), rpad('a', 3, ''), lpad(NULL, 3, 'x'), lpad(42, 5, '0')", "[üxé ab <nil> <nil> <nil> 00042]", nil},
		{"SELECT repeat('ab', 3), repeat('ab', 0), repeat(NULL, 2), space(3), space(-1), repeat('x', 100000000)", "[ababab  <nil>      <nil>]", []uint16{1301}},
		{"SELECT binlite_locate('O', 'hello world', 'utf8mb4_general_ci'), binlite_locate('O', 'hello world', 'utf8mb4_bin'), binlite_locate('o', 'hello world', 6, 'utf8mb4_bin'), binlite_locate('', 'abc', 'binary'), binlite_locate('b', 'abc', 0, 'binary'), binlite_locate('É', 'café', 'utf8mb4_general_ci'), binlite_locate(NULL, 'a', 'binary')", "[5 0 8 1 0 4 <nil>]", nil},
		{"SELECT binlite_strcmp('a', 'A', 'utf8mb4_general_ci'), binlite_strcmp('a', 'A', 'utf8mb4_bin'), binlite_strcmp('a ', 'a', 'utf8mb4_general_ci'), binlite_strcmp(NULL, 'a', 'binary')", "[0 1 0 <nil>]", nil},
		{"SELECT binlite_substring_index('a,b,c', ',', 2), binlite_substring_index('a,b,c', ',', -1), binlite_substring_index('a,b,c', ',', 0), binlite_substring_index('abc', ',', 1), binlite_substring_index('aXbxc', 'x', 1)", "[a,b c  abc aXb]", nil},
		{"SELECT binlite_trim('xxaxx', 'x', 1), binlite_trim('xxaxx', 'x', 2), binlite_trim('xyxyaxy', 'xy', 0), binlite_trim(NULL, 'x', 0), binlite_trim('abc', '', 0)", "[axx xxa a <nil> abc]", nil},
		{"SELECT binlite_insert('abcdef', 2, 3, 'XY'), binlite_insert('abc', 0, 1, 'X'), binlite_insert('abc', 2, 100, 'X'), binlite_insert('héllo', 2, 1, 'E'), binlite_insert(NULL, 1, 1, 'x')", "[aXYef abc aX hEllo <nil>]", nil},
		{"SELECT binlite_elt(2, 'a', 'b'), binlite_elt(0, 'a'), binlite_elt(3, 'a', 'b'), binlite_elt(NULL, 'a'), binlite_quote('it''s\\'), binlite_quote(NULL)", `[b <nil> <nil> <nil> 'it\'s\\' NULL]`, nil},
		{"SELECT binlite_ascii('Ab'), binlite_ascii(''), binlite_ord('é'), binlite_ord('a'), binlite_ord(NULL)", "[65 0 50089 97 <nil>]", nil},
		{"SELECT hex(binlite_char('binary', 72, 105, NULL, 256)), binlite_char('utf8mb4', 195, 169), binlite_char('utf8mb4', 255)", "[48690100 é <nil>]", []uint16{1300}},
		{"SELECT concat('a', 1, 2.5), concat('a', NULL), concat_ws('-', 'a', NULL, 'b'), concat_ws(NULL, 'a'), hex(concat(X'00', 'a'))", "[a12.5 <nil> a-b <nil> 0061]", nil},
	})
}

// TestMathFunctions: the C library's math with MySQL's NULLs and warnings, and
// the Go ones.
func TestMathFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{"SELECT binlite_cot(1), binlite_sqrt(-1), binlite_asin(2), binlite_atan(1, 2), binlite_pow(-8, 1.0/3), binlite_exp(NULL), binlite_degrees(1)", "[0.6420926159343306 <nil> <nil> 0.4636476090008061 +Inf <nil> 57.29577951308232]", nil},
		{"SELECT binlite_ln(0), binlite_log(2, 8), binlite_log(1, 8), binlite_log2(8), binlite_log10(-1), binlite_ln(NULL)", "[<nil> 3 <nil> 3 <nil> <nil>]", []uint16{3020, 3020, 3020}},
		{"SELECT binlite_sign(-0.5), binlite_sign('3x'), binlite_sign(NULL), binlite_interval(23, 1, 15, 17, 30), binlite_interval(NULL, 1), binlite_bit_count(-1), binlite_bit_count(X'07')", "[-1 1 <nil> 3 -1 64 3]", nil},
		{"SELECT binlite_conv('ff', 16, 10), binlite_conv('-1', 10, 16), binlite_conv('-255', 10, -16), binlite_conv('zz', 36, 10), binlite_conv('10', 1, 10), binlite_conv('99999999999999999999', 10, 16)", "[255 FFFFFFFFFFFFFFFF -FF 1295 <nil> FFFFFFFFFFFFFFFF]", nil},
		{"SELECT binlite_format('1234567.891', 2, 'en_US', 'd'), binlite_format(2.5, 0, 'en_US', 'r'), binlite_format('-1234.5', 1, 'de_DE', 'd'), binlite_format(1, 40, 'en_US', 'r') = '1.' || replace(printf('%30s', ''), ' ', '0'), binlite_format(1, 2, 'xx', 'd')", "[1,234,567.89 2 -1.234,5 1 1.00]", []uint16{1649}},
		{"SELECT binlite_dec_mod('10.5', 3, 1), binlite_dec_mod('-7', '3', 1), binlite_fmod(-7.5, 2, 1), binlite_dec_mod(1, 0, 1), binlite_fmod(1, 0, 0)", "[1.5 -1 -1.5 <nil> <nil>]", []uint16{1365}},
		{"SELECT binlite_dec_abs('-0.500'), binlite_dec_floor('-1.5'), binlite_dec_ceil('1.01'), binlite_dec_floor(NULL)", "[0.500 -2 2 <nil>]", nil},
		{"SELECT round(binlite_rand(3, 0), 6), round(binlite_rand(3, 1), 6)", "[0.90577 0.90577]", nil},
		{"SELECT binlite_dec_mod(1, 0, 2)", "error Division by 0", nil},
	})
}

// TestMiscFunctions: hashing, encodings, addresses, UUIDs, FIELD, casts.
func TestMiscFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{"SELECT md5('abc'), sha1(NULL), binlite_sha2('abc', 0) = binlite_sha2('abc', 256), binlite_sha2('abc', 1), binlite_crc32('abc'), binlite_crc32(NULL)", "[900150983cd24fb0d6963f7d28e17f72 <nil> 1 <nil> 891568578 <nil>]", []uint16{1583}},
		{"SELECT binlite_to_base64('abc'), binlite_from_base64('YW Jj'), binlite_from_base64('!'), hex(binlite_unhex('ABC')), binlite_unhex('zz')", "[YWJj [97 98 99] <nil> 0ABC <nil>]", nil},
		{"SELECT binlite_soundex('Robert'), binlite_soundex('Tymczak'), binlite_soundex(''), binlite_make_set(5, 'a', 'b', 'c'), binlite_export_set(5, 'Y', 'N', ',', 4)", "[R163 T520  a,c Y,N,Y,N]", nil},
		{"SELECT binlite_field('s', 'utf8mb4_general_ci', 'B', 'a', 'b'), binlite_field('s', 'utf8mb4_bin', 'B', 'a', 'b'), binlite_field('n', '', 2, 1, 2.0), binlite_field('n', '', NULL, 1)", "[2 0 2 0]", nil},
		{"SELECT binlite_inet_aton('10.0.0.1'), binlite_inet_aton('127.1'), binlite_inet_aton('1.2.3.256'), binlite_inet_ntoa(167772161), binlite_inet_ntoa(-1)", "[167772161 2130706433 <nil> 10.0.0.1 <nil>]", nil},
		{"SELECT hex(binlite_inet6_aton('::1')), binlite_inet6_ntoa(binlite_inet6_aton('::1.2.3.4')), binlite_inet6_ntoa(binlite_inet6_aton('::ffff:1.2.3.4')), binlite_inet6_ntoa('abc'), binlite_is_ipv4('1.2.3.4'), binlite_is_ipv6('1.2.3.4')", "[00000000000000000000000000000001 ::1.2.3.4 ::ffff:1.2.3.4 <nil> 1 0]", nil},
		{"SELECT hex(binlite_uuid_to_bin('6ccd780c-baba-1026-9564-5b8c656024db', 1)), binlite_bin_to_uuid(binlite_uuid_to_bin('{6ccd780c-baba-1026-9564-5b8c656024db}', 1), 1), binlite_is_uuid('6ccd780cbaba102695645b8c656024db'), binlite_is_uuid('x')", "[1026BABA6CCD780C95645B8C656024DB 6ccd780c-baba-1026-9564-5b8c656024db 1 0]", nil},
		{"SELECT binlite_uuid_to_bin('nope')", "error Incorrect string value", nil},
		// UUID() is version 1: its time-high group starts with 1, and it grows
		{"SELECT substr(uuid(), 15, 1), length(uuid()), binlite_uuid_to_bin(uuid(), 1) < binlite_uuid_to_bin(uuid(), 1)", "[1 36 1]", nil},
		{"SELECT binlite_cast_unsigned(-1.5, 'r'), hex(binlite_cast_unsigned('-2', 'd')), binlite_cast_unsigned('3.7', 's'), binlite_cast_char('héllo', 2), binlite_cast_year(5, 'n'), binlite_cast_year('0', 's'), binlite_cast_year(1900, 'n')", "[[255 255 255 255 255 255 255 254] FFFFFFFFFFFFFFFE 3 hé 2005 2000 <nil>]", []uint16{1292, 1292, 1292}},
	})
}

// TestRegexpFunctions: Go's regular expressions with MySQL's arguments.
func TestRegexpFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{"SELECT binlite_regexp_like('Abc', '^a', 'i', ''), binlite_regexp_like('Abc', '^a', 'c', ''), binlite_regexp_like('Abc', '^a', 'c', 'i'), binlite_regexp_like(NULL, 'a', 'c', ''), binlite_regexp_like('a\nb', 'a.b', 'c', 'n')", "[1 0 1 <nil> 1]", nil},
		{"SELECT binlite_regexp_instr('abcabc', 'b', 1, 2, 0, 'c', ''), binlite_regexp_instr('abcabc', 'b', 3, 1, 1, 'c', ''), binlite_regexp_instr('héllo', 'l', 1, 1, 0, 'c', ''), binlite_regexp_instr('abc', 'z', 1, 1, 0, 'c', '')", "[5 6 3 0]", nil},
		{"SELECT binlite_regexp_substr('one two', '[a-z]+', 4, 1, 'c', ''), binlite_regexp_substr('abc', 'z', 1, 1, 'c', ''), binlite_regexp_replace('a1b22', '[0-9]+', '#', 1, 0, 'c', ''), binlite_regexp_replace('John Smith', '(\\w+) (\\w+)', '$2 \\$1', 1, 0, 'c', '')", "[two <nil> a#b# Smith $1]", nil},
		{"SELECT binlite_regexp_like('a', '(a)\\1', 'c', '')", "error backreferences", nil},
		{"SELECT binlite_regexp_like('a', '(', 'c', '')", "error Syntax error in regular expression", nil},
		{"SELECT binlite_regexp_like('a', 'a', 'c', 'x')", "error Incorrect arguments", nil},
	})
}

// TestAggregateFunctions: GROUP_CONCAT, the bit aggregates and variances.
func TestAggregateFunctions(t *testing.T) {
	const vals = "(VALUES (1, 'b'), (NULL, 'a'), (3, 'b'), (-1, NULL))"
	runFuncCases(t, []funcCase{
		{"SELECT binlite_group_concat(0, ',', column2 ORDER BY column2), binlite_group_concat(1, '|', column2 ORDER BY column2 DESC), binlite_group_concat(0, ',', column1, column2) FROM " + vals, "[a,b,b b|a 1b,3b]", nil},
		{"SELECT binlite_bit_and(column1), binlite_bit_or(column1), hex(binlite_bit_xor(column1)) FROM " + vals, "[1 [255 255 255 255 255 255 255 255] FFFFFFFFFFFFFFFD]", nil},
		{"SELECT binlite_bit_and(column1), binlite_bit_or(column1), binlite_group_concat(0, ',', column1) FROM " + vals + " WHERE column1 > 10", "[[255 255 255 255 255 255 255 255] 0 <nil>]", nil},
		{"SELECT binlite_var_pop(column1), binlite_var_samp(column1), round(binlite_std_samp(column1), 6), binlite_std_pop(1) FROM " + vals, "[2.6666666666666665 4 2 0]", nil},
		{"SELECT length(binlite_group_concat(0, ',', 'xxxxxxxxxx')) FROM (WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200) SELECT i FROM r)", "[1024]", []uint16{1260}},
	})
}

// TestStringsAsNumbers: a string read as a number warns when it is not one.
func TestStringsAsNumbers(t *testing.T) {
	runFuncCases(t, []funcCase{
		{"SELECT binlite_to_double('1.5e1 '), binlite_to_double(' -2'), binlite_to_double(NULL), binlite_to_double(3)", "[15 -2 <nil> 3]", nil},
		{"SELECT binlite_to_double('1x'), binlite_to_double('abc'), binlite_to_double('')", "[1 0 0]", []uint16{1292, 1292, 1292}},
		{"SELECT binlite_to_int(' 42 '), binlite_to_int('-9223372036854775808'), binlite_to_int(7)", "[42 -9223372036854775808 7]", nil},
		{"SELECT binlite_to_int('3.7'), binlite_to_int('1e2'), binlite_to_int('99999999999999999999')", "[3 1 9223372036854775807]", []uint16{1292, 1292, 1292}},
	})
}
