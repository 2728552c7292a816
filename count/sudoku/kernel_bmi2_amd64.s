//go:build amd64 && !purego

#include "textflag.h"

// propagateBMI2 is triadState.propagate (kernel_triad.go) step for step,
// with every value in a register. An AVX-512 version that cleared the
// band's nine words with one masked store was slower: the next word's
// load waits for that store (no store-to-load forwarding from it).

// Offsets of the fields of triadState (TestTriadStateLayout checks them).
#define F 0
#define HP 108
#define ROWS 216
#define FREE 228
#define DIRTY 240
#define VDIRTY 252
#define TDIRTY 256
#define TOT 260

// INFO(a, dst) sets dst to rowInfo[a&511] | rowInfo[a>>9&511]<<3 |
// rowInfo[a>>18]<<6, using AX and DX.
#define INFO(a, dst) \
	LEAQ ·rowInfo(SB), DX \
	MOVL a, AX \
	ANDL $511, AX \
	MOVWLZX (DX)(AX*2), dst \
	MOVL a, AX \
	SHRL $9, AX \
	ANDL $511, AX \
	MOVWLZX (DX)(AX*2), AX \
	SHLL $3, AX \
	ORL AX, dst \
	MOVL a, AX \
	SHRL $18, AX \
	MOVWLZX (DX)(AX*2), AX \
	SHLL $6, AX \
	ORL AX, dst

// CLEAR(off) removes the cells in R12 from the word at off(SI) and
// shifts into CX whether it had any; uses AX, DX.
#define CLEAR(off) \
	MOVL off(SI), AX \
	ANDNL AX, R12, DX \
	MOVL DX, off(SI) \
	CMPL DX, AX \
	ADCL CX, CX

// OTHER(band) removes the columns in AX from word d (R9) of band
// (a register, 0-2) and marks it dirty there if that changed it (R12 is
// 1<<d); uses R11, R13.
#define OTHER(band) \
	LEAQ (band)(band*8), R13 \
	LEAQ F(DI)(R13*4), R13 \
	MOVL (R13)(R9*4), R11 \
	ANDL AX, R11 \
	JEQ 3(PC) \
	XORL R11, (R13)(R9*4) \
	ORL R12, DIRTY(DI)(band*4)

// func propagateBMI2(s *triadState) bool
//
// Registers: DI s, BX the band b, SI &s.f[b], R14 9*b, R8 the digits of
// the band still to do, R9 the digit d, CX 3*d, R10 its word a, R11 the
// row information, R12 keep and cells, R13 the digit's open rows.
TEXT ·propagateBMI2(SB), NOSPLIT, $0-9
	MOVQ s+0(FP), DI

band:
	MOVL DIRTY+0(DI), R8
	XORL BX, BX
	TESTL R8, R8
	JNE have
	MOVL DIRTY+4(DI), R8
	MOVL $1, BX
	TESTL R8, R8
	JNE have
	MOVL DIRTY+8(DI), R8
	MOVL $2, BX
	TESTL R8, R8
	JNE have
	MOVB $1, ret+8(FP)
	RET

have:
	MOVL $0, DIRTY(DI)(BX*4)
	MOVL TDIRTY(DI), AX
	BTSL BX, AX
	ORL $8, AX
	MOVL AX, TDIRTY(DI)
	LEAQ (BX)(BX*8), R14
	LEAQ F(DI)(R14*4), SI

word:
	TESTL R8, R8
	JEQ band
	TZCNTL R8, R9
	BLSRL R8, R8
	MOVL VDIRTY(DI), AX
	BTSL R9, AX
	MOVL AX, VDIRTY(DI)
	MOVL (SI)(R9*4), R10
	INFO(R10, R11)

	// The band rule: keep the mini-rows on a permutation; record them,
	// and the change in the band's count of configurations.
	MOVL R11, DX
	ANDL $511, DX
	LEAQ ·complexTab(SB), AX
	MOVL (AX)(DX*4), R12
	LEAQ ·permSupTab(SB), AX
	MOVWLZX (AX)(DX*2), DX
	LEAQ ·permCountTab(SB), AX
	MOVBLZX (AX)(DX*1), R13
	ADDL R13, TOT(DI)(BX*4)
	MOVL HP(DI)(R9*4), R13
	SHRXL R14, R13, R13
	ANDL $511, R13
	MOVBLZX (AX)(R13*1), R13
	SUBL R13, TOT(DI)(BX*4)
	SHLXL R14, DX, DX
	MOVL $511, AX
	SHLXL R14, AX, AX
	ANDNL HP(DI)(R9*4), AX, AX
	ORL DX, AX
	MOVL AX, HP(DI)(R9*4)

	// The digit's rows not yet placed.
	LEAL (R9)(R9*2), CX
	MOVL ROWS(DI)(BX*4), R13
	SHRXL CX, R13, R13
	ANDL $7, R13

	MOVL R10, AX
	ANDL R12, AX
	CMPL AX, R10
	JEQ same
	TESTL AX, AX
	JEQ fail
	MOVL AX, R10
	MOVL R10, (SI)(R9*4)
	TESTL R13, R13
	JEQ word
	INFO(R10, R11)

same:
	// Rows down to one cell: the digit is placed there.
	MOVL R11, AX
	SHRL $9, AX
	MOVL R11, DX
	SHRL $11, DX
	ORL DX, AX
	SHRL $13, R11
	ORL R11, AX
	ANDL R13, AX
	ANDL $7, AX
	JEQ word

	SHLXL CX, AX, DX
	NOTL DX
	ANDL DX, ROWS(DI)(BX*4)
	LEAQ ·rowsTab(SB), DX
	MOVL (DX)(AX*4), R12
	ANDL R10, R12
	MOVL R12, DX
	NOTL DX
	ANDL DX, FREE(DI)(BX*4)

	// No other digit of the band may take those cells: clear them in
	// the nine words, and collect in CX the words that lost one (digit
	// 8 first: each ADCL shifts in whether the word shrank).
	XORL CX, CX
	CLEAR(32)
	CLEAR(28)
	CLEAR(24)
	CLEAR(20)
	CLEAR(16)
	CLEAR(12)
	CLEAR(8)
	CLEAR(4)
	CLEAR(0)
	MOVL R10, (SI)(R9*4)
	BTRL R9, CX
	ORL CX, R8
	ORL CX, VDIRTY(DI)

	// The digit leaves their columns in the other two bands.
	MOVL R12, AX
	SHRL $9, AX
	ORL R12, AX
	SHRL $18, R12
	ORL R12, AX
	ANDL $511, AX
	IMUL3L $0x40201, AX, AX
	MOVL $1, R12
	SHLXL R9, R12, R12
	LEAL 1(BX), DX
	CMPL DX, $3
	JNE 2(PC)
	XORL DX, DX
	OTHER(DX)
	INCL DX
	CMPL DX, $3
	JNE 2(PC)
	XORL DX, DX
	OTHER(DX)
	JMP word

fail:
	MOVB $0, ret+8(FP)
	RET
