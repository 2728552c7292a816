package join

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// A join's own index bits. The frame's (initKeys) are the diagonals most
// likely taken by both halves of any row set; but the half boards of one
// row set (their queens on given rows) take some diagonals far more often
// than the frame's estimate says, and the bits that prune the most pairs
// differ from one row set to another. So a long join chooses its bits on
// samples of its two lists, greedily: each bit in turn the one that
// leaves the kernels the least work, the blocks of each bucket of the
// blocks' side (a last partial block at its kernel's cost) times the
// items they are run through, among the bits that keep the key to
// keyRuns runs. On random tasks of n = 20 and 22 that cut the kernels'
// work by about a third against the frame's bits (RESULTS.md).

// keyChoiceWork is the least product of the two lists' lengths for which
// a join chooses its own index bits: below it the choice costs more than
// it saves (a variable for tests).
var keyChoiceWork = float64(1 << 29)

// keySampleLen is the most patterns of each list the choice looks at.
const keySampleLen = 1024

// keyGreedyBits is the most bits chosen by their cost on the samples,
// in at most greedyRuns runs (the choice of the 12-bit keys measured at
// n = 20 and 22); deeper ones by how often both samples take them, in up
// to keyRuns runs.
const (
	keyGreedyBits = 12
	greedyRuns    = 3
)

// keyCandidates is how many of the bits most often taken by both lists
// the choice tries at every step, beside the neighbours of those chosen.
const keyCandidates = 8

// keySample is what chooseKeys works on: each list's sample and the
// sample's keys so far, and the buckets' counts.
type keySample struct {
	e, w   []uint64
	de, dw []uint64 // deepKeys' larger samples
	ke, kw []uint32
	he, hw []float64
	// deepKeys' counts by key, in the order the bits were chosen (oe,
	// ow) and as the keyer orders them (se, sw), and the buckets' sizes.
	oe, ow, se, sw []uint32
	fe, fw         []float64
}

// sample appends to out about keySampleLen patterns of pats, evenly
// spaced, and returns it with the number of patterns each stands for.
func sample(pats, out []uint64) ([]uint64, float64) {
	step := max(1, len(pats)/keySampleLen)
	for i := 0; i < len(pats); i += step {
		out = append(out, pats[i])
	}
	return out, float64(len(pats)) / float64(len(out))
}

// runs returns the runs of consecutive bits of x.
func runs(x uint64) int { return bits.OnesCount64(x &^ (x << 1)) }

// chooseKeys returns the keyer of the k index bits, of patterns of m
// bits, that leave the join of e (the blocks' side) and w the least work,
// chosen greedily on samples of both; false when fewer than k bits prune
// at all. e and w may themselves be samples, each pattern standing for
// fe and fw of the lists' (1 for whole lists): the work is weighed at
// the lists' scale, where a bucket fills a block or leaves it half empty.
func (s *scratch) chooseKeys(e, w []uint64, k, m int, fe, fw float64) (keyer, bool) {
	order := s.chooseOrder(e, w, k, m, fe, fw)
	if len(order) < k {
		return keyer{}, false
	}
	list := slices.Clone(order)
	slices.Sort(list)
	return newKeyer(list, m) // at most keyRuns runs: true
}

