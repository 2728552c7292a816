package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// A server of the Sudoku page, and its API from a script: POST a JSON
// object, read one back.
func ExampleNew() {
	srv := httptest.NewServer(web.New(web.Options{Pages: []*web.Page{sudokupage.New(sudokupage.Options{})}}))
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
