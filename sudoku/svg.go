package sudoku

import (
	"bufio"
	"fmt"
	"html"
	"io"
)

// Picture is a grid to draw: the puzzle (its givens are drawn in black)
// and, if known, the solution (the digits it adds in blue).
type Picture struct {
	Title    string
	Puzzle   Grid
	Solution *Grid
}

// cellPx is the side of a cell in pixels for an n×n grid: 36 px up to
// 16×16, then smaller so that a 36×36 grid stays under 900 px and a 49×49
// under 1,000.
func cellPx(n int) int {
	switch {
	case n <= 16:
		return 36
	case n <= 25:
		return 30
	case n <= 36:
		return 24
	}
	return 20
}

// WriteSVG draws one grid as SVG: thin cell lines, thick box lines, the
// givens in black bold, the solution's other digits in blue.
func WriteSVG(w io.Writer, p Picture) error {
	return WriteSheetSVG(w, []Picture{p}, 1)
}

// WriteSheetSVG draws several grids on one sheet, cols to a row.
func WriteSheetSVG(w io.Writer, ps []Picture, cols int) error {
	if len(ps) == 0 {
		return fmt.Errorf("no grid to draw")
	}
	cols = max(1, min(cols, len(ps)))
	n := ps[0].Puzzle.Size()
	for _, p := range ps {
		n = max(n, p.Puzzle.Size())
	}
	cell := cellPx(n)
	side := cell * n
	const margin, titleH = 16, 22
	boxW, boxH := side+2*margin, side+2*margin+titleH
	rows := (len(ps) + cols - 1) / cols
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n",
		boxW*cols, boxH*rows, boxW*cols, boxH*rows)
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for i, p := range ps {
		x0, y0 := (i%cols)*boxW+margin, (i/cols)*boxH+margin+titleH
		drawGrid(b, p, x0, y0, cellPx(p.Puzzle.Size()))
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

func drawGrid(b *bufio.Writer, p Picture, x0, y0, cell int) {
	g := p.Puzzle
	n, k := g.Size(), g.Box
	side := cell * n
	if p.Title != "" {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="14">%s</text>`+"\n", x0, y0-8, html.EscapeString(p.Title))
	}
	fmt.Fprintf(b, `<g class="grid" transform="translate(%d,%d)">`+"\n", x0, y0)
	for i := 0; i <= n; i++ {
		width := 1
		if i%k == 0 {
			width = 3
		}
		fmt.Fprintf(b, `<line x1="0" y1="%d" x2="%d" y2="%d" stroke="black" stroke-width="%d"/>`, i*cell, side, i*cell, width)
		fmt.Fprintf(b, `<line x1="%d" y1="0" x2="%d" y2="%d" stroke="black" stroke-width="%d"/>`+"\n", i*cell, i*cell, side, width)
	}
	font := cell * 6 / 10
	if n > 9 {
		font = cell / 2
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			d, given := g.At(r, c), true
			if d == 0 && p.Solution != nil {
				d, given = p.Solution.At(r, c), false
			}
			if d == 0 {
				continue
			}
			style := `fill="#1a56c4" class="filled"`
			if given {
				style = `fill="black" font-weight="bold" class="given"`
			}
			fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" dominant-baseline="central" %s>%s</text>`+"\n",
				c*cell+cell/2, r*cell+cell/2, font, style, Symbol(d, n))
		}
	}
	b.WriteString("</g>\n")
}
