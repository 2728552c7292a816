// Package kernel holds the inner loops of the n-queens counter: iterative
// bitboard backtrackers that count every completion of one prefix task.
//
// Every counting method of package queens describes its tasks as a Frame,
// so the kernels are independent of how the tasks were made, and all of
// them can be fed the same frames and must return the same counts. Kernels
// register themselves in a small registry; Best picks the fastest one the
// CPU supports (from github.com/klauspost/cpuid/v2), and a user may force
// any other by name.
package kernel

// MaxN is the largest board the kernels handle. Masks are 64 bits wide,
// and a frame may hold diagonal bits of queens below the current row up to
// column 2n-3, so n <= 33 is safe; 32 keeps a margin and is far beyond
// anything that can be finished.
const MaxN = 32

// Frame is one prefix task as a kernel sees it: the board state at the
// first row still to fill, and the shape of the rows below it.
//
// Bit c of a mask stands for column c. LD holds diagonals that move one
// column up (towards higher bits) per row, RD those that move one column
// down; queens placed in later rows ahead of time (border queens of a
// constellation) are represented by the full diagonal lines they cover, so
// the kernel never places a queen that attacks them.
type Frame struct {
	// Full has one bit per column of the board: (1<<n)-1.
	Full uint64
	// Cols, LD and RD are the attacked columns and diagonals at the first
	// free row.
	Cols, LD, RD uint64
	// Free is the number of rows still to fill. A frame with Free == 0 is
	// a complete solution by itself.
	Free int
	// Shift[d] is how many board rows lie between free row d and free row
	// d+1: 1 normally, more when rows already holding a queen are skipped.
	Shift [MaxN]uint8
	// Inject[d] is ORed into LD on arrival at free row d, for diagonals
	// that enter the board from the left edge there.
	Inject [MaxN]uint64
}

// Plain sets up f for the common case: free rows follow each other with no
// skipped rows and nothing injected.
func (f *Frame) Plain(n int, cols, ld, rd uint64, free int) {
	*f = Frame{Full: 1<<uint(n) - 1, Cols: cols, LD: ld, RD: rd, Free: free}
	for i := range f.Shift {
		f.Shift[i] = 1
	}
}

// Func counts the completions of a frame and the nodes visited doing so.
// A node is one queen placed; queens of the last free row are counted by a
// population count and each still counts as a node, so every kernel and
// method reports comparable work.
type Func func(f *Frame) (solutions, nodes uint64)
