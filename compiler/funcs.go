package compiler

import (
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/mysqlerr"
)

// Name resolution of MySQL's built-in functions. A function the emitter's
// families (temporalCall, stringCall, jsonCall, mathCall, miscCall) do not
// render is either a plain call of a function the engine registers or SQLite
// has with MySQL's behaviour (plainFuncs), or not compiled: a MySQL built-in
// binlite lacks fails with 1235 naming it, any other name with 1305 as MySQL's
// stored function lookup does. Nothing reaches SQLite by a name that SQLite
// may answer differently (SQLite's format(), instr(), substr(), trim(x, y),
// quote(), char() are not MySQL's).

// argRender is how a plain call renders its arguments.
type argRender uint8

const (
	argPlain argRender = iota // as they are
	argText                   // read as text: a decimal literal's digits, a BIGINT UNSIGNED's
	argReal                   // read as a DOUBLE: a BIGINT UNSIGNED as one
)

// fnSpec is a plain call: the SQL function called and MySQL's argument count
// (max -1: no limit).
type fnSpec struct {
	sql      string
	min, max int
	render   argRender
}

// plainFuncs are the functions compiled as a call of sql with the arguments in
// MySQL's order.
var plainFuncs = map[string]fnSpec{
	"upper": {"binlite_upper", 1, 1, argText}, "ucase": {"binlite_upper", 1, 1, argText},
	"lower": {"binlite_lower", 1, 1, argText}, "lcase": {"binlite_lower", 1, 1, argText},
	"char_length": {"char_length", 1, 1, argText}, "character_length": {"char_length", 1, 1, argText},
	"reverse": {"reverse", 1, 1, argText},
	"substr":  {"binlite_substr", 2, 3, argText}, "substring": {"binlite_substr", 2, 3, argText},
	"left": {"left", 2, 2, argText}, "right": {"right", 2, 2, argText},
	"lpad": {"lpad", 3, 3, argText}, "rpad": {"rpad", 3, 3, argText},
	"repeat": {"repeat", 2, 2, argText}, "space": {"space", 1, 1, argPlain},
	"substring_index": {"binlite_substring_index", 3, 3, argText},
	"insert_func":     {"binlite_insert", 4, 4, argText},
	"elt":             {"binlite_elt", 2, -1, argText},
	"quote":           {"binlite_quote", 1, 1, argText},
	"ascii":           {"binlite_ascii", 1, 1, argText}, "ord": {"binlite_ord", 1, 1, argText},
	"concat": {"concat", 1, -1, argText}, "concat_ws": {"concat_ws", 2, -1, argText},
	"ltrim": {"ltrim", 1, 1, argText}, "rtrim": {"rtrim", 1, 1, argText},
	"replace": {"replace", 3, 3, argText},
	"md5":     {"md5", 1, 1, argText}, "sha1": {"sha1", 1, 1, argText}, "sha": {"sha1", 1, 1, argText},
	"sha2":      {"binlite_sha2", 2, 2, argText},
	"crc32":     {"binlite_crc32", 1, 1, argText},
	"to_base64": {"binlite_to_base64", 1, 1, argText}, "from_base64": {"binlite_from_base64", 1, 1, argText},
	"unhex": {"binlite_unhex", 1, 1, argText},
	"bin":   {"bin", 1, 1, argText}, "oct": {"oct", 1, 1, argText},
	"conv":       {"binlite_conv", 3, 3, argText},
	"soundex":    {"binlite_soundex", 1, 1, argText},
	"make_set":   {"binlite_make_set", 2, -1, argText},
	"export_set": {"binlite_export_set", 3, 5, argText},
	"inet_aton":  {"binlite_inet_aton", 1, 1, argText}, "inet_ntoa": {"binlite_inet_ntoa", 1, 1, argText},
	"inet6_aton": {"binlite_inet6_aton", 1, 1, argText}, "inet6_ntoa": {"binlite_inet6_ntoa", 1, 1, argPlain},
	"is_ipv4": {"binlite_is_ipv4", 1, 1, argText}, "is_ipv6": {"binlite_is_ipv6", 1, 1, argText},
	"is_ipv4_compat": {"binlite_is_ipv4_compat", 1, 1, argPlain}, "is_ipv4_mapped": {"binlite_is_ipv4_mapped", 1, 1, argPlain},
	"uuid": {"uuid", 0, 0, argPlain}, "uuid_short": {"binlite_uuid_short", 0, 0, argPlain},
	"is_uuid":     {"binlite_is_uuid", 1, 1, argText},
	"uuid_to_bin": {"binlite_uuid_to_bin", 1, 2, argText}, "bin_to_uuid": {"binlite_bin_to_uuid", 1, 2, argPlain},
	"random_bytes": {"binlite_random_bytes", 1, 1, argPlain},
	"coalesce":     {"coalesce", 1, -1, argPlain},
	"sign":         {"binlite_sign", 1, 1, argReal},
	"sqrt":         {"binlite_sqrt", 1, 1, argReal},
	"ln":           {"binlite_ln", 1, 1, argReal}, "log2": {"binlite_log2", 1, 1, argReal}, "log10": {"binlite_log10", 1, 1, argReal},
	"sin": {"binlite_sin", 1, 1, argReal}, "cos": {"binlite_cos", 1, 1, argReal},
	"asin": {"binlite_asin", 1, 1, argReal}, "acos": {"binlite_acos", 1, 1, argReal},
	"atan2":   {"binlite_atan", 2, 2, argReal},
	"degrees": {"binlite_degrees", 1, 1, argReal}, "radians": {"binlite_radians", 1, 1, argReal},
	"interval":  {"binlite_interval", 2, -1, argReal},
	"bit_count": {"binlite_bit_count", 1, 1, argPlain},
	"sleep":     {"binlite_sleep", 1, 1, argReal},
	// the server's replication functions (server/functions.go registers them)
	"gtid_subset": {"gtid_subset", 2, 2, argPlain}, "gtid_subtract": {"gtid_subtract", 2, 2, argPlain},
	"wait_for_executed_gtid_set": {"wait_for_executed_gtid_set", 1, 2, argPlain},
	"source_pos_wait":            {"source_pos_wait", 2, 4, argPlain}, "master_pos_wait": {"master_pos_wait", 2, 4, argPlain},
	"binlog_gtid_pos": {"binlog_gtid_pos", 2, 2, argPlain}, // MariaDB's: the GTID set at a binary log position
	"makedate":        {"makedate", 2, 2, argPlain}, "from_days": {"from_days", 1, 1, argPlain},
	"period_add": {"period_add", 2, 2, argPlain}, "period_diff": {"period_diff", 2, 2, argPlain},
}

