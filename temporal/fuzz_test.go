package temporal

import "testing"

// FuzzParse: whatever text a client sends as a date, time, interval, format or
// zone is answered, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2024-02-29 13:45:59.123456", "24-1-2", "20240101123000", "-838:59:59.5", "1 2:3:4.5", "%Y-%m-%d %H:%i:%s %W %j", "+05:30", "", "9999-12-31 23:59:59.9999995"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseDatetime(s)
		ParseTime(s)
		FromNumber(s)
		TimeFromNumber(s)
		ParseZone(s)
		for _, k := range []Kind{Date, Datetime, Time} {
			StoreText(s, k, 6, 3600)
			StoreNumber(s, k, 3)
			StrToDate(s, s, k)
		}
		if p, ok := ParseDatetime(s); ok {
			DateFormat(p.Value, s, false)
		}
		if u, ok := ParseUnit("DAY_MICROSECOND"); ok {
			if iv, ok := ParseIntervalText(s, u); ok {
				AddInterval(Value{Kind: Datetime, Year: 2024, Month: 1, Day: 1}, iv, false)
			}
		}
	})
}
