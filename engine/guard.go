package engine

import "fmt"

// Guard is a check run in the same SQLite transaction as a statement, just before
// it: when its query returns a row, the statement does not run and fails with
// Err. The session uses one where SQLite would compute with stored values the
// compiler did not read for it (see session's uint64Guard): the check and the
// statement see the same data, so no write between them can make the answer
// wrong.
type Guard struct {
	SQL string
	Err error
}

// check runs g on c: nil when it finds nothing.
func (g *Guard) check(c *sqliteConn, db string) error {
	if g == nil {
		return nil
	}
	rows, err := queryConn(c, g.SQL, nil, db)
	if err != nil {
		return err
	}
	if len(rows.Values) > 0 {
		return g.Err
	}
	return nil
}

// guardedQuery runs g and the query in one read transaction of c.
func guardedQuery(c *sqliteConn, g *Guard, sql string, args []any, db string) (*Rows, error) {
	if g == nil {
		return queryConn(c, sql, args, db)
	}
	if _, err := c.exec("BEGIN"); err != nil {
		return nil, fmt.Errorf("engine: begin a guarded read: %w", err)
	}
	rows, err := func() (*Rows, error) {
		if err := g.check(c, db); err != nil {
			return nil, err
		}
		return queryConn(c, sql, args, db)
	}()
	if _, rerr := c.exec("ROLLBACK"); rerr != nil && !c.AutoCommit() && err == nil {
		return nil, fmt.Errorf("engine: end a guarded read: %w", rerr)
	}
	return rows, err
}
