package gtid

import "testing"

func TestUUIDParseString(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "3E11FA47-71CA-11E1-9E33-C80AA9429562", want: "3e11fa47-71ca-11e1-9e33-c80aa9429562"},
		{in: " 3e11fa47-71ca-11e1-9e33-c80aa9429562\n", want: "3e11fa47-71ca-11e1-9e33-c80aa9429562"},
		{in: "3e11fa4771ca11e19e33c80aa9429562", want: "3e11fa47-71ca-11e1-9e33-c80aa9429562"},
		{in: "3e11fa47-71ca-11e1-9e33-c80aa942956", bad: true},
		{in: "3e11fa47x71ca-11e1-9e33-c80aa9429562", bad: true},
		{in: "3g11fa47-71ca-11e1-9e33-c80aa9429562", bad: true},
		{in: "", bad: true},
	}
	for _, tt := range tests {
		u, err := ParseUUID(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseUUID(%q) = %v, want error", tt.in, u)
			}
			continue
		}
		if err != nil || u.String() != tt.want {
			t.Errorf("ParseUUID(%q) = %v, %v; want %s", tt.in, u, err, tt.want)
		}
	}
}

func TestNewUUID(t *testing.T) {
	a, b := NewUUID(), NewUUID()
	if a == b || a.IsZero() {
		t.Fatalf("NewUUID not random: %v %v", a, b)
	}
	if c, err := ParseUUID(a.String()); err != nil || c != a {
		t.Fatalf("round trip %v: %v %v", a, c, err)
	}
}

func TestGTID(t *testing.T) {
	g, err := ParseGTID("3E11FA47-71CA-11E1-9E33-C80AA9429562:77")
	if err != nil {
		t.Fatal(err)
	}
	if g.Seq != 77 || g.String() != "3e11fa47-71ca-11e1-9e33-c80aa9429562:77" {
		t.Fatalf("got %v", g)
	}
	for _, bad := range []string{"", "3e11fa47-71ca-11e1-9e33-c80aa9429562", "3e11fa47-71ca-11e1-9e33-c80aa9429562:0",
		"3e11fa47-71ca-11e1-9e33-c80aa9429562:x", "3e11fa47-71ca-11e1-9e33-c80aa9429562:-1",
		"3e11fa47-71ca-11e1-9e33-c80aa9429562:9223372036854775808"} {
		if _, err := ParseGTID(bad); err == nil {
			t.Errorf("ParseGTID(%q) succeeded", bad)
		}
	}
}
