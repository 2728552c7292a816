package client_test

import (
	"context"
	"fmt"
	"os"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// ExampleClient_Submit puts the 8-queens count on the queue of a server
// (here one started on loopback for the example; nqueens submit does the
// same against a running one); workers then take its tasks, and Wait or
// Status read its progress.
func ExampleClient_Submit() {
	dir, err := os.MkdirTemp("", "nqcount-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	srv, err := server.Serve(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	c, err := client.Connect(ctx, srv.URL(), client.ConnectOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	sub, err := c.Submit(ctx, queens.Spec{N: 8}, client.SubmitOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("n =", sub.Info.N, "in", sub.Info.Tasks, "tasks")
	// Output: n = 8 in 49 tasks
}
