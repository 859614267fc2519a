package mysqljson

import "github.com/binlite/binlite/mysqlerr"

// Agg is JSON_ARRAYAGG (an array of a group's values) or JSON_OBJECTAGG (an
// object of a group's key/value pairs, a repeated key keeping its last value).
// Step takes the signature (see Funcs) and the value, or the key and the value.
type Agg struct {
	object bool
	rows   int
	acc    Value
}

// NewArrayAgg and NewObjectAgg start an aggregate.
func NewArrayAgg() *Agg  { return &Agg{acc: Value{Kind: KindArray, Arr: []Value{}}} }
func NewObjectAgg() *Agg { return &Agg{object: true, acc: Value{Kind: KindObject}} }

// Step adds one row.
func (a *Agg) Step(args ...any) error {
	fn, want := "json_arrayagg", 2
	if a.object {
		fn, want = "json_objectagg", 3
	}
	if len(args) != want {
		return paramCount(fn)
	}
	sig, _ := text(args[0])
	c := &call{fn: fn, sig: sig, args: args[1:]}
	a.rows++
	if !a.object {
		v, err := c.value(0)
		if err != nil {
			return err
		}
		a.acc.Arr = append(a.acc.Arr, v)
		return nil
	}
	if c.null(0) {
		return mysqlerr.New(mysqlerr.ErJSONDocumentNullKey, "JSON documents may not contain NULL member names.")
	}
	v, err := c.value(1)
	if err != nil {
		return err
	}
	a.acc.Put(sqlText(c.args[0]), v)
	return nil
}

// Done is the document; NULL for a group without rows.
func (a *Agg) Done() (any, error) {
	if a.rows == 0 {
		return nil, nil
	}
	return a.acc.Text(), nil
}
