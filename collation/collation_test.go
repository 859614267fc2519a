package collation

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// The expectations are MySQL's documented answers (and MariaDB 10.11's, which
// shares the non-0900 collations): SELECT a = b, a < b COLLATE x.
func TestCompare(t *testing.T) {
	cases := []struct {
		coll string
		a, b string
		want int
	}{
		// utf8mb4_general_ci: case and Latin accents fold, ß is s, PAD SPACE.
		{"utf8mb4_general_ci", "a@example.com", "A@EXAMPLE.COM", 0},
		{"utf8mb4_general_ci", "a", "a ", 0},
		{"utf8mb4_general_ci", "a", "a  ", 0},
		{"utf8mb4_general_ci", "ab", "AB", 0},
		{"utf8mb4_general_ci", "résumé", "RESUME", 0},
		{"utf8mb4_general_ci", "ß", "s", 0},
		{"utf8mb4_general_ci", "ß", "ss", -1},
		{"utf8mb4_general_ci", "Æ", "AE", 1},
		{"utf8mb4_general_ci", "😀", "😁", 0}, // supplementary characters all weigh U+FFFD
		{"utf8mb4_general_ci", "a", "b", -1},
		{"utf8mb4_general_ci", "B", "a", 1},
		{"utf8mb4_general_ci", "_", "z", 1}, // weights are uppercase code points: '_' > 'Z'
		{"utf8mb4_general_ci", "a\t", "a", -1},
		{"utf8mb4_general_ci", "a", "a\t", 1},
		{"utf8mb4_general_ci", "a ", "a\t", 1},
		{"utf8mb4_general_ci", "", " ", 0},
		{"utf8mb4_general_ci", "Straße", "STRASE", 0},
		{"utf8mb3_general_ci", "ÄÖÜ", "aou", 0},
		// utf8mb4_bin: code points, PAD SPACE.
		{"utf8mb4_bin", "a", "A", 1},
		{"utf8mb4_bin", "a", "a ", 0},
		{"utf8mb4_bin", "a\t", "a", -1},
		{"utf8mb4_bin", "é", "f", 1},
		{"utf8mb4_bin", "é ", "é", 0},
		{"utf8mb4_0900_bin", "a", "a ", -1},
		// UCA 4.0.0: accents and case fold, ß is ss, supplementary characters are U+FFFD.
		{"utf8mb4_unicode_ci", "ß", "ss", 0},
		{"utf8mb4_unicode_ci", "Æ", "ae", 1}, // UCA 4.0.0: Æ is a letter of its own
		{"utf8mb4_unicode_ci", "Ą", "a", 0},
		{"utf8mb4_unicode_ci", "a", "a ", 0},
		{"utf8mb4_unicode_ci", "a\t", "a", -1},
		{"utf8mb4_unicode_ci", "😀", "😁", 0},
		{"utf8mb4_unicode_ci", "ａ", "a", 0},  // fullwidth
		{"utf8mb4_unicode_ci", "_", "1", -1}, // punctuation sorts before digits
		{"utf8mb4_unicode_ci", "1", "a", -1},
		{"utf8mb4_unicode_520_ci", "😀", "😁", -1},
		// UCA 9.0.0: NO PAD.
		{"utf8mb4_0900_ai_ci", "ab", "AB", 0},
		{"utf8mb4_0900_ai_ci", "é", "E", 0},
		{"utf8mb4_0900_ai_ci", "a", "a ", -1},
		{"utf8mb4_0900_ai_ci", "ß", "ss", 0},
		{"utf8mb4_0900_ai_ci", "😀", "😁", -1},
		{"utf8mb4_0900_as_ci", "é", "e", 1},
		{"utf8mb4_0900_as_ci", "É", "é", 0},
		{"utf8mb4_0900_as_cs", "a", "A", -1},
		{"utf8mb4_0900_as_cs", "a", "a", 0},
		// latin1 (Windows-1252) and ascii.
		{"latin1_swedish_ci", "abc", "ABC", 0},
		{"latin1_swedish_ci", "é", "E", 0},
		{"latin1_swedish_ci", "Ü", "Y", 0}, // Swedish: Ü is Y
		{"latin1_swedish_ci", "Å", "Z", 1}, // ... and Å Ä Ö follow Z
		{"latin1_swedish_ci", "a", "a ", 0},
		{"latin1_general_ci", "é", "E", 1},
		{"latin1_general_ci", "é", "É", 0},
		{"latin1_general_cs", "a", "A", 1},
		{"latin1_bin", "€", "a", 1}, // € is byte 0x80
		{"latin1_bin", "€", "ÿ", -1},
		{"ascii_general_ci", "Hello", "hELLO ", 0},
		{"ascii_bin", "Hello", "hello", -1},
	}
	for _, c := range cases {
		coll, ok := Lookup(c.coll)
		if !ok {
			t.Fatalf("%s: not found", c.coll)
		}
		if got := coll.Compare(c.a, c.b); got != c.want {
			t.Errorf("%s: compare(%q, %q) = %d, want %d", c.coll, c.a, c.b, got, c.want)
		}
		if got := coll.Compare(c.b, c.a); got != -c.want {
			t.Errorf("%s: compare(%q, %q) = %d, want %d", c.coll, c.b, c.a, got, -c.want)
		}
	}
}

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{
		"UTF8MB4_GENERAL_CI": "utf8mb4_general_ci",
		"utf8_general_ci":    "utf8mb3_general_ci",
		"utf8_bin":           "utf8mb3_bin",
		"latin1_swedish_ci":  "latin1_swedish_ci",
	} {
		c, ok := Lookup(name)
		if !ok || c.Name != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", name, c, ok, want)
		}
	}
	if _, ok := Lookup("utf8mb4_klingon_ci"); ok {
		t.Error("an unknown collation was found")
	}
	if c, _ := Lookup("utf8mb4_0900_bin"); c.SQLiteName() != "BINARY" {
		t.Errorf("utf8mb4_0900_bin is SQLite's %s", c.SQLiteName())
	}
}

