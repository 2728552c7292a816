//go:build amd64 && !purego

#include "textflag.h"

// The vector kernels of halves (see halves.go): filterX stores the
// entries of a quadrant list the frame's queens do not attack, as
// conflict words and join patterns (patMap); crossX stores the patterns
// of the compatible pairs of two such lists. Both write whole vectors:
// up to a vector beyond the last entry kept (vecPad).

// patMap's fields.
#define PM_DOWN 0
#define PM_WIN 8
#define PM_A1 16
#define PM_B1 24
#define PM_M1 32
#define PM_A2 40
#define PM_B2 48
#define PM_M2 56

// func filterAVX512(c, p, src *uint64, n int, att uint64, pm *patMap) int
//
// Eight entries an iteration: the lanes not attacked (VPTESTNMQ against
// att, under the mask of the lanes present) are packed by VPCOMPRESSQ
// and stored whole; the count advances by their number.
//
// Registers: DI c, R8 p, SI src, CX entries left, AX entries kept, R9
// 0xFF, Z20 att, Z21..Z28 the map, Z29 the low halves' mask.
TEXT ·filterAVX512(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), DI
	MOVQ p+8(FP), R8
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ pm+40(FP), DX
	VPBROADCASTQ att+32(FP), Z20
	VPBROADCASTQ PM_DOWN(DX), Z21
	VPBROADCASTQ PM_WIN(DX), Z22
	VPBROADCASTQ PM_A1(DX), Z23
	VPBROADCASTQ PM_B1(DX), Z24
	VPBROADCASTQ PM_M1(DX), Z25
	VPBROADCASTQ PM_A2(DX), Z26
	VPBROADCASTQ PM_B2(DX), Z27
	VPBROADCASTQ PM_M2(DX), Z28
	MOVL $0xFFFFFFFF, AX
	VPBROADCASTQ AX, Z29
	XORQ AX, AX
	MOVQ $0xFF, R9
	KXNORB K1, K1, K1

floop:
	CMPQ CX, $8
	JLT  ftail

fbody:
	VMOVDQU64 (SI), K1, Z0
	VPTESTNMQ Z20, Z0, K1, K2
	VPSRLVQ   Z21, Z0, Z1
	VPANDQ    Z22, Z1, Z1
	VPANDQ    Z29, Z0, Z2
	VPSLLVQ   Z23, Z2, Z2
	VPSRLVQ   Z24, Z2, Z2
	VPANDQ    Z25, Z2, Z2
	VPSRLQ    $32, Z0, Z3
	VPSLLVQ   Z26, Z3, Z3
	VPSRLVQ   Z27, Z3, Z3
	VPTERNLOGQ $0xF8, Z28, Z3, Z2
	VPCOMPRESSQ Z1, K2, Z1
	VPCOMPRESSQ Z2, K2, Z2
	VMOVDQU64 Z1, (DI)(AX*8)
	VMOVDQU64 Z2, (R8)(AX*8)
	KMOVB     K2, R10
	POPCNTL   R10, R10
	ADDQ      R10, AX
	ADDQ      $64, SI
	SUBQ      $8, CX
	JMP       floop

ftail:
	TESTQ CX, CX
	JLE   fdone
	BZHIQ CX, R9, R10
	KMOVB R10, K1
	XORQ  CX, CX
	JMP   fbody

fdone:
	MOVQ AX, ret+48(FP)
	VZEROUPPER
	RET

// func crossAVX512(ac, ap *uint64, na int, bc, bp *uint64, nb int, out *uint64) int
//
// For each entry of a (conflict word and pattern broadcast), eight of b
// an iteration: VPTESTNMQ finds the compatible lanes, VPCOMPRESSQ packs
// their patterns (ORed with a's), stored whole at out. Returns the
// number stored. na, nb >= 1.
//
// Registers: R11 ac, R12 ap, R13 a left, BX bc, DX bp, R14 nb, DI out,
// R15 out's start, SI R8 CX the walk over b, R9 0xFF, Z1 Z2 a's entry.
TEXT ·crossAVX512(SB), NOSPLIT, $0-64
	MOVQ ac+0(FP), R11
	MOVQ ap+8(FP), R12
	MOVQ na+16(FP), R13
	MOVQ bc+24(FP), BX
	MOVQ bp+32(FP), DX
	MOVQ nb+40(FP), R14
	MOVQ out+48(FP), DI
	MOVQ DI, R15
	MOVQ $0xFF, R9

