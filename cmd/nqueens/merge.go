package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/readfile"
)

func init() {
	app.Register(&cli.Command{Name: "merge", Summary: "add up the result files of 'count --shard' into the total", Run: runMerge})
}

func runMerge(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "merge", "FILES... [flags]",
		"Adds up the result files of every shard of a count ('nqueens count N --shard I/K --out FILE',\n"+
			"or an export of a queued job) into the total, and compares it with OEIS A000170. Every\n"+
			"result's checksum, every file's total and the split are checked: a file edited or damaged\n"+
			"is refused.")
	var jsonOut, unique, legacy bool
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&unique, "unique", false, "also give the count up to rotation and reflection (A002562)")
	fs.BoolVar(&legacy, "legacy", false, "accept result files of format "+shard.LegacyFormat+" (earlier versions), whose results carry no checksums: an edit of their counts goes unseen")
	files, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(files) == 0 {
		e.Errorf("merge takes the shard result files (usage: nqueens merge FILES...)")
		return cli.ExitUsage
	}
	var set shard.Set
	for _, name := range files {
		f, err := readResult(ctx, e, name, legacy)
		if ctx.Err() != nil {
			e.Errorf("interrupted: nothing merged")
			return cli.ExitInterrupted
		}
		if err != nil {
			e.Errorf("%v", err)
			return cli.ExitFail
		}
		if err := set.Add(name, f); err != nil {
			e.Errorf("%v", err)
			return cli.ExitFail
		}
	}
	m, err := job.Merge(set.Names(), set.Files(), unique)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	for _, w := range m.Warnings {
		e.Errorf("warning: %s", w)
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(m); err != nil && e.OutputErr() == nil {
			e.Errorf("writing result: %v", err)
			return cli.ExitFail
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
		// Every file passed its checks, so the counts were edited
		// consistently (checksums and totals redone), or a machine
		// counted wrong: the count itself is checked against the OEIS
		// where it runs.
		e.Errorf("the merged total disagrees with the OEIS: the result files were edited or damaged (their checksums redone), or a machine counted a shard wrong; count the shards again")
		return cli.ExitFail
	}
	return cli.ExitOK
}

// readResult reads and checks one result file: a shard's, or an export of
// a queued job, whose records are checked too. The file is read once, in
// bounded memory, and the read stops with ctx.
func readResult(ctx context.Context, e *cli.Env, name string, legacy bool) (*shard.File, error) {
	b, err := readfile.Read(ctx, name, shard.MaxFileSize, "a shard result file")
	if err != nil {
		return nil, shard.ReadError(name, err)
	}
	f, err := shard.Decode(name, b)
	if err != nil {
		return nil, err
	}
	var head struct {
		Job     *string     `json:"job"`
		Records *[]struct{} `json:"records"`
	}
	json.Unmarshal(b, &head) // Decode read it
	if head.Job == nil && head.Records == nil {
		if f.Legacy && !legacy {
			return nil, fmt.Errorf("%s is a result file of format %s, from an earlier version: its results carry no checksums, so an edit of its counts would go unseen; merge with --legacy to accept it", name, shard.LegacyFormat)
		}
		return f, nil
	}
	// An export of a queued job also carries every record: check their
	// checksums, plan and agreement too. Its reader takes a path, so
	// input that can be read only once goes through a temporary file.
	path := name
	if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
		tmp, err := os.CreateTemp("", "nqueens-merge-*.json")
		if err != nil {
			return nil, err
		}
		defer os.Remove(tmp.Name())
		_, werr := tmp.Write(b)
		if cerr := tmp.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return nil, fmt.Errorf("%s: copying it to read its records: %v", name, werr)
		}
		path = tmp.Name()
	}
	x, err := client.ReadExport(path)
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), path, name))
	}
	e.Errorf("%s: job %s, %d records checked (checksums, plan, algorithm, agreement)", name, x.Job, len(x.Records))
	return f, nil
}