// chooseOrder returns up to k index bits for the join of e (the blocks'
// side) and w, each pattern standing for se and sw of the lists', in the
// order chooseKeys chooses them, leaving the samples it chose them on in
// s.ks.
func (s *scratch) chooseOrder(e, w []uint64, k, m int, se, sw float64) []int {
	ks := &s.ks
	var fe, fw float64
	ks.e, fe = sample(e, ks.e[:0])
	ks.w, fw = sample(w, ks.w[:0])
	fe, fw = fe*se, fw*sw
	ks.ke = resize(ks.ke, len(ks.e))
	ks.kw = resize(ks.kw, len(ks.w))
	clear(ks.ke)
	clear(ks.kw)
	s.stat.weighed += 2 * uint64(len(ks.e)+len(ks.w)) // sampled, bits counted
	// The candidates: the keyCandidates bits most often taken by both
	// samples (a bit neither takes never prunes), and at each step the
	// bits beside those chosen (the best keys are runs of neighbouring
	// diagonals).
	var te, tw [64]int
	for _, p := range ks.e {
		for q := p; q != 0; q &= q - 1 {
			te[bits.TrailingZeros64(q)]++
		}
	}
	for _, p := range ks.w {
		for q := p; q != 0; q &= q - 1 {
			tw[bits.TrailingZeros64(q)]++
		}
	}
	var top uint64
	for range keyCandidates {
		best, bestScore := -1, 0
		for b := range m {
			if sc := te[b] * tw[b]; sc > bestScore && top>>uint(b)&1 == 0 {
				best, bestScore = b, sc
			}
		}
		if best < 0 {
			break
		}
		top |= 1 << uint(best)
	}
	useful := uint64(0)
	for b := range m {
		if te[b] > 0 && tw[b] > 0 {
			useful |= 1 << uint(b)
		}
	}
	var chosen uint64
	var order []int
	var cands []int
	var costs []float64
	for j := 0; j < min(k, keyGreedyBits); j++ {
		cands = cands[:0]
		for c := (top | chosen<<1 | chosen>>1) & useful &^ chosen; c != 0; c &= c - 1 {
			if b := bits.TrailingZeros64(c); runs(chosen|1<<uint(b)) <= greedyRuns {
				cands = append(cands, b)
			}
		}
		s.stat.weighed += uint64(len(ks.e)+len(ks.w)) + uint64(len(cands))*uint64(j+3)<<uint(j)
		costs = ks.costs(cands, j, fe, fw, costs)
		best, bestCost := -1, 0.0
		for i, b := range cands {
			if best < 0 || costs[i] < bestCost {
				best, bestCost = b, costs[i]
			}
		}
		if best < 0 {
			break // no bit left that prunes: the frame's keys
		}
		chosen |= 1 << uint(best)
		order = append(order, best)
		for i, p := range ks.e {
			ks.ke[i] |= uint32(p>>uint(best)&1) << uint(j)
		}
		for i, p := range ks.w {
			ks.kw[i] |= uint32(p>>uint(best)&1) << uint(j)
		}
	}
	// Deeper bits: a sample of keySampleLen patterns a side cannot tell
	// apart the costs of keys of more than about keyGreedyBits bits, so
	// those take the bits most often taken by both lists, among those
	// that keep the key to keyRuns runs.
	for j := bits.OnesCount64(chosen); j < k && j == bits.OnesCount64(chosen); j++ {
		best, bestScore := -1, 0
		for c := useful &^ chosen; c != 0; c &= c - 1 {
			b := bits.TrailingZeros64(c)
			if runs(chosen|1<<uint(b)) > keyRuns {
				continue
			}
			if sc := te[b] * tw[b]; sc > bestScore {
				best, bestScore = b, sc
			}
		}
		if best >= 0 {
			chosen |= 1 << uint(best)
			order = append(order, best)
		}
	}
	return order
}

