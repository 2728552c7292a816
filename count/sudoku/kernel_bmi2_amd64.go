//go:build amd64 && !purego

package sudoku

import "github.com/nqcount/nqcount/internal/x86"

// propagateBMI2 is triadState.propagate in assembly (see
// kernel_bmi2_amd64.s): the same steps, with every value in a register
// and BMI1/BMI2 shifts and bit scans; the Go compiler spills a third of
// propagate's values to the stack.
//
//go:noescape
func propagateBMI2(s *triadState) bool

// haveBMI2 reports whether this CPU runs propagateBMI2.
func haveBMI2() bool { f := x86.CPU(); return f.BMI1 && f.BMI2 }
