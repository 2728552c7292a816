package solutions

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// SVG colours and sizes.
const (
	svgLight    = "#f0d9b5"
	svgDark     = "#b58863"
	svgMaxSide  = 800 // the largest board side in pixels
	svgCellSide = 48  // the cell side for small boards
)

// queenSymbol is a queen drawn with paths in a 100×100 box, so that the
// picture needs no font.
const queenSymbol = `<symbol id="q" viewBox="0 0 100 100">` +
	`<g fill="#1d1d1d" stroke="#fafafa" stroke-width="3" stroke-linejoin="round">` +
	`<path d="M24 74 L12 32 L28 56 L31 22 L42 54 L50 16 L58 54 L69 22 L72 56 L88 32 L76 74 Z"/>` +
	`<rect x="20" y="74" width="60" height="12" rx="4"/>` +
	`<circle cx="12" cy="30" r="6"/><circle cx="31" cy="20" r="6"/><circle cx="50" cy="14" r="6"/>` +
	`<circle cx="69" cy="20" r="6"/><circle cx="88" cy="30" r="6"/>` +
	`</g></symbol>`

// WriteSVG draws solution cols as a standalone SVG chessboard with its
// queens (drawn as paths, no fonts or external files), for n up to
// MaxBoardN. The top-left square is light and is row 0, column 0.
func WriteSVG(w io.Writer, cols []int) error {
	n := len(cols)
	if n < 1 || n > MaxBoardN {
		return fmt.Errorf("cannot draw a %d×%d board: SVG boards are 1 to %d wide", n, n, MaxBoardN)
	}
	if err := checkRange(cols); err != nil {
		return err
	}
	cell := svgCellSide
	if n*cell > svgMaxSide {
		cell = max(3, svgMaxSide/n)
	}
	side := n * cell
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", side, side, side, side)
	fmt.Fprintf(bw, "<title>%d queens: ", n)
	for i, c := range cols {
		if i > 0 {
			bw.WriteByte(' ')
		}
		bw.WriteString(strconv.Itoa(c))
	}
	bw.WriteString("</title>\n<defs>" + queenSymbol + "</defs>\n")
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="%s"/>`+"\n", side, side, svgLight)
	// Dark squares: one path of unit squares, scaled.
	fmt.Fprintf(bw, `<path fill="%s" transform="scale(%d)" d="`, svgDark, cell)
	for r := 0; r < n; r++ {
		for c := 1 - r%2; c < n; c += 2 {
			fmt.Fprintf(bw, "M%d %dh1v1h-1z", c, r)
		}
	}
	bw.WriteString("\"/>\n")
	for r, c := range cols {
		fmt.Fprintf(bw, `<use xlink:href="#q" x="%d" y="%d" width="%d" height="%d"/>`+"\n", c*cell, r*cell, cell, cell)
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}
