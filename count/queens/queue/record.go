package queue

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/nqcount/nqcount/count/queens"
)

// Kinds of Record.
const (
	KindCount  = "count"  // the task's count
	KindVerify = "verify" // the same task counted again by another worker
	// KindDistrust marks a Failure record that names an outvoted worker.
	KindDistrust = "distrust"
)

// Record is one task's result as a worker published it: what anyone needs
// to check it, and a checksum over that.
type Record struct {
	Job       string `json:"job"`
	Hash      string `json:"hash"` // the plan's hash (queens.Plan.Hash)
	Algorithm int    `json:"algorithm"`
	Task      int    `json:"task"`
	// Tasks lists the plan's tasks a unit held (in a job grouped into
	// units; empty otherwise), as the worker counted them: they must be
	// the unit's.
	Tasks   []int  `json:"tasks,omitempty"`
	Count   uint64 `json:"count"`
	Nodes   uint64 `json:"nodes"`
	Kind    string `json:"kind"`
	Worker  string `json:"worker"`
	Program string `json:"program"`
	// Seconds and Time (when it finished) are for information: the
	// checksum does not cover them.
	Seconds  float64   `json:"seconds"`
	Time     time.Time `json:"time"`
	Checksum string    `json:"checksum"`
}

// Sum returns the record's checksum: the SHA-256, in hex, of the line
//
//	nqcount-result/1 job=J hash=H algorithm=A task=T count=C nodes=N kind=K worker=W program=P
//
// where W and P are quoted as Go quotes strings (%q), and " tasks=" and
// the unit's tasks, comma-separated, follow when Tasks is not empty.
// Anyone can recompute it.
func (r *Record) Sum() string {
	h := sha256.Sum256([]byte(r.line()))
	return hex.EncodeToString(h[:])
}

func (r *Record) line() string {
	line := fmt.Sprintf("nqcount-result/1 job=%s hash=%s algorithm=%d task=%d count=%d nodes=%d kind=%s worker=%q program=%q",
		r.Job, r.Hash, r.Algorithm, r.Task, r.Count, r.Nodes, r.Kind, r.Worker, r.Program)
	if len(r.Tasks) == 0 {
		return line
	}
	b := []byte(line + " tasks=")
	for i, t := range r.Tasks {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(t), 10)
	}
	return string(b)
}

// Seal sets the checksum.
func (r *Record) Seal() { r.Checksum = r.Sum() }

// Check reports why the record does not belong to plan p of job id, or
// nil: a damaged or edited record, another plan, another algorithm
// version, a task not in the plan, an unknown kind.
func (r *Record) Check(id string, p *Plan) error {
	switch {
	case r.Checksum != r.Sum():
		return fmt.Errorf("checksum %s… does not match its contents (%.12s…): damaged or edited", Printable(Clip(r.Checksum, 12)), r.Sum())
	case r.Job != id:
		return fmt.Errorf("it belongs to job %s", Printable(Clip(r.Job, 140)))
	case r.Hash != p.Hash():
		return fmt.Errorf("it was counted for another plan (hash %s, this plan's is %s)", Printable(Clip(r.Hash, 80)), p.Hash())
	case r.Algorithm != queens.AlgorithmVersion:
		return fmt.Errorf("it was counted with algorithm version %d, this program's is %d", r.Algorithm, queens.AlgorithmVersion)
	case r.Task < 0 || r.Task >= p.Len():
		return fmt.Errorf("task %d is not in the plan (0 to %d)", r.Task, p.Len()-1)
	case r.Kind != KindCount && r.Kind != KindVerify:
		return fmt.Errorf("kind %s is neither %s nor %s", Printable(Clip(r.Kind, 32)), KindCount, KindVerify)
	case CheckWorkerID(r.Worker) != nil:
		return CheckWorkerID(r.Worker)
	case checkText("program", r.Program) != nil:
		return checkText("program", r.Program)
	case p.Units == 0 && len(r.Tasks) > 0:
		return fmt.Errorf("it lists the plan's tasks %v, but the job is not grouped into units", r.Tasks)
	case p.Units > 0 && !slices.Equal(r.Tasks, p.Tasks(r.Task)):
		return fmt.Errorf("it counted the plan's tasks %v, not unit %d's %v", r.Tasks, r.Task, p.Tasks(r.Task))
	}
	return nil
}