// Each collation must be a total order, or SQLite's indexes break: sorting
// samples and comparing every pair must agree (antisymmetry, transitivity).
func TestTotalOrder(t *testing.T) {
	samples := []string{"", " ", "a", "A", "a ", "a\t", "á", "Á", "b", "B", "ß", "ss", "SS", "s", "æ", "ae",
		"😀", "😁", "\uFFFD", "€", "ÿ", "_", "1", "10", "9", "ａ", "\xff", "\xfe", "a\xff", "Zz", "zZ", "Ü", "y", "ı", "i", "I", "İ",
		"a\u0301", "\u00a0", "a\u00a0", "x y", "x  y", "中", "文", "å", "Å", "ø", "Ø", "ö"}
	for _, coll := range All() {
		cmp := coll.NewCompare()
		s := slices.Clone(samples)
		slices.SortStableFunc(s, cmp)
		for i := range s {
			for j := range s {
				got := cmp(s[i], s[j])
				if i < j && got > 0 || i > j && got < 0 {
					t.Errorf("%s: sorted %q before %q but compare says %d", coll.Name, s[i], s[j], got)
				}
				if cmp(s[j], s[i]) != -got {
					t.Errorf("%s: compare(%q, %q) not antisymmetric", coll.Name, s[i], s[j])
				}
			}
		}
		// Equal strings stay equal to everything equal to them.
		for i := range s {
			for j := range s {
				for k := range s {
					if cmp(s[i], s[j]) == 0 && cmp(s[j], s[k]) == 0 && cmp(s[i], s[k]) != 0 {
						t.Errorf("%s: %q = %q = %q but not %q = %q", coll.Name, s[i], s[j], s[k], s[i], s[k])
					}
				}
			}
		}
	}
}

// The cached keys of Latin characters must add up to the key of any string of
// them, or the fast path of the UCA collations would order differently from
// golang.org/x/text/collate.
func TestPrimaryKeysContextFree(t *testing.T) {
	c := collate.New(language.Und, collate.Loose)
	keys := runeKeys()
	var buf collate.Buffer
	for r1 := range rune(keyedLimit) {
		for r2 := range rune(keyedLimit) {
			if !keyed(r1) || !keyed(r2) {
				continue
			}
			buf.Reset()
			whole := c.KeyFromString(&buf, string([]rune{r1, r2}))
			if !bytes.Equal(whole, append(slices.Clone(keys[r1].bytes()), keys[r2].bytes()...)) {
				t.Errorf("key of %q (U+%04X U+%04X) is not its characters' keys", string([]rune{r1, r2}), r1, r2)
			}
		}
	}
}

// The fast path and x/text itself agree on random Latin strings.
func TestUCAFastPath(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aAbBsSß æÆéÉeE\t_-.1 0zZÿ\x00İı")
	gen := func() string {
		n := rnd.IntN(6)
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		return string(r)
	}
	for _, name := range []string{"utf8mb4_0900_ai_ci", "utf8mb4_unicode_520_ci"} {
		coll, _ := Lookup(name)
		cmp := coll.NewCompare()
		ref := collate.New(language.Und, collate.Loose)
		for range 20000 {
			a, b := gen(), gen()
			want := ref.CompareString(a, b)
			if coll.PadSpace {
				want = ref.CompareString(trimPad(a)+" ", trimPad(b)+" ")
				if a == b {
					want = 0
				}
			}
			if got := cmp(a, b); got != want {
				t.Fatalf("%s: compare(%q, %q) = %d, x/text %d", name, a, b, got, want)
			}
		}
	}
}

// The UCA collations' order is golang.org/x/text/collate's tables; schema files
// keep indexes sorted by it, so a dependency upgrade must not change them
// unnoticed (new tables would need REINDEX of every index on such a column).
func TestUCATablesVersion(t *testing.T) {
	if collate.CLDRVersion != "23" || collate.UnicodeVersion != "6.2.0" {
		t.Fatalf("golang.org/x/text/collate has CLDR %s (Unicode %s), not CLDR 23 (Unicode 6.2.0): indexes on _0900_ and _unicode_520_ columns would need REINDEX",
			collate.CLDRVersion, collate.UnicodeVersion)
	}
}
