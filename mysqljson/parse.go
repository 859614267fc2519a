package mysqljson

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deeply MySQL lets arrays and objects nest.
const MaxDepth = 100

// SyntaxError is JSON text MySQL does not accept: the reason and the byte offset
// it is found at, as MySQL's messages give them.
type SyntaxError struct {
	Msg string
	Pos int
}

func (e *SyntaxError) Error() string { return e.Msg + " at position " + strconv.Itoa(e.Pos) }

// DepthError is a document nested more than MaxDepth levels (3157).
type DepthError struct{}

func (DepthError) Error() string { return "The JSON document exceeds the maximum depth." }

// Parse reads one JSON document as MySQL does: surrounding white space allowed,
// numbers without a fraction or exponent are integers (unsigned beyond BIGINT,
// doubles beyond that), a repeated object key keeps its last value.
func Parse(text string) (Value, error) { return parse(&parser{s: text}) }

// ParseStored reads JSON text binlite wrote (a JSON column's value, a JSON
// function's result): as Parse, except that a number with a fraction that is not
// how a double prints is a decimal (JSON_OBJECT('a', 1.50) keeps "1.50").
func ParseStored(text string) (Value, error) { return parse(&parser{s: text, stored: true}) }

func parse(p *parser) (Value, error) {
	p.space()
	if p.i == len(p.s) {
		return Value{}, &SyntaxError{"The document is empty.", p.i}
	}
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.i != len(p.s) {
		return Value{}, &SyntaxError{"The document root must not be followed by other values.", p.i}
	}
	return v, nil
}

// Valid reports whether text is a JSON document MySQL accepts.
func Valid(text string) bool {
	_, err := Parse(text)
	return err == nil
}

type parser struct {
	s      string
	i      int
	stored bool // see ParseStored
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) fail(msg string) error { return &SyntaxError{msg, p.i} }

func (p *parser) value(depth int) (Value, error) {
	if p.i >= len(p.s) {
		return Value{}, p.fail("Invalid value.")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		return String(s), err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return Bool(true), nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return Bool(false), nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return Null(), nil
	}
	return Value{}, p.fail("Invalid value.")
}

func (p *parser) object(depth int) (Value, error) {
	if depth > MaxDepth {
		return Value{}, DepthError{}
	}
	p.i++ // {
	o := Value{Kind: KindObject}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return o, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return Value{}, p.fail("Missing a name for object member.")
		}
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.fail("Missing a colon after a name of object member.")
		}
		p.i++
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		o.Put(key, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return o, nil
		}
		return Value{}, p.fail("Missing a comma or '}' after an object member.")
	}
}

func (p *parser) array(depth int) (Value, error) {
	if depth > MaxDepth {
		return Value{}, DepthError{}
	}
	p.i++ // [
	a := Value{Kind: KindArray, Arr: []Value{}}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		a.Arr = append(a.Arr, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		return Value{}, p.fail("Missing a comma or ']' after an array element.")
	}
}

// str reads a quoted string at p.i.
func (p *parser) str() (string, error) {
	p.i++ // "
	var b strings.Builder
	start := p.i
	for {
		if p.i >= len(p.s) {
			return "", &SyntaxError{"Missing a closing quotation mark in string.", start - 1}
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.fail("Invalid encoding in string.")
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && n <= 1 {
				return "", p.fail("Invalid encoding in string.")
			}
			b.WriteString(p.s[p.i : p.i+n])
			p.i += n
		}
	}
}

func (p *parser) escape(b *strings.Builder) error {
	if p.i+1 >= len(p.s) {
		return p.fail("Invalid escape character in string.")
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return p.fail("Incorrect hex digit after \\u escape in string.")
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xdc00 || !strings.HasPrefix(p.s[p.i:], "\\u") {
				return p.fail("The surrogate pair in string is invalid.")
			}
			p.i += 2
			lo, ok := p.hex4()
			if !ok || lo < 0xdc00 || lo > 0xdfff {
				return p.fail("The surrogate pair in string is invalid.")
			}
			r = utf16.DecodeRune(r, lo)
		}
		b.WriteRune(r)
	default:
		p.i--
		return p.fail("Invalid escape character in string.")
	}
	return nil
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func (p *parser) number() (Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return Value{}, p.fail("Invalid value.")
	}
	integer := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		integer = false
		if digits() == 0 {
			return Value{}, p.fail("Miss fraction part in number.")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		integer = false
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return Value{}, p.fail("Miss exponent in number.")
		}
	}
	text := p.s[start:p.i]
	if integer {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return Int(n), nil
		}
		if n, err := strconv.ParseUint(text, 10, 64); err == nil {
			return Uint(n), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && math.IsInf(f, 0) {
		return Value{}, &SyntaxError{"Number too big to be stored in double.", start}
	}
	if p.stored && !integer && FormatDouble(f) != text {
		return Decimal(text), nil
	}
	return Double(f), nil
}
