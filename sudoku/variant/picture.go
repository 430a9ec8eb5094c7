package variant

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/htnsat/htnsat/internal/canvas"
	"github.com/htnsat/htnsat/sudoku"
)

// A picture of a variant puzzle draws every clue the reader knows, as
// setters draw them: extra regions shaded, odd cells with a grey circle
// and even ones with a grey square, thermometers as grey tubes from their
// bulb, arrows from their circle, renban, whispers and palindrome lines in
// their colours, the grid, killer cages as dashed outlines with their sum
// in the top-left corner, little killer sums outside the grid with an
// arrow along their diagonal, kropki dots (black: ratio, white:
// difference) and XV marks on the edges, quadruples in a circle on their
// corner, the givens in black bold and the digits of a solution in blue;
// the rules that are not drawn on cells (anti-knight, anti-king, disjoint
// groups, negative constraints) are listed under the grid. Every clue
// element of the SVG carries a class naming its kind.

// Colours of the clues.
var (
	ink        = color.RGBA{0x11, 0x11, 0x11, 0xff}
	solvedInk  = color.RGBA{0x1a, 0x56, 0xc4, 0xff}
	paper      = color.RGBA{0xff, 0xff, 0xff, 0xff}
	regionTint = color.RGBA{0xdd, 0xe8, 0xf6, 0xff}
	parityGrey = color.RGBA{0xd4, 0xd4, 0xd4, 0xff}
	thermoGrey = color.RGBA{0xc4, 0xc4, 0xc4, 0xff}
	arrowGrey  = color.RGBA{0x80, 0x80, 0x80, 0xff}
	renbanLine = color.RGBA{0xd2, 0xa8, 0xf0, 0xff}
	whisper    = color.RGBA{0x72, 0xc8, 0x6e, 0xff}
	palindrome = color.RGBA{0xa8, 0xa8, 0xa8, 0xff}
	diagonal   = color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
)

// picLayout is where a picture's parts go.
type picLayout struct {
	n, k             int
	cell, margin     float64
	x0, y0           float64 // the grid's top-left corner
	width, height    float64
	title            []string // wrapped to the picture's width
	caption          []string
	titleH, captionH float64
}

const (
	titleSize   = 14
	captionSize = 11
)

func newPicLayout(p *Puzzle, title string) picLayout {
	n := p.Size()
	l := picLayout{n: n, k: p.Grid.Box, cell: float64(cellPx(n)), caption: p.rulesNotDrawn()}
	l.margin = l.cell * 0.9 // room for little killer sums
	side := l.cell * float64(n)
	// the grid's width, or enough for the rules, and the title wrapped
	// into it: never cut off
	l.width = max(side+2*l.margin, 360)
	for _, c := range l.caption {
		l.width = max(l.width, canvas.TextWidth(c, captionSize)+16)
	}
	l.title = wrap(title, titleSize, l.width-16)
	for _, line := range l.title {
		l.width = max(l.width, canvas.TextWidth(line, titleSize)+16) // a word longer than the width
	}
	if len(l.title) > 0 {
		l.titleH = 8 + 18*float64(len(l.title))
	}
	if len(l.caption) > 0 {
		l.captionH = 8 + 15*float64(len(l.caption))
	}
	l.x0 = (l.width - side) / 2
	l.y0 = l.titleH + l.margin
	l.height = l.y0 + side + l.margin + l.captionH
	return l
}

// center is the middle of a cell.
func (l picLayout) center(c int) canvas.Pt {
	return canvas.Pt{X: l.x0 + (float64(c%l.n)+0.5)*l.cell, Y: l.y0 + (float64(c/l.n)+0.5)*l.cell}
}

// centers are the middles of cells, in order.
func (l picLayout) centers(cells []int) []canvas.Pt {
	pts := make([]canvas.Pt, len(cells))
	for i, c := range cells {
		pts[i] = l.center(c)
	}
	return pts
}

// rulesNotDrawn lists the puzzle's rules that no mark on a cell shows.
func (p *Puzzle) rulesNotDrawn() []string {
	var out []string
	if p.AntiKnight {
		out = append(out, "anti-knight: cells a knight's move apart differ")
	}
	if p.AntiKing {
		out = append(out, "anti-king: cells a king's move apart differ")
	}
	if p.Disjoint {
		out = append(out, "disjoint groups: cells at the same place of every box differ")
	}
	if p.NegativeRatio {
		out = append(out, "every black dot is given (no other neighbours are in ratio 2)")
	}
	if p.NegativeDifference {
		if len(p.Differences) == 0 {
			out = append(out, "nonconsecutive: no neighbours differ by 1")
		} else {
			out = append(out, "every white dot is given (no other neighbours differ by 1)")
		}
	}
	if p.NegativeXV {
		out = append(out, "every X and V is given (no other neighbours add up to 10 or 5)")
	}
	return out
}

