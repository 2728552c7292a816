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
// d bits are disjoint from the leaf's, each 2^(k-d) buckets in a row. A
// node may also keep its two children's full blocks at their depth and
// pack their last partial blocks together at its own (run through the
// items of both), where two half-empty blocks cost more than one.

// leaf is a bucket of the trie: the patterns whose top d key bits are x
// (part leafWhole), only those of its full blocks (leafFull), or the
// last partial blocks of its two children packed together (leafTails).
type leaf struct{ d, x, part int }

// The parts of a leaf, and the choices at a node of the trie.
const (
	leafWhole = iota
	leafFull
	leafTails
	leafSplit // a node's choice only
	leafPack  // a node's choice only: its children's leafFull, its leafTails
)

// fullOf returns the patterns of the full blocks of bucket (d, x).
func (t *trie) fullOf(d, x int) float64 {
	return math.Floor(t.e[d][x]/blockSize) * blockSize
}

// size returns the patterns of leaf l.
func (t *trie) size(l leaf) float64 {
	switch l.part {
	case leafFull:
		return t.fullOf(l.d, l.x)
	case leafTails:
		return t.e[l.d][l.x] - t.fullOf(l.d+1, 2*l.x) - t.fullOf(l.d+1, 2*l.x+1)
	}
	return t.e[l.d][l.x]
}

// work returns the Work of leaf l: its patterns, of m-d bits, run
// through the items of the keys whose top d bits are disjoint from x.
func (t *trie) work(l leaf, m int) Work {
	comp := (1<<uint(l.d) - 1) &^ l.x
	return bucketWork(t.size(l), t.it[l.d][comp], math.Ldexp(1, bits.OnesCount(uint(comp))), m-l.d)
}

// trie plans a join's trie; it keeps its room between joins.
type trie struct {
	e, it  [][]float64 // by depth: the blocks' side's sizes, the items' within x
	cost   [2][]float64
	choice [][]uint8
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
	return t.planItems(hb, hi, k, m, false)
}

// planItems is plan; with same, hi is the items of the last plan, of k
// bits too, whose subset sums it reuses (the passes' projection runs the
// held items against each group of the other side's classes).
func (t *trie) planItems(hb, hi []float64, k, m int, same bool) Work {
	same = same && len(t.it) == k+1 && len(t.it[k]) == len(hi)
	t.e = resize(t.e, k+1)
	t.it = resize(t.it, k+1)
	t.choice = resize(t.choice, k+1)
	t.e[k] = hb
	if !same {
		t.it[k] = append(t.it[k][:0], hi...)
	}
	for d := k - 1; d >= 0; d-- {
		n := 1 << uint(d)
		e := resize(t.e[d], n)
		ed := t.e[d+1]
		for x := range e {
			e[x] = ed[2*x] + ed[2*x+1]
		}
		t.e[d] = e
		if same {
			continue
		}
		it := resize(t.it[d], n)
		id := t.it[d+1]
		for x := range it {
			it[x] = id[2*x] + id[2*x+1]
		}
		t.it[d] = it
	}
	// it[d][x] becomes the items of every key within x (a subset sum).
	for d := 1; d <= k && !same; d++ {
		it := t.it[d]
		for b := 1; b < len(it); b <<= 1 {
			for x := range it {
				if x&b != 0 {
					it[x] += it[x^b]
				}
			}
		}
	}
	// The least Work's price of each subtree, from the leaves up: a
	// leaf, split, or packed (each child's full blocks at its depth, the
	// two children's last partial blocks packed together at this one,
	// run through the items of both).
	for d := k; d >= 0; d-- {
		n := 1 << uint(d)
		cost := resize(t.cost[d&1], n)
		choice := resize(t.choice[d], n)
		below := t.cost[(d+1)&1]
		e := t.e[d]
		for x := range cost {
			choice[x] = leafWhole
			if e[x] <= 0 {
				cost[x] = 0
				continue
			}
			c := modelPrices.price(t.work(leaf{d, x, leafWhole}, m))
			if d < k {
				if sc := below[2*x] + below[2*x+1]; sc < c {
					c, choice[x] = sc, leafSplit
				}
				if t.fullOf(d+1, 2*x) > 0 || t.fullOf(d+1, 2*x+1) > 0 {
					pc := modelPrices.price(t.work(leaf{d + 1, 2 * x, leafFull}, m)) +
						modelPrices.price(t.work(leaf{d + 1, 2*x + 1, leafFull}, m)) +
						modelPrices.price(t.work(leaf{d, x, leafTails}, m))
					if pc < c {
						c, choice[x] = pc, leafPack
					}
				}
			}
			cost[x] = c
		}
		t.cost[d&1], t.choice[d] = cost, choice
	}
	t.leaves = t.leaves[:0]
	var w Work
	add := func(l leaf) {
		if t.size(l) > 0 {
			w.Add(t.work(l, m))
			t.leaves = append(t.leaves, l)
		}
	}
	var walk func(d, x int)
	walk = func(d, x int) {
		if t.e[d][x] <= 0 {
			return
		}
		switch t.choice[d][x] {
		case leafSplit:
			walk(d+1, 2*x)
			walk(d+1, 2*x+1)
		case leafPack:
			add(leaf{d + 1, 2 * x, leafFull})
			add(leaf{d + 1, 2*x + 1, leafFull})
			add(leaf{d, x, leafTails})
		default:
			add(leaf{d, x, leafWhole})
		}
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

// projectJoinItems is projectJoin; with same, hi is the last
// projection's items (see planItems).
func (s *scratch) projectJoinItems(hb, hi []float64, k, m int, same bool) Work {
	return s.tr.planItems(hb, hi, k, m, same)
}
