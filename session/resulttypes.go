package session

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/u64"
)

// engineCatalog finds table definitions for the compiler.
type engineCatalog struct{ e *engine.Engine }

func (c engineCatalog) Table(schema, name string) (*catalog.Table, bool) {
	sc, err := c.e.Schema(schema)
	if err != nil {
		return nil, false
	}
	t := sc.Table(name)
	if t == nil {
		for _, n := range sc.Tables() {
			if strings.EqualFold(n, name) {
				t = sc.Table(n)
			}
		}
	}
	if t == nil {
		return nil, false
	}
	return t.Def, true
}

// tableDef is a table's MySQL definition, nil when it has none.
func (c engineCatalog) tableDef(schema, table string) *catalog.Table {
	def, _ := c.Table(schema, table)
	return def
}

// typeResult declares a query's result columns with the MySQL types the compiler
// worked out from the statement and the catalog, and puts the values in the
// declared form (DECIMAL to its scale, BIT as bytes). A column keeps the type
// read off its values when the compiler could not type it, or when a value does
// not fit the worked-out type (then the value, not the declaration, is what the
// engine computed).
//
// typed reports which columns took the compiler's type.
func (s *Session) typeResult(text string, res *mp.Result) (typed []bool) {
	if s.env.Plans == nil || res == nil || res.Columns == nil {
		return nil
	}
	plan := s.env.Plans.QueryVars(text, s.db, s.sqlMode(), s.userVar, s.withVirtual(engineCatalog{s.env.Engine}))
	if plan.Columns == nil || len(plan.Columns) != len(res.Columns) {
		return nil
	}
	typed = make([]bool, len(res.Columns))
	stream, _ := res.More.(*rowStream)
	for i, ct := range plan.Columns {
		if !ct.Known() || !conforms(ct, res.Rows, i) {
			continue
		}
		typed[i] = true
		if stream != nil { // the rows to come get the same
			stream.typed, stream.types = append(stream.typed, i), plan.Columns
		}
		col := &res.Columns[i]
		col.Type, col.Flags, col.Length, col.Decimals, col.Charset = ct.Type, ct.Flags, ct.Length, ct.Decimals, ct.Charset
		for _, r := range res.Rows {
			if r[i] != nil {
				r[i] = declaredValue(ct, r[i])
			}
		}
	}
	return typed
}

// conforms reports whether every value of column i can be sent as type ct.
func conforms(ct compiler.ColType, rows [][]any, i int) bool {
	for _, r := range rows {
		if v := r[i]; v != nil && !conformsValue(ct, v) {
			return false
		}
	}
	return true
}

// conformsValue reports whether v (not NULL) can be sent as type ct.
func conformsValue(ct compiler.ColType, v any) bool {
	switch ct.Type {
	case mp.TypeNull:
	case mp.TypeTiny, mp.TypeShort, mp.TypeInt24, mp.TypeLong, mp.TypeLongLong, mp.TypeYear, mp.TypeBit:
		switch v.(type) {
		case int64, uint64:
			return true
		case []byte:
			_, ok := u64.Wide(v) // a BIGINT UNSIGNED's stored form from 2^63
			return ok && ct.Wide()
		}
	case mp.TypeNewDecimal:
		switch x := v.(type) {
		case int64, float64:
			return true
		case string:
			_, ok := catalog.RoundDecimal(x, 0)
			return ok
		}
	case mp.TypeFloat, mp.TypeDouble:
		switch v.(type) {
		case int64, float64:
			return true
		}
	case mp.TypeDate, mp.TypeDatetime, mp.TypeTimestamp, mp.TypeTime:
		_, ok := v.(string)
		return ok
	default: // strings, blobs, JSON, ENUM, SET
		switch v.(type) {
		case string, []byte, int64, float64:
			return true
		}
	}
	return false
}