// Failure records a count that failed.
type Failure struct {
	Job    string `json:"job"`
	Task   int    `json:"task"`
	Kind   string `json:"kind"`
	Worker string `json:"worker"`
	Error  string `json:"error"`
	// Delivery is the how-manieth time the task was handed out.
	Delivery uint64 `json:"delivery"`
	// SetAside is true when the task will not be handed out again.
	SetAside bool `json:"set_aside"`
	// Requeued marks a record of nqueens requeue, not a failure: the
	// task's failures before it are over, its task back in the queue.
	Requeued bool `json:"requeued,omitempty"`
	// Distrust, with Kind KindDistrust, is not a failure either: the
	// worker that settled the task names the outvoted one (a worker on
	// a server with roles cannot write the job's record).
	Distrust *Distrust `json:"distrust,omitempty"`
	Time     time.Time `json:"time"`
}

// JobInfo is a submitted job: what to count, kept in bucket nqcount-jobs
// under its ID.
type JobInfo struct {
	ID        string `json:"job"`
	N         int    `json:"n"`
	Method    string `json:"method"`
	Depth     int    `json:"depth"`
	Hash      string `json:"hash"`
	Algorithm int    `json:"algorithm"`
	// Tasks is the number of the queue's tasks: units of the plan's
	// tasks (see Plan), PlanTasks of them.
	Tasks     int `json:"tasks"`
	PlanTasks int `json:"plan_tasks,omitempty"`
	// Units is the grouping (NewPlan): 0 for one task per unit.
	Units int `json:"units,omitempty"`
	// Verify is the percentage of tasks counted a second time by another
	// worker; Seed chooses them, by VerifyRule (see Chosen).
	Verify     float64   `json:"verify_percent,omitempty"`
	Seed       uint64    `json:"verify_seed,omitempty"`
	VerifyRule int       `json:"verify_rule,omitempty"`
	Submitted  time.Time `json:"submitted"`
	Program    string    `json:"program"`
	// Cancelled, if set, is when the job was cancelled (nqueens cancel):
	// its tasks are off the queue, its records kept; Requeue resumes it.
	Cancelled *time.Time `json:"cancelled,omitempty"`
	// Distrusted names the workers outvoted on a task of this job (see
	// Distrust): none of their records of the job is taken, and the
	// tasks they counted are counted again.
	Distrusted []Distrust `json:"distrusted,omitempty"`
}

// Distrust is a worker outvoted on a task: its result disagreed with the
// one that a majority of the workers that counted the task agree on.
type Distrust struct {
	Worker string `json:"worker"`
	Task   int    `json:"task"`
	// Count is what the worker said; Majority what the others agree on,
	// and Agree names them.
	Count    uint64    `json:"count"`
	Majority uint64    `json:"majority"`
	Agree    []string  `json:"agree"`
	Time     time.Time `json:"time,omitzero"`
}

// Distrusts reports whether worker is among those distrusted.
func Distrusts(ds []Distrust, worker string) bool {
	_, ok := DistrustOf(ds, worker)
	return ok
}

// DistrustOf returns the record of ds that names worker, if one does.
func DistrustOf(ds []Distrust, worker string) (Distrust, bool) {
	for _, d := range ds {
		if d.Worker == worker {
			return d, true
		}
	}
	return Distrust{}, false
}

// Spec returns what the job counts.
func (j *JobInfo) Spec() queens.Spec {
	return queens.Spec{N: j.N, Method: queens.Method(j.Method), Depth: j.Depth}
}

// Plan plans the job and checks that this program cuts it into the same
// tasks and units, counted by the same algorithm.
func (j *JobInfo) Plan() (*Plan, error) {
	p, err := j.PlanUncut()
	if err == nil && p.Len() != j.Tasks {
		err = j.planned(p)
	}
	return p, err
}

