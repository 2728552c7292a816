package report

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
)

// Point is one measurement on a chart.
type Point struct{ X, Y float64 }

// Series is one line of a chart.
type Series struct {
	Name   string
	Points []Point
	Dashed bool // for reference lines (ideal speed-up)
}

// Chart is a line chart with integer x ticks (board sizes, worker counts)
// and a linear or logarithmic y axis.
type Chart struct {
	Title, XLabel, YLabel string
	LogY                  bool
	Series                []Series
}

// palette is Okabe and Ito's colour-blind safe set.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"}

const (
	width, height          = 640, 400
	left, right, top, bott = 72, 16, 40, 52
)

// SVG renders the chart as a standalone SVG document. The output depends
// only on the chart, so it can be compared in tests and diffs.
func (c *Chart) SVG() []byte {
	var b bytes.Buffer
	pf := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	xmin, xmax, ymin, ymax := c.bounds()
	if c.LogY {
		ymin = math.Pow(10, math.Floor(math.Log10(ymin)))
		ymax = math.Pow(10, math.Ceil(math.Log10(ymax)))
	} else {
		// Headroom above the highest point, rounded to a tick.
		step := niceCeil(ymax / 5)
		ymin, ymax = 0, math.Ceil(ymax*1.05/step)*step
	}
	pw, ph := float64(width-left-right), float64(height-top-bott)
	pad := 0.04 * pw // keeps the end points off the frame
	sx := func(x float64) float64 {
		if xmax == xmin {
			return float64(left) + pw/2
		}
		return float64(left) + pad + (x-xmin)/(xmax-xmin)*(pw-2*pad)
	}
	sy := func(y float64) float64 {
		if c.LogY {
			return float64(top) + ph - (math.Log10(y)-math.Log10(ymin))/(math.Log10(ymax)-math.Log10(ymin))*ph
		}
		return float64(top) + ph - (y-ymin)/(ymax-ymin)*ph
	}
	pf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	pf(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	pf(`<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, esc(c.Title))
	// Grid and y ticks.
	for _, y := range c.yTicks(ymin, ymax) {
		py := sy(y)
		pf(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", left, py, width-right, py)
		pf(`<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-6, py, esc(tickLabel(y)))
	}
	// x ticks: integers, thinned to at most 16.
	step := math.Max(1, math.Ceil((xmax-xmin+1)/16))
	for x := math.Ceil(xmin); x <= xmax; x += step {
		px := sx(x)
		pf(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", px, top, px, height-bott)
		pf(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", px, height-bott+16, strconv.FormatFloat(x, 'f', -1, 64))
	}
	pf(`<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	pf(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", float64(left)+pw/2, height-12, esc(c.XLabel))
	pf(`<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", float64(top)+ph/2, esc(c.YLabel))
	// Lines and markers, then the legend on a white box above them.
	style := func(i int) (col, dash string) {
		if c.Series[i].Dashed {
			return "#777", ` stroke-dasharray="6 4"`
		}
		return palette[i%len(palette)], ""
	}
	for i, s := range c.Series {
		col, dash := style(i)
		var pts bytes.Buffer
		for _, p := range s.Points {
			if c.LogY && p.Y <= 0 {
				continue
			}
			fmt.Fprintf(&pts, "%.1f,%.1f ", sx(p.X), sy(p.Y))
		}
		pf(`<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", col, dash, bytes.TrimSpace(pts.Bytes()))
		for _, p := range s.Points {
			if !s.Dashed && !(c.LogY && p.Y <= 0) {
				pf(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", sx(p.X), sy(p.Y), col)
			}
		}
	}
	if len(c.Series) > 0 {
		pf(`<rect x="%d" y="%d" width="%d" height="%d" fill="white" fill-opacity="0.85" stroke="#ccc"/>`+"\n",
			left+4, top+4, legendWidth(c.Series), 16*len(c.Series)+4)
	}
	for i, s := range c.Series {
		col, dash := style(i)
		ly := top + 14 + 16*i
		pf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", left+10, ly, left+30, ly, col, dash)
		pf(`<text x="%d" y="%d" dominant-baseline="middle">%s</text>`+"\n", left+36, ly, esc(s.Name))
	}
	pf("</svg>\n")
	return b.Bytes()
}

func (c *Chart) bounds() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, s := range c.Series {
		for _, p := range s.Points {
			if c.LogY && p.Y <= 0 {
				continue
			}
			xmin, xmax = math.Min(xmin, p.X), math.Max(xmax, p.X)
			ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
		}
	}
	if math.IsInf(xmin, 1) { // no points
		return 0, 1, 1, 10
	}
	if ymin == ymax {
		ymin, ymax = ymin/2, ymax*2
		if ymax == 0 {
			ymax = 1
		}
	}
	return
}

// legendWidth is a rough width for the legend box: 7 px per character.
func legendWidth(ss []Series) int {
	w := 0
	for _, s := range ss {
		w = max(w, len([]rune(s.Name)))
	}
	return 40 + 7*w
}

// yTicks returns decades on a log axis (with 2 and 5 times each decade
// when the axis spans three decades or less), about five round steps on a
// linear one.
func (c *Chart) yTicks(lo, hi float64) []float64 {
	var t []float64
	if c.LogY {
		mults := []float64{1}
		if hi/lo <= 1001 {
			mults = []float64{1, 2, 5}
		}
		for y := lo; y <= hi*1.0001; y *= 10 {
			for _, m := range mults {
				if m*y <= hi*1.0001 {
					t = append(t, m*y)
				}
			}
		}
		return t
	}
	step := niceCeil(hi / 5)
	for y := lo; y <= hi+step/1e6; y += step {
		t = append(t, y)
	}
	return t
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// tickLabel writes 1e9 as "1G", 2.5 as "2.5".
func tickLabel(v float64) string {
	for _, u := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if math.Abs(v) >= u.f {
			return strconv.FormatFloat(v/u.f, 'g', 3, 64) + u.s
		}
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func esc(s string) string { return html.EscapeString(s) }
