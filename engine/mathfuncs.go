package engine

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// registerMath registers the numeric functions whose MySQL rules SQLite's
// namesakes do not follow, or that SQLite (built without its math functions)
// lacks, beside the C library's in package sqlitec (binlite_sin, binlite_ln
// ...). Each gives NULL for NULL.
func registerMath(c *sqlite3.SQLiteConn, st *stmtState) error {
	if err := c.RegisterFunc("binlite_round_double", roundDouble, true); err != nil {
		return fmt.Errorf("register binlite_round_double: %w", err)
	}
	m := &mathFuncs{st: st}
	return registerFast(c, []fastFunc{
		{"binlite_sign", 1, true, signOf},
		{"binlite_interval", -1, true, interval},
		{"binlite_bit_count", 1, true, bitCount},
		{"binlite_conv", 3, true, conv},
		{"binlite_format", 4, false, m.format},
		{"binlite_rand", 2, false, m.rand},
		{"binlite_dec_abs", 1, true, m.decAbs},
		{"binlite_dec_mod", 3, false, m.decMod},
		{"binlite_fmod", 3, false, m.fmod},
		{"binlite_dec_floor", 1, true, m.decRound(decimal.Floor)},
		{"binlite_dec_ceil", 1, true, m.decRound(decimal.Ceil)},
	})
}

// mathFuncs are one connection's numeric functions that warn or keep state.
type mathFuncs struct {
	st  *stmtState
	buf scratch
	// rngs are the RAND(seed) generators of the statement numbered serial, by
	// seed.
	rngs   map[int64]*mysqlRand
	serial uint64
}

// roundDouble is MySQL's ROUND(x, d) of a double: x scaled by 10^d, rounded half
// to even as rint does, scaled back; NULL for NULL.
func roundDouble(v any, d int64) any {
	if isNull(v) {
		return nil
	}
	x := toFloat(v)
	scale := math.Pow(10, float64(d))
	if d >= 0 {
		return math.RoundToEven(x*scale) / scale
	}
	return math.RoundToEven(x/math.Pow(10, float64(-d))) * math.Pow(10, float64(-d))
}

// signOf is SIGN(x): -1, 0 or 1 of x read as a double.
func signOf(c sqlitec.Context, args []sqlitec.Value) {
	x, ok := floatArg(&args[0])
	if !ok {
		return
	}
	switch {
	case x < 0:
		c.ResultInt(-1)
	case x > 0:
		c.ResultInt(1)
	default:
		c.ResultInt(0)
	}
}

// interval is INTERVAL(n, n1, n2, ...): how many of n1, n2, ... (in increasing
// order) are at most n; -1 for a NULL n.
func interval(c sqlitec.Context, args []sqlitec.Value) {
	n, ok := floatArg(&args[0])
	if !ok {
		c.ResultInt(-1)
		return
	}
	i := 1
	for ; i < len(args); i++ {
		if x, ok := floatArg(&args[i]); ok && x > n {
			break
		}
	}
	c.ResultInt(int64(i - 1))
}

// bitCount is BIT_COUNT(n): the bits set in n's 64 bits.
func bitCount(c sqlitec.Context, args []sqlitec.Value) {
	v := &args[0]
	var n uint64
	switch v.Type() {
	case sqlitec.TypeNull:
		return
	case sqlitec.TypeInteger:
		n = uint64(v.Int())
	case sqlitec.TypeFloat:
		n = floatToUint64(v.Float())
	default:
		b := v.Bytes()
		if u, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil {
			n = u
		} else if v.Type() == sqlitec.TypeBlob && len(b) <= 8 {
			for _, x := range b {
				n = n<<8 | uint64(x)
			}
		} else {
			n = uint64(stringToInt(b))
		}
	}
	c.ResultInt(int64(bits.OnesCount64(n)))
}

