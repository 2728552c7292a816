package sysmem

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

func TestTotalAndPeak(t *testing.T) {
	tot, ok := Total()
	if runtime.GOOS == "linux" && (!ok || tot < 64<<20) {
		t.Fatalf("Total() = %d, %v on linux", tot, ok)
	}
	if l, found := Smallest(); ok && (!found || l.Bytes > tot || DefaultLimit() != l.Bytes/2) {
		t.Fatalf("DefaultLimit %d, Smallest %+v %v: want half of the smallest, at most %d", DefaultLimit(), l, found, tot)
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

func TestParseHWM(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    1940 kB\nVmRSS:\t 1000 kB\n", 1940 << 10, true},
		{"VmHWM:\t0 kB\n", 0, false},
		{"VmHWM:\t12 MB\n", 0, false},
		{"VmHWM:\tx kB\n", 0, false},
		{"Name:\tx\n", 0, false},
		{"", 0, false},
	} {
		if got, ok := parseHWM([]byte(c.in)); got != c.want || ok != c.ok {
			t.Errorf("parseHWM(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseOutside(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"VmRSS:\t 30000 kB\nRssAnon:\t 15000 kB\nRssFile:\t 14864 kB\nRssShmem:\t 0 kB\n", 14864 << 10, true},
		{"RssFile:\t 100 kB\nRssShmem:\t 24 kB\n", 124 << 10, true},
		{"RssFile:\t 100 kB\n", 0, false},
		{"RssFile:\t 100 MB\nRssShmem:\t 0 kB\n", 0, false},
		{"", 0, false},
	} {
		if got, ok := parseOutside([]byte(c.in)); got != c.want || ok != c.ok {
			t.Errorf("parseOutside(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestOutside: on Linux a running Go binary has its own code resident.
func TestOutside(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RssFile is Linux's")
	}
	if b, ok := Outside(); !ok || b == 0 {
		t.Errorf("Outside() = %d, %v", b, ok)
	}
}

// TestPeakIsOwn: a process started by a large one reports its own peak,
// not its parent's (ru_maxrss takes in the parent's under vfork + exec).
func TestPeakIsOwn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is Linux's")
	}
	if os.Getenv("SYSMEM_CHILD") == "1" {
		p, ok := Peak()
		fmt.Println(p, ok)
		return
	}
	big := make([]byte, 256<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPeakIsOwn$")
	cmd.Env = append(os.Environ(), "SYSMEM_CHILD=1")
	out, err := cmd.Output()
	runtime.KeepAlive(big)
	if err != nil {
		t.Fatal(err)
	}
	var p uint64
	var ok bool
	if _, err := fmt.Sscan(string(out), &p, &ok); err != nil || !ok {
		t.Fatalf("child said %q: %v", out, err)
	}
	if p >= 200<<20 {
		t.Fatalf("the child's peak is %d MiB: its parent's 256 MiB counted", p>>20)
	}
}
