package session

import (
	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/infoschema"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// SHOW CREATE TABLE and SHOW COLUMNS from a table's MySQL definition (the catalog).

// nextAutoIncrement is the value the table's AUTO_INCREMENT column gives next.
func (s *Session) nextAutoIncrement(db, table string) uint64 {
	r, err := s.env.Engine.Query(db, nil, `SELECT seq FROM sqlite_sequence WHERE name = ? COLLATE NOCASE`, []any{table})
	if err != nil || len(r.Values) == 0 || len(r.Values[0]) == 0 {
		return 1
	}
	if n, ok := r.Values[0][0].(int64); ok && n >= 0 {
		return uint64(n) + 1
	}
	return 1
}

func (s *Session) showCreateFromDef(db, name string, def *catalog.Table) *mp.Result {
	next := uint64(1)
	for _, c := range def.Columns {
		if c.AutoIncrement {
			next = s.nextAutoIncrement(db, name)
		}
	}
	return stringResult([]string{"Table", "Create Table"}, [][]any{{name, def.ShowCreate(next)}})
}

func (s *Session) showColumnsFromDef(x *sqlcompat.Show, def *catalog.Table) *mp.Result {
	rows := [][]any{}
	for _, c := range def.Columns {
		if !like(x.Like, c.Name) {
			continue
		}
		null := "YES"
		if !c.Nullable {
			null = "NO"
		}
		dflt, extra := infoschema.ColumnDefault(&c), infoschema.Extra(&c)
		key := infoschema.ColumnKey(def, c.Name)
		if x.Full {
			var coll any
			if c.Type.Collation != "" {
				coll = c.Type.Collation
			}
			rows = append(rows, []any{c.Name, c.Type.SQL(), coll, null, key, dflt, extra, "select,insert,update,references", c.Comment})
		} else {
			rows = append(rows, []any{c.Name, c.Type.SQL(), null, key, dflt, extra})
		}
	}
	// Type and Default are information_schema.COLUMNS's COLUMN_TYPE and
	// COLUMN_DEFAULT, TEXT columns.
	if x.Full {
		res := stringResult([]string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"}, rows)
		setColumn(res, 1, mp.TypeBlob, mp.BlobFlag, 0xffffff)
		setColumn(res, 5, mp.TypeBlob, mp.BlobFlag, 0xffff)
		setColumn(res, 8, mp.TypeBlob, mp.BlobFlag, 0xffff)
		return res
	}
	res := stringResult([]string{"Field", "Type", "Null", "Key", "Default", "Extra"}, rows)
	setColumn(res, 1, mp.TypeBlob, mp.BlobFlag, 0xffffff)
	setColumn(res, 4, mp.TypeBlob, mp.BlobFlag, 0xffff)
	return res
}
