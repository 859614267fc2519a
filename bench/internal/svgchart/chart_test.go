package svgchart

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

func TestSVGIsWellFormed(t *testing.T) {
	c := Chart{
		Title: "a & b <c>", XLabel: "threads", YLabel: "tps",
		Panels: []Panel{{
			Title: "p", XLabels: []string{"1", "16"}, XNotes: []string{"2× x", ""},
			Series: []Series{{Name: "s1", Color: "#000", Values: []float64{1000, 20000}}, {Name: "s2", Color: "#111", Values: []float64{math.NaN(), 5}}},
			Lines:  []RefLine{{Name: "limit", Color: "#0a0", Value: 25000, Dashed: true}},
		}},
		Footer: []string{"cmd --x"},
	}
	svg := c.SVG()
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
	}
	if !strings.Contains(string(svg), "a &amp; b &lt;c&gt;") {
		t.Fatal("title not escaped")
	}
}

func TestNiceScaleAndFormat(t *testing.T) {
	top, step := niceScale(27000)
	if top < 27000 || step <= 0 || top/step > 8 {
		t.Fatalf("niceScale(27000) = %v, %v", top, step)
	}
	for v, want := range map[float64]string{950: "950", 12345: "12.3k", 20000: "20k", 123456: "123k", 1.5e6: "1.5M"} {
		if got := FormatCount(v); got != want {
			t.Errorf("FormatCount(%v) = %q, want %q", v, got, want)
		}
	}
}
