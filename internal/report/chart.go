package report

import (
	"image/color"
	"io"
	"math"
	"strconv"

	"github.com/htnsat/htnsat/internal/canvas"
)

// The two charts of Plot are drawn on a small vector canvas of our own
// rather than through a plotting library: gonum/plot parsed its fonts in
// package initialisation, which every htnsat process paid at start-up
// whether or not it drew anything (internal/canvas: an SVG writer and a
// PNG rasteriser). Coordinates are in points, origin at the top left, y
// growing downwards.

var (
	black    = color.RGBA{0x22, 0x22, 0x22, 0xff}
	gridGray = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
	white    = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// lineColor is an engine's colour in the cactus plot.
func lineColor(i int) color.RGBA {
	palette := []color.RGBA{
		{0xf1, 0x5a, 0x60, 0xff}, {0x5a, 0xa8, 0x4e, 0xff}, {0x5a, 0x9b, 0xd4, 0xff},
		{0xfa, 0xa7, 0x5b, 0xff}, {0x9e, 0x67, 0xab, 0xff}, {0xce, 0x70, 0x58, 0xff},
	}
	return palette[i%len(palette)]
}

// lineDash is a grid size's dash pattern in the cactus plot.
func lineDash(i int) []float64 {
	dashes := [][]float64{nil, {6, 2}, {1.5, 2}, {6, 2, 1.5, 2}}
	return dashes[i%len(dashes)]
}

// stageColor is a stage's colour in the stacked bars: seven stages, seven
// colours.
func stageColor(i int) color.RGBA {
	palette := []color.RGBA{
		{0x4c, 0x72, 0xb0, 0xff}, {0xdd, 0x84, 0x52, 0xff}, {0x55, 0xa8, 0x68, 0xff},
		{0xc4, 0x4e, 0x52, 0xff}, {0x81, 0x72, 0xb3, 0xff}, {0x93, 0x78, 0x60, 0xff},
		{0xda, 0x8b, 0xc3, 0xff},
	}
	return palette[i%len(palette)]
}

// series is one line of the cactus plot: the sorted times of one engine on
// one grid size.
type series struct {
	label string
	ys    []float64
	color color.RGBA
	dash  []float64
}

// stack is one bar of the stage chart.
type stack struct {
	engine, size string
	values       []float64 // per stage
}

const (
	titleSize  = 13
	labelSize  = 11
	tickSize   = 10
	legendSize = 10
)

type box struct{ left, top, right, bottom float64 }

func (b box) width() float64  { return b.right - b.left }
func (b box) height() float64 { return b.bottom - b.top }

// niceStep is the step among 1, 2 and 5 times a power of ten that cuts
// [0, hi] into at most about n parts.
func niceStep(hi float64, n int) float64 {
	if hi <= 0 {
		return 1
	}
	raw := hi / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// tickLabel prints v with as many decimals as step needs.
func tickLabel(v, step float64) string {
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// drawLegend lists entries top-down from (x, y); mark draws each entry's
// key in the 18-point-wide square before its label.
func drawLegend(c canvas.Canvas, x, y float64, labels []string, mark func(i int, x, y float64)) {
	for i, l := range labels {
		ly := y + float64(i)*15
		mark(i, x, ly)
		text(c, x+24, ly+4, l, legendSize, canvas.Start, false, black)
	}
}

func legendWidth(labels []string) float64 {
	w := 0.0
	for _, l := range labels {
		w = max(w, canvas.TextWidth(l, legendSize))
	}
	return 24 + w + 8
}

// drawCactus draws the number of puzzles solved against the time each took
// (log scale) into the panel p.
func drawCactus(c canvas.Canvas, p box, ss []series) {
	text(c, (p.left+p.right)/2, p.top+14, "Puzzles solved against time per puzzle", titleSize, canvas.Middle, false, black)
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, s := range ss {
		for _, y := range s.ys {
			lo, hi = min(lo, y), max(hi, y)
		}
		n = max(n, len(s.ys))
	}
	if n == 0 {
		lo, hi = 1, 10
	}
	d0, d1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if d1 <= d0 {
		d1 = d0 + 1
	}
	var ticks []float64 // labelled
	var minor []float64
	for d := d0; d <= d1; d++ {
		base := math.Pow(10, d)
		ticks = append(ticks, base)
		if d < d1 {
			for m := 2.0; m < 10; m++ {
				if d1-d0 == 1 && (m == 2 || m == 5) {
					ticks = append(ticks, m*base)
				} else {
					minor = append(minor, m*base)
				}
			}
		}
	}
	label := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	tickW := 0.0
	for _, v := range ticks {
		tickW = max(tickW, canvas.TextWidth(label(v), tickSize))
	}
	var labels []string
	for _, s := range ss {
		labels = append(labels, s.label)
	}
	a := box{left: p.left + 18 + tickW + 8, top: p.top + 30, right: p.right - legendWidth(labels) - 8, bottom: p.bottom - 34}
	yOf := func(v float64) float64 {
		return a.bottom - (math.Log10(v)-d0)/(d1-d0)*a.height()
	}
	xmax := float64(max(n, 1))
	xOf := func(k float64) float64 { return a.left + k/xmax*a.width() }
	for _, v := range ticks {
		y := yOf(v)
		polyline(c, []pt{{a.left, y}, {a.right, y}}, gridGray, 0.8, nil)
		polyline(c, []pt{{a.left - 4, y}, {a.left, y}}, black, 0.8, nil)
		text(c, a.left-6, y+3.5, label(v), tickSize, canvas.End, false, black)
	}
	for _, v := range minor {
		y := yOf(v)
		polyline(c, []pt{{a.left - 2, y}, {a.left, y}}, black, 0.6, nil)
	}
	step := niceStep(xmax, 6)
	for k := 0.0; k <= xmax+1e-9; k += step {
		x := xOf(k)
		polyline(c, []pt{{x, a.bottom}, {x, a.bottom + 4}}, black, 0.8, nil)
		text(c, x, a.bottom+15, tickLabel(k, step), tickSize, canvas.Middle, false, black)
	}
	polyline(c, []pt{{a.left, a.top}, {a.left, a.bottom}, {a.right, a.bottom}}, black, 0.8, nil)
	text(c, (a.left+a.right)/2, p.bottom-4, "puzzles solved", labelSize, canvas.Middle, false, black)
	text(c, p.left+11, (a.top+a.bottom)/2, "time per puzzle (ms, log scale)", labelSize, canvas.Middle, true, black)
	for _, s := range ss {
		pts := make([]pt, len(s.ys))
		for k, y := range s.ys {
			pts[k] = pt{xOf(float64(k + 1)), yOf(y)}
		}
		if len(pts) == 1 { // a single puzzle: a short mark
			pts = []pt{{pts[0].x - 3, pts[0].y}, {pts[0].x + 3, pts[0].y}}
		}
		polyline(c, pts, s.color, 1.5, s.dash)
	}
	drawLegend(c, a.right+12, a.top+6, labels, func(i int, x, y float64) {
		polyline(c, []pt{{x, y}, {x + 18, y}}, ss[i].color, 1.5, ss[i].dash)
	})
}

// drawStages draws the mean time of each stage per engine and grid size,
// stacked, into the panel p.
func drawStages(c canvas.Canvas, p box, bars []stack, stages []string) {
	text(c, (p.left+p.right)/2, p.top+14, "Mean time per stage (solved puzzles)", titleSize, canvas.Middle, false, black)
	top := 0.0
	for _, b := range bars {
		sum := 0.0
		for _, v := range b.values {
			sum += v
		}
		top = max(top, sum)
	}
	step := niceStep(top, 5)
	hi := math.Ceil(top/step-1e-9) * step
	if hi <= 0 {
		hi = step
	}
	tickW := 0.0
	for v := 0.0; v <= hi+step/2; v += step {
		tickW = max(tickW, canvas.TextWidth(tickLabel(v, step), tickSize))
	}
	// the legend lists the stages top-down as they stack
	labels := make([]string, len(stages))
	for i, s := range stages {
		labels[len(stages)-1-i] = s
	}
	a := box{left: p.left + 18 + tickW + 8, top: p.top + 30, right: p.right - legendWidth(labels) - 8}
	slot := a.width() / float64(max(len(bars), 1))
	// two lines under each bar when they fit, else one line read upwards
	vertical := false
	labelH := 2*tickSize + 6.0
	for _, b := range bars {
		if max(canvas.TextWidth(b.engine, tickSize), canvas.TextWidth(b.size, tickSize)) > slot-4 {
			vertical = true
		}
	}
	if vertical {
		labelH = 0
		for _, b := range bars {
			labelH = max(labelH, canvas.TextWidth(b.engine+" "+b.size, tickSize)+8)
		}
	}
	a.bottom = p.bottom - labelH - 6
	yOf := func(v float64) float64 { return a.bottom - v/hi*a.height() }
	for v := 0.0; v <= hi+step/2; v += step {
		y := yOf(v)
		polyline(c, []pt{{a.left, y}, {a.right, y}}, gridGray, 0.8, nil)
		polyline(c, []pt{{a.left - 4, y}, {a.left, y}}, black, 0.8, nil)
		text(c, a.left-6, y+3.5, tickLabel(v, step), tickSize, canvas.End, false, black)
	}
	barW := min(40, slot*0.7)
	for i, b := range bars {
		cx := a.left + (float64(i)+0.5)*slot
		base := 0.0
		for si, v := range b.values {
			if v <= 0 {
				continue
			}
			y0, y1 := yOf(base), yOf(base+v)
			c.FillRect(cx-barW/2, y1, barW, y0-y1, stageColor(si))
			base += v
		}
		if vertical {
			text(c, cx+3.5, a.bottom+6, b.engine+" "+b.size, tickSize, canvas.End, true, black)
		} else {
			text(c, cx, a.bottom+13, b.engine, tickSize, canvas.Middle, false, black)
			text(c, cx, a.bottom+13+tickSize+2, b.size, tickSize, canvas.Middle, false, black)
		}
	}
	polyline(c, []pt{{a.left, a.top}, {a.left, a.bottom}, {a.right, a.bottom}}, black, 0.8, nil)
	text(c, p.left+11, (a.top+a.bottom)/2, "ms", labelSize, canvas.Middle, true, black)
	drawLegend(c, a.right+12, a.top+6, labels, func(i int, x, y float64) {
		c.FillRect(x+4, y-5, 10, 10, stageColor(len(stages)-1-i))
	})
}

// chartWidth and chartHeight are the size of Plot's picture in points.
const chartWidth, chartHeight = 900, 360

// drawCharts draws both panels side by side on a white background.
func drawCharts(c canvas.Canvas, ss []series, bars []stack, stages []string) {
	c.FillRect(0, 0, chartWidth, chartHeight, white)
	half := chartWidth / 2.0
	drawCactus(c, box{left: 10, top: 8, right: half - 10, bottom: chartHeight - 8}, ss)
	drawStages(c, box{left: half + 10, top: 8, right: chartWidth - 10, bottom: chartHeight - 8}, bars, stages)
}

// writeSVG draws the charts as an SVG document.
func writeSVG(w io.Writer, ss []series, bars []stack, stages []string) error {
	s := canvas.NewSVG(chartWidth, chartHeight)
	drawCharts(s, ss, bars, stages)
	return s.Write(w)
}

// pngScale is the number of pixels per point of a PNG chart.
const pngScale = 2

// writePNG draws the charts as a PNG image.
func writePNG(w io.Writer, ss []series, bars []stack, stages []string) error {
	r, err := canvas.NewRaster(chartWidth, chartHeight, pngScale)
	if err != nil {
		return err
	}
	drawCharts(r, ss, bars, stages)
	return r.WritePNG(w)
}

// pt is a point of the charts.
type pt struct{ x, y float64 }

// polyline strokes the points on c.
func polyline(c canvas.Canvas, pts []pt, col color.RGBA, width float64, dash []float64) {
	cp := make([]canvas.Pt, len(pts))
	for i, p := range pts {
		cp[i] = canvas.Pt{X: p.x, Y: p.y}
	}
	c.Polyline(cp, col, width, dash)
}

// text draws s in the chart's sans-serif.
func text(c canvas.Canvas, x, y float64, s string, size float64, a canvas.Anchor, vertical bool, col color.RGBA) {
	c.Text(x, y, s, canvas.Text{Size: size, Anchor: a, Vertical: vertical, Color: col})
}
