// Command growth draws RESULTS.md's chart of what a count costs per n
// (docs/growth.svg): the join's core-hours as `nqueens estimate --json`
// reported them, with their 95% intervals, beside the constellation
// backtracker's projection and the published GPU figures:
//
//	go run ./scripts/growth est/g19.json ... est/full28.json > docs/growth.svg
//
// The backtracker's line is its measured n = 18 (RESULTS.md, "The join
// method") scaled by Q(n)/Q(18): its cost grows as the solutions do. The
// GPU points are published, not measured here: Q(27) in 28.4 days on 8
// RTX 5090s, Q(28) projected at 2,200-2,700 GPU-days.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
)

// point is one n's cost in hours, with its interval.
type point struct {
	n             int
	est, low, hig float64
}

// backtrack18 is the constellation backtracker's CPU seconds at n = 18 on
// one Zen 4 core (RESULTS.md, "The join method", the median of three).
const backtrack18 = 38.09

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "growth:", err)
		os.Exit(1)
	}
}

func run(files []string, w io.Writer) error {
	if len(files) == 0 {
		return fmt.Errorf("usage: growth ESTIMATE.json [...]")
	}
	var join []point
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var r struct {
			N         int `json:"n"`
			CoreHours struct {
				Estimate, Low, High float64
			} `json:"core_hours"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %v", f, err)
		}
		join = append(join, point{r.N, r.CoreHours.Estimate, r.CoreHours.Low, r.CoreHours.High})
	}
	slices.SortFunc(join, func(a, b point) int { return a.n - b.n })
	// The backtracker: Q(n)/Q(18) times its n = 18; past the known
	// values, Q(28) ≈ 11·Q(27) (the ratio of the last known terms).
	q18, _ := queens.Known(18)
	var back []point
	for n := 19; n <= 28; n++ {
		q, ok := queens.Known(n)
		qf := float64(q)
		if !ok {
			q27, _ := queens.Known(27)
			qf = float64(q27) * 11
		}
		h := backtrack18 * qf / float64(q18) / 3600
		back = append(back, point{n, h, h, h})
	}
	gpu := []point{{27, 28.4 * 24 * 8, 28.4 * 24 * 8, 28.4 * 24 * 8}, {28, 2450 * 24, 2200 * 24, 2700 * 24}}
	draw(w, join, back, gpu)
	return nil
}

func draw(w io.Writer, join, back, gpu []point) {
	const (
		width, height                 = 720, 440
		left, right, top, bot         = 80, 200, 30, 50
		n0, n1                        = 19, 28
		lo, hi                float64 = -3, 9 // log10 hours
	)
	x := func(n int) float64 { return left + float64(n-n0)*(width-left-right)/float64(n1-n0) }
	y := func(h float64) float64 {
		l := math.Log10(math.Max(h, 1e-4))
		return top + (hi-l)*(height-top-bot)/(hi-lo)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	for e := int(lo); e <= int(hi); e++ {
		yy := y(math.Pow(10, float64(e)))
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, width-right, yy, yy)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">1e%d</text>`+"\n", left-6, yy+4, e)
	}
	for n := n0; n <= n1; n++ {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(n), height-bot+18, n)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">n</text>`+"\n", (left+width-right)/2, height-8)
	fmt.Fprintf(&b, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">hours of one core (or one GPU), log scale</text>`+"\n", (top+height-bot)/2)
	series := func(ps []point, color, dash, label string, ly int) {
		var path []string
		for _, p := range ps {
			path = append(path, fmt.Sprintf("%.1f,%.1f", x(p.n), y(p.est)))
			if p.hig > p.low {
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`+"\n", x(p.n), x(p.n), y(p.low), y(p.hig), color)
			}
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(p.n), y(p.est), color)
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"/>`+"\n", strings.Join(path, " "), color, dash)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"/>`+"\n", width-right+12, width-right+36, ly, ly, color, dash)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", width-right+42, ly+4, label)
	}
	series(join, "#1f5fbf", "none", "join, estimated (Zen 4)", top+10)
	series(back, "#c05020", "6 3", "backtracker, projected", top+30)
	series(gpu, "#208040", "2 3", "GPU, published", top+50)
	b.WriteString("</svg>\n")
	io.WriteString(w, b.String())
}