// checkedDouble are math functions whose DOUBLE result may overflow (MySQL's
// 1690): their value goes through binlite_double.
var checkedDouble = map[string]fnSpec{
	"exp": {"binlite_exp", 1, 1, argReal}, "pow": {"binlite_pow", 2, 2, argReal}, "power": {"binlite_pow", 2, 2, argReal},
	"tan": {"binlite_tan", 1, 1, argReal}, "cot": {"binlite_cot", 1, 1, argReal},
}

// internalFuncs are the engine's functions the compiler itself puts in
// expressions it rewrites (emitenum.go, emitbinary.go).
var internalFuncs = set(fnEnumIndex, fnSetMask, "binlite_like_bytes", "typeof")

// plainCall renders a function of plainFuncs; false for other names.
func (e *emitter) plainCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	if internalFuncs[name] {
		e.w(name + "(")
		e.list(x.Args, s)
		e.w(")")
		return true
	}
	spec, ok := plainFuncs[name]
	checked := false
	if !ok {
		if spec, ok = checkedDouble[name]; !ok {
			return false
		}
		checked = true
	}
	if !e.arity(name, x, spec.min, spec.max) {
		return true
	}
	if checked {
		e.w("binlite_double(")
	}
	e.w(spec.sql + "(")
	for i, a := range x.Args {
		if i > 0 {
			e.w(", ")
		}
		switch spec.render {
		case argText:
			e.digitArg(a, s)
		case argReal:
			e.realArg(numericArg(e, a, s), s)
		default:
			e.expr(a, s)
		}
	}
	e.w(")")
	if checked {
		e.w(", " + sqlString(e.exprText(x, s)) + ")")
	}
	return true
}

// arity checks a call's argument count: MySQL's 1582 when it is wrong.
func (e *emitter) arity(name string, x *ast.FuncCallExpr, lo, hi int) bool {
	if n := len(x.Args); n < lo || hi >= 0 && n > hi {
		e.fail(mysqlerr.New(mysqlerr.ErWrongParamcountToNative, "Incorrect parameter count in the call to native function '%s'", displayName(name)))
		return false
	}
	return true
}

// displayName is a function's name as MySQL's messages spell it.
func displayName(name string) string {
	switch name {
	case "insert_func":
		return "INSERT"
	case "char_func":
		return "CHAR"
	}
	return strings.ToUpper(name)
}

