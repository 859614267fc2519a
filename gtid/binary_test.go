package gtid

import "testing"

func TestBinaryRoundTrip(t *testing.T) {
	for _, in := range []string{"", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77:80", "3e11fa47-71ca-11e1-9e33-c80aa9429562:5,4e11fa47-71ca-11e1-9e33-c80aa9429562:1-3:9-10"} {
		s := MustParse(in)
		got, err := DecodeBinary(s.AppendBinary(nil))
		if err != nil || !got.Equal(s) {
			t.Fatalf("%q: got %q, %v", in, got.String(), err)
		}
	}
}

func FuzzDecodeBinary(f *testing.F) {
	f.Add(MustParse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77:80").AppendBinary(nil))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeBinary(b)
		if err == nil {
			if again, err := DecodeBinary(s.AppendBinary(nil)); err != nil || !again.Equal(s) {
				t.Fatalf("re-encode differs: %v", err)
			}
		}
	})
}
