package join

import (
	"math/bits"
	"unsafe"
)

// The matcher counts the compatible pairs of two lists of join patterns:
// pairs (w, e) with w & e == 0. The patterns of one list (the table side)
// are cut into blocks of blockSize; for a block, bit b of plane b says,
// per pattern, whether the pattern lacks bit b ("transposed" storage). A
// pattern is compatible with w exactly when it lacks every bit of w, so
// ANDing the planes of w's bits and counting the ones left counts the
// block's matches for w in a few word operations. The planes are further
// combined in chunks of several bits: table entry v of a chunk is the AND
// of the planes of the bits of v, so that w needs one entry per chunk
// (the "method of four Russians"). An entry is 64 bytes, and an item's
// cost is about one 64-byte load per chunk: fewer, wider chunks make
// each item cheaper but the tables larger, slower to build and further
// from the core. So a block takes one of two families of layouts (see
// layoutOf): small tables that stay in the level-1 data cache, for blocks
// run through few items, or large ones (in level 2) with fewer chunks,
// for blocks run through many.

//go:generate go run -C _gen . -pkg join -out ../count_amd64.s -stubs ../count_stubs_amd64.go -loops ../count_loops_amd64.go

const (
	blockWords = 8
	blockSize  = 64 * blockWords
	// maxChunks is the most chunks of any layout: 62 bits in narrow
	// chunks of the small family.
	maxChunks = (62 + smallBits - 1) / smallBits
	// The families: their narrow chunks' bits (a wide chunk has one
	// more) and the bytes their tables may take when some chunk is wide.
	// The small family's tables stay within the 32 KiB level-1 data cache
	// of Zen 3 and 4 with room for the items streamed through; the large
	// family's within a few of Zen 4's 1 MiB level 2 (measured at n = 22,
	// RESULTS.md).
	smallBits, smallBudget = 6, 28 << 10
	largeBits, largeBudget = 8, 128 << 10
	// tableEntries holds the largest layout: the large family's budget,
	// or its narrow chunks over 62 bits (patterns of more bits than the
	// budget covers take narrow chunks only).
	tableEntries = max(largeBudget/64, (62+largeBits-1)/largeBits<<largeBits, maxChunks<<smallBits)
	// largeItems is the fewest items a block is run through for which
	// it takes a large layout (see layoutOf).
	largeItems = 2048
)

// entry is one table entry: a bit per pattern of the block.
type entry [blockWords]uint64

// block is the tables of one block of patterns; the kernels read them as
// the chunks of its layout, 64 bytes an entry.
type block struct {
	t   [tableEntries]entry
	lay layout
	// Room for building: the planes, and a group of 64 patterns padded
	// with zeros.
	planes [64]entry
	pad    [64]uint64
}

// newBlock returns a block whose tables start on a 64-byte boundary, the
// size of a cache line and of a table entry: the AVX-512 kernel loads
// whole entries, and an entry across two lines costs it about half again
// (BenchmarkBlockAlign). Go aligns a large object only to 8 or 16 bytes,
// so the block is cut from a larger buffer; it holds no pointers.
func newBlock() *block {
	buf := make([]entry, unsafe.Sizeof(block{})/unsafe.Sizeof(entry{})+1)
	p := unsafe.Pointer(&buf[0])
	return (*block)(unsafe.Add(p, (64-uintptr(p)%64)%64))
}

// layout is how a block's tables cut the bits of its patterns: nch
// chunks, the first wide of bits+1 bits and the others of bits.
type layout struct {
	nch, bits, wide int
}

// layoutOf returns the layout of a block of patterns of m bits run
// through items items: of the large family from largeItems items on, where
// the lookups saved outweigh building larger tables, else of the small
// one.
func layoutOf(m, items int) layout {
	if items >= largeItems {
		return familyLayout(m, largeBits, largeBudget)
	}
	return familyLayout(m, smallBits, smallBudget)
}

// familyLayout returns the layout for patterns of m bits in chunks of
// bits bits: as few chunks as cover m bits with tables within budget, the
// fewest wide ones for that (narrow chunks only when no wide layout fits
// the budget).
func familyLayout(m, bits, budget int) layout {
	l := layout{nch: max(1, (m+bits-1)/bits), bits: bits}
	for c := l.nch - 1; c >= 1; c-- {
		w := max(m-bits*c, 0) // one bit more a wide chunk
		if w > c || (c+w)*64<<bits > budget {
			break
		}
		l.nch, l.wide = c, w
	}
	return l
}

// chunk returns chunk j's first entry and first bit, and its entries'
// count.
func (l layout) chunk(j int) (first, bit, size int) {
	b := l.bits
	if j < l.wide {
		return 2 << b * j, (b + 1) * j, 2 << b
	}
	return 2<<b*l.wide + 1<<b*(j-l.wide), (b+1)*l.wide + b*(j-l.wide), 1 << b
}