// costs returns, in out, for each bit b of cands, the kernels' work, in
// blocks times items, when b is key bit j beside the samples' keys so far
// (fe and fw are the patterns each sampled pattern stands for), from one
// reading of the samples: a key with bit b beside the j bits so far
// splits each bucket x into the patterns without b (the bucket less
// those with it) and those with it, so only the latter are counted, and
// the items' subset sums of the j bits serve every b.
func (ks *keySample) costs(cands []int, j int, fe, fw float64, out []float64) []float64 {
	t := 1 << uint(j)
	nc := len(cands)
	out = resize(out, nc)
	if nc == 0 {
		return out
	}
	// he, hw: the buckets of the j bits; oe[c], ow[c]: those of their
	// patterns that take cands[c].
	ks.he = resize(ks.he, t*(1+nc))
	ks.hw = resize(ks.hw, t*(1+nc))
	clear(ks.he)
	clear(ks.hw)
	var mask uint64
	var slot [64]int
	for c, b := range cands {
		mask |= 1 << uint(b)
		slot[b] = t * (1 + c)
	}
	count := func(h []float64, pats []uint64, keys []uint32) {
		for i, p := range pats {
			x := int(keys[i])
			h[x]++
			for q := p & mask; q != 0; q &= q - 1 {
				h[slot[bits.TrailingZeros64(q)]+x]++
			}
		}
	}
	count(ks.he, ks.e, ks.ke)
	count(ks.hw, ks.w, ks.kw)
	// The items' subset sums: of every key within x, for the buckets
	// and for each candidate's part.
	for c := 0; c <= nc; c++ {
		z := ks.hw[c*t : (c+1)*t]
		for i := 1; i < t; i <<= 1 {
			for x := range z {
				if x&i != 0 {
					z[x] += z[x^i]
				}
			}
		}
	}
	he, zw := ks.he[:t], ks.hw[:t]
	for c := range cands {
		oe, zo := ks.he[(c+1)*t:(c+2)*t], ks.hw[(c+1)*t:(c+2)*t]
		// As cost sums them: the keys without bit b, then those with it.
		var total float64
		for x := range t {
			if v := he[x] - oe[x]; v > 0 {
				total += blockCost(v*fe) * zw[(t-1)&^x]
			}
		}
		for x := range t {
			if v := oe[x]; v > 0 {
				y := (t - 1) &^ x
				total += blockCost(v*fe) * (zw[y] - zo[y])
			}
		}
		out[c] = total * fw
	}
	return out
}

// blockCost is the kernels' work on a bucket of n patterns per item run
// through it, in full blocks: its full blocks, and the rest at its
// kernel's cost (the half kernel about 0.7 of the full one, the pair by
// pair one about a 32nd a pattern; measured at n = 22).
func blockCost(n float64) float64 {
	full := float64(int(n / blockSize))
	switch r := n - full*blockSize; {
	case r > blockSize/2:
		return full + 1
	case r > float64(directMax):
		return full + 0.7
	default:
		return full + r/32
	}
}

// depthSample is the most patterns of each list deepKeys weighs depths
// on: 16 a bucket of the deepest depth it weighs, at most 2^20.
func depthSample(top int) int { return min(1<<20, 16<<uint(top)) }

// deepMin is the least depth (indexBits of the lists) for which a join
// weighs its depth (deepKeys): below, the weighing costs more than it
// saves, and the lists' own length gives the depth (chooseKeys). A
// variable so that tests can force deep keys on short lists.
var deepMin = 12

// joinBits returns the index bits of the join of e (the blocks' side)
// and w, k of them by the lists' length: chosen and weighed by deepKeys
// from depth deepMin on, else chosen by chooseKeys; false when fewer than
// k bits prune at all.
func (s *scratch) joinBits(e, w []uint64, k, m, most int, fe, fw, de, dw float64) (keyer, bool) {
	if k >= deepMin {
		return s.deepKeys(e, w, k, m, most, fe, fw, de, dw)
	}
	return s.chooseKeys(e, w, k, m, fe/de, fw/dw)
}

// sampleN appends to out about n patterns of pats, evenly spaced.
func sampleN(pats, out []uint64, n int) []uint64 {
	step := max(1, len(pats)/n)
	for i := 0; i < len(pats); i += step {
		out = append(out, pats[i])
	}
	return out
}