// declaredValue converts v (as SQLite returned it) to what type ct sends.
func declaredValue(ct compiler.ColType, v any) any {
	if n, ok := u64.Wide(v); ok && ct.Wide() {
		if ct.BitBytes > 0 {
			return v // BIT(64) sends its 8 bytes, which the stored form is
		}
		v = n // BIGINT UNSIGNED from 2^63 (package u64)
	}
	switch {
	case ct.Type == mp.TypeNewDecimal:
		return formatDecimal(v, int(ct.Decimals))
	case ct.PadChar:
		if str, ok := v.(string); ok {
			return strings.TrimRight(str, " ")
		}
	case ct.Type == mp.TypeFloat && ct.Decimals < 31:
		// FLOAT(M,D) shows D digits after the point
		if f, ok := v.(float64); ok {
			return strconv.FormatFloat(float64(float32(f)), 'f', int(ct.Decimals), 32)
		}
	case ct.Type == mp.TypeFloat:
		if f, ok := v.(float64); ok {
			return floatText(float32(f))
		}
	case ct.Type == mp.TypeDouble && ct.Decimals == 31:
		if f, ok := v.(float64); ok {
			return numberText(f)
		}
	case ct.Type == mp.TypeDouble:
		// a DOUBLE of fixed decimals (PI(), VARIANCE of integers, ROUND(x, 2))
		// shows exactly that many digits after the point
		switch f := v.(type) {
		case float64:
			return strconv.FormatFloat(f, 'f', int(ct.Decimals), 64)
		case int64:
			return strconv.FormatFloat(float64(f), 'f', int(ct.Decimals), 64)
		}
	case ct.Flags&mp.ZerofillFlag != 0 && ct.Type != mp.TypeYear:
		// ZEROFILL pads the number with zeros to the display width
		var digits string
		switch n := v.(type) {
		case int64:
			digits = strconv.FormatInt(n, 10)
		case uint64:
			digits = strconv.FormatUint(n, 10)
		case string:
			digits = n
		default:
			return v
		}
		if w := int(ct.Length); len(digits) < w && !strings.HasPrefix(digits, "-") {
			return strings.Repeat("0", w-len(digits)) + digits
		}
		return digits
	case ct.BitBytes > 0:
		n, ok := v.(int64)
		if !ok {
			return v
		}
		b := make([]byte, ct.BitBytes)
		for i := len(b) - 1; i >= 0; i-- {
			b[i] = byte(n)
			n >>= 8
		}
		return b
	}
	return v
}

// formatDecimal spells a DECIMAL value with scale digits, rounding half away
// from zero as MySQL does. A float is read through its shortest decimal form, so
// the 1.005 a client stored rounds to 1.01, not to its binary neighbour 1.00.
func formatDecimal(v any, scale int) any {
	var text string
	switch x := v.(type) {
	case int64:
		text = strconv.FormatInt(x, 10)
	case float64:
		text = strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		text = x
	default:
		return v
	}
	if r, ok := catalog.RoundDecimal(text, scale); ok {
		return r
	}
	return v
}

// typeParams converts a write's ? values to the types of the columns they go into,
// as MySQL converts them: text sent for a binary column is bytes (LENGTH counts
// them all, NULs included), a time for a DATE is its date, a time for a
// DATETIME(fsp) is rounded to fsp digits. It also gives MySQL's refusal of a write
// its text or a NULL parameter already decides (1364, 1048), unless the write
// adjusts such values with a warning (compiled: the compiler's SQL does that,
// see adjusts). done marks the values already converted as their literals are
// (sqlcompat.Query.StoreParams), which are left as they are.
func (s *Session) typeParams(text string, q *sqlcompat.Query, compiled bool, args []any, done []bool) ([]any, error) {
	if s.env.Plans == nil {
		return args, nil
	}
	kind := q.Kind
	plan := s.env.Plans.QueryVars(text, s.db, s.sqlMode(), s.userVar, engineCatalog{s.env.Engine})
	adjusts := compiled && s.sqlMode().NotStrict
	if plan.Err != nil && !(adjusts && (mysqlerr.Is(plan.Err, mysqlerr.ErNoDefaultForField) || q.InsertRows > 1)) {
		return nil, plan.Err
	}
	var out []any
	for i, col := range plan.Params {
		if col == nil || i >= len(args) || i < len(done) && done[i] {
			continue
		}
		if args[i] == nil {
			// Without strict mode only a single-row INSERT fails on NULL.
			if kind != sqlcompat.Update && !col.Nullable && !col.AutoIncrement && !(adjusts && q.InsertRows > 1) {
				return nil, mysqlerr.New(mysqlerr.ErBadNull, "Column '%s' cannot be null", col.Name)
			}
			continue
		}
		v := paramValue(col.Type, args[i])
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = v
	}
	if out == nil {
		return args, nil
	}
	return out, nil
}

