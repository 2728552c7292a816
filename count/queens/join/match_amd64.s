//go:build amd64 && !purego

#include "textflag.h"

// The join kernels for CPUs with AVX-512F, AVX512BW, AVX512VBMI and
// AVX512_VPOPCNTDQ (and BMI2's RORX). See match.go for the tables.

// ONE(off, sh, w, t, z) ANDs into z the entry of the chunk at byte offset
// off picked by bits sh+6.. of w (RORX by sh puts them at bits 6..11,
// the byte offset of a 64-byte entry); t is scratch.
#define ONE(off, sh, w, t, z) \
	RORXQ $sh, w, t \
	ANDQ  $0xFC0, t \
	VPANDQ off(DI)(t*1), z, z

// TWO does ONE for two items at once: w, t, z and w2, t2, z2.
#define TWO(off, sh) \
	ONE(off, sh, AX, BX, Z0) \
	ONE(off, sh, R8, R9, Z2)

// FIRST loads chunk 0's entry for both items (RORX by 58 is a rotate
// left by 6).
#define FIRST \
	RORXQ $58, AX, BX \
	ANDQ  $0xFC0, BX \
	VMOVDQU64 (DI)(BX*1), Z0 \
	RORXQ $58, R8, R9 \
	ANDQ  $0xFC0, R9 \
	VMOVDQU64 (DI)(R9*1), Z2

#define FIRST1 \
	RORXQ $58, AX, BX \
	ANDQ  $0xFC0, BX \
	VMOVDQU64 (DI)(BX*1), Z0

#define C0
#define S0
#define C1 TWO(4096, 0)
#define C2 C1; TWO(8192, 6)
#define C3 C2; TWO(12288, 12)
#define C4 C3; TWO(16384, 18)
#define C5 C4; TWO(20480, 24)
#define C6 C5; TWO(24576, 30)
#define C7 C6; TWO(28672, 36)
#define C8 C7; TWO(32768, 42)
#define C9 C8; TWO(36864, 48)
#define C10 C9; TWO(40960, 54)

#define S1 ONE(4096, 0, AX, BX, Z0)
#define S2 S1; ONE(8192, 6, AX, BX, Z0)
#define S3 S2; ONE(12288, 12, AX, BX, Z0)
#define S4 S3; ONE(16384, 18, AX, BX, Z0)
#define S5 S4; ONE(20480, 24, AX, BX, Z0)
#define S6 S5; ONE(24576, 30, AX, BX, Z0)
#define S7 S6; ONE(28672, 36, AX, BX, Z0)
#define S8 S7; ONE(32768, 42, AX, BX, Z0)
#define S9 S8; ONE(36864, 48, AX, BX, Z0)
#define S10 S9; ONE(40960, 54, AX, BX, Z0)

// LOOP(k, more, single) is the loop for k+1 chunks: pairs of items, then
// a last single item.
#define LOOP(pair, tail, more, single) \
pair: \
	CMPQ CX, $2 \
	JLT  tail \
	MOVQ (SI), AX \
	MOVQ 8(SI), R8 \
	FIRST \
	more \
	VPOPCNTQ Z0, Z0 \
	VPOPCNTQ Z2, Z2 \
	VPADDQ   Z0, Z1, Z1 \
	VPADDQ   Z2, Z1, Z1 \
	ADDQ $16, SI \
	SUBQ $2, CX \
	JMP  pair \
tail: \
	TESTQ CX, CX \
	JZ    done \
	MOVQ  (SI), AX \
	FIRST1 \
	single \
	VPOPCNTQ Z0, Z0 \
	VPADDQ   Z0, Z1, Z1 \
	JMP   done