// conv is CONV(n, from, to): n's digits read in base |from| (the number they
// start with; signed when from is negative), written in base |to| in capitals
// (as a signed number when to is negative); NULL for a base outside 2..36.
func conv(c sqlitec.Context, args []sqlitec.Value) {
	var b scratch
	s, ok := b.text(&args[0])
	from, ok2 := intArg(&args[1])
	to, ok3 := intArg(&args[2])
	if !ok || !ok2 || !ok3 {
		return
	}
	af, at := abs64(from), abs64(to)
	if af < 2 || af > 36 || at < 2 || at > 36 {
		return
	}
	text := strings.TrimLeft(string(s), " \t\n")
	neg := false
	if text != "" && (text[0] == '-' || text[0] == '+') {
		neg = text[0] == '-'
		text = text[1:]
	}
	var n uint64
	overflow := false
	for i := 0; i < len(text); i++ {
		d := digitValue(text[i])
		if d >= af {
			break
		}
		hi, lo := bits.Mul64(n, uint64(af))
		lo, carry := bits.Add64(lo, uint64(d), 0)
		if hi != 0 || carry != 0 {
			overflow = true
		}
		n = lo
	}
	if from < 0 {
		// signed: clipped to BIGINT's range
		switch {
		case overflow || !neg && n > math.MaxInt64:
			n = math.MaxInt64
		case neg && n > 1<<63:
			n = 1 << 63
		case neg:
			n = -n
		}
	} else {
		if overflow {
			n = math.MaxUint64
		}
		if neg {
			n = -n
		}
	}
	var out string
	if to < 0 && int64(n) < 0 {
		out = "-" + strconv.FormatUint(-n, int(at))
	} else {
		out = strconv.FormatUint(n, int(at))
	}
	c.ResultString(strings.ToUpper(out))
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// digitValue is a digit's value in bases up to 36 (99 for no digit).
func digitValue(ch byte) int64 {
	switch {
	case ch >= '0' && ch <= '9':
		return int64(ch - '0')
	case ch >= 'a' && ch <= 'z':
		return int64(ch-'a') + 10
	case ch >= 'A' && ch <= 'Z':
		return int64(ch-'A') + 10
	}
	return 99
}

// format is binlite_format(x, d, locale, kind): FORMAT(x, d[, locale]), x
// rounded to d decimals (0 to 30) with the locale's separators: an exact
// number (kind 'd') half away from zero, a double (kind 'r') half to even as
// MySQL rounds doubles. An unknown locale is en_US with warning 1649.
func (m *mathFuncs) format(c sqlitec.Context, args []sqlitec.Value) {
	d, ok := intArg(&args[1])
	if !ok || args[0].IsNull() {
		return
	}
	d = min(max(d, 0), 30)
	var digits string
	if k := args[3].Bytes(); len(k) == 1 && k[0] == 'd' {
		var b scratch
		s, _ := b.text(&args[0])
		r := decimal.RoundTo(string(s), d)
		str, ok := r.(string)
		if !ok {
			return
		}
		digits = str
	} else {
		x, _ := floatArg(&args[0])
		scale := math.Pow(10, float64(d))
		r := math.RoundToEven(x*scale) / scale
		if math.IsInf(x*scale, 0) {
			r = x
		}
		digits = strconv.FormatFloat(r, 'f', int(d), 64)
	}
	loc, known := locales[strings.ToLower(string(args[2].Bytes()))]
	if !known {
		name := "NULL"
		if !args[2].IsNull() {
			name = string(args[2].Bytes())
		}
		m.st.warnf(mysqlerr.ErUnknownLocale, "Unknown locale: '%s'", name)
		loc = locales["en_us"]
	}
	c.ResultText(groupDigits(m.buf.reset(), digits, int(d), loc))
}

// locale is how a locale writes numbers: its decimal point, thousands
// separator and group size (MySQL's MY_LOCALE).
type locale struct {
	point, sep byte
	group      int
}

// locales are the locales FORMAT knows (MySQL's, by name in lower case).
var locales = map[string]locale{
	"en_us": {'.', ',', 3}, "en_gb": {'.', ',', 3}, "en_au": {'.', ',', 3}, "en_ca": {'.', ',', 3}, "en_in": {'.', ',', 3},
	"de_de": {',', '.', 3}, "de_at": {',', '.', 3}, "es_es": {',', '.', 3}, "it_it": {',', '.', 3}, "nl_nl": {',', '.', 3},
	"pt_br": {',', '.', 3}, "da_dk": {',', '.', 3}, "id_id": {',', '.', 3}, "tr_tr": {',', '.', 3},
	"de_ch": {'.', '\'', 3}, "fr_fr": {',', 0, 3}, "ru_ru": {',', ' ', 3}, "sv_se": {',', ' ', 3}, "pl_pl": {',', 0, 3},
	"ja_jp": {'.', ',', 3}, "zh_cn": {'.', ',', 3}, "ko_kr": {'.', ',', 3},
}

// groupDigits writes a number's digits (as strconv spells them, '-' and '.')
// with the locale's separators and exactly d decimals.
func groupDigits(out []byte, digits string, d int, loc locale) []byte {
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	intPart, frac, _ := strings.Cut(digits, ".")
	if neg && strings.Trim(intPart+frac, "0") != "" {
		out = append(out, '-')
	}
	for i := 0; i < len(intPart); i++ {
		if i > 0 && loc.sep != 0 && (len(intPart)-i)%loc.group == 0 {
			out = append(out, loc.sep)
		}
		out = append(out, intPart[i])
	}
	if d > 0 {
		out = append(out, loc.point)
		for i := 0; i < d; i++ {
			if i < len(frac) {
				out = append(out, frac[i])
			} else {
				out = append(out, '0')
			}
		}
	}
	return out
}

// mysqlRand is MySQL's RAND(seed) generator (manual 14.6.2: a given seed
// gives a repeatable sequence): two 30-bit seeds stepped together.
type mysqlRand struct{ seed1, seed2 uint64 }

const randMax = 0x3FFFFFFF

func newMySQLRand(seed int64) mysqlRand {
	s := uint32(seed)
	return mysqlRand{uint64(s*0x10001+55555555) % randMax, uint64(s*0x10000001) % randMax}
}

func (r *mysqlRand) next() float64 {
	r.seed1 = (r.seed1*3 + r.seed2) % randMax
	r.seed2 = (r.seed1 + r.seed2 + 33) % randMax
	return float64(r.seed1) / randMax
}

// rand is binlite_rand(seed, constant): RAND(seed), seeded once per statement
// for a constant seed (each row the next number), else by each row's seed.
func (m *mathFuncs) rand(c sqlitec.Context, args []sqlitec.Value) {
	seed, _ := intArg(&args[0])
	if args[1].Int() == 0 {
		r := newMySQLRand(seed)
		c.ResultFloat(r.next())
		return
	}
	if m.serial != m.st.serial || m.rngs == nil {
		m.serial, m.rngs = m.st.serial, map[int64]*mysqlRand{}
	}
	r, ok := m.rngs[seed]
	if !ok {
		g := newMySQLRand(seed)
		r = &g
		m.rngs[seed] = r
	}
	c.ResultFloat(r.next())
}

// decAbs is ABS of a DECIMAL, exactly.
func (m *mathFuncs) decAbs(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := m.buf.text(&args[0])
	if !ok {
		return
	}
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	c.ResultText(s)
}

// decRound is FLOOR or CEIL of a DECIMAL, exactly (decimal text of scale 0).
func (m *mathFuncs) decRound(f func(string) (string, bool)) sqlitec.Func {
	return func(c sqlitec.Context, args []sqlitec.Value) {
		s, ok := m.buf.text(&args[0])
		if !ok {
			return
		}
		if r, ok := f(string(s)); ok {
			c.ResultString(r)
		}
	}
}

// zero answers a division by zero as the divisions' mode argument says (see
// sqlitec.RegisterChecks): NULL, with warning 1365 (mode 1) or failing (2).
func (m *mathFuncs) zero(c sqlitec.Context, mode *sqlitec.Value) {
	switch mode.Int() {
	case 2:
		c.ResultError(fnErrorText(mysqlerr.ErDivisionByZero, "Division by 0"))
	case 1:
		m.st.warnf(mysqlerr.ErDivisionByZero, "Division by 0")
	}
}

// decMod is binlite_dec_mod(a, b, mode): MOD of exact values, exactly.
func (m *mathFuncs) decMod(c sqlitec.Context, args []sqlitec.Value) {
	a, ok := textCopy(&args[0])
	b, ok2 := m.buf.text(&args[1])
	if !ok || !ok2 {
		return
	}
	r, ok := decimal.Mod(string(a), string(b))
	if !ok {
		if d, isNum := decimal.Parse(string(b)); isNum && d.IsZero() {
			m.zero(c, &args[2])
		}
		return
	}
	c.ResultString(r)
}

// fmod is binlite_fmod(a, b, mode): MOD of doubles (C's fmod: a's sign).
func (m *mathFuncs) fmod(c sqlitec.Context, args []sqlitec.Value) {
	a, ok := floatArg(&args[0])
	b, ok2 := floatArg(&args[1])
	if !ok || !ok2 {
		return
	}
	if b == 0 {
		m.zero(c, &args[2])
		return
	}
	c.ResultFloat(math.Mod(a, b))
}
