package join

import "math"

// Cut returns the geometry counts use for n: four n/2 × n/2 quadrants for
// even n, the middle column in the band for odd n (see Even, Column).
// Wider bands have smaller quadrants but fill in many ways, and every
// filling is joined on its own: n = 18 with a band of width 2 takes 16
// times the CPU of the even cut (RESULTS.md). Memory is bounded instead
// by the bounded path (Counter).
func Cut(n int) Geometry {
	if n%2 == 0 {
		return Even(n)
	}
	return Column(n)
}

// Memory is what a count with geometry g holds, by path, in bytes.
type Memory struct {
	// Tables is the table path's quadrant tables, shared by every
	// worker; TableWorker each worker's lists of half boards on it.
	Tables, TableWorker uint64
	// Lists is what the lists of half boards of the longest row set
	// hold, joined whole; BatchTask what one more task of a batch holds
	// on the bounded path (its north row lists: see Counter.Batches).
	Lists, BatchTask uint64
	// RowLists is what each worker of the bounded path holds beside its
	// arena: the row lists of its task and row set, staging blocks and
	// buffers. MinArena is the smallest arena that can count every task,
	// in bytes (an arena of 8-byte patterns).
	RowLists, MinArena uint64
	// KeyBits is the most index bits the longest lists call for (their
	// indexBits, and the three more deepKeys weighs), whose arrays by key
	// each worker holds: KeyMemory(KeyBits), in TableWorker on the table
	// path and beside the arena on the bounded one.
	KeyBits int
}

// MemoryOf estimates the memory of a count with geometry g.
func MemoryOf(g Geometry) Memory {
	t := tableBytes(g.HN, g.Q)
	if g.HS != g.HN {
		t += tableBytes(g.HS, g.Q)
	}
	m := Memory{Tables: t, KeyBits: listKeyBits(maxList(g))}
	m.Lists = 80 * maxList(g)
	m.TableWorker = m.Lists + 1<<20 + KeyMemory(m.KeyBits)
	// The bounded path's lists: the north row lists of a task, on rows r
	// and the rest of the free north rows, and the south ones of a row
	// set, likewise: at most the largest a(r) + a(rows \ r) of each
	// quadrant (the model's, with a margin for its error), at 8 bytes an
	// entry, and their column indexes; a staging block per index key and
	// a block; one column set's south entries ready to pair (a conflict
	// word and a pattern, with room to grow: 24 bytes each), the north
	// entries crossed with them at once (as many), the half boards made
	// before filing and those waiting for the arena's next pass (about
	// candFlush and a column set's, at 10 and 12 bytes).
	north, _ := pairMax(rowModel(g.HN, g.Q))
	south, smax := pairMax(rowModel(g.HS, g.Q))
	lists := uint64(1.25*8*(north+south)) + 4*4*(uint64(1)<<uint(g.Q)+1)
	// One column set's entries: at most a tenth of the largest list
	// (measured: 7.8% for 8×8 quadrants, 1.7% for 13×13).
	perC := smax / 10
	bufs := uint64((24+10+12)*perC) + (24+2*10+12)*candFlush
	// The index keys of the longest list (see indexBits).
	keys := uint64(1)
	for k := 0; k < streamMaxBits && maxList(g)>>uint(k+1) >= uint64(indexMinBucket); k++ {
		keys <<= 1
	}
	// The four lists' leaf groups (rowList.groups), 16 bytes each: at
	// most maxGroups a list, and no more than its entries.
	g2 := float64(2 * maxGroups)
	groups := uint64(16 * (min(g2, 1.25*north) + min(g2, 1.25*south)))
	m.RowLists = lists + bufs + groups + keys*blockSize*8 + 2<<20
	m.BatchTask = uint64(1.25*8*north) + 2*4*(uint64(1)<<uint(g.Q)+1)
	// The arena must take the half boards of one north entry (at most a
	// column set's south entries) and a chunk per key.
	m.MinArena = 8 * max(uint64(perC), keys*arenaChunk)
	return m
}

// listKeyBits returns the most index bits a join of lists of n half
// boards takes: indexBits' rule for the length (the frame's keys aside),
// and three more where deepKeys weighs depths.
func listKeyBits(n uint64) int {
	k := 0
	for k < maxIndexBits && n>>uint(k+1) >= uint64(indexMinBucket) {
		k++
	}
	if k >= deepMin {
		k = min(k+3, maxIndexBits)
	}
	return k
}

// pairMax returns the largest a(r) + a(all \ r) over the row sets r of a
// quadrant's model (a task's two lists of a quadrant), and the largest
// a(r).
func pairMax(a []float64) (pair, one float64) {
	all := len(a) - 1
	for r, x := range a {
		pair = max(pair, x+a[all&^r])
		one = max(one, x)
	}
	return pair, one
}

// Runtime is what the Go runtime and the program hold besides the
// count's own memory, budgeted by every path: the binary's pages that are
// resident (about 15 MiB of nqueens) and the runtime's own (stacks, its
// metadata: about 4 MiB), with a little to spare. The Go heap's room to
// grow past its live data is the runtime limit's to bound (a count sets
// it to the memory less the binary's pages: see sysmem.RuntimeLimit),
// within the tenth of each worker's share the bounded path leaves it.
const Runtime = 20 << 20

func tableBytes(h, q int) uint64 {
	return 8*quadSize(h, q) + 4*(uint64(1)<<uint(h+q)+1)
}

// quadSize is the number of placements on an h×q rectangle: measured
// for the sizes plans use (see quadSizes), extrapolated beyond.
func quadSize(h, q int) uint64 {
	for _, x := range quadSizes {
		if x[0] == uint64(h) && x[1] == uint64(q) {
			return x[2]
		}
	}
	// Each row and column more multiplies the count by about 3.15 (the
	// ratios of the sizes listed, from 10×10 up).
	return uint64(633443407 * math.Pow(3.15, float64(h+q-24)))
}

// quadSizes lists quadEntries(h, q) for q = 0..12, h = q and q+1
// (TestQuadSizes checks the small ones against quadEntries).
var quadSizes = [][3]uint64{
	{0, 0, 1},
	{1, 0, 1},
	{1, 1, 2},
	{2, 1, 3},
	{2, 2, 5},
	{3, 2, 9},
	{3, 3, 18},
	{4, 3, 37},
	{4, 4, 87},
	{5, 4, 185},
	{5, 5, 462},
	{6, 5, 1039},
	{6, 6, 2635},
	{7, 6, 6335},
	{7, 7, 16870},
	{8, 7, 42807},
	{8, 8, 118969},
	{9, 8, 316395},
	{9, 9, 915442},
	{10, 9, 2524999},
	{10, 10, 7535369},
	{11, 10, 21637115},
	{11, 11, 66807234},
	{12, 11, 198770307},
	{12, 12, 633443407},
	{13, 12, 1941720813},
}

// maxList estimates the longest list of half boards of a row set for
// geometry g, from the longest measured: for the even cut 570, 2956,
// 17506 and 105032 half boards at n = 14, 16, 18 and 20 (about 6 times
// more every 2 rows), for the column cut 374 and 1969 at n = 15 and 17
// (about 5.3 times). Frames with more band queens have shorter lists;
// they are counted as the column cut's.
func maxList(g Geometry) uint64 {
	q := float64(g.Q)
	if g.WC == 0 && g.WR == 0 {
		return uint64(17506 * math.Pow(6, q-9) * 1.5)
	}
	return uint64(1969 * math.Pow(5.3, q-8) * 1.5)
}
