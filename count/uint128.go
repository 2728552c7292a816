package count

import (
	"math/big"
	"math/bits"
	"strconv"
)

// Uint128 is an unsigned 128-bit integer used for exact totals.
//
// A single prefix task always counts in 64 bits, but the sum over all tasks
// does not fit for n >= 29 (Q(29) > 2^64), and a weighted sum (symmetry
// classes count 2, 4 or 8 times) overflows earlier. Uint128 keeps every total
// the engine reports exact; Add panics rather than wrap, because a silently
// wrapped total is a wrong answer.
type Uint128 struct {
	Hi, Lo uint64
}

// U128 returns v as a Uint128.
func U128(v uint64) Uint128 { return Uint128{Lo: v} }

// Add returns u+v. It panics on overflow beyond 128 bits, which no count
// this tool can finish comes near.
func (u Uint128) Add(v Uint128) Uint128 {
	lo, c := bits.Add64(u.Lo, v.Lo, 0)
	hi, c := bits.Add64(u.Hi, v.Hi, c)
	if c != 0 {
		panic("count: Uint128 overflow")
	}
	return Uint128{hi, lo}
}

// Add64 returns u+v.
func (u Uint128) Add64(v uint64) Uint128 { return u.Add(Uint128{Lo: v}) }

// Mul64 returns u*v. It panics on overflow beyond 128 bits.
func (u Uint128) Mul64(v uint64) Uint128 {
	hi1, lo := bits.Mul64(u.Lo, v)
	hi2, hiLo := bits.Mul64(u.Hi, v)
	hi, c := bits.Add64(hi1, hiLo, 0)
	if hi2 != 0 || c != 0 {
		panic("count: Uint128 overflow")
	}
	return Uint128{hi, lo}
}

// IsUint64 reports whether u fits in 64 bits.
func (u Uint128) IsUint64() bool { return u.Hi == 0 }

// Cmp compares u and v and returns -1, 0 or +1.
func (u Uint128) Cmp(v Uint128) int {
	switch {
	case u.Hi < v.Hi || (u.Hi == v.Hi && u.Lo < v.Lo):
		return -1
	case u == v:
		return 0
	}
	return 1
}

// Big returns u as a new big.Int.
func (u Uint128) Big() *big.Int {
	b := new(big.Int).SetUint64(u.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(u.Lo))
}

// String returns u in decimal.
func (u Uint128) String() string {
	if u.Hi == 0 {
		return strconv.FormatUint(u.Lo, 10)
	}
	return u.Big().String()
}

// MarshalJSON writes u as a JSON number with every digit exact. Readers that
// parse numbers as float64 lose precision above 2^53; they should read the
// number as a string or big integer.
func (u Uint128) MarshalJSON() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalJSON reads a JSON number (or a quoted decimal string) into u.
func (u *Uint128) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	v, err := ParseUint128(s)
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// maxDigits is the length of 2^128-1 in decimal.
const maxDigits = 39

// ParseUint128 parses a decimal string. A string of more than 39 digits
// is out of range without being parsed (decimal parsing takes time
// quadratic in the length, and a file could hold a number of megabytes);
// the error quotes at most its first digits.
func ParseUint128(s string) (Uint128, error) {
	if len(s) > maxDigits+1 {
		return Uint128{}, &strconv.NumError{Func: "ParseUint128", Num: s[:20] + "…(" + strconv.Itoa(len(s)) + " characters)", Err: strconv.ErrRange}
	}
	b, ok := new(big.Int).SetString(s, 10)
	if !ok || b.Sign() < 0 || b.BitLen() > 128 {
		return Uint128{}, &strconv.NumError{Func: "ParseUint128", Num: s, Err: strconv.ErrSyntax}
	}
	lo := new(big.Int).And(b, new(big.Int).SetUint64(^uint64(0)))
	return Uint128{Hi: new(big.Int).Rsh(b, 64).Uint64(), Lo: lo.Uint64()}, nil
}
