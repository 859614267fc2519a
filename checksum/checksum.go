package checksum

import (
	"context"
	"database/sql"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strings"
)

// Options selects what to compare.
type Options struct {
	Databases []string // empty: every database except system ones
	ChunkSize int      // rows per chunk (default 1000)
	Out       io.Writer
}

// Diff is one difference found.
type Diff struct {
	Database, Table string
	Key             string
	Source, Replica string // row text; "" when missing on that side
}

func (d Diff) String() string {
	switch {
	case d.Source == "":
		return fmt.Sprintf("%s.%s key %s: only on replica: %s", d.Database, d.Table, d.Key, d.Replica)
	case d.Replica == "":
		return fmt.Sprintf("%s.%s key %s: missing on replica: %s", d.Database, d.Table, d.Key, d.Source)
	}
	return fmt.Sprintf("%s.%s key %s: source %s, replica %s", d.Database, d.Table, d.Key, d.Source, d.Replica)
}

// Report is the outcome of a comparison.
type Report struct {
	Tables int
	Rows   int64
	Diffs  []Diff
}

var systemSchemas = []string{"information_schema", "mysql", "performance_schema", "sys"}

// Compare checks every table of the selected databases on src and dst.
func Compare(ctx context.Context, src, dst *sql.DB, o Options) (*Report, error) {
	if o.ChunkSize <= 0 {
		o.ChunkSize = 1000
	}
	dbs := o.Databases
	if len(dbs) == 0 {
		var err error
		if dbs, err = list(ctx, src, "SHOW DATABASES"); err != nil {
			return nil, err
		}
		other, err := list(ctx, dst, "SHOW DATABASES")
		if err != nil {
			return nil, err
		}
		for _, d := range other {
			if !slices.Contains(dbs, d) {
				dbs = append(dbs, d)
			}
		}
		dbs = slices.DeleteFunc(dbs, func(d string) bool { return slices.Contains(systemSchemas, d) })
	}
	rep := &Report{}
	for _, db := range dbs {
		st, err := list(ctx, src, "SHOW TABLES FROM `"+db+"`")
		if err != nil {
			rep.Diffs = append(rep.Diffs, Diff{Database: db, Key: "(database)", Source: "", Replica: "exists"})
			continue
		}
		dt, err := list(ctx, dst, "SHOW TABLES FROM `"+db+"`")
		if err != nil {
			rep.Diffs = append(rep.Diffs, Diff{Database: db, Key: "(database)", Source: "exists"})
			continue
		}
		for _, t := range union(st, dt) {
			if !slices.Contains(dt, t) || !slices.Contains(st, t) {
				side := Diff{Database: db, Table: t, Key: "(table)", Source: "exists"}
				if !slices.Contains(st, t) {
					side = Diff{Database: db, Table: t, Key: "(table)", Replica: "exists"}
				}
				rep.Diffs = append(rep.Diffs, side)
				continue
			}
			n, diffs, err := compareTable(ctx, src, dst, db, t, o.ChunkSize)
			if err != nil {
				return nil, fmt.Errorf("checksum %s.%s: %w", db, t, err)
			}
			rep.Tables++
			rep.Rows += n
			rep.Diffs = append(rep.Diffs, diffs...)
			if o.Out != nil {
				status := "ok"
				if len(diffs) > 0 {
					status = fmt.Sprintf("%d differences", len(diffs))
				}
				fmt.Fprintf(o.Out, "%-40s %10d rows  %s\n", db+"."+t, n, status)
			}
		}
	}
	return rep, nil
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

func list(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// keyColumns returns the primary-key columns (all columns if the table has none).
func keyColumns(ctx context.Context, db *sql.DB, schema, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SHOW COLUMNS FROM `"+table+"` FROM `"+schema+"`")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var all, pk []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		all = append(all, vals[0].String)
		if vals[3].String == "PRI" {
			pk = append(pk, vals[0].String)
		}
	}
	if len(pk) == 0 {
		return all, rows.Err()
	}
	return pk, rows.Err()
}

type row struct {
	key, text string
}

// chunk reads up to n rows (n <= 0: all) with keys after `after` (nil: from the start)
// and up to `upto` (nil: no bound).
func chunk(ctx context.Context, db *sql.DB, schema, table string, key []string, after, upto []any, n int) ([]row, []any, error) {
	quoted := make([]string, len(key))
	for i, k := range key {
		quoted[i] = "`" + k + "`"
	}
	q := "SELECT * FROM `" + schema + "`.`" + table + "`"
	var (
		args  []any
		conds []string
	)
	tuple := "(" + strings.Join(quoted, ", ") + ")"
	marks := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(key)), ", ") + ")"
	if after != nil {
		conds = append(conds, tuple+" > "+marks)
		args = append(args, after...)
	}
	if upto != nil {
		conds = append(conds, tuple+" <= "+marks)
		args = append(args, upto...)
	}
	if len(conds) > 0 {
		q += " WHERE " + strings.Join(conds, " AND ")
	}
	q += " ORDER BY " + strings.Join(quoted, ", ")
	if n > 0 {
		q += fmt.Sprintf(" LIMIT %d", n)
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	idx := make([]int, len(key))
	for i, k := range key {
		idx[i] = slices.Index(cols, k)
	}
	var out []row
	var last []any
	for rows.Next() {
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				parts[i] = "NULL"
			} else {
				parts[i] = fmt.Sprintf("%q", string(v))
			}
		}
		keyParts := make([]string, len(idx))
		last = make([]any, len(idx))
		for i, j := range idx {
			keyParts[i] = parts[j]
			last[i] = string(vals[j])
		}
		out = append(out, row{key: strings.Join(keyParts, ","), text: "(" + strings.Join(parts, ", ") + ")"})
	}
	return out, last, rows.Err()
}

func crc(rows []row) uint32 {
	h := crc32.NewIEEE()
	for _, r := range rows {
		io.WriteString(h, r.text)
		h.Write([]byte{0})
	}
	return h.Sum32()
}

func compareTable(ctx context.Context, src, dst *sql.DB, schema, table string, n int) (int64, []Diff, error) {
	key, err := keyColumns(ctx, src, schema, table)
	if err != nil {
		return 0, nil, err
	}
	var (
		total int64
		diffs []Diff
		after []any
	)
	for {
		a, lastA, err := chunk(ctx, src, schema, table, key, after, nil, n)
		if err != nil {
			return total, diffs, err
		}
		total += int64(len(a))
		// The replica's chunk covers the same key range; the last one takes all that is left.
		upto := lastA
		if len(a) < n {
			upto = nil
		}
		b, _, err := chunk(ctx, dst, schema, table, key, after, upto, 0)
		if err != nil {
			return total, diffs, err
		}
		if crc(a) != crc(b) || len(a) != len(b) {
			diffs = append(diffs, rowDiffs(schema, table, a, b)...)
		}
		if len(a) < n {
			return total, diffs, nil
		}
		after = lastA
	}
}

func rowDiffs(schema, table string, a, b []row) []Diff {
	bm := map[string]string{}
	for _, r := range b {
		bm[r.key] = r.text
	}
	var out []Diff
	seen := map[string]bool{}
	for _, r := range a {
		seen[r.key] = true
		if t, ok := bm[r.key]; !ok || t != r.text {
			out = append(out, Diff{Database: schema, Table: table, Key: r.key, Source: r.text, Replica: t})
		}
	}
	for _, r := range b {
		if !seen[r.key] {
			out = append(out, Diff{Database: schema, Table: table, Key: r.key, Replica: r.text})
		}
	}
	return out
}
