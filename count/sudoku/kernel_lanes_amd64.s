//go:build amd64 && !purego

#include "textflag.h"

// roundLanes (kernel_lanes.go) with AVX-512: sixteen puzzles at once, one
// a 32-bit lane, a band word (digit d of band b) one ZMM register loaded
// from f[9b+d]: wideState.round, step for step.

// Offsets in laneState.
#define OLD 1728
#define CM 3456
#define PP 5184
#define BC 5760
#define SC 7488
#define OPEN 9216
#define TOT 9280
#define HP 9664
#define SUP 10240
#define PICK 10816
#define O3LO 10880
#define O3HI 10944
#define FULLLO 11008
#define FULLHI 11072

// Constant registers. C49, M077 and M770 serve BANDKEEP only: STACK, which
// comes after, sums the stack counts in them (TOT3-TOT5).
#define OCT1 Z31
#define M077 Z30
#define M700 Z29
#define M007 Z28
#define M770 Z27
#define BM Z26
#define ROW0 Z25
#define ROW1 Z24
#define ROW2 Z23
#define ONE Z22
#define ZERO Z21
#define OCT3 Z20
#define OCT4 Z19
#define OCT6 Z18
#define C49 Z17
#define TOT3 Z17
#define TOT4 Z27
#define TOT5 Z30

// ROWROT1(x, dst, t): dst = (x>>9 | x<<18) & BM.
#define ROWROT1(x, dst, t) \
	VPSRLD $9, x, dst \
	VPSLLD $18, x, t \
	VPTERNLOGD $0xA8, BM, t, dst

// ROWROT2(x, dst, t): dst = (x>>18 | x<<9) & BM.
#define ROWROT2(x, dst, t) \
	VPSRLD $18, x, dst \
	VPSLLD $9, x, t \
	VPTERNLOGD $0xA8, BM, t, dst

// COLROT1(x, dst, t): dst = colRot1(x) = (x>>1)&OCT3 | (x<<2)&OCT4.
#define COLROT1(x, dst, t) \
	VPSRLD $1, x, t \
	VPSLLD $2, x, dst \
	VPANDD OCT4, dst, dst \
	VPTERNLOGD $0xF8, OCT3, t, dst

// COLROT2(x, dst, t): dst = colRot2(x) = (x>>2)&OCT1 | (x<<1)&OCT6.
#define COLROT2(x, dst, t) \
	VPSRLD $2, x, t \
	VPSLLD $1, x, dst \
	VPANDD OCT6, dst, dst \
	VPTERNLOGD $0xF8, OCT1, t, dst

// BANDKEEP(a): a &= bandKeep(a), Z2 = the row/box presence of the
// result (bit 9r+3c), and Z9 = the number of permutations in a's row/box
// matrix (the cyclic ones and the others on the presence's row 0, shifted
// apart). Uses Z0-Z9.
#define BANDKEEP(a) \
	VPSRLD $1, a, Z1 \
	VPSRLD $2, a, Z2 \
	VPORD Z1, a, Z1 \
	VPTERNLOGD $0xA8, OCT1, Z1, Z2 \
	VPSRLD $3, Z2, Z3 \
	VPSLLD $6, Z2, Z4 \
	VPANDD M700, Z4, Z4 \
	VPTERNLOGD $0xF8, M077, Z3, Z4 \
	VPSRLD $6, Z2, Z3 \
	VPSLLD $3, Z2, Z5 \
	VPANDD M770, Z5, Z5 \
	VPTERNLOGD $0xF8, M007, Z3, Z5 \
	ROWROT1(Z4, Z3, Z0) \
	ROWROT2(Z5, Z6, Z0) \
	VPANDD Z6, Z3, Z3 \
	ROWROT1(Z5, Z6, Z0) \
	ROWROT2(Z4, Z7, Z0) \
	VPANDD Z7, Z6, Z8 \
	VPTERNLOGD $0x80, C49, Z2, Z8 \
	VMOVDQA32 Z3, Z9 \
	VPTERNLOGD $0x80, C49, Z2, Z9 \
	VPSLLD $1, Z8, Z8 \
	VPORD Z8, Z9, Z9 \
	VPOPCNTD Z9, Z9 \
	VPTERNLOGD $0xF8, Z7, Z6, Z3 \
	VPANDD Z3, Z2, Z2 \
	VPMULLD.BCST mul7<>(SB), Z2, Z4 \
	VPANDD Z4, a, a

