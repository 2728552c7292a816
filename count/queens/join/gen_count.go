//go:build ignore

// gen_count writes count_amd64.s, the counting loops of the amd64
// kernels: one loop per table layout (see layout in match.go), for
// AVX-512 and AVX2, full blocks and half ones. Run by go generate (see match.go); an argument names another
// file to write (TestGeneratedKernels).
package main

import (
	"bytes"
	"fmt"
	"os"
)

// families are match.go's (smallBits, smallBudget, largeBits,
// largeBudget); TestLayout checks that every layout match.go can choose
// has a loop here.
var families = [][2]int{{6, 28 << 10}, {8, 128 << 10}}

// layout is match.go's: nch chunks, the first wide of bits+1 bits, the
// others of bits.
type layout struct{ nch, bits, wide int }

// label names the layout's loop: p, chunks, bits and wide chunks.
func (l layout) label(p string) string { return fmt.Sprintf("%s%d_%d_%d", p, l.nch, l.bits, l.wide) }

// code is layout.code in match.go.
func (l layout) code() int { return l.nch<<8 | l.bits<<4 | l.wide }

// layouts lists every layout of each family: narrow chunks up to 62 bits,
// and layouts with wide chunks within the family's budget.
func layouts() []layout {
	var ls []layout
	for _, f := range families {
		bits, budget := f[0], f[1]
		for nch := 1; nch <= (62+bits-1)/bits; nch++ {
			for wide := 0; wide <= nch; wide++ {
				if wide > 0 && (nch+wide)*64<<bits > budget {
					break
				}
				ls = append(ls, layout{nch, bits, wide})
			}
		}
	}
	return ls
}

// chunk returns chunk j's byte offset, its RORX count (putting its index
// at bits 6.., a 64-byte entry's byte offset) and its mask.
func (l layout) chunk(j int) (off, rot, mask int) {
	b := l.bits
	shift := (b+1)*min(j, l.wide) + b*max(j-l.wide, 0)
	off = 64 * (2<<b*min(j, l.wide) + 1<<b*max(j-l.wide, 0))
	bits := b
	if j < l.wide {
		bits = b + 1
	}
	return off, (shift - 6 + 64) % 64, (1<<bits - 1) << 6
}

type gen struct{ b bytes.Buffer }

func (g *gen) f(format string, a ...any) { fmt.Fprintf(&g.b, format+"\n", a...) }

// lookup emits the load (j == 0) or AND of chunk j's entry for the item
// in w, with t as scratch, into register z (and z2 for AVX2's second
// half, "" for none).
func (g *gen) lookup(l layout, j int, w, t, z, z2 string, avx512 bool) {
	off, rot, mask := l.chunk(j)
	g.f("\tRORXQ $%d, %s, %s", rot, w, t)
	g.f("\tANDQ $0x%x, %s", mask, t)
	mov, and := "VMOVDQU", "VPAND"
	if avx512 {
		mov, and = "VMOVDQU64", "VPANDQ"
	}
	if j == 0 {
		g.f("\t%s %d(DI)(%s*1), %s", mov, off, t, z)
		if z2 != "" {
			g.f("\t%s %d(DI)(%s*1), %s", mov, off+32, t, z2)
		}
		return
	}
	g.f("\t%s %d(DI)(%s*1), %s, %s", and, off, t, z, z)
	if z2 != "" {
		g.f("\t%s %d(DI)(%s*1), %s, %s", and, off+32, t, z2, z2)
	}
}

// dispatch jumps to the loop of the layout whose code is in DX.
func (g *gen) dispatch(prefix, done string) {
	for _, l := range layouts() {
		g.f("\tCMPQ DX, $%d", l.code())
		g.f("\tJEQ %s", l.label(prefix))
	}
	g.f("\tJMP %s", done)
}

// avx512 emits countAVX512 (half: countHalfAVX512, Y registers).
func (g *gen) avx512(half bool) {
	name, v, p := "countAVX512", "Z", "z"
	if half {
		name, v, p = "countHalfAVX512", "Y", "y"
	}
	done := p + "done"
	g.f("// func %s(t *entry, items []uint64, layout int) uint64", name)
	g.f("TEXT ·%s(SB), NOSPLIT, $0-48", name)
	g.f("\tMOVQ t+0(FP), DI")
	g.f("\tMOVQ items_base+8(FP), SI")
	g.f("\tMOVQ items_len+16(FP), CX")
	g.f("\tMOVQ layout+32(FP), DX")
	g.f("\tVPXORQ %s1, %s1, %s1", v, v, v)
	g.dispatch(p, done)
	for _, l := range layouts() {
		nch, lab := l.nch, l.label(p)
		g.f("")
		g.f("%s:", lab)
		g.f("\tCMPQ CX, $2")
		g.f("\tJLT %st", lab)
		g.f("\tMOVQ (SI), AX")
		g.f("\tMOVQ 8(SI), R8")
		for j := 0; j < nch; j++ {
			g.lookup(l, j, "AX", "BX", v+"0", "", true)
			g.lookup(l, j, "R8", "R9", v+"2", "", true)
		}
		g.f("\tVPOPCNTQ %s0, %s0", v, v)
		g.f("\tVPOPCNTQ %s2, %s2", v, v)
		g.f("\tVPADDQ %s0, %s1, %s1", v, v, v)
		g.f("\tVPADDQ %s2, %s1, %s1", v, v, v)
		g.f("\tADDQ $16, SI")
		g.f("\tSUBQ $2, CX")
		g.f("\tJMP %s", lab)
		g.f("%st:", lab)
		g.f("\tTESTQ CX, CX")
		g.f("\tJZ %s", done)
		g.f("\tMOVQ (SI), AX")
		for j := 0; j < nch; j++ {
			g.lookup(l, j, "AX", "BX", v+"0", "", true)
		}
		g.f("\tVPOPCNTQ %s0, %s0", v, v)
		g.f("\tVPADDQ %s0, %s1, %s1", v, v, v)
		g.f("\tJMP %s", done)
	}
	g.f("")
	g.f("%s:", done)
	if !half {
		g.f("\tVEXTRACTI64X4 $1, Z1, Y2")
		g.f("\tVPADDQ Y2, Y1, Y1")
	}
	g.f("\tVEXTRACTI128 $1, Y1, X2")
	g.f("\tVPADDQ X2, X1, X1")
	g.f("\tVPSHUFD $0x4E, X1, X2")
	g.f("\tVPADDQ X2, X1, X1")
	g.f("\tVMOVQ X1, AX")
	g.f("\tVZEROUPPER")
	g.f("\tMOVQ AX, ret+40(FP)")
	g.f("\tRET")
	g.f("")
}

