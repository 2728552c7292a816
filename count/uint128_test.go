package count

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

func TestUint128Arithmetic(t *testing.T) {
	max64 := ^uint64(0)
	u := U128(max64).Add64(1)
	if u.Hi != 1 || u.Lo != 0 || u.String() != "18446744073709551616" {
		t.Fatalf("carry: got %+v %s", u, u)
	}
	m := U128(max64).Mul64(max64)
	want := new(big.Int).Mul(new(big.Int).SetUint64(max64), new(big.Int).SetUint64(max64))
	if m.Big().Cmp(want) != 0 {
		t.Fatalf("Mul64: got %s want %s", m, want)
	}
	if U128(3).Cmp(U128(5)) != -1 || U128(5).Cmp(U128(5)) != 0 || u.Cmp(U128(max64)) != 1 {
		t.Fatal("Cmp")
	}
	b, _ := json.Marshal(m)
	var back Uint128
	if err := json.Unmarshal(b, &back); err != nil || back != m {
		t.Fatalf("JSON round trip: %s -> %+v, %v", b, back, err)
	}
	if _, err := ParseUint128("-1"); err == nil {
		t.Fatal("ParseUint128 accepted a negative number")
	}
	if _, err := ParseUint128("340282366920938463463374607431768211456"); err == nil {
		t.Fatal("ParseUint128 accepted 2^128")
	}
	// A number of megabytes (in an edited file) is refused unparsed, and
	// the message stays short.
	if _, err := ParseUint128(strings.Repeat("9", 10<<20)); err == nil || len(err.Error()) > 200 {
		t.Fatalf("ten million digits: %.300v", err)
	}
}

func TestUint128OverflowPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on overflow")
		}
	}()
	Uint128{Hi: ^uint64(0), Lo: ^uint64(0)}.Add64(1)
}
