package canvas

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Raster draws into an image: strokes and fills through x/image/vector's
// anti-aliasing rasteriser, text in the Go fonts (parsed when a picture
// is drawn, not at start-up). A point is scale pixels.
type Raster struct {
	img      *image.RGBA
	pngScale float64
	fonts    [2]*opentype.Font // regular, bold
	faces    map[faceKey]font.Face
	z        vector.Rasterizer
}

type faceKey struct {
	size float64
	bold bool
}

// NewRaster starts a white w×h-point picture, scale pixels a point.
func NewRaster(w, h, scale float64) (*Raster, error) {
	var fonts [2]*opentype.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, err
		}
		fonts[i] = f
	}
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(w*scale)), int(math.Ceil(h*scale))))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	return &Raster{img: img, pngScale: scale, fonts: fonts, faces: map[faceKey]font.Face{}}, nil
}

// WritePNG writes the picture as PNG.
func (r *Raster) WritePNG(w io.Writer) error { return png.Encode(w, r.img) }

// Image is the picture drawn so far.
func (r *Raster) Image() *image.RGBA { return r.img }

func (r *Raster) face(size float64, bold bool) (font.Face, error) {
	k := faceKey{size, bold}
	if f, ok := r.faces[k]; ok {
		return f, nil
	}
	fo := r.fonts[0]
	if bold {
		fo = r.fonts[1]
	}
	f, err := opentype.NewFace(fo, &opentype.FaceOptions{Size: size * r.pngScale, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	r.faces[k] = f
	return f, nil
}

// fill rasterises the closed polygons (all wound the same way, so that
// overlaps add up instead of cancelling) in colour c.
func (r *Raster) fill(polys [][]Pt, c color.RGBA) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range polys {
		for _, p := range poly {
			minX, minY = min(minX, p.X*r.pngScale), min(minY, p.Y*r.pngScale)
			maxX, maxY = max(maxX, p.X*r.pngScale), max(maxY, p.Y*r.pngScale)
		}
	}
	b := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(r.img.Bounds())
	if b.Empty() {
		return
	}
	r.z.Reset(b.Dx(), b.Dy())
	for _, poly := range polys {
		for i, p := range poly {
			x, y := float32(p.X*r.pngScale-float64(b.Min.X)), float32(p.Y*r.pngScale-float64(b.Min.Y))
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
func dashed(pts []Pt, dash []float64) [][]Pt {
	if len(dash) == 0 {
		return [][]Pt{pts}
	}
	var out [][]Pt
	var cur []Pt
	k, left, on := 0, dash[0], true
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := math.Hypot(b.X-a.X, b.Y-a.Y)
		pos := 0.0
		for seg-pos > 1e-9 {
			step := min(left, seg-pos)
			t0, t1 := pos/seg, (pos+step)/seg
			p0 := Pt{a.X + (b.X-a.X)*t0, a.Y + (b.Y-a.Y)*t0}
			p1 := Pt{a.X + (b.X-a.X)*t1, a.Y + (b.Y-a.Y)*t1}
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

// Polyline strokes pts.
func (r *Raster) Polyline(pts []Pt, c color.RGBA, width float64, dash []float64) {
	hw := width / 2
	var polys [][]Pt
	for _, piece := range dashed(pts, dash) {
		for i := 1; i < len(piece); i++ {
			a, b := piece[i-1], piece[i]
			l := math.Hypot(b.X-a.X, b.Y-a.Y)
			if l == 0 {
				continue
			}
			nx, ny := -(b.Y-a.Y)/l*hw, (b.X-a.X)/l*hw
			polys = append(polys, []Pt{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}})
			if i > 1 { // a round join: an octagon wound like the quads
				var oct []Pt
				for k := 8; k > 0; k-- {
					t := float64(k) * math.Pi / 4
					oct = append(oct, Pt{a.X + hw*math.Cos(t), a.Y + hw*math.Sin(t)})
				}
				polys = append(polys, oct)
			}
		}
	}
	if len(polys) > 0 {
		r.fill(polys, c)
	}
}

// FillRect fills a rectangle.
func (r *Raster) FillRect(x, y, w, h float64, c color.RGBA) {
	r.fill([][]Pt{{{x, y}, {x, y + h}, {x + w, y + h}, {x + w, y}}}, c)
}

// Polygon fills a closed polygon.
func (r *Raster) Polygon(pts []Pt, c color.RGBA) { r.fill([][]Pt{pts}, c) }

// Circle fills and strokes a circle.
func (r *Raster) Circle(cx, cy, rad float64, fill, stroke color.RGBA, width float64) {
	if fill.A != 0 {
		r.fill([][]Pt{circle(cx, cy, rad, 48)}, fill)
	}
	if width > 0 {
		pts := circle(cx, cy, rad, 48)
		r.Polyline(append(pts, pts[0], pts[1]), stroke, width, nil)
	}
}

// Text draws s.
func (r *Raster) Text(x, y float64, s string, t Text) {
	face, err := r.face(t.Size, t.Bold)
	if err != nil {
		return
	}
	d := font.Drawer{Face: face, Src: image.NewUniform(t.Color)}
	adv := d.MeasureString(s).Ceil()
	shift := 0
	switch t.Anchor {
	case Middle:
		shift = adv / 2
	case End:
		shift = adv
	}
	px, py := int(math.Round(x*r.pngScale)), int(math.Round(y*r.pngScale))
	if t.Centred {
		m := face.Metrics()
		py += (m.Ascent.Ceil() - m.Descent.Ceil()) / 2
	}
	if !t.Vertical {
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