// SINGLEROWS(a, p): p = the cells of a alone in their row. Uses Z0-Z5,
// K1-K3.
#define SINGLEROWS(a, p) \
	VPANDD ROW0, a, Z0 \
	VPOPCNTD Z0, Z1 \
	VPCMPEQD ONE, Z1, K1 \
	VPANDD ROW1, a, Z2 \
	VPOPCNTD Z2, Z3 \
	VPCMPEQD ONE, Z3, K2 \
	VPANDD ROW2, a, Z4 \
	VPOPCNTD Z4, Z5 \
	VPCMPEQD ONE, Z5, K3 \
	VMOVDQA32.Z Z0, K1, p \
	VPORD Z2, p, K2, p \
	VPORD Z4, p, K3, p

// ACC(x, ones, twos): twos |= ones & x; ones |= x.
#define ACC(x, ones, twos) \
	VPTERNLOGD $0xF8, x, ones, twos \
	VPORD x, ones, ones

// COLSREP(x, dst, t, u): dst = colsOf(x) * rowRep.
#define COLSREP(x, dst, t, u) \
	VPSRLD $9, x, dst \
	VPSRLD $18, x, t \
	VPTERNLOGD $0xFE, t, x, dst \
	VPANDD ROW0, dst, dst \
	VPMULLD.BCST rowrep<>(SB), dst, dst

// HPACC(b, d): hp[d] |= word 9b+d's row/box presence (Z2, bit 9r+3c,
// left by BANDKEEP) as bits 3r+c, at bit 9b: the bits gathered by
// multiplying (the copies never overlap, so the products carry nothing:
// x*21 is x | x<<2 | x<<4, then rows side by side by x*4161, x | x<<6 |
// x<<12). Uses Z2.
#define HPACC(b, d) \
	VPMULLD.BCST mul21<>(SB), Z2, Z2 \
	VPSRLD $4, Z2, Z2 \
	VPANDD M007, Z2, Z2 \
	VPMULLD.BCST mul4161<>(SB), Z2, Z2 \
	VPSRLD $12, Z2, Z2 \
	VPANDD ROW0, Z2, Z2 \
	VPSLLD $(9*(b)), Z2, Z2 \
	VPORD (HP+(d)*64)(DI), Z2, Z2 \
	VMOVDQU32 Z2, (HP+(d)*64)(DI)

// STEP1(b, d): band rule and single rows of word 9b+d (its value after
// the band rule kept in old, where STEP2 takes it), its count added to
// Z14 and its part of hp[d].
#define STEP1(b, d) \
	VMOVDQU32 (((b)*9+(d))*64)(DI), Z12 \
	BANDKEEP(Z12) \
	VMOVDQU32 Z12, (OLD+((b)*9+(d))*64)(DI) \
	VPTESTNMD Z12, Z12, K4 \
	KORW K4, K5, K5 \
	VMOVDQU32 Z9, (BC+((b)*9+(d))*64)(DI) \
	VPADDD Z9, Z14, Z14 \
	HPACC(b, d) \
	SINGLEROWS(Z12, Z13) \
	VMOVDQU32 Z13, (PP+(d)*64)(DI) \
	ACC(Z13, Z10, Z11)

// STEP2(b, d): a cell placed leaves the other digits; count the
// candidates of each cell; the columns placed.
#define STEP2(b, d) \
	VMOVDQU32 (OLD+((b)*9+(d))*64)(DI), Z12 \
	VMOVDQU32 (PP+(d)*64)(DI), Z13 \
	VMOVDQA32 Z10, Z0 \
	VPTERNLOGD $0xBA, Z11, Z13, Z0 \
	VPANDND Z12, Z0, Z12 \
	VMOVDQU32 Z12, (((b)*9+(d))*64)(DI) \
	ACC(Z12, Z14, Z15) \
	COLSREP(Z13, Z1, Z2, Z3) \
	VMOVDQU32 Z1, (CM+((b)*9+(d))*64)(DI)

// STEP3(b, d): naked singles take their row (the lowest of two in one
// row, so that the next round fails).
#define STEP3(b, d) \
	VMOVDQU32 (((b)*9+(d))*64)(DI), Z12 \
	VPANDD Z16, Z12, Z6 \
	VPANDD ROW0, Z6, Z0 \
	VPSUBD Z0, ZERO, Z1 \
	VPANDD Z1, Z0, Z0 \
	VPANDD ROW1, Z6, Z2 \
	VPSUBD Z2, ZERO, Z3 \
	VPANDD Z3, Z2, Z2 \
	VPANDD ROW2, Z6, Z4 \
	VPSUBD Z4, ZERO, Z5 \
	VPANDD Z5, Z4, Z4 \
	VPTERNLOGD $0xFE, Z4, Z2, Z0 \
	VPTESTMD ROW0, Z0, K1 \
	VPTESTMD ROW1, Z0, K2 \
	VPTESTMD ROW2, Z0, K3 \
	VMOVDQA32.Z ROW0, K1, Z7 \
	VPORD ROW1, Z7, K2, Z7 \
	VPORD ROW2, Z7, K3, Z7 \
	VPTERNLOGD $0xB0, Z0, Z7, Z12 \
	VMOVDQU32 Z12, (((b)*9+(d))*64)(DI)

// BAND(b) runs the three steps on band b.
#define BAND(b) \
	VPXORD Z10, Z10, Z10 \
	VPXORD Z11, Z11, Z11 \
	VPXORD Z14, Z14, Z14 \
	STEP1(b, 0) \
	STEP1(b, 1) \
	STEP1(b, 2) \
	STEP1(b, 3) \
	STEP1(b, 4) \
	STEP1(b, 5) \
	STEP1(b, 6) \
	STEP1(b, 7) \
	STEP1(b, 8) \
	VMOVDQU32 Z14, (TOT+(b)*64)(DI) \
	VPXORD Z14, Z14, Z14 \
	VPXORD Z15, Z15, Z15 \
	STEP2(b, 0) \
	STEP2(b, 1) \
	STEP2(b, 2) \
	STEP2(b, 3) \
	STEP2(b, 4) \
	STEP2(b, 5) \
	STEP2(b, 6) \
	STEP2(b, 7) \
	STEP2(b, 8) \
	VPCMPEQD BM, Z14, K4 \
	KNOTW K4, K4 \
	KORW K4, K5, K5 \
	VPOPCNTD Z15, Z0 \
	VPADDD OPEN(DI), Z0, Z0 \
	VMOVDQU32 Z0, OPEN(DI) \
	VPANDND Z14, Z15, Z16 \
	STEP3(b, 0) \
	STEP3(b, 1) \
	STEP3(b, 2) \
	STEP3(b, 3) \
	STEP3(b, 4) \
	STEP3(b, 5) \
	STEP3(b, 6) \
	STEP3(b, 7) \
	STEP3(b, 8)

// COLSOF(x, dst, t): dst = colsOf(x).
#define COLSOF(x, dst, t) \
	VPSRLD $9, x, dst \
	VPSRLD $18, x, t \
	VPTERNLOGD $0xFE, t, x, dst \
	VPANDD ROW0, dst, dst

// REP(x, dst, t): dst = x * rowRep for a 9-bit x.
#define REP(x, dst, t) \
	VPMULLD.BCST rowrep<>(SB), x, dst

// CHANGED(w, x): x is word w's new value: store it and note the lanes
// where it differs from its value after the band rule.
#define CHANGED(w, x) \
	VMOVDQU32 x, ((w)*64)(DI) \
	VPCMPUD $4, (OLD+(w)*64)(DI), x, K4 \
	KORW K4, K6, K6

