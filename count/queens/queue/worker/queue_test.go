package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/queens/queue/server"
	"github.com/nqcount/nqcount/count/shard"
)

// bound bounds every wait of these tests: far beyond what a loaded
// machine needs, it only stops a test that would hang.
const bound = 2 * time.Minute

// testSeed returns the seed of a randomised test: NQCOUNT_TEST_SEED if
// set, else a fixed one, logged so that a failure can be replayed.
func testSeed(t testing.TB) uint64 {
	t.Helper()
	s := uint64(1)
	if v := os.Getenv("NQCOUNT_TEST_SEED"); v != "" {
		var err error
		if s, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("NQCOUNT_TEST_SEED=%q: %v", v, err)
		}
	}
	t.Logf("seed %d (set NQCOUNT_TEST_SEED to replay another)", s)
	return s
}

// fast settings, so that a dead worker's tasks come back within seconds.
var fast = queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 3}

// serve starts a server on loopback in a temporary folder.
func serve(t testing.TB, cfg server.Config) *server.Server {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Settings == (queue.Settings{}) {
		cfg.Settings = fast
	}
	s, err := server.Serve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func connect(t testing.TB, url string, a client.Auth) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	c, err := client.Connect(ctx, url, client.ConnectOptions{Auth: a, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// work runs k in-process workers until the queue is idle.
func work(t testing.TB, url string, k int, cfgs ...func(*Config)) []*Stats {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	stats := make([]*Stats, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i := range k {
		c := connect(t, url, client.Auth{})
		defer c.Close()
		cfg := Config{Execution: queens.Execution{Workers: 2}, ID: fmt.Sprintf("w%d", i), ExitWhenIdle: true, Program: "test", Logf: t.Logf}
		for _, f := range cfgs {
			f(&cfg)
		}
		wg.Go(func() { stats[i], errs[i] = Work(ctx, c, cfg) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
	}
	return stats
}

// submit submits s; without opt.Units, every task gets its own unit, so
// that the queue's task ids are the plan's (grouped jobs have tests of
// their own).
func submit(t testing.TB, c *client.Client, s queens.Spec, opt client.SubmitOptions) *client.Submitted {
	t.Helper()
	if opt.Units == 0 {
		opt.Units = -1
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	sub, err := c.Submit(ctx, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func status(t testing.TB, c *client.Client, id string) *client.Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	s, err := c.Status(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exact checks a complete status against the OEIS.
func exact(t testing.TB, s *client.Status) {
	t.Helper()
	if !s.Complete || s.Total == nil {
		t.Fatalf("job %s not complete: %s", s.Job, client.Summary(s))
	}
	k, _ := queens.Known(s.N)
	if s.Total.Cmp(count.U128(k)) != 0 || s.Matches == nil || !*s.Matches {
		t.Fatalf("n = %d: total %s, want %d", s.N, s.Total, k)
	}
}

func TestCountExact(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	var ids []string
	for _, n := range []int{8, 10, 12} { // 12: a join job
		sub := submit(t, c, queens.Spec{N: n}, client.SubmitOptions{})
		p, _ := queens.NewPlan(queens.Spec{N: n})
		if sub.Job != p.ID() || sub.Tasks != p.Len() || sub.Added != sub.Tasks || !sub.New {
			t.Fatalf("submit n = %d: %+v, want job %s with %d tasks, all added", n, sub, p.ID(), p.Len())
		}
		ids = append(ids, sub.Job)
	}
	stats := work(t, srv.URL(), 3)
	counted := 0
	for _, s := range stats {
		counted += s.Counted
	}
	for _, id := range ids {
		s := status(t, c, id)
		exact(t, s)
		if *s.Unique != queens.UniqueFrom(s.N, *s.Total) || s.Done != s.Tasks || s.Fraction != 1 || *s.ETA != 0 {
			t.Errorf("%s: %+v", id, s)
		}
		counted -= s.Tasks
	}
	if counted < 0 {
		t.Errorf("the workers counted %d tasks fewer than the jobs have", -counted)
	}
}

// Submitting a plan again, or the same plan from another spelling of its
// spec, adds no task: the job id comes from the plan.
func TestSubmitTwice(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	first := submit(t, c, queens.Spec{N: 9}, client.SubmitOptions{Verify: 50, Seed: 7})
	p, _ := queens.NewPlan(queens.Spec{N: 9})
	again := submit(t, c, queens.Spec{N: 9, Method: queens.Constellations, Depth: p.Depth}, client.SubmitOptions{Verify: 10})
	if again.Job != first.Job || again.New || again.Added != 0 || again.Tasks != first.Tasks {
		t.Fatalf("second submit: %+v, want job %s, not new, nothing added", again, first.Job)
	}
	if again.Info.Verify != 50 || again.Info.Seed != 7 || again.VerifyTasks != first.VerifyTasks {
		t.Errorf("second submit changed the job's options: %+v", again.Info)
	}
	ctx := context.Background()
	ts, _ := jsOf(c).Stream(ctx, queue.TasksStream)
	info, _ := ts.Info(ctx)
	if info.State.Msgs != uint64(first.Tasks) {
		t.Errorf("the tasks stream holds %d messages, want %d", info.State.Msgs, first.Tasks)
	}
	work(t, srv.URL(), 2)
	exact(t, status(t, c, first.Job))
	// After the job is done, submitting it again still adds nothing.
	if late := submit(t, c, queens.Spec{N: 9}, client.SubmitOptions{}); late.Added != 0 || late.New {
		t.Errorf("submit after completion: %+v", late)
	}
	if s := status(t, c, first.Job); s.Duplicates != 0 {
		t.Errorf("%d duplicate records", s.Duplicates)
	}
}

// A server listening beyond loopback without protection is refused before
// it binds anything.
func TestServeRefusesExposedListen(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:4222", "example.com:4222"} {
		_, err := server.Serve(context.Background(), server.Config{Listen: addr, DataDir: t.TempDir()})
		if !errors.Is(err, server.ErrExposed) {
			t.Errorf("listen %s without a token: %v, want ErrExposed", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:4222", "localhost:0", "[::1]:0", "127.0.0.5:0"} {
		if _, _, err := server.CheckListen(addr, false); err != nil {
			t.Errorf("listen %s: %v", addr, err)
		}
	}
	for _, addr := range []string{"0.0.0.0:4222", ":4222"} {
		if _, _, err := server.CheckListen(addr, true); err != nil {
			t.Errorf("listen %s with a token: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1", "127.0.0.1:99999", "127.0.0.1:x"} {
		if _, _, err := server.CheckListen(addr, false); err == nil || errors.Is(err, server.ErrExposed) {
			t.Errorf("listen %q: %v, want a usage error", addr, err)
		}
	}
}

func TestWrongTokenRefused(t *testing.T) {
	srv := serve(t, server.Config{Token: "s3cret-token-of-16+"})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	for _, tok := range []string{"", "wrong"} {
		c, err := client.Connect(ctx, srv.URL(), client.ConnectOptions{Auth: client.Auth{Token: tok}, Retry: true})
		if !errors.Is(err, client.ErrAuth) {
			if c != nil {
				c.Close()
			}
			t.Errorf("token %q: %v, want ErrAuth", tok, err)
		}
	}
	c := connect(t, srv.URL(), client.Auth{Token: "s3cret-token-of-16+"})
	sub := submit(t, c, queens.Spec{N: 6}, client.SubmitOptions{})
	if _, err := c.Status(ctx, sub.Job); err != nil {
		t.Fatal(err)
	}
}

// Records of another plan, another algorithm version, or damaged ones are
// refused and listed; the total is exact.
func TestForeignResultsRefused(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{})
	other, _ := queens.NewPlan(queens.Spec{N: 9})
	ctx := context.Background()
	bad := []queue.Record{
		{Hash: other.Hash(), Algorithm: queens.AlgorithmVersion, Count: 1},
		{Hash: sub.Info.Hash, Algorithm: queens.AlgorithmVersion + 1, Count: 1},
		{Hash: sub.Info.Hash, Algorithm: queens.AlgorithmVersion, Task: sub.Tasks + 5},
		{Hash: sub.Info.Hash, Algorithm: queens.AlgorithmVersion, Count: 1 << 40, Checksum: "bad"},
	}
	for i, r := range bad {
		r.Job, r.Kind, r.Worker = sub.Job, queue.KindCount, "intruder"
		if r.Checksum == "" {
			r.Seal()
		}
		b, _ := json.Marshal(r)
		if _, err := jsOf(c).Publish(ctx, layout.Subject(layout.ResultPrefix, sub.Job, i), b); err != nil {
			t.Fatal(err)
		}
	}
	work(t, srv.URL(), 2)
	s := status(t, c, sub.Job)
	exact(t, s)
	if len(s.Refused) != len(bad) {
		t.Fatalf("refused %d records, want %d: %+v", len(s.Refused), len(bad), s.Refused)
	}
	for i, want := range []string{"another plan", "algorithm version", "not in the plan", "checksum"} {
		if !strings.Contains(s.Refused[i].Reason, want) {
			t.Errorf("refusal %d: %q, want it to say %q", i, s.Refused[i].Reason, want)
		}
	}
}

// A task of a job this program plans differently (another algorithm
// version) is not counted: the worker refuses it, it is set aside after
// its last delivery, and status shows why.
func TestWorkerRefusesOtherAlgorithm(t *testing.T) {
	srv := serve(t, server.Config{Settings: queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 2}})
	c := connect(t, srv.URL(), client.Auth{})
	p, _ := queens.NewPlan(queens.Spec{N: 6})
	info := queue.JobInfo{ID: fmt.Sprintf("n6-%s-a%d", p.Hash(), queens.AlgorithmVersion+1), N: 6, Method: string(p.Method),
		Depth: p.Depth, Hash: p.Hash(), Algorithm: queens.AlgorithmVersion + 1, Tasks: p.Len()}
	ctx := context.Background()
	kv, _ := jsOf(c).KeyValue(ctx, queue.JobsBucket)
	ib, _ := json.Marshal(info)
	if _, err := kv.Create(ctx, info.ID, ib); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(queue.TaskMsg{ID: info.ID, Task: 0})
	if _, err := jsOf(c).Publish(ctx, layout.Subject(layout.TaskPrefix, info.ID, 0), b); err != nil {
		t.Fatal(err)
	}
	stats := work(t, srv.URL(), 1)
	if stats[0].Refused != 2 || stats[0].Counted != 0 {
		t.Errorf("worker: %+v, want the task refused at both deliveries and nothing counted", stats[0])
	}
}

// --verify: a worker that returns a wrong count is caught by another
// worker's recount; the job reports the conflict and gives no total.
func TestVerifyCatchesWrongResult(t *testing.T) {
	seed := testSeed(t)
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 10}, client.SubmitOptions{Verify: 20, Seed: seed})
	// Worker w0 adds one to every count it makes of one task chosen for
	// verification: it is the only liar, so whichever worker counts that
	// task first, the other disagrees.
	victim := slices.Index(sub.Info.Chosen(), true)
	liar := func(cfg *Config) {
		if cfg.ID == "w0" {
			cfg.tamper = func(_ string, task int, _ string, r count.Result) count.Result {
				if task == victim {
					r.Count++
				}
				return r
			}
		}
	}
	work(t, srv.URL(), 2, liar)
	s := status(t, c, sub.Job)
	if s.Complete || s.Total != nil {
		t.Fatalf("a job with a wrong result is complete: %s", client.Summary(s))
	}
	if len(s.Conflicts) != 1 || s.Conflicts[0].Task != victim {
		t.Fatalf("conflicts %+v, want task %d", s.Conflicts, victim)
	}
	if s.Verify.Verified != s.Verify.Selected-1 {
		t.Errorf("verified %d of %d, want all but the victim", s.Verify.Verified, s.Verify.Selected)
	}
	ctx := context.Background()
	if _, err := c.Export(ctx, sub.Job); err == nil {
		t.Error("a job with a conflict was exported")
	}
}

// --verify P chooses P% of the tasks, rounded up, at least one, the same
// on every machine (each task was once chosen with
// probability P, so that submit 17 --verify 10 --seed 40 verified
// nothing and other seeds a quarter of the units).
func TestVerifiedShare(t *testing.T) {
	seed := testSeed(t)
	for _, c := range []struct {
		tasks   int
		percent float64
		want    int
	}{
		{37, 10, 4}, {37, 0, 0}, {37, 100, 37}, {37, 0.1, 1}, {30, 10, 3}, {1, 50, 1}, {20000, 1, 200}, {7, 33.3, 3},
	} {
		for _, sd := range []uint64{seed, 40, 41} {
			got := queue.VerifyChoice(sd, c.tasks, c.percent)
			n := 0
			for _, v := range got {
				if v {
					n++
				}
			}
			if n != c.want || len(got) != c.tasks {
				t.Errorf("%d tasks, verify %g%%, seed %d: %d chosen, want %d", c.tasks, c.percent, sd, n, c.want)
			}
			if again := queue.VerifyChoice(sd, c.tasks, c.percent); !slices.Equal(again, got) {
				t.Errorf("%d tasks, verify %g%%, seed %d: chosen differently the second time", c.tasks, c.percent, sd)
			}
		}
	}
	// The job's record says which rule chose: a job submitted before
	// the rule (none recorded) keeps its old choice.
	old := queue.JobInfo{Tasks: 20000, Verify: 10, Seed: seed}
	n := 0
	for _, v := range old.Chosen() {
		if v {
			n++
		}
	}
	if n < 1700 || n > 2300 {
		t.Errorf("a job without a rule: %d of 20000 chosen, want about 2000", n)
	}
	// Through Submit: the job of n = 17 in its default units.
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	sub, err := c.Submit(ctx, queens.Spec{N: 17}, client.SubmitOptions{Verify: 10, Seed: 40})
	if err != nil {
		t.Fatal(err)
	}
	if want := (sub.Tasks + 9) / 10; sub.VerifyTasks != want {
		t.Errorf("submit 17 --verify 10 --seed 40: %d of %d units chosen, want %d", sub.VerifyTasks, sub.Tasks, want)
	}
}

// A task whose count keeps failing is retried with back-off, then set
// aside with its error; status lists it and gives no total.
func TestFailingTaskSetAside(t *testing.T) {
	srv := serve(t, server.Config{Settings: queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 2}})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 7}, client.SubmitOptions{})
	boom := func(cfg *Config) {
		cfg.fail = func(_ string, task int) error {
			if task == 1 {
				return errors.New("simulated kernel failure")
			}
			return nil
		}
	}
	work(t, srv.URL(), 2, boom)
	s := status(t, c, sub.Job)
	if s.Complete || s.Done != s.Tasks-1 || len(s.Failed) != 1 {
		t.Fatalf("%s; failed %+v", client.Summary(s), s.Failed)
	}
	if f := s.Failed[0]; f.Task != 1 || !f.SetAside || f.Delivery != 2 || !strings.Contains(f.Error, "simulated") {
		t.Errorf("failure %+v", f)
	}
	if !s.Stuck || s.SetAside != 1 {
		t.Errorf("stuck %v, set aside %d: want nothing more to finish, one task set aside", s.Stuck, s.SetAside)
	}
	// wait gives up at once, naming the task; requeue says why it failed
	// and puts it back; workers that do not fail finish the job.
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if _, err := c.Wait(ctx, sub.Job, time.Second, nil); !errors.Is(err, client.ErrFailed) || !strings.Contains(err.Error(), "task 1") {
		t.Errorf("wait: %v, want ErrFailed naming task 1", err)
	}
	r, err := c.Requeue(ctx, sub.Job)
	if err != nil || r.Resumed || len(r.Failed) != 1 || r.Failed[0].Task != 1 || r.Added != 1 || !strings.Contains(r.Failed[0].Error, "simulated") {
		t.Fatalf("requeue: %+v, %v", r, err)
	}
	if s := status(t, c, sub.Job); len(s.Failed) != 0 || s.Stuck {
		t.Errorf("after requeue: %s", client.Summary(s))
	}
	work(t, srv.URL(), 1)
	exact(t, status(t, c, sub.Job))
}

// Cancelling a job stops the tasks its workers are counting and takes the
// others off the queue; Jobs says so, Wait ends with ErrCancelled, a
// second Submit is refused, and Requeue resumes it to the exact total.
func TestCancelAndRequeue(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	spec := queens.Spec{N: 9}
	sub := submit(t, c, spec, client.SubmitOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	real := realCount(t, spec)
	var running sync.WaitGroup
	running.Add(1)
	var once sync.Once
	slow := func(ctx context.Context, _ string, task int, progress func(uint64)) (count.Result, error) {
		if task == 0 {
			once.Do(running.Done)
			// A long task: it ends only when cancelled.
			<-ctx.Done()
			return count.Result{}, ctx.Err()
		}
		return real(ctx, task, progress)
	}
	wctx, stop := context.WithCancel(ctx)
	wait := startWork(t, wctx, srv.URL(), Config{Execution: queens.Execution{Workers: 2}, ID: "c0", countTask: slow})
	running.Wait()
	if _, err := c.Cancel(ctx, sub.Job); err != nil {
		t.Fatal(err)
	}
	jobs, err := c.Jobs(ctx)
	if err != nil || len(jobs) != 1 || jobs[0].State != "cancelled" {
		t.Fatalf("jobs: %+v, %v", jobs, err)
	}
	if _, err := c.Wait(ctx, sub.Job, time.Second, nil); !errors.Is(err, client.ErrCancelled) {
		t.Errorf("wait: %v, want ErrCancelled", err)
	}
	if _, err := c.Submit(ctx, spec, client.SubmitOptions{Units: -1}); !errors.Is(err, client.ErrCancelled) {
		t.Errorf("submit of a cancelled job: %v", err)
	}
	until(t, "the running task is stopped", func() bool {
		ws, err := c.Status(ctx, sub.Job)
		return err == nil && len(ws.Workers) == 1 && ws.Workers[0].Work != nil && ws.Workers[0].Work.Running == 0
	})
	stop()
	st, _ := wait()
	if st.Cancelled < 1 {
		t.Errorf("worker stats %+v: want the running task dropped", st)
	}
	r, err := c.Requeue(ctx, sub.Job)
	if err != nil || !r.Resumed || r.Added == 0 {
		t.Fatalf("requeue: %+v, %v", r, err)
	}
	work(t, srv.URL(), 2)
	exact(t, status(t, c, sub.Job))
}

// A worker fits a join job's counts in its memory (queens.Plan.Fit): as
// many tasks at once as its memory allows, none when even one does not
// fit (the task is refused, for a worker with more).
func TestWorkerMemoryFits(t *testing.T) {
	p, err := queens.NewPlan(queens.Spec{N: 16, Method: queens.Join})
	if err != nil {
		t.Fatal(err)
	}
	qp := &queue.Plan{Queens: p}
	// need(k) is the least memory Fit accepts for k tasks at once.
	need := func(k int) uint64 {
		lo, hi := uint64(1), uint64(1)<<36
		for lo < hi {
			mid := lo + (hi-lo)/2
			if _, err := p.Fit(queens.Execution{Workers: k, Memory: mid}); err == nil {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return lo
	}
	one, four := need(1), need(4)
	if four <= one {
		t.Fatalf("Fit: %d for 1 task at once, %d for 4", one, four)
	}
	for _, c := range []struct {
		memory uint64
		want   int // tasks at once; 0: refused
	}{{four, 4}, {four - 1, 3}, {one, 1}, {one - 1, 0}, {0, 4}} {
		u := &unitCounter{slots: 4, memory: c.memory}
		err := u.fits("j", qp)
		got := 4
		if err != nil {
			got = 0
		} else if sem := u.limits["j"]; sem != nil {
			got = cap(sem)
		}
		if got != c.want || err != nil && !strings.Contains(err.Error(), "--memory") {
			t.Errorf("memory %d: %d tasks at once (%v), want %d", c.memory, got, err, c.want)
		}
	}
	bt, err := queens.NewPlan(queens.Spec{N: 16, Method: queens.Constellations})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&unitCounter{slots: 4, memory: 64 << 20}).fits("b", &queue.Plan{Queens: bt}); err != nil {
		t.Errorf("backtracking in 64 MiB: %v", err)
	}
}

// Export writes a file that nqueens merge reads as it is and ReadExport
// checks through; editing a record is caught.
func TestExport(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 9}, client.SubmitOptions{Verify: 30, Seed: 3})
	work(t, srv.URL(), 2)
	ctx := context.Background()
	e, err := c.Export(ctx, sub.Job)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "q9.json")
	if err := client.WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	f, err := shard.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := job.Merge([]string{path}, []*shard.File{f}, true)
	if err != nil || m.Total.Total.Cmp(count.U128(352)) != 0 {
		t.Fatalf("merge: %v, %+v", err, m)
	}
	back, err := client.ReadExport(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Records) != len(e.Records) || len(back.Records) <= sub.Tasks {
		t.Errorf("%d records read back, %d written, for %d tasks verified in part", len(back.Records), len(e.Records), sub.Tasks)
	}
	// Edit one record's count (and its result, so that the shard checks
	// pass): its checksum gives it away.
	e.Records[0].Count++
	for i := range e.Results {
		if e.Results[i].ID == e.Records[0].Task {
			e.Results[i].Count++
		}
	}
	if err := client.WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ReadExport(path); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("an edited record: %v, want a checksum error", err)
	}
	// A plain shard file is not an export.
	plain := filepath.Join(t.TempDir(), "plain.json")
	f.Shard, f.Shards = 0, 1
	if err := shard.Write(plain, f); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ReadExport(plain); !errors.Is(err, client.ErrNotExport) {
		t.Errorf("a shard file: %v, want ErrNotExport", err)
	}
}

// goWork runs Work in a goroutine of its own and returns a function that
// waits for its end and returns what it returned.
func goWork(ctx context.Context, c *client.Client, cfg Config) func() (*Stats, error) {
	done := make(chan struct{})
	var st *Stats
	var err error
	go func() { defer close(done); st, err = Work(ctx, c, cfg) }()
	return func() (*Stats, error) { <-done; return st, err }
}

// serveCluster starts a server of each config, routed to all of them,
// and waits until the cluster's queue is set up; they stop when the test
// ends.
func serveCluster(t testing.TB, ctx context.Context, cfgs []server.Config) []*server.Server {
	t.Helper()
	var routes []string
	for _, c := range cfgs {
		routes = append(routes, c.ClusterListen)
	}
	srvs := make([]*server.Server, len(cfgs))
	for i := range cfgs {
		cfgs[i].Routes = routes
		s, err := server.Serve(ctx, cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		srvs[i] = s
	}
	for _, s := range srvs {
		if err := s.WaitSetup(ctx); err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
	}
	return srvs
}
