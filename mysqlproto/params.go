package mysqlproto

import (
	"fmt"
	"math"
	"time"
)

// unsignedParam is the flag MySQL sets in a parameter's 2-byte type.
const unsignedParam uint16 = 0x8000

// cursorTypeReadOnly is the COM_STMT_EXECUTE flag asking for a read-only cursor.
const cursorTypeReadOnly = 0x01

// decodeExecute decodes a COM_STMT_EXECUTE payload (after the command byte) for ps:
// flags, iteration count, NULL bitmap, the new-params-bound flag with types, and
// the values. Types bound by an earlier execute are reused when the flag is 0, and
// long data replaces the values of the parameters it was sent for. The caller
// already looked the statement up by the leading id.
func (ps *preparedStmt) decodeExecute(data []byte) (flags byte, args []any, err error) {
	r := &reader{buf: data}
	r.uint32() // statement id
	flags = r.byte1()
	r.uint32() // iteration count, always 1
	if r.err != nil {
		return 0, nil, malformed("COM_STMT_EXECUTE header")
	}
	n := ps.numParams
	if n == 0 {
		return flags, nil, nil
	}
	nullBitmap := r.bytes((n + 7) / 8)
	bound := r.byte1()
	if r.err != nil {
		return 0, nil, malformed("COM_STMT_EXECUTE parameters")
	}
	if bound == 1 {
		raw := r.bytes(2 * n)
		if r.err != nil {
			return 0, nil, malformed("COM_STMT_EXECUTE parameter types")
		}
		types := make([]uint16, n)
		for i := range types {
			types[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
		}
		ps.paramTypes = types
	} else if ps.paramTypes == nil {
		return 0, nil, malformed("COM_STMT_EXECUTE without parameter types")
	}
	args = make([]any, n)
	for i := range args {
		typ := byte(ps.paramTypes[i])
		// Long data wins over the NULL bit, as in MySQL: clients (PHP's mysqli
		// binding NULL to a 'b' parameter) set both.
		if ld, ok := ps.longData[i]; ok {
			if isBlobType(typ) {
				args[i] = ld
			} else {
				args[i] = payloadString(ld) // cleared by the caller, never written again
			}
			continue
		}
		if nullBitmap[i/8]&(1<<(i%8)) != 0 {
			continue
		}
		v, err := decodeParam(r, typ, ps.paramTypes[i]&unsignedParam != 0)
		if err != nil {
			return 0, nil, malformed("parameter %d: %v", i+1, err)
		}
		args[i] = v
	}
	return flags, args, nil
}

func isBlobType(typ byte) bool {
	switch typ {
	case TypeTinyBlob, TypeMediumBlob, TypeLongBlob, TypeBlob, TypeGeometry, TypeBit:
		return true
	}
	return false
}

// decodeParam decodes one binary-protocol parameter value. Unsigned BIGINTs come
// back as uint64; narrower unsigned integers fit in int64 and come back as int64.
func decodeParam(r *reader, typ byte, unsigned bool) (any, error) {
	var v any
	switch typ {
	case TypeNull:
		return nil, nil
	case TypeTiny:
		b := r.byte1()
		if unsigned {
			v = int64(b)
		} else {
			v = int64(int8(b))
		}
	case TypeShort, TypeYear:
		u := r.uint16()
		if unsigned {
			v = int64(u)
		} else {
			v = int64(int16(u))
		}
	case TypeLong, TypeInt24:
		u := r.uint32()
		if unsigned {
			v = int64(u)
		} else {
			v = int64(int32(u))
		}
	case TypeLongLong:
		u := r.uint64()
		if unsigned {
			v = u
		} else {
			v = int64(u)
		}
	case TypeFloat:
		v = float64(math.Float32frombits(r.uint32()))
	case TypeDouble:
		v = math.Float64frombits(r.uint64())
	case TypeDecimal, TypeNewDecimal, TypeVarchar, TypeVarString, TypeString,
		TypeEnum, TypeSet, TypeJSON:
		v = payloadString(r.lenEncBytes()) // the command's own buffer (see payloadString)
	case TypeTinyBlob, TypeMediumBlob, TypeLongBlob, TypeBlob, TypeGeometry, TypeBit:
		b := r.lenEncBytes()
		if b == nil {
			b = []byte{}
		}
		v = b
	case TypeDate, TypeNewDate, TypeDatetime, TypeTimestamp:
		t, err := decodeDatetime(r)
		if err != nil {
			return nil, err
		}
		v = t
	case TypeTime:
		s, err := decodeTime(r)
		if err != nil {
			return nil, err
		}
		v = s
	default:
		return nil, fmt.Errorf("unsupported parameter type 0x%02x", typ)
	}
	if r.err != nil {
		return nil, r.err
	}
	return v, nil
}

// decodeDatetime reads the 0/4/7/11-byte binary DATE/DATETIME form (UTC).
func decodeDatetime(r *reader) (time.Time, error) {
	n := r.byte1()
	var year, month, day, hour, minute, sec, us int
	switch n {
	case 0:
		return time.Time{}, r.err
	case 4, 7, 11:
		year, month, day = int(r.uint16()), int(r.byte1()), int(r.byte1())
		if n >= 7 {
			hour, minute, sec = int(r.byte1()), int(r.byte1()), int(r.byte1())
		}
		if n == 11 {
			us = int(r.uint32())
		}
	default:
		return time.Time{}, fmt.Errorf("bad datetime length %d", n)
	}
	if r.err != nil {
		return time.Time{}, r.err
	}
	if us > 999999 {
		return time.Time{}, fmt.Errorf("bad datetime microseconds %d", us)
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, us*1000, time.UTC), nil
}

// decodeTime reads the 0/8/12-byte binary TIME form into [-]HH:MM:SS[.ffffff].
func decodeTime(r *reader) (string, error) {
	n := r.byte1()
	switch n {
	case 0:
		return "00:00:00", r.err
	case 8, 12:
	default:
		return "", fmt.Errorf("bad time length %d", n)
	}
	neg := r.byte1()
	days := uint64(r.uint32())
	h, m, s := uint64(r.byte1()), uint64(r.byte1()), uint64(r.byte1())
	var us uint64
	if n == 12 {
		us = uint64(r.uint32())
	}
	if r.err != nil {
		return "", r.err
	}
	out := fmt.Sprintf("%02d:%02d:%02d", days*24+h, m, s)
	if us != 0 {
		out += fmt.Sprintf(".%06d", us%1000000)
	}
	if neg == 1 {
		out = "-" + out
	}
	return out, nil
}