// orderCounts returns, in out, the counts of pats by the key of the bits
// order names, bit i of the key being pattern bit order[i]: a table per
// byte of the pattern.
func orderCounts(pats []uint64, order []int, out []uint32) []uint32 {
	var tab [8][256]uint32
	used := 0 // bytes of the pattern that hold a bit of order
	for i, b := range order {
		for v := range 256 {
			if v>>uint(b&7)&1 != 0 {
				tab[b>>3][v] |= 1 << uint(i)
			}
		}
		used = max(used, b>>3+1)
	}
	out = resize(out, 1<<uint(len(order)))
	clear(out)
	for _, p := range pats {
		var x uint32
		for y := range used {
			x |= tab[y][p>>(8*uint(y))&255]
		}
		out[x]++
	}
	return out
}

// fold folds counts by keys of j+1 bits (c[:2<<j]) into counts by their
// first j bits, in c[:1<<j].
func fold(c []uint32, j int) {
	h := 1 << uint(j)
	for x := range h {
		c[x] += c[x+h]
	}
}

// sortedCounts returns, in out, counts c by the key of the bits order
// names (bit i: pattern bit order[i]) as counts by the keyer's key of the
// same bits, which takes them in increasing order.
func sortedCounts(c []uint32, order []int, out []uint32) []uint32 {
	var tab [3][256]uint32 // key bit i to its rank among order's
	for i, b := range order {
		r := 0
		for _, o := range order {
			if o < b {
				r++
			}
		}
		for v := range 256 {
			if v>>uint(i&7)&1 != 0 {
				tab[i>>3][v] |= 1 << uint(r)
			}
		}
	}
	out = resize(out, len(c))
	for x, v := range c {
		out[tab[0][x&255]|tab[1][x>>8&255]|tab[2][x>>16&255]] = v
	}
	return out
}

// depthTries is how many depths below the one the lists' length gives
// (indexBits) deepKeys weighs, beside three deeper.
const depthTries = 6

// modelPrices weigh the kinds of Work against each other when a join
// chooses its depth: what Calibrate measured on one core of an Intel
// Xeon with AVX-512 (RESULTS.md). Only their ratios matter, so that the
// choice, and the count's Work, are the same on every machine.
var modelPrices = Prices{Rows: 25, Halves: 1.45, Sorted: 11, Small: 0.39, Large: 0.47, Half: 0.35, Builds: 1.65, Direct: 0.077, Steps: 1.46}

// deepKeys returns the index bits of the join of e (the blocks' side)
// and w, about as many as indexBits gives e (k) or fewer: those that
// chooseOrder chooses on samples of both lists, as many as leave the
// least Work at modelPrices, projected on the samples (see smoothed and
// projectJoin). A list whose keys skew (some diagonals far likelier than
// others) fills its buckets unevenly: past a depth, more bits leave most
// buckets a few patterns each, joined pair by pair or in half-empty
// blocks at a block's price, and cost more than they prune.
//
// e and w may be samples: each of their patterns stands for fe and fw of
// the whole lists'. A join in passes joins pieces of de and dw of the
// lists' (each a share 1/de and 1/dw of them), de·dw pairs of pieces:
// its blocks are built from the smaller buckets of a piece.
func (s *scratch) deepKeys(e, w []uint64, k, m, most int, fe, fw, de, dw float64) (keyer, bool) {
	top := max(k, min(k+3, most, maxIndexBits))
	order := s.chooseOrder(e, w, top, m, fe/de, fw/dw)
	if len(order) == 0 {
		return keyer{}, false
	}
	// The depths are weighed on larger samples than the bits are chosen
	// on: how unevenly the buckets fill shows only in many patterns.
	ks := &s.ks
	ks.de = sampleN(e, ks.de[:0], depthSample(top))
	ks.dw = sampleN(w, ks.dw[:0], depthSample(top))
	ge := float64(len(ks.de)) / (float64(max(len(e), 1)) * fe) * de
	gw := float64(len(ks.dw)) / (float64(max(len(w), 1)) * fw) * dw
	// The depths' buckets: the samples counted once by the key of every
	// bit chosen, in the order chosen, whose first j bits are the key of
	// depth j; each depth's counts fold the next one's (deepest first).
	ks.oe = orderCounts(ks.de, order, ks.oe)
	ks.ow = orderCounts(ks.dw, order, ks.ow)
	s.stat.weighed += 2 * uint64(len(ks.de)+len(ks.dw)) // sampled, counted
	var best keyer
	bestCost := math.Inf(1)
	for j := len(order); j >= max(1, min(k, len(order))-depthTries); j-- {
		if j < len(order) {
			fold(ks.oe, j)
			fold(ks.ow, j)
		}
		list := slices.Clone(order[:j])
		slices.Sort(list)
		kr, ok := newKeyer(list, m)
		if !ok {
			continue
		}
		s.stat.weighed += 4 << uint(j) // reordered, smoothed, planned
		ks.se = sortedCounts(ks.oe[:1<<uint(j)], order[:j], ks.se)
		ks.sw = sortedCounts(ks.ow[:1<<uint(j)], order[:j], ks.sw)
		ks.fe = smoothCounts(ks.se, len(ks.de), ge, ks.fe)
		ks.fw = smoothCounts(ks.sw, len(ks.dw), gw, ks.fw)
		pw := s.projectJoin(ks.fe, ks.fw, j, m)
		c := modelPrices.Cost(pw) * time.Duration(de*dw)
		if float64(c) <= bestCost { // the shallower of equals
			best, bestCost = kr, float64(c)
		}
	}
	return best, bestCost < math.Inf(1)
}

