package mysqljson

import "testing"

// FuzzParse: whatever text a client writes into a JSON column or passes to a
// JSON function is parsed or refused, never a panic, and what parses prints and
// parses again to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a": 1, "b": [1, 2.5, "x", null, true]}`, `[]`, `"\u00e9"`, `1e400`, `{"a":{"a":`, `-0`, `  123  `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(v.Text())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, v.Text(), err)
		}
		if again.Text() != v.Text() {
			t.Fatalf("%q printed %q, then %q", s, v.Text(), again.Text())
		}
	})
}
