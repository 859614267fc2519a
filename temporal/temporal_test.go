package temporal

import "testing"

func TestParseDatetime(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" when invalid
		fsp  int
	}{
		{"2024-02-29", "2024-02-29", 0},
		{"2024-02-29 13:45:59", "2024-02-29 13:45:59", 0},
		{"24-1-2", "2024-01-02", 0},
		{"2024-1-2 3:4:5", "2024-01-02 03:04:05", 0},
		{"2024-01-01T12:30:00.5", "2024-01-01 12:30:00.500000", 6},
		{"20240101", "2024-01-01", 0},
		{"20240101123000", "2024-01-01 12:30:00", 0},
		{"240101", "2024-01-01", 0},
		{"991231", "1999-12-31", 0},
		{"2024/01/01", "2024-01-01", 0},
		{"2024.01.01 12.30.00", "2024-01-01 12:30:00", 0},
		{" 2024-01-01 ", "2024-01-01", 0},
		{"2024-01-01 12", "2024-01-01 12:00:00", 0},
		{"2023-02-29", "", 0},
		{"2024-13-01", "", 0},
		{"0000-00-00", "", 0},
		{"2024-00-10", "", 0},
		{"2024-01-00", "", 0},
		{"not a date", "", 0},
		{"2024-01-01 24:00:00", "", 0},
		{"2024-01-01 23:60:00", "", 0},
		{"2024-01-01 23:59:59.9999995", "2024-01-01 23:59:59.999999500", 9},
	}
	for _, c := range cases {
		p, ok := ParseDatetime(c.in)
		got := ""
		if ok {
			got = p.Value.String(c.fsp)
		}
		if got != c.want {
			t.Errorf("ParseDatetime(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if p, ok := ParseDatetime("2024-01-01x"); !ok || !p.Trailing {
		t.Errorf("trailing text: %+v %v", p, ok)
	}
	if p, ok := ParseDatetime("2024-01-01 10:00:00+05:30"); !ok || !p.HasOffset || p.Offset != 19800 {
		t.Errorf("offset: %+v %v", p, ok)
	}
}

func TestParseTime(t *testing.T) {
	cases := []struct {
		in, want string
		fsp      int
		out      bool
	}{
		{"13:45:59", "13:45:59", 0, false},
		{"-838:59:59", "-838:59:59", 0, false},
		{"838:59:59.00", "838:59:59.00", 2, false},
		{"-00:00:01.50", "-00:00:01.50", 2, false},
		{"1 02:03:04", "26:03:04", 0, false},
		{"1 02:03", "26:03:00", 0, false},
		{"3:4", "03:04:00", 0, false},
		{"12", "00:00:12", 0, false},
		{"123000", "12:30:00", 0, false},
		{"839:00:00", "838:59:59", 0, true},
		{"12:61:00", "", 0, false},
		{"abc", "", 0, false},
		{"2024-01-01 12:30:00", "12:30:00", 0, false},
		{"2024-02-29 13:45:59.5", "13:45:59.5", 1, false},
	}
	for _, c := range cases {
		p, ok := ParseTime(c.in)
		got := ""
		if ok {
			got = p.Value.String(c.fsp)
		}
		if got != c.want || ok && p.OutOfRange != c.out {
			t.Errorf("ParseTime(%q) = %q (out of range %v), want %q (%v)", c.in, got, p.OutOfRange, c.want, c.out)
		}
	}
}

func TestStore(t *testing.T) {
	cases := []struct {
		in   string
		num  bool
		k    Kind
		fsp  int
		want string
		note bool
	}{
		{"20240101", true, Date, 0, "2024-01-01", false},
		{"20240101123000", true, Datetime, 0, "2024-01-01 12:30:00", false},
		{"20240101123000", true, Date, 0, "2024-01-01", true},
		{"20240101123000.5", true, Datetime, 0, "2024-01-01 12:30:01", false},
		{"123000", true, Time, 0, "12:30:00", false},
		{"1.5", true, Time, 0, "00:00:02", false},
		{"2024-01-01T12:30:00.5", false, Datetime, 3, "2024-01-01 12:30:00.500", false},
		{"2024-01-01 23:59:59.9996", false, Datetime, 3, "2024-01-02 00:00:00.000", false},
		{"2024-01-01 10:00:00.5", false, Datetime, 0, "2024-01-01 10:00:01", false},
		{"10:00:00.4", false, Time, 0, "10:00:00", false},
		{"2024-02-29 13:45:59", false, Date, 0, "2024-02-29", true},
		{"2024-02-29", false, Datetime, 0, "2024-02-29 00:00:00", false},
		{"839:00:00", false, Time, 0, "", false},
		{"12:61:00", false, Time, 0, "", false},
		{"2023-02-29", false, Date, 0, "", false},
		{"2024-01-01 10:00:00+05:30", false, Datetime, 0, "2024-01-01 04:30:00", false},
	}
	for _, c := range cases {
		var st Stored
		var ok bool
		if c.num {
			st, ok = StoreNumber(c.in, c.k, c.fsp)
		} else {
			st, ok = StoreText(c.in, c.k, c.fsp, 0)
		}
		got := ""
		if ok {
			got = st.Value.String(c.fsp)
		}
		if got != c.want || st.Note != c.note {
			t.Errorf("store %q as %v(%d) = %q note %v, want %q note %v", c.in, c.k, c.fsp, got, st.Note, c.want, c.note)
		}
	}
}

func TestDays(t *testing.T) {
	if n := DayNumber(2024, 2, 29); n != 739310 {
		t.Errorf("TO_DAYS(2024-02-29) = %d", n)
	}
	if n := DayNumber(0, 1, 1); n != 1 {
		t.Errorf("TO_DAYS(0000-01-01) = %d", n)
	}
	if n := DayNumber(1, 1, 1); n != 366 {
		t.Errorf("TO_DAYS(0001-01-01) = %d", n)
	}
	for _, n := range []int64{366, 719528, 739310, maxDayNumber} {
		y, m, d, ok := FromDayNumber(n)
		if !ok || DayNumber(y, m, d) != n {
			t.Errorf("FROM_DAYS(%d) = %d-%d-%d %v", n, y, m, d, ok)
		}
	}
	v, _ := ParseDatetime("2024-02-29")
	if v.Weekday() != 3 {
		t.Errorf("WEEKDAY(2024-02-29) = %d", v.Weekday())
	}
}

func TestInterval(t *testing.T) {
	cases := []struct {
		v, iv string
		u     Unit
		sub   bool
		want  string
	}{
		{"2024-01-31", "1", Month, false, "2024-02-29"},
		{"2024-02-29", "1", Year, false, "2025-02-28"},
		{"2024-02-29", "4", Year, true, "2020-02-29"},
		{"2024-03-01", "1", Day, true, "2024-02-29"},
		{"2023-12-31 23:59:59", "1", Second, false, "2024-01-01 00:00:00"},
		{"2024-02-29 13:45:59", "1", Month, true, "2024-01-29 13:45:59"},
		{"2024-01-01 00:00:00", "1:30", MinuteSecond, false, "2024-01-01 00:01:30"},
		{"2024-01-01 00:00:00", "1 2:3:4", DaySecond, false, "2024-01-02 02:03:04"},
		{"2024-01-01 00:00:00", "-1 2", DayHour, false, "2023-12-30 22:00:00"},
		{"2024-01-01 00:00:00", "1.5", SecondMicrosecond, false, "2024-01-01 00:00:01.500000"},
		{"2024-01-01 00:00:00", "1.5", Second, false, "2024-01-01 00:00:01.500000"},
		{"9999-12-31", "1", Day, false, ""},
	}
	for _, c := range cases {
		p, _ := ParseDatetime(c.v)
		iv, ok := ParseInterval(c.iv, c.u)
		if !ok {
			t.Errorf("interval %q %s not read", c.iv, c.u)
			continue
		}
		r, ok := AddInterval(p.Value, iv, c.sub)
		got := ""
		if ok {
			got = r.String(r.FracDigits())
			if r.FracDigits() > 0 {
				got = r.String(6)
			}
		}
		if got != c.want {
			t.Errorf("%s %v INTERVAL %q %s = %q, want %q", c.v, c.sub, c.iv, c.u, got, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	p, _ := ParseDatetime("2024-02-29 13:45:59")
	got, _ := DateFormat(p.Value, "%Y/%m/%d %H:%i:%s %W %M %j %a %b %D %e %c %y %p %r %T %U %u %V %v %X %x %w %%", false)
	want := "2024/02/29 13:45:59 Thursday February 060 Thu Feb 29th 29 2 24 PM 01:45:59 PM 13:45:59 08 09 08 09 2024 2024 4 %"
	if got != want {
		t.Errorf("DATE_FORMAT:\n got %q\nwant %q", got, want)
	}
	tm, _ := ParseTime("13:45:59")
	if got, ok := DateFormat(tm.Value, "%H.%i", true); !ok || got != "13.45" {
		t.Errorf("TIME_FORMAT = %q %v", got, ok)
	}
	if _, ok := DateFormat(tm.Value, "%Y", true); ok {
		t.Errorf("TIME_FORMAT with %%Y is NULL")
	}
	for _, c := range []struct{ s, f, want string }{
		{"29/02/2024", "%d/%m/%Y", "2024-02-29"},
		{"2023-02-29", "%Y-%m-%d", ""},
		{"10:11:12 PM", "%r", "22:11:12"},
		{"2024-01-02 03:04:05.5", "%Y-%m-%d %H:%i:%s.%f", "2024-01-02 03:04:05.500000"},
		{"Jan 5 2024", "%b %e %Y", "2024-01-05"},
		{"2024 060", "%Y %j", "2024-02-29"},
	} {
		k, fsp := FormatKind(c.f)
		v, _, ok := StrToDate(c.s, c.f, k)
		got := ""
		if ok {
			got = v.String(fsp)
		}
		if got != c.want {
			t.Errorf("STR_TO_DATE(%q, %q) = %q, want %q", c.s, c.f, got, c.want)
		}
	}
}

func TestWeek(t *testing.T) {
	// WEEK('2024-01-01', mode) for modes 0-7, as MySQL gives them.
	p, _ := ParseDatetime("2024-01-01")
	want := []int{0, 1, 53, 1, 1, 1, 1, 1}
	for mode, w := range want {
		if got, _ := p.Value.Week(WeekMode(mode)); got != w {
			t.Errorf("WEEK(2024-01-01, %d) = %d, want %d", mode, got, w)
		}
	}
}

func TestZone(t *testing.T) {
	for s, want := range map[string]int{"+05:30": 19800, "-8:00": -28800, "SYSTEM": 0, "+14:00": 50400, "-13:59": -50340} {
		if off, k := ParseZone(s); k != ZoneOffset || off != want {
			t.Errorf("ParseZone(%q) = %d %v", s, off, k)
		}
	}
	for _, s := range []string{"+14:01", "-14:00", "bogus!", "+5:60", "5:00"} {
		if _, k := ParseZone(s); k != ZoneInvalid {
			t.Errorf("ParseZone(%q) = %v, want invalid", s, k)
		}
	}
	if _, k := ParseZone("Europe/Paris"); k != ZoneNamed {
		t.Errorf("named zone")
	}
	p, _ := ParseDatetime("2038-01-19 03:14:07.999999")
	if !p.Value.TimestampRange() {
		t.Errorf("TIMESTAMP's last second")
	}
	p, _ = ParseDatetime("1970-01-01 00:00:00")
	if p.Value.TimestampRange() {
		t.Errorf("TIMESTAMP's zero")
	}
}

func TestKey(t *testing.T) {
	dt := func(s string) Value { p, _ := ParseDatetime(s); return p.Value }
	cases := []struct {
		v    string
		k    Kind
		fsp  int
		want string
	}{
		{"2024-02-29", Datetime, 0, "2024-02-29 00:00:00"},
		{"2024-02-29 00:00:00.5", Datetime, 0, "2024-02-29 00:00:00.5"},
		{"2024-02-29 00:00:00.5", Datetime, 3, "2024-02-29 00:00:00.500"},
		{"2024-02-29 00:00:00.1234", Datetime, 3, "2024-02-29 00:00:00.1234"},
		{"2024-02-29 00:00:00", Date, 0, "2024-02-29"},
		{"2024-02-29 10:00:00", Date, 0, "2024-02-29 10:00:00"},
	}
	for _, c := range cases {
		if got := Key(dt(c.v), c.k, c.fsp); got != c.want {
			t.Errorf("Key(%s, %v, %d) = %q, want %q", c.v, c.k, c.fsp, got, c.want)
		}
	}
}

func TestWeekYear(t *testing.T) {
	for _, c := range []struct {
		d          string
		mode, w, y int
	}{{"2024-12-31", 3, 1, 2025}, {"2027-01-01", 2, 52, 2026}, {"2027-01-01", 0, 0, 2027}} {
		p, _ := ParseDatetime(c.d)
		w, y := p.Value.Week(WeekMode(c.mode))
		if w != c.w || (c.mode&2 != 0 || c.mode == 3) && y != c.y {
			t.Errorf("WEEK(%s, %d) = %d/%d, want %d/%d", c.d, c.mode, w, y, c.w, c.y)
		}
	}
}
