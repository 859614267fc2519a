package mysqljson

import (
	"math"
	"strconv"
	"strings"
)

// Text is the value as MySQL prints it: one space after each ',' and ':', keys in
// MySQL's order, doubles with a fraction or an exponent.
func (v *Value) Text() string {
	var b strings.Builder
	v.write(&b, -1)
	return b.String()
}

// Pretty is JSON_PRETTY's form: each element on its own line, two spaces a level.
func (v *Value) Pretty() string {
	var b strings.Builder
	v.write(&b, 0)
	return b.String()
}

// write prints v; indent < 0 prints on one line, else at that nesting level.
func (v *Value) write(b *strings.Builder, indent int) {
	newline := func(level int) {
		b.WriteByte('\n')
		for range level {
			b.WriteString("  ")
		}
	}
	switch v.Kind {
	case KindNull:
		b.WriteString("null")
	case KindBool:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindInt:
		b.WriteString(strconv.FormatInt(v.Int, 10))
	case KindUint:
		b.WriteString(strconv.FormatUint(v.Uint, 10))
	case KindDouble:
		b.WriteString(FormatDouble(v.Float))
	case KindDecimal:
		b.WriteString(v.Str)
	case KindString:
		Quote(b, v.Str)
	case KindArray:
		b.WriteByte('[')
		for i := range v.Arr {
			if i > 0 {
				b.WriteByte(',')
				if indent < 0 {
					b.WriteByte(' ')
				}
			}
			if indent >= 0 {
				newline(indent + 1)
				v.Arr[i].write(b, indent+1)
			} else {
				v.Arr[i].write(b, indent)
			}
		}
		if indent >= 0 && len(v.Arr) > 0 {
			newline(indent)
		}
		b.WriteByte(']')
	case KindObject:
		b.WriteByte('{')
		for i := range v.Obj {
			if i > 0 {
				b.WriteByte(',')
				if indent < 0 {
					b.WriteByte(' ')
				}
			}
			next := indent
			if indent >= 0 {
				newline(indent + 1)
				next = indent + 1
			}
			Quote(b, v.Obj[i].Key)
			b.WriteString(": ")
			v.Obj[i].Value.write(b, next)
		}
		if indent >= 0 && len(v.Obj) > 0 {
			newline(indent)
		}
		b.WriteByte('}')
	}
}

// Quote writes s as a JSON string the way MySQL escapes it: \" \\ \b \f \n \r \t
// and \u00xx for the other control characters; nothing else is escaped.
func Quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				const hex = "0123456789abcdef"
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
				continue
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// QuoteString is Quote into a new string (JSON_QUOTE).
func QuoteString(s string) string {
	var b strings.Builder
	Quote(&b, s)
	return b.String()
}

// gcvtWidth is the field width MySQL prints a JSON double in (my_gcvt with
// MY_GCVT_MAX_FIELD_WIDTH: DBL_DIG + 4 + DBL_DIG).
const gcvtWidth = 34

// FormatDouble prints f as MySQL prints a JSON double: the shortest digits that
// read back as f, in positional notation unless the number is below 1e-15 or an
// integer of more than 15 digits, and ".0" after a number that would otherwise
// look like an integer.
func FormatDouble(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "0"
	}
	neg := math.Signbit(f)
	width := gcvtWidth
	if neg {
		width--
		f = -f
	}
	var digits string
	var decpt int
	if f == 0 {
		digits, decpt = "0", 1
	} else {
		e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
		mant, exp, _ := strings.Cut(e, "e")
		digits = strings.Replace(mant, ".", "", 1)
		n, _ := strconv.Atoi(exp)
		decpt = n + 1
	}
	n := len(digits)
	fixedLen := decpt
	switch {
	case decpt <= 0:
		fixedLen = n - decpt + 2
	case decpt < n:
		fixedLen = n + 1
	}
	var out strings.Builder
	if neg {
		out.WriteByte('-')
	}
	if fixedLen <= width && decpt >= -14 && (decpt <= 15 || n > decpt) {
		switch {
		case decpt <= 0:
			out.WriteString("0.")
			out.WriteString(strings.Repeat("0", -decpt))
			out.WriteString(digits)
		case decpt < n:
			out.WriteString(digits[:decpt])
			out.WriteByte('.')
			out.WriteString(digits[decpt:])
		default:
			out.WriteString(digits)
			out.WriteString(strings.Repeat("0", decpt-n))
			out.WriteString(".0")
		}
		return out.String()
	}
	out.WriteByte(digits[0])
	if n > 1 {
		out.WriteByte('.')
		out.WriteString(digits[1:])
	}
	out.WriteByte('e')
	out.WriteString(strconv.Itoa(decpt - 1))
	return out.String()
}
