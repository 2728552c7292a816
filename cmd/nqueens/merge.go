package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	register(&command{Name: "merge", Summary: "add up the result files of 'count --shard' into the total", Run: runMerge})
}

// mergeReport is the --json output of merge.
type mergeReport struct {
	N           int            `json:"n"`
	Method      string         `json:"method"`
	Depth       int            `json:"depth"`
	Hash        string         `json:"hash"`
	Version     string         `json:"version"`
	Shards      int            `json:"shards"`
	Tasks       int            `json:"tasks"`
	Total       count.Uint128  `json:"total"`
	Unique      *count.Uint128 `json:"unique,omitempty"`
	Nodes       count.Uint128  `json:"nodes"`
	Seconds     float64        `json:"shard_seconds"`
	Known       *uint64        `json:"known,omitempty"`
	KnownUnique *uint64        `json:"known_unique,omitempty"`
	Matches     *bool          `json:"matches_known,omitempty"`
	Warnings    []string       `json:"warnings,omitempty"`
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
	}
	m, err := shard.Merge(files, fs2)
	if err != nil {
		e.Errorf("%v", err)
		return exitFail
	}
	n, err1 := strconv.Atoi(m.Run["n"])
	depth, err2 := strconv.Atoi(m.Run["depth"])
	if err := errors.Join(err1, err2); err != nil || n < 1 || n > queens.MaxN {
		e.Errorf("%s: the run's board size %q or depth %q is not valid: not an n-queens shard", files[0], m.Run["n"], m.Run["depth"])
		return exitFail
	}
	for _, w := range m.Warnings {
		e.Errorf("warning: %s", w)
	}
	rep := mergeReport{
		N: n, Method: m.Run["method"], Depth: depth, Hash: m.Hash, Version: m.Run["version"],
		Shards: m.Shards, Tasks: m.Tasks, Total: m.Total.Count, Nodes: m.Total.Nodes,
		Seconds: m.Seconds, Warnings: m.Warnings,
	}
	if unique {
		u := queens.UniqueFrom(n, m.Total.Count)
		rep.Unique = &u
	}
	if k, ok := queens.Known(n); ok {
		rep.Known = &k
		ok := m.Total.Count.Cmp(count.U128(k)) == 0
		if ku, known := queens.KnownUnique(n); known && rep.Unique != nil {
			rep.KnownUnique = &ku
			ok = ok && rep.Unique.Cmp(count.U128(ku)) == 0
		}
		rep.Matches = &ok
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(rep); err != nil && e.OutputErr() == nil {
			e.Errorf("writing result: %v", err)
			return exitFail
		}
	} else {
		check := " (no published value to compare with)"
		if rep.Matches != nil {
			check = " (matches OEIS A000170)"
			if !*rep.Matches {
				check = fmt.Sprintf(" (MISMATCH: OEIS A000170 says %d)", *rep.Known)
			}
		}
		fmt.Fprintf(e.Stdout, "n = %d: %s %s%s\n", n, rep.Total, solutionsWord(rep.Total), check)
		if rep.Unique != nil {
			fmt.Fprintf(e.Stdout, "unique up to symmetry: %s\n", rep.Unique)
		}
		fmt.Fprintf(e.Stdout, "merged %d %s, %d %s (%s, depth %d), %.3f s of shard time\n", m.Shards, cli.Plural(m.Shards, "shard", "shards"),
			m.Tasks, cli.Plural(m.Tasks, "task", "tasks"), rep.Method, depth, m.Seconds)
	}
	if rep.Matches != nil && !*rep.Matches {
		e.Errorf("the merged count disagrees with the OEIS: this is a bug, please report it")
		return exitFail
	}
	return exitOK
}
