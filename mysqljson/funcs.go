package mysqljson

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/binlite/binlite/mysqlerr"
)

// The SQL functions: MySQL's JSON functions over SQL values, as the engine
// registers them (SQLName gives the name) and the compiler calls them. A JSON
// document argument is JSON text; NULL arguments arrive as nil or a nil []byte.
// Arguments that are values to put into a document (JSON_ARRAY's, JSON_SET's
// ...) come with a signature, one letter per value saying how MySQL converts it
// (see Sig*): the compiler knows their SQL types, the functions do not.

// Letters of a value signature.
const (
	SigJSON    = 'j' // JSON text (a JSON column or function): the value it holds
	SigSQL     = 's' // an SQL value: a number, or a string that becomes a JSON string
	SigDecimal = 'd' // a DECIMAL's exact text: a JSON decimal number
	SigBool    = 'b' // a truth value (TRUE, a comparison): JSON true or false
)

// SQLName is the engine's name of the SQL function for MySQL's JSON function fn.
func SQLName(fn string) string { return "binlite_" + fn }

// Func is one SQL function: its arguments as SQLite passes them, its result
// (nil for NULL) or a *mysqlerr.Error.
type Func func(args ...any) (any, error)

// Functions are the SQL functions by their engine names.
func Functions() map[string]Func {
	fns := map[string]Func{
		"json_extract":        extractFn,
		"json_unquote":        fixed(1, unquoteFn),
		"json_type":           fixed(1, typeFn),
		"json_valid":          fixed(1, validFn),
		"json_object":         withSig(objectFn),
		"json_array":          withSig(arrayFn),
		"json_set":            withSig(modifyFn("json_set", ModeSet)),
		"json_insert":         withSig(modifyFn("json_insert", ModeInsert)),
		"json_replace":        withSig(modifyFn("json_replace", ModeReplace)),
		"json_array_append":   withSig(arrayChangeFn("json_array_append", ArrayAppend)),
		"json_array_insert":   withSig(arrayChangeFn("json_array_insert", ArrayInsert)),
		"json_remove":         removeFn,
		"json_contains":       containsFn,
		"json_contains_path":  containsPathFn,
		"json_length":         lengthFn,
		"json_depth":          fixed(1, depthFn),
		"json_keys":           keysFn,
		"json_quote":          fixed(1, quoteFn),
		"json_merge_patch":    mergeFn("json_merge_patch", true),
		"json_merge_preserve": mergeFn("json_merge_preserve", false),
		"json_search":         searchFn,
		"json_overlaps":       fixed(2, overlapsFn),
		"json_memberof":       fixed(3, memberOfFn),
		"json_pretty":         fixed(1, prettyFn),
		"json_store":          fixed(3, storeFn),
		"json_cast":           fixed(2, castFn),
		"json_cmp":            fixed(3, cmpFn),
	}
	out := make(map[string]Func, len(fns))
	for name, f := range fns {
		out[SQLName(name)] = f
	}
	return out
}

// fixed adapts a function of n arguments.
func fixed[F func(any) (any, error) | func(any, any) (any, error) | func(any, any, any) (any, error)](n int, f F) Func {
	return func(args ...any) (any, error) {
		if len(args) != n {
			return nil, paramCount("json function")
		}
		switch g := any(f).(type) {
		case func(any) (any, error):
			return g(args[0])
		case func(any, any) (any, error):
			return g(args[0], args[1])
		case func(any, any, any) (any, error):
			return g(args[0], args[1], args[2])
		}
		return nil, nil
	}
}

// withSig adapts a function whose first argument is a value signature.
func withSig(f func(any, ...any) (any, error)) Func {
	return func(args ...any) (any, error) {
		if len(args) == 0 {
			return nil, paramCount("json function")
		}
		return f(args[0], args[1:]...)
	}
}

func null(a any) bool {
	switch x := a.(type) {
	case nil:
		return true
	case []byte:
		return x == nil
	}
	return false
}

func text(a any) (string, bool) {
	switch x := a.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), x != nil
	}
	return "", false
}

// docArg reads argument pos (from 1) of fn as a JSON document; nil for NULL.
func docArg(a any, pos int, fn string) (*Value, error) {
	if null(a) {
		return nil, nil
	}
	s, ok := text(a)
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErInvalidTypeForJSON, "Invalid data type for JSON data in argument %d to function %s; a JSON string or JSON type is required.", pos, fn)
	}
	v, err := Parse(s)
	if err != nil {
		return nil, paramError(err, pos, fn)
	}
	return &v, nil
}

