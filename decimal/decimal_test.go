package decimal

import "testing"

func TestArithmetic(t *testing.T) {
	cases := []struct {
		got  any
		want any
	}{
		{Add("0.1", "0.2"), "0.3"},
		{Add("0.10", int64(1)), "1.10"},
		{Sub("12345678901234567890123456789012345.123456789012345678901234567890", "0.000000000000000000000000000001"), "12345678901234567890123456789012345.123456789012345678901234567889"},
		{Mul("0.10", int64(3)), "0.30"},
		{Mul("10.00", "1.1"), "11.000"},
		{Div(int64(1), int64(3), 4), "0.3333"},
		{Div("2.00", "3", 6), "0.666667"},
		{Div(int64(1), int64(0), 4), nil},
		{Add(nil, "1"), nil},
		{Neg("0.00"), "0.00"},
		{Neg("-1.5"), "1.5"},
		{Cast("1.999", 4, 2), "2.00"},
		{Cast(int64(12345), 3, 0), "999"},
		{Cast("-12345.6", 5, 1), "-9999.9"},
		{Cast(1.005, 5, 2), "1.01"},
		{Valid("1.50", 5, 2, false), int64(1)},
		{Valid("1.5", 5, 2, false), int64(0)},
		{Valid("1000.00", 5, 2, false), int64(0)},
		{Valid("-1.00", 5, 2, true), int64(0)},
		{Valid(1.5, 5, 2, false), int64(0)},
		{IsNumber([]byte(nil)), int64(1)}, // NULL as the driver passes it
		{IsNumber("x"), int64(0)},
		{Store([]byte(nil), 5, 2), nil},
		{Store("1.005", 5, 2), "1.01"},
		{Store("x", 5, 2), "x"},
		{InRange("999.995", 5, 2, false), int64(0)},
		{InRange("-1", 5, 2, true), int64(0)},
		{IsCanonical("1.5", 2), int64(0)},
		{IsCanonical("1.50", 2), int64(1)},
		{ToInt("22.50"), int64(23)},
		{ToInt(-2.5), int64(-3)},
		{ToInt(int64(7)), int64(7)},
		{ToInt("1e30"), "1e30"},
		{RoundTo("1.005", 2), "1.01"},
		{RoundTo("-2.5", 0), "-3"},
		{RoundTo("1234.5678", -2), "1200"},
		{TruncateTo("1.999", 2), "1.99"},
		{TruncateTo("-1.999", 1), "-1.9"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %v, want %v", i, c.got, c.want)
		}
	}
}

func TestAggregates(t *testing.T) {
	s := NewSum()
	for _, v := range []any{"0.10", "0.20", nil, int64(1)} {
		s.Step(v)
	}
	if got := s.Done(); got != "1.30" {
		t.Errorf("SUM = %v, want 1.30", got)
	}
	if got := NewSum().Done(); got != nil {
		t.Errorf("SUM of nothing = %v, want NULL", got)
	}
	a := NewAvg()
	for _, v := range []any{"0.10", "0.20", nil} {
		a.Step(v, 6)
	}
	if got := a.Done(); got != "0.150000" {
		t.Errorf("AVG = %v, want 0.150000", got)
	}
}

func TestCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"0.10", "0.1", 0}, {"9.00", "10.00", -1}, {"-1", "-0.5", -1}, {"1e2", "100", 0}, {"abc", "5", 1}, {"5", "abc", -1},
	}
	for _, c := range cases {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
