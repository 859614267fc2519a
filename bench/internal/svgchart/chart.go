package svgchart

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Series is one system: a bar in every group (NaN leaves the slot empty).
type Series struct {
	Name   string
	Color  string
	Values []float64 // one per Panel.XLabels entry
	// Low and High, if set, draw a whisker from Low[i] to High[i] on bar i
	// (e.g. the smallest and largest of the repeats).
	Low, High []float64
}

// RefLine is a horizontal line across a panel, e.g. a limit or a target.
type RefLine struct {
	Name   string
	Color  string
	Value  float64
	Dashed bool
}

// Panel is one plot: groups of bars along x.
type Panel struct {
	Title   string
	XLabels []string
	XNotes  []string // optional lines ("\n"-separated) under each x label
	Series  []Series
	Lines   []RefLine
}

// Chart is a row of panels with one title, axis labels and a legend.
type Chart struct {
	Title    string
	Subtitle string // "\n" starts another line
	XLabel   string
	YLabel   string
	Panels   []Panel
	Footer   []string
	// PanelWidth and PanelHeight are the size of each panel's plot area in pixels
	// (defaults 440 × 300).
	PanelWidth, PanelHeight int
}

const font = `font-family="DejaVu Sans, Helvetica, Arial, sans-serif"`

// halo keeps a label readable over a line: a white outline painted under the glyphs.
const halo = `stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`

// SVG renders the chart.
func (c Chart) SVG() []byte {
	pw, ph := c.PanelWidth, c.PanelHeight
	if pw == 0 {
		pw = 440
	}
	if ph == 0 {
		ph = 300
	}
	const (
		left    = 78 // y tick labels and y axis label
		gap     = 40 // between panels
		right   = 20 // right margin
		titleH  = 56 // title and subtitle
		legendH = 34 // legend row
		ptitleH = 26 // panel title
		bottomH = 86 // x tick labels, two lines of notes, x axis label
		lineH   = 16 // footer line
	)
	np := max(len(c.Panels), 1)
	width := left + np*pw + (np-1)*(gap+left-30) + right
	height := titleH + legendH + ptitleH + ph + bottomH + len(c.Footer)*lineH + 10 + max(strings.Count(c.Subtitle, "\n"), 0)*16
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="24" %s font-size="18" font-weight="bold" text-anchor="middle" fill="#222">%s</text>`+"\n", width/2, font, esc(c.Title))
	sub := []string{}
	if c.Subtitle != "" {
		sub = strings.Split(c.Subtitle, "\n")
	}
	for i, line := range sub {
		fmt.Fprintf(&b, `<text x="%d" y="%d" %s font-size="12" text-anchor="middle" fill="#555">%s</text>`+"\n", width/2, 44+i*16, font, esc(line))
	}
	extra := max(len(sub)-1, 0) * 16
	c.legend(&b, width, titleH+extra)
	top := titleH + extra + legendH + ptitleH
	for i, p := range c.Panels {
		x0 := left + i*(pw+gap+left-30)
		c.panel(&b, p, x0, top, pw, ph)
	}
	for i, f := range c.Footer {
		fmt.Fprintf(&b, `<text x="12" y="%d" %s font-size="11" fill="#555">%s</text>`+"\n", top+ph+bottomH+i*lineH+6, font, esc(f))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// legend lists every series and reference line once, centred.
func (c Chart) legend(b *bytes.Buffer, width, y int) {
	type item struct {
		name, color  string
		line, dashed bool
	}
	var items []item
	seen := map[string]bool{}
	for _, p := range c.Panels {
		for _, s := range p.Series {
			if !seen[s.Name] {
				seen[s.Name] = true
				items = append(items, item{name: s.Name, color: s.Color})
			}
		}
		for _, l := range p.Lines {
			if !seen[l.Name] {
				seen[l.Name] = true
				items = append(items, item{name: l.Name, color: l.Color, line: true, dashed: l.Dashed})
			}
		}
	}
	const sw, pad = 26, 22
	total := 0
	for _, it := range items {
		total += sw + 6 + textWidth(it.name, 12) + pad
	}
	x := (width - total + pad) / 2
	cy := y + 14
	for _, it := range items {
		if it.line {
			dash := ""
			if it.dashed {
				dash = ` stroke-dasharray="6,4"`
			}
			fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5"%s/>`+"\n", x, cy, x+sw, cy, it.color, dash)
		} else {
			fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="12" fill="%s"/>`+"\n", x, cy-6, sw, it.color)
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" %s font-size="12" fill="#222">%s</text>`+"\n", x+sw+6, cy+4, font, esc(it.name))
		x += sw + 6 + textWidth(it.name, 12) + pad
	}
}

