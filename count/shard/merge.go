package shard

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nqcount/nqcount/count"
)

// Merged is the outcome of Merge.
type Merged struct {
	// Run, Hash, Tasks and Shards are the run's, common to all files.
	Run    map[string]string
	Hash   string
	Tasks  int
	Shards int
	// Total sums every task once.
	Total count.Totals
	// Seconds sums the shards' wall times: the compute time spent.
	Seconds float64
	// Programs lists the distinct program versions that counted the
	// shards, sorted (empty for files that do not say).
	Programs []string
	// Warnings lists harmless oddities, such as a shard given twice with
	// identical results (used once).
	Warnings []string
}

// ErrIncomplete is wrapped by Merge's error when shards are missing.
var ErrIncomplete = errors.New("shards missing")

// Merge checks that files are the shards of one run, each shard present
// once and every task counted exactly once, and returns the total.
//
// A shard given twice with identical results (a re-run after a failure
// that was not lost after all) is used once, with a warning; a shard given
// twice with different results is an error. names label the files in
// messages (usually their paths).
func Merge(names []string, files []*File) (*Merged, error) {
	var s Set
	for i, f := range files {
		if err := s.Add(names[i], f); err != nil {
			return nil, err
		}
	}
	return s.Merge()
}

// Set collects the result files of one merge as they are read, checking
// each against the ones before it, so that what a merge holds stays
// bounded by the run, whatever the files claim and however many are
// given: the results of distinct shards add up to at most the run's tasks
// (at most MaxTasks), and a shard given again keeps one copy of its
// results. The zero Set is empty and ready.
type Set struct {
	names   []string
	files   []*File
	index   map[int]int // shard index → position of its first file
	results int         // the results of distinct shards
}

// Add adds f, read from the file name. It refuses a file of another run
// than the first one added, a shard given again with other results, and
// results beyond the run's number of tasks.
func (s *Set) Add(name string, f *File) error {
	if len(s.files) == 0 {
		s.index = map[int]int{}
	}
	if len(s.files) > 0 {
		f0 := s.files[0]
		if !sameRun(f0, f) {
			return fmt.Errorf("%s and %s belong to different runs: %s", s.names[0], name, runDiff(f0, f))
		}
		if j, ok := s.index[f.Shard]; ok {
			g := s.files[j]
			if !slices.Equal(g.Results, f.Results) {
				return fmt.Errorf("shard %d is given twice with different results (%s and %s): a task was counted two ways, so one of them is wrong; rerun that shard", f.Shard, s.names[j], name)
			}
			s.names, s.files = append(s.names, name), append(s.files, g)
			return nil
		}
	}
	if s.results+len(f.Results) > f.Tasks {
		return fmt.Errorf("%s: the files so far hold %d results, more than the run's %d tasks: the files do not come from one split", name, s.results+len(f.Results), f.Tasks)
	}
	s.index[f.Shard] = len(s.files)
	s.results += len(f.Results)
	s.names, s.files = append(s.names, name), append(s.files, f)
	return nil
}

// Names returns the names of the files added, in order.
func (s *Set) Names() []string { return s.names }

// Files returns the files added, in order; a shard given twice appears
// twice, as the same *File.
func (s *Set) Files() []*File { return s.files }

// Merge checks that the files added are every shard of the run, each
// counting its tasks once, and returns the total (see Merge).
func (s *Set) Merge() (*Merged, error) {
	if len(s.files) == 0 {
		return nil, errors.New("no shard files to merge")
	}
	f0 := s.files[0]
	m := &Merged{Run: f0.Run, Hash: f0.Hash, Tasks: f0.Tasks, Shards: f0.Shards}
	for i, f := range s.files {
		if j := s.index[f.Shard]; j != i {
			m.Warnings = append(m.Warnings, fmt.Sprintf("shard %d is given twice with identical results (%s and %s): used once", f.Shard, s.names[j], s.names[i]))
		}
	}
	if missing := f0.Shards - len(s.index); missing > 0 {
		var first []string
		for i := 0; i < f0.Shards && len(first) < 10; i++ {
			if _, ok := s.index[i]; !ok {
				first = append(first, fmt.Sprint(i))
			}
		}
		if missing > len(first) {
			first = append(first, "...")
		}
		verb := "shards have"
		if missing == 1 {
			verb = "shards has"
		}
		return nil, fmt.Errorf("%w: %d of %d %s no result file: %s (numbered from 0); run them and merge again", ErrIncomplete, missing, f0.Shards, verb, strings.Join(first, ", "))
	}
	// The results are at most the run's tasks (Add), so this is bounded
	// by what the files hold.
	owner := make([]int32, f0.Tasks) // shard+1 of each task
	for sh := range f0.Shards {
		f := s.files[s.index[sh]]
		for _, r := range f.Results {
			if owner[r.ID] != 0 {
				return nil, fmt.Errorf("task %d is in both shard %d and shard %d: the files do not come from one split", r.ID, owner[r.ID]-1, sh)
			}
			owner[r.ID] = int32(sh + 1)
			m.Total.Add(count.Result{Count: r.Count, Nodes: r.Nodes})
		}
		m.Seconds += f.Seconds
		if f.Program != "" && !slices.Contains(m.Programs, f.Program) {
			m.Programs = append(m.Programs, f.Program)
		}
	}
	slices.Sort(m.Programs)
	if n := f0.Tasks - m.Total.Tasks; n > 0 {
		first := slices.Index(owner, 0)
		what := "tasks are"
		if n == 1 {
			what = "task is"
		}
		return nil, fmt.Errorf("%d %s in no shard (the first is task %d): the files do not come from one split", n, what, first)
	}
	return m, nil
}

func runDiff(a, b *File) string {
	var d []string
	if a.Hash != b.Hash {
		d = append(d, fmt.Sprintf("task list hash %s vs %s", clip(a.Hash, 80), clip(b.Hash, 80)))
	}
	if a.Tasks != b.Tasks {
		d = append(d, fmt.Sprintf("%d vs %d tasks", a.Tasks, b.Tasks))
	}
	if a.Shards != b.Shards {
		d = append(d, fmt.Sprintf("split into %d vs %d shards", a.Shards, b.Shards))
	}
	keys := slices.Sorted(maps.Keys(a.Run))
	for _, k := range slices.Sorted(maps.Keys(b.Run)) {
		if _, ok := a.Run[k]; !ok {
			keys = append(keys, k)
		}
	}
	n := 0
	for _, k := range keys {
		if a.Run[k] != b.Run[k] {
			if n++; n > 5 {
				d = append(d, "...")
				break
			}
			d = append(d, fmt.Sprintf("%s %q vs %q", clip(k, 40), clip(a.Run[k], 80), clip(b.Run[k], 80)))
		}
	}
	return strings.Join(d, ", ")
}
