package engine

import (
	"strings"
	"sync/atomic"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/u64"
)

// wideState is what a table's catalog entry knows of BIGINT UNSIGNED values from
// 2^63 (kept as 8-byte BLOBs, package u64) in the columns that may hold them
// (cols: declared BIGINT or BIT(64)), so that a Guard needs to scan the table only
// while it may hold one.
//
// holds is set by every row change that writes one (capture, and the applier of
// replicated rows), before the change commits; scanned is set by a Guard whose
// scan found none. A reader checks them after its snapshot is taken: a value its
// snapshot sees was committed before, so holds was set before it looked. Both
// live as long as the catalog entry, which DDL replaces.
type wideState struct {
	cols    []int
	holds   atomic.Bool
	scanned atomic.Bool
}

// note learns of a row image written into the table (its columns in table order).
func (w *wideState) note(img []binlog.Value) {
	if len(w.cols) == 0 || w.holds.Load() {
		return
	}
	for _, i := range w.cols {
		if i < len(img) && wideValue(img[i]) {
			w.holds.Store(true)
			return
		}
	}
}

// none reports whether the table holds no such value, as far as it is known.
func (w *wideState) none() bool { return w.scanned.Load() && !w.holds.Load() }

func wideValue(v binlog.Value) bool {
	_, ok := u64.Wide(v.Bytes)
	return v.Kind == binlog.KindBlob && ok
}

// noteWide learns of a replicated row image: any value of the stored form (the
// image lacks generated columns, so every column is looked at).
func (ac *applyCache) noteWide(table string, img []binlog.Value) {
	if ac.table == nil {
		return
	}
	for _, v := range img {
		if wideValue(v) {
			if t := ac.table(table); t != nil {
				t.wide.holds.Store(true)
			}
			return
		}
	}
}

// WideDecl reports whether a column of this SQLite declared type may hold BIGINT
// UNSIGNED's stored form: binlite declares BIGINT UNSIGNED (and BIGINT) columns
// BIGINT, whatever follows, and keeps BIT(64) as declared.
func WideDecl(decl string) bool {
	d := strings.ToUpper(strings.ReplaceAll(decl, " ", ""))
	return strings.HasPrefix(d, "BIGINT") || d == "BIT(64)"
}
