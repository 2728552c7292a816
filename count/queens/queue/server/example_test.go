package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// ExampleServe_metrics serves a queue's metrics to a scraper
// (nqueens serve --metrics does the same) and shows a job's progress in
// them.
func ExampleServe_metrics() {
	dir, err := os.MkdirTemp("", "nqcount-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	srv, err := server.Serve(context.Background(), server.Config{Listen: "127.0.0.1:0", DataDir: dir, Metrics: "127.0.0.1:0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	c, err := client.Connect(ctx, srv.URL(), client.ConnectOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	if _, err := c.Submit(ctx, queens.Spec{N: 8}, client.SubmitOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	resp, err := http.Get(srv.MetricsURL())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for l := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(l, "nqcount_job_tasks{") || strings.HasPrefix(l, "nqcount_job_info{") {
			fmt.Println(l)
		}
	}
	// Output:
	// nqcount_job_info{job_id="n8-70a44a7ec66dc26173057d667974a8c5-a1",method="constellations",n="8",state="queued"} 1
	// nqcount_job_tasks{job_id="n8-70a44a7ec66dc26173057d667974a8c5-a1"} 49
}
