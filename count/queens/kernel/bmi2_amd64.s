//go:build amd64 && !purego

#include "textflag.h"

// Per-level records in the local frame, 64 bytes each: the squares of the
// level's row still to try (saved when a child is chosen), and the level's
// masks, free rows and row, saved when the level is entered.
#define REC_AVAIL 0
#define REC_COLS 8
#define REC_D1 16
#define REC_D2 24
#define REC_ROWS 32
#define REC_R 40
#define REC_NR 48
#define FULL 2048
#define NMIN 2056

// LOADLEVEL restores the registers of the level at offset DI from its
// record: after a dead child, and on the way back up.
#define LOADLEVEL \
	MOVQ REC_AVAIL(SP)(DI*1), AX \
	MOVQ REC_COLS(SP)(DI*1), BX \
	MOVQ REC_D1(SP)(DI*1), DX \
	MOVQ REC_D2(SP)(DI*1), SI \
	MOVQ REC_ROWS(SP)(DI*1), R9 \
	MOVQ REC_R(SP)(DI*1), CX \
	MOVQ REC_NR(SP)(DI*1), R12

// CAND looks at the next free row of R9 for the child (R14 cols, R15 d1,
// R13 d2): a row with no open square kills the child; otherwise the row
// with the fewest open squares so far is kept (DX its count, R8 the row,
// AX its squares), the first one on a tie.
#define CAND \
	TESTQ   R9, R9 \
	JZ      chosen \
	TZCNTQ  R9, CX \
	BLSRQ   R9, R9 \
	MOVQ    NMIN(SP), R12 \
	SUBQ    CX, R12 \
	SHRXQ   CX, R15, BX \
	SHRXQ   R12, R13, SI \
	ORQ     SI, BX \
	ORQ     R14, BX \
	ANDNQ   FULL(SP), BX, BX \
	JZ      dead \
	POPCNTQ BX, SI \
	CMPQ    SI, DX \
	CMOVQCS SI, DX \
	CMOVQCS CX, R8 \
	CMOVQCS BX, AX

// func dynBMI2(s *start) (solutions, nodes uint64)
//
// The generic kernel's search in assembly for CPUs with BMI1, BMI2 and
// POPCNT: BLSI takes the next queen, SHLX/SHRX shift by the row without
// tying up CX, TZCNT and BLSR walk the free rows, ANDN forms open squares,
// POPCNT counts them, and CMOVs keep the most constrained row without a
// branch.
//
// Registers in the loop:
//   AX avail  BX cols  DX d1  SI d2  R9 free rows  CX row  R12 N-1-row
//   DI level offset (d*64)  R10 solutions  R11 nodes
//   R14 R15 R13 the child's cols, d1, d2  R8 scratch
// (ABI0 assembly may use R14 and R15: the ABI wrapper restores g and the
// zero register on return.) The choice of a child's row reuses AX..R12,
// which are saved in the level's record and reloaded after.
TEXT ·dynBMI2(SB), $2064-24
	MOVQ s+0(FP), R8
	MOVQ 56(R8), R9
	MOVQ R9, FULL(SP)
	MOVQ 64(R8), R9
	MOVQ R9, NMIN(SP)
	MOVQ 0(R8), AX
	MOVQ 8(R8), BX
	MOVQ 16(R8), DX
	MOVQ 24(R8), SI
	MOVQ 32(R8), R9
	MOVQ 40(R8), CX
	MOVQ 48(R8), R12
	XORQ DI, DI
	XORQ R10, R10
	XORQ R11, R11
	MOVQ BX, REC_COLS(SP)
	MOVQ DX, REC_D1(SP)
	MOVQ SI, REC_D2(SP)
	MOVQ R9, REC_ROWS(SP)
	MOVQ CX, REC_R(SP)
	MOVQ R12, REC_NR(SP)

loop:
	TESTQ AX, AX
	JZ    back

next:
	BLSIQ AX, R13
	XORQ  R13, AX
	INCQ  R11
	MOVQ  BX, R14
	ORQ   R13, R14
	SHLXQ CX, R13, R15
	ORQ   DX, R15
	SHLXQ R12, R13, R13
	ORQ   SI, R13
	BLSRQ R9, R8
	JZ    leaf

	MOVQ  AX, REC_AVAIL(SP)(DI*1)
	MOVQ  $99, DX
	CAND
	CAND
	CAND
	CAND
	CAND
	CAND

chosen:
	MOVQ  REC_ROWS(SP)(DI*1), R9
	BTRQ  R8, R9
	MOVQ  R8, CX
	MOVQ  NMIN(SP), R12
	SUBQ  CX, R12
	ADDQ  $64, DI
	MOVQ  R14, BX
	MOVQ  R15, DX
	MOVQ  R13, SI
	MOVQ  BX, REC_COLS(SP)(DI*1)
	MOVQ  DX, REC_D1(SP)(DI*1)
	MOVQ  SI, REC_D2(SP)(DI*1)
	MOVQ  R9, REC_ROWS(SP)(DI*1)
	MOVQ  CX, REC_R(SP)(DI*1)
	MOVQ  R12, REC_NR(SP)(DI*1)
	JMP   next // the chosen row has a square to try

dead:
	LOADLEVEL
	JMP   loop

leaf:
	// One free row is left after the child's: count its open squares.
	TZCNTQ R9, R8
	SHRXQ R8, R15, R15
	NEGQ  R8
	ADDQ  NMIN(SP), R8
	SHRXQ R8, R13, R13
	ORQ   R14, R15
	ORQ   R13, R15
	ANDNQ FULL(SP), R15, R15
	POPCNTQ R15, R15
	ADDQ  R15, R10
	ADDQ  R15, R11
	JMP   loop

back:
	TESTQ DI, DI
	JZ    done
	SUBQ  $64, DI
	LOADLEVEL
	JMP   loop

done:
	MOVQ  R10, solutions+8(FP)
	MOVQ  R11, nodes+16(FP)
	RET