// func countAVX512(t *entry, items []uint64, nch int) uint64
//
// For each item w it ANDs one 64-byte entry per chunk of 6 bits of w
// (entry (w>>6j)&63 of chunk j; chunks 4096 bytes apart), counts the
// bits left with VPOPCNTQ and adds the eight counts into Z1, whose lanes
// are summed at the end. Two items per iteration keep two independent
// chains in flight; one loop per chunk count keeps the chunks unrolled.
//
// Registers: DI tables, SI items, CX items left, AX BX R8 R9 scratch,
// Z0 Z2 the running ANDs, Z1 the counts.
TEXT ·countAVX512(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ items_base+8(FP), SI
	MOVQ items_len+16(FP), CX
	MOVQ nch+32(FP), DX
	VPXORQ Z1, Z1, Z1
	CMPQ DX, $1
	JEQ  n1
	CMPQ DX, $2
	JEQ  n2
	CMPQ DX, $3
	JEQ  n3
	CMPQ DX, $4
	JEQ  n4
	CMPQ DX, $5
	JEQ  n5
	CMPQ DX, $6
	JEQ  n6
	CMPQ DX, $7
	JEQ  n7
	CMPQ DX, $8
	JEQ  n8
	CMPQ DX, $9
	JEQ  n9
	CMPQ DX, $10
	JEQ  n10
	CMPQ DX, $11
	JEQ  n11
	JMP  done

	LOOP(n1, t1, C0, S0)
	LOOP(n2, t2, C1, S1)
	LOOP(n3, t3, C2, S2)
	LOOP(n4, t4, C3, S3)
	LOOP(n5, t5, C4, S4)
	LOOP(n6, t6, C5, S5)
	LOOP(n7, t7, C6, S6)
	LOOP(n8, t8, C7, S7)
	LOOP(n9, t9, C8, S8)
	LOOP(n10, t10, C9, S9)
	LOOP(n11, t11, C10, S10)

done:
	VEXTRACTI64X4 $1, Z1, Y2
	VPADDQ        Y2, Y1, Y1
	VEXTRACTI128  $1, Y1, X2
	VPADDQ        X2, X1, X1
	VPSHUFD       $0x4E, X1, X2
	VPADDQ        X2, X1, X1
	VMOVQ         X1, AX
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// The half kernel: countAVX512 on the first 256 patterns of the block
// only (the first half of every entry, Y registers), for blocks of at most
// 256 patterns: half the bytes read and the vector work of a full block.

#define TWOY(off, sh) \
	ONE(off, sh, AX, BX, Y0) \
	ONE(off, sh, R8, R9, Y2)

#define FIRSTY \
	RORXQ $58, AX, BX \
	ANDQ  $0xFC0, BX \
	VMOVDQU64 (DI)(BX*1), Y0 \
	RORXQ $58, R8, R9 \
	ANDQ  $0xFC0, R9 \
	VMOVDQU64 (DI)(R9*1), Y2

#define FIRST1Y \
	RORXQ $58, AX, BX \
	ANDQ  $0xFC0, BX \
	VMOVDQU64 (DI)(BX*1), Y0

#define H0
#define H1 TWOY(4096, 0)
#define H2 H1; TWOY(8192, 6)
#define H3 H2; TWOY(12288, 12)
#define H4 H3; TWOY(16384, 18)
#define H5 H4; TWOY(20480, 24)
#define H6 H5; TWOY(24576, 30)
#define H7 H6; TWOY(28672, 36)
#define H8 H7; TWOY(32768, 42)
#define H9 H8; TWOY(36864, 48)
#define H10 H9; TWOY(40960, 54)

#define HS0
#define HS1 ONE(4096, 0, AX, BX, Y0)
#define HS2 HS1; ONE(8192, 6, AX, BX, Y0)
#define HS3 HS2; ONE(12288, 12, AX, BX, Y0)
#define HS4 HS3; ONE(16384, 18, AX, BX, Y0)
#define HS5 HS4; ONE(20480, 24, AX, BX, Y0)
#define HS6 HS5; ONE(24576, 30, AX, BX, Y0)
#define HS7 HS6; ONE(28672, 36, AX, BX, Y0)
#define HS8 HS7; ONE(32768, 42, AX, BX, Y0)
#define HS9 HS8; ONE(36864, 48, AX, BX, Y0)
#define HS10 HS9; ONE(40960, 54, AX, BX, Y0)

#define LOOPY(pair, tail, more, single) \
pair: \
	CMPQ CX, $2 \
	JLT  tail \
	MOVQ (SI), AX \
	MOVQ 8(SI), R8 \
	FIRSTY \
	more \
	VPOPCNTQ Y0, Y0 \
	VPOPCNTQ Y2, Y2 \
	VPADDQ   Y0, Y1, Y1 \
	VPADDQ   Y2, Y1, Y1 \
	ADDQ $16, SI \
	SUBQ $2, CX \
	JMP  pair \
tail: \
	TESTQ CX, CX \
	JZ    hdone \
	MOVQ  (SI), AX \
	FIRST1Y \
	single \
	VPOPCNTQ Y0, Y0 \
	VPADDQ   Y0, Y1, Y1 \
	JMP   hdone

// func countHalfAVX512(t *entry, items []uint64, nch int) uint64
TEXT ·countHalfAVX512(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ items_base+8(FP), SI
	MOVQ items_len+16(FP), CX
	MOVQ nch+32(FP), DX
	VPXORQ Y1, Y1, Y1
	CMPQ DX, $1
	JEQ  h1
	CMPQ DX, $2
	JEQ  h2
	CMPQ DX, $3
	JEQ  h3
	CMPQ DX, $4
	JEQ  h4
	CMPQ DX, $5
	JEQ  h5
	CMPQ DX, $6
	JEQ  h6
	CMPQ DX, $7
	JEQ  h7
	CMPQ DX, $8
	JEQ  h8
	CMPQ DX, $9
	JEQ  h9
	CMPQ DX, $10
	JEQ  h10
	CMPQ DX, $11
	JEQ  h11
	JMP  hdone

	LOOPY(h1, ht1, H0, HS0)
	LOOPY(h2, ht2, H1, HS1)
	LOOPY(h3, ht3, H2, HS2)
	LOOPY(h4, ht4, H3, HS3)
	LOOPY(h5, ht5, H4, HS4)
	LOOPY(h6, ht6, H5, HS5)
	LOOPY(h7, ht7, H6, HS6)
	LOOPY(h8, ht8, H7, HS7)
	LOOPY(h9, ht9, H8, HS8)
	LOOPY(h10, ht10, H9, HS9)
	LOOPY(h11, ht11, H10, HS10)

hdone:
	VEXTRACTI128 $1, Y1, X2
	VPADDQ       X2, X1, X1
	VPSHUFD      $0x4E, X1, X2
	VPADDQ       X2, X1, X1
	VMOVQ        X1, AX
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// Byte permutation for transposeAVX512: output byte 8j+i takes input
// byte 8i+j (byte j of the i-th pattern of a register).
DATA ·bytePerm+0(SB)/8, $0x3830282018100800
DATA ·bytePerm+8(SB)/8, $0x3931292119110901
DATA ·bytePerm+16(SB)/8, $0x3a322a221a120a02
DATA ·bytePerm+24(SB)/8, $0x3b332b231b130b03
DATA ·bytePerm+32(SB)/8, $0x3c342c241c140c04
DATA ·bytePerm+40(SB)/8, $0x3d352d251d150d05
DATA ·bytePerm+48(SB)/8, $0x3e362e261e160e06
DATA ·bytePerm+56(SB)/8, $0x3f372f271f170f07
GLOBL ·bytePerm(SB), RODATA|NOPTR, $64

// PLANES8(v, off) stores the 8 planes of byte register v: VPMOVB2M takes
// the top bit of each of its 64 bytes (one byte per pattern), VPADDB
// shifts every byte left by one for the next bit down.
#define PLANES8(v, off) \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+448)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+384)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+320)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+256)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+192)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+128)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, (off+64)(DI) \
	VPADDB   v, v, v \
	VPMOVB2M v, K1 \
	KMOVQ    K1, off(DI)

// func transposeAVX512(planes *entry, pats *uint64, groups int)
//
// For each group g of 64 patterns (pats[64g:64g+64]) it writes word g of
// the 64 planes: bit i of planes[b][g] is set when pattern 64g+i lacks
// bit b. The patterns are inverted, each register's bytes regrouped by
// byte index (VPERMB), the 8×8 matrix of quadwords of the 8 registers
// transposed (VPUNPCK*QDQ, VSHUFI64X2), so that register j holds byte j
// of the 64 patterns, and its 8 bit planes are peeled off with VPMOVB2M.
TEXT ·transposeAVX512(SB), NOSPLIT, $0-24
	MOVQ planes+0(FP), DI
	MOVQ pats+8(FP), SI
	MOVQ groups+16(FP), CX
	VMOVDQU64  ·bytePerm(SB), Z30
	VPTERNLOGQ $0xFF, Z31, Z31, Z31

tloop:
	TESTQ CX, CX
	JZ    tdone
	VPXORQ 0(SI), Z31, Z0
	VPXORQ 64(SI), Z31, Z1
	VPXORQ 128(SI), Z31, Z2
	VPXORQ 192(SI), Z31, Z3
	VPXORQ 256(SI), Z31, Z4
	VPXORQ 320(SI), Z31, Z5
	VPXORQ 384(SI), Z31, Z6
	VPXORQ 448(SI), Z31, Z7
	VPERMB Z0, Z30, Z0
	VPERMB Z1, Z30, Z1
	VPERMB Z2, Z30, Z2
	VPERMB Z3, Z30, Z3
	VPERMB Z4, Z30, Z4
	VPERMB Z5, Z30, Z5
	VPERMB Z6, Z30, Z6
	VPERMB Z7, Z30, Z7
	// Quadword k of register j is now byte k of patterns 8j..8j+7.
	VPUNPCKLQDQ Z1, Z0, Z16
	VPUNPCKHQDQ Z1, Z0, Z17
	VPUNPCKLQDQ Z3, Z2, Z18
	VPUNPCKHQDQ Z3, Z2, Z19
	VPUNPCKLQDQ Z5, Z4, Z20
	VPUNPCKHQDQ Z5, Z4, Z21
	VPUNPCKLQDQ Z7, Z6, Z22
	VPUNPCKHQDQ Z7, Z6, Z23
	VSHUFI64X2  $0x88, Z18, Z16, Z24
	VSHUFI64X2  $0xDD, Z18, Z16, Z25
	VSHUFI64X2  $0x88, Z19, Z17, Z26
	VSHUFI64X2  $0xDD, Z19, Z17, Z27
	VSHUFI64X2  $0x88, Z22, Z20, Z28
	VSHUFI64X2  $0xDD, Z22, Z20, Z29
	VSHUFI64X2  $0x88, Z23, Z21, Z0
	VSHUFI64X2  $0xDD, Z23, Z21, Z1
	VSHUFI64X2  $0x88, Z28, Z24, Z8
	VSHUFI64X2  $0xDD, Z28, Z24, Z12
	VSHUFI64X2  $0x88, Z29, Z25, Z10
	VSHUFI64X2  $0xDD, Z29, Z25, Z14
	VSHUFI64X2  $0x88, Z0, Z26, Z9
	VSHUFI64X2  $0xDD, Z0, Z26, Z13
	VSHUFI64X2  $0x88, Z1, Z27, Z11
	VSHUFI64X2  $0xDD, Z1, Z27, Z15
	// Register 8+j holds byte j of the 64 patterns, in order.
	PLANES8(Z8, 0)
	PLANES8(Z9, 512)
	PLANES8(Z10, 1024)
	PLANES8(Z11, 1536)
	PLANES8(Z12, 2048)
	PLANES8(Z13, 2560)
	PLANES8(Z14, 3072)
	PLANES8(Z15, 3584)
	ADDQ $512, SI
	ADDQ $8, DI
	DECQ CX
	JMP  tloop

tdone:
	VZEROUPPER
	RET

// func tablesAVX512(t *entry, planes *entry, valid *entry, nch, m int)
//
// Fills nch chunks of 64 entries: entry v of chunk j is the AND of the
// planes of the bits of v (bit 6j+i for bit i of v; planes of bits m and
// above count as all ones), and of valid for chunk 0. Entries 2^i..2^(i+1)-1
// are entries 0..2^i-1 ANDed with plane i, one VPANDQ each.
//
// Registers: DI the chunk, SI the plane of its first bit, DX bit index,
// R8 m, CX chunks left, R10 the half's byte offset, R11 the entry
// offset, R12 DI+R10, Z0 the first entry, Z1 the plane, Z2 scratch,
// Z31 all ones.
TEXT ·tablesAVX512(SB), NOSPLIT, $0-40
	MOVQ t+0(FP), DI
	MOVQ planes+8(FP), SI
	MOVQ valid+16(FP), AX
	MOVQ nch+24(FP), CX
	MOVQ m+32(FP), R8
	VPTERNLOGQ $0xFF, Z31, Z31, Z31
	VMOVDQU64  (AX), Z0
	XORQ DX, DX

chunk:
	TESTQ CX, CX
	JZ    bdone
	VMOVDQU64 Z0, (DI)
	MOVQ $64, R10

bit:
	VMOVDQA64 Z31, Z1
	CMPQ      DX, R8
	JGE       ones
	VMOVDQU64 (SI), Z1

ones:
	LEAQ (DI)(R10*1), R12
	XORQ R11, R11

entry:
	VPANDQ    (DI)(R11*1), Z1, Z2
	VMOVDQU64 Z2, (R12)(R11*1)
	ADDQ      $64, R11
	CMPQ      R11, R10
	JLT       entry
	ADDQ $64, SI
	INCQ DX
	SHLQ $1, R10
	CMPQ R10, $4096
	JLT  bit
	ADDQ $4096, DI
	VMOVDQA64 Z31, Z0
	DECQ CX
	JMP  chunk

bdone:
	VZEROUPPER
	RET

// func pairsAVX512(e *uint64, ne int, w *uint64, nw int) uint64
//
// The pairs of e and w with no bit in common, one by one: for each w
// (broadcast), eight of e a VPTESTNMQ, whose lanes a masked VPSUBQ of -1
// counts in Z0. The last, partial eight of e is masked (K3). ne, nw >= 1.
TEXT ·pairsAVX512(SB), NOSPLIT, $0-40
	MOVQ e+0(FP), SI
	MOVQ ne+8(FP), R8
	MOVQ w+16(FP), DI
	MOVQ nw+24(FP), CX
	VPXORQ     Z0, Z0, Z0
	VPTERNLOGQ $0xFF, Z31, Z31, Z31
	MOVQ  R8, AX
	ANDQ  $7, AX
	MOVQ  $0xFF, BX
	BZHIQ AX, BX, BX
	KMOVB BX, K3
	MOVQ  R8, R9
	SHRQ  $3, R9

pwloop:
	VPBROADCASTQ (DI), Z1
	MOVQ  SI, R10
	MOVQ  R9, R11
	TESTQ R11, R11
	JZ    petail

peloop:
	VPTESTNMQ (R10), Z1, K1
	VPSUBQ    Z31, Z0, K1, Z0
	ADDQ      $64, R10
	DECQ      R11
	JNZ       peloop

petail:
	VPTESTNMQ (R10), Z1, K3, K1
	VPSUBQ    Z31, Z0, K1, Z0
	ADDQ      $8, DI
	DECQ      CX
	JNZ       pwloop

	VEXTRACTI64X4 $1, Z0, Y2
	VPADDQ        Y2, Y0, Y0
	VEXTRACTI128  $1, Y0, X2
	VPADDQ        X2, X0, X0
	VPSHUFD       $0x4E, X0, X2
	VPADDQ        X2, X0, X0
	VMOVQ         X0, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET
