//go:build !amd64 || purego

package sudoku

func roundLanesAVX512(s *laneState) (fail, changed, triFail, triWork uint16) {
	panic("sudoku: roundLanesAVX512 without assembly")
}

func haveAVX512Lanes() bool { return false }
