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
	return nil
}

// mysqlFunc passes a function's *mysqlerr.Error through SQLite (fnError).
func mysqlFunc(f func(...any) (any, error)) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		v, err := f(args...)
		if err != nil {
			me := mysqlerr.From(err)
			return nil, fnError(me.Code, "%s", me.Message)
		}
		return v, nil
	}
}
