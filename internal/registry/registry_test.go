package registry

import (
	"strings"
	"testing"
)

type impl struct {
	name string
	rank int
	ok   bool
}

func info(x impl) Info {
	return Info{Name: x.name, Doc: "test " + x.name, Rank: x.rank, Supported: func() bool { return x.ok }}
}

// Registration order does not matter: rank does; Best is the fastest
// supported; Lookup finds by name, refuses an unsupported one and names
// the choices for an unknown one.
func TestSet(t *testing.T) {
	s := New("kernel", "this CPU", info)
	s.Register(impl{"fast-unsupported", 30, false})
	s.Register(impl{"plain", 0, true})
	s.Register(impl{"fast", 20, true})
	s.Register(impl{"middle", 10, true})
	var names []string
	for _, x := range s.All() {
		names = append(names, x.name)
	}
	if got := strings.Join(names, " "); got != "plain middle fast fast-unsupported" {
		t.Errorf("All: %s, want slowest first", got)
	}
	if b := s.Best(); b.name != "fast" {
		t.Errorf("Best: %s, want fast", b.name)
	}
	for _, name := range []string{"", "auto", "fast"} {
		if x, err := s.Lookup(name); err != nil || x.name != "fast" {
			t.Errorf("Lookup(%q): %v, %v", name, x, err)
		}
	}
	if x, err := s.Lookup("middle"); err != nil || x.name != "middle" {
		t.Errorf("Lookup(middle): %v, %v", x, err)
	}
	if _, err := s.Lookup("fast-unsupported"); err == nil || !strings.Contains(err.Error(), `kernel "fast-unsupported" is not supported by this CPU (test fast-unsupported)`) {
		t.Errorf("unsupported: %v", err)
	}
	if _, err := s.Lookup("nope"); err == nil || !strings.Contains(err.Error(), `unknown kernel "nope" (choose auto, plain, middle, fast, fast-unsupported)`) {
		t.Errorf("unknown: %v", err)
	}
	all := s.All()
	all[0] = impl{}
	if s.All()[0].name != "plain" {
		t.Error("All returned the registry's own slice")
	}
}
