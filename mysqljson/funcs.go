package mysqljson

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/binlite/binlite/mysqlerr"
)

// The SQL functions: MySQL's JSON functions over SQL values, as the engine
// registers them (SQLName gives the name) and the compiler calls them. The first
// argument of each is a signature, one letter per argument after it saying what
// the compiler knows of its SQL type (Sig*): a JSON value (a JSON column or
// function) or an SQL value, which MySQL reads differently (a string is a JSON
// document where a document is expected, a JSON string where a value is put into
// one). NULL arguments arrive as nil or a nil []byte.

// Letters of a signature.
const (
	SigJSON    = 'j' // JSON text (a JSON column or function): the value it holds
	SigSQL     = 's' // an SQL value: a number, or a string
	SigDecimal = 'd' // a DECIMAL's exact text: a JSON decimal number
	SigBool    = 'b' // a truth value (TRUE, a comparison): JSON true or false
)

// SQLName is the engine's name of the SQL function for MySQL's JSON function fn.
func SQLName(fn string) string { return "binlite_" + fn }

// Func is one SQL function: its arguments as SQLite passes them (the signature
// first), its result (nil for NULL) or a *mysqlerr.Error.
type Func func(args ...any) (any, error)

// call is one call of a function: its MySQL name, signature and arguments.
type call struct {
	fn   string
	sig  string
	args []any
}

// Functions are the SQL functions by their engine names.
func Functions() map[string]Func {
	fns := map[string]func(*call) (any, error){
		"json_extract":        extractFn,
		"json_unquote":        unquoteFn,
		"json_type":           typeFn,
		"json_valid":          validFn,
		"json_object":         objectFn,
		"json_array":          arrayFn,
		"json_set":            modifyFn(ModeSet),
		"json_insert":         modifyFn(ModeInsert),
		"json_replace":        modifyFn(ModeReplace),
		"json_array_append":   arrayChangeFn(ArrayAppend),
		"json_array_insert":   arrayChangeFn(ArrayInsert),
		"json_remove":         removeFn,
		"json_contains":       containsFn,
		"json_contains_path":  containsPathFn,
		"json_length":         lengthFn,
		"json_depth":          depthFn,
		"json_keys":           keysFn,
		"json_quote":          quoteFn,
		"json_merge_patch":    mergeFn(true),
		"json_merge_preserve": mergeFn(false),
		"json_search":         searchFn,
		"json_overlaps":       overlapsFn,
		"json_memberof":       memberOfFn,
		"json_pretty":         prettyFn,
		"json_store":          storeFn,
		"json_cast":           castFn,
		"json_cmp":            cmpFn,
	}
	out := make(map[string]Func, len(fns))
	for name, f := range fns {
		out[SQLName(name)] = func(args ...any) (any, error) {
			if len(args) == 0 {
				return nil, paramCount(name)
			}
			sig, _ := text(args[0])
			return f(&call{fn: name, sig: sig, args: args[1:]})
		}
	}
	return out
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

// n is how many arguments the call has.
func (c *call) n() int { return len(c.args) }

// sigOf is argument i's signature letter (SigSQL past the signature's end).
func (c *call) sigOf(i int) byte {
	if i < len(c.sig) {
		return c.sig[i]
	}
	return SigSQL
}

func (c *call) null(i int) bool { return i >= len(c.args) || null(c.args[i]) }

// doc reads argument i as a JSON document; nil for NULL. A JSON value's text is
// binlite's own (ParseStored keeps its decimals); a string is parsed as MySQL
// parses JSON text.
func (c *call) doc(i int) (*Value, error) {
	if c.null(i) {
		return nil, nil
	}
	s, ok := text(c.args[i])
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErInvalidTypeForJSON, "Invalid data type for JSON data in argument %d to function %s; a JSON string or JSON type is required.", i+1, c.fn)
	}
	var v Value
	var err error
	if c.sigOf(i) == SigJSON {
		v, err = ParseStored(s)
	} else {
		v, err = Parse(s)
	}
	if err != nil {
		return nil, paramError(err, i+1, c.fn)
	}
	return &v, nil
}

