package join

import (
	"math"
	"math/bits"
)

// The join's trie. Keys deep enough for the dense part of a skewed list
// leave its sparse part in buckets of a few patterns each, joined pair by
// pair or in half-empty blocks at a block's price; keys shallow enough
// for the sparse part leave the dense part's buckets many blocks long,
// each run through items that a deeper key would have pruned. So the
// blocks' side is cut by a trie of its keys: a bucket of the top d key
// bits is split by the next bit only where that leaves less Work (at
// modelPrices, so that the count's Work is the same on every machine).
// A leaf of depth d holds the buckets of its 2^(k-d) keys, in key order,
// patterns keyed (the deeper k-d key bits kept in the pattern, above
// its compacted bits), so its blocks tell them apart: they are built on
// the patterns' m-d low bits, the leaf's own d bits being those no item
// run through it shares. Its items are the buckets of the keys whose top
// d bits are disjoint from the leaf's, each 2^(k-d) buckets in a row.

// leaf is a bucket of the trie: the patterns whose top d key bits are x.
type leaf struct{ d, x int }

// trie plans a join's trie; it keeps its room between joins.
type trie struct {
	e, it  [][]float64 // by depth: the blocks' side's sizes, the items' within x
	cost   [2][]float64
	split  [][]bool
	leaves []leaf
	hb, hi []float64 // joinBuckets' sizes
}

// bucketWork is the Work of joining a bucket of ne patterns on the
// blocks' side, of m bits, with items items of the other side found in
// sub runs of buckets (joinBuckets' units for one bucket).
func bucketWork(ne, items, sub float64, m int) Work {
	var w Work
	if ne <= 0 {
		return w
	}
	if ne <= float64(directMax) {
		w.Steps = sub
		w.Direct = ne * items
		return w
	}
	lay := layoutOf(m, int(items))
	full := math.Floor(ne / blockSize)
	rest := ne - full*blockSize
	blocks := full
	if rest > 0 {
		blocks++
	}
	w.Steps = sub * (blocks + 1)
	w.Builds = blocks * float64(lay.entries())
	look := full
	if rest > blockSize/2 {
		look++
	} else if rest > 0 {
		w.Half = items * float64(lay.nch)
	}
	if lay.bits == largeBits {
		w.Large = look * items * float64(lay.nch)
	} else {
		w.Small = look * items * float64(lay.nch)
	}
	return w
}

// price is w at prices p, in nanoseconds.
func (p Prices) price(w Work) float64 {
	return w.Rows*p.Rows + w.Halves*p.Halves + w.Sorted*p.Sorted + w.Small*p.Small + w.Large*p.Large +
		w.Half*p.Half + w.Builds*p.Builds + w.Direct*p.Direct + w.Steps*p.Steps
}

// plan chooses the leaves of the join of lists whose buckets, under k
// key bits, hold hb[x] patterns on the blocks' side and hi[x] on the
// other, of m bits with their keys: the trie of least Work at
// modelPrices. It leaves them in t.leaves, in key order, and returns
// their Work. Sizes may be fractional (a sample's, scaled).
func (t *trie) plan(hb, hi []float64, k, m int) Work {
	t.e = resize(t.e, k+1)
	t.it = resize(t.it, k+1)
	t.split = resize(t.split, k+1)
	t.e[k] = hb
	t.it[k] = append(t.it[k][:0], hi...)
	for d := k - 1; d >= 0; d-- {
		n := 1 << uint(d)
		e, it := resize(t.e[d], n), resize(t.it[d], n)
		ed, id := t.e[d+1], t.it[d+1]
		for x := range e {
			e[x] = ed[2*x] + ed[2*x+1]
			it[x] = id[2*x] + id[2*x+1]
		}
		t.e[d], t.it[d] = e, it
	}
	// it[d][x] becomes the items of every key within x (a subset sum).
	for d := 1; d <= k; d++ {
		it := t.it[d]
		for b := 1; b < len(it); b <<= 1 {
			for x := range it {
				if x&b != 0 {
					it[x] += it[x^b]
				}
			}
		}
	}
	// The least Work's price of each subtree, from the leaves up.
	for d := k; d >= 0; d-- {
		n := 1 << uint(d)
		cost := resize(t.cost[d&1], n)
		split := resize(t.split[d], n)
		below := t.cost[(d+1)&1]
		e, it := t.e[d], t.it[d]
		all := n - 1
		for x := range cost {
			split[x] = false
			if e[x] <= 0 {
				cost[x] = 0
				continue
			}
			comp := all &^ x
			c := modelPrices.price(bucketWork(e[x], it[comp], math.Ldexp(1, bits.OnesCount(uint(comp))), m-d))
			if d < k {
				if sc := below[2*x] + below[2*x+1]; sc < c {
					c, split[x] = sc, true
				}
			}
			cost[x] = c
		}
		t.cost[d&1], t.split[d] = cost, split
	}
	t.leaves = t.leaves[:0]
	var w Work
	var walk func(d, x int)
	walk = func(d, x int) {
		if t.e[d][x] <= 0 {
			return
		}
		if t.split[d][x] {
			walk(d+1, 2*x)
			walk(d+1, 2*x+1)
			return
		}
		comp := (1<<uint(d) - 1) &^ x
		w.Add(bucketWork(t.e[d][x], t.it[d][comp], math.Ldexp(1, bits.OnesCount(uint(comp))), m-d))
		t.leaves = append(t.leaves, leaf{d, x})
	}
	walk(0, 0)
	t.e[k] = nil // the caller's
	return w
}

// projectJoin returns the Work of joining lists whose buckets, under k
// index bits, hold hb[x] patterns on the blocks' side and hi[x] on the
// other, of m bits with their keys: joinBuckets' units, from the sizes
// alone (see trie). Sizes may be fractional (a sample's, scaled): each
// bucket then counts as the expected one.
func (s *scratch) projectJoin(hb, hi []float64, k, m int) Work {
	return s.tr.plan(hb, hi, k, m)
}
