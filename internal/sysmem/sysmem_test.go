package sysmem

import (
	"runtime"
	"testing"
)

func TestTotalAndPeak(t *testing.T) {
	tot, ok := Total()
	if runtime.GOOS == "linux" && (!ok || tot < 64<<20) {
		t.Fatalf("Total() = %d, %v on linux", tot, ok)
	}
	if ok && DefaultLimit() != tot/2 {
		t.Fatalf("DefaultLimit %d, want half of %d", DefaultLimit(), tot)
	}
	buf := make([]byte, 32<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	p, ok := Peak()
	if runtime.GOOS == "linux" && (!ok || p < 32<<20) {
		t.Fatalf("Peak() = %d, %v after touching 32 MiB", p, ok)
	}
	runtime.KeepAlive(buf)
}
