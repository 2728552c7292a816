package client_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
)

// ExampleClient_Submit puts the 20-queens count on the queue of a server
// already running at its URL (nqueens submit does the same); workers
// then take its tasks, and Wait or Status read its progress. (Not run:
// it needs a server.)
func ExampleClient_Submit() {
	ctx := context.Background()
	c, err := client.Connect(ctx, "nats://127.0.0.1:4222", client.ConnectOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	sub, err := c.Submit(ctx, queens.Spec{N: 20}, client.SubmitOptions{Verify: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("job", sub.Info.ID, "tasks chosen for a second count:", sub.VerifyTasks)
}