// entries returns the table entries the layout takes.
func (l layout) entries() int {
	first, _, size := l.chunk(l.nch - 1)
	return first + size
}

// code is the layout as the generated kernels dispatch on it.
func (l layout) code() int { return l.nch<<8 | l.bits<<4 | l.wide }

// transpose64 transposes a 64×64 bit matrix in place: bit j of a[i]
// becomes bit i of a[j].
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000FFFFFFFF)
	for j := 32; j != 0; j, m = j>>1, m^(m<<uint(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (a[k]>>uint(j) ^ a[k+j]) & m
			a[k+j] ^= t
			a[k] ^= t << uint(j)
		}
	}
}

// buildGeneric fills the tables of b in layout lay from up to blockSize
// patterns with m significant bits. Slots beyond len(pats) match nothing.
func buildGeneric(b *block, pats []uint64, m int, lay layout) {
	transposeGeneric(b, pats, m)
	all := entry{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	b.lay = lay
	for j := 0; j < lay.nch; j++ {
		first, bit, size := lay.chunk(j)
		t := b.t[first : first+size]
		t[0] = all
		if j == 0 {
			t[0] = validEntry(len(pats))
		}
		// Entries 2^i..2^(i+1)-1 are entries 0..2^i-1 with plane i.
		for i := 1; i < size; i <<= 1 {
			p := &all
			if bit < m {
				p = &b.planes[bit]
			}
			bit++
			for v, e := range t[:i] {
				for w := range e {
					e[w] &= p[w]
				}
				t[i+v] = e
			}
		}
	}
}

// transposeGeneric fills b's planes from pats: bit i of word w of plane
// b is set when pattern 64w+i lacks bit b (b < m).
func transposeGeneric(b *block, pats []uint64, m int) {
	words := (len(pats) + 63) / 64
	for w := 0; w < words; w++ {
		var a [64]uint64
		lo := w * 64
		for i := 0; i < 64 && lo+i < len(pats); i++ {
			a[i] = ^pats[lo+i]
		}
		transpose64(&a)
		for bit := 0; bit < m; bit++ {
			b.planes[bit][w] = a[bit]
		}
	}
}

// validEntry has a bit for each of the first k slots of a block.
func validEntry(k int) entry {
	var v entry
	for w := 0; w < k/64; w++ {
		v[w] = ^uint64(0)
	}
	if r := k % 64; r != 0 {
		v[k/64] = uint64(1)<<uint(r) - 1
	}
	return v
}

// chunks returns each chunk's first entry, first bit and index mask.
func (b *block) chunks() (first, shift [maxChunks]int, mask [maxChunks]uint64) {
	for j := 0; j < b.lay.nch; j++ {
		f, bit, size := b.lay.chunk(j)
		first[j], shift[j], mask[j] = f, bit&63, uint64(size-1)
	}
	return first, shift, mask
}

// countGeneric is the portable kernel: the sum over items w of the
// number of patterns of the block compatible with w.
func countGeneric(b *block, items []uint64) uint64 {
	var total uint64
	first, shift, mask := b.chunks()
	nch := b.lay.nch
	for _, w := range items {
		e := &b.t[w&mask[0]]
		a0, a1, a2, a3, a4, a5, a6, a7 := e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]
		for j := 1; j < nch; j++ {
			e := &b.t[first[j]+int(w>>shift[j]&mask[j])]
			a0, a1, a2, a3 = a0&e[0], a1&e[1], a2&e[2], a3&e[3]
			a4, a5, a6, a7 = a4&e[4], a5&e[5], a6&e[6], a7&e[7]
		}
		total += uint64(bits.OnesCount64(a0) + bits.OnesCount64(a1) + bits.OnesCount64(a2) + bits.OnesCount64(a3) +
			bits.OnesCount64(a4) + bits.OnesCount64(a5) + bits.OnesCount64(a6) + bits.OnesCount64(a7))
	}
	return total
}

// countHalfGeneric is countGeneric on the first 256 patterns of the block
// only, for blocks of at most 256 patterns.
func countHalfGeneric(b *block, items []uint64) uint64 {
	var total uint64
	first, shift, mask := b.chunks()
	nch := b.lay.nch
	for _, w := range items {
		e := &b.t[w&mask[0]]
		a0, a1, a2, a3 := e[0], e[1], e[2], e[3]
		for j := 1; j < nch; j++ {
			e := &b.t[first[j]+int(w>>shift[j]&mask[j])]
			a0, a1, a2, a3 = a0&e[0], a1&e[1], a2&e[2], a3&e[3]
		}
		total += uint64(bits.OnesCount64(a0) + bits.OnesCount64(a1) + bits.OnesCount64(a2) + bits.OnesCount64(a3))
	}
	return total
}
