//go:build !amd64 || purego

package sudoku

// propagateBMI2 exists only in amd64 builds without the purego tag;
// elsewhere no variant asks for it.
func propagateBMI2(s *triadState) bool { panic("sudoku: propagateBMI2 without assembly") }
