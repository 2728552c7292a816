//go:build amd64 && !purego

package join

//go:noescape
func filterAVX512(c, p, src *uint64, n int, att uint64, pm *patMap) int

//go:noescape
func crossAVX512(ac, ap *uint64, na int, bc, bp *uint64, nb int, out *uint64) int

//go:noescape
func filterAVX2(c, p, src *uint64, n int, att uint64, pm *patMap) int

//go:noescape
func crossAVX2(ac, ap *uint64, na int, bc, bp *uint64, nb int, out *uint64) int

// vectorFilter wraps an assembly filter: it needs dst's room for
// len(src) + vecPad entries (entries.reserve).
func vectorFilter(f func(c, p, src *uint64, n int, att uint64, pm *patMap) int) func(*entries, []uint64, uint64, *patMap) int {
	return func(dst *entries, src []uint64, att uint64, pm *patMap) int {
		if len(src) == 0 {
			return 0
		}
		_ = dst.c[len(src)+vecPad-1]
		_ = dst.p[len(src)+vecPad-1]
		return f(&dst.c[0], &dst.p[0], &src[0], len(src), att, pm)
	}
}

// vectorCross wraps an assembly cross: the longer list inside, room for
// na·nb + vecPad patterns in out (halves leaves it) and vecPad entries
// beyond both lists (entries.reserve).
func vectorCross(f func(ac, ap *uint64, na int, bc, bp *uint64, nb int, out *uint64) int) func(*entries, int, *entries, int, []uint64) []uint64 {
	return func(a *entries, na int, b *entries, nb int, out []uint64) []uint64 {
		if na == 0 || nb == 0 {
			return out
		}
		if na > nb {
			a, na, b, nb = b, nb, a, na
		}
		_ = b.c[nb+vecPad-1]
		_ = b.p[nb+vecPad-1]
		n := len(out)
		_ = out[:n+na*nb+vecPad]
		k := f(&a.c[0], &a.p[0], na, &b.c[0], &b.p[0], nb, &out[:n+1][n])
		return out[:n+k]
	}
}