// cellPx is the side of a cell in points for an n×n grid: 36 up to
// 16×16, then smaller so that a 36×36 grid stays under 900 and a 49×49
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

// Picture is a puzzle to draw, with the digits of its solution (nil for
// the puzzle alone).
type Picture struct {
	Title    string
	Puzzle   *Puzzle
	Solution *sudoku.Grid
}

// Classic is the picture of a classic puzzle (no rule beyond rows,
// columns and boxes).
func Classic(title string, g sudoku.Grid, sol *sudoku.Grid) Picture {
	return Picture{Title: title, Puzzle: &Puzzle{Grid: g}, Solution: sol}
}

// PictureSize is the size in points of p's picture with title.
func PictureSize(p *Puzzle, title string) (w, h float64) {
	l := newPicLayout(p, title)
	return l.width, l.height
}

// WriteSVG draws p (and, if not nil, the digits of sol it does not give)
// as an SVG picture.
func WriteSVG(w io.Writer, p *Puzzle, sol *sudoku.Grid, title string) error {
	return WriteSheet(w, []Picture{{title, p, sol}}, 1, false)
}

// WritePNG draws the same picture as a PNG image, two pixels a point.
func WritePNG(w io.Writer, p *Puzzle, sol *sudoku.Grid, title string) error {
	return WriteSheet(w, []Picture{{title, p, sol}}, 1, true)
}

// PNGFile reports whether a picture file's name asks for PNG (.png) or
// SVG (.svg); any other name is an error, not an SVG under a PNG's name.
func PNGFile(path string) (bool, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return true, nil
	case ".svg":
		return false, nil
	}
	return false, fmt.Errorf("%s: a picture is .svg or .png", path)
}

// Limits of a sheet: its pictures, and a PNG's points (two pixels a
// point each way: 4 pixels of 4 bytes a point), so that a puzzle file of
// thousands of puzzles cannot ask for gigabytes.
const (
	MaxSheet     = 400
	MaxPNGPixels = 64_000_000
)

// CheckSheet reports whether pictures of these puzzles (their solutions
// do not change the size) fit on one sheet, before any is solved.
func CheckSheet(pics []Picture, cols int, asPNG bool) error {
	_, _, _, _, err := sheetLayout(pics, cols, asPNG)
	return err
}

// sheetLayout lays out pics cols to a row, in cells of cw×ch points,
// within the limits of a sheet.
func sheetLayout(pics []Picture, cols int, asPNG bool) (ls []picLayout, c int, cw, ch float64, err error) {
	if len(pics) > MaxSheet {
		return nil, 0, 0, 0, fmt.Errorf("%d pictures: a sheet holds at most %d (draw fewer puzzles, with --limit)", len(pics), MaxSheet)
	}
	c = max(1, min(cols, len(pics)))
	ls = make([]picLayout, len(pics))
	for i, p := range pics {
		ls[i] = newPicLayout(p.Puzzle, p.Title)
		cw, ch = max(cw, ls[i].width), max(ch, ls[i].height)
	}
	width, height := cw*float64(c), ch*float64((len(pics)+c-1)/c)
	if asPNG && width*height*4 > MaxPNGPixels {
		return nil, 0, 0, 0, fmt.Errorf("a PNG sheet of %.0fx%.0f points is too large (at most %d million pixels): draw fewer or smaller grids, or SVG", width, height, MaxPNGPixels/1_000_000)
	}
	return ls, c, cw, ch, nil
}

// WriteSheet draws several pictures on one sheet, cols to a row, as SVG
// or PNG.
func WriteSheet(w io.Writer, pics []Picture, cols int, asPNG bool) error {
	if len(pics) == 0 {
		return fmt.Errorf("no picture to draw")
	}
	ls, cols, cw, ch, err := sheetLayout(pics, cols, asPNG)
	if err != nil {
		return err
	}
	width, height := cw*float64(cols), ch*float64((len(pics)+cols-1)/cols)
	each := func(c canvas.Canvas, raw func(string)) {
		c.FillRect(0, 0, width, height, paper)
		for i, p := range pics {
			dx, dy := float64(i%cols)*cw, float64(i/cols)*ch
			draw(offsetCanvas{c, dx + (cw-ls[i].width)/2, dy}, p.Puzzle, p.Solution, ls[i], raw)
		}
	}
	if asPNG {
		r, err := canvas.NewRaster(width, height, 2)
		if err != nil {
			return err
		}
		each(r, func(string) {})
		return r.WritePNG(w)
	}
	s := canvas.NewSVG(width, height)
	each(s, s.Raw)
	return s.Write(w)
}

