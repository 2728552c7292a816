// Command _gen writes the counting loops of the join's amd64 kernels with
// avo: one function per table layout (see layout in ../match.go) for
// AVX-512 and AVX2, full blocks and half ones, and the Go table in which
// the kernels look up the loops of a block's layout (loopOf).
//
//	cd count/queens/join/_gen && go run . -pkg join -out ../count_amd64.s -stubs ../count_stubs_amd64.go -loops ../count_loops_amd64.go
//
// go generate ./count/queens/join runs it; TestGeneratedKernels checks
// that the files are what it writes now.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// families are match.go's (smallBits, smallBudget) and (largeBits,
// largeBudget); TestLayout checks that every layout match.go can choose
// has loops here.
var families = []struct{ bits, budget int }{{6, 28 << 10}, {8, 128 << 10}}

// layout is match.go's: nch chunks, the first wide of bits+1 bits, the
// others of bits.
type layout struct{ nch, bits, wide int }

// code is layout.code in match.go.
func (l layout) code() int { return l.nch<<8 | l.bits<<4 | l.wide }

// name is the layout's part of its loops' names: chunks, bits, wide.
func (l layout) name() string { return fmt.Sprintf("%d_%d_%d", l.nch, l.bits, l.wide) }

// layouts lists every layout of each family: narrow chunks up to 62 bits,
// and layouts with wide chunks within the family's budget.
func layouts() []layout {
	var ls []layout
	for _, f := range families {
		for nch := 1; nch <= (62+f.bits-1)/f.bits; nch++ {
			for wide := 0; wide <= nch; wide++ {
				if wide > 0 && (nch+wide)*64<<f.bits > f.budget {
					break
				}
				ls = append(ls, layout{nch, f.bits, wide})
			}
		}
	}
	return ls
}

// chunk returns chunk j's byte offset in the tables, the rotation that
// puts its index at bits 6 and up (a 64-byte entry's byte offset) and
// the mask of that index.
func (l layout) chunk(j int) (off, rot int, mask uint64) {
	b := l.bits
	shift := (b+1)*min(j, l.wide) + b*max(j-l.wide, 0)
	off = 64 * (2<<b*min(j, l.wide) + 1<<b*max(j-l.wide, 0))
	bits := b
	if j < l.wide {
		bits = b + 1
	}
	return off, (shift - 6 + 64) % 64, (1<<uint(bits) - 1) << 6
}

// lookup emits the load (j == 0) or the AND into z of chunk j's entry
// for item w (its offset in a fresh register), and of the entry's second
// 32 bytes into z2 unless it is nil (AVX2's full blocks). mov and and are
// the family's instructions.
func lookup(l layout, j int, tab, w reg.Register, z, z2 reg.VecVirtual, mov, and func(...Op)) {
	off, rot, mask := l.chunk(j)
	t := GP64()
	RORXQ(U8(rot), w, t)
	ANDQ(U32(mask), t)
	at := func(d int) Mem { return Mem{Base: tab, Index: t, Scale: 1, Disp: off + d} }
	if j == 0 {
		mov(at(0), z)
		if z2 != nil {
			mov(at(32), z2)
		}
		return
	}
	and(at(0), z, z)
	if z2 != nil {
		and(at(32), z2, z2)
	}
}

// signature is every loop's: the tables, the items; the pairs counted.
const signature = "func(t *uint64, items []uint64) uint64"

// avx512 emits the AVX-512 loop of l: two items an iteration (two
// independent chains), their entries ANDed in Z registers (Y for half
// blocks) and counted by VPOPCNTQ into quadword sums.
func avx512(l layout, half bool) string {
	name := "countAVX512_" + l.name()
	vec := ZMM
	if half {
		name, vec = "countHalfAVX512_"+l.name(), YMM
	}
	TEXT(name, NOSPLIT, signature)
	Pragma("noescape")
	tab := Load(Param("t"), GP64())
	p := Load(Param("items").Base(), GP64())
	n := Load(Param("items").Len(), GP64())
	acc := vec()
	VPXORQ(acc, acc, acc)
	mov := func(ops ...Op) { VMOVDQU64(ops...) }
	and := func(ops ...Op) { VPANDQ(ops...) }

	Label("pair")
	CMPQ(n, Imm(2))
	JLT(LabelRef("one"))
	a, b := GP64(), GP64()
	MOVQ(Mem{Base: p}, a)
	MOVQ(Mem{Base: p, Disp: 8}, b)
	za, zb := vec(), vec()
	for j := 0; j < l.nch; j++ {
		lookup(l, j, tab, a, za, nil, mov, and)
		lookup(l, j, tab, b, zb, nil, mov, and)
	}
	popcnt(za)
	popcnt(zb)
	VPADDQ(za, acc, acc)
	VPADDQ(zb, acc, acc)
	ADDQ(Imm(16), p)
	SUBQ(Imm(2), n)
	JMP(LabelRef("pair"))

	Label("one")
	TESTQ(n, n)
	JZ(LabelRef("done"))
	c := GP64()
	MOVQ(Mem{Base: p}, c)
	zc := vec()
	for j := 0; j < l.nch; j++ {
		lookup(l, j, tab, c, zc, nil, mov, and)
	}
	popcnt(zc)
	VPADDQ(zc, acc, acc)

	Label("done")
	y := acc
	if !half {
		y = acc.AsY().(reg.VecVirtual)
		hi := YMM()
		VEXTRACTI64X4(Imm(1), acc, hi)
		VPADDQ(hi, y, y)
	}
	sum(y)
	return name
}

