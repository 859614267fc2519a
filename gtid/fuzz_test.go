package gtid

import "testing"

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", ua + ":1-77:80", ub + ":5,\n" + ua + ":1", ua + ":3-1", ua + ":1-2:2-3", "x:1", ua + ":9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := Parse(s)
		if err != nil {
			return
		}
		text := set.String()
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("String %q of parsed %q does not parse: %v", text, s, err)
		}
		if !again.Equal(set) || again.String() != text {
			t.Fatalf("round trip of %q: %q != %q", s, again, text)
		}
	})
}