couter:
	VPBROADCASTQ (R11), Z1
	VPBROADCASTQ (R12), Z2
	MOVQ BX, SI
	MOVQ DX, R8
	MOVQ R14, CX

cinner:
	CMPQ CX, $8
	JLT  ctail
	VPTESTNMQ (SI), Z1, K2
	VPORQ     (R8), Z2, Z3
	VPCOMPRESSQ Z3, K2, Z3
	VMOVDQU64 Z3, (DI)
	KMOVB     K2, R10
	POPCNTL   R10, R10
	LEAQ      (DI)(R10*8), DI
	ADDQ      $64, SI
	ADDQ      $64, R8
	SUBQ      $8, CX
	JMP       cinner

ctail:
	TESTQ CX, CX
	JZ    cnext
	BZHIQ CX, R9, R10
	KMOVB R10, K1
	VPTESTNMQ (SI), Z1, K1, K2
	VPORQ     (R8), Z2, Z3
	VPCOMPRESSQ Z3, K2, Z3
	VMOVDQU64 Z3, (DI)
	KMOVB     K2, R10
	POPCNTL   R10, R10
	LEAQ      (DI)(R10*8), DI

cnext:
	ADDQ $8, R11
	ADDQ $8, R12
	DECQ R13
	JNZ  couter
	SUBQ R15, DI
	SHRQ $3, DI
	MOVQ DI, ret+56(FP)
	VZEROUPPER
	RET

// The AVX2 kernels pack the kept lanes of four with VPERMD and a table:
// compress4[m] moves the quadwords of the lanes set in the 4-bit mask m
// to the front, in order.
DATA ·compress4+0(SB)/8, $0x0000000000000000
DATA ·compress4+8(SB)/8, $0x0000000000000000
DATA ·compress4+16(SB)/8, $0x0000000000000000
DATA ·compress4+24(SB)/8, $0x0000000000000000
DATA ·compress4+32(SB)/8, $0x0000000100000000
DATA ·compress4+40(SB)/8, $0x0000000000000000
DATA ·compress4+48(SB)/8, $0x0000000000000000
DATA ·compress4+56(SB)/8, $0x0000000000000000
DATA ·compress4+64(SB)/8, $0x0000000300000002
DATA ·compress4+72(SB)/8, $0x0000000000000000
DATA ·compress4+80(SB)/8, $0x0000000000000000
DATA ·compress4+88(SB)/8, $0x0000000000000000
DATA ·compress4+96(SB)/8, $0x0000000100000000
DATA ·compress4+104(SB)/8, $0x0000000300000002
DATA ·compress4+112(SB)/8, $0x0000000000000000
DATA ·compress4+120(SB)/8, $0x0000000000000000
DATA ·compress4+128(SB)/8, $0x0000000500000004
DATA ·compress4+136(SB)/8, $0x0000000000000000
DATA ·compress4+144(SB)/8, $0x0000000000000000
DATA ·compress4+152(SB)/8, $0x0000000000000000
DATA ·compress4+160(SB)/8, $0x0000000100000000
DATA ·compress4+168(SB)/8, $0x0000000500000004
DATA ·compress4+176(SB)/8, $0x0000000000000000
DATA ·compress4+184(SB)/8, $0x0000000000000000
DATA ·compress4+192(SB)/8, $0x0000000300000002
DATA ·compress4+200(SB)/8, $0x0000000500000004
DATA ·compress4+208(SB)/8, $0x0000000000000000
DATA ·compress4+216(SB)/8, $0x0000000000000000
DATA ·compress4+224(SB)/8, $0x0000000100000000
DATA ·compress4+232(SB)/8, $0x0000000300000002
DATA ·compress4+240(SB)/8, $0x0000000500000004
DATA ·compress4+248(SB)/8, $0x0000000000000000
DATA ·compress4+256(SB)/8, $0x0000000700000006
DATA ·compress4+264(SB)/8, $0x0000000000000000
DATA ·compress4+272(SB)/8, $0x0000000000000000
DATA ·compress4+280(SB)/8, $0x0000000000000000
DATA ·compress4+288(SB)/8, $0x0000000100000000
DATA ·compress4+296(SB)/8, $0x0000000700000006
DATA ·compress4+304(SB)/8, $0x0000000000000000
DATA ·compress4+312(SB)/8, $0x0000000000000000
DATA ·compress4+320(SB)/8, $0x0000000300000002
DATA ·compress4+328(SB)/8, $0x0000000700000006
DATA ·compress4+336(SB)/8, $0x0000000000000000
DATA ·compress4+344(SB)/8, $0x0000000000000000
DATA ·compress4+352(SB)/8, $0x0000000100000000
DATA ·compress4+360(SB)/8, $0x0000000300000002
DATA ·compress4+368(SB)/8, $0x0000000700000006
DATA ·compress4+376(SB)/8, $0x0000000000000000
DATA ·compress4+384(SB)/8, $0x0000000500000004
DATA ·compress4+392(SB)/8, $0x0000000700000006
DATA ·compress4+400(SB)/8, $0x0000000000000000
DATA ·compress4+408(SB)/8, $0x0000000000000000
DATA ·compress4+416(SB)/8, $0x0000000100000000
DATA ·compress4+424(SB)/8, $0x0000000500000004
DATA ·compress4+432(SB)/8, $0x0000000700000006
DATA ·compress4+440(SB)/8, $0x0000000000000000
DATA ·compress4+448(SB)/8, $0x0000000300000002
DATA ·compress4+456(SB)/8, $0x0000000500000004
DATA ·compress4+464(SB)/8, $0x0000000700000006
DATA ·compress4+472(SB)/8, $0x0000000000000000
DATA ·compress4+480(SB)/8, $0x0000000100000000
DATA ·compress4+488(SB)/8, $0x0000000300000002
DATA ·compress4+496(SB)/8, $0x0000000500000004
DATA ·compress4+504(SB)/8, $0x0000000700000006
GLOBL ·compress4(SB), RODATA|NOPTR, $512

