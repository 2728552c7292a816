//go:build amd64 && !purego

#include "textflag.h"

// The join kernel for CPUs with AVX2 (and BMI2's RORX), such as Zen 3:
// countAVX512's loop on two 256-bit halves of each entry, with the
// population count done on nibbles by VPSHUFB (AVX2 has no VPOPCNTQ).

// Nibble population counts, 0..4, for VPSHUFB.
DATA ·nibbleCount+0(SB)/8, $0x0302020102010100
DATA ·nibbleCount+8(SB)/8, $0x0403030203020201
DATA ·nibbleCount+16(SB)/8, $0x0302020102010100
DATA ·nibbleCount+24(SB)/8, $0x0403030203020201
GLOBL ·nibbleCount(SB), RODATA|NOPTR, $32

DATA ·lowNibbles+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ·lowNibbles+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ·lowNibbles+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ·lowNibbles+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL ·lowNibbles(SB), RODATA|NOPTR, $32

// The counting loops are generated: count_amd64.s.

// func tablesAVX2(t *entry, planes *entry, valid *entry, nch, wide, m, narrow int)
//
// tablesAVX512 on two 256-bit halves.
TEXT ·tablesAVX2(SB), NOSPLIT, $0-56
	MOVQ t+0(FP), DI
	MOVQ planes+8(FP), SI
	MOVQ valid+16(FP), AX
	MOVQ nch+24(FP), CX
	MOVQ wide+32(FP), R13
	MOVQ m+40(FP), R8
	VPCMPEQQ Y15, Y15, Y15
	VMOVDQU  (AX), Y0
	VMOVDQU  32(AX), Y1
	XORQ DX, DX

chunk:
	TESTQ CX, CX
	JZ    bdone
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	MOVQ $64, R10
	MOVQ narrow+48(FP), R14
	TESTQ R13, R13
	JZ    bit
	SHLQ $1, R14
	DECQ R13

bit:
	VMOVDQA Y15, Y2
	VMOVDQA Y15, Y3
	CMPQ    DX, R8
	JGE     ones
	VMOVDQU (SI), Y2
	VMOVDQU 32(SI), Y3

ones:
	LEAQ (DI)(R10*1), R12
	XORQ R11, R11

entry:
	VPAND   (DI)(R11*1), Y2, Y4
	VPAND   32(DI)(R11*1), Y3, Y5
	VMOVDQU Y4, (R12)(R11*1)
	VMOVDQU Y5, 32(R12)(R11*1)
	ADDQ    $64, R11
	CMPQ    R11, R10
	JLT     entry
	ADDQ $64, SI
	INCQ DX
	SHLQ $1, R10
	CMPQ R10, R14
	JLT  bit
	ADDQ R14, DI
	VMOVDQA Y15, Y0
	VMOVDQA Y15, Y1
	DECQ CX
	JMP  chunk

bdone:
	VZEROUPPER
	RET

// func pairsAVX2(e *uint64, ne int, w *uint64, nw int) uint64
//
// pairsAVX512 on four of e an iteration: VPAND, VPCMPEQQ with zero (-1
// in the lanes with no bit in common), VPSUBQ into Y0. The last, partial
// four is ANDed with tail4's mask of its lanes present (it reads up to
// three patterns beyond e, which the caller leaves). ne, nw >= 1.
TEXT ·pairsAVX2(SB), NOSPLIT, $0-40
	MOVQ e+0(FP), SI
	MOVQ ne+8(FP), R8
	MOVQ w+16(FP), DI
	MOVQ nw+24(FP), CX
	MOVQ R8, AX
	ANDQ $3, AX
	SHLQ $5, AX
	LEAQ ·tail4(SB), BX
	VMOVDQU (BX)(AX*1), Y7
	VPXOR   Y0, Y0, Y0
	VPXOR   Y5, Y5, Y5
	MOVQ    R8, R9
	SHRQ    $2, R9
	ANDQ    $3, R8

qwloop:
	VPBROADCASTQ (DI), Y1
	MOVQ  SI, R10
	MOVQ  R9, R11
	TESTQ R11, R11
	JZ    qetail

qeloop:
	VPAND    (R10), Y1, Y2
	VPCMPEQQ Y5, Y2, Y2
	VPSUBQ   Y2, Y0, Y0
	ADDQ     $32, R10
	DECQ     R11
	JNZ      qeloop

qetail:
	TESTQ    R8, R8
	JZ       qnext
	VPAND    (R10), Y1, Y2
	VPCMPEQQ Y5, Y2, Y2
	VPAND    Y7, Y2, Y2
	VPSUBQ   Y2, Y0, Y0

qnext:
	ADDQ $8, DI
	DECQ CX
	JNZ  qwloop

	VEXTRACTI128 $1, Y0, X2
	VPADDQ       X2, X0, X0
	VPSHUFD      $0x4E, X0, X2
	VPADDQ       X2, X0, X0
	VMOVQ        X0, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

