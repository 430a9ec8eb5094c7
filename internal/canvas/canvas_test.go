package canvas

import (
	"encoding/xml"
	"image/color"
	"io"
	"math"
	"strings"
	"testing"
)

// TestDashed: a dash pattern draws its share of a line, piece by piece.
func TestDashed(t *testing.T) {
	line := []Pt{{0, 0}, {50, 0}, {50, 50}} // 100 long, turning once
	pieces := dashed(line, []float64{6, 2})
	drawn := 0.0
	for _, p := range pieces {
		for i := 1; i < len(p); i++ {
			drawn += math.Hypot(p[i].X-p[i-1].X, p[i].Y-p[i-1].Y)
		}
	}
	// twelve periods of 8 draw 72, the last 4 are drawn too
	if len(pieces) != 13 || math.Abs(drawn-76) > 1e-6 {
		t.Errorf("%d pieces drawing %.3f, want 13 drawing 76", len(pieces), drawn)
	}
	if got := dashed(line, nil); len(got) != 1 || len(got[0]) != 3 {
		t.Errorf("no dashes: %v", got)
	}
}

// TestBackends: the same drawing makes a well-formed SVG with each
// element, and a PNG whose pixels are where the shapes are.
func TestBackends(t *testing.T) {
	red := color.RGBA{0xff, 0, 0, 0xff}
	blue := color.RGBA{0, 0, 0xff, 0xff}
	draw := func(c Canvas) {
		c.FillRect(0, 0, 10, 10, red)
		c.Circle(30, 30, 5, blue, red, 1)
		c.Polygon([]Pt{{40, 0}, {50, 0}, {45, 10}}, blue)
		c.Polyline([]Pt{{0, 45}, {50, 45}}, red, 2, []float64{3, 1})
		c.Text(25, 20, "a<b", Text{Size: 8, Anchor: Middle, Bold: true, Centred: true, Color: blue})
	}
	s := NewSVG(50, 50)
	draw(s)
	var b strings.Builder
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(b.String()))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well-formed: %v\n%s", err, b.String())
		}
	}
	for _, want := range []string{"<rect", "<circle", "<polygon", `stroke-dasharray="3.00 1.00"`, `font-weight="bold"`, "a&lt;b", `dominant-baseline="central"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the SVG lacks %s", want)
		}
	}
	r, err := NewRaster(50, 50, 2)
	if err != nil {
		t.Fatal(err)
	}
	draw(r)
	img := r.Image()
	if got := img.RGBAAt(10, 10); got != red {
		t.Errorf("inside the rectangle: %v", got)
	}
	if got := img.RGBAAt(60, 60); got != blue {
		t.Errorf("inside the circle: %v", got)
	}
	if got := img.RGBAAt(98, 98); got != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("outside everything: %v", got)
	}
	if b := img.Bounds(); b.Dx() != 100 || b.Dy() != 100 {
		t.Errorf("bounds %v", b)
	}
}
