package engine

import (
	"fmt"
	"testing"
)

// TestTemporalFunctions runs the date and time functions the compiler emits on
// an engine connection, as SQL: values, NULL and warnings for what is no date.
func TestTemporalFunctions(t *testing.T) {
	e := openTest(t, t.TempDir())
	defer e.close(t)
	cases := []struct{ sql, want string }{
		{"SELECT binlite_cast('2024-02-29 13:45:59', '', 'date', 0, 0), binlite_cast('2024-02-29 13:45:59.55', '', 'time', 1, 0), binlite_cast(20240101, '', 'datetime', 0, 0)",
			"[2024-02-29 13:45:59.6 2024-01-01 00:00:00]"},
		{"SELECT binlite_tnum('2024-02-29', 'date', 0), binlite_tnum('-838:59:59', 'time', 0), binlite_tnum('2024-02-29 13:45:59.120', 'datetime', 3)",
			"[20240229 -8385959 20240229134559.120]"},
		{"SELECT binlite_tkey('2024-02-29', '', 'datetime', 3), binlite_tkey('2024-02-29 10:00:00.5', '', 'date', 0), binlite_tkey('-00:00:01', 'time', 'time', 0)",
			"[2024-02-29 00:00:00.000 2024-02-29 10:00:00.5 -1000000]"},
		{"SELECT binlite_date_add('2024-01-31', 'date', 'date', 0, 1, 'MONTH', 0), binlite_date_add('2024-01-01', '', '', 0, 1, 'SECOND', 0), binlite_date_add('10:00:00', 'time', 'time', 0, '1:30', 'HOUR_MINUTE', 1)",
			"[2024-02-29 2024-01-01 00:00:01 08:30:00]"},
		{"SELECT binlite_tz_local('2024-01-01 00:00:00.500', 19800), binlite_tz_utc('2024-01-01 05:30:00', '', 0, 19800), binlite_tz_utc('nonsense', '', 0, 19800)",
			"[2024-01-01 05:30:00.500 2024-01-01 00:00:00 nonsense]"},
		{"SELECT binlite_unix_timestamp('1970-01-01 05:30:01', '', 19800, 0), binlite_from_unixtime(1, 19800, 0), binlite_from_unixtime('1.5', 0, 1), binlite_convert_tz('2024-01-01 00:00:00', '', '+00:00', '-08:00', 0)",
			"[1 1970-01-01 05:30:01 1970-01-01 00:00:01.5 2023-12-31 16:00:00]"},
		{"SELECT binlite_timediff('12:00:00', '', '13:30:00', '', 0), binlite_timestampdiff('MONTH', '2024-01-31', '', '2024-03-01', ''), binlite_extract('DAY_MINUTE', '2024-02-29 13:45:59', 'datetime')",
			"[-01:30:00 1 291345]"},
		{"SELECT date_format('2024-02-29 13:45:59', '%W %D %M %Y'), time_format('100:00:00', '%H'), binlite_str_to_date('29/02/2024', '%d/%m/%Y', 'date', 0), week('2024-01-01', 2), yearweek('2024-12-31')",
			"[Thursday 29th February 2024 100 2024-02-29 53 202452]"},
		{"SELECT binlite_time_valid('838:59:59', 0), binlite_time_valid('839:00:00', 0), binlite_time_valid('10:00:00.5', 1), binlite_time_valid('10:00:00', 1), binlite_time_of_key(-1500000, 1)",
			"[1 0 1 0 -00:00:01.5]"},
	}
	for _, c := range cases {
		rows, err := e.Query("", nil, c.sql, nil)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if got := fmt.Sprint(rows.Values[0]); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.sql, got, c.want)
		}
		if len(rows.Warnings) > 0 {
			t.Errorf("%s: warnings %v", c.sql, rows.Warnings)
		}
	}
	rows, err := e.Query("", nil, "SELECT binlite_cast('2024-02-30', '', 'date', 0, 0), dayofweek('x'), binlite_now(6, 0) = binlite_now(6, 0)", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows.Values[0]); got != "[<nil> <nil> 1]" {
		t.Errorf("no dates: %s", got)
	}
	if len(rows.Warnings) != 2 || rows.Warnings[0].Code != 1292 || rows.Warnings[1].Code != 1292 {
		t.Errorf("warnings %v, want two 1292", rows.Warnings)
	}
	// The next statement starts with none.
	if rows, _ := e.Query("", nil, "SELECT 1", nil); len(rows.Warnings) != 0 {
		t.Errorf("warnings carried over: %v", rows.Warnings)
	}
}
