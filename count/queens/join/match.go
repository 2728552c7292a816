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
	blockWords = 4
	blockSize  = 64 * blockWords
	maxChunks  = (64 + chunkBits - 1) / chunkBits
)

// block is the tables of one block of patterns.
type block struct {
	t [maxChunks][chunkSize][blockWords]uint64
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

// build fills the tables of b from up to blockSize patterns with m
// significant bits. Slots beyond len(pats) match nothing.
func (b *block) build(pats []uint64, m int) int {
	var planes [64][blockWords]uint64
	for w := 0; w < blockWords; w++ {
		var a [64]uint64
		lo := w * 64
		for i := 0; i < 64; i++ {
			if lo+i < len(pats) {
				a[i] = ^pats[lo+i]
			}
		}
		transpose64(&a)
		for bit := 0; bit < m; bit++ {
			planes[bit][w] = a[bit]
		}
	}
	var valid [blockWords]uint64
	for i := 0; i < len(pats) && i < blockSize; i++ {
		valid[i/64] |= 1 << uint(i%64)
	}
	nch := (m + chunkBits - 1) / chunkBits
	if nch == 0 {
		nch = 1
	}
	for j := 0; j < nch; j++ {
		t := &b.t[j]
		if j == 0 {
			t[0] = valid
		} else {
			t[0] = [blockWords]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
		for v := 1; v < chunkSize; v++ {
			bit := j*chunkBits + bits.TrailingZeros(uint(v))
			prev := t[v&(v-1)]
			if bit < m {
				for w := range prev {
					prev[w] &= planes[bit][w]
				}
			}
			t[v] = prev
		}
	}
	return nch
}

// countGeneric returns the sum over items w of the number of patterns of
// the block compatible with w.
func (b *block) countGeneric(items []uint64, nch int) uint64 {
	var total uint64
	for _, w := range items {
		a := b.t[0][w&(chunkSize-1)]
		x := w
		for j := 1; j < nch; j++ {
			x >>= chunkBits
			e := &b.t[j][x&(chunkSize-1)]
			a[0] &= e[0]
			a[1] &= e[1]
			a[2] &= e[2]
			a[3] &= e[3]
		}
		total += uint64(bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3]))
	}
	return total
}

// countPairs returns the number of pairs (w, e), w in items, e in pats,
// with w & e == 0; patterns have m significant bits.
func countPairs(b *block, pats, items []uint64, m int) uint64 {
	var total uint64
	for len(pats) > 0 {
		k := min(len(pats), blockSize)
		nch := b.build(pats[:k], m)
		total += b.countGeneric(items, nch)
		pats = pats[k:]
	}
	return total
}
