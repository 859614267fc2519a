package session

import (
	"strings"

	"github.com/binlite/binlite/engine"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// SHOW ... LIKE 'pattern' filters on a SHOW's first column (the name it lists),
// and SHOW ... WHERE expr on its columns by name, as MySQL does.

// showFilter is the LIKE or WHERE of a SHOW statement, applied to its result.
func (s *Session) showFilter(x *sqlcompat.Show, res *mp.Result) (*mp.Result, error) {
	if res == nil || len(res.Columns) == 0 {
		return res, nil
	}
	switch {
	case x.Where != "":
		return s.showWhere(x.Where, res)
	case x.Like != "":
		rows := [][]any{}
		for _, r := range res.Rows {
			if like(x.Like, fmtValue(r[0])) {
				rows = append(rows, r)
			}
		}
		res.Rows = rows
	}
	return res, nil
}

// showWhere keeps the rows for which where holds. SQLite evaluates it over the
// result put in a table whose columns bear the result's names: text compares
// case-insensitively, as the utf8mb3 names of MySQL's metadata do, numbers as
// numbers.
func (s *Session) showWhere(where string, res *mp.Result) (*mp.Result, error) {
	t := engine.VirtualTable{Schema: "binlite_show", Name: "result", Rows: res.Rows}
	for _, c := range res.Columns {
		t.Columns = append(t.Columns, c.Name)
		decl := "TEXT COLLATE utf8mb3_general_ci"
		switch c.Type {
		case mp.TypeTiny, mp.TypeShort, mp.TypeInt24, mp.TypeLong, mp.TypeLongLong:
			decl = "INTEGER"
		}
		t.Decls = append(t.Decls, decl)
	}
	sql := `SELECT * FROM "binlite_show"."result" WHERE ` + mysqlCondition(where)
	rows, err := s.env.Engine.QueryVirtual([]engine.VirtualTable{t}, nil, sql, nil)
	if err != nil {
		return nil, err
	}
	res.Rows = rows.Values
	if res.Rows == nil {
		res.Rows = [][]any{}
	}
	return res, nil
}

// mysqlCondition spells a SHOW's WHERE condition for SQLite: `names` in double
// quotes; strings, in either quote, as SQLite's single-quoted literals.
func mysqlCondition(where string) string {
	var b strings.Builder
	for i := 0; i < len(where); i++ {
		c := where[i]
		switch c {
		case '`':
			j := strings.IndexByte(where[i+1:], '`')
			if j < 0 {
				b.WriteString(where[i:])
				return b.String()
			}
			b.WriteString(`"` + strings.ReplaceAll(where[i+1:i+1+j], `"`, `""`) + `"`)
			i += j + 1
		case '\'', '"':
			var lit strings.Builder
			j := i + 1
			for ; j < len(where); j++ {
				if where[j] == '\\' && j+1 < len(where) {
					j++
					lit.WriteByte(where[j])
					continue
				}
				if where[j] == c {
					if j+1 < len(where) && where[j+1] == c {
						lit.WriteByte(c)
						j++
						continue
					}
					break
				}
				lit.WriteByte(where[j])
			}
			b.WriteString("'" + strings.ReplaceAll(lit.String(), "'", "''") + "'")
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
