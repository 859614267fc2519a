package engine

import (
	"fmt"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqljson"
)

// registerJSON registers MySQL's JSON functions (package mysqljson) under the
// names the compiler emits; their errors reach the client with MySQL's codes.
func registerJSON(c *sqlite3.SQLiteConn) error {
	for name, f := range mysqljson.Functions() {
		if err := c.RegisterFunc(name, mysqlFunc(f), true); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	for name, start := range map[string]func() *mysqljson.Agg{
		mysqljson.SQLName("json_arrayagg"):  mysqljson.NewArrayAgg,
		mysqljson.SQLName("json_objectagg"): mysqljson.NewObjectAgg,
	} {
		if err := c.RegisterAggregator(name, func() *jsonAgg { return &jsonAgg{start()} }, true); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// jsonAgg passes a JSON aggregate's *mysqlerr.Error through SQLite.
type jsonAgg struct{ a *mysqljson.Agg }

func (g *jsonAgg) Step(args ...any) error { return asFnError(g.a.Step(args...)) }

func (g *jsonAgg) Done() (any, error) {
	v, err := g.a.Done()
	return v, asFnError(err)
}

func asFnError(err error) error {
	if err == nil {
		return nil
	}
	me := mysqlerr.From(err)
	return fnError(me.Code, "%s", me.Message)
}

// mysqlFunc passes a function's *mysqlerr.Error through SQLite (fnError).
func mysqlFunc(f func(...any) (any, error)) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		v, err := f(args...)
		if err != nil {
			return nil, asFnError(err)
		}
		return v, nil
	}
}
