package engine

import (
	"fmt"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
)

// A scalar subquery answers one value: SQLite takes the first row of several,
// MySQL refuses with 1242. The compiler reads at most two rows of it through
// binlite_scalar(v) (compiler.scalarSubquery), an aggregate that gives the one
// value, NULL for none, and the error for two.

type scalarRows struct {
	n int
	v any
}

func (a *scalarRows) Step(v any) {
	if a.n == 0 {
		a.v = v
	}
	a.n++
}

func (a *scalarRows) Done() (any, error) {
	if a.n > 1 {
		return nil, fnError(mysqlerr.ErSubqueryNo1Row, "Subquery returns more than 1 row")
	}
	return a.v, nil
}

func registerScalarSubquery(c *sqlite3.SQLiteConn) error {
	if err := c.RegisterAggregator("binlite_scalar", func() *scalarRows { return &scalarRows{} }, true); err != nil {
		return fmt.Errorf("register binlite_scalar: %w", err)
	}
	return nil
}
