// Package mysqljson is MySQL's JSON data type over JSON text: parsing as MySQL
// parses (duplicate keys last-wins, at most 100 levels), the value model (integers,
// unsigned integers, doubles, decimals, strings, booleans, null, arrays, objects
// with their keys in MySQL's order: by length, then bytes), MySQL's printed form
// ({"a": 1, "b": [1, 2]}), comparison, path expressions and the JSON functions.
//
// binlite stores a JSON column's value as the text MySQL prints for it, so what a
// client reads and what a replica receives are MySQL's text; the functions take
// and return that text. Errors are *mysqlerr.Error with MySQL's codes.
package mysqljson

import (
	"sort"
)

// Kind is a JSON value's type as MySQL's JSON_TYPE names it.
type Kind uint8

// The kinds of JSON value.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindUint
	KindDouble
	KindDecimal
	KindString
	KindArray
	KindObject
)

// Value is one JSON value.
type Value struct {
	Kind  Kind
	Bool  bool
	Int   int64
	Uint  uint64
	Float float64
	Str   string   // a string's text, or a decimal's digits
	Arr   []Value  // an array's elements
	Obj   []Member // an object's members, in MySQL's key order, keys unique
}

// Member is one key and value of an object.
type Member struct {
	Key   string
	Value Value
}

// Constructors of scalars.
func Null() Value                 { return Value{Kind: KindNull} }
func Bool(b bool) Value           { return Value{Kind: KindBool, Bool: b} }
func Int(i int64) Value           { return Value{Kind: KindInt, Int: i} }
func Uint(u uint64) Value         { return Value{Kind: KindUint, Uint: u} }
func Double(f float64) Value      { return Value{Kind: KindDouble, Float: f} }
func String(s string) Value       { return Value{Kind: KindString, Str: s} }
func Decimal(digits string) Value { return Value{Kind: KindDecimal, Str: digits} }

// Array and Object build containers (Object's members may come in any order; a
// repeated key keeps its last value).
func Array(vs ...Value) Value { return Value{Kind: KindArray, Arr: vs} }

func Object(ms ...Member) Value {
	o := Value{Kind: KindObject}
	for _, m := range ms {
		o.Put(m.Key, m.Value)
	}
	return o
}

// keyLess is MySQL's order of object keys: shorter first, then by bytes.
func keyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// find is the index of key in an object's members, or where it would go.
func (v *Value) find(key string) (int, bool) {
	i := sort.Search(len(v.Obj), func(i int) bool { return !keyLess(v.Obj[i].Key, key) })
	return i, i < len(v.Obj) && v.Obj[i].Key == key
}

// Get is an object's member value, nil if the key is absent.
func (v *Value) Get(key string) *Value {
	if v.Kind != KindObject {
		return nil
	}
	if i, ok := v.find(key); ok {
		return &v.Obj[i].Value
	}
	return nil
}

// Put sets an object's member, in key order.
func (v *Value) Put(key string, val Value) {
	i, ok := v.find(key)
	if ok {
		v.Obj[i].Value = val
		return
	}
	v.Obj = append(v.Obj, Member{})
	copy(v.Obj[i+1:], v.Obj[i:])
	v.Obj[i] = Member{Key: key, Value: val}
}

// Delete removes an object's member; it reports whether there was one.
func (v *Value) Delete(key string) bool {
	i, ok := v.find(key)
	if ok {
		v.Obj = append(v.Obj[:i], v.Obj[i+1:]...)
	}
	return ok
}

// Clone is a deep copy (functions that change a document work on their own).
func (v Value) Clone() Value {
	switch v.Kind {
	case KindArray:
		a := make([]Value, len(v.Arr))
		for i := range v.Arr {
			a[i] = v.Arr[i].Clone()
		}
		v.Arr = a
	case KindObject:
		o := make([]Member, len(v.Obj))
		for i := range v.Obj {
			o[i] = Member{v.Obj[i].Key, v.Obj[i].Value.Clone()}
		}
		v.Obj = o
	}
	return v
}

// IsScalar: neither an array nor an object.
func (v *Value) IsScalar() bool { return v.Kind != KindArray && v.Kind != KindObject }

// TypeName is JSON_TYPE's answer.
func (v *Value) TypeName() string {
	switch v.Kind {
	case KindNull:
		return "NULL"
	case KindBool:
		return "BOOLEAN"
	case KindInt:
		return "INTEGER"
	case KindUint:
		return "UNSIGNED INTEGER"
	case KindDouble:
		return "DOUBLE"
	case KindDecimal:
		return "DECIMAL"
	case KindString:
		return "STRING"
	case KindArray:
		return "ARRAY"
	}
	return "OBJECT"
}

// Depth is JSON_DEPTH's answer: 1 for a scalar or an empty container.
func (v *Value) Depth() int {
	d := 0
	switch v.Kind {
	case KindArray:
		for i := range v.Arr {
			d = max(d, v.Arr[i].Depth())
		}
	case KindObject:
		for i := range v.Obj {
			d = max(d, v.Obj[i].Value.Depth())
		}
	}
	return d + 1
}

// Length is JSON_LENGTH's answer: a container's element count, 1 for a scalar.
func (v *Value) Length() int {
	switch v.Kind {
	case KindArray:
		return len(v.Arr)
	case KindObject:
		return len(v.Obj)
	}
	return 1
}