// offsetCanvas draws on c, moved by (dx, dy).
type offsetCanvas struct {
	c      canvas.Canvas
	dx, dy float64
}

func (s offsetCanvas) pts(pts []canvas.Pt) []canvas.Pt {
	out := make([]canvas.Pt, len(pts))
	for i, p := range pts {
		out[i] = canvas.Pt{X: p.X + s.dx, Y: p.Y + s.dy}
	}
	return out
}

func (s offsetCanvas) Polyline(pts []canvas.Pt, c color.RGBA, width float64, dash []float64) {
	s.c.Polyline(s.pts(pts), c, width, dash)
}
func (s offsetCanvas) Polygon(pts []canvas.Pt, c color.RGBA) { s.c.Polygon(s.pts(pts), c) }
func (s offsetCanvas) FillRect(x, y, w, h float64, c color.RGBA) {
	s.c.FillRect(x+s.dx, y+s.dy, w, h, c)
}
func (s offsetCanvas) Circle(cx, cy, r float64, fill, stroke color.RGBA, width float64) {
	s.c.Circle(cx+s.dx, cy+s.dy, r, fill, stroke, width)
}
func (s offsetCanvas) Text(x, y float64, str string, t canvas.Text) { s.c.Text(x+s.dx, y+s.dy, str, t) }

