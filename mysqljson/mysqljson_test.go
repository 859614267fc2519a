package mysqljson

import (
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestText: documents come back in MySQL's text (manual 13.5, Normalization,
// Merging, and Autowrapping of JSON Values).
func TestText(t *testing.T) {
	cases := map[string]string{
		`{"b": 1, "a": [1, 2, {"c": null}]}`:                                 `{"a": [1, 2, {"c": null}], "b": 1}`,
		`  {"key"  :   "value"}  `:                                           `{"key": "value"}`,
		`{"bb":1,"a":2,"c":3,"aaa":4}`:                                       `{"a": 2, "c": 3, "bb": 1, "aaa": 4}`,
		`{"x": 1, "x": 2}`:                                                   `{"x": 2}`,
		`[1,"two",3.5,true,false,null]`:                                      `[1, "two", 3.5, true, false, null]`,
		`[1.0, 1e2, 0.1, -0.5, 1e15, 1e-16]`:                                 `[1.0, 100.0, 0.1, -0.5, 1e15, 1e-16]`,
		`[123456789012345678, 1E400]`:                                        "",
		`[18446744073709551615, -9223372036854775808, 18446744073709551616]`: `[18446744073709551615, -9223372036854775808, 1.8446744073709552e19]`,
		`"a\u00e9\"\\\/\n\u0001"`:                                            `"aé\"\\/\n\u0001"`,
		`"\ud83d\ude00"`:                                                     `"😀"`,
		`{}`:                                                                 `{}`,
		`[]`:                                                                 `[]`,
		`[0.00001, 123.456, 1e-5, 1.5e300]`:                                  `[0.00001, 123.456, 0.00001, 1.5e300]`,
	}
	for in, want := range cases {
		v, err := Parse(in)
		if want == "" {
			if err == nil {
				t.Errorf("%s: parsed as %s, want an error", in, v.Text())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := v.Text(); got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `{bad json}`, `[1,]`, `{"a" 1}`, `01`, `1.`, `"abc`, `[1] 2`, "\"a\x01\"", `tru`, `"\x"`} {
		if _, err := Parse(in); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
	deep := ""
	for range MaxDepth + 1 {
		deep += "["
	}
	if _, err := Parse(deep); err == nil {
		t.Errorf("%d levels parsed", MaxDepth+1)
	} else if _, ok := err.(DepthError); !ok {
		t.Errorf("too deep: %v", err)
	}
}

func TestPretty(t *testing.T) {
	v, _ := Parse(`{"a": [1, {"b": []}], "c": {}}`)
	want := "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ],\n  \"c\": {}\n}"
	if got := v.Pretty(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// withSig: the test cases of these functions give the signature.
var withSig = map[string]bool{"json_object": true, "json_array": true, "json_set": true, "json_insert": true,
	"json_replace": true, "json_array_append": true, "json_array_insert": true, "json_memberof": true,
	"json_store": true, "json_cast": true, "json_cmp": true}

// callFn runs one of the SQL functions by its MySQL name.
func callFn(t *testing.T, fn string, args ...any) (any, error) {
	t.Helper()
	f, ok := Functions()[SQLName(fn)]
	if !ok {
		t.Fatalf("no function %s", fn)
	}
	if !withSig[fn] {
		args = append([]any{""}, args...) // every argument an SQL value
	}
	return f(args...)
}

// TestFunctions pins the answers of MySQL 8.4's manual examples (14.17).
func TestFunctions(t *testing.T) {
	doc := `{"a": 1, "b": [2, 3], "c": {"d": 4}}`
	cases := []struct {
		fn   string
		args []any
		want any
	}{
		{"json_extract", []any{`[10, 20, [30, 40]]`, "$[1]"}, `20`},
		{"json_extract", []any{`[10, 20, [30, 40]]`, "$[1]", "$[0]"}, `[20, 10]`},
		{"json_extract", []any{`[10, 20, [30, 40]]`, "$[2][*]"}, `[30, 40]`},
		{"json_extract", []any{`{"a": {"b": 1}, "c": {"b": 2}}`, "$**.b"}, `[1, 2]`},
		{"json_extract", []any{doc, "$.nosuch"}, nil},
		{"json_extract", []any{doc, "$.a[0]"}, `1`},
		{"json_extract", []any{`[1, 2, 3, 4, 5]`, "$[1 to 3]"}, `[2, 3, 4]`},
		{"json_extract", []any{`[1, 2, 3, 4, 5]`, "$[last-3 to last-1]"}, `[2, 3, 4]`},
		{"json_extract", []any{`{"a b": 1}`, `$."a b"`}, `1`},
		{"json_extract", []any{nil, "$"}, nil},
		{"json_unquote", []any{`"abc"`}, "abc"},
		{"json_unquote", []any{`"\t\u0032"`}, "\t2"},
		{"json_unquote", []any{`[1, 2]`}, "[1, 2]"},
		{"json_type", []any{`[1]`}, "ARRAY"},
		{"json_type", []any{`{"a": 1}`}, "OBJECT"},
		{"json_type", []any{`1`}, "INTEGER"},
		{"json_type", []any{`1.5`}, "DOUBLE"},
		{"json_type", []any{`true`}, "BOOLEAN"},
		{"json_type", []any{`null`}, "NULL"},
		{"json_type", []any{`"x"`}, "STRING"},
		{"json_valid", []any{`{"a": 1}`}, int64(1)},
		{"json_valid", []any{`hello`}, int64(0)},
		{"json_valid", []any{nil}, nil},
		{"json_object", []any{"sssj", "id", int64(87), "name", `{"x": 1}`}, `{"id": 87, "name": {"x": 1}}`},
		{"json_object", []any{"s", "a", "[1]"}, `{"a": "[1]"}`},
		{"json_array", []any{"ssbd", int64(1), "abc", int64(1), "1.50"}, `[1, "abc", true, 1.50]`},
		{"json_array", []any{"", int64(1), nil}, `[1, null]`},
		{"json_set", []any{"ssssj", `{"a": 1, "b": [2, 3]}`, "$.a", int64(10), "$.c", `[true, false]`}, `{"a": 10, "b": [2, 3], "c": [true, false]}`},
		{"json_insert", []any{"ssssj", `{"a": 1, "b": [2, 3]}`, "$.a", int64(10), "$.c", `[true, false]`}, `{"a": 1, "b": [2, 3], "c": [true, false]}`},
		{"json_replace", []any{"ssssj", `{"a": 1, "b": [2, 3]}`, "$.a", int64(10), "$.c", `[true, false]`}, `{"a": 10, "b": [2, 3]}`},
		{"json_set", []any{"s", `[1, 2]`, "$[5]", int64(3)}, `[1, 2, 3]`},
		{"json_set", []any{"s", `1`, "$[1]", int64(2)}, `[1, 2]`},
		{"json_set", []any{"s", `1`, "$[0]", int64(2)}, `2`},
		{"json_set", []any{"s", `{"a": 1}`, "$", int64(2)}, `2`},
		{"json_remove", []any{`["a", ["b", "c"], "d"]`, "$[1]"}, `["a", "d"]`},
		{"json_remove", []any{`{"a": 1, "b": 2}`, "$.a", "$.x"}, `{"b": 2}`},
		{"json_array_append", []any{"", `["a", ["b", "c"], "d"]`, "$[1]", int64(1), "$[0]", int64(2)}, `[["a", 2], ["b", "c", 1], "d"]`},
		{"json_array_append", []any{"s", `{"a": 1}`, "$", "z"}, `[{"a": 1}, "z"]`},
		{"json_array_insert", []any{"s", `["a", {"b": [1, 2]}, [3, 4]]`, "$[1]", "x"}, `["a", "x", {"b": [1, 2]}, [3, 4]]`},
		{"json_array_insert", []any{"s", `["a", {"b": [1, 2]}, [3, 4]]`, "$[100]", "x"}, `["a", {"b": [1, 2]}, [3, 4], "x"]`},
		{"json_array_insert", []any{"s", `["a", {"b": [1, 2]}, [3, 4]]`, "$[1].b[0]", "x"}, `["a", {"b": ["x", 1, 2]}, [3, 4]]`},
		{"json_contains", []any{doc, `1`, "$.a"}, int64(1)},
		{"json_contains", []any{doc, `1`, "$.b"}, int64(0)},
		{"json_contains", []any{doc, `{"d": 4}`, "$.a"}, int64(0)},
		{"json_contains", []any{doc, `{"d": 4}`, "$.c"}, int64(1)},
		{"json_contains", []any{`[1, 2, [3, 4]]`, `[1, [3]]`}, int64(1)},
		{"json_contains", []any{`[[1, 2]]`, `1`}, int64(0)},
		{"json_contains", []any{`{"a": 1.0}`, `{"a": 1}`}, int64(1)},
		{"json_contains_path", []any{doc, "one", "$.a", "$.e"}, int64(1)},
		{"json_contains_path", []any{doc, "all", "$.a", "$.e"}, int64(0)},
		{"json_contains_path", []any{doc, "one", "$.c.d"}, int64(1)},
		{"json_length", []any{`[1, 2, {"a": 3}]`}, int64(3)},
		{"json_length", []any{`{"a": 1, "b": {"c": 30}}`, "$.b"}, int64(1)},
		{"json_length", []any{`"x"`}, int64(1)},
		{"json_depth", []any{`[10, {"a": 20}]`}, int64(3)},
		{"json_depth", []any{`{}`}, int64(1)},
		{"json_keys", []any{`{"a": 1, "b": {"c": 30}}`}, `["a", "b"]`},
		{"json_keys", []any{`{"a": 1, "b": {"c": 30}}`, "$.b"}, `["c"]`},
		{"json_keys", []any{`[1]`}, nil},
		{"json_quote", []any{`"null"`}, `"\"null\""`},
		{"json_quote", []any{"[1, 2, 3]"}, `"[1, 2, 3]"`},
		{"json_merge_patch", []any{`[1, 2]`, `[true, false]`}, `[true, false]`},
		{"json_merge_patch", []any{`{"name": "x"}`, `{"id": 47}`}, `{"id": 47, "name": "x"}`},
		{"json_merge_patch", []any{`{"a": 1, "b": 2}`, `{"a": 3, "c": 4}`, `{"a": 5, "d": 6}`}, `{"a": 5, "b": 2, "c": 4, "d": 6}`},
		{"json_merge_patch", []any{`{"a": 1, "b": 2}`, `{"b": null}`}, `{"a": 1}`},
		{"json_merge_patch", []any{`{"a": 1}`, nil}, nil},
		{"json_merge_preserve", []any{`[1, 2]`, `[true, false]`}, `[1, 2, true, false]`},
		{"json_merge_preserve", []any{`{"a": 1, "b": 2}`, `{"a": 3, "c": 4}`}, `{"a": [1, 3], "b": 2, "c": 4}`},
		{"json_merge_preserve", []any{`1`, `true`}, `[1, true]`},
		{"json_search", []any{`["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]`, "one", "abc"}, `"$[0]"`},
		{"json_search", []any{`["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]`, "all", "abc"}, `["$[0]", "$[2].x"]`},
		{"json_search", []any{`["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]`, "all", "ghi"}, nil},
		{"json_search", []any{`["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]`, "all", "10", nil, "$[1][0].k"}, `"$[1][0].k"`},
		{"json_search", []any{`["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]`, "all", "%b%", nil, "$[3]"}, `"$[3].y"`},
		{"json_search", []any{`["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]`, "all", "%b%"}, `["$[0]", "$[2].x", "$[3].y"]`},
		{"json_overlaps", []any{`[1, 3, 5, 7]`, `[2, 5, 7]`}, int64(1)},
		{"json_overlaps", []any{`{"a": 1, "b": 10}`, `{"c": 1, "e": 10}`}, int64(0)},
		{"json_overlaps", []any{`5`, `[5]`}, int64(1)},
		{"json_memberof", []any{"", int64(17), `[23, "abc", 17, "ab", 10]`}, int64(1)},
		{"json_memberof", []any{"", "ab", `[23, "abc", 17, "ab", 10]`}, int64(1)},
		{"json_memberof", []any{"", "7", `[23, "abc", 17, "ab", 10]`}, int64(0)},
		{"json_cmp", []any{"js", `"two"`, "two"}, int64(0)},
		{"json_cmp", []any{"js", `2`, int64(2)}, int64(0)},
		{"json_cmp", []any{"js", `2.0`, int64(2)}, int64(0)},
		{"json_cmp", []any{"js", `{"a": 1}`, `{"a": 1}`}, int64(1)},
		{"json_cmp", []any{"jj", `[1, 2]`, `[1, 3]`}, int64(-1)},
		{"json_cmp", []any{"js", `"a"`, nil}, nil},
		{"json_store", []any{"s", `  {"b": 1, "a": 2} `, "t.j"}, `{"a": 2, "b": 1}`},
		{"json_cast", []any{"s", `[1,2]`}, `[1, 2]`},
		{"json_cast", []any{"s", int64(3)}, `3`},
	}
	for _, c := range cases {
		got, err := callFn(t, c.fn, c.args...)
		if err != nil {
			t.Errorf("%s%v: %v", c.fn, c.args, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s%v = %#v, want %#v", c.fn, c.args, got, c.want)
		}
	}
}

func TestFunctionErrors(t *testing.T) {
	cases := []struct {
		fn   string
		args []any
		code uint16
	}{
		{"json_extract", []any{`{bad`, "$"}, mysqlerr.ErInvalidJSONTextInParam},
		{"json_extract", []any{`{}`, "a"}, mysqlerr.ErInvalidJSONPath},
		{"json_extract", []any{`{}`, "$."}, mysqlerr.ErInvalidJSONPath},
		{"json_extract", []any{`{}`, "$**"}, mysqlerr.ErInvalidJSONPath},
		{"json_extract", []any{int64(1), "$"}, mysqlerr.ErInvalidTypeForJSON},
		{"json_set", []any{"s", `{}`, "$.*", int64(1)}, mysqlerr.ErInvalidJSONPathWildcard},
		{"json_remove", []any{`{}`, "$"}, mysqlerr.ErJSONVacuousPath},
		{"json_contains_path", []any{`{}`, "some", "$"}, mysqlerr.ErJSONBadOneOrAllArg},
		{"json_object", []any{"s", nil, int64(1)}, mysqlerr.ErJSONDocumentNullKey},
		{"json_array_insert", []any{"s", `[]`, "$.a", int64(1)}, mysqlerr.ErInvalidJSONPathArrayCell},
		{"json_store", []any{"s", `{bad`, "t.j"}, mysqlerr.ErInvalidJSONText},
		{"json_store", []any{"s", int64(1), "t.j"}, mysqlerr.ErInvalidJSONText},
		{"json_unquote", []any{`"a"b"`}, mysqlerr.ErInvalidJSONTextInParam},
	}
	for _, c := range cases {
		_, err := callFn(t, c.fn, c.args...)
		if !mysqlerr.Is(err, c.code) {
			t.Errorf("%s%v: %v, want error %d", c.fn, c.args, err, c.code)
		}
	}
}

// TestStoredDecimals: a decimal put into a document (JSON_OBJECT('a', 1.50))
// keeps its digits through binlite's own text; user text is read as MySQL
// reads it (1.50 is the double 1.5).
func TestStoredDecimals(t *testing.T) {
	v, err := ParseStored(`{"a": 1.50, "b": 1.5, "c": 100.0, "d": 1e15, "e": [0.10]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Text(); got != `{"a": 1.50, "b": 1.5, "c": 100.0, "d": 1e15, "e": [0.10]}` {
		t.Errorf("stored text read back as %s", got)
	}
	if a := v.Get("a"); a.Kind != KindDecimal {
		t.Errorf("1.50 is %s", a.TypeName())
	}
	u, _ := Parse(`{"a": 1.50}`)
	if got := u.Text(); got != `{"a": 1.5}` {
		t.Errorf("user text: %s", got)
	}
}

func TestAggregates(t *testing.T) {
	a := NewArrayAgg()
	for _, v := range []any{int64(1), "x", nil, `{"k": 1.50}`} {
		sig := "s"
		if s, ok := v.(string); ok && s[0] == '{' {
			sig = "j"
		}
		if err := a.Step(sig, v); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := a.Done(); got != `[1, "x", null, {"k": 1.50}]` {
		t.Errorf("JSON_ARRAYAGG: %v", got)
	}
	o := NewObjectAgg()
	o.Step("ss", "b", int64(1))
	o.Step("ss", "a", int64(2))
	o.Step("ss", "b", int64(3))
	if got, _ := o.Done(); got != `{"a": 2, "b": 3}` {
		t.Errorf("JSON_OBJECTAGG: %v", got)
	}
	if err := NewObjectAgg().Step("ss", nil, int64(1)); !mysqlerr.Is(err, mysqlerr.ErJSONDocumentNullKey) {
		t.Errorf("NULL key: %v", err)
	}
	if got, _ := NewArrayAgg().Done(); got != nil {
		t.Errorf("no rows: %v", got)
	}
}