func paramError(err error, pos int, fn string) error {
	if se, ok := err.(*SyntaxError); ok {
		return mysqlerr.New(mysqlerr.ErInvalidJSONTextInParam, "Invalid JSON text in argument %d to function %s: \"%s\" at position %d.", pos, fn, se.Msg, se.Pos)
	}
	return mysqlerr.New(mysqlerr.ErJSONDocumentTooDeep, "The JSON document exceeds the maximum depth.")
}

// path reads argument i as a path; ok=false for NULL.
func (c *call) path(i int, wildcards bool) (Path, bool, error) {
	if c.null(i) {
		return Path{}, false, nil
	}
	p, err := ParsePath(sqlText(c.args[i]))
	if err != nil {
		return Path{}, false, mysqlerr.New(mysqlerr.ErInvalidJSONPath, "%s", err.Error())
	}
	if !wildcards && p.Wildcard() {
		return Path{}, false, mysqlerr.New(mysqlerr.ErInvalidJSONPathWildcard, "In this situation, path expressions may not contain the * and ** tokens or an array range.")
	}
	return p, true, nil
}

// value reads argument i as a value to put into a document.
func (c *call) value(i int) (Value, error) {
	if c.null(i) {
		return Null(), nil
	}
	return FromSQL(c.sigOf(i), c.args[i], i+1, c.fn)
}

