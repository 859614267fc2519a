package mysqlproto

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// formatText renders a value the way MySQL prints it in the text protocol.
func formatText(v any, typ byte) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		if typ == TypeYear && x >= 0 && x < 1000 {
			return fmt.Sprintf("%04d", x) // YEAR is zero-filled: 0 is 0000
		}
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint32:
		return strconv.FormatUint(uint64(x), 10)
	case float64:
		return formatFloat(x, 64)
	case float32:
		return formatFloat(float64(x), 32)
	case bool:
		if x {
			return "1"
		}
		return "0"
	case time.Time:
		return formatTime(x, typ)
	case time.Duration:
		return formatDuration(x)
	}
	return fmt.Sprint(v)
}

// formatFloat prints the shortest round-tripping digits like MySQL's %g style:
// plain notation for exponents in [-4, 15), otherwise d.ddde±X without '+' or
// zero padding (1e20, 1.5e-7).
func formatFloat(f float64, bits int) string {
	e := strconv.FormatFloat(f, 'e', -1, bits)
	mant, exp, ok := strings.Cut(e, "e")
	if !ok { // NaN, Inf
		return e
	}
	n, _ := strconv.Atoi(exp)
	if n >= -4 && n < 15 {
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	return mant + "e" + strconv.Itoa(n)
}

// formatTime prints DATETIME/TIMESTAMP as 2006-01-02 15:04:05[.micro]; DATE and
// TIME columns get only their part.
func formatTime(t time.Time, typ byte) string {
	var s string
	switch typ {
	case TypeDate, TypeNewDate:
		return t.Format(time.DateOnly)
	case TypeTime:
		s = t.Format(time.TimeOnly)
	default:
		s = t.Format(time.DateTime)
	}
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// formatDuration prints a TIME value as [-]HH:MM:SS[.micro].
func formatDuration(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	sec := (d % time.Minute) / time.Second
	us := (d % time.Second) / time.Microsecond
	s := fmt.Sprintf("%s%02d:%02d:%02d", sign, h, m, sec)
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}
