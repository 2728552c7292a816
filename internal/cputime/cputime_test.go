package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThread: a thread's CPU time grows while it computes and hardly
// while it sleeps.
func TestThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, ok := Thread()
	if !ok {
		t.Skip("the system does not report a thread's CPU time")
	}
	x := 1.0
	for i := 0; i < 20_000_000; i++ {
		x = x*1.0000001 + 1e-9
	}
	b, _ := Thread()
	time.Sleep(50 * time.Millisecond)
	c, _ := Thread()
	if b <= a || c-b > 20*time.Millisecond {
		t.Fatalf("computing took %v of CPU, sleeping 50 ms %v (x = %v)", b-a, c-b, x)
	}
	if p, ok := Process(); !ok || p < b-a {
		t.Fatalf("process CPU %v, %v", p, ok)
	}
}
