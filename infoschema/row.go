package infoschema

import (
	"strings"

	"github.com/binlite/binlite/catalog"
)

// Values are one row's values by column name (any letter case).
type Values map[string]any

// row lays values out in def's column order. A column the values leave out is
// NULL when the column is nullable, else the type's zero: 0, ”, or the zero
// timestamp MySQL shows for an unset time ('0000-00-00 00:00:00.000000').
func row(def *catalog.Table, v Values) []any {
	upper := make(map[string]any, len(v))
	for k, x := range v {
		upper[strings.ToUpper(k)] = x
	}
	out := make([]any, len(def.Columns))
	for i := range def.Columns {
		c := &def.Columns[i]
		if x, ok := upper[strings.ToUpper(c.Name)]; ok {
			out[i] = x
			continue
		}
		if !c.Nullable {
			out[i] = zero(c.Type)
		}
	}
	return out
}

func zero(ty catalog.Type) any {
	switch ty.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		return int64(0)
	case "double", "float":
		return float64(0)
	case "timestamp", "datetime":
		z := "0000-00-00 00:00:00"
		if ty.Scale > 0 {
			z += "." + strings.Repeat("0", ty.Scale)
		}
		return z
	}
	return ""
}
