package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/nqcount/nqcount/web"
)

func ExampleFormatGame() {
	text, _ := web.FormatGame(web.Game{
		Puzzle:   "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
		Progress: "46..3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
		Seconds:  75,
	}, web.FormatLine)
	fmt.Print(text)
	// Output:
	// # sudoku game saved by 'sudoku play'
	// # 'sudoku solve FILE' solves the puzzle; 'sudoku play' loads the whole game.
	// 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
	// # progress: 46..3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
	// # seconds: 75
}

// The API from a script: POST a JSON object, read one back.
func ExampleNew() {
	srv := httptest.NewServer(web.New(web.Options{}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/api/sudoku/validate", "application/json",
		strings.NewReader(`{"grid": "..................392578461134756298289413675675289314846192753513867942927345186"}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Print(string(b))
	// Output:
	// {"clues":63,"clashes":[],"solutions":2,"verdict":"several","message":"Several solutions: a proper puzzle has exactly one."}
}