// draw draws the picture on c; raw adds SVG group tags that name each
// layer (nothing on a raster).
func draw(c canvas.Canvas, p *Puzzle, sol *sudoku.Grid, l picLayout, raw func(string)) {
	layer := func(class string, fn func()) {
		raw(`<g class="` + class + `">`)
		fn()
		raw(`</g>`)
	}
	for i, line := range l.title {
		c.Text(l.width/2, 20+18*float64(i), line, canvas.Text{Size: titleSize, Anchor: canvas.Middle, Bold: true, Color: ink})
	}
	cell := l.cell
	layer("extra-regions", func() {
		for _, r := range p.drawnRegions() {
			for _, x := range r {
				pt := l.center(x)
				c.FillRect(pt.X-cell/2, pt.Y-cell/2, cell, cell, regionTint)
			}
		}
	})
	layer("odd-even", func() {
		for _, x := range p.Odd {
			pt := l.center(x)
			c.Circle(pt.X, pt.Y, cell*0.38, parityGrey, parityGrey, 0)
		}
		for _, x := range p.Even {
			pt := l.center(x)
			c.FillRect(pt.X-cell*0.36, pt.Y-cell*0.36, cell*0.72, cell*0.72, parityGrey)
		}
	})
	layer("diagonals", func() {
		side := cell * float64(l.n)
		if p.DiagonalMain {
			c.Polyline([]canvas.Pt{{X: l.x0, Y: l.y0}, {X: l.x0 + side, Y: l.y0 + side}}, diagonal, 1.5, []float64{5, 3})
		}
		if p.DiagonalAnti {
			c.Polyline([]canvas.Pt{{X: l.x0, Y: l.y0 + side}, {X: l.x0 + side, Y: l.y0}}, diagonal, 1.5, []float64{5, 3})
		}
	})
	layer("thermometers", func() {
		for _, t := range p.Thermos {
			pts := l.centers(t)
			c.Polyline(pts, thermoGrey, cell*0.3, nil)
			c.Circle(pts[0].X, pts[0].Y, cell*0.36, thermoGrey, thermoGrey, 0)
		}
	})
	layer("lines", func() {
		for _, ls := range []struct {
			lines [][]int
			col   color.RGBA
		}{{p.Renbans, renbanLine}, {p.Whispers, whisper}, {p.Palindromes, palindrome}} {
			for _, line := range ls.lines {
				c.Polyline(l.centers(line), ls.col, cell*0.22, nil)
			}
		}
	})
	layer("arrows", func() {
		for _, a := range p.Arrows {
			o := l.center(a.Circle)
			c.Circle(o.X, o.Y, cell*0.4, paper, arrowGrey, 1.6)
			for _, line := range a.Lines {
				pts := append([]canvas.Pt{edgeOf(o, l.center(line[0]), cell*0.4)}, l.centers(line)...)
				c.Polyline(pts, arrowGrey, 1.6, nil)
				arrowHead(c, pts[len(pts)-2], pts[len(pts)-1], cell*0.22, arrowGrey)
			}
		}
	})
	layer("grid", func() {
		side := cell * float64(l.n)
		for i := 0; i <= l.n; i++ {
			w := 1.0
			if i%l.k == 0 {
				w = 2.6
			}
			v := float64(i) * cell
			c.Polyline([]canvas.Pt{{X: l.x0, Y: l.y0 + v}, {X: l.x0 + side, Y: l.y0 + v}}, ink, w, nil)
			c.Polyline([]canvas.Pt{{X: l.x0 + v, Y: l.y0}, {X: l.x0 + v, Y: l.y0 + side}}, ink, w, nil)
		}
	})
	layer("killer-cages", func() {
		for _, k := range p.Killers {
			drawCage(c, l, k)
		}
	})
	layer("little-killers", func() {
		for _, s := range p.LittleKiller {
			drawLittleKiller(c, l, s)
		}
	})
	layer("kropki-xv", func() {
		for _, d := range p.Ratios {
			m := edgeMiddle(l, d)
			c.Circle(m.X, m.Y, cell*0.12, ink, ink, 1)
		}
		for _, d := range p.Differences {
			m := edgeMiddle(l, d)
			c.Circle(m.X, m.Y, cell*0.12, paper, ink, 1.2)
		}
		for _, d := range p.XV {
			m := edgeMiddle(l, d)
			mark := "X"
			if d.Value == 5 {
				mark = "V"
			}
			c.FillRect(m.X-cell*0.15, m.Y-cell*0.15, cell*0.3, cell*0.3, paper)
			c.Text(m.X, m.Y, mark, canvas.Text{Size: cell * 0.32, Anchor: canvas.Middle, Centred: true, Bold: true, Color: ink})
		}
	})
	layer("quadruples", func() {
		for _, q := range p.Quadruples {
			corner := quadCorner(l, q.Cells)
			c.Circle(corner.X, corner.Y, cell*0.3, paper, ink, 1)
			ds := make([]string, len(q.Digits))
			for i, d := range q.Digits {
				ds[i] = sudoku.Symbol(d, l.n)
			}
			size := cell * 0.22
			if len(ds) > 2 {
				size = cell * 0.17
			}
			c.Text(corner.X, corner.Y, strings.Join(ds, " "), canvas.Text{Size: size, Anchor: canvas.Middle, Centred: true, Color: ink})
		}
	})
	layer("digits", func() {
		font := cell * 0.6
		if l.n > 9 {
			font = cell / 2
		}
		for x := 0; x < l.n*l.n; x++ {
			d, col, bold := p.Grid.Cells[x], ink, true
			if d == 0 && sol != nil {
				d, col, bold = sol.Cells[x], solvedInk, false
			}
			if d == 0 {
				continue
			}
			pt := l.center(x)
			c.Text(pt.X, pt.Y+cell*0.04, sudoku.Symbol(d, l.n), canvas.Text{Size: font, Anchor: canvas.Middle, Centred: true, Bold: bold, Color: col})
		}
	})
	layer("rules", func() {
		y := l.y0 + cell*float64(l.n) + l.margin + 12
		for _, line := range l.caption {
			c.Text(l.width/2, y, line, canvas.Text{Size: captionSize, Anchor: canvas.Middle, Color: ink})
			y += 15
		}
	})
}

// wrap cuts text into lines of at most width points (a word longer
// than that stands alone).
func wrap(text string, size, width float64) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && canvas.TextWidth(line+" "+w, size) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// drawnRegions are the extra regions that are drawn shaded: not the
// disjoint groups, which a caption names.
func (p *Puzzle) drawnRegions() [][]int {
	if !p.Disjoint {
		return p.Extra
	}
	groups := disjointGroups(p.Grid.Box)
	var out [][]int
	for _, r := range p.Extra {
		if !slices.ContainsFunc(groups, func(g []int) bool { return slices.Equal(g, r) }) {
			out = append(out, r)
		}
	}
	return out
}

