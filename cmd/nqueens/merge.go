package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	register(&command{Name: "merge", Summary: "add up the result files of 'count --shard' into the total", Run: runMerge})
}

func runMerge(_ context.Context, e *env, args []string) int {
	fs := newFlags(e, "merge", "FILES... [flags]")
	var jsonOut, unique bool
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&unique, "unique", false, "also give the count up to rotation and reflection (A002562)")
	files, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) == 0 {
		e.Errorf("merge takes the shard result files (usage: nqueens merge FILES...)")
		return exitUsage
	}
	var fs2 []*shard.File
	for _, name := range files {
		f, err := shard.Read(name)
		if err != nil {
			e.Errorf("%v", err)
			return exitFail
		}
		fs2 = append(fs2, f)
		// An export of a queued job also carries every record: check
		// their checksums, plan and agreement too.
		if x, err := queue.ReadExport(name); err == nil {
			e.Errorf("%s: job %s, %d records checked (checksums, plan, algorithm, agreement)", name, x.Job, len(x.Records))
		} else if !errors.Is(err, queue.ErrNotExport) {
			e.Errorf("%v", err)
			return exitFail
		}
	}
	m, err := job.Merge(files, fs2, unique)
	if err != nil {
		e.Errorf("%v", err)
		return exitFail
	}
	for _, w := range m.Warnings {
		e.Errorf("warning: %s", w)
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(m); err != nil && e.OutputErr() == nil {
			e.Errorf("writing result: %v", err)
			return exitFail
		}
	} else {
		check := " (no published value to compare with)"
		if m.Matches != nil {
			check = " (matches OEIS A000170)"
			if !*m.Matches {
				check = fmt.Sprintf(" (MISMATCH: OEIS A000170 says %d)", *m.Known)
			}
		}
		fmt.Fprintf(e.Stdout, "n = %d: %s %s%s\n", m.N, m.Total.Total, solutionsWord(m.Total.Total), check)
		if m.Unique != nil {
			fmt.Fprintf(e.Stdout, "unique up to symmetry: %s\n", m.Unique)
		}
		fmt.Fprintf(e.Stdout, "merged %d %s, %d %s (%s, depth %d), %.3f s of shard time\n", m.Shards, cli.Plural(m.Shards, "shard", "shards"),
			m.Tasks, cli.Plural(m.Tasks, "task", "tasks"), m.Method, m.Depth, m.Seconds)
	}
	if m.Mismatch() {
		e.Errorf("the merged count disagrees with the OEIS: this is a bug, please report it")
		return exitFail
	}
	return exitOK
}