// smoothMin is the fewest sampled patterns a bucket of the coarse keys
// that smoothed projects from holds on average.
const smoothMin = 32

// smoothed returns the sizes of the buckets of the whole list that pats
// samples, each pattern kept with chance g, under the keys of kr. A
// sample too small for every bucket to hold many of its patterns (the
// sizes of the whole list's buckets then come out as 0 or multiples of
// 1/g, which joins bucket by bucket, block by block, far from what they
// are) is counted by its coarse keys, the top j bits of kr's key, j as
// large as leaves smoothMin sampled patterns a bucket on average; each
// coarse bucket is then spread over its fine keys as if their bits were
// independent, each set with the share of the sample that sets it.
func smoothed(pats []uint64, kr *keyer, g float64) []float64 {
	c := make([]uint32, 1<<uint(kr.bits))
	for _, p := range pats {
		c[kr.key(p)]++
	}
	return smoothCounts(c, len(pats), g, nil)
}

// smoothCounts is smoothed from the sample's counts by key: c[x] of its
// n patterns have key x (len(c) a power of 2); the sizes go in out.
func smoothCounts(c []uint32, n int, g float64, out []float64) []float64 {
	k := bits.Len(uint(len(c))) - 1
	j := k
	for j > 0 && float64(n)/float64(uint(1)<<uint(j)) < smoothMin {
		j--
	}
	out = resize(out, len(c))
	if j == k {
		for x, v := range c {
			out[x] = float64(v) / g
		}
		return out
	}
	clear(out)
	fine := k - j
	coarse := make([]float64, 1<<uint(j))
	var ones [32]float64
	for x, v := range c {
		if v == 0 {
			continue
		}
		coarse[x>>uint(fine)] += float64(v) / g
		for b := range fine {
			ones[b] += float64(v * uint32(x>>uint(b)&1))
		}
	}
	// spread[y]: the share of fine key y.
	spread := []float64{1}
	for b := range fine {
		q := ones[b] / float64(max(n, 1))
		next := make([]float64, 2*len(spread))
		for y, v := range spread {
			next[y] = v * (1 - q)
			next[y|1<<uint(b)] = v * q
		}
		spread = next
	}
	for c, v := range coarse {
		if v == 0 {
			continue
		}
		for y, sh := range spread {
			out[c<<uint(fine)|y] = v * sh
		}
	}
	return out
}