// drawCage draws a killer cage: a dashed outline inside its cells, each
// edge of a cell whose neighbour across it is not in the cage, and its
// sum in the corner of its top-left cell.
func drawCage(c canvas.Canvas, l picLayout, k Sum) {
	in := map[int]bool{}
	for _, x := range k.Cells {
		in[x] = true
	}
	n, cell := l.n, l.cell
	inset := cell * 0.1
	dash := []float64{cell * 0.12, cell * 0.08}
	for _, x := range k.Cells {
		r, col := x/n, x%n
		left, top := l.x0+float64(col)*cell, l.y0+float64(r)*cell
		right, bottom := left+cell, top+cell
		has := func(dr, dc int) bool {
			rr, cc := r+dr, col+dc
			return rr >= 0 && rr < n && cc >= 0 && cc < n && in[rr*n+cc]
		}
		// each boundary side inset; where the cage goes on beside it, the
		// line meets the next cell's line: at the cell's edge, or past it
		// by the inset where the cage turns a corner inwards (the cell
		// across the corner is in the cage too)
		reach := func(along, diag bool) float64 {
			switch {
			case !along:
				return -inset
			case diag:
				return inset
			}
			return 0
		}
		hline := func(y float64, dr int) {
			x1 := left - reach(has(0, -1), has(dr, -1))
			x2 := right + reach(has(0, 1), has(dr, 1))
			c.Polyline([]canvas.Pt{{X: x1, Y: y}, {X: x2, Y: y}}, ink, 1, dash)
		}
		vline := func(x float64, dc int) {
			y1 := top - reach(has(-1, 0), has(-1, dc))
			y2 := bottom + reach(has(1, 0), has(1, dc))
			c.Polyline([]canvas.Pt{{X: x, Y: y1}, {X: x, Y: y2}}, ink, 1, dash)
		}
		if !has(-1, 0) {
			hline(top+inset, -1)
		}
		if !has(1, 0) {
			hline(bottom-inset, 1)
		}
		if !has(0, -1) {
			vline(left+inset, -1)
		}
		if !has(0, 1) {
			vline(right-inset, 1)
		}
	}
	if k.Sum > 0 {
		first := slices.Min(k.Cells)
		left, top := l.x0+float64(first%n)*cell, l.y0+float64(first/n)*cell
		label := fmt.Sprint(k.Sum)
		size := cell * 0.28
		c.FillRect(left+inset*0.4, top+inset*0.4, canvas.TextWidth(label, size)+2, size+1, paper)
		c.Text(left+inset*0.4+1, top+inset*0.4+size*0.85, label, canvas.Text{Size: size, Color: ink})
	}
}

// drawLittleKiller writes a little killer sum outside the grid, one step
// before the first cell of its diagonal, with an arrow along it.
func drawLittleKiller(c canvas.Canvas, l picLayout, s Sum) {
	if len(s.Cells) == 0 {
		return
	}
	a := l.center(s.Cells[0])
	dx, dy := l.cell, l.cell // the diagonal's direction, from its cells
	if len(s.Cells) > 1 {
		b := l.center(s.Cells[1])
		dx, dy = b.X-a.X, b.Y-a.Y
	}
	at := canvas.Pt{X: a.X - dx*0.85, Y: a.Y - dy*0.85}
	c.Text(at.X, at.Y, fmt.Sprint(s.Sum), canvas.Text{Size: l.cell * 0.32, Anchor: canvas.Middle, Centred: true, Color: ink})
	from := canvas.Pt{X: at.X + dx*0.3, Y: at.Y + dy*0.3}
	to := canvas.Pt{X: at.X + dx*0.5, Y: at.Y + dy*0.5}
	c.Polyline([]canvas.Pt{from, to}, ink, 1, nil)
	arrowHead(c, from, to, l.cell*0.12, ink)
}

// edgeMiddle is the middle of the edge between a pair's two cells.
func edgeMiddle(l picLayout, d Pair) canvas.Pt {
	a, b := l.center(d.A), l.center(d.B)
	return canvas.Pt{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
}

// quadCorner is the corner the cells of a quadruple share: the middle of
// their centres.
func quadCorner(l picLayout, cells []int) canvas.Pt {
	var x, y float64
	for _, pt := range l.centers(cells) {
		x, y = x+pt.X, y+pt.Y
	}
	return canvas.Pt{X: x / float64(len(cells)), Y: y / float64(len(cells))}
}

// edgeOf is the point at distance r from o towards p.
func edgeOf(o, p canvas.Pt, r float64) canvas.Pt {
	dx, dy := p.X-o.X, p.Y-o.Y
	d := max(1e-9, math.Hypot(dx, dy))
	return canvas.Pt{X: o.X + dx/d*r, Y: o.Y + dy/d*r}
}

// arrowHead draws a filled head at to, pointing away from from.
func arrowHead(c canvas.Canvas, from, to canvas.Pt, size float64, col color.RGBA) {
	dx, dy := to.X-from.X, to.Y-from.Y
	d := max(1e-9, math.Hypot(dx, dy))
	ux, uy := dx/d, dy/d
	back := canvas.Pt{X: to.X - ux*size, Y: to.Y - uy*size}
	c.Polygon([]canvas.Pt{to, {X: back.X - uy*size*0.6, Y: back.Y + ux*size*0.6}, {X: back.X + uy*size*0.6, Y: back.Y - ux*size*0.6}}, col)
}
