package crashtest

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// storage is what the running server returns: schema → table → primary key → row.
type storage map[string]map[string]*storedTable

type storedTable struct {
	cols []string // in the log's column order; nil if the log never wrote the table
	rows map[string][]nullText
}

// systemSchemas are listed by SHOW DATABASES but are not stored schemas.
var systemSchemas = map[string]bool{"information_schema": true, "performance_schema": true, "mysql": true, "sys": true}

// readStorage reads every schema and table the server lists. Tables the log knows
// are read with the log's columns and keyed by its primary key, so that both sides
// can be compared row by row; a table the log does not know is only counted. Each
// schema is read after USE on one connection: a connection without a current
// schema attaches every schema a query names and fails past ten of them.
func readStorage(ctx context.Context, db *sql.DB, log *logState) (storage, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	schemas, err := queryStrings(ctx, conn, "SHOW DATABASES")
	if err != nil {
		return nil, err
	}
	out := storage{}
	for _, sc := range schemas {
		if systemSchemas[strings.ToLower(sc)] {
			continue
		}
		if _, err := conn.ExecContext(ctx, "USE `"+sc+"`"); err != nil {
			return nil, fmt.Errorf("USE %s: %w", sc, err)
		}
		tables, err := queryStrings(ctx, conn, "SHOW TABLES")
		if err != nil {
			return nil, err
		}
		out[sc] = map[string]*storedTable{}
		for _, tb := range tables {
			var known *tableState
			if ls := log.schemas[sc]; ls != nil {
				known = ls.tables[tb]
			}
			t, err := readTable(ctx, conn, tb, known)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", sc, tb, err)
			}
			out[sc][tb] = t
		}
	}
	return out, nil
}

// readTable reads a table of the current schema.
func readTable(ctx context.Context, conn *sql.Conn, table string, known *tableState) (*storedTable, error) {
	t := &storedTable{rows: map[string][]nullText{}}
	if known == nil || known.cols == nil {
		// Nothing logged: read the rows only to show them if there are any.
		rows, err := queryRows(ctx, conn, fmt.Sprintf("SELECT * FROM `%s`", table))
		if err != nil {
			return nil, err
		}
		for i, r := range rows {
			t.rows[fmt.Sprintf("#%d", i)] = r
		}
		return t, nil
	}
	t.cols = known.cols
	quoted := make([]string, len(known.cols))
	for i, c := range known.cols {
		quoted[i] = "`" + c + "`"
	}
	rows, err := queryRows(ctx, conn, fmt.Sprintf("SELECT %s FROM `%s`", strings.Join(quoted, ", "), table))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		parts := make([]string, len(known.pk))
		for i, c := range known.pk {
			parts[i] = r[c].String
		}
		k := strings.Join(parts, "\x00")
		if _, dup := t.rows[k]; dup {
			return nil, fmt.Errorf("primary key %q returned twice", k)
		}
		t.rows[k] = r
	}
	return t, nil
}

func queryStrings(ctx context.Context, db querier, q string) ([]string, error) {
	rows, err := queryRows(ctx, db, q)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[0].String
	}
	return out, nil
}

// querier is a *sql.DB or a *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func queryRows(ctx context.Context, db querier, q string) ([][]nullText, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]nullText
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		r := make([]nullText, len(cols))
		for i, v := range vals {
			r[i] = nullText{String: v.String, Valid: v.Valid}
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	return out, nil
}

// compareStorage checks that storage holds exactly what the log says: the same
// schemas, the same tables and the same rows with the same values. Each difference
// is one message; at most a few rows per table are listed.
func compareStorage(log *logState, got storage) []string {
	var diffs []string
	for _, sc := range unionKeys(log.schemas, got) {
		ls, gs := log.schemas[sc], got[sc]
		switch {
		case ls == nil:
			diffs = append(diffs, fmt.Sprintf("schema %s is in storage but the binary log never created it (or dropped it)", sc))
			continue
		case gs == nil:
			diffs = append(diffs, fmt.Sprintf("schema %s was created in the binary log but is missing from storage", sc))
			continue
		}
		for _, tb := range unionKeys(ls.tables, gs) {
			lt, gt := ls.tables[tb], gs[tb]
			switch {
			case lt == nil:
				diffs = append(diffs, fmt.Sprintf("table %s.%s is in storage but not in the binary log", sc, tb))
			case gt == nil:
				diffs = append(diffs, fmt.Sprintf("table %s.%s was created in the binary log but is missing from storage", sc, tb))
			default:
				diffs = append(diffs, compareRows(sc+"."+tb, lt, gt)...)
			}
		}
	}
	return diffs
}

func compareRows(name string, lt *tableState, gt *storedTable) []string {
	const maxShown = 8
	var missing, extra, differ []string
	for k, lr := range lt.rows {
		gr, ok := gt.rows[k]
		if !ok {
			missing = append(missing, fmt.Sprintf("%v", texts(lr)))
			continue
		}
		for i, v := range lr {
			if valueText(v) != gr[i] {
				differ = append(differ, fmt.Sprintf("key %q column %s: log %s, storage %s", k, lt.cols[i], valueText(v).display(), gr[i].display()))
				break
			}
		}
	}
	for k, gr := range gt.rows {
		if _, ok := lt.rows[k]; !ok {
			extra = append(extra, fmt.Sprintf("%v", displayRow(gr)))
		}
	}
	var diffs []string
	report := func(what string, list []string) {
		if len(list) == 0 {
			return
		}
		sort.Strings(list)
		shown := list[:min(len(list), maxShown)]
		diffs = append(diffs, fmt.Sprintf("%s: %d rows %s, e.g. %s", name, len(list), what, strings.Join(shown, "; ")))
	}
	report("in the binary log but not in storage", missing)
	report("in storage but not in the binary log", extra)
	report("differ between storage and the binary log", differ)
	return diffs
}

func displayRow(r []nullText) []string {
	out := make([]string, len(r))
	for i, v := range r {
		out[i] = v.display()
	}
	return out
}

func unionKeys[A, B any](a map[string]A, b map[string]B) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