// tail4[r] is a mask of the first r of four quadword lanes, for
// VPMASKMOVQ.
DATA ·tail4+0(SB)/8, $0x0000000000000000
DATA ·tail4+8(SB)/8, $0x0000000000000000
DATA ·tail4+16(SB)/8, $0x0000000000000000
DATA ·tail4+24(SB)/8, $0x0000000000000000
DATA ·tail4+32(SB)/8, $0xffffffffffffffff
DATA ·tail4+40(SB)/8, $0x0000000000000000
DATA ·tail4+48(SB)/8, $0x0000000000000000
DATA ·tail4+56(SB)/8, $0x0000000000000000
DATA ·tail4+64(SB)/8, $0xffffffffffffffff
DATA ·tail4+72(SB)/8, $0xffffffffffffffff
DATA ·tail4+80(SB)/8, $0x0000000000000000
DATA ·tail4+88(SB)/8, $0x0000000000000000
DATA ·tail4+96(SB)/8, $0xffffffffffffffff
DATA ·tail4+104(SB)/8, $0xffffffffffffffff
DATA ·tail4+112(SB)/8, $0xffffffffffffffff
DATA ·tail4+120(SB)/8, $0x0000000000000000
DATA ·tail4+128(SB)/8, $0xffffffffffffffff
DATA ·tail4+136(SB)/8, $0xffffffffffffffff
DATA ·tail4+144(SB)/8, $0xffffffffffffffff
DATA ·tail4+152(SB)/8, $0xffffffffffffffff
GLOBL ·tail4(SB), RODATA|NOPTR, $160

// func filterAVX2(c, p, src *uint64, n int, att uint64, pm *patMap) int
//
// filterAVX512 on four entries an iteration: the lanes not attacked
// (VPAND with att, VPCMPEQQ with zero, VMOVMSKPD) select a permutation
// of compress4. The last, partial iteration loads by VPMASKMOVQ (no
// read beyond src) and masks the lanes absent.
//
// Registers: DI c, R8 p, SI src, CX entries left, AX entries kept, R9
// the tail's lane mask (0xF on full iterations), R11 compress4, Y10 att,
// Y11..Y15 Y6..Y8 the map, Y9 the low halves' mask, Y5 zero.
TEXT ·filterAVX2(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), DI
	MOVQ p+8(FP), R8
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ pm+40(FP), DX
	VPBROADCASTQ att+32(FP), Y10
	VPBROADCASTQ PM_DOWN(DX), Y11
	VPBROADCASTQ PM_WIN(DX), Y12
	VPBROADCASTQ PM_A1(DX), Y13
	VPBROADCASTQ PM_B1(DX), Y14
	VPBROADCASTQ PM_M1(DX), Y15
	VPBROADCASTQ PM_A2(DX), Y6
	VPBROADCASTQ PM_B2(DX), Y7
	VPBROADCASTQ PM_M2(DX), Y8
	VPCMPEQQ Y9, Y9, Y9
	VPSRLQ   $32, Y9, Y9
	VPXOR    Y5, Y5, Y5
	LEAQ     ·compress4(SB), R11
	XORQ     AX, AX

