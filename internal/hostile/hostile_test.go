//go:build linux

package hostile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// target is a subcommand: a valid invocation to make hostile, and where
// its numbers, input files and output files go. A new subcommand joins the
// harness by adding a line to targets.
type target struct {
	prog, cmd string
	// base is a valid invocation (after the program name); long one that
	// runs until stopped, for the signal cases (nil: the command has no
	// state that lasts).
	base, long func(f *fixtures, dir string) []string
	// serves says base itself runs until stopped (a server, a worker):
	// every case ends with a signal.
	serves bool
	// nums are the positions in base of its numeric arguments.
	nums []int
	// inputs and outputs are the files it reads and writes.
	inputs, outputs []slot
	// stdin names the format it reads on standard input ("" for none).
	stdin string
	// lines is the rule for stderr (default: one line for an error).
	lines Lines
	// answer checks stdout after a success: the count must be right.
	answer func(stdout string) string
}

// slot is where a file goes on a command line: a flag's value, or the
// positional argument at pos of base.
type slot struct {
	flag    string
	pos     int
	formats []string // our formats it reads (or writes over)
	// alone: with these formats the file is the only positional argument
	// (an export merges alone, a shard with the other shard).
	alone []string
}

func (s slot) String() string {
	if s.flag != "" {
		return s.flag
	}
	return fmt.Sprintf("argument %d", s.pos)
}

// put returns base with the file at path in slot s.
func (s slot) put(base []string, path string, alone bool) []string {
	args := slices.Clone(base)
	if s.flag == "" {
		args[s.pos] = path
		if alone {
			args = append(args[:s.pos+1:s.pos+1], slices.DeleteFunc(args[s.pos+1:], func(a string) bool { return !strings.HasPrefix(a, "-") })...)
		}
		return args
	}
	for i := range args {
		if args[i] == s.flag && i+1 < len(args) {
			args[i+1] = path
			return args
		}
	}
	return append(args, s.flag, path)
}

func args(a ...string) func(*fixtures, string) []string {
	return func(*fixtures, string) []string { return a }
}

// deadServer is a queue server URL where nothing listens.
const deadServer = "nats://127.0.0.1:1"

var (
	tokenFiles = []slot{{flag: "--token-file"}, {flag: "--creds"}, {flag: "--tls-ca"}, {flag: "--tls-cert"}, {flag: "--tls-key"}}
	puzzleIn   = []slot{{pos: 1, formats: []string{"puzzles", "saved game (line)", "saved game (grid)", "saved game (json)"}}}
)

func merged724(stdout string) string {
	if !strings.Contains(stdout, "n = 10: 724 solutions (matches OEIS A000170)") {
		return "exit 0 without the right total: " + clip(stdout, 200)
	}
	return ""
}