// avx2 emits countAVX2 (half: countHalfAVX2, the first 32 bytes of each
// entry). The bits of an item are counted per byte by VPSHUFB on nibbles
// into Y13 and folded into Y12's quadwords by VPSADBW every 15 items (30
// for half blocks: at most 16 or 8 a byte per item).
func (g *gen) avx2(half bool) {
	name, p, fold := "countAVX2", "a", 15
	if half {
		name, p, fold = "countHalfAVX2", "b", 30
	}
	done := p + "done"
	g.f("// func %s(t *entry, items []uint64, layout int) uint64", name)
	g.f("TEXT ·%s(SB), NOSPLIT, $0-48", name)
	g.f("\tMOVQ t+0(FP), DI")
	g.f("\tMOVQ items_base+8(FP), SI")
	g.f("\tMOVQ items_len+16(FP), CX")
	g.f("\tMOVQ layout+32(FP), DX")
	g.f("\tVMOVDQU ·nibbleCount(SB), Y15")
	g.f("\tVMOVDQU ·lowNibbles(SB), Y14")
	g.f("\tVPXOR Y13, Y13, Y13")
	g.f("\tVPXOR Y12, Y12, Y12")
	g.f("\tVPXOR Y11, Y11, Y11")
	g.f("\tMOVQ $%d, R10", fold)
	g.dispatch(p, done)
	pop := func(y string) {
		g.f("\tVPAND Y14, %s, Y2", y)
		g.f("\tVPSRLW $4, %s, Y3", y)
		g.f("\tVPAND Y14, Y3, Y3")
		g.f("\tVPSHUFB Y2, Y15, Y2")
		g.f("\tVPSHUFB Y3, Y15, Y3")
		g.f("\tVPADDB Y2, Y13, Y13")
		g.f("\tVPADDB Y3, Y13, Y13")
	}
	for _, l := range layouts() {
		nch, lab := l.nch, l.label(p)
		second := "Y1"
		if half {
			second = ""
		}
		g.f("")
		g.f("%s:", lab)
		g.f("\tTESTQ CX, CX")
		g.f("\tJZ %s", done)
		g.f("\tMOVQ (SI), AX")
		for j := 0; j < nch; j++ {
			g.lookup(l, j, "AX", "BX", "Y0", second, false)
		}
		pop("Y0")
		if !half {
			pop("Y1")
		}
		g.f("\tADDQ $8, SI")
		g.f("\tDECQ CX")
		g.f("\tDECQ R10")
		g.f("\tJNZ %s", lab)
		g.f("\tVPSADBW Y11, Y13, Y13")
		g.f("\tVPADDQ Y13, Y12, Y12")
		g.f("\tVPXOR Y13, Y13, Y13")
		g.f("\tMOVQ $%d, R10", fold)
		g.f("\tJMP %s", lab)
	}
	g.f("")
	g.f("%s:", done)
	g.f("\tVPSADBW Y11, Y13, Y13")
	g.f("\tVPADDQ Y13, Y12, Y12")
	g.f("\tVEXTRACTI128 $1, Y12, X2")
	g.f("\tVPADDQ X2, X12, X12")
	g.f("\tVPSHUFD $0x4E, X12, X2")
	g.f("\tVPADDQ X2, X12, X12")
	g.f("\tVMOVQ X12, AX")
	g.f("\tVZEROUPPER")
	g.f("\tMOVQ AX, ret+40(FP)")
	g.f("\tRET")
	g.f("")
}

func main() {
	var g gen
	g.f("// Code generated by gen_count.go; DO NOT EDIT.")
	g.f("")
	g.f("//go:build amd64 && !purego")
	g.f("")
	g.f("#include \"textflag.h\"")
	g.f("")
	g.f("// The counting loops of the amd64 kernels (see match.go): for each item,")
	g.f("// the AND of one 64-byte table entry per chunk, its bits counted. One")
	g.f("// loop per table layout, the chunks' offsets and shifts immediate; the")
	g.f("// AVX-512 loops take two items an iteration (two independent chains).")
	g.f("")
	g.avx512(false)
	g.avx512(true)
	g.avx2(false)
	g.avx2(true)
	out := "count_amd64.s"
	if len(os.Args) > 1 {
		out = os.Args[1] // a test's
	}
	if err := os.WriteFile(out, g.b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
