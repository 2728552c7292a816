//go:build amd64 && !purego

#include "textflag.h"

// The two passes of bucket (index.go) with BMI2's PEXT: a pattern's key
// is PEXT by the chosen bits, its compacted form PEXT by the others.

// func keysPEXT(pats *uint64, n int, mask uint64, keys *uint32, cnt *int32)
//
// keys[i] = PEXT(pats[i], mask); cnt[keys[i]]++. n >= 1.
TEXT ·keysPEXT(SB), NOSPLIT, $0-40
	MOVQ pats+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ mask+16(FP), R9
	MOVQ keys+24(FP), DI
	MOVQ cnt+32(FP), R10

kloop:
	MOVQ  (SI), AX
	PEXTQ R9, AX, AX
	MOVL  AX, (DI)
	INCL  (R10)(AX*4)
	ADDQ  $8, SI
	ADDQ  $4, DI
	DECQ  CX
	JNZ   kloop
	RET

// func scatterPEXT(pats *uint64, n int, mask uint64, keys *uint32, start *int32, out *uint64, top uint64)
//
// out[start[keys[i]]++] = PEXT(pats[i], mask) | keys[i]<<top. n >= 1.
TEXT ·scatterPEXT(SB), NOSPLIT, $0-56
	MOVQ pats+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ mask+16(FP), R9
	MOVQ keys+24(FP), DI
	MOVQ start+32(FP), R10
	MOVQ out+40(FP), R11
	MOVQ top+48(FP), R12

sloop:
	MOVL    (DI), AX
	MOVLQSX (R10)(AX*4), BX
	MOVQ    (SI), DX
	PEXTQ   R9, DX, DX
	SHLXQ   R12, AX, R13
	ORQ     R13, DX
	MOVQ    DX, (R11)(BX*8)
	INCL    (R10)(AX*4)
	ADDQ    $8, SI
	ADDQ    $4, DI
	DECQ    CX
	JNZ     sloop
	RET