func paramError(err error, pos int, fn string) error {
	if se, ok := err.(*SyntaxError); ok {
		return mysqlerr.New(mysqlerr.ErInvalidJSONTextInParam, "Invalid JSON text in argument %d to function %s: \"%s\" at position %d.", pos, fn, se.Msg, se.Pos)
	}
	return mysqlerr.New(mysqlerr.ErJSONDocumentTooDeep, "The JSON document exceeds the maximum depth.")
}

// pathArg reads a path argument; ok=false for NULL.
func pathArg(a any, wildcards bool) (Path, bool, error) {
	if null(a) {
		return Path{}, false, nil
	}
	s, ok := text(a)
	if !ok {
		s = sqlText(a)
	}
	p, err := ParsePath(s)
	if err != nil {
		return Path{}, false, mysqlerr.New(mysqlerr.ErInvalidJSONPath, "%s", err.Error())
	}
	if !wildcards && p.Wildcard() {
		return Path{}, false, errWildcard()
	}
	return p, true, nil
}

func errWildcard() error {
	return mysqlerr.New(mysqlerr.ErInvalidJSONPathWildcard, "In this situation, path expressions may not contain the * and ** tokens or an array range.")
}

func sqlText(a any) string {
	switch x := a.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	s, _ := text(a)
	return s
}

// FromSQL converts an SQL value into a JSON value the way sig says MySQL does.
func FromSQL(sig byte, a any, pos int, fn string) (Value, error) {
	if null(a) {
		return Null(), nil
	}
	switch sig {
	case SigJSON:
		v, err := docArg(a, pos, fn)
		if err != nil || v == nil {
			return Null(), err
		}
		return *v, nil
	case SigBool:
		switch x := a.(type) {
		case int64:
			return Bool(x != 0), nil
		case float64:
			return Bool(x != 0), nil
		}
	case SigDecimal:
		if s, ok := text(a); ok {
			return Decimal(s), nil
		}
	}
	switch x := a.(type) {
	case int64:
		return Int(x), nil
	case float64:
		return Double(x), nil
	case string:
		return String(x), nil
	case []byte:
		if utf8.Valid(x) {
			return String(string(x)), nil
		}
		// MySQL keeps a binary string as an opaque value, printed base64.
		return String("base64:type15:" + base64.StdEncoding.EncodeToString(x)), nil
	}
	return Null(), nil
}

// sigAt is the signature letter of value i (SigSQL past its end).
func sigAt(sig any, i int) byte {
	s, _ := text(sig)
	if i < len(s) {
		return s[i]
	}
	return SigSQL
}

func result(v Value) any { return v.Text() }

func extractFn(args ...any) (any, error) {
	const fn = "json_extract"
	if len(args) < 2 {
		return nil, paramCount(fn)
	}
	doc, err := docArg(args[0], 1, fn)
	if err != nil || doc == nil {
		return nil, err
	}
	var hits []*Value
	wrap := len(args) > 2
	for _, a := range args[1:] {
		p, ok, err := pathArg(a, true)
		if err != nil || !ok {
			return nil, err
		}
		wrap = wrap || p.Wildcard()
		hits = append(hits, Seek(doc, p, true)...)
	}
	switch {
	case len(hits) == 0:
		return nil, nil
	case !wrap:
		return result(*hits[0]), nil
	}
	out := make([]Value, len(hits))
	for i, h := range hits {
		out[i] = *h
	}
	return result(Array(out...)), nil
}

func paramCount(fn string) error {
	return mysqlerr.New(mysqlerr.ErWrongParamcountToNative, "Incorrect parameter count in the call to native function '%s'", fn)
}

// unquoteFn is JSON_UNQUOTE: a JSON string's text; anything else as it is.
func unquoteFn(a any) (any, error) {
	if null(a) {
		return nil, nil
	}
	s, ok := text(a)
	if !ok {
		return sqlText(a), nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s, nil
	}
	v, err := Parse(s)
	if err != nil || v.Kind != KindString {
		if err == nil {
			err = &SyntaxError{"The document root must not be followed by other values.", len(s)}
		}
		return nil, paramError(err, 1, "json_unquote")
	}
	return v.Str, nil
}

