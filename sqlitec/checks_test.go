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
		"SELECT 1 / binlite_divisor(0.0, 2)":                                            "binlite-error:1365:Division by 0",
		"SELECT 1 % binlite_divisor('0.00', 2)":                                         "binlite-error:1365:Division by 0",
		"SELECT binlite_int(x, 'x') FROM (SELECT 1e19 AS x)":                            "binlite-error:1690:",
		"SELECT binlite_uint(x, 'x') FROM (SELECT -0.5 AS x)":                           "binlite-error:1690:",
		"SELECT binlite_double(x, 'x') FROM (SELECT 9e999 * 1 AS x)":                    "binlite-error:1690:",
	} {
		if err := queryErr(c, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
	warned = nil
	got = rows(t, c, "SELECT 5 / binlite_divisor(0, 1), 5 % binlite_divisor(2, 1), 5 / binlite_divisor(NULL, 1), 5 / binlite_divisor('abc', 1)")
	if got[0][0] != nil || got[0][1] != int64(1) || got[0][2] != nil || got[0][3] != nil {
		t.Errorf("divisions: %v", got)
	}
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
