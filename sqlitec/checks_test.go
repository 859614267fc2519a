package sqlitec

import (
	"context"
	"database/sql/driver"
	"io"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// The checks pass results through, refuse what MySQL refuses with the message
// engine.translateError reads, and report divisions by zero.
func TestChecks(t *testing.T) {
	c := openConn(t)
	var warned []string
	if err := RegisterChecks(c, func(code uint16, msg string) { warned = append(warned, msg) }); err != nil {
		t.Fatal(err)
	}
	got := rows(t, c, `SELECT binlite_int(9223372036854775806 + 1, 'e'), binlite_uint(3 - 1, 'e'), binlite_double(1e300 * 10, 'e'),
		binlite_int(NULL, 'e'), typeof(binlite_int(-9223372036854775807 - 1, 'e')), binlite_int_args(1e19 * 1, 1e19, 1, 'e')`)
	if len(got) != 1 || got[0][0] != int64(9223372036854775807) || got[0][1] != int64(2) || got[0][2] != 1e301 || got[0][3] != nil || got[0][4] != "integer" || got[0][5] != 1e19 {
		t.Errorf("passed through: %v", got)
	}
	for q, want := range map[string]string{
		"SELECT binlite_int(9223372036854775807 + 1, '(a + 1)')":                        "binlite-error:1690:BIGINT value is out of range in '(a + 1)'",
		"SELECT binlite_int(-(-9223372036854775807 - 1), '-a')":                         "binlite-error:1690:BIGINT value is out of range in '-a'",
		"SELECT binlite_int(-9223372036854775807 - 2, 'b')":                             "binlite-error:1690:BIGINT value is out of range in 'b'",
		"SELECT binlite_int_args(9223372036854775807 * 2, 9223372036854775807, 2, 'q')": "binlite-error:1690:BIGINT value is out of range in 'q'",
		"SELECT binlite_uint(0 - 1, '(u - 1)')":                                         "binlite-error:1690:BIGINT UNSIGNED value is out of range in '(u - 1)'",
		"SELECT binlite_uint(9223372036854775807 * 3, 'm')":                             "binlite-error:1690:BIGINT UNSIGNED value is out of range in 'm'",
		"SELECT binlite_uint(9223372036854775807 + 1, 'p')":                             "binlite-error:1235:",
		"SELECT binlite_double(1e308 * 10, '(1e308 * 10)')":                             "binlite-error:1690:DOUBLE value is out of range in '(1e308 * 10)'",
		"SELECT binlite_double(-1e308 * 10, 'n')":                                       "binlite-error:1690:DOUBLE value is out of range in 'n'",
		"SELECT binlite_div(1, 0.0, 2, 'e')":                                            "binlite-error:1365:Division by 0",
		"SELECT binlite_mod(1, '0.00', 2)":                                              "binlite-error:1365:Division by 0",
		"SELECT binlite_intdiv(1, 0, 2, 'e')":                                           "binlite-error:1365:Division by 0",
		"SELECT binlite_intdiv(-9223372036854775807 - 1, -1, 1, '(m DIV -1)')":          "binlite-error:1690:BIGINT value is out of range in '(m DIV -1)'",
		"SELECT binlite_div(1e300, 1e-300, 1, 'q')":                                     "binlite-error:1690:DOUBLE value is out of range in 'q'",
		"SELECT binlite_int(x, 'x') FROM (SELECT 1e19 AS x)":                            "binlite-error:1690:",
		"SELECT binlite_uint(x, 'x') FROM (SELECT -0.5 AS x)":                           "binlite-error:1690:",
		"SELECT binlite_double(x, 'x') FROM (SELECT 9e999 * 1 AS x)":                    "binlite-error:1690:",
	} {
		if err := queryErr(c, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
	warned = nil
	got = rows(t, c, `SELECT binlite_div(5, 0, 1, 'e'), binlite_mod(5, 2, 1), binlite_div(NULL, 0, 1, 'e'), binlite_div(5, 'abc', 1, 'e'),
		binlite_intdiv(7, 2, 1, 'e'), binlite_intdiv(-7, 2, 1, 'e'), binlite_mod(-7, 3, 1), binlite_mod(-9223372036854775807 - 1, -1, 1), binlite_div(1, 4, 1, 'e'),
		binlite_mod(0, NULL, 1), binlite_intdiv(NULL, 0, 1, 'e')`)
	want := []driver.Value{nil, int64(1), nil, nil, int64(3), int64(-3), int64(-1), int64(0), 0.25, nil, nil}
	for i, v := range want {
		if got[0][i] != v {
			t.Errorf("divisions: column %d is %v, want %v (%v)", i+1, got[0][i], v, got[0])
		}
	}
	// Only the divisions by zero of non-NULL operands warn, as in MySQL.
	if strings.Join(warned, "|") != "Division by 0|Division by 0" {
		t.Errorf("warnings: %q", warned)
	}
}

// queryErr runs q to its end and returns its error, if any.
func queryErr(c *sqlite3.SQLiteConn, q string) error {
	r, err := c.QueryContext(context.Background(), q, nil)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		if err := r.Next(make([]driver.Value, len(r.Columns()))); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// BenchmarkChecks: the cost of a check per row, against the bare operation (the
// compiler leaves out the check where the operands' ranges cannot overflow).
func BenchmarkChecks(b *testing.B) {
	c, err := (&sqlite3.SQLiteDriver{}).Open(":memory:")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	conn := c.(*sqlite3.SQLiteConn)
	if err := RegisterChecks(conn, func(uint16, string) {}); err != nil {
		b.Fatal(err)
	}
	const rows = 10000
	if err := queryErr(conn, "CREATE TABLE s AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000) SELECT x FROM n"); err != nil {
		b.Fatal(err)
	}
	for name, q := range map[string]string{
		"bare":    "SELECT sum(x + 1) FROM s",
		"baremod": "SELECT sum(x % x) FROM s",
		"checked": "SELECT sum(binlite_int(x + 1, '(x + 1)')) FROM s",
		"mod":     "SELECT sum(binlite_mod(x, x, 1)) FROM s",
	} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := queryErr(conn, q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
		})
	}
}