var targets = []target{
	{prog: "nqueens", cmd: "count", base: args("count", "10"), long: args("count", "22"), nums: []int{1},
		inputs:  []slot{{flag: "--checkpoint", formats: []string{"journal"}}},
		outputs: []slot{{flag: "--out", formats: []string{"shard"}}, {flag: "--checkpoint"}},
		answer:  merged724},
	{prog: "nqueens", cmd: "solutions", base: args("solutions", "8", "--limit", "3"), long: args("solutions", "20", "--format", "board"), nums: []int{1},
		outputs: []slot{{flag: "--svg"}}},
	{prog: "nqueens", cmd: "solve", base: args("solve", "8"), long: args("solve", "31", "--method", "search"), nums: []int{1},
		outputs: []slot{{flag: "--svg"}}},
	{prog: "nqueens", cmd: "verify", base: args("verify", "--max", "6"), long: args("verify", "--max", "27")},
	{prog: "nqueens", cmd: "merge", base: func(f *fixtures, _ string) []string { return []string{"merge", f.s0, f.s1} },
		inputs: []slot{{pos: 1, formats: []string{"shard", "export"}, alone: []string{"export"}}}, answer: merged724},
	{prog: "nqueens", cmd: "bench", base: args("bench", "--quick", "--rounds", "1", "--workers", "1", "-q"), serves: true},
	{prog: "nqueens", cmd: "cpu", base: args("cpu")},
	{prog: "nqueens", cmd: "serve", serves: true, base: func(_ *fixtures, dir string) []string {
		return []string{"serve", "--data", filepath.Join(dir, "data"), "--listen", "127.0.0.1:0"}
	}, inputs: []slot{{flag: "--token-file"}, {flag: "--tls-cert"}, {flag: "--tls-key"}, {flag: "--tls-client-ca"}, {flag: "--data"}}},
	{prog: "nqueens", cmd: "work", serves: true, base: args("work", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "submit", base: args("submit", "10", "--server", deadServer), nums: []int{1}, inputs: tokenFiles},
	{prog: "nqueens", cmd: "wait", base: args("wait", "q10-x", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "status", base: args("status", "q10-x", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "export", base: func(_ *fixtures, dir string) []string {
		return []string{"export", "q10-x", "--server", deadServer, "--out", filepath.Join(dir, "x.json")}
	}, inputs: tokenFiles, outputs: []slot{{flag: "--out", formats: []string{"export"}}}},
	{prog: "nqueens", cmd: "jobs", base: args("jobs", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "cancel", base: args("cancel", "q10-x", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "requeue", base: args("requeue", "q10-x", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "remove-peer", base: args("remove-peer", "s2", "--server", deadServer), inputs: tokenFiles},
	{prog: "nqueens", cmd: "estimate", base: args("estimate", "10", "--budget", "100ms"), long: args("estimate", "24"), nums: []int{1}},
	{prog: "nqueens", cmd: "watch", serves: true, base: args("watch", "8", "--no-browser"), nums: []int{1}},
	{prog: "sudoku", cmd: "solve", base: func(f *fixtures, _ string) []string { return []string{"solve", f.puzzles} },
		long: func(f *fixtures, _ string) []string { return []string{"solve", "-"} }, inputs: puzzleIn, stdin: "puzzles", lines: Any},
	{prog: "sudoku", cmd: "count", base: func(f *fixtures, _ string) []string { return []string{"count", f.puzzles} },
		long: func(f *fixtures, _ string) []string { return []string{"count", f.hard} }, inputs: puzzleIn, stdin: "puzzles", lines: Any},
	{prog: "sudoku", cmd: "rate", base: func(f *fixtures, _ string) []string { return []string{"rate", f.puzzles} },
		long: func(f *fixtures, _ string) []string { return []string{"rate", "-"} }, inputs: puzzleIn, stdin: "puzzles", lines: Any},
	{prog: "sudoku", cmd: "explain", base: func(f *fixtures, _ string) []string { return []string{"explain", f.puzzles} },
		long: func(f *fixtures, _ string) []string { return []string{"explain", "-"} }, inputs: puzzleIn, stdin: "puzzles", lines: Any},
	{prog: "sudoku", cmd: "generate", base: args("generate", "--count", "1", "--difficulty", "singles", "--seed", "1"),
		long: args("generate", "--count", "1000000", "--difficulty", "hard")},
	{prog: "sudoku", cmd: "play", serves: true, base: args("play", "--no-browser")},
}

// hcase is one run of a command.
type hcase struct {
	class, row, name string
	prog             string
	// make returns the command line (after the program name) and its
	// standard input, made in the case's own folder.
	make func(dir string) (made, error)
	// web, for a case of the web API, runs it and returns its problems.
	web           func(dir string) []string
	stdin, stdout string
	time          time.Duration
	signal        syscall.Signal
	lines         Lines
	quick         bool
	// last cases run after all others, alone on the web servers (they
	// measure a server's CPU time).
	last bool
	// early: the signal comes while the process starts (see Proc.Early).
	early  bool
	answer func(stdout string) string
}

// helpFlags lists the flags a subcommand's -h shows.
func helpFlags(t *testing.T, prog, cmd string) []string {
	out, err := exec.Command(w.bin[prog], cmd, "-h").Output()
	if err != nil {
		t.Fatalf("%s %s -h: %v", prog, cmd, err)
	}
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllStringSubmatch(string(out), -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// cases builds the table's cases for tg.
func (tg target) cases(t *testing.T) []hcase {
	row := tg.prog + " " + tg.cmd
	budget := 5 * time.Second
	if tg.serves {
		budget = 700 * time.Millisecond
	}
	mk := func(class, name string, fn func(dir string) (made, error)) hcase {
		c := hcase{class: class, row: row, name: name, prog: tg.prog, make: fn, time: budget, lines: tg.lines}
		if class == "numbers" || class == "special" || class == "edited" {
			c.answer = tg.answer
		}
		return c
	}
	plain := func(a []string) func(string) (made, error) {
		return func(string) (made, error) { return made{args: a}, nil }
	}
	withBase := func(fn func(base []string, dir string) (made, error)) func(string) (made, error) {
		return func(dir string) (made, error) { return fn(tg.base(&w.fx, dir), dir) }
	}
	var out []hcase
	// Numbers in every flag and numeric argument.
	for _, fl := range helpFlags(t, tg.prog, tg.cmd) {
		for _, v := range numbers {
			fl, v := fl, v
			out = append(out, mk("numbers", "--"+fl+"="+numberName(v), withBase(func(base []string, _ string) (made, error) {
				return made{args: append(base, "--"+fl+"="+v)}, nil
			})))
		}
	}
	for _, pos := range tg.nums {
		for _, v := range numbers {
			pos, v := pos, v
			out = append(out, mk("numbers", fmt.Sprintf("argument %d = %s", pos, numberName(v)), withBase(func(base []string, _ string) (made, error) {
				a := slices.Clone(base)
				a[pos] = v
				return made{args: a}, nil
			})))
		}
	}
	// Junk arguments.
	for _, j := range []string{"", "\xff\xfe\x01", "--", "-", strings.Repeat("x", 100000), "--nonexistent-flag"} {
		j := j
		out = append(out, mk("junk", fmt.Sprintf("argument %q", clip(j, 12)), withBase(func(base []string, _ string) (made, error) {
			return made{args: append(base, j)}, nil
		})))
	}
	// Every input file: the generic hostile files, and the edited copies
	// of our own formats it reads.
	for _, s := range tg.inputs {
		ins := generic()
		for _, fname := range s.formats {
			f := formatNamed(fname)
			sample, err := os.ReadFile(f.sample(&w.fx))
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range f.edits(sample) {
				in.name = fname + ": " + in.name
				if slices.Contains(s.alone, fname) {
					in.name = "alone " + in.name
				}
				ins = append(ins, in)
			}
		}
		for _, in := range ins {
			s, in := s, in
			alone := strings.HasPrefix(in.name, "alone ")
			c := mk(in.class, s.String()+" "+strings.TrimPrefix(in.name, "alone "), withBase(func(base []string, dir string) (made, error) {
				p, undo, err := in.materialize(dir)
				return made{args: s.put(base, p, alone), undo: undo}, err
			}))
			c.quick = in.quick && tg.cmd == "merge"
			if in.class == "endless" {
				// Input that never ends, or never comes: either an
				// error, or a wait that SIGINT and SIGTERM end.
				c.time = min(c.time, time.Second)
				t := c
				t.name += ", SIGTERM"
				t.signal = syscall.SIGTERM
				out = append(out, t)
			}
			out = append(out, c)
		}
	}
	// Every output file.
	for _, s := range tg.outputs {
		ins := outputs()
		for _, fname := range s.formats {
			if fname == "shard" {
				ins = append(ins, otherShards()...)
			}
		}
		for _, in := range ins {
			s, in := s, in
			c := mk(in.class, s.String()+" → "+in.name, withBase(func(base []string, dir string) (made, error) {
				p, undo, err := in.materialize(dir)
				if tg.cmd == "count" && s.flag == "--out" {
					base = append(base, "--shard", "1/2")
				}
				return made{args: s.put(base, p, false), undo: undo}, err
			}))
			c.quick = in.quick
			if tg.cmd == "count" && s.flag == "--out" {
				c.answer = nil // a shard's partial total
			}
			out = append(out, c)
		}
	}
	// Standard input.
	if tg.stdin != "" {
		for _, in := range generic() {
			in := in
			c := mk(in.class, "stdin "+in.name, func(dir string) (made, error) {
				p, undo, err := in.materialize(dir)
				if err != nil {
					return made{undo: undo}, err
				}
				if fi, err := os.Stat(p); err != nil || fi.IsDir() || in.name == "a FIFO nobody writes" {
					return made{undo: undo}, errSkip // not what a shell gives as stdin
				}
				return made{args: []string{tg.cmd, "-"}, stdin: p, undo: undo}, nil
			})
			if in.class == "endless" {
				c.time = time.Second
			}
			out = append(out, c)
		}
		c := mk("endless", "stdin a pipe held open", plain([]string{tg.cmd, "-"}))
		c.stdin, c.time = PipeOpen, time.Second
		out = append(out, c)
	}
	// Standard output that cannot be written.
	if !tg.serves {
		for _, o := range []string{"/dev/full", BrokenPipe} {
			c := mk("special", "stdout "+o, withBase(func(base []string, _ string) (made, error) { return made{args: base}, nil }))
			c.stdout = o
			out = append(out, c)
		}
	}
	// SIGINT, SIGTERM and SIGHUP (the terminal closed) while it works (or
	// serves, or waits).
	long := tg.long
	if tg.serves {
		long = tg.base
	}
	if tg.cmd == "merge" {
		long = nil // its long state is the held-open input, above
	}
	if long != nil {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			// 30 ms: while it starts (a signal then must not be lost).
			for _, after := range []time.Duration{30 * time.Millisecond, 400 * time.Millisecond, 1500 * time.Millisecond} {
				sig, after := sig, after
				c := mk("signals", fmt.Sprintf("%v after %v", sig, after), func(dir string) (made, error) { return made{args: long(&w.fx, dir)}, nil })
				c.time, c.signal, c.early = after, sig, after < 100*time.Millisecond
				if tg.stdin != "" && tg.cmd != "count" {
					c.stdin = PipeOpen
				}
				c.lines = Any
				out = append(out, c)
			}
		}
	}
	return out
}

// otherShards are result files an --out of shard 1/2 of n = 10 must not
// replace: shard 0 of the same run, a shard of another n, a damaged one.
func otherShards() []input {
	s0, _ := os.ReadFile(w.fx.s0)
	return []input{
		{class: "edited", name: "shard 0/2 of the same run", data: s0, quick: true},
		{class: "edited", name: "a shard of another n", data: editJSON(s0, func(m map[string]any) { m["run"].(map[string]any)["n"] = "11" })},
		{class: "edited", name: "a damaged shard", data: s0[:len(s0)/2]},
	}
}

var errSkip = fmt.Errorf("not applicable")

// made is a case's command line, made in its folder.
type made struct {
	args  []string
	stdin string // a file; "" for the case's stdin
	undo  func()
}

// outcome is a case's result in the table.
type outcome struct {
	c        hcase
	problems []string
	skipped  bool
	peak     uint64
}

// TestHostile runs the table (the quick cases without NQCOUNT_HOSTILE=1).
func TestHostile(t *testing.T) {
	setUp(t)
	if full {
		if err := makeHugeLine(w.root); err != nil {
			t.Fatal(err)
		}
	}
	var all []hcase
	for _, tg := range targets {
		all = append(all, tg.cases(t)...)
	}
	all = append(all, webCases(t)...)
	if !full {
		all = slices.DeleteFunc(all, func(c hcase) bool { return !c.quick })
		t.Logf("quick cases only (NQCOUNT_HOSTILE=1 runs the %s)", "whole table")
	}
	if re := os.Getenv("NQCOUNT_HOSTILE_RUN"); re != "" {
		// "ROW / CLASS / NAME" matching the pattern, to rerun some.
		sel := regexp.MustCompile(re)
		all = slices.DeleteFunc(all, func(c hcase) bool { return !sel.MatchString(c.row + " / " + c.class + " / " + c.name) })
	}
	t.Logf("limits: address space %d MiB (an idle command reserves %d MiB), peak memory %d MiB, %v to answer a signal",
		w.lim.AddressSpace>>20, w.idle>>20, w.lim.Memory>>20, w.lim.Answer)
	startServers(t)
	results := make([]outcome, len(all))
	start := time.Now()
	for _, last := range []bool{false, true} {
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for i, c := range all {
			if c.last != last {
				continue
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				results[i] = runCase(c)
			}()
		}
		wg.Wait()
	}
	results = append(results, stopServers()...)
	elapsed := time.Since(start)
	var failed int
	var peak uint64
	byPeak := slices.Clone(results)
	sort.Slice(byPeak, func(i, j int) bool { return byPeak[i].peak > byPeak[j].peak })
	for _, o := range byPeak[:min(5, len(byPeak))] {
		t.Logf("peak memory %d MiB: %s / %s / %s", o.peak>>20, o.c.row, o.c.class, o.c.name)
	}
	for _, o := range results {
		peak = max(peak, o.peak)
		switch {
		case o.skipped:
		case len(o.problems) > 0:
			failed++
			t.Errorf("%s / %s / %s: %s", o.c.row, o.c.class, o.c.name, strings.Join(o.problems, "; "))
		}
	}
	// Every case passes: none is marked as a known failure (a known
	// failure is a failure).
	table := tableOf(results) + "\n"
	ran := 0
	for _, o := range results {
		if !o.skipped {
			ran++
		}
	}
	t.Logf("%d cases in %v (%d failed), largest peak memory %d MiB\n%s",
		ran, elapsed.Round(time.Second), failed, peak>>20, table)
	if p := os.Getenv("NQCOUNT_HOSTILE_TABLE"); p != "" {
		os.WriteFile(p, []byte(table), 0o644)
	}
}

// runCase runs one case in a folder of its own.
func runCase(c hcase) outcome {
	o := outcome{c: c}
	dir, err := os.MkdirTemp(w.root, "case")
	if err != nil {
		o.problems = []string{err.Error()}
		return o
	}
	defer os.RemoveAll(dir)
	if c.web != nil {
		o.problems = c.web(dir)
		return o
	}
	m, err := c.make(dir)
	if m.undo != nil {
		defer m.undo()
	}
	if err == errSkip {
		o.skipped = true
		return o
	}
	if err != nil {
		o.problems = []string{"setting up: " + err.Error()}
		return o
	}
	p := Proc{Args: append([]string{w.bin[c.prog]}, m.args...), Env: w.env, Dir: dir, Time: c.time, Signal: c.signal, Early: c.early, Stdin: c.stdin, Stdout: c.stdout}
	if m.stdin != "" {
		p.Stdin = m.stdin
	}
	r := Run(w.lim, p)
	o.peak = r.Peak
	o.problems = r.Problems(c.prog, w.lim, c.lines)
	if c.signal != 0 && r.Signalled && r.Code != 130 && r.Code != 0 && !r.Killed && !(r.Signal != 0 && r.Early) {
		o.problems = append(o.problems, fmt.Sprintf("exit status %d after %v, want 130 (or 0 for a server)", r.Code, c.signal))
	}
	if c.answer != nil && r.Code == 0 && !r.Signalled && c.stdout == "" {
		if p := c.answer(string(r.Stdout)); p != "" {
			o.problems = append(o.problems, p)
		}
	}
	if len(o.problems) > 0 {
		o.problems = append(o.problems, fmt.Sprintf("(exit %d, stderr %q)", r.Code, clip(string(r.Stderr), 300)))
	}
	return o
}

// classes are the table's columns, in order.
var classes = []string{"numbers", "endless", "junk", "huge", "special", "edited", "signals", "abandoned"}

// tableOf writes the table of classes × commands with the count of cases
// in each cell (and how many failed).
func tableOf(rs []outcome) string {
	type cell struct{ n, failed int }
	cells := map[string]map[string]*cell{}
	var rows []string
	for _, o := range rs {
		if o.skipped {
			continue
		}
		if cells[o.c.row] == nil {
			cells[o.c.row] = map[string]*cell{}
			rows = append(rows, o.c.row)
		}
		c := cells[o.c.row][o.c.class]
		if c == nil {
			c = &cell{}
			cells[o.c.row][o.c.class] = c
		}
		c.n++
		if len(o.problems) > 0 {
			c.failed++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| command |")
	for _, cl := range classes {
		fmt.Fprintf(&b, " %s |", cl)
	}
	fmt.Fprintf(&b, " all |\n|---|")
	for range classes {
		b.WriteString("---:|")
	}
	b.WriteString("---:|\n")
	colTotal := map[string]int{}
	total := 0
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s |", r)
		sum := 0
		for _, cl := range classes {
			c := cells[r][cl]
			switch {
			case c == nil:
				b.WriteString(" · |")
			case c.failed > 0:
				fmt.Fprintf(&b, " %d (%d failed) |", c.n, c.failed)
			default:
				fmt.Fprintf(&b, " %d |", c.n)
			}
			if c != nil {
				sum += c.n
				colTotal[cl] += c.n
			}
		}
		total += sum
		fmt.Fprintf(&b, " %d |\n", sum)
	}
	b.WriteString("| all |")
	for _, cl := range classes {
		fmt.Fprintf(&b, " %d |", colTotal[cl])
	}
	fmt.Fprintf(&b, " %d |\n", total)
	return b.String()
}

// Every subcommand in a usage has a target, and every endpoint in
// docs/web.md has web cases: a command cannot join without joining the
// harness.
func TestEveryCommandHasATarget(t *testing.T) {
	setUp(t)
	for _, prog := range []string{"nqueens", "sudoku"} {
		out, _ := exec.Command(w.bin[prog], "help").Output()
		var have []string
		for _, tg := range targets {
			if tg.prog == prog {
				have = append(have, tg.cmd)
			}
		}
		var listed []string
		for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+) `).FindAllStringSubmatch(string(out), -1) {
			listed = append(listed, m[1])
			if !slices.Contains(have, m[1]) {
				t.Errorf("%s %s is not in the harness's targets", prog, m[1])
			}
		}
		if len(listed) < 5 {
			t.Fatalf("%s help lists %v", prog, listed)
		}
	}
	doc, err := os.ReadFile("../../docs/web.md")
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, e := range endpoints {
		have = append(have, e.method+" "+e.path)
	}
	sort.Strings(have)
	listed := regexp.MustCompile("(?m)^\\| `((?:GET|POST|DELETE|PUT) /api/[a-z/]+)`").FindAllStringSubmatch(string(doc), -1)
	for _, m := range listed {
		if !slices.Contains(have, m[1]) {
			t.Errorf("%s (docs/web.md) has no web cases", m[1])
		}
	}
	if len(listed) < len(endpoints) {
		t.Errorf("docs/web.md lists %d endpoints, the harness %d", len(listed), len(endpoints))
	}
}