// PlanUncut is Plan without cutting the units, which needs the plan's
// estimates: a worker is told each unit's tasks, and its result record
// says which it counted, for readers to check.
func (j *JobInfo) PlanUncut() (*Plan, error) {
	// The record fixes the tasks (memory is not part of a plan: a
	// worker fits its counts in its own, see worker.Config.Memory).
	jp, err := queens.NewPlan(j.Spec())
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", j.ID, err)
	}
	p, err := NewPlan(jp, j.Units)
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", j.ID, err)
	}
	if p.ID() != j.ID || p.Hash() != j.Hash || j.PlanTasks != 0 && jp.Len() != j.PlanTasks || p.Units == 0 && jp.Len() != j.Tasks {
		return nil, j.planned(p)
	}
	return p, nil
}

// planned is the error for a job this program plans differently.
func (j *JobInfo) planned(p *Plan) error {
	return fmt.Errorf("job %s (algorithm version %d) is planned differently by this program (job %s, algorithm version %d): refusing to count or check it with this version", j.ID, j.Algorithm, p.ID(), queens.AlgorithmVersion)
}

// Rules that choose the tasks to verify (JobInfo.VerifyRule).
const (
	// verifyByChance chose each task with probability P%: the share
	// verified varied with the seed (none at all, for some, on a job of
	// few units). Jobs recorded without a rule used it.
	verifyByChance = 0
	// VerifyExact chooses P% of the tasks, rounded up, and at least one
	// when P > 0: those whose hash of the seed and the id is smallest.
	VerifyExact = 1
)

// Chosen returns which of the job's tasks are counted a second time by
// another worker (Verify, Seed and VerifyRule), the same on every
// machine.
func (j *JobInfo) Chosen() []bool {
	if j.VerifyRule == verifyByChance {
		out := make([]bool, j.Tasks)
		for id := range out {
			out[id] = j.Verify > 0 && float64(verifyKey(j.Seed, id)>>11)/(1<<53) < j.Verify/100
		}
		return out
	}
	return VerifyChoice(j.Seed, j.Tasks, j.Verify)
}

// VerifyChoice returns which of tasks tasks are chosen for verification
// at percent with this seed (rule VerifyExact): exactly
// ceil(percent·tasks/100) of them, at least one when percent > 0, the ones
// whose hash of the seed and the id is smallest.
func VerifyChoice(seed uint64, tasks int, percent float64) []bool {
	out := make([]bool, max(tasks, 0))
	if percent <= 0 || tasks <= 0 {
		return out
	}
	k := tasks
	if percent < 100 {
		// Rounded up, but a product a hair above a whole number from
		// the floating-point error is that number.
		k = int(math.Ceil(percent*float64(tasks)/100 - 1e-9))
		k = min(max(k, 1), tasks)
	}
	ids := make([]int, tasks)
	keys := make([]uint64, tasks)
	for id := range ids {
		ids[id], keys[id] = id, verifyKey(seed, id)
	}
	slices.SortFunc(ids, func(a, b int) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, id := range ids[:k] {
		out[id] = true
	}
	return out
}

// verifyKey is the hash of a seed and a task id that orders the tasks for
// verification.
func verifyKey(seed uint64, id int) uint64 {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(id))
	h := sha256.Sum256(b[:])
	return binary.LittleEndian.Uint64(h[:8])
}

// TaskMsg is the body of a task message. What the job counts is in its
// JobInfo, which a worker reads once per job.
type TaskMsg struct {
	ID   string `json:"job"`
	Task int    `json:"task"`
	// Tasks lists the plan's tasks of a unit (a job grouped into units),
	// so that a worker need not cut the units itself (which needs the
	// plan's estimates) before it counts.
	Tasks []int `json:"tasks,omitempty"`
	// Verify says whether the task is chosen for a second count.
	Verify bool `json:"verify,omitempty"`
	// CountedBy names the worker that counted the task first (verify
	// tasks only): another one must count it again.
	CountedBy string `json:"counted_by,omitempty"`
}
