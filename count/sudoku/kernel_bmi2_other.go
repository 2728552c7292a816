//go:build !amd64 || purego

package sudoku

// propagateBMI2 exists only in amd64 builds without the purego tag;
// elsewhere the variant triad-bmi2 is not supported and nothing calls it.
func propagateBMI2(s *triadState) bool { panic("sudoku: propagateBMI2 without assembly") }

func haveBMI2() bool { return false }
