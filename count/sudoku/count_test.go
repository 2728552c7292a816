package sudoku

import (
	"context"
	"testing"
)

// refCount is a slow, obviously correct reference counter for an n x n
// sudoku (n = bw*bh) with boxes bw wide and bh high: plain backtracking over
// the cells in order, with a mask of used digits per row, column and box.
func refCount(g []uint8, bw, bh int) uint64 {
	n := bw * bh
	row, col, box := make([]uint32, n), make([]uint32, n), make([]uint32, n)
	boxOf := func(i int) int { return i/n/bh*bh + i%n/bw }
	for i, v := range g {
		if v != 0 {
			row[i/n] |= 1 << v
			col[i%n] |= 1 << v
			box[boxOf(i)] |= 1 << v
		}
	}
	var rec func(i int) uint64
	rec = func(i int) uint64 {
		for i < len(g) && g[i] != 0 {
			i++
		}
		if i == len(g) {
			return 1
		}
		r, c, b := i/n, i%n, boxOf(i)
		var total uint64
		for d := 1; d <= n; d++ {
			m := uint32(1) << d
			if (row[r]|col[c]|box[b])&m != 0 {
				continue
			}
			row[r], col[c], box[b] = row[r]|m, col[c]|m, box[b]|m
			g[i] = uint8(d)
			total += rec(i + 1)
			g[i] = 0
			row[r], col[c], box[b] = row[r]&^m, col[c]&^m, box[b]&^m
		}
		return total
	}
	return rec(0)
}

func TestRefCount4x4(t *testing.T) {
	if got := refCount(make([]uint8, 16), 2, 2); got != 288 {
		t.Fatalf("reference counter: %d completed 4x4 grids, want 288", got)
	}
}

// manySolutions is a solved grid with only its first band and first stack
// kept: 2,995 solutions.
const manySolutions = "468931527751624839392578461134......289......675......846......513......927......"

// nearEmpty has its first row only: about 1.1e16 solutions.
const nearEmpty = "123456789" + "........................................................................"

func TestCountAgainstReference(t *testing.T) {
	for _, p := range []string{
		manySolutions,
		// An edge case with 633 solutions.
		".......8...6.8.1..7....3..4.47..5...5..34............53....4..7......9...1.9...6.",
	} {
		p := p
		for len(p) < 81 {
			p += "."
		}
		g, err := Parse(p)
		if err != nil {
			t.Fatal(err)
		}
		gs := g
		want := refCount(gs[:], 3, 3)
		for _, opt := range []CountOptions{{Workers: 1}, {Workers: 2}, {Workers: 2, Tasks: 100}} {
			w := opt.Workers
			res, err := Count(context.Background(), g, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count.Lo != want || res.Count.Hi != 0 {
				t.Errorf("%s workers=%d: Count %s, reference %d", p, w, res.Count, want)
			}
			if want > 0 && (res.Solution == nil || !isSolutionOf(*res.Solution, g)) {
				t.Errorf("%s: no valid solution returned", p)
			}
		}
		if n, _ := Solve(g, 1<<62); n != want {
			t.Errorf("%s: Solve %d, reference %d", p, n, want)
		}
		t.Logf("%s: %d solutions", p, want)
	}
}

func TestCountLimitAndCancel(t *testing.T) {
	g, _ := Parse(nearEmpty)
	res, err := Count(context.Background(), g, CountOptions{Limit: 1000})
	if err != nil || !res.LimitReached || res.Count.Lo != 1000 {
		t.Fatalf("limit 1000: %+v, %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var empty Grid
	if _, err := Count(ctx, empty, CountOptions{}); err != context.Canceled {
		t.Fatalf("cancelled count of the empty grid: err %v, want context.Canceled", err)
	}
}

func TestCountSergEdge(t *testing.T) {
	as := append(loadAnswers(t, "edge-cases.answers.txt"), sample(loadAnswers(t, "serg-multi.answers.txt"), 200)...)
	for i, a := range as {
		res, err := Count(context.Background(), a.puzzle, CountOptions{Tasks: 8})
		if err != nil {
			t.Fatal(err)
		}
		if res.Count.Lo != a.count {
			t.Errorf("puzzle %d %s: Count %s, want %d", i+1, a.puzzle, res.Count, a.count)
		}
	}
}
