//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"

// The local frame: copies of the search's constants, read as memory
// operands in the loop.
#define FULL 0
#define NMIN 8
#define BASE 16 // &s.lv[0]: the root level's record
#define LIMIT 24

// LOADLEVEL restores the registers of the level whose record DI points
// to: after a dead child, on the way back up, and when a search resumes.
#define LOADLEVEL \
	MOVQ level_avail(DI), AX \
	MOVQ level_cols(DI), BX \
	MOVQ level_d1(DI), DX \
	MOVQ level_d2(DI), SI \
	MOVQ level_rows(DI), R9 \
	MOVQ level_r(DI), CX \
	MOVQ level_nr(DI), R12

// CAND looks at the next free row of R9 for the child (R14 cols, R15 d1,
// R13 d2): a row with no open square kills the child; otherwise the row
// with the fewest open squares so far is kept (DX its count, R8 the row,
// AX its squares), the first one on a tie. It is written out Look times
// below (TestUnrolledRowChecksMatchLook holds the two together).
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

// func searchBMI2(s *Search)
//
// The generic kernel's search in assembly for CPUs with BMI1, BMI2 and
// POPCNT: BLSI takes the next queen, SHLX/SHRX shift by the row without
// tying up CX, TZCNT and BLSR walk the free rows, ANDN forms open squares,
// POPCNT counts them, and CMOVs keep the most constrained row without a
// branch. It starts from, and leaves, the explicit stack in s.lv, and
// returns when the search ends or, on the way back up a level, once
// s.limit nodes are reached: the budget check costs one compare per
// level left, not per node.
//
// Registers in the loop:
//   AX avail  BX cols  DX d1  SI d2  R9 free rows  CX row  R12 N-1-row
//   DI the level's record in s.lv  R10 solutions  R11 nodes
//   R14 R15 R13 the child's cols, d1, d2  R8 scratch
// (ABI0 assembly may use R14 and R15: the ABI wrapper restores g and the
// zero register on return.) The choice of a child's row reuses AX..R12,
// which are saved in the level's record and reloaded after.
TEXT ·searchBMI2(SB), NOSPLIT, $32-8
	MOVQ  s+0(FP), R8
	MOVQ  Search_full(R8), R9
	MOVQ  R9, FULL(SP)
	MOVQ  Search_nmin(R8), R9
	MOVQ  R9, NMIN(SP)
	MOVQ  Search_limit(R8), R9
	MOVQ  R9, LIMIT(SP)
	LEAQ  Search_lv(R8), DI
	MOVQ  DI, BASE(SP)
	MOVQ  Search_depth(R8), R9
	IMULQ $level__size, R9
	ADDQ  R9, DI
	MOVQ  Search_solutions(R8), R10
	MOVQ  Search_nodes(R8), R11
	LOADLEVEL

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

	MOVQ  AX, level_avail(DI)
	MOVQ  $99, DX
	CAND
	CAND
	CAND
	CAND
	CAND
	CAND

chosen:
	MOVQ  level_rows(DI), R9
	BTRQ  R8, R9
	MOVQ  R8, CX
	MOVQ  NMIN(SP), R12
	SUBQ  CX, R12
	ADDQ  $level__size, DI
	MOVQ  R14, BX
	MOVQ  R15, DX
	MOVQ  R13, SI
	MOVQ  BX, level_cols(DI)
	MOVQ  DX, level_d1(DI)
	MOVQ  SI, level_d2(DI)
	MOVQ  R9, level_rows(DI)
	MOVQ  CX, level_r(DI)
	MOVQ  R12, level_nr(DI)
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
	CMPQ  DI, BASE(SP)
	JEQ   done
	SUBQ  $level__size, DI
	LOADLEVEL
	CMPQ  R11, LIMIT(SP)
	JCS   loop // below the limit: carry on

	// The budget is spent: the registers are the record at DI, so the
	// stack in s.lv is the whole state; save the level and the counts.
	MOVQ  s+0(FP), R8
	SUBQ  BASE(SP), DI
	MOVQ  DI, AX
	XORQ  DX, DX
	MOVQ  $level__size, CX
	DIVQ  CX
	MOVQ  AX, Search_depth(R8)
	MOVQ  R10, Search_solutions(R8)
	MOVQ  R11, Search_nodes(R8)
	RET

done:
	MOVQ  s+0(FP), R8
	MOVQ  $0, Search_depth(R8)
	MOVB  $1, Search_done(R8)
	MOVQ  R10, Search_solutions(R8)
	MOVQ  R11, Search_nodes(R8)
	RET
