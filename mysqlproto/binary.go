package mysqlproto

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/binlite/binlite/temporal"
)

// appendBinaryRow appends a binary-protocol row: header 0x00, a NULL bitmap offset
// by 2 bits, then each non-NULL value encoded for its column's type.
func appendBinaryRow(b []byte, cols []Column, row []any) []byte {
	b = append(b, headerOK)
	bitmap := len(b)
	b = append(b, make([]byte, (len(cols)+7+2)/8)...)
	for i := range cols {
		var v any
		if i < len(row) {
			v = row[i]
		}
		if v == nil || cols[i].Type == TypeNull {
			b[bitmap+(i+2)/8] |= 1 << ((i + 2) % 8)
			continue
		}
		b = appendBinaryValue(b, cols[i].Type, v)
	}
	return b
}

// appendBinaryValue encodes v as typ, converting between Go and column types the
// way a MySQL column would hold it (e.g. a float in a BIGINT column is truncated).
func appendBinaryValue(b []byte, typ byte, v any) []byte {
	switch typ {
	case TypeTiny:
		return append(b, byte(toInt64(v)))
	case TypeShort, TypeYear:
		return appendUint16(b, uint16(toInt64(v)))
	case TypeLong, TypeInt24:
		return appendUint32(b, uint32(toInt64(v)))
	case TypeLongLong:
		if u, ok := v.(uint64); ok {
			return appendUint64(b, u)
		}
		return appendUint64(b, uint64(toInt64(v)))
	case TypeFloat:
		return appendUint32(b, math.Float32bits(float32(toFloat64(v))))
	case TypeDouble:
		return appendUint64(b, math.Float64bits(toFloat64(v)))
	case TypeDate, TypeNewDate:
		return appendBinaryDatetime(b, toTime(v), true)
	case TypeDatetime, TypeTimestamp:
		return appendBinaryDatetime(b, toTime(v), false)
	case TypeTime:
		return appendBinaryTime(b, toDuration(v))
	}
	if bs, ok := v.([]byte); ok {
		return appendLenEncBytes(b, bs)
	}
	return appendLenEncString(b, formatText(v, typ))
}

// appendBinaryDatetime uses the shortest of the 0/4/7/11-byte forms: the zero
// date '0000-00-00 00:00:00' is length 0.
func appendBinaryDatetime(b []byte, t temporal.Value, dateOnly bool) []byte {
	if t.Year|t.Month|t.Day|t.Hour|t.Minute|t.Second|t.Nano == 0 {
		return append(b, 0)
	}
	us := t.Nano / 1000
	n := byte(11)
	switch {
	case dateOnly || t.Hour == 0 && t.Minute == 0 && t.Second == 0 && us == 0:
		n = 4
	case us == 0:
		n = 7
	}
	b = append(b, n)
	b = appendUint16(b, uint16(t.Year))
	b = append(b, byte(t.Month), byte(t.Day))
	if n == 4 {
		return b
	}
	b = append(b, byte(t.Hour), byte(t.Minute), byte(t.Second))
	if n == 7 {
		return b
	}
	return appendUint32(b, uint32(us))
}

func appendBinaryTime(b []byte, d time.Duration) []byte {
	if d == 0 {
		return append(b, 0)
	}
	neg := byte(0)
	if d < 0 {
		neg, d = 1, -d
	}
	days := uint32(d / (24 * time.Hour))
	d %= 24 * time.Hour
	h, m, s := byte(d/time.Hour), byte(d%time.Hour/time.Minute), byte(d%time.Minute/time.Second)
	us := uint32(d % time.Second / time.Microsecond)
	n := byte(8)
	if us != 0 {
		n = 12
	}
	b = append(b, n, neg)
	b = appendUint32(b, days)
	b = append(b, h, m, s)
	if n == 12 {
		b = appendUint32(b, us)
	}
	return b
}

// toInt64 converts a row value to an integer column value (0 when unparseable).
func toInt64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case uint64:
		return int64(x)
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case uint32:
		return int64(x)
	case float64:
		return floatToInt64(x)
	case float32:
		return floatToInt64(float64(x))
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		return parseInt64(x)
	case []byte:
		return parseInt64(string(x))
	case time.Time:
		return int64(x.Year())*1e10 + int64(x.Month())*1e8 + int64(x.Day())*1e6 +
			int64(x.Hour())*1e4 + int64(x.Minute())*100 + int64(x.Second())
	}
	return 0
}

// floatToInt64 truncates toward zero, saturating instead of Go's undefined result.
func floatToInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func parseInt64(s string) int64 {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return int64(n)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return floatToInt64(f)
	}
	return 0
}

func toFloat64(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case int:
		return float64(x)
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	case []byte:
		f, _ := strconv.ParseFloat(strings.TrimSpace(string(x)), 64)
		return f
	}
	return float64(toInt64(v))
}

var timeLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	time.DateOnly,
	time.RFC3339Nano,
}

// toTime converts a row value to a temporal column value's parts: a time.Time,
// or text in MySQL's spelling, zero dates ('0000-00-00', '2024-00-15')
// included; the zero date when unparseable.
func toTime(v any) temporal.Value {
	var s string
	switch x := v.(type) {
	case time.Time:
		return temporal.Value{Year: x.Year(), Month: int(x.Month()), Day: x.Day(),
			Hour: x.Hour(), Minute: x.Minute(), Second: x.Second(), Nano: x.Nanosecond()}
	case string:
		s = x
	case []byte:
		s = string(x)
	default:
		return temporal.Value{}
	}
	if p, ok := temporal.ParseDatetimeZero(strings.TrimSpace(s)); ok {
		return p.Value
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return toTime(t)
		}
	}
	return temporal.Value{}
}

// toDuration converts a row value to a TIME column value.
func toDuration(v any) time.Duration {
	switch x := v.(type) {
	case time.Duration:
		return x
	case time.Time:
		return time.Duration(x.Hour())*time.Hour + time.Duration(x.Minute())*time.Minute +
			time.Duration(x.Second())*time.Second + time.Duration(x.Nanosecond()/1000)*time.Microsecond
	case string:
		return parseTimeOfDay(x)
	case []byte:
		return parseTimeOfDay(string(x))
	}
	return 0
}

// parseTimeOfDay parses MySQL's [-]H:MM:SS[.ffffff]; 0 when malformed.
func parseTimeOfDay(s string) time.Duration {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	s, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0
	}
	var d time.Duration
	for i, unit := range []time.Duration{time.Hour, time.Minute, time.Second} {
		n, err := strconv.ParseUint(parts[i], 10, 32)
		if err != nil {
			return 0
		}
		d += time.Duration(n) * unit
	}
	if frac != "" {
		frac = (frac + "000000")[:6]
		us, err := strconv.ParseUint(frac, 10, 32)
		if err != nil {
			return 0
		}
		d += time.Duration(us) * time.Microsecond
	}
	if neg {
		d = -d
	}
	return d
}
