// Package solutions lists, finds, checks, prints and draws the solutions of
// the n-queens problem, where package queens only counts them.
//
// A solution is a slice cols of length n: the queen of row r stands in
// column cols[r]. Rows and columns are numbered from 0.
//
//   - Enumerator streams every solution in lexicographic order, without
//     recursion and without allocating per solution.
//   - Canonical and IsCanonical pick one representative per class of the 8
//     symmetries of the square; Unique enumerates only those.
//   - Construct builds one solution for any n >= 4 in O(n); Search finds the
//     lexicographically first one by backtracking; Solve chooses.
//   - Verify checks any placement in O(n).
//   - Printer writes solutions as cols, coords, board or JSON lines;
//     ParseCols, ParseCoords and ParseJSON read them back.
//   - Trace narrates the backtracking search step by step; TraceOrder does
//     it in the row order of the counting kernels too (most constrained row
//     first), to show what that order saves; WriteSVG draws a board.
package solutions