func typeFn(a any) (any, error) {
	v, err := docArg(a, 1, "json_type")
	if err != nil || v == nil {
		return nil, err
	}
	return v.TypeName(), nil
}

func validFn(a any) (any, error) {
	if null(a) {
		return nil, nil
	}
	s, ok := text(a)
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErInvalidTypeForJSON, "Invalid data type for JSON data in argument 1 to function json_valid; a JSON string or JSON type is required.")
	}
	if Valid(s) {
		return int64(1), nil
	}
	return int64(0), nil
}

// objectFn is JSON_OBJECT(sig, key, value, ...).
func objectFn(sig any, args ...any) (any, error) {
	if len(args)%2 != 0 {
		return nil, paramCount("json_object")
	}
	o := Value{Kind: KindObject}
	for i := 0; i < len(args); i += 2 {
		if null(args[i]) {
			return nil, mysqlerr.New(mysqlerr.ErJSONDocumentNullKey, "JSON documents may not contain NULL member names.")
		}
		v, err := FromSQL(sigAt(sig, i/2), args[i+1], i+2, "json_object")
		if err != nil {
			return nil, err
		}
		key, ok := text(args[i])
		if !ok {
			key = sqlText(args[i])
		}
		o.Put(key, v)
	}
	return result(o), nil
}

func arrayFn(sig any, args ...any) (any, error) {
	a := Value{Kind: KindArray, Arr: make([]Value, 0, len(args))}
	for i, x := range args {
		v, err := FromSQL(sigAt(sig, i), x, i+1, "json_array")
		if err != nil {
			return nil, err
		}
		a.Arr = append(a.Arr, v)
	}
	return result(a), nil
}

// modifyFn is JSON_SET/JSON_INSERT/JSON_REPLACE(sig, doc, path, value, ...).
func modifyFn(fn string, mode int) func(any, ...any) (any, error) {
	return func(sig any, args ...any) (any, error) {
		if len(args) < 3 || len(args)%2 == 0 {
			return nil, paramCount(fn)
		}
		doc, err := docArg(args[0], 1, fn)
		if err != nil || doc == nil {
			return nil, err
		}
		for i := 1; i < len(args); i += 2 {
			p, ok, err := pathArg(args[i], false)
			if err != nil || !ok {
				return nil, err
			}
			v, err := FromSQL(sigAt(sig, i/2), args[i+1], i+2, fn)
			if err != nil {
				return nil, err
			}
			Modify(doc, p, v, mode)
		}
		return result(*doc), nil
	}
}

func arrayChangeFn(fn string, change func(*Value, Path, Value)) func(any, ...any) (any, error) {
	return func(sig any, args ...any) (any, error) {
		if len(args) < 3 || len(args)%2 == 0 {
			return nil, paramCount(fn)
		}
		doc, err := docArg(args[0], 1, fn)
		if err != nil || doc == nil {
			return nil, err
		}
		for i := 1; i < len(args); i += 2 {
			p, ok, err := pathArg(args[i], false)
			if err != nil || !ok {
				return nil, err
			}
			if fn == "json_array_insert" && !p.endsInCell() {
				return nil, mysqlerr.New(mysqlerr.ErInvalidJSONPathArrayCell, "A path expression is not a path to a cell in an array.")
			}
			v, err := FromSQL(sigAt(sig, i/2), args[i+1], i+2, fn)
			if err != nil {
				return nil, err
			}
			change(doc, p, v)
		}
		return result(*doc), nil
	}
}

func removeFn(args ...any) (any, error) {
	const fn = "json_remove"
	if len(args) < 2 {
		return nil, paramCount(fn)
	}
	doc, err := docArg(args[0], 1, fn)
	if err != nil || doc == nil {
		return nil, err
	}
	for _, a := range args[1:] {
		p, ok, err := pathArg(a, false)
		if err != nil || !ok {
			return nil, err
		}
		if p.Root() {
			return nil, mysqlerr.New(mysqlerr.ErJSONVacuousPath, "The path expression '$' is not allowed in this context.")
		}
		Remove(doc, p)
	}
	return result(*doc), nil
}

