package suite

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

func TestSweep(t *testing.T) {
	for _, tc := range []struct {
		p, cores int
		want     []int
	}{
		{1, 0, []int{1}},
		{2, 0, []int{1, 2}},
		{2, 1, []int{1, 2}},
		{8, 4, []int{1, 2, 4, 8}},
		{12, 6, []int{1, 2, 4, 6, 8, 12}},
		{64, 32, []int{1, 2, 4, 8, 16, 32, 64}},
		{96, 48, []int{1, 2, 4, 8, 16, 32, 48, 64, 96}},
		{3, 0, []int{1, 2, 3}},
		{5, 5, []int{1, 2, 4, 5}},
	} {
		if got := Sweep(tc.p, tc.cores); !slices.Equal(got, tc.want) {
			t.Errorf("Sweep(%d, %d) = %v, want %v", tc.p, tc.cores, got, tc.want)
		}
	}
}

func TestTopology(t *testing.T) {
	for _, tc := range []struct {
		name                         string
		p, numCPU, physical, threads int
		smt                          string
		cores                        int
		note                         string
	}{
		{"arm or unknown vendor", 8, 8, 0, 1, "unknown", 0, "cannot"},
		{"no SMT", 16, 16, 16, 1, "no", 16, "one thread per core"},
		{"no SMT, more workers than CPUs", 32, 16, 16, 1, "no", 16, "share 16 logical CPUs"},
		{"SMT, whole machine", 64, 64, 32, 2, "yes", 32, "64 logical CPUs are 32 cores"},
		{"SMT, fewer workers", 16, 64, 32, 2, "yes", 8, "assuming"},
		{"SMT, one worker", 1, 64, 32, 2, "yes", 1, "2 threads per core"},
		{"SMT 4-way", 16, 16, 4, 4, "yes", 4, "4 threads per core"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			smt, cores, note := topology(tc.p, tc.numCPU, tc.physical, tc.threads)
			if smt != tc.smt || cores != tc.cores || !strings.Contains(note, tc.note) {
				t.Errorf("topology = %s, %d, %q; want %s, %d, note with %q", smt, cores, note, tc.smt, tc.cores, tc.note)
			}
		})
	}
	m := Machine{SMT: "yes", Cores: 8}
	for w, want := range map[int]int{1: 1, 4: 4, 8: 8, 16: 8} {
		if got := m.coresFor(w); got != want {
			t.Errorf("coresFor(%d) with 8 cores = %d, want %d", w, got, want)
		}
	}
	if got := (Machine{SMT: "unknown"}).coresFor(16); got != 16 {
		t.Errorf("coresFor(16) unknown topology = %d, want 16", got)
	}
	if got := (Machine{SMT: "no", Cores: 8}).smtCores(); got != 0 {
		t.Errorf("smtCores without SMT = %d", got)
	}
}

func TestScore(t *testing.T) {
	c15, c16, j17 := Size{queens.Constellations, 15}, Size{queens.Constellations, 16}, Size{queens.Join, 17}
	ref := Ref{Machine: "test", Rates: map[Size]float64{c15: 10, c16: 20, j17: 100}}
	for _, tc := range []struct {
		rates map[Size]float64
		want  float64
	}{
		{map[Size]float64{c15: 10, c16: 20}, 1},
		{map[Size]float64{c15: 20, c16: 40}, 2},
		{map[Size]float64{c15: 40, c16: 20}, 2}, // geometric mean of 4 and 1
		{map[Size]float64{c15: 10}, 1},
		{map[Size]float64{c15: 10, j17: 800}, math.Sqrt(8)},   // over both methods
		{map[Size]float64{c15: 10, {queens.Join, 15}: 10}, 0}, // a size the reference lacks
		{map[Size]float64{c15: 0, c16: 20}, 0},
		{nil, 0},
	} {
		if got := ref.Score(tc.rates); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Score(%v) = %v, want %v", tc.rates, got, tc.want)
		}
	}
	for _, sizes := range []map[queens.Method][]int{QuickSizes, FullSizes} {
		if len(sizes) != len(Methods) {
			t.Errorf("sizes for %d methods, %d workloads", len(sizes), len(Methods))
		}
		for _, m := range Methods {
			for _, n := range sizes[m] {
				if Reference.Rates[Size{m, n}] <= 0 {
					t.Errorf("the reference has no rate for %s n = %d, a size of the suites", m, n)
				}
				// The join is timed where count uses it.
				if m == queens.Join && queens.DefaultMethod(n) != queens.Join {
					t.Errorf("the suites time the join at n = %d, where count's default is %s", n, queens.DefaultMethod(n))
				}
			}
		}
	}
	if !strings.Contains(Reference.String(), "join n = 19") || !strings.Contains(Reference.String(), "constellations n = 15") {
		t.Errorf("Reference.String() = %q", Reference.String())
	}
}

