//go:build amd64 && !purego

#include "textflag.h"

// Per-level records in the local frame, 64 bytes each:
//   0 avail, 8 cols, 16 ld, 24 rd  (saved state of the level)
//   32 shift to the next free row, 40 Inject of the next free row
#define REC_AVAIL 0
#define REC_COLS 8
#define REC_LD 16
#define REC_RD 24
#define REC_SHIFT 32
#define REC_INJ 40
#define LASTOFF 2048

// func countBMI2(f *Frame) (solutions, nodes uint64)
//
// Registers in the loop:
//   AX avail  BX cols  DX ld  SI rd  DI level offset (d*64)  R8 full
//   R10 solutions  R11 nodes  CX R9 R12 R13 scratch
TEXT ·countBMI2(SB), $2056-24
	MOVQ f+0(FP), R9
	MOVQ 0(R9), R8
	MOVQ 8(R9), BX
	MOVQ 16(R9), DX
	MOVQ 24(R9), SI
	MOVQ 32(R9), CX
	XORQ R10, R10
	XORQ R11, R11
	TESTQ CX, CX
	JZ   empty
	MOVQ BX, AX
	ORQ  DX, AX
	ORQ  SI, AX
	ANDNQ R8, AX, AX
	CMPQ CX, $1
	JEQ  onerow

	// Copy Shift[d] and Inject[d+1] into the records for d = 0..free-2,
	// and remember the offset of level free-2: children of that level
	// are counted, not entered.
	SUBQ $2, CX
	MOVQ CX, R12
	SHLQ $6, R12
	MOVQ R12, LASTOFF(SP)
	XORQ R12, R12
	XORQ DI, DI
fill:
	MOVBQZX 40(R9)(R12*1), R13
	MOVQ R13, REC_SHIFT(SP)(DI*1)
	MOVQ 80(R9)(R12*8), R13
	MOVQ R13, REC_INJ(SP)(DI*1)
	INCQ R12
	ADDQ $64, DI
	CMPQ R12, CX
	JLE  fill
	XORQ DI, DI

loop:
	TESTQ AX, AX
	JZ    back
next:
	BLSIQ AX, R13
	XORQ  R13, AX
	INCQ  R11
	MOVQ  REC_SHIFT(SP)(DI*1), R9
	MOVQ  DX, CX
	ORQ   R13, CX
	SHLXQ R9, CX, CX
	ORQ   REC_INJ(SP)(DI*1), CX
	MOVQ  BX, R12
	ORQ   R13, R12
	ORQ   SI, R13
	SHRXQ R9, R13, R13
	MOVQ  CX, R9
	ORQ   R12, R9
	ORQ   R13, R9
	ANDNQ R8, R9, R9
	CMPQ  DI, LASTOFF(SP)
	JEQ   leaf
	// Save this level, then use its registers to look one row further:
	// if the row after the child's is full whatever the child places,
	// the child is dead and is not entered. A child with no open square
	// at all is folded into the same test (CMOV), so one branch decides.
	MOVQ  AX, REC_AVAIL(SP)(DI*1)
	MOVQ  BX, REC_COLS(SP)(DI*1)
	MOVQ  DX, REC_LD(SP)(DI*1)
	MOVQ  SI, REC_RD(SP)(DI*1)
	MOVQ  (REC_SHIFT+64)(SP)(DI*1), AX
	SHLXQ AX, CX, BX
	SHRXQ AX, R13, DX
	ORQ   (REC_INJ+64)(SP)(DI*1), BX
	ORQ   R12, BX
	ORQ   DX, BX
	ANDNQ R8, BX, BX
	TESTQ R9, R9
	CMOVQEQ R9, BX
	TESTQ BX, BX
	JZ    dead
	ADDQ  $64, DI
	MOVQ  R9, AX
	MOVQ  R12, BX
	MOVQ  CX, DX
	MOVQ  R13, SI
	JMP   next // a child is entered only with a square to try

dead:
	MOVQ  REC_AVAIL(SP)(DI*1), AX
	MOVQ  REC_COLS(SP)(DI*1), BX
	MOVQ  REC_LD(SP)(DI*1), DX
	MOVQ  REC_RD(SP)(DI*1), SI
	JMP   loop

leaf:
	POPCNTQ R9, R9
	ADDQ  R9, R10
	ADDQ  R9, R11
	JMP   loop

back:
	TESTQ DI, DI
	JZ    done
	SUBQ  $64, DI
	MOVQ  REC_AVAIL(SP)(DI*1), AX
	MOVQ  REC_COLS(SP)(DI*1), BX
	MOVQ  REC_LD(SP)(DI*1), DX
	MOVQ  REC_RD(SP)(DI*1), SI
	JMP   loop

onerow:
	POPCNTQ AX, R10
	MOVQ  R10, R11
	JMP   done

empty:
	MOVQ  $1, R10

done:
	MOVQ  R10, solutions+8(FP)
	MOVQ  R11, nodes+16(FP)
	RET