func (c Chart) panel(b *bytes.Buffer, p Panel, x0, y0, w, h int) {
	ymax := 0.0
	for _, s := range p.Series {
		for _, vs := range [][]float64{s.Values, s.High} {
			for _, v := range vs {
				if !math.IsNaN(v) {
					ymax = math.Max(ymax, v)
				}
			}
		}
	}
	for _, l := range p.Lines {
		ymax = math.Max(ymax, l.Value)
	}
	top, step := niceScale(ymax * 1.08)
	yOf := func(v float64) float64 { return float64(y0+h) - v/top*float64(h) }

	fmt.Fprintf(b, `<text x="%d" y="%d" %s font-size="14" font-weight="bold" text-anchor="middle" fill="#222">%s</text>`+"\n", x0+w/2, y0-10, font, esc(p.Title))
	// grid and y ticks
	for v := 0.0; v <= top+step/2; v += step {
		y := yOf(v)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e3e3e3" stroke-width="1"/>`+"\n", x0, y, x0+w, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" %s font-size="11" text-anchor="end" fill="#444">%s</text>`+"\n", x0-6, y+4, font, esc(FormatCount(v)))
	}
	// y axis label
	yl := float64(y0) + float64(h)/2
	fmt.Fprintf(b, `<text x="%d" y="%.1f" %s font-size="12" text-anchor="middle" fill="#222" transform="rotate(-90 %d %.1f)">%s</text>`+"\n", x0-52, yl, font, x0-52, yl, esc(c.YLabel))
	// bars, then the reference lines over them, then every label on top
	var labels, whiskers bytes.Buffer
	ng := max(len(p.XLabels), 1)
	gw := float64(w) / float64(ng)
	ns := max(len(p.Series), 1)
	bw := gw * 0.72 / float64(ns)
	for g := 0; g < ng; g++ {
		gx := float64(x0) + gw*float64(g) + gw*0.14
		for si, s := range p.Series {
			if g >= len(s.Values) || math.IsNaN(s.Values[g]) {
				continue
			}
			v := s.Values[g]
			bx := gx + bw*float64(si)
			y := yOf(v)
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`+"\n",
				bx+1, y, bw-2, float64(y0+h)-y, s.Color, esc(s.Name), esc(p.XLabels[g]), esc(strconv.FormatFloat(v, 'f', 0, 64)))
			labelY := y - 4
			if g < len(s.Low) && g < len(s.High) && !math.IsNaN(s.Low[g]) && !math.IsNaN(s.High[g]) {
				lo, hi, cx := yOf(s.Low[g]), yOf(s.High[g]), bx+bw/2
				fmt.Fprintf(&whiskers, `<path d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f" stroke="#333" stroke-width="1.2" fill="none"/>`+"\n",
					cx, lo, hi, cx-4, lo, cx+4, cx-4, hi, cx+4)
				labelY = math.Min(labelY, hi-4)
			}
			fmt.Fprintf(&labels, `<text x="%.1f" y="%.1f" %s font-size="10.5" text-anchor="middle" fill="#222" %s>%s</text>`+"\n", bx+bw/2, labelY, font, halo, esc(FormatCount(v)))
		}
		cx := float64(x0) + gw*(float64(g)+0.5)
		fmt.Fprintf(&labels, `<text x="%.1f" y="%d" %s font-size="12" text-anchor="middle" fill="#222">%s</text>`+"\n", cx, y0+h+18, font, esc(p.XLabels[g]))
		if g < len(p.XNotes) {
			for i, line := range strings.Split(p.XNotes[g], "\n") {
				fmt.Fprintf(&labels, `<text x="%.1f" y="%d" %s font-size="10.5" text-anchor="middle" fill="#555">%s</text>`+"\n", cx, y0+h+33+i*13, font, esc(line))
			}
		}
	}
	// reference lines, labelled at their left end (where the bars of the smallest x usually are low)
	for _, l := range p.Lines {
		y := yOf(l.Value)
		dash := ""
		if l.Dashed {
			dash = ` stroke-dasharray="6,4"`
		}
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", x0, y, x0+w, y, l.Color, dash)
		fmt.Fprintf(&labels, `<text x="%d" y="%.1f" %s font-size="10.5" text-anchor="start" fill="%s" %s>%s</text>`+"\n", x0+4, y-4, font, l.Color, halo, esc(FormatCount(l.Value)))
	}
	b.Write(whiskers.Bytes())
	b.Write(labels.Bytes())
	// axes
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#222" stroke-width="1.2"/>`+"\n", x0, y0, x0, y0+h)
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#222" stroke-width="1.2"/>`+"\n", x0, y0+h, x0+w, y0+h)
	fmt.Fprintf(b, `<text x="%d" y="%d" %s font-size="12" text-anchor="middle" fill="#222">%s</text>`+"\n", x0+w/2, y0+h+72, font, esc(c.XLabel))
}

// niceScale picks an axis top ≥ v and a tick step of 1, 2 or 5 × 10^n, 4–8 ticks.
func niceScale(v float64) (top, step float64) {
	if v <= 0 || math.IsNaN(v) {
		return 1, 0.2
	}
	raw := v / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		if v/step <= 7 {
			break
		}
	}
	return math.Ceil(v/step) * step, step
}

// FormatCount writes 950, 12.3k, 120k, 1.5M.
func FormatCount(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return trim(strconv.FormatFloat(v/1e6, 'f', 1, 64)) + "M"
	case a >= 1e5:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "k"
	case a >= 1e3:
		return trim(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "k"
	default:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
}

func trim(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// textWidth estimates the rendered width of s in a sans-serif font of size px.
func textWidth(s string, px float64) int {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ' || r == '.' || r == ',' || r == 'i' || r == 'l' || r == '(' || r == ')':
			w += 0.32
		case r >= 'A' && r <= 'Z':
			w += 0.68
		default:
			w += 0.56
		}
	}
	return int(w * px)
}

func esc(s string) string { return html.EscapeString(s) }
