//go:build amd64 && !purego

#include "textflag.h"

// The same algorithm and record layout as bmi2_amd64.s, restricted to
// x86-64-v2: NEG and AND isolate the queen, shifts take their count in CL,
// NOT and AND form the open squares. POPCNT is the only extension used.
#define REC_AVAIL 0
#define REC_COLS 8
#define REC_LD 16
#define REC_RD 24
#define REC_SHIFT 32
#define REC_INJ 40
#define LASTOFF 2048

// func countPOPCNT(f *Frame) (solutions, nodes uint64)
//
// Registers in the loop:
//   AX avail  BX cols  DX ld  SI rd  DI level offset (d*64)  R8 full
//   R10 solutions  R11 nodes  CX shift count  R9 R12 R13 the child
TEXT ·countPOPCNT(SB), $2056-24
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
	NOTQ AX
	ANDQ R8, AX
	CMPQ CX, $1
	JEQ  onerow

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
	MOVQ  AX, R13
	NEGQ  R13
	ANDQ  AX, R13
	XORQ  R13, AX
	INCQ  R11
	MOVQ  REC_SHIFT(SP)(DI*1), CX
	MOVQ  DX, R12
	ORQ   R13, R12
	SHLQ  CX, R12
	ORQ   REC_INJ(SP)(DI*1), R12
	MOVQ  SI, R9
	ORQ   R13, R9
	SHRQ  CX, R9
	ORQ   BX, R13
	MOVQ  R12, CX
	ORQ   R9, CX
	ORQ   R13, CX
	NOTQ  CX
	ANDQ  R8, CX
	CMPQ  DI, LASTOFF(SP)
	JEQ   leaf
	MOVQ  AX, REC_AVAIL(SP)(DI*1)
	MOVQ  BX, REC_COLS(SP)(DI*1)
	MOVQ  DX, REC_LD(SP)(DI*1)
	MOVQ  SI, REC_RD(SP)(DI*1)
	MOVQ  CX, AX
	MOVQ  (REC_SHIFT+64)(SP)(DI*1), CX
	MOVQ  R12, BX
	SHLQ  CX, BX
	MOVQ  R9, DX
	SHRQ  CX, DX
	ORQ   (REC_INJ+64)(SP)(DI*1), BX
	ORQ   R13, BX
	ORQ   DX, BX
	NOTQ  BX
	ANDQ  R8, BX
	TESTQ AX, AX
	CMOVQEQ AX, BX
	TESTQ BX, BX
	JZ    dead
	ADDQ  $64, DI
	MOVQ  R13, BX
	MOVQ  R12, DX
	MOVQ  R9, SI
	JMP   next // a child is entered only with a square to try

dead:
	MOVQ  REC_AVAIL(SP)(DI*1), AX
	MOVQ  REC_COLS(SP)(DI*1), BX
	MOVQ  REC_LD(SP)(DI*1), DX
	MOVQ  REC_RD(SP)(DI*1), SI
	JMP   loop

leaf:
	POPCNTQ CX, CX
	ADDQ  CX, R10
	ADDQ  CX, R11
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