// fakeCount counts nothing: it returns the OEIS total (plus wrong[n,
// workers] in the listed round) with nodes proportional to it, so that the
// suite's bookkeeping can be tested in microseconds.
type fakeCount struct {
	calls int
	wrong map[wrongAt]uint64 // amount added to the count
	opts  []runOptions       // the options of every call
}

type wrongAt struct {
	m          queens.Method
	n, workers int
}

func (f *fakeCount) count(ctx context.Context, n int, opt runOptions) (queens.Result, error) {
	f.calls++
	f.opts = append(f.opts, opt)
	if err := ctx.Err(); err != nil {
		return queens.Result{}, err
	}
	k, _ := queens.Known(n)
	k += f.wrong[wrongAt{opt.Method, n, opt.Workers}]
	return queens.Result{N: n, Total: count.U128(k), Nodes: count.U128(6 * k), Workers: opt.Workers, Tasks: 10, Depth: 1, Kernel: opt.Kernel, Method: opt.Method}, nil
}

func TestMeasureBookkeeping(t *testing.T) {
	f := &fakeCount{}
	var prog []Progress
	rep, err := Measure(context.Background(), Config{Workers: 4, Rounds: 3, count: f.count, OnProgress: func(p Progress) { prog = append(prog, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Suite != "full" || len(rep.Workloads) != 2 || rep.P != 4 {
		t.Fatalf("suite %s, workloads %+v, P %d", rep.Suite, rep.Workloads, rep.P)
	}
	sizes := 0
	for i, wl := range rep.Workloads {
		if wl.Method != Methods[i] || !slices.Equal(wl.Sizes, FullSizes[wl.Method]) || wl.Kernel == "" {
			t.Errorf("workload %d: %+v", i, wl)
		}
		sizes += len(wl.Sizes)
	}
	wantRuns := sizes * len(rep.Workers)
	warm := len(rep.Workloads)
	if len(rep.Runs) != wantRuns || f.calls != 3*wantRuns+warm {
		t.Fatalf("%d runs, %d counts; want %d runs, %d counts (3 rounds and a warm-up per workload)", len(rep.Runs), f.calls, wantRuns, 3*wantRuns+warm)
	}
	if len(prog) != 3*wantRuns+warm || !prog[0].WarmUp || !prog[1].WarmUp || prog[len(prog)-1].Done != 3*wantRuns || prog[warm].Total != 3*wantRuns {
		t.Errorf("progress: %d calls, first %+v, last %+v", len(prog), prog[0], prog[len(prog)-1])
	}
	for _, x := range rep.Runs {
		if len(x.RoundSeconds) != 3 || !x.MatchesKnown || x.Nodes != 6*x.Known || x.Tasks != 10 || x.Kernel == "" {
			t.Errorf("run %+v", x)
		}
	}
	// Every count ran with its workload's method and kernel.
	for _, o := range f.opts {
		wl := rep.Workloads[slices.Index(Methods, o.Method)]
		if o.Kernel != wl.Kernel {
			t.Errorf("a %s count with kernel %q, the workload's is %q", o.Method, o.Kernel, wl.Kernel)
		}
	}
	if !rep.MatchesKnown || len(rep.Mismatches()) != 0 {
		t.Errorf("a correct suite reported mismatches")
	}
	if rep.Find(queens.Join, 19, 1) == nil || rep.Find(queens.Constellations, 16, 1) == nil || rep.Find(queens.Constellations, 19, 1) != nil || rep.Find(queens.Join, 18, 3) != nil {
		t.Errorf("Find")
	}
}

// A method or a kernel chosen picks the workloads and their kernels.
func TestWorkloads(t *testing.T) {
	for _, tc := range []struct {
		cfg     Config
		methods []queens.Method
		kernels map[queens.Method]string // "": the fastest of its family
	}{
		{Config{}, Methods, nil},
		{Config{Method: queens.Auto, Kernel: "auto"}, Methods, nil},
		{Config{Method: queens.Join}, []queens.Method{queens.Join}, nil},
		{Config{Method: queens.Constellations}, []queens.Method{queens.Constellations}, nil},
		// Both families have a portable kernel named generic.
		{Config{Kernel: "generic"}, Methods, map[queens.Method]string{queens.Join: "generic", queens.Constellations: "generic"}},
		{Config{Method: queens.Join, Kernel: "generic"}, []queens.Method{queens.Join}, map[queens.Method]string{queens.Join: "generic"}},
	} {
		ws, err := workloads(tc.cfg, QuickSizes)
		if err != nil {
			t.Fatalf("%+v: %v", tc.cfg, err)
		}
		if len(ws) != len(tc.methods) {
			t.Fatalf("%+v: workloads %+v", tc.cfg, ws)
		}
		for i, wl := range ws {
			want := tc.kernels[wl.Method]
			if want == "" {
				want, _ = lookupKernel(wl.Method, "")
			}
			if wl.Method != tc.methods[i] || wl.Kernel != want || !slices.Equal(wl.Sizes, QuickSizes[wl.Method]) {
				t.Errorf("%+v: workload %+v, want %s with kernel %s", tc.cfg, wl, tc.methods[i], want)
			}
		}
	}
}

// The figures derived from the round times, on times chosen by hand.
func TestDerive(t *testing.T) {
	c := queens.Constellations
	rep := &Report{
		Workloads: []Workload{{Method: c, Kernel: "k", Sizes: []int{15, 16}}}, P: 4, Workers: []int{1, 2, 4},
		Machine: Machine{SMT: "yes", Cores: 2},
	}
	k15, _ := queens.Known(15)
	k16, _ := queens.Known(16)
	add := func(n, w int, known uint64, secs ...float64) {
		rep.Runs = append(rep.Runs, Run{Method: c, Kernel: "k", N: n, Workers: w, Known: known, Nodes: 1000, MatchesKnown: true, RoundSeconds: secs})
	}
	add(15, 1, k15, 4, 4.4, 4.2)
	add(15, 2, k15, 2, 2.4, 2.1)
	add(15, 4, k15, 1.6, 1.8, 1.7) // SMT gain 2.1/1.7
	add(16, 1, k16, 8, 8, 8)
	add(16, 2, k16, 4, 4, 4)
	add(16, 4, k16, 3.2, 3.2, 3.2) // SMT gain 1.25
	cpus := [][]float64{{4, 4.4, 4.2}, {4, 4.8, 4.2}, nil, nil, nil, nil}
	rep.derive(cpus)
	x := rep.Find(c, 15, 2)
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if x.Seconds != 2.1 || !near(x.NodesPerSecond, 1000/2.1) || !near(x.NodesPerSecondPerCore, 1000/2.1/2) {
		t.Errorf("n = 15, 2 workers: %+v", x)
	}
	// Paired by round: 4/2, 4.4/2.4, 4.2/2.1.
	if want := 4.2 / 2.1; math.Abs(x.Speedup-want) > 1e-12 || math.Abs(x.Efficiency-want/2) > 1e-12 {
		t.Errorf("speed-up %v efficiency %v, want %v", x.Speedup, x.Efficiency, want)
	}
	if x.CoresUsed != 2 || x.CPUSeconds != 4.2 {
		t.Errorf("cores used %v, cpu %v", x.CoresUsed, x.CPUSeconds)
	}
	if y := rep.Find(c, 16, 4); !near(y.NodesPerSecondPerCore, 1000/3.2/2) {
		t.Errorf("per core beyond the physical cores: %v", y.NodesPerSecondPerCore)
	}
	if want := math.Sqrt(2.1 / 1.7 * 1.25); math.Abs(rep.SMTGain-want) > 1e-12 {
		t.Errorf("SMT gain %v, want %v", rep.SMTGain, want)
	}
	want := Reference.Score(map[Size]float64{{c, 15}: float64(k15) / 1.7, {c, 16}: float64(k16) / 3.2})
	if !near(rep.Score, want) || want <= 0 {
		t.Errorf("score %v, want %v", rep.Score, want)
	}
}

// A count that disagrees with the OEIS, in any round, is a failure: the
// run and the report say so, there is no score, and every format shows it.
func TestMismatchIsReported(t *testing.T) {
	f := &fakeCount{wrong: map[wrongAt]uint64{{queens.Join, 16, 2}: 1}}
	rep, err := Measure(context.Background(), Config{Quick: true, Workers: 2, Rounds: 1, count: f.count})
	if err != nil {
		t.Fatal(err)
	}
	bad := rep.Mismatches()
	if len(bad) != 1 || bad[0].Method != queens.Join || bad[0].N != 16 || bad[0].Workers != 2 || rep.MatchesKnown || rep.Score != 0 {
		t.Fatalf("mismatches %+v, matches %v, score %v", bad, rep.MatchesKnown, rep.Score)
	}
	if k, _ := queens.Known(16); bad[0].Total.Cmp(count.U128(k+1)) != 0 {
		t.Errorf("the wrong total is not the one reported: %s", bad[0].Total)
	}
	var text, js, cs bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MISMATCH: 14772513, A000170 says 14772512", "FAILED: 1 of 8 configurations", "no score"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, &text)
		}
	}
	if strings.Contains(text.String(), "score 0") {
		t.Errorf("a failed suite shows a score:\n%s", &text)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var j struct {
		MatchesKnown bool `json:"matches_known"`
		Runs         []struct {
			N            int  `json:"n"`
			Workers      int  `json:"workers"`
			MatchesKnown bool `json:"matches_known"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	falses := 0
	for _, x := range j.Runs {
		if !x.MatchesKnown {
			falses++
		}
	}
	if j.MatchesKnown || falses != 1 {
		t.Errorf("JSON: matches_known %v, %d runs false", j.MatchesKnown, falses)
	}
	if err := rep.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cs.String(), ",join,") || !strings.Contains(cs.String(), ",16,2,") || !strings.Contains(cs.String(), "14772513,14772512,false\n") {
		t.Errorf("CSV does not show the mismatch:\n%s", &cs)
	}

	// A mismatch in a later round only is caught too.
	f = &fakeCount{}
	calls := 0
	wrongLater := func(ctx context.Context, n int, opt runOptions) (queens.Result, error) {
		calls++
		r, err := f.count(ctx, n, opt)
		if calls == 8 { // after the warm-up and rounds 1 and 2 of 3 runs: round 3's first
			r.Total = r.Total.Add64(2)
		}
		return r, err
	}
	rep, err = Measure(context.Background(), Config{Workers: 1, Rounds: 3, Method: queens.Constellations, count: wrongLater, sizes: map[queens.Method][]int{queens.Constellations: {12, 13, 14}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Mismatches()) != 1 || rep.Score != 0 {
		t.Errorf("a wrong count in round 3 was not reported: %+v", rep.Runs)
	}
}

// TestRealQuickSuite runs the counter for real on small boards: the
// formats must parse and hold the fields the documentation promises.
func TestRealQuickSuite(t *testing.T) {
	rep, err := Measure(context.Background(), Config{Workers: 2, Rounds: 1, sizes: map[queens.Method][]int{queens.Join: {11, 12}, queens.Constellations: {10}}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.MatchesKnown || len(rep.Runs) != 6 {
		t.Fatalf("%+v", rep)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(js.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"suite", "version", "machine", "workloads", "workers", "runs", "score", "score_reference", "matches_known"} {
		if _, ok := j[f]; !ok {
			t.Errorf("JSON lacks %q", f)
		}
	}
	runs := j["runs"].([]any)
	for _, r := range runs {
		r := r.(map[string]any)
		for _, f := range []string{"method", "kernel", "n", "workers", "seconds", "nodes_per_second", "nodes_per_second_per_core", "speedup", "efficiency", "matches_known", "total", "known"} {
			if _, ok := r[f]; !ok {
				t.Errorf("run lacks %q: %v", f, r)
			}
		}
		if r["matches_known"] != true || r["seconds"].(float64) <= 0 || r["nodes_per_second"].(float64) <= 0 || r["kernel"] == "" {
			t.Errorf("run %v", r)
		}
	}

	var cs bytes.Buffer
	if err := rep.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 || !slices.Equal(recs[0], CSVHeader) {
		t.Fatalf("CSV: %d records, header %v", len(recs), recs[0])
	}
	for _, r := range recs[1:] {
		if len(r) != len(CSVHeader) || r[len(r)-1] != "true" {
			t.Errorf("CSV record %v", r)
		}
	}

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	header := -1
	for i, l := range lines {
		if strings.Contains(l, "workers") && strings.Contains(l, "nodes/s") && strings.Contains(l, "OEIS") {
			header = i
		}
	}
	if header < 0 || len(lines) < header+7 {
		t.Fatalf("no table:\n%s", &text)
	}
	for _, l := range lines[header+1 : header+7] {
		f := strings.Fields(l)
		if len(f) < 10 || f[len(f)-1] != "ok" {
			t.Errorf("table line %q", l)
		}
	}
	if !strings.Contains(text.String(), "score ") || !strings.Contains(text.String(), "every count of every round matches OEIS A000170") {
		t.Errorf("text:\n%s", &text)
	}
	// Sizes the reference lacks have no score.
	if rep.Score != 0 {
		t.Errorf("score %v for sizes outside the reference", rep.Score)
	}
}

func TestMeasureRejects(t *testing.T) {
	for _, cfg := range []Config{{Workers: -1}, {Workers: MaxWorkers + 1}, {Rounds: -2}, {Rounds: 1001}, {Kernel: "magic"},
		{Method: queens.Halving}, {Method: "magic"}, {Method: queens.Constellations, Kernel: "avx2"}, {Method: queens.Join, Kernel: "bmi2"}} {
		if _, err := Measure(context.Background(), cfg); !errors.Is(err, ErrInvalid) {
			t.Errorf("Measure(%+v) = %v, want ErrInvalid", cfg, err)
		}
	}
}

func TestMeasureCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeCount{}
	calls := 0
	cancelLater := func(c context.Context, n int, opt runOptions) (queens.Result, error) {
		calls++
		if calls == 3 {
			cancel()
		}
		return f.count(c, n, opt)
	}
	rep, err := Measure(ctx, Config{Quick: true, count: cancelLater})
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("Measure after cancel = %v, %v", rep, err)
	}
	// A real count is cancelled too.
	rep, err = Measure(ctx, Config{Quick: true})
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("real Measure on a cancelled context = %v, %v", rep, err)
	}
}

type failWriter struct{ after int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errors.New("disk full")
	}
	f.after--
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	f := &fakeCount{}
	rep, err := Measure(context.Background(), Config{Quick: true, Rounds: 1, count: f.count})
	if err != nil {
		t.Fatal(err)
	}
	for after := range 3 {
		if err := rep.WriteText(&failWriter{after}); err == nil {
			t.Errorf("WriteText ignored a write error after %d writes", after)
		}
	}
	if err := rep.WriteJSON(&failWriter{}); err == nil {
		t.Errorf("WriteJSON ignored a write error")
	}
	if err := rep.WriteCSV(&failWriter{}); err == nil {
		t.Errorf("WriteCSV ignored a write error")
	}
}
