//go:build amd64 && !purego

#include "textflag.h"

// The join kernels for CPUs with AVX-512F, AVX512BW, AVX512VBMI and
// AVX512_VPOPCNTDQ (and BMI2's RORX). See match.go for the tables.

// The counting loops are generated: count_amd64.s.

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

// func tablesAVX512(t *entry, planes *entry, valid *entry, nch, wide, m, narrow int)
//
// Fills nch chunks, the first wide of 2·narrow bytes (one bit more), the
// others of narrow bytes (64 bytes an entry): entry v of a chunk is the AND of the planes of the bits of v
// (the chunk's first bit plus i for bit i of v; planes of bits m and
// above count as all ones), and of valid for chunk 0. Entries
// 2^i..2^(i+1)-1 are entries 0..2^i-1 ANDed with plane i, one VPANDQ
// each.
//
// Registers: DI the chunk, SI the plane of its first bit, DX bit index,
// R8 m, CX chunks left, R13 wide chunks left, R14 the chunk's bytes, R10
// the half's byte offset, R11 the entry offset, R12 DI+R10, Z0 the first
// entry, Z1 the plane, Z2 scratch, Z31 all ones.
TEXT ·tablesAVX512(SB), NOSPLIT, $0-56
	MOVQ t+0(FP), DI
	MOVQ planes+8(FP), SI
	MOVQ valid+16(FP), AX
	MOVQ nch+24(FP), CX
	MOVQ wide+32(FP), R13
	MOVQ m+40(FP), R8
	VPTERNLOGQ $0xFF, Z31, Z31, Z31
	VMOVDQU64  (AX), Z0
	XORQ DX, DX

chunk:
	TESTQ CX, CX
	JZ    bdone
	VMOVDQU64 Z0, (DI)
	MOVQ $64, R10
	MOVQ narrow+48(FP), R14
	TESTQ R13, R13
	JZ    bit
	SHLQ $1, R14
	DECQ R13

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
	CMPQ R10, R14
	JLT  bit
	ADDQ R14, DI
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
