package join

import (
	"math/rand/v2"
	"time"
)

// CalibrateMemory is the most a reference run (Calibrate) adds to what
// a process holds: it allocates about 16 MiB, some of it garbage before
// the end (RESULTS.md, "Tenth round"). A count takes reference runs only
// where its memory leaves that much beside its own.
const CalibrateMemory = 16 << 20

// Calibrate measures this machine's Prices for kernel k: each kind of
// Work is run on fixed inputs (the same on every machine: random
// patterns of a fixed seed, and a row set of n = 18) for a few
// milliseconds of the calling thread's CPU time, read by clock (the
// caller keeps its goroutine on one thread). It takes about a quarter of
// a second. The inputs are shaped as a long join's: patterns of 36 bits,
// blocks run through thousands of items, lists longer than the level-2
// cache, half boards sorted in the order they are made. Each kind is run
// once before it is timed: a count reuses its buffers, so what a first
// run pays to allocate and fault them in is no part of a unit's price.
func Calibrate(k Kernel, clock func() time.Duration) Prices {
	var p Prices
	r := rand.New(rand.NewPCG(0x63616c69, 0x62726174))
	const m = 36
	// gen returns n random patterns whose bits are each set with
	// chance tenths/10.
	gen := func(n, tenths int) []uint64 {
		out := make([]uint64, n+vecPad)
		for i := range n {
			var x uint64
			for b := range m {
				if r.IntN(10) < tenths {
					x |= 1 << uint(b)
				}
			}
			out[i] = x
		}
		return out[:n]
	}
	// price runs f once untimed, then until it has taken at least 5 ms,
	// and returns the CPU time per unit of Work, each run of f doing as
	// many units as it returns from its first.
	price := func(f func() float64) float64 {
		units := f()
		var n int
		t0 := clock()
		var d time.Duration
		for d < 5*time.Millisecond || n < 2 {
			f()
			n++
			d = clock() - t0
		}
		return float64(d) / (float64(n) * units)
	}
	blk := newBlock()
	pats := gen(blockSize, 3)
	items := gen(1<<18, 3) // 2 MiB: beyond level 2
	var sink uint64
	large := layoutOf(m, largeItems)
	k.build(blk, pats, m, large)
	p.Large = price(func() float64 { sink += k.count(blk, items); return float64(len(items) * large.nch) })
	p.Builds = price(func() float64 { k.build(blk, pats, m, large); return float64(large.entries()) })
	small := layoutOf(m, 1000)
	k.build(blk, pats, m, small)
	few := items[:1000]
	p.Small = price(func() float64 { sink += k.count(blk, few); return float64(len(few) * small.nch) })
	k.build(blk, pats[:blockSize/2], m, small)
	p.Half = price(func() float64 { sink += k.half(blk, few); return float64(len(few) * small.nch) })
	short := gen(directMax, 3)
	p.Direct = price(func() float64 { sink += k.pairs(short, items[:4096]); return float64(len(short) * 4096) })
	// The key choice: deep keys weighed for a 12-bit index, greedy ones
	// for an 8-bit one, on parts of the items.
	s := &scratch{k: k}
	p.Weighed = price(func() float64 {
		w0 := s.stat.weighed
		kr, _ := s.deepKeys(items[:1<<16], items[1<<16:3<<15], 12, m, maxIndexBits, 1, 1, 1, 1)
		kc, _ := s.chooseKeys(items[:1<<14], items[1<<14:3<<13], 8, m, 1, 1)
		sink += kr.chosen ^ kc.chosen
		return float64(s.stat.weighed - w0)
	})
	// Sorting: half boards as the join makes them, each north part's
	// diagonals with every south part's in turn, so that neighbours
	// share most of their key, under a 9-bit key of one run of bits (the
	// likeliest shared diagonals are neighbours), as n = 22's lists
	// take. Random patterns under a scattered key sort about 1.8 times
	// as fast as the join's own lists, these about 0.85 times (RESULTS.md,
	// "Twelfth round"). They take the items' place: nothing after reads
	// the items.
	north, south := gen(512, 1), gen(512, 2)
	made := items[:0]
	for _, a := range north {
		for _, b := range south {
			made = append(made, a|b)
		}
	}
	kh, _ := newKeyer([]int{12, 13, 14, 15, 16, 17, 18, 19, 20}, m)
	p.Sorted = price(func() float64 {
		s.ie, s.ke, s.ce = bucket(&s.k, &kh, made, 1<<9, s.ie, s.ke, s.ce)
		return float64(len(made))
	})
	// Steps: one pattern a bucket (pair by pair), no items.
	ones := make([]uint64, 1<<12+vecPad)
	ce := make([]int32, 1<<12+1)
	for i := range ce {
		ce[i] = int32(i)
	}
	cw := make([]int32, 1<<12+1)
	p.Steps = price(func() float64 {
		n, _ := s.joinEach(ones, ce, ones, cw, 12, m)
		sink += n
		return 531441 // 3^12 bucket pairs
	})
	// Row lists and half boards: a row set of n = 18 on the bounded
	// path.
	p.Rows, p.Halves = calibrateRows(k, price)
	if sink == 1 {
		p.Steps++ // keeps the counts from being optimised away
	}
	return p
}

// calibrateRows prices row-list entries and half boards on a middle row
// set of a middle task of n = 18.
func calibrateRows(k Kernel, price func(func() float64) float64) (rows, halves float64) {
	l, err := NewLayout(Even(18), 0)
	if err != nil {
		return 0, 0
	}
	g := l.Geometry
	f, err := newFrame(l.Frames[0].Board(g.N), g, &quadTable{h: g.HN, q: g.Q}, &quadTable{h: g.HS, q: g.Q})
	if err != nil {
		return 0, 0
	}
	t := l.Task(l.Len() / 2)
	rbs := l.southSets(f, t, nil)
	rb := rbs[len(rbs)/2]
	s := &bscratch{k: k, capacity: 1 << 20}
	s.ls.k = k
	rows = price(func() float64 {
		s.north[1].build(g.HN, f.q, t.Top, f.ce, f.att[ne])
		s.north[0].build(g.HN, f.q, f.ft&^t.Top, f.cw, f.att[nw])
		s.south[1].build(g.HS, f.q, rb, f.ce, f.att[se])
		s.south[0].build(g.HS, f.q, f.fb&^rb, f.cw, f.att[sw])
		return float64(max(s.north[0].size()+s.north[1].size()+s.south[0].size()+s.south[1].size(), 1))
	})
	east := f.makeSide(&f.sides[1], &s.north[1], &s.south[1], nil)
	halves = price(func() float64 {
		var made int
		_, _ = f.genFrom(&east, &genPos{}, s, func(p []uint64) bool { made += len(p); return true })
		return float64(max(made, 1))
	})
	return rows, halves
}