// Byte shuffle for transposeAVX2: in each 128-bit lane, word w takes byte
// w of the lane's two patterns.
DATA ·pairBytes+0(SB)/8, $0x0b030a0209010800
DATA ·pairBytes+8(SB)/8, $0x0f070e060d050c04
DATA ·pairBytes+16(SB)/8, $0x0b030a0209010800
DATA ·pairBytes+24(SB)/8, $0x0f070e060d050c04
GLOBL ·pairBytes(SB), RODATA|NOPTR, $32

DATA ·allOnes+0(SB)/8, $-1
DATA ·allOnes+8(SB)/8, $-1
DATA ·allOnes+16(SB)/8, $-1
DATA ·allOnes+24(SB)/8, $-1
GLOBL ·allOnes(SB), RODATA|NOPTR, $32

// LOAD2(r, y, x) loads into y the patterns 2r, 2r+1 (low lane) and
// 16+2r, 16+2r+1 (high lane) of the 32 at SI, inverted, each lane's
// bytes paired by pairBytes.
#define LOAD2(off, y, x) \
	VMOVDQU     off(SI), x \
	VINSERTI128 $1, (off+128)(SI), y, y \
	VPXOR       ·allOnes(SB), y, y \
	VPSHUFB     ·pairBytes(SB), y, y

// MSK(v, b) stores the top bits of v's 32 bytes as the 32-bit half at DI
// of plane b, and moves every byte's next bit up.
#define MSK(v, b) \
	VPMOVMSKB v, AX \
	MOVL      AX, (b*64)(DI) \
	VPADDB    v, v, v

// BYTE(v, j) stores the planes of bits 8j..8j+7 from v, which holds byte
// j of the 32 patterns, when the patterns have more than 8j bits.
#define BYTE(v, j, skip) \
	CMPQ CX, $j \
	JLE  skip \
	MSK(v, (8*j+7)) \
	MSK(v, (8*j+6)) \
	MSK(v, (8*j+5)) \
	MSK(v, (8*j+4)) \
	MSK(v, (8*j+3)) \
	MSK(v, (8*j+2)) \
	MSK(v, (8*j+1)) \
	MSK(v, (8*j))

// func transpose32AVX2(planes *uint32, pats *uint64, nbytes int)
//
// Writes the 32-bit half at planes of the first 8·nbytes planes (64
// bytes apart) from 32 patterns: bit i of plane b is set when pattern i
// lacks bit b. The patterns are inverted and regrouped so that register
// j holds byte j of the 32, in order (an 8×8 transposition of 16-bit
// pairs within lanes: VPUNPCK*WD, *DQ, *QDQ), then VPMOVMSKB peels off
// each bit.
TEXT ·transpose32AVX2(SB), NOSPLIT, $0-24
	MOVQ planes+0(FP), DI
	MOVQ pats+8(FP), SI
	MOVQ nbytes+16(FP), CX
	LOAD2(0, Y0, X0)
	LOAD2(16, Y1, X1)
	LOAD2(32, Y2, X2)
	LOAD2(48, Y3, X3)
	LOAD2(64, Y4, X4)
	LOAD2(80, Y5, X5)
	LOAD2(96, Y6, X6)
	LOAD2(112, Y7, X7)
	VPUNPCKLWD Y1, Y0, Y8
	VPUNPCKHWD Y1, Y0, Y9
	VPUNPCKLWD Y3, Y2, Y10
	VPUNPCKHWD Y3, Y2, Y11
	VPUNPCKLWD Y5, Y4, Y12
	VPUNPCKHWD Y5, Y4, Y13
	VPUNPCKLWD Y7, Y6, Y14
	VPUNPCKHWD Y7, Y6, Y15
	VPUNPCKLDQ Y10, Y8, Y0
	VPUNPCKHDQ Y10, Y8, Y1
	VPUNPCKLDQ Y11, Y9, Y2
	VPUNPCKHDQ Y11, Y9, Y3
	VPUNPCKLDQ Y14, Y12, Y4
	VPUNPCKHDQ Y14, Y12, Y5
	VPUNPCKLDQ Y15, Y13, Y6
	VPUNPCKHDQ Y15, Y13, Y7
	VPUNPCKLQDQ Y4, Y0, Y8
	VPUNPCKHQDQ Y4, Y0, Y9
	VPUNPCKLQDQ Y5, Y1, Y10
	VPUNPCKHQDQ Y5, Y1, Y11
	VPUNPCKLQDQ Y6, Y2, Y12
	VPUNPCKHQDQ Y6, Y2, Y13
	VPUNPCKLQDQ Y7, Y3, Y14
	VPUNPCKHQDQ Y7, Y3, Y15
	// Register 8+j holds byte j of the 32 patterns, in order.
	BYTE(Y8, 0, tdone)
	BYTE(Y9, 1, tdone)
	BYTE(Y10, 2, tdone)
	BYTE(Y11, 3, tdone)
	BYTE(Y12, 4, tdone)
	BYTE(Y13, 5, tdone)
	BYTE(Y14, 6, tdone)
	BYTE(Y15, 7, tdone)

tdone:
	VZEROUPPER
	RET
