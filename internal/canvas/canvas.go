// Package canvas is a small vector canvas with two backends, an SVG writer
// and a PNG rasteriser, for the pictures htnsat draws (the comparison
// charts, the puzzles and their clues): the same drawing code makes both
// files, and neither needs a plotting library whose fonts are parsed at
// start-up. Coordinates are in points, origin at the top left, y growing
// downwards.
package canvas

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
)

// Pt is a point.
type Pt struct{ X, Y float64 }

// Anchor is where a text's reference point lies along the text.
type Anchor int

const (
	Start Anchor = iota
	Middle
	End
)

// Text is how a text is drawn.
type Text struct {
	Size     float64
	Anchor   Anchor
	Vertical bool // reads upwards, the anchor running along the rotated baseline
	Bold     bool
	Color    color.RGBA
	// Centred puts the text's middle, not its baseline, through y
	Centred bool
}

// Canvas is what the drawing code draws on.
type Canvas interface {
	// Polyline strokes the points with butt ends and round joins; dash,
	// when not empty, alternates drawn and skipped lengths.
	Polyline(pts []Pt, c color.RGBA, width float64, dash []float64)
	// Polygon fills the closed polygon.
	Polygon(pts []Pt, c color.RGBA)
	FillRect(x, y, w, h float64, c color.RGBA)
	// Circle fills a circle (fill's alpha 0: not filled) and strokes its
	// outline (width 0: none).
	Circle(cx, cy, r float64, fill, stroke color.RGBA, width float64)
	Text(x, y float64, s string, t Text)
}

// TextWidth estimates the advance of s in a sans-serif face: the layout
// must not depend on the fonts of whoever views the SVG.
func TextWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("il.,:;|!'", r):
			w += 0.28
		case strings.ContainsRune("fjrt() -", r):
			w += 0.36
		case r == 'm' || r == 'w' || r == 'M' || r == 'W':
			w += 0.86
		case r >= 'A' && r <= 'Z':
			w += 0.68
		default:
			w += 0.56
		}
	}
	return w * size
}

// circle is a circle as a polygon of n points.
func circle(cx, cy, r float64, n int) []Pt {
	pts := make([]Pt, n)
	for i := range pts {
		t := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = Pt{cx + r*math.Cos(t), cy + r*math.Sin(t)}
	}
	return pts
}

// SVG writes SVG elements; Write wraps them into a document.
type SVG struct {
	w, h float64
	b    strings.Builder
}

// NewSVG starts an SVG document of w×h points.
func NewSVG(w, h float64) *SVG { return &SVG{w: w, h: h} }

// Write writes the document.
func (s *SVG) Write(w io.Writer) error {
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%spt" height="%spt" viewBox="0 0 %s %s" font-family="'Go', 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif">`+"\n%s</svg>\n",
		num(s.w), num(s.h), num(s.w), num(s.h), s.b.String())
	return err
}

// Raw adds an SVG element as it is (a group's start and end, a class).
func (s *SVG) Raw(el string) { s.b.WriteString(el + "\n") }

// Hex is a colour as #rrggbb.
func Hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func num(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func (s *SVG) opacity(c color.RGBA) string {
	if c.A == 0xff {
		return ""
	}
	return fmt.Sprintf(` opacity="%s"`, num(float64(c.A)/255))
}

func points(pts []Pt) string {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.X) + "," + num(p.Y))
	}
	return b.String()
}

func (s *SVG) Polyline(pts []Pt, c color.RGBA, width float64, dash []float64) {
	fmt.Fprintf(&s.b, `<polyline fill="none" stroke-linejoin="round" points="%s" stroke="%s" stroke-width="%s"%s`, points(pts), Hex(c), num(width), s.opacity(c))
	if len(dash) > 0 {
		var ds []string
		for _, d := range dash {
			ds = append(ds, num(d))
		}
		fmt.Fprintf(&s.b, ` stroke-dasharray="%s"`, strings.Join(ds, " "))
	}
	s.b.WriteString("/>\n")
}

func (s *SVG) Polygon(pts []Pt, c color.RGBA) {
	fmt.Fprintf(&s.b, "<polygon points=\"%s\" fill=\"%s\"%s/>\n", points(pts), Hex(c), s.opacity(c))
}

func (s *SVG) FillRect(x, y, w, h float64, c color.RGBA) {
	fmt.Fprintf(&s.b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"%s/>\n", num(x), num(y), num(w), num(h), Hex(c), s.opacity(c))
}

func (s *SVG) Circle(cx, cy, r float64, fill, stroke color.RGBA, width float64) {
	fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s"`, num(cx), num(cy), num(r))
	if fill.A == 0 {
		s.b.WriteString(` fill="none"`)
	} else {
		fmt.Fprintf(&s.b, ` fill="%s"`, Hex(fill))
		if fill.A != 0xff {
			fmt.Fprintf(&s.b, ` fill-opacity="%s"`, num(float64(fill.A)/255))
		}
	}
	if width > 0 {
		fmt.Fprintf(&s.b, ` stroke="%s" stroke-width="%s"`, Hex(stroke), num(width))
	}
	s.b.WriteString("/>\n")
}

var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func (s *SVG) Text(x, y float64, str string, t Text) {
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" font-size="%s" fill="%s"`, num(x), num(y), num(t.Size), Hex(t.Color))
	switch t.Anchor {
	case Middle:
		s.b.WriteString(` text-anchor="middle"`)
	case End:
		s.b.WriteString(` text-anchor="end"`)
	}
	if t.Centred {
		s.b.WriteString(` dominant-baseline="central"`)
	}
	if t.Bold {
		s.b.WriteString(` font-weight="bold"`)
	}
	if t.Vertical {
		fmt.Fprintf(&s.b, ` transform="rotate(-90 %s %s)"`, num(x), num(y))
	}
	s.b.WriteString(">" + xmlText.Replace(str) + "</text>\n")
}
