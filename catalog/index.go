package catalog

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/mysqlerr"
)

// WithIndex is t with the key CREATE INDEX st adds, in MySQL's order of keys;
// t is not changed. A name already used is 1061, a column t lacks 1072.
func (t *Table) WithIndex(st *ast.CreateIndexStmt) (*Table, error) {
	ix := Index{Name: st.IndexName, Kind: KindIndex}
	switch st.KeyType {
	case ast.IndexKeyTypeUnique:
		ix.Kind = KindUnique
	case ast.IndexKeyTypeFulltext:
		ix.Kind = KindFulltext
	case ast.IndexKeyTypeNone:
	default:
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this kind of index'")
	}
	if st.IndexOption != nil {
		ix.Comment = st.IndexOption.Comment
	}
	for _, k := range st.IndexPartSpecifications {
		switch {
		case k.Column != nil:
			c, ok := t.Column(k.Column.Name.O)
			if !ok {
				return nil, mysqlerr.New(mysqlerr.ErKeyColumnDoesNotExist, "Key column '%s' doesn't exist in table", k.Column.Name.O)
			}
			ix.Parts = append(ix.Parts, IndexPart{Column: c.Name, Length: max(k.Length, 0), Desc: k.Desc})
		case k.Expr != nil:
			ix.Parts = append(ix.Parts, IndexPart{Expr: "(" + mysqlExpr(k.Expr) + ")", Desc: k.Desc})
		}
	}
	for _, old := range t.Indexes {
		if strings.EqualFold(old.Name, ix.Name) {
			return nil, mysqlerr.New(mysqlerr.ErDupKeyName, "Duplicate key name '%s'", ix.Name)
		}
	}
	out, err := t.clone()
	if err != nil {
		return nil, err
	}
	out.Indexes = sortIndexes(out, append(out.Indexes, ix))
	return out, nil
}

// WithoutIndex is t without the key named name; ok=false if t has none.
func (t *Table) WithoutIndex(name string) (*Table, bool, error) {
	out, err := t.clone()
	if err != nil {
		return nil, false, err
	}
	for i, ix := range out.Indexes {
		if strings.EqualFold(ix.Name, name) {
			out.Indexes = append(out.Indexes[:i:i], out.Indexes[i+1:]...)
			return out, true, nil
		}
	}
	return nil, false, nil
}

func (t *Table) clone() (*Table, error) {
	enc, err := t.Encode()
	if err != nil {
		return nil, fmt.Errorf("copy table definition: %w", err)
	}
	return Decode(enc)
}
