package report

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// pngScale is the number of pixels per point of a PNG chart.
const pngScale = 2

// rasterCanvas draws the charts into an image: strokes and rectangles
// through x/image/vector's anti-aliasing rasteriser, text in the Go font
// (parsed when a PNG is drawn, not at start-up).
type rasterCanvas struct {
	img   *image.RGBA
	font  *opentype.Font
	faces map[float64]font.Face
	z     vector.Rasterizer
}

func newRasterCanvas() (*rasterCanvas, error) {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, chartWidth*pngScale, chartHeight*pngScale))
	return &rasterCanvas{img: img, font: f, faces: map[float64]font.Face{}}, nil
}

func (r *rasterCanvas) face(size float64) (font.Face, error) {
	if f, ok := r.faces[size]; ok {
		return f, nil
	}
	f, err := opentype.NewFace(r.font, &opentype.FaceOptions{Size: size * pngScale, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	r.faces[size] = f
	return f, nil
}

// fill rasterises the closed polygons (all wound the same way, so that
// overlaps add up instead of cancelling) in colour c.
func (r *rasterCanvas) fill(polys [][]pt, c color.RGBA) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range polys {
		for _, p := range poly {
			minX, minY = min(minX, p.x*pngScale), min(minY, p.y*pngScale)
			maxX, maxY = max(maxX, p.x*pngScale), max(maxY, p.y*pngScale)
		}
	}
	b := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(r.img.Bounds())
	if b.Empty() {
		return
	}
	r.z.Reset(b.Dx(), b.Dy())
	for _, poly := range polys {
		for i, p := range poly {
			x, y := float32(p.x*pngScale-float64(b.Min.X)), float32(p.y*pngScale-float64(b.Min.Y))
			if i == 0 {
				r.z.MoveTo(x, y)
			} else {
				r.z.LineTo(x, y)
			}
		}
		r.z.ClosePath()
	}
	r.z.Draw(r.img, b, image.NewUniform(c), image.Point{})
}

// dashed cuts the polyline into the pieces the dash pattern draws.
func dashed(pts []pt, dash []float64) [][]pt {
	if len(dash) == 0 {
		return [][]pt{pts}
	}
	var out [][]pt
	var cur []pt
	k, left, on := 0, dash[0], true
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		pos := 0.0
		for seg-pos > 1e-9 {
			step := min(left, seg-pos)
			t0, t1 := pos/seg, (pos+step)/seg
			p0 := pt{a.x + (b.x-a.x)*t0, a.y + (b.y-a.y)*t0}
			p1 := pt{a.x + (b.x-a.x)*t1, a.y + (b.y-a.y)*t1}
			if on {
				if len(cur) == 0 {
					cur = append(cur, p0)
				}
				cur = append(cur, p1)
			}
			pos += step
			left -= step
			if left <= 1e-9 {
				if on && len(cur) > 1 {
					out = append(out, cur)
				}
				cur = nil
				on = !on
				k = (k + 1) % len(dash)
				left = dash[k]
			}
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

func (r *rasterCanvas) polyline(pts []pt, c color.RGBA, width float64, dash []float64) {
	hw := width / 2
	var polys [][]pt
	for _, piece := range dashed(pts, dash) {
		for i := 1; i < len(piece); i++ {
			a, b := piece[i-1], piece[i]
			l := math.Hypot(b.x-a.x, b.y-a.y)
			if l == 0 {
				continue
			}
			nx, ny := -(b.y-a.y)/l*hw, (b.x-a.x)/l*hw
			polys = append(polys, []pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
			if i > 1 { // a round join: an octagon wound like the quads
				var oct []pt
				for k := 8; k > 0; k-- {
					t := float64(k) * math.Pi / 4
					oct = append(oct, pt{a.x + hw*math.Cos(t), a.y + hw*math.Sin(t)})
				}
				polys = append(polys, oct)
			}
		}
	}
	if len(polys) > 0 {
		r.fill(polys, c)
	}
}

func (r *rasterCanvas) fillRect(x, y, w, h float64, c color.RGBA) {
	r.fill([][]pt{{{x, y}, {x, y + h}, {x + w, y + h}, {x + w, y}}}, c)
}

func (r *rasterCanvas) text(x, y float64, s string, size float64, a anchor, vertical bool, c color.RGBA) {
	face, err := r.face(size)
	if err != nil {
		return
	}
	d := font.Drawer{Face: face, Src: image.NewUniform(c)}
	adv := d.MeasureString(s).Ceil()
	shift := 0
	switch a {
	case atMiddle:
		shift = adv / 2
	case atEnd:
		shift = adv
	}
	px, py := int(math.Round(x*pngScale)), int(math.Round(y*pngScale))
	if !vertical {
		d.Dst = r.img
		d.Dot = fixed.P(px-shift, py)
		d.DrawString(s)
		return
	}
	// draw level into a scratch image, then turn it a quarter left
	m := face.Metrics()
	asc, desc := m.Ascent.Ceil(), m.Descent.Ceil()
	tmp := image.NewRGBA(image.Rect(0, 0, adv, asc+desc))
	d.Dst = tmp
	d.Dot = fixed.P(0, asc)
	d.DrawString(s)
	for ty := 0; ty < asc+desc; ty++ {
		for tx := 0; tx < adv; tx++ {
			src := tmp.RGBAAt(tx, ty)
			if src.A == 0 {
				continue
			}
			// (tx, ty) lies shift-tx before the anchor along the text and
			// asc-ty above the baseline; turned, that is up and left
			dx, dy := px+(ty-asc), py-(tx-shift)
			if !(image.Point{dx, dy}).In(r.img.Bounds()) {
				continue
			}
			dst := r.img.RGBAAt(dx, dy)
			ia := 255 - uint32(src.A)
			blend := func(s, d uint8) uint8 { return uint8(uint32(s) + uint32(d)*ia/255) }
			r.img.SetRGBA(dx, dy, color.RGBA{blend(src.R, dst.R), blend(src.G, dst.G), blend(src.B, dst.B), blend(src.A, dst.A)})
		}
	}
}

// writePNG draws the charts as a PNG image.
func writePNG(w io.Writer, ss []series, bars []stack, stages []string) error {
	r, err := newRasterCanvas()
	if err != nil {
		return err
	}
	draw.Draw(r.img, r.img.Bounds(), image.White, image.Point{}, draw.Src)
	drawCharts(r, ss, bars, stages)
	return png.Encode(w, r.img)
}
