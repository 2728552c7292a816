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

// AND2(off, sh): AND into Y0, Y1 the entry of the chunk at byte offset
// off picked by bits sh+6.. of AX.
#define AND2(off, sh) \
	RORXQ $sh, AX, BX \
	ANDQ  $0xFC0, BX \
	VPAND off(DI)(BX*1), Y0, Y0 \
	VPAND (off+32)(DI)(BX*1), Y1, Y1

#define D0
#define D1 AND2(4096, 0)
#define D2 D1; AND2(8192, 6)
#define D3 D2; AND2(12288, 12)
#define D4 D3; AND2(16384, 18)
#define D5 D4; AND2(20480, 24)
#define D6 D5; AND2(24576, 30)
#define D7 D6; AND2(28672, 36)
#define D8 D7; AND2(32768, 42)
#define D9 D8; AND2(36864, 48)
#define D10 D9; AND2(40960, 54)

// POP adds the bit counts of Y0 and Y1, per byte, to Y13 (at most 16 a
// byte per item).
#define POP \
	VPAND    Y14, Y0, Y2 \
	VPSRLW   $4, Y0, Y3 \
	VPAND    Y14, Y3, Y3 \
	VPSHUFB  Y2, Y15, Y2 \
	VPSHUFB  Y3, Y15, Y3 \
	VPADDB   Y2, Y13, Y13 \
	VPADDB   Y3, Y13, Y13 \
	VPAND    Y14, Y1, Y2 \
	VPSRLW   $4, Y1, Y3 \
	VPAND    Y14, Y3, Y3 \
	VPSHUFB  Y2, Y15, Y2 \
	VPSHUFB  Y3, Y15, Y3 \
	VPADDB   Y2, Y13, Y13 \
	VPADDB   Y3, Y13, Y13

// LOOP2(top, more) runs the items with more after chunk 0; every 15
// items (at most 240 a byte) the byte counts are summed into Y12's
// quadwords by VPSADBW.
#define LOOP2(top, more) \
top: \
	TESTQ CX, CX \
	JZ    done \
	MOVQ  (SI), AX \
	RORXQ $58, AX, BX \
	ANDQ  $0xFC0, BX \
	VMOVDQU (DI)(BX*1), Y0 \
	VMOVDQU 32(DI)(BX*1), Y1 \
	more \
	POP \
	ADDQ $8, SI \
	DECQ CX \
	DECQ DX \
	JNZ  top \
	VPSADBW Y11, Y13, Y13 \
	VPADDQ  Y13, Y12, Y12 \
	VPXOR   Y13, Y13, Y13 \
	MOVQ    $15, DX \
	JMP     top

// func countAVX2(t *entry, items []uint64, nch int) uint64
//
// Registers: DI tables, SI items, CX items left, DX items until the byte
// counts are folded, AX BX scratch, Y0 Y1 the running ANDs, Y13 byte
// counts, Y12 quadword counts, Y15 nibble counts, Y14 low nibbles, Y11
// zero.
TEXT ·countAVX2(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ items_base+8(FP), SI
	MOVQ items_len+16(FP), CX
	MOVQ nch+32(FP), R8
	VMOVDQU ·nibbleCount(SB), Y15
	VMOVDQU ·lowNibbles(SB), Y14
	VPXOR   Y13, Y13, Y13
	VPXOR   Y12, Y12, Y12
	VPXOR   Y11, Y11, Y11
	MOVQ    $15, DX
	CMPQ R8, $1
	JEQ  m1
	CMPQ R8, $2
	JEQ  m2
	CMPQ R8, $3
	JEQ  m3
	CMPQ R8, $4
	JEQ  m4
	CMPQ R8, $5
	JEQ  m5
	CMPQ R8, $6
	JEQ  m6
	CMPQ R8, $7
	JEQ  m7
	CMPQ R8, $8
	JEQ  m8
	CMPQ R8, $9
	JEQ  m9
	CMPQ R8, $10
	JEQ  m10
	CMPQ R8, $11
	JEQ  m11
	JMP  done

	LOOP2(m1, D0)
	LOOP2(m2, D1)
	LOOP2(m3, D2)
	LOOP2(m4, D3)
	LOOP2(m5, D4)
	LOOP2(m6, D5)
	LOOP2(m7, D6)
	LOOP2(m8, D7)
	LOOP2(m9, D8)
	LOOP2(m10, D9)
	LOOP2(m11, D10)

done:
	VPSADBW      Y11, Y13, Y13
	VPADDQ       Y13, Y12, Y12
	VEXTRACTI128 $1, Y12, X2
	VPADDQ       X2, X12, X12
	VPSHUFD      $0x4E, X12, X2
	VPADDQ       X2, X12, X12
	VMOVQ        X12, AX
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func tablesAVX2(t *entry, planes *entry, valid *entry, nch, m int)
//
// tablesAVX512 on two 256-bit halves.
TEXT ·tablesAVX2(SB), NOSPLIT, $0-40
	MOVQ t+0(FP), DI
	MOVQ planes+8(FP), SI
	MOVQ valid+16(FP), AX
	MOVQ nch+24(FP), CX
	MOVQ m+32(FP), R8
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
	CMPQ R10, $4096
	JLT  bit
	ADDQ $4096, DI
	VMOVDQA Y15, Y0
	VMOVDQA Y15, Y1
	DECQ CX
	JMP  chunk

bdone:
	VZEROUPPER
	RET
