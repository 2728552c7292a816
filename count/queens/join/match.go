package join

import "math/bits"

// The matcher counts the compatible pairs of two lists of join patterns:
// pairs (w, e) with w & e == 0. The patterns of one list (the table side)
// are cut into blocks of blockSize; for a block, bit b of plane b says,
// per pattern, whether the pattern lacks bit b ("transposed" storage). A
// pattern is compatible with w exactly when it lacks every bit of w, so
// ANDing the planes of w's bits and counting the ones left counts the
// block's matches for w in a few word operations. The planes are further
// combined in chunks of chunkBits bits: table entry v of chunk j is the
// AND of the planes of the bits of v, so that w needs one entry per chunk
// (the "method of four Russians").

const (
	chunkBits  = 6
	chunkSize  = 1 << chunkBits
	blockWords = 8
	blockSize  = 64 * blockWords
	maxChunks  = (62 + chunkBits - 1) / chunkBits
)

// entry is one table entry: a bit per pattern of the block.
type entry [blockWords]uint64

// block is the tables of one block of patterns; the kernels read them
// as nch chunks of chunkSize entries, 64 bytes each.
type block struct {
	t   [maxChunks][chunkSize]entry
	nch int
	// Room for building: the planes, and a group of 64 patterns padded
	// with zeros.
	planes [64]entry
	pad    [64]uint64
}

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

// buildGeneric fills the tables of b from up to blockSize patterns with m
// significant bits. Slots beyond len(pats) match nothing.
func buildGeneric(b *block, pats []uint64, m int) {
	transposeGeneric(b, pats, m)
	planes := &b.planes
	valid := validEntry(len(pats))
	all := entry{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	nch := max(1, (m+chunkBits-1)/chunkBits)
	for j := 0; j < nch; j++ {
		t := &b.t[j]
		if j == 0 {
			t[0] = valid
		} else {
			t[0] = all
		}
		for v := 1; v < chunkSize; v++ {
			bit := j*chunkBits + bits.TrailingZeros(uint(v))
			e := t[v&(v-1)]
			if bit < m {
				p := &planes[bit]
				for w := range e {
					e[w] &= p[w]
				}
			}
			t[v] = e
		}
	}
	b.nch = nch
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

// countGeneric is the portable kernel: the sum over items w of the
// number of patterns of the block compatible with w.
func countGeneric(b *block, items []uint64) uint64 {
	var total uint64
	nch := b.nch
	for _, w := range items {
		a := b.t[0][w&(chunkSize-1)]
		x := w
		for j := 1; j < nch; j++ {
			x >>= chunkBits
			e := &b.t[j][x&(chunkSize-1)]
			for i := range a {
				a[i] &= e[i]
			}
		}
		for _, v := range a {
			total += uint64(bits.OnesCount64(v))
		}
	}
	return total
}

// countHalfGeneric is countGeneric on the first 256 patterns of the block
// only, for blocks of at most 256 patterns.
func countHalfGeneric(b *block, items []uint64) uint64 {
	var total uint64
	nch := b.nch
	for _, w := range items {
		e := &b.t[0][w&(chunkSize-1)]
		a0, a1, a2, a3 := e[0], e[1], e[2], e[3]
		x := w
		for j := 1; j < nch; j++ {
			x >>= chunkBits
			e := &b.t[j][x&(chunkSize-1)]
			a0, a1, a2, a3 = a0&e[0], a1&e[1], a2&e[2], a3&e[3]
		}
		total += uint64(bits.OnesCount64(a0) + bits.OnesCount64(a1) + bits.OnesCount64(a2) + bits.OnesCount64(a3))
	}
	return total
}
