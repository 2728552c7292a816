package join

import (
	"fmt"
	"testing"
)

func BenchmarkEmpty(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				got, _ := Count(Empty(n, n/2))
				if got != known[n] {
					b.Fatal(got)
				}
			}
		})
	}
}