// unsupported fails a call of a MySQL built-in binlite does not compile.
// It wins over a construct left to sqlcompat (errNotYet) met before it: that
// translation would not have the function either.
func (e *emitter) unsupported(name string) {
	if errors.Is(e.err, errNotYet) {
		e.err = nil
	}
	e.fail(mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s'", displayName(name)))
}

// unknownFunction answers a call of a name that is no built-in: MySQL looks
// for a stored function of the schema, which binlite has none of.
func (e *emitter) unknownFunction(x *ast.FuncCallExpr) {
	db := x.Schema.O
	if db == "" {
		db = e.c.db
	}
	e.fail(mysqlerr.New(mysqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, x.FnName.O))
}

// builtinNames are MySQL 8.4's built-in functions that parse as a call of a
// name: one binlite does not compile is refused with 1235 (unsupported), any
// other name with 1305.
var builtinNames = set(
	// strings
	"ascii", "bin", "bit_length", "char_func", "char_length", "character_length", "concat", "concat_ws", "elt",
	"export_set", "field", "find_in_set", "format", "from_base64", "hex", "insert_func", "instr", "lcase", "left",
	"length", "load_file", "locate", "lower", "lpad", "ltrim", "make_set", "mid", "oct", "octet_length", "ord",
	"position", "quote", "regexp_instr", "regexp_like", "regexp_replace", "regexp_substr", "repeat", "replace",
	"reverse", "right", "rpad", "rtrim", "soundex", "space", "strcmp", "substr", "substring", "substring_index",
	"to_base64", "trim", "ucase", "unhex", "upper", "weight_string", "convert", "charset", "collation",
	"coercibility", "format_bytes", "format_pico_time",
	// numbers
	"abs", "acos", "asin", "atan", "atan2", "ceil", "ceiling", "conv", "cos", "cot", "crc32", "degrees", "exp",
	"floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "rand", "round", "sign", "sin",
	"sqrt", "tan", "truncate",
	// dates and times
	"adddate", "addtime", "convert_tz", "curdate", "current_date", "current_time", "current_timestamp", "curtime",
	"date", "date_add", "date_format", "date_sub", "datediff", "day", "dayname", "dayofmonth", "dayofweek",
	"dayofyear", "extract", "from_days", "from_unixtime", "get_format", "hour", "last_day", "localtime",
	"localtimestamp", "makedate", "maketime", "microsecond", "minute", "month", "monthname", "now", "period_add",
	"period_diff", "quarter", "sec_to_time", "second", "str_to_date", "subdate", "subtime", "sysdate", "time",
	"time_format", "time_to_sec", "timediff", "timestamp", "timestampadd", "timestampdiff", "to_days",
	"to_seconds", "unix_timestamp", "utc_date", "utc_time", "utc_timestamp", "week", "weekday", "weekofyear",
	"year", "yearweek",
	// flow control, comparison, information
	"coalesce", "greatest", "if", "ifnull", "interval", "isnull", "least", "nullif", "benchmark",
	"connection_id", "current_role", "current_user", "database", "found_rows", "icu_version", "last_insert_id",
	"roles_graphml", "row_count", "schema", "session_user", "system_user", "user", "version",
	// hashing, encryption, compression
	"aes_decrypt", "aes_encrypt", "compress", "md5", "random_bytes", "sha", "sha1", "sha2",
	"statement_digest", "statement_digest_text", "uncompress", "uncompressed_length", "validate_password_strength",
	// locks and misc
	"any_value", "bin_to_uuid", "default", "get_lock", "grouping", "inet_aton", "inet_ntoa", "inet6_aton",
	"inet6_ntoa", "is_free_lock", "is_ipv4", "is_ipv4_compat", "is_ipv4_mapped", "is_ipv6", "is_used_lock",
	"is_uuid", "master_pos_wait", "name_const", "release_all_locks", "release_lock", "sleep", "source_pos_wait",
	"uuid", "uuid_short", "uuid_to_bin", "values", "bit_count",
	// full-text, XML, spatial prefixes are checked by name below
	"extractvalue", "updatexml", "match",
	"gtid_subset", "gtid_subtract", "wait_for_executed_gtid_set", "wait_until_sql_thread_after_gtids",
)

// isBuiltin reports whether name is one of MySQL's built-in functions.
func isBuiltin(name string) bool {
	return builtinNames[name] || strings.HasPrefix(name, "json_") || strings.HasPrefix(name, "st_") ||
		strings.HasPrefix(name, "mbr") || strings.HasPrefix(name, "ps_")
}

// numericArg is a function's number argument: a date or time as its number
// (MySQL's SIGN(d) reads 20240115, not the text's leading 2024).
func numericArg(e *emitter, x ast.ExprNode, s *scope) ast.ExprNode {
	if e.typeOf(x, s).isTemporal() {
		return tnum(x)
	}
	return x
}
