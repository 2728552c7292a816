package solutions

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ParseCols reads one line of the Cols format ("1 3 0 2") back into a
// slice. Every value must be a column of the board, 0 to n-1; whether the
// queens attack each other is Verify's business.
func ParseCols(line string) ([]int, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, fmt.Errorf("empty line")
	}
	cols := make([]int, len(fields))
	for i, f := range fields {
		c, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("row %d: %q is not a column number", i, f)
		}
		cols[i] = c
	}
	return cols, checkRange(cols)
}

// ParseCoords reads one line of the Coords format
// ("(0,1) (1,3) (2,0) (3,2)"): one pair per row, rows in order.
func ParseCoords(line string) ([]int, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, fmt.Errorf("empty line")
	}
	cols := make([]int, len(fields))
	for i, f := range fields {
		pair, ok := strings.CutPrefix(f, "(")
		if ok {
			pair, ok = strings.CutSuffix(pair, ")")
		}
		rs, cs, ok2 := strings.Cut(pair, ",")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%q is not a (row,col) pair", f)
		}
		r, err1 := strconv.Atoi(rs)
		c, err2 := strconv.Atoi(cs)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%q is not a (row,col) pair of numbers", f)
		}
		if r != i {
			return nil, fmt.Errorf("pair %d is for row %d, want row %d", i+1, r, i)
		}
		cols[i] = c
	}
	return cols, checkRange(cols)
}

// ParseJSON reads one line of the JSON format ({"n":4,"cols":[1,3,0,2]}).
func ParseJSON(line string) ([]int, error) {
	var v struct {
		N    int   `json:"n"`
		Cols []int `json:"cols"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return nil, err
	}
	if v.N != len(v.Cols) || v.N == 0 {
		return nil, fmt.Errorf("n = %d but %d columns", v.N, len(v.Cols))
	}
	return v.Cols, checkRange(v.Cols)
}

// ParseBoard reads a board drawn by the Board format, one string per row,
// in ASCII (Q and .) or Unicode (♛ and ·); spaces between cells are
// optional.
func ParseBoard(rows []string) ([]int, error) {
	n := len(rows)
	if n == 0 {
		return nil, fmt.Errorf("empty board")
	}
	cols := make([]int, n)
	for r, row := range rows {
		cols[r] = -1
		j := 0
		for _, ch := range row {
			switch ch {
			case ' ', '\t':
				continue
			case 'Q', '♛', '♕':
				if cols[r] >= 0 {
					return nil, fmt.Errorf("row %d has two queens", r)
				}
				cols[r] = j
			case '.', '·':
			default:
				return nil, fmt.Errorf("row %d: unexpected %q", r, ch)
			}
			j++
		}
		if j != n {
			return nil, fmt.Errorf("row %d has %d cells, want %d", r, j, n)
		}
		if cols[r] < 0 {
			return nil, fmt.Errorf("row %d has no queen", r)
		}
	}
	return cols, nil
}

func checkRange(cols []int) error {
	for r, c := range cols {
		if c < 0 || c >= len(cols) {
			return fmt.Errorf("row %d: column %d is off the %d×%d board", r, c, len(cols), len(cols))
		}
	}
	return nil
}