// STACK(d): the columns placed leave the other bands, then the stack
// rule, for digit d, and the permutations of its three band/column
// matrices counted into sc; the matrices (before the rule) into sup[d]. Uses Z0-Z15; Z16 holds 0xe07.
#define STACK(d) \
	VMOVDQU32 (CM+(d)*64)(DI), Z13 \
	VMOVDQU32 (CM+(9+(d))*64)(DI), Z14 \
	VMOVDQU32 (CM+(18+(d))*64)(DI), Z15 \
	VMOVDQU32 ((d)*64)(DI), Z10 \
	VPTERNLOGD $0x10, Z15, Z14, Z10 \
	VMOVDQU32 ((9+(d))*64)(DI), Z11 \
	VPTERNLOGD $0x10, Z15, Z13, Z11 \
	VMOVDQU32 ((18+(d))*64)(DI), Z12 \
	VPTERNLOGD $0x10, Z14, Z13, Z12 \
	COLSOF(Z10, Z0, Z1) \
	COLSOF(Z11, Z2, Z1) \
	COLSOF(Z12, Z3, Z1) \
	VPSLLD $9, Z2, Z2 \
	VPSLLD $18, Z3, Z3 \
	VPTERNLOGD $0xFE, Z3, Z2, Z0 \
	VMOVDQU32 Z0, (SUP+(d)*64)(DI) \
	COLROT1(Z0, Z5, Z4) \
	COLROT2(Z0, Z6, Z4) \
	ROWROT1(Z5, Z7, Z1) \
	ROWROT2(Z6, Z8, Z1) \
	VPANDD Z8, Z7, Z7 \
	ROWROT1(Z6, Z8, Z1) \
	ROWROT2(Z5, Z9, Z1) \
	VPANDD Z9, Z8, Z13 \
	VPTERNLOGD $0x80, ROW0, Z0, Z13 \
	VMOVDQA32 Z7, Z14 \
	VPTERNLOGD $0x80, ROW0, Z0, Z14 \
	VPSLLD $9, Z13, Z13 \
	VPORD Z13, Z14, Z14 \
	VPANDD Z16, Z14, Z15 \
	VPOPCNTD Z15, Z15 \
	VMOVDQU32 Z15, (SC+(d)*64)(DI) \
	VPADDD Z15, TOT3, TOT3 \
	VPSRLD $3, Z14, Z15 \
	VPANDD Z16, Z15, Z15 \
	VPOPCNTD Z15, Z15 \
	VMOVDQU32 Z15, (SC+(9+(d))*64)(DI) \
	VPADDD Z15, TOT4, TOT4 \
	VPSRLD $6, Z14, Z15 \
	VPANDD Z16, Z15, Z15 \
	VPOPCNTD Z15, Z15 \
	VMOVDQU32 Z15, (SC+(18+(d))*64)(DI) \
	VPADDD Z15, TOT5, TOT5 \
	VPTERNLOGD $0xF8, Z9, Z8, Z7 \
	VPANDD Z0, Z7, Z7 \
	VPANDD ROW0, Z7, Z4 \
	REP(Z4, Z5, Z1) \
	VPANDD Z5, Z10, Z10 \
	CHANGED(d, Z10) \
	VPSRLD $9, Z7, Z4 \
	VPANDD ROW0, Z4, Z4 \
	REP(Z4, Z5, Z1) \
	VPANDD Z5, Z11, Z11 \
	CHANGED(9+(d), Z11) \
	VPSRLD $18, Z7, Z4 \
	REP(Z4, Z5, Z1) \
	VPANDD Z5, Z12, Z12 \
	CHANGED(18+(d), Z12)

// ACC4(x, c1, c2, c3, c4): the counters of triadCheck, c4 |= c3 & x,
// c3 |= c2 & x, c2 |= c1 & x, c1 |= x.
#define ACC4(x, c1, c2, c3, c4) \
	VPTERNLOGD $0xF8, x, c3, c4 \
	VPTERNLOGD $0xF8, x, c2, c3 \
	VPTERNLOGD $0xF8, x, c1, c2 \
	VPORD x, c1, c1

// The triads' first pass (triadCheck) runs after the stack rule on the
// matrices the round kept (sup, hp), with BANDKEEP's and STACK's
// registers free: the counters of the sup halves in Z0-Z7 (c1-c4,
// f1-f4), of the hp halves in Z8-Z15.
#define TRIX Z16
#define TRIY Z21
#define TRIU Z23

// TRIHALF(src, c1, c2, c3, c4, f1, f2, f3, f4): one digit's key half
// loaded from src into the counters: the key's bits into c1-c4, those
// alone in their group of three into f1-f4 (x &^ (colRot1(x) |
// colRot2(x)): each group's exactly-one bit, 0x16, at its first member,
// spread over the group by *7 and kept where x has its bit).
#define TRIHALF(src, c1, c2, c3, c4, f1, f2, f3, f4) \
	VMOVDQU32 src, TRIX \
	ACC4(TRIX, c1, c2, c3, c4) \
	VPSRLD $1, TRIX, TRIY \
	VPSRLD $2, TRIX, TRIU \
	VPTERNLOGD $0x16, TRIX, TRIU, TRIY \
	VPANDD OCT1, TRIY, TRIY \
	VPMULLD.BCST mul7<>(SB), TRIY, TRIY \
	VPANDD TRIX, TRIY, TRIY \
	ACC4(TRIY, f1, f2, f3, f4)

#define TRIDIGIT(d) \
	TRIHALF((SUP+(d)*64)(DI), Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7) \
	TRIHALF((HP+(d)*64)(DI), Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)

