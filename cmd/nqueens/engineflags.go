package main

import (
	"flag"
	"runtime"

	"github.com/nqcount/nqcount/count/queens"
)

// engineFlags are the flags that say how to count, shared by count and
// verify: --workers, --method and --kernel.
type engineFlags struct {
	opt    *queens.Options
	method string
}

func (f *engineFlags) add(fs *flag.FlagSet, opt *queens.Options) {
	f.opt = opt
	fs.IntVar(&opt.Workers, "workers", runtime.GOMAXPROCS(0), "number of tasks counted at once")
	fs.StringVar(&f.method, "method", string(queens.Constellations), "counting method: constellations or halving")
	fs.StringVar(&opt.Kernel, "kernel", "auto", "kernel to count with (see 'nqueens cpu')")
}

// check validates the flags into the options, reporting the first bad one.
func (f *engineFlags) check(e *env) bool {
	if f.opt.Workers < 1 {
		e.Errorf("--workers %d: need at least 1", f.opt.Workers)
		return false
	}
	m, err := queens.ParseMethod(f.method)
	if err != nil {
		e.Errorf("--method: %v", err)
		return false
	}
	f.opt.Method = m
	return true
}
