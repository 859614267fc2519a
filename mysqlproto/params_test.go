package mysqlproto

import (
	"bytes"
	"math"
	"testing"
	"time"
)

func TestDecodeExecuteAllTypes(t *testing.T) {
	type param struct {
		typ  uint16
		val  []byte
		want any
	}
	dt := []byte{11}
	dt = appendUint16(dt, 2024)
	dt = append(dt, 2, 29, 23, 59, 58)
	dt = appendUint32(dt, 123456)
	date := append(appendUint16([]byte{4}, 1999), 12, 31)
	ts := append(appendUint16([]byte{7}, 2000), 1, 1, 1, 2, 3)
	tm := append(appendUint32([]byte{12, 1}, 1), 2, 3, 4)
	tm = appendUint32(tm, 5)
	params := []param{
		{uint16(TypeTiny), []byte{0xff}, int64(-1)},
		{uint16(TypeTiny) | unsignedParam, []byte{0xff}, int64(255)},
		{uint16(TypeShort), appendUint16(nil, 0xfffe), int64(-2)},
		{uint16(TypeShort) | unsignedParam, appendUint16(nil, 0xfffe), int64(65534)},
		{uint16(TypeLong), appendUint32(nil, 0xfffffffd), int64(-3)},
		{uint16(TypeLong) | unsignedParam, appendUint32(nil, 0xfffffffd), int64(4294967293)},
		{uint16(TypeLongLong), appendUint64(nil, math.MaxUint64), int64(-1)},
		{uint16(TypeLongLong) | unsignedParam, appendUint64(nil, math.MaxUint64), uint64(math.MaxUint64)},
		{uint16(TypeFloat), appendUint32(nil, math.Float32bits(1.25)), 1.25},
		{uint16(TypeDouble), appendUint64(nil, math.Float64bits(-0.1)), -0.1},
		{uint16(TypeNewDecimal), appendLenEncString(nil, "12.34"), "12.34"},
		{uint16(TypeDecimal), appendLenEncString(nil, "-1.5"), "-1.5"},
		{uint16(TypeVarchar), appendLenEncString(nil, "v"), "v"},
		{uint16(TypeVarString), appendLenEncString(nil, "vs"), "vs"},
		{uint16(TypeString), appendLenEncString(nil, ""), ""},
		{uint16(TypeBlob), appendLenEncString(nil, "\x00b"), []byte("\x00b")},
		{uint16(TypeLongBlob), appendLenEncString(nil, "lb"), []byte("lb")},
		{uint16(TypeDatetime), dt, time.Date(2024, 2, 29, 23, 59, 58, 123456000, time.UTC)},
		{uint16(TypeDate), date, time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC)},
		{uint16(TypeTimestamp), ts, time.Date(2000, 1, 1, 1, 2, 3, 0, time.UTC)},
		{uint16(TypeTime), tm, "-26:03:04.000005"},
		{uint16(TypeTime), []byte{0}, "00:00:00"},
		{uint16(TypeNull), nil, nil},
		{uint16(TypeLongLong), appendUint64(nil, 1), nil}, // NULL by bitmap
	}
	n := len(params)
	nulls := make([]byte, (n+7)/8)
	nulls[(n-1)/8] |= 1 << ((n - 1) % 8)
	var types []uint16
	var vals []byte
	for i, p := range params {
		types = append(types, p.typ)
		if i != n-1 {
			vals = append(vals, p.val...)
		}
	}
	ps := &preparedStmt{numParams: n}
	_, args, err := ps.decodeExecute(executePayload(1, 0, nulls, types, vals))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range params {
		got := args[i]
		switch w := p.want.(type) {
		case []byte:
			if g, ok := got.([]byte); !ok || string(g) != string(w) {
				t.Errorf("param %d = %#v, want %#v", i, got, w)
			}
		case time.Time:
			if g, ok := got.(time.Time); !ok || !g.Equal(w) {
				t.Errorf("param %d = %#v, want %v", i, got, w)
			}
		default:
			if got != p.want {
				t.Errorf("param %d (type %#x) = %#v, want %#v", i, p.typ, got, p.want)
			}
		}
	}
}

func TestFormatText(t *testing.T) {
	cases := []struct {
		v    any
		typ  byte
		want string
	}{
		{0.1, TypeDouble, "0.1"},
		{1e20, TypeDouble, "1e20"},
		{1e15, TypeDouble, "1e15"},
		{123456789012345.0, TypeDouble, "123456789012345"},
		{-1.5e-7, TypeDouble, "-1.5e-7"},
		{0.0001, TypeDouble, "0.0001"},
		{float32(0.1), TypeFloat, "0.1"},
		{int64(-3), TypeLongLong, "-3"},
		{uint64(math.MaxUint64), TypeLongLong, "18446744073709551615"},
		{true, TypeTiny, "1"},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), TypeDatetime, "2024-01-02 03:04:05"},
		{time.Date(2024, 1, 2, 3, 4, 5, 1000, time.UTC), TypeTimestamp, "2024-01-02 03:04:05.000001"},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), TypeDate, "2024-01-02"},
		{-(26*time.Hour + 5*time.Second), TypeTime, "-26:00:05"},
	}
	for _, c := range cases {
		if got := formatText(c.v, c.typ); got != c.want {
			t.Errorf("formatText(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestPacketSplitRoundTrip(t *testing.T) {
	for _, size := range []int{0, 1, maxPacketChunk - 1, maxPacketChunk, maxPacketChunk + 5} {
		var buf bytes.Buffer
		w := newConn(nil, &buf, &buf, 0)
		payload := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		if err := w.WritePacket(payload); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		r := newConn(nil, &buf, &buf, 3*maxPacketChunk)
		got, err := r.ReadPacket()
		if err != nil || len(got) != size || r.seq != w.seq {
			t.Fatalf("size %d: got %d bytes, seq %d/%d, %v", size, len(got), r.seq, w.seq, err)
		}
		if !bytes.Equal(got, payload) {
			t.Fatalf("size %d: payload differs", size)
		}
	}
	// A header promising more than the maximum is refused before reading on.
	var buf bytes.Buffer
	buf.Write(frame(0, make([]byte, 100)))
	if _, err := newConn(nil, &buf, &buf, 50).ReadPacket(); err == nil {
		t.Fatal("oversized packet accepted")
	}
}