// PICKUNIT(t, u): unit u, with sum t, is the choice so far where t > 9
// and t < the best sum (Z0); Z1 is the unit, Z3 holds 9. Uses K7, Z4.
#define PICKUNIT(t, u) \
	VPCMPUD $6, Z3, t, K7 \
	VPCMPUD $1, Z0, t, K7, K7 \
	VMOVDQA32 t, K7, Z0 \
	MOVL $(u), AX \
	VPBROADCASTD AX, Z4 \
	VMOVDQA32 Z4, K7, Z1

// UNITMASK(u, k): k = the lanes whose unit (Z1) is u. Uses Z4.
#define UNITMASK(u, k) \
	MOVL $(u), AX \
	VPBROADCASTD AX, Z4 \
	VPCMPEQD Z4, Z1, k

// PICKDIGIT(d): digit d's count in each lane's unit (K1-K6: bands 0-2,
// stacks 0-2) is the choice so far where it is >= 2 (Z8) and < the best
// (Z6); Z7 is the digit. Uses Z5, Z9, K7.
#define PICKDIGIT(d) \
	VMOVDQU32.Z (BC+(d)*64)(DI), K1, Z5 \
	VMOVDQU32 (BC+(9+(d))*64)(DI), K2, Z5 \
	VMOVDQU32 (BC+(18+(d))*64)(DI), K3, Z5 \
	VMOVDQU32 (SC+(d)*64)(DI), K4, Z5 \
	VMOVDQU32 (SC+(9+(d))*64)(DI), K5, Z5 \
	VMOVDQU32 (SC+(18+(d))*64)(DI), K6, Z5 \
	VPCMPUD $5, Z8, Z5, K7 \
	VPCMPUD $1, Z6, Z5, K7, K7 \
	VMOVDQA32 Z5, K7, Z6 \
	MOVL $(d), AX \
	VPBROADCASTD AX, Z9 \
	VMOVDQA32 Z9, K7, Z7

// Multipliers that copy bits apart: x*7 fills each mini-row of a
// presence bit (bit 9r+3c), x*rowRep copies a 9-bit row to all three.
DATA mul7<>+0(SB)/4, $7
GLOBL mul7<>(SB), RODATA|NOPTR, $4
DATA rowrep<>+0(SB)/4, $0x40201
GLOBL rowrep<>(SB), RODATA|NOPTR, $4
DATA mul21<>+0(SB)/4, $21
GLOBL mul21<>(SB), RODATA|NOPTR, $4
DATA mul4161<>+0(SB)/4, $4161
GLOBL mul4161<>(SB), RODATA|NOPTR, $4