func paramValue(t catalog.Type, v any) any {
	if t.Wide() {
		if sv, ok := storedUint64(t, v); ok {
			return sv
		}
	}
	switch x := v.(type) {
	case string:
		if n, ok := t.StoreNumber(x); ok && t.Base == "decimal" {
			return n
		}
		if sv, ok := t.StoreText(x); ok {
			return sv
		}
	case []byte:
		if t.IsBinary() {
			return t.StoreBytes(x)
		}
		if t.Base != "bit" && t.Base != "" {
			// Bytes (long data, a driver's []byte) are a binary string: a text
			// column keeps them as text, a number column reads the number they
			// spell, as MySQL converts them. SQLite would keep a BLOB, which no
			// text or number equals.
			return paramValue(t, string(x))
		}
	case float64:
		if f, ok := t.StoreFloat(x); ok {
			return f
		}
		if n, ok := t.StoreNumber(strconv.FormatFloat(x, 'f', -1, 64)); ok && t.Base == "decimal" {
			return n // exact decimal text at the column's scale (package decimal)
		}
		if sv, ok := t.StoreTemporalNumber(strconv.FormatFloat(x, 'f', -1, 64)); ok {
			return sv
		}
	case int64:
		if n, ok := t.StoreNumber(strconv.FormatInt(x, 10)); ok && t.Base == "decimal" {
			return n
		}
		if sv, ok := t.StoreTemporalNumber(strconv.FormatInt(x, 10)); ok {
			return sv
		}
	case time.Time:
		// As the column keeps it: a DATE its date, a DATETIME(fsp) rounded to fsp.
		if t.Base == "date" || t.Base == "datetime" || t.Base == "timestamp" || t.Base == "time" {
			if sv, ok := t.StoreText(x.Format("2006-01-02 15:04:05.999999999")); ok {
				return sv
			}
		}
	}
	return v
}

// floatText is how MySQL shows a FLOAT: six significant digits (FLT_DIG), in
// MySQL's choice of fixed or exponent form (numberText).
func floatText(f float32) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', 6, 32), 64)
	if err != nil {
		return strconv.FormatFloat(float64(f), 'g', -1, 32)
	}
	return numberText(r)
}

// numberText spells a double as MySQL does (my_gcvt): its shortest exact digits,
// in fixed point while the decimal point falls within 15 places of the first
// digit either way, else with an exponent (1e15, 2.5e-20).
func numberText(f float64) string {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if decpt := exp + 1; decpt > -15 && decpt <= 15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	e = strings.Replace(e, "e+", "e", 1)
	e = strings.Replace(e, "e-0", "e-", 1)
	return strings.Replace(e, "e0", "e", 1)
}

// storedUint64 is a parameter written into a BIGINT UNSIGNED or BIT(64) column
// in the stored form of package u64 when it is a number of 2^63 or more (the
// driver binds a uint64 beyond int64 as text, which the column's affinity would
// make an inexact REAL); ok=false leaves it to the column's checks.
func storedUint64(t catalog.Type, v any) (any, bool) {
	switch x := v.(type) {
	case uint64:
		return u64.Stored(x), true
	case float64:
		if x >= 1<<63 && x < 1<<64 {
			return u64.Stored(uint64(x)), true
		}
	case string:
		if n, err := strconv.ParseUint(strings.TrimSpace(x), 10, 64); err == nil && t.Base == "bigint" {
			return u64.Stored(n), true
		}
	case []byte:
		if n, err := strconv.ParseUint(strings.TrimSpace(string(x)), 10, 64); err == nil && t.Base == "bigint" {
			return u64.Stored(n), true
		}
	}
	return nil, false
}