// popcnt counts the bits of each quadword of v in place. avo knows only
// the Z form of VPOPCNTQ; the Y form (AVX512VL) is emitted as it is.
func popcnt(v reg.VecVirtual) {
	if v.Size() == 64 {
		VPOPCNTQ(v, v)
		return
	}
	Instruction(&ir.Instruction{
		Opcode:   "VPOPCNTQ",
		Operands: []Op{v, v},
		Inputs:   []Op{v},
		Outputs:  []Op{v},
		ISA:      []string{"AVX512VL", "AVX512VPOPCNTDQ"},
	})
}

// sum stores the sum of y's four quadwords as the loop's result.
func sum(y reg.VecVirtual) {
	x, t := y.AsX(), XMM()
	VEXTRACTI128(Imm(1), y, t)
	VPADDQ(t, x, x)
	VPSHUFD(Imm(0x4e), x, t)
	VPADDQ(t, x, x)
	r := GP64()
	VMOVQ(x, r)
	VZEROUPPER()
	Store(r, ReturnIndex(0))
	RET()
}

// avx2 emits the AVX2 loop of l (half: the first 32 bytes of each
// entry), two items an iteration. Their bits are added by carry-save
// adders (Harley and Seal's method) into running vectors of weight 1 and
// 2 (ones, twos; half blocks: ones only), so that only the carries out
// of them, of weight 4 (half blocks: 2), are counted: per byte by VPSHUFB
// on nibbles, folded into quadword sums by VPSADBW every 30 pairs (at
// most 8 a byte a pair, 8 more for a last odd item). At the end the
// running vectors are counted with their weights.
func avx2(l layout, half bool, nibbles, lowNibbles Mem) string {
	const fold = 30
	name := "countAVX2_" + l.name()
	if half {
		name = "countHalfAVX2_" + l.name()
	}
	TEXT(name, NOSPLIT, signature)
	Pragma("noescape")
	tab := Load(Param("t"), GP64())
	p := Load(Param("items").Base(), GP64())
	n := Load(Param("items").Len(), GP64())
	count, low := YMM(), YMM()
	VMOVDQU(nibbles, count)
	VMOVDQU(lowNibbles, low)
	bytes, acc, ones, zero := YMM(), YMM(), YMM(), YMM()
	VPXOR(bytes, bytes, bytes)
	VPXOR(acc, acc, acc)
	VPXOR(ones, ones, ones)
	VPXOR(zero, zero, zero)
	var twos reg.VecVirtual
	if !half {
		twos = YMM()
		VPXOR(twos, twos, twos)
	}
	left := GP64()
	MOVQ(U32(fold), left)
	mov := func(ops ...Op) { VMOVDQU(ops[0], ops[1]) }
	and := func(ops ...Op) { VPAND(ops[0], ops[1], ops[2]) }
	// pop adds the bits of each byte of y to the bytes of into.
	pop := func(y, into reg.VecVirtual) {
		lo, hi := YMM(), YMM()
		VPAND(low, y, lo)
		VPSRLW(Imm(4), y, hi)
		VPAND(low, hi, hi)
		VPSHUFB(lo, count, lo)
		VPSHUFB(hi, count, hi)
		VPADDB(lo, into, into)
		VPADDB(hi, into, into)
	}
	// csa adds b and c to the running vector r (a carry-save adder):
	// r takes the sum bits, b the carries (of twice r's weight); c is
	// lost.
	csa := func(r, b, c reg.VecVirtual) {
		u := YMM()
		VPXOR(b, r, u)
		VPAND(r, b, b)
		VPXOR(c, u, r)
		VPAND(u, c, c)
		VPOR(c, b, b)
	}
	// items looks up the entries of the item at p+off into fresh
	// registers: its first 32 bytes, and (full blocks) its last.
	items := func(off int) (y0, y1 reg.VecVirtual) {
		w := GP64()
		MOVQ(Mem{Base: p, Disp: off}, w)
		y0 = YMM()
		if !half {
			y1 = YMM()
		}
		for j := 0; j < l.nch; j++ {
			lookup(l, j, tab, w, y0, y1, mov, and)
		}
		return y0, y1
	}

	Label("pair")
	CMPQ(n, Imm(2))
	JLT(LabelRef("odd"))
	a0, a1 := items(0)
	b0, b1 := items(8)
	if half {
		csa(ones, a0, b0) // a0: the carries, of weight 2
	} else {
		csa(ones, a0, a1) // a0: weight 2
		csa(ones, b0, b1) // b0: weight 2
		csa(twos, a0, b0) // a0: weight 4
	}
	pop(a0, bytes)
	ADDQ(Imm(16), p)
	SUBQ(Imm(2), n)
	DECQ(left)
	JNZ(LabelRef("pair"))
	VPSADBW(zero, bytes, bytes)
	VPADDQ(bytes, acc, acc)
	VPXOR(bytes, bytes, bytes)
	MOVQ(U32(fold), left)
	JMP(LabelRef("pair"))

	Label("odd")
	TESTQ(n, n)
	JZ(LabelRef("done"))
	c0, c1 := items(0)
	// A half adder into the lowest running vector that takes c's
	// weight; its carry is counted.
	r := ones
	if !half {
		csa(ones, c0, c1) // c0: weight 2
		r = twos
	}
	t := YMM()
	VPAND(c0, r, t)
	VPXOR(c0, r, r)
	pop(t, bytes)

	Label("done")
	// acc: the carries counted, of weight 4 (half blocks: 2).
	VPSADBW(zero, bytes, bytes)
	VPADDQ(bytes, acc, acc)
	VPXOR(bytes, bytes, bytes)
	if half {
		VPSLLQ(Imm(1), acc, acc)
	} else {
		VPSLLQ(Imm(2), acc, acc)
		pop(twos, bytes)
		pop(twos, bytes)
	}
	pop(ones, bytes)
	VPSADBW(zero, bytes, bytes)
	VPADDQ(bytes, acc, acc)
	sum(acc)
	return name
}

