package main

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "export", Summary: "write a complete job's results, with every record, as a file merge can check", Run: runExport})
}

func runExport(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "export", "JOB --server URL --out FILE")
	var (
		sf  serverFlags
		out string
	)
	sf.add(fs)
	fs.StringVar(&out, "out", "", "`FILE` to write (default JOB.json): a new file, an empty one or an export of the same job; a link to one is written through; other files are refused")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	id, ok := oneJob(e, "export", pos)
	if !ok {
		return cli.ExitUsage
	}
	if out == "" {
		out = id + ".json"
	}
	// Checked before connecting (and again when writing): the rule is
	// count --out's.
	if err := client.CheckExportTarget(out, id); err != nil {
		e.Errorf("--out: %v", err)
		return cli.ExitUsage
	}
	ctx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(ctx, e, "export", false)
	if c == nil {
		return code
	}
	defer c.Close()
	x, err := c.Export(ctx, id)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	x.Program = programVersion()
	if err := client.WriteExport(out, x); err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if _, err := fmt.Fprintf(e.Stdout, "%s: %d tasks, %d records, total %s; check it with 'nqueens merge %s'\n", out, x.Tasks, len(x.Records), x.Total.Count, out); err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return cli.ExitOK
}