gloop:
	CMPQ CX, $4
	JLT  gtail
	VMOVDQU (SI), Y0
	MOVQ    $0xF, R9

gbody:
	VPAND    Y10, Y0, Y1
	VPCMPEQQ Y5, Y1, Y1
	VMOVMSKPD Y1, R10
	ANDQ     R9, R10
	VPSRLVQ  Y11, Y0, Y1
	VPAND    Y12, Y1, Y1
	VPAND    Y9, Y0, Y2
	VPSLLVQ  Y13, Y2, Y2
	VPSRLVQ  Y14, Y2, Y2
	VPAND    Y15, Y2, Y2
	VPSRLQ   $32, Y0, Y3
	VPSLLVQ  Y6, Y3, Y3
	VPSRLVQ  Y7, Y3, Y3
	VPAND    Y8, Y3, Y3
	VPOR     Y3, Y2, Y2
	MOVQ     R10, R12
	SHLQ     $5, R12
	VMOVDQU  (R11)(R12*1), Y4
	VPERMD   Y1, Y4, Y1
	VPERMD   Y2, Y4, Y2
	VMOVDQU  Y1, (DI)(AX*8)
	VMOVDQU  Y2, (R8)(AX*8)
	POPCNTL  R10, R10
	ADDQ     R10, AX
	ADDQ     $32, SI
	SUBQ     $4, CX
	JMP      gloop

gtail:
	TESTQ CX, CX
	JLE   gdone
	MOVQ  CX, R12
	SHLQ  $5, R12
	LEAQ  ·tail4(SB), R13
	VMOVDQU (R13)(R12*1), Y4
	VPMASKMOVQ (SI), Y4, Y0
	MOVQ  $1, R9
	SHLQ  CX, R9
	DECQ  R9
	XORQ  CX, CX
	JMP   gbody

gdone:
	MOVQ AX, ret+48(FP)
	VZEROUPPER
	RET

// func crossAVX2(ac, ap *uint64, na int, bc, bp *uint64, nb int, out *uint64) int
//
// crossAVX512 on four entries of b an iteration, packed by VPERMD and
// compress4. b's columns have room beyond nb (vecPad): the last, partial
// iteration reads it and masks the lanes absent.
//
// Registers: as crossAVX512; R9 the lane mask, Y5 zero, Y1 Y2 a's entry.
TEXT ·crossAVX2(SB), NOSPLIT, $0-64
	MOVQ ac+0(FP), R11
	MOVQ ap+8(FP), R12
	MOVQ na+16(FP), R13
	MOVQ bc+24(FP), BX
	MOVQ bp+32(FP), DX
	MOVQ nb+40(FP), R14
	MOVQ out+48(FP), DI
	MOVQ DI, R15
	LEAQ ·compress4(SB), AX
	VPXOR Y5, Y5, Y5

douter:
	VPBROADCASTQ (R11), Y1
	VPBROADCASTQ (R12), Y2
	MOVQ BX, SI
	MOVQ DX, R8
	MOVQ R14, CX

dinner:
	MOVQ $0xF, R9
	CMPQ CX, $4
	JGE  dbody
	TESTQ CX, CX
	JZ    dnext
	MOVQ $1, R9
	SHLQ CX, R9
	DECQ R9
	MOVQ $4, CX

dbody:
	VPAND    (SI), Y1, Y3
	VPCMPEQQ Y5, Y3, Y3
	VMOVMSKPD Y3, R10
	ANDQ     R9, R10
	VPOR     (R8), Y2, Y4
	MOVQ     R10, R9
	SHLQ     $5, R9
	VMOVDQU  (AX)(R9*1), Y6
	VPERMD   Y4, Y6, Y4
	VMOVDQU  Y4, (DI)
	POPCNTL  R10, R10
	LEAQ     (DI)(R10*8), DI
	ADDQ     $32, SI
	ADDQ     $32, R8
	SUBQ     $4, CX
	JMP      dinner

dnext:
	ADDQ $8, R11
	ADDQ $8, R12
	DECQ R13
	JNZ  douter
	SUBQ R15, DI
	SHRQ $3, DI
	MOVQ DI, ret+56(FP)
	VZEROUPPER
	RET
