package queens_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/queens"
)

func ExampleCount() {
	res, err := queens.Count(context.Background(), 8, queens.Options{Unique: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Total, *res.Unique)
	// Output: 92 12
}

func ExampleKnown() {
	q, _ := queens.Known(27)
	fmt.Println(q)
	// Output: 234907967154122528
}
