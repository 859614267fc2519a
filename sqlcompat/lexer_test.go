package sqlcompat

import (
	"reflect"
	"testing"
)

func TestLexStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`'abc'`, "abc"},
		{`"abc"`, "abc"},
		{`'it''s'`, "it's"},
		{`"say ""hi"""`, `say "hi"`},
		{`'a\'b'`, "a'b"},
		{`'a\"b'`, `a"b`},
		{`'\0\b\n\r\t\Z\\'`, "\x00\b\n\r\t\x1a\\"},
		{`'100\%\_'`, `100\%\_`},
		{`'\q'`, "q"},
		{`_utf8mb4'x'`, "x"},
		{`N'x'`, "x"},
	}
	for _, tt := range tests {
		toks, err := lex(tt.in)
		if err != nil || len(toks) != 1 || toks[0].kind != tkString || toks[0].val != tt.want {
			t.Errorf("lex(%s) = %+v, %v; want string %q", tt.in, toks, err, tt.want)
		}
	}
}

func TestLexKinds(t *testing.T) {
	tests := []struct {
		in    string
		kinds []tokKind
		vals  []string
	}{
		{"`a``b` x", []tokKind{tkQuotedIdent, tkIdent}, []string{"a`b", "x"}},
		{"1e5 .5 12.5 1.5e-3", []tokKind{tkNumber, tkNumber, tkNumber, tkNumber}, nil},
		{"0x1F 0xABC X'0a'", []tokKind{tkHexString, tkHexString, tkHexString}, []string{"1F", "0ABC", "0a"}},
		{"x'ab' X'CD' b'01' 0b11", []tokKind{tkHexString, tkHexString, tkBitString, tkBitString}, []string{"ab", "CD", "01", "11"}},
		{"@u @@global.Max_Conn @@x @'q'", []tokKind{tkUserVar, tkSysVar, tkSysVar, tkUserVar}, []string{"u", "global.max_conn", "x", "q"}},
		{"? <=> != := || -> ->>", []tokKind{tkParam, tkOp, tkOp, tkOp, tkOp, tkOp, tkOp}, []string{"", "<=>", "!=", ":=", "||", "->", "->>"}},
		{"a -- c\n b # d\n c /* e */ d", []tokKind{tkIdent, tkIdent, tkIdent, tkIdent}, nil},
		{"5--3", []tokKind{tkNumber, tkOp, tkOp, tkNumber}, nil},
		{"/*!40101 SET x */ /*!SET*/ /*M!100 y*/ /*!90000 z */", []tokKind{tkIdent, tkIdent, tkIdent}, nil},
		{"t.c", []tokKind{tkIdent, tkOp, tkIdent}, nil},
	}
	for _, tt := range tests {
		toks, err := lex(tt.in)
		if err != nil {
			t.Errorf("lex(%q): error at %d", tt.in, err.pos)
			continue
		}
		var kinds []tokKind
		var vals []string
		for _, tok := range toks {
			kinds = append(kinds, tok.kind)
			vals = append(vals, tok.val)
		}
		if !reflect.DeepEqual(kinds, tt.kinds) || tt.vals != nil && !reflect.DeepEqual(vals, tt.vals) {
			t.Errorf("lex(%q) kinds %v vals %q; want %v %q", tt.in, kinds, vals, tt.kinds, tt.vals)
		}
	}
}

func TestLexErrors(t *testing.T) {
	for _, in := range []string{"'abc", `"abc`, "`abc", "/* x", "x'ab"} {
		if _, err := lex(in); err == nil {
			t.Errorf("lex(%q): no error", in)
		}
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}},
		{"SELECT 'a;b'; SELECT \"c;d\"", []string{"SELECT 'a;b'", `SELECT "c;d"`}},
		{"SELECT 'it\\';s'; x", []string{"SELECT 'it\\';s'", "x"}},
		{"SELECT `a;b` FROM t;;  ; ", []string{"SELECT `a;b` FROM t"}},
		{"SELECT 1 -- c;d\n; SELECT 2 # e;f\n", []string{"SELECT 1 -- c;d", "SELECT 2 # e;f"}},
		{"/*!40101 SET a=1; */; SELECT /* ; */ 3", []string{"/*!40101 SET a=1; */", "SELECT /* ; */ 3"}},
		{"", nil},
		{"SELECT 'unterminated;", []string{"SELECT 'unterminated;"}},
	}
	for _, tt := range tests {
		if got := Split(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
