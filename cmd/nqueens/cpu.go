package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/sysmem"
	"github.com/nqcount/nqcount/internal/x86"
)

func init() {
	app.Register(&cli.Command{Name: "cpu", Summary: "show the CPU, its features and the kernels", Run: runCPU})
}

func runCPU(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "cpu", "")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("cpu takes no arguments")
		return cli.ExitUsage
	}
	describeCPU(e.Stdout)
	return cli.ExitOK
}

func describeCPU(w io.Writer) {
	c := cpuid.CPU
	fmt.Fprintf(w, "cpu: %s (%d logical %s, %d physical; GOMAXPROCS %d)\n", c.BrandName, c.LogicalCores,
		cli.Plural(c.LogicalCores, "core", "cores"), c.PhysicalCores, runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "cache: L1d %s, L2 %s, L3 %s (a kernel's working set is %d bytes a worker, well inside L1d)\n",
		kib(c.Cache.L1D), kib(c.Cache.L2), kib(c.Cache.L3), unsafe.Sizeof(kernel.Search{}))
	// The features as the kernels read them (internal/x86), not as the
	// description above does.
	fmt.Fprintf(w, "features the kernels use:")
	x := x86.CPU()
	for _, f := range []struct {
		name string
		has  bool
	}{{"POPCNT", x.POPCNT}, {"BMI1", x.BMI1}, {"BMI2", x.BMI2}, {"AVX2", x.AVX2}, {"AVX512F", x.AVX512F}, {"AVX512VL", x.AVX512VL},
		{"AVX512BW", x.AVX512BW}, {"AVX512VBMI", x.AVX512VBMI}, {"AVX512VPOPCNTDQ", x.AVX512VPOPCNTDQ}} {
		mark := "-"
		if f.has {
			mark = "+"
		}
		fmt.Fprintf(w, " %s%s", mark, f.name)
	}
	fmt.Fprintf(w, "\nGOAMD64 level of this CPU: v%d\n", c.X64Level())
	var ks, js []impl
	for _, k := range kernel.All() {
		ks = append(ks, impl{k.Name, k.Doc, k.Supported()})
	}
	for _, k := range join.Kernels() {
		js = append(js, impl{k.Name, k.Doc, k.Supported()})
	}
	listImpls(w, "kernels:", kernel.Best().Name, ks)
	listImpls(w, "join kernels (--method join):", join.Best().Name, js)
	ls := sysmem.Limits()
	if len(ls) == 0 {
		fmt.Fprintf(w, "memory: no limit reported by the system; the join method plans for %s by default (--memory)\n", mib(queens.DefaultMemory()))
		return
	}
	fmt.Fprintln(w, "memory limits:")
	for _, l := range ls {
		fmt.Fprintf(w, "  %-10s %s\n", mib(l.Bytes), l.Source)
	}
	least, _ := sysmem.Smallest()
	fmt.Fprintf(w, "the join method plans for %s by default (--memory): half of the smallest, %s\n", mib(queens.DefaultMemory()), least.Source)
}

// mib writes a size in MiB, or GiB from 10 GiB up.
func mib(b uint64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", b>>20)
}

func kib(b int) string {
	if b <= 0 {
		return "?"
	}
	if b >= 1<<20 {
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%d KiB", b>>10)
}

// impl is a registered implementation as nqueens cpu lists it.
type impl struct {
	name, doc string
	supported bool
}

// listImpls prints title and one line per implementation: chosen (best),
// supported or not supported here.
func listImpls(w io.Writer, title, best string, impls []impl) {
	fmt.Fprintln(w, title)
	for _, k := range impls {
		state := "supported"
		if !k.supported {
			state = "not supported here"
		}
		if k.name == best {
			state = "chosen"
		}
		fmt.Fprintf(w, "  %-10s %-22s %s\n", k.name, state, k.doc)
	}
}