// FromSQL converts an SQL value into a JSON value the way sig says MySQL does.
func FromSQL(sig byte, a any, pos int, fn string) (Value, error) {
	if null(a) {
		return Null(), nil
	}
	switch sig {
	case SigJSON:
		c := &call{fn: fn, sig: "j", args: []any{a}}
		v, err := c.doc(0)
		if err != nil || v == nil {
			if se, ok := err.(*mysqlerr.Error); ok && se.Code == mysqlerr.ErInvalidJSONTextInParam {
				err = mysqlerr.New(se.Code, "%s", strings.Replace(se.Message, "argument 1", "argument "+strconv.Itoa(pos), 1))
			}
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

func result(v Value) any { return v.Text() }

func paramCount(fn string) error {
	return mysqlerr.New(mysqlerr.ErWrongParamcountToNative, "Incorrect parameter count in the call to native function '%s'", fn)
}

func boolResult(b bool) any {
	if b {
		return int64(1)
	}
	return int64(0)
}

func extractFn(c *call) (any, error) {
	if c.n() < 2 {
		return nil, paramCount(c.fn)
	}
	doc, err := c.doc(0)
	if err != nil || doc == nil {
		return nil, err
	}
	var hits []*Value
	wrap := c.n() > 2
	for i := 1; i < c.n(); i++ {
		p, ok, err := c.path(i, true)
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

// unquoteFn is JSON_UNQUOTE: a JSON string's text; anything else as it is.
func unquoteFn(c *call) (any, error) {
	if c.n() != 1 {
		return nil, paramCount(c.fn)
	}
	if c.null(0) {
		return nil, nil
	}
	s, ok := text(c.args[0])
	if !ok {
		return sqlText(c.args[0]), nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s, nil
	}
	v, err := Parse(s)
	if err != nil || v.Kind != KindString {
		if err == nil {
			err = &SyntaxError{"The document root must not be followed by other values.", len(s)}
		}
		return nil, paramError(err, 1, c.fn)
	}
	return v.Str, nil
}

func typeFn(c *call) (any, error) {
	v, err := c.doc(0)
	if err != nil || v == nil {
		return nil, err
	}
	return v.TypeName(), nil
}

func validFn(c *call) (any, error) {
	if c.null(0) {
		return nil, nil
	}
	s, ok := text(c.args[0])
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErInvalidTypeForJSON, "Invalid data type for JSON data in argument 1 to function json_valid; a JSON string or JSON type is required.")
	}
	return boolResult(Valid(s)), nil
}

// objectFn is JSON_OBJECT(key, value, ...).
func objectFn(c *call) (any, error) {
	if c.n()%2 != 0 {
		return nil, paramCount(c.fn)
	}
	o := Value{Kind: KindObject}
	for i := 0; i < c.n(); i += 2 {
		if c.null(i) {
			return nil, mysqlerr.New(mysqlerr.ErJSONDocumentNullKey, "JSON documents may not contain NULL member names.")
		}
		v, err := c.value(i + 1)
		if err != nil {
			return nil, err
		}
		o.Put(sqlText(c.args[i]), v)
	}
	return result(o), nil
}

func arrayFn(c *call) (any, error) {
	a := Value{Kind: KindArray, Arr: make([]Value, 0, c.n())}
	for i := range c.args {
		v, err := c.value(i)
		if err != nil {
			return nil, err
		}
		a.Arr = append(a.Arr, v)
	}
	return result(a), nil
}

// modifyFn is JSON_SET/JSON_INSERT/JSON_REPLACE(doc, path, value, ...).
func modifyFn(mode int) func(*call) (any, error) {
	return pathValueFn(nil, func(doc *Value, p Path, v Value) { Modify(doc, p, v, mode) })
}

// arrayChangeFn is JSON_ARRAY_APPEND/JSON_ARRAY_INSERT(doc, path, value, ...).
func arrayChangeFn(change func(*Value, Path, Value)) func(*call) (any, error) {
	return pathValueFn(func(c *call, p Path) error {
		if c.fn == "json_array_insert" && !p.endsInCell() {
			return mysqlerr.New(mysqlerr.ErInvalidJSONPathArrayCell, "A path expression is not a path to a cell in an array.")
		}
		return nil
	}, change)
}

// pathValueFn is a function of (doc, path, value, ...) that changes doc at each
// path (checked by check, if any) with its value, in order.
func pathValueFn(check func(*call, Path) error, change func(*Value, Path, Value)) func(*call) (any, error) {
	return func(c *call) (any, error) {
		if c.n() < 3 || c.n()%2 == 0 {
			return nil, paramCount(c.fn)
		}
		doc, err := c.doc(0)
		if err != nil || doc == nil {
			return nil, err
		}
		for i := 1; i < c.n(); i += 2 {
			p, ok, err := c.path(i, false)
			if err != nil || !ok {
				return nil, err
			}
			if check != nil {
				if err := check(c, p); err != nil {
					return nil, err
				}
			}
			v, err := c.value(i + 1)
			if err != nil {
				return nil, err
			}
			change(doc, p, v)
		}
		return result(*doc), nil
	}
}

func removeFn(c *call) (any, error) {
	if c.n() < 2 {
		return nil, paramCount(c.fn)
	}
	doc, err := c.doc(0)
	if err != nil || doc == nil {
		return nil, err
	}
	for i := 1; i < c.n(); i++ {
		p, ok, err := c.path(i, false)
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

// target reads a document and, if argument pathAt is given, the value that path
// names in it (no wildcards); nil when an argument is NULL or the path names none.
func (c *call) target(pathAt int) (*Value, error) {
	doc, err := c.doc(0)
	if err != nil || doc == nil {
		return nil, err
	}
	if c.n() <= pathAt {
		return doc, nil
	}
	p, ok, err := c.path(pathAt, false)
	if err != nil || !ok {
		return nil, err
	}
	hits := Seek(doc, p, true)
	if len(hits) == 0 {
		return nil, nil
	}
	return hits[0], nil
}

func containsFn(c *call) (any, error) {
	if c.n() < 2 || c.n() > 3 {
		return nil, paramCount(c.fn)
	}
	cand, err := c.doc(1)
	if err != nil {
		return nil, err
	}
	t, err := c.target(2)
	if err != nil || t == nil || cand == nil {
		return nil, err
	}
	return boolResult(Contains(t, cand)), nil
}

// oneOrAll reads JSON_CONTAINS_PATH's and JSON_SEARCH's second argument.
func (c *call) oneOrAll() (all bool, ok bool, err error) {
	if c.null(1) {
		return false, false, nil
	}
	switch strings.ToLower(sqlText(c.args[1])) {
	case "one":
		return false, true, nil
	case "all":
		return true, true, nil
	}
	return false, false, mysqlerr.New(mysqlerr.ErJSONBadOneOrAllArg, "The oneOrAll argument to %s may take these values: 'one' or 'all'.", c.fn)
}

func containsPathFn(c *call) (any, error) {
	if c.n() < 3 {
		return nil, paramCount(c.fn)
	}
	doc, err := c.doc(0)
	if err != nil {
		return nil, err
	}
	all, ok, err := c.oneOrAll()
	if err != nil || !ok || doc == nil {
		return nil, err
	}
	for i := 2; i < c.n(); i++ {
		p, ok, err := c.path(i, true)
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

func lengthFn(c *call) (any, error) {
	if c.n() < 1 || c.n() > 2 {
		return nil, paramCount(c.fn)
	}
	t, err := c.target(1)
	if err != nil || t == nil {
		return nil, err
	}
	return int64(t.Length()), nil
}

func depthFn(c *call) (any, error) {
	v, err := c.doc(0)
	if err != nil || v == nil {
		return nil, err
	}
	return int64(v.Depth()), nil
}

func keysFn(c *call) (any, error) {
	if c.n() < 1 || c.n() > 2 {
		return nil, paramCount(c.fn)
	}
	t, err := c.target(1)
	if err != nil || t == nil {
		return nil, err
	}
	k, ok := Keys(t)
	if !ok {
		return nil, nil
	}
	return result(k), nil
}

func quoteFn(c *call) (any, error) {
	if c.null(0) {
		return nil, nil
	}
	return QuoteString(sqlText(c.args[0])), nil
}

// mergeFn is JSON_MERGE_PATCH (patch) or JSON_MERGE_PRESERVE. A NULL argument
// makes the merge NULL, except that a later non-object patch replaces it.
func mergeFn(patch bool) func(*call) (any, error) {
	return func(c *call) (any, error) {
		if c.n() < 2 {
			return nil, paramCount(c.fn)
		}
		var acc *Value
		for i := range c.args {
			v, err := c.doc(i)
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
func searchFn(c *call) (any, error) {
	if c.n() < 3 {
		return nil, paramCount(c.fn)
	}
	doc, err := c.doc(0)
	if err != nil {
		return nil, err
	}
	all, ok, err := c.oneOrAll()
	if err != nil || !ok || doc == nil || c.null(2) {
		return nil, err
	}
	pat := sqlText(c.args[2])
	esc := '\\'
	if c.n() > 3 && !c.null(3) {
		if e := sqlText(c.args[3]); e != "" {
			esc, _ = utf8.DecodeRuneInString(e)
		}
	}
	var paths []Path
	for i := 4; i < c.n(); i++ {
		p, ok, err := c.path(i, true)
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

func overlapsFn(c *call) (any, error) {
	x, err := c.doc(0)
	if err != nil {
		return nil, err
	}
	y, err := c.doc(1)
	if err != nil || x == nil || y == nil {
		return nil, err
	}
	return boolResult(Overlaps(x, y)), nil
}

// memberOfFn is value MEMBER OF(array).
func memberOfFn(c *call) (any, error) {
	a, err := c.doc(1)
	if err != nil || a == nil || c.null(0) {
		return nil, err
	}
	v, err := c.value(0)
	if err != nil {
		return nil, err
	}
	return boolResult(MemberOf(&v, a)), nil
}

func prettyFn(c *call) (any, error) {
	v, err := c.doc(0)
	if err != nil || v == nil {
		return nil, err
	}
	return v.Pretty(), nil
}

// storeFn is store(value, column): what a JSON column keeps of a value written
// into it, the document in MySQL's text; MySQL's error 3140 (naming the column)
// for what is not JSON text.
func storeFn(c *call) (any, error) {
	if c.null(0) {
		return nil, nil
	}
	col := sqlText(c.args[1])
	s, ok := text(c.args[0])
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErInvalidJSONText, "Invalid JSON text: \"not a JSON text, may need CAST\" at position 0 in value for column '%s'.", col)
	}
	if c.sigOf(0) == SigJSON {
		if v, err := ParseStored(s); err == nil {
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
func castFn(c *call) (any, error) {
	if c.null(0) {
		return nil, nil
	}
	sig := c.sigOf(0)
	if _, isText := text(c.args[0]); isText && sig == SigSQL {
		v, err := Parse(sqlText(c.args[0]))
		if err != nil {
			return nil, paramError(err, 1, "cast_as_json")
		}
		return result(v), nil
	}
	v, err := FromSQL(sig, c.args[0], 1, "cast_as_json")
	if err != nil {
		return nil, err
	}
	return result(v), nil
}

// cmpFn compares two values as MySQL compares a JSON value with another value:
// -1, 0 or 1; NULL if either is SQL NULL.
func cmpFn(c *call) (any, error) {
	if c.null(0) || c.null(1) {
		return nil, nil
	}
	x, err := c.value(0)
	if err != nil {
		return nil, err
	}
	y, err := c.value(1)
	if err != nil {
		return nil, err
	}
	return int64(Compare(&x, &y)), nil
}
