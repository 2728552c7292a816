//go:build !amd64 || purego

package sudoku

func propagateLanesAVX512(s *laneState) (fail uint16, rounds int) {
	panic("sudoku: propagateLanesAVX512 without assembly")
}

func haveAVX512Lanes() bool { return false }