// target reads JSON_CONTAINS/JSON_LENGTH/JSON_KEYS's document and optional path:
// the value the path names; nil when an argument is NULL or the path names none.
func target(fn string, args []any) (*Value, error) {
	doc, err := docArg(args[0], 1, fn)
	if err != nil || doc == nil {
		return nil, err
	}
	if len(args) < 2 {
		return doc, nil
	}
	p, ok, err := pathArg(args[len(args)-1], false)
	if err != nil || !ok {
		return nil, err
	}
	hits := Seek(doc, p, true)
	if len(hits) == 0 {
		return nil, nil
	}
	return hits[0], nil
}

func containsFn(args ...any) (any, error) {
	const fn = "json_contains"
	if len(args) < 2 || len(args) > 3 {
		return nil, paramCount(fn)
	}
	cand, err := docArg(args[1], 2, fn)
	if err != nil {
		return nil, err
	}
	t, err := target(fn, append([]any{args[0]}, args[2:]...))
	if err != nil || t == nil || cand == nil {
		return nil, err
	}
	return boolResult(Contains(t, cand)), nil
}

func boolResult(b bool) any {
	if b {
		return int64(1)
	}
	return int64(0)
}

func oneOrAll(a any, fn string) (all bool, ok bool, err error) {
	if null(a) {
		return false, false, nil
	}
	s, _ := text(a)
	switch strings.ToLower(s) {
	case "one":
		return false, true, nil
	case "all":
		return true, true, nil
	}
	return false, false, mysqlerr.New(mysqlerr.ErJSONBadOneOrAllArg, "The oneOrAll argument to %s may take these values: 'one' or 'all'.", fn)
}

func containsPathFn(args ...any) (any, error) {
	const fn = "json_contains_path"
	if len(args) < 3 {
		return nil, paramCount(fn)
	}
	doc, err := docArg(args[0], 1, fn)
	if err != nil {
		return nil, err
	}
	all, ok, err := oneOrAll(args[1], fn)
	if err != nil || !ok || doc == nil {
		return nil, err
	}
	for _, a := range args[2:] {
		p, ok, err := pathArg(a, true)
		if err != nil || !ok {
			return nil, err
		}
		found := Exists(doc, p)
		if found && !all {
			return int64(1), nil
		}
		if !found && all {
			return int64(0), nil
		}
	}
	return boolResult(all), nil
}

func lengthFn(args ...any) (any, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, paramCount("json_length")
	}
	t, err := target("json_length", args)
	if err != nil || t == nil {
		return nil, err
	}
	return int64(t.Length()), nil
}

func depthFn(a any) (any, error) {
	v, err := docArg(a, 1, "json_depth")
	if err != nil || v == nil {
		return nil, err
	}
	return int64(v.Depth()), nil
}

func keysFn(args ...any) (any, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, paramCount("json_keys")
	}
	t, err := target("json_keys", args)
	if err != nil || t == nil {
		return nil, err
	}
	k, ok := Keys(t)
	if !ok {
		return nil, nil
	}
	return result(k), nil
}

func quoteFn(a any) (any, error) {
	if null(a) {
		return nil, nil
	}
	s, ok := text(a)
	if !ok {
		s = sqlText(a)
	}
	return QuoteString(s), nil
}

// mergeFn is JSON_MERGE_PATCH (patch) or JSON_MERGE_PRESERVE. A NULL argument
// makes the merge NULL, except that a later non-object patch replaces it.
func mergeFn(fn string, patch bool) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		if len(args) < 2 {
			return nil, paramCount(fn)
		}
		var acc *Value
		for i, a := range args {
			v, err := docArg(a, i+1, fn)
			if err != nil {
				return nil, err
			}
			switch {
			case i == 0:
				acc = v
			case v == nil:
				if !patch {
					return nil, nil
				}
				acc = nil
			case patch && v.Kind != KindObject:
				acc = v
			case acc == nil:
			case patch:
				m := MergePatch(*acc, *v)
				acc = &m
			default:
				m := MergePreserve(*acc, *v)
				acc = &m
			}
		}
		if acc == nil {
			return nil, nil
		}
		return result(*acc), nil
	}
}

