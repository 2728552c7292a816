//go:build linux

package hostile

import (
	"syscall"
	"testing"
	"time"
)

// TestNoSignalAfterEnd: a process that ended before the moment of its
// signal is not signalled, even where the harness sees its end and that
// moment at once (here both are ready before Stop looks): its exit is its
// answer, judged as any other.
func TestNoSignalAfterEnd(t *testing.T) {
	lim := Limits{AddressSpace: 1 << 30, Answer: time.Second}
	for i := range 20 {
		r, err := Start(lim, Proc{Args: []string{"/bin/sh", "-c", "exit 3"}})
		if err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); !ended(r.Pid()); {
			if time.Now().After(deadline) {
				t.Fatal("sh -c 'exit 3' did not end within 10 s")
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(5 * time.Millisecond) // for the wait for it to return too
		res := r.Stop(syscall.SIGTERM)
		if res.Signalled || res.Code != 3 || res.Signal != 0 {
			t.Fatalf("run %d: signalled %v, exit %d, signal %v; want not signalled, exit 3", i, res.Signalled, res.Code, res.Signal)
		}
	}
}