func main() {
	loops := flag.String("loops", "", "write the Go table of the loops to `file`")
	flag.Parse()
	ConstraintExpr("amd64,!purego")

	// The bits of each nibble value, and the mask of low nibbles, for
	// AVX2's VPSHUFB count.
	nibbles := GLOBL("nibbleBits", RODATA|NOPTR)
	for i := 0; i < 32; i += 16 {
		DATA(i, U64(0x0302020102010100))   // bytes 0-7: the bits of 0 to 7
		DATA(i+8, U64(0x0403030203020201)) // bytes 8-15: of 8 to 15
	}
	lowNibbles := GLOBL("lowNibbleMask", RODATA|NOPTR)
	for i := 0; i < 32; i += 8 {
		DATA(i, U64(0x0f0f0f0f0f0f0f0f))
	}

	var rows []string
	for _, l := range layouts() {
		f512, h512 := avx512(l, false), avx512(l, true)
		f2, h2 := avx2(l, false, nibbles, lowNibbles), avx2(l, true, nibbles, lowNibbles)
		rows = append(rows, fmt.Sprintf("\t{0x%x, %s, %s, %s, %s},\n", l.code(), f512, h512, f2, h2))
	}
	Generate()
	if *loops != "" {
		writeLoops(*loops, rows)
	}
}

// writeLoops writes the Go table of the loops, one row per layout.
func writeLoops(file string, rows []string) {
	var b bytes.Buffer
	b.WriteString(`// Code generated by command: go run . (count/queens/join/_gen). DO NOT EDIT.

//go:build amd64 && !purego

package join

// countLoops are one layout's counting loops (count_amd64.s): AVX-512
// and AVX2, full blocks and half ones.
type countLoops struct {
	code                                 int
	full512, half512, fullAVX2, halfAVX2 func(t *uint64, items []uint64) uint64
}

// loops are the loops of every layout the kernels can take.
var loops = [...]countLoops{
`)
	for _, r := range rows {
		b.WriteString(r)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err == nil {
		err = os.WriteFile(file, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
