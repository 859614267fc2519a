package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
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

// columnKey is SHOW COLUMNS' Key: PRI for a primary key column (or the first
// NOT NULL UNIQUE key's when there is no primary key, which InnoDB makes the
// clustered key), UNI for a single-column UNIQUE key, MUL for the first column of
// any other key.
func columnKey(def *catalog.Table, col string) string {
	pk, hasPK := def.PrimaryKey()
	if !hasPK {
		for i := range def.Indexes {
			ix := &def.Indexes[i]
			if ix.Kind != catalog.KindUnique {
				continue
			}
			notNull := true
			for _, p := range ix.Parts {
				if c, ok := def.Column(p.Column); !ok || c.Nullable {
					notNull = false
				}
			}
			if notNull {
				pk, hasPK = ix, true
				break
			}
		}
	}
	if hasPK {
		for _, p := range pk.Parts {
			if strings.EqualFold(p.Column, col) {
				return "PRI"
			}
		}
	}
	key := ""
	for _, ix := range def.Indexes {
		if len(ix.Parts) == 0 || !strings.EqualFold(ix.Parts[0].Column, col) {
			continue
		}
		if ix.Kind == catalog.KindUnique && len(ix.Parts) == 1 {
			return "UNI"
		}
		key = "MUL"
	}
	return key
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
		var dflt any
		var extra []string
		switch {
		case c.Default == nil || c.Default.Null || c.Default.Implicit:
		case c.Default.Expr != "":
			dflt = strings.TrimSuffix(strings.TrimPrefix(c.Default.Expr, "("), ")")
			extra = append(extra, "DEFAULT_GENERATED")
		default:
			dflt = c.Default.Lit
		}
		if c.AutoIncrement {
			extra = append(extra, "auto_increment")
		}
		if c.OnUpdate != "" {
			extra = append(extra, "on update "+c.OnUpdate)
		}
		if c.Generated != nil {
			if c.Generated.Stored {
				extra = append(extra, "STORED GENERATED")
			} else {
				extra = append(extra, "VIRTUAL GENERATED")
			}
		}
		key := columnKey(def, c.Name)
		if x.Full {
			var coll any
			if c.Type.Collation != "" {
				coll = c.Type.Collation
			}
			rows = append(rows, []any{c.Name, c.Type.SQL(), coll, null, key, dflt, strings.Join(extra, " "), "select,insert,update,references", c.Comment})
		} else {
			rows = append(rows, []any{c.Name, c.Type.SQL(), null, key, dflt, strings.Join(extra, " ")})
		}
	}
	if x.Full {
		return stringResult([]string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"}, rows)
	}
	return stringResult([]string{"Field", "Type", "Null", "Key", "Default", "Extra"}, rows)
}