// func roundLanesAVX512(s *laneState) (fail, changed, triFail, triWork uint16)
TEXT ·roundLanesAVX512(SB), NOSPLIT, $0-16
	MOVQ s+0(FP), DI
	MOVL $0x1249249, AX
	VPBROADCASTD AX, OCT1
	MOVL $0xfc7e3f, AX
	VPBROADCASTD AX, M077
	MOVL $0x70381c0, AX
	VPBROADCASTD AX, M700
	MOVL $0x1c0e07, AX
	VPBROADCASTD AX, M007
	MOVL $0x7e3f1f8, AX
	VPBROADCASTD AX, M770
	MOVL $0x7ffffff, AX
	VPBROADCASTD AX, BM
	MOVL $511, AX
	VPBROADCASTD AX, ROW0
	SHLL $9, AX
	VPBROADCASTD AX, ROW1
	SHLL $9, AX
	VPBROADCASTD AX, ROW2
	MOVL $1, AX
	VPBROADCASTD AX, ONE
	VPXORD ZERO, ZERO, ZERO
	MOVL $0x36db6db, AX
	VPBROADCASTD AX, OCT3
	MOVL $0x4924924, AX
	VPBROADCASTD AX, OCT4
	MOVL $0x6db6db6, AX
	VPBROADCASTD AX, OCT6
	MOVL $0x49, AX
	VPBROADCASTD AX, C49
	VMOVDQU32 ZERO, OPEN(DI)
	VMOVDQU32 ZERO, (HP+0*64)(DI)
	VMOVDQU32 ZERO, (HP+1*64)(DI)
	VMOVDQU32 ZERO, (HP+2*64)(DI)
	VMOVDQU32 ZERO, (HP+3*64)(DI)
	VMOVDQU32 ZERO, (HP+4*64)(DI)
	VMOVDQU32 ZERO, (HP+5*64)(DI)
	VMOVDQU32 ZERO, (HP+6*64)(DI)
	VMOVDQU32 ZERO, (HP+7*64)(DI)
	VMOVDQU32 ZERO, (HP+8*64)(DI)
	KXORW K5, K5, K5
	KXORW K6, K6, K6
	BAND(0)
	BAND(1)
	BAND(2)
	// The stack rule's counts: stack st of band 0 and its shifted copy.
	MOVL $0xe07, AX
	VPBROADCASTD AX, Z16
	VPXORD TOT3, TOT3, TOT3
	VPXORD TOT4, TOT4, TOT4
	VPXORD TOT5, TOT5, TOT5
	STACK(0)
	STACK(1)
	STACK(2)
	STACK(3)
	STACK(4)
	STACK(5)
	STACK(6)
	STACK(7)
	STACK(8)
	VMOVDQU32 TOT3, (TOT+3*64)(DI)
	VMOVDQU32 TOT4, (TOT+4*64)(DI)
	VMOVDQU32 TOT5, (TOT+5*64)(DI)
	KMOVW K5, AX
	MOVW AX, fail+8(FP)
	KMOVW K6, AX
	MOVW AX, changed+10(FP)
	// The branch choice (laneState.pickOf) for every lane: the unit with
	// the fewest configurations above 9 (the first of equals: Z0 its
	// sum, Z1 the unit), then its digit with the fewest above 1 (Z6 the
	// count, Z7 the digit).
	VPTERNLOGD $0xFF, Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVL $9, AX
	VPBROADCASTD AX, Z3
	VMOVDQU32 (TOT+0*64)(DI), Z2
	PICKUNIT(Z2, 0)
	VMOVDQU32 (TOT+1*64)(DI), Z2
	PICKUNIT(Z2, 1)
	VMOVDQU32 (TOT+2*64)(DI), Z2
	PICKUNIT(Z2, 2)
	PICKUNIT(TOT3, 3)
	PICKUNIT(TOT4, 4)
	PICKUNIT(TOT5, 5)
	UNITMASK(0, K1)
	UNITMASK(1, K2)
	UNITMASK(2, K3)
	UNITMASK(3, K4)
	UNITMASK(4, K5)
	UNITMASK(5, K6)
	VPTERNLOGD $0xFF, Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	MOVL $2, AX
	VPBROADCASTD AX, Z8
	PICKDIGIT(0)
	PICKDIGIT(1)
	PICKDIGIT(2)
	PICKDIGIT(3)
	PICKDIGIT(4)
	PICKDIGIT(5)
	PICKDIGIT(6)
	PICKDIGIT(7)
	PICKDIGIT(8)
	// pick = unit | digit<<4, all ones where no unit qualifies.
	VPSLLD $4, Z7, Z7
	VPORD Z1, Z7, Z7
	VPTERNLOGD $0xFF, Z6, Z6, Z6
	VPCMPEQD Z6, Z0, K7
	VMOVDQA32 Z6, K7, Z7
	VMOVDQU32 Z7, PICK(DI)
	// triadCheck on every lane.
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	TRIDIGIT(0)
	TRIDIGIT(1)
	TRIDIGIT(2)
	TRIDIGIT(3)
	TRIDIGIT(4)
	TRIDIGIT(5)
	TRIDIGIT(6)
	TRIDIGIT(7)
	TRIDIGIT(8)
	// Fail: a c3 half short of the whole word, or an f4 bit.
	VPCMPUD $4, BM, Z2, K1
	VPCMPUD $4, BM, Z10, K2
	KORW K2, K1, K1
	VPORD Z7, Z15, TRIX
	VPTESTMD TRIX, TRIX, K2
	KORW K2, K1, K1
	KMOVW K1, AX
	MOVW AX, triFail+12(FP)
	// Work: only3 = c3 &^ c4 &^ f3 or full = f3 & c4, in either half;
	// both kept for the second pass.
	VPTERNLOGD $0x10, Z6, Z3, Z2
	VPANDD Z6, Z3, Z3
	VPTERNLOGD $0x10, Z14, Z11, Z10
	VPANDD Z14, Z11, Z11
	VMOVDQU32 Z2, O3LO(DI)
	VMOVDQU32 Z10, O3HI(DI)
	VMOVDQU32 Z3, FULLLO(DI)
	VMOVDQU32 Z11, FULLHI(DI)
	VPTERNLOGD $0xFE, Z3, Z10, Z2
	VPORD Z11, Z2, TRIX
	VPTESTMD TRIX, TRIX, K3
	KMOVW K3, AX
	MOVW AX, triWork+14(FP)
	VZEROUPPER
	RET