// searchFn is JSON_SEARCH(doc, one_or_all, search [, escape [, path ...]]).
func searchFn(args ...any) (any, error) {
	const fn = "json_search"
	if len(args) < 3 {
		return nil, paramCount(fn)
	}
	doc, err := docArg(args[0], 1, fn)
	if err != nil {
		return nil, err
	}
	all, ok, err := oneOrAll(args[1], fn)
	if err != nil || !ok || doc == nil || null(args[2]) {
		return nil, err
	}
	pat, _ := text(args[2])
	if !isText(args[2]) {
		pat = sqlText(args[2])
	}
	esc := '\\'
	if len(args) > 3 && !null(args[3]) {
		if e, _ := text(args[3]); e != "" {
			esc, _ = utf8.DecodeRuneInString(e)
		}
	}
	var paths []Path
	for _, a := range args[min(4, len(args)):] {
		p, ok, err := pathArg(a, true)
		if err != nil || !ok {
			return nil, err
		}
		paths = append(paths, p)
	}
	found := Search(doc, pat, esc, all, paths)
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return QuoteString(found[0]), nil
	}
	out := make([]Value, len(found))
	for i, f := range found {
		out[i] = String(f)
	}
	return result(Array(out...)), nil
}

func isText(a any) bool { _, ok := text(a); return ok }

func overlapsFn(a, b any) (any, error) {
	x, err := docArg(a, 1, "json_overlaps")
	if err != nil {
		return nil, err
	}
	y, err := docArg(b, 2, "json_overlaps")
	if err != nil || x == nil || y == nil {
		return nil, err
	}
	return boolResult(Overlaps(x, y)), nil
}

// memberOfFn is value MEMBER OF(array): sig is the value's signature letter.
func memberOfFn(sig, val, arr any) (any, error) {
	a, err := docArg(arr, 2, "member of")
	if err != nil || a == nil || null(val) {
		return nil, err
	}
	v, err := FromSQL(sigAt(sig, 0), val, 1, "member of")
	if err != nil {
		return nil, err
	}
	return boolResult(MemberOf(&v, a)), nil
}

func prettyFn(a any) (any, error) {
	v, err := docArg(a, 1, "json_pretty")
	if err != nil || v == nil {
		return nil, err
	}
	return v.Pretty(), nil
}

// storeFn is what a JSON column keeps of a value written into it: the document
// in MySQL's text. column names the column for the error (3140) a value that is
// not JSON text gets; sig is the value's signature letter.
func storeFn(sig, val, column any) (any, error) {
	if null(val) {
		return nil, nil
	}
	col, _ := text(column)
	s, ok := text(val)
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErInvalidJSONText, "Invalid JSON text: \"not a JSON text, may need CAST\" at position 0 in value for column '%s'.", col)
	}
	if sigAt(sig, 0) == SigJSON {
		if v, err := Parse(s); err == nil {
			return v.Text(), nil
		}
	}
	return Store(s, col)
}

// Store is JSON text s as a JSON column keeps it (MySQL's text), or MySQL's error.
func Store(s, column string) (string, error) {
	v, err := Parse(s)
	if err != nil {
		if se, ok := err.(*SyntaxError); ok {
			return "", mysqlerr.New(mysqlerr.ErInvalidJSONText, "Invalid JSON text: \"%s\" at position %d in value for column '%s'.", se.Msg, se.Pos, column)
		}
		return "", mysqlerr.New(mysqlerr.ErJSONDocumentTooDeep, "The JSON document exceeds the maximum depth.")
	}
	return v.Text(), nil
}

// castFn is CAST(value AS JSON): a string is parsed as a document, other values
// become JSON scalars.
func castFn(sig, val any) (any, error) {
	if null(val) {
		return nil, nil
	}
	c := sigAt(sig, 0)
	if _, isText := text(val); isText && c == SigSQL {
		c = SigJSON
	}
	v, err := FromSQL(c, val, 1, "cast_as_json")
	if err != nil {
		return nil, err
	}
	return result(v), nil
}

// cmpFn compares two values as MySQL compares a JSON value with another value:
// -1, 0 or 1; NULL if either is SQL NULL. sig has one letter for each.
func cmpFn(sig, a, b any) (any, error) {
	if null(a) || null(b) {
		return nil, nil
	}
	x, err := FromSQL(sigAt(sig, 0), a, 1, "json_compare")
	if err != nil {
		return nil, err
	}
	y, err := FromSQL(sigAt(sig, 1), b, 2, "json_compare")
	if err != nil {
		return nil, err
	}
	return int64(Compare(&x, &y)), nil
}
