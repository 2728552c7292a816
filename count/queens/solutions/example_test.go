package solutions_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/nqcount/nqcount/count/queens/solutions"
)

func ExampleNewEnumerator() {
	e, _ := solutions.NewEnumerator(6)
	for e.Next() {
		fmt.Println(e.Cols())
	}
	// Output:
	// [1 3 5 0 2 4]
	// [2 5 1 4 0 3]
	// [3 0 4 1 5 2]
	// [4 2 0 5 3 1]
}

func ExampleNewUniqueEnumerator() {
	e, _ := solutions.NewUniqueEnumerator(8)
	k := 0
	for e.Next() {
		k++
		if k <= 2 {
			fmt.Println(e.Cols())
		}
	}
	fmt.Println(k, "classes")
	// Output:
	// [0 4 7 5 2 6 1 3]
	// [0 5 7 2 6 3 1 4]
	// 12 classes
}

func ExampleCanonical() {
	fmt.Println(solutions.Canonical([]int{2, 0, 3, 1}))
	fmt.Println(solutions.IsCanonical([]int{2, 0, 3, 1}, nil))
	// Output:
	// [1 3 0 2]
	// false
}

func ExampleImage() {
	sol := []int{1, 3, 0, 2}
	fmt.Println(solutions.Image(make([]int, 4), sol, 1)) // mirrored
	fmt.Println(solutions.Image(make([]int, 4), sol, 6)) // a quarter turn: the same board
	// Output:
	// [2 0 3 1]
	// [1 3 0 2]
}

func ExampleConstruct() {
	cols, _ := solutions.Construct(10)
	fmt.Println(cols, solutions.Verify(cols))
	big, _ := solutions.Construct(1_000_000)
	fmt.Println(len(big), solutions.Verify(big))
	_, err := solutions.Construct(3)
	fmt.Println(err)
	// Output:
	// [1 3 5 7 9 0 2 4 6 8] <nil>
	// 1000000 <nil>
	// no solution exists
}

func ExampleSearch() {
	cols, nodes, _ := solutions.Search(context.Background(), 8, 0)
	fmt.Println(cols, nodes, "queens placed")
	// Output:
	// [0 4 7 5 2 6 1 3] 113 queens placed
}

func ExampleSolve() {
	cols, how, _ := solutions.Solve(context.Background(), 12, solutions.Auto, 0)
	fmt.Println(cols, how)
	cols, how, _ = solutions.Solve(context.Background(), 100_000, solutions.Auto, 0)
	fmt.Println(len(cols), how)
	// Output:
	// [0 2 4 7 9 11 5 10 1 6 8 3] search
	// 100000 construct
}

func ExampleVerify() {
	fmt.Println(solutions.Verify([]int{1, 3, 0, 2}))
	fmt.Println(solutions.Verify([]int{0, 2, 4, 1, 3, 5}))
	// Output:
	// <nil>
	// row 5 column 5: anti-diagonal already holds a queen
}

func ExamplePrinter() {
	for _, f := range []solutions.Format{solutions.Cols, solutions.Coords, solutions.JSON, solutions.Board} {
		p := solutions.NewPrinter(os.Stdout, f, true)
		p.Print([]int{1, 3, 0, 2})
		p.Flush()
	}
	// Output:
	// 1 3 0 2
	// (0,1) (1,3) (2,0) (3,2)
	// {"n":4,"cols":[1,3,0,2]}
	// . Q . .
	// . . . Q
	// Q . . .
	// . . Q .
}

func ExampleParseCols() {
	cols, err := solutions.ParseCols("1 3 0 2")
	fmt.Println(cols, err)
	// Output:
	// [1 3 0 2] <nil>
}

func ExampleParseCoords() {
	cols, err := solutions.ParseCoords("(0,1) (1,3) (2,0) (3,2)")
	fmt.Println(cols, err)
	// Output:
	// [1 3 0 2] <nil>
}

func ExampleParseJSON() {
	cols, err := solutions.ParseJSON(`{"n":4,"cols":[1,3,0,2]}`)
	fmt.Println(cols, err)
	// Output:
	// [1 3 0 2] <nil>
}

func ExampleParseBoard() {
	cols, err := solutions.ParseBoard([]string{"· ♛ · ·", "· · · ♛", "♛ · · ·", "· · ♛ ·"})
	fmt.Println(cols, err)
	// Output:
	// [1 3 0 2] <nil>
}

func ExampleTrace() {
	solutions.Trace(4, 1, func(ev solutions.Event) bool {
		fmt.Println(ev)
		return true
	})
	// Output:
	// place row 0 col 0 → [0]
	//   place row 1 col 2 → [0 2]
	//     backtrack from row 2 (no safe column left)
	//   place row 1 col 3 → [0 3]
	//     place row 2 col 1 → [0 3 1]
	//       backtrack from row 3 (no safe column left)
	//     backtrack from row 2 (no safe column left)
	//   backtrack from row 1 (no safe column left)
	// place row 0 col 1 → [1]
	//   place row 1 col 3 → [1 3]
	//     place row 2 col 0 → [1 3 0]
	//       place row 3 col 2 → [1 3 0 2]
	// solution 1: 1 3 0 2
}

func ExampleTraceOrder() {
	var nodes [2]int
	for i, order := range []solutions.Order{solutions.TopDown, solutions.MostConstrained} {
		solutions.TraceOrder(8, order, 0, func(ev solutions.Event) bool {
			if ev.Kind == solutions.Place {
				nodes[i]++
			}
			return true
		})
	}
	fmt.Printf("8 queens, all 92 solutions: %d placements top down, %d most constrained first\n", nodes[0], nodes[1])
	// Output:
	// 8 queens, all 92 solutions: 2056 placements top down, 1360 most constrained first
}

func ExampleWriteSVG() {
	var b strings.Builder
	solutions.WriteSVG(&b, []int{1, 3, 0, 2})
	fmt.Println(strings.Count(b.String(), "<use "), "queens drawn")
	// Output:
	// 4 queens drawn
}

func ExampleParseFormat() {
	f, err := solutions.ParseFormat("JSON")
	fmt.Println(f, err)
	_, err = solutions.ParseFormat("xml")
	fmt.Println(err)
	// Output:
	// json <nil>
	// unknown format "xml": choose cols, coords, board or json
}

func ExampleParseMethod() {
	m, _ := solutions.ParseMethod("construct")
	fmt.Println(m == solutions.ByConstruction)
	// Output:
	// true
}
