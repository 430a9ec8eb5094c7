// Package report turns comparison runs into a terminal table, CSV, JSON
// and plots (a cactus plot and a stacked bar chart of stage times, drawn
// as SVG or PNG by chart.go and raster.go).
package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/internal/stats"
	"github.com/htnsat/htnsat/plan"
	"github.com/htnsat/htnsat/sudoku/csp"
)

func msOf(d time.Duration) float64 { return d.Seconds() * 1000 }

type group struct {
	size   int
	engine compare.Engine
	runs   []compare.Run
}

// groups splits runs by grid size and engine, in a stable order.
func groups(runs []compare.Run) []*group {
	idx := map[string]*group{}
	var out []*group
	for _, r := range runs {
		k := fmt.Sprintf("%d|%s", r.Size, r.Engine)
		g := idx[k]
		if g == nil {
			g = &group{size: r.Size, engine: r.Engine}
			idx[k] = g
			out = append(out, g)
		}
		g.runs = append(g.runs, r)
	}
	order := map[compare.Engine]int{}
	for i, e := range compare.Engines {
		order[e] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].size != out[j].size {
			return out[i].size < out[j].size
		}
		return order[out[i].engine] < order[out[j].engine]
	})
	return out
}

// summaryRow is one line of the summary: a grid size and an engine.
type summaryRow struct {
	size, engine, solved, median, p90, max string
	shares                                 []string
	peak, typical, notes                   string
}

func summarize(runs []compare.Run) []summaryRow {
	var out []summaryRow
	for _, g := range groups(runs) {
		var times []float64
		share := map[string][]float64{}
		var nodes, vars, clauses, peaks []float64
		other := map[plan.Status]int{}
		for _, r := range g.runs {
			if r.Status != plan.Solved || !r.Verified {
				other[r.Status]++
				continue
			}
			t := msOf(r.Total)
			times = append(times, t)
			for _, s := range compare.Stages {
				if d, ok := r.Stages[s]; ok && t > 0 {
					share[s] = append(share[s], 100*msOf(d)/t)
				}
			}
			nodes = append(nodes, float64(r.Nodes))
			vars = append(vars, float64(r.Vars))
			clauses = append(clauses, float64(r.Clauses))
			peaks = append(peaks, float64(r.PeakHeap)/(1<<20))
		}
		row := summaryRow{
			size: fmt.Sprintf("%dx%d", g.size, g.size), engine: string(g.engine),
			solved: fmt.Sprintf("%d/%d", len(times), len(g.runs)),
			median: fmtMS(stats.Median(times)), p90: fmtMS(stats.Quantile(times, 0.9)), max: fmtMS(stats.Quantile(times, 1)),
		}
		for _, s := range compare.Stages {
			v := share[s]
			if len(v) == 0 {
				row.shares = append(row.shares, "-")
				continue
			}
			row.shares = append(row.shares, fmt.Sprintf("%.0f%%", stats.Median(v)))
		}
		row.peak = "-"
		if len(peaks) > 0 {
			row.peak = fmt.Sprintf("%.1f", stats.Median(peaks))
		}
		switch {
		case (g.engine == compare.Progression || g.engine == compare.Lazy) && len(nodes) > 0:
			row.typical = fmt.Sprintf("%.0f nodes (max %.0f)", stats.Median(nodes), stats.Quantile(nodes, 1))
		case len(vars) > 0:
			row.typical = fmt.Sprintf("%.0f vars, %.0f clauses (max %.0f, %.0f)", stats.Median(vars), stats.Median(clauses), stats.Quantile(vars, 1), stats.Quantile(clauses, 1))
		}
		var notes []string
		for _, st := range slices.Sorted(maps.Keys(other)) {
			name := string(st)
			if st == plan.Solved {
				name = "unverified"
			}
			notes = append(notes, fmt.Sprintf("%d %s", other[st], name))
		}
		row.notes = strings.Join(notes, ", ")
		out = append(out, row)
	}
	return out
}

// Summary prints, per grid size and engine: puzzles solved (and verified)
// out of those tried, the median, 90th percentile and maximum time of the
// solved ones, and the median share of each stage in their time.
func Summary(w io.Writer, runs []compare.Run) {
	fmt.Fprintf(w, "%-6s %-12s %9s %9s %9s %9s", "size", "engine", "solved", "median", "p90", "max")
	for _, s := range compare.Stages {
		fmt.Fprintf(w, " %7s", s)
	}
	fmt.Fprintf(w, " %7s  %s\n", "peakMB", "median size (max)")
	for _, r := range summarize(runs) {
		fmt.Fprintf(w, "%-6s %-12s %9s %9s %9s %9s", r.size, r.engine, r.solved, r.median, r.p90, r.max)
		for _, s := range r.shares {
			fmt.Fprintf(w, " %7s", s)
		}
		fmt.Fprintf(w, " %7s  %s", r.peak, r.typical)
		if r.notes != "" {
			fmt.Fprintf(w, "  (%s)", r.notes)
		}
		fmt.Fprintln(w)
	}
}

// ByRating writes, when the runs carry ratings (compare --rate), the
// number of puzzles and the median total time of each engine per rating.
func ByRating(w io.Writer, runs []compare.Run) {
	type key struct {
		rating string
		engine compare.Engine
	}
	times := map[key][]float64{}
	var ratings []string
	var engines []compare.Engine
	seenR, seenE := map[string]bool{}, map[compare.Engine]bool{}
	for _, r := range runs {
		if r.Rating == "" {
			continue
		}
		if !seenR[r.Rating] {
			seenR[r.Rating] = true
			ratings = append(ratings, r.Rating)
		}
		if !seenE[r.Engine] {
			seenE[r.Engine] = true
			engines = append(engines, r.Engine)
		}
		ms := math.NaN()
		if r.Status == plan.Solved && r.Verified {
			ms = msOf(r.Total)
		}
		k := key{r.Rating, r.Engine}
		times[k] = append(times[k], ms)
	}
	if len(ratings) == 0 {
		return
	}
	order := map[string]int{}
	for i, l := range csp.RateLevels {
		order[l.String()] = i
	}
	order["search"], order["none"] = len(csp.RateLevels), len(csp.RateLevels)+1
	sort.Slice(ratings, func(i, j int) bool { return order[ratings[i]] < order[ratings[j]] })
	fmt.Fprintf(w, "\nmedian total time by rating (unsolved runs count as slowest)\n%-8s %8s", "rating", "puzzles")
	for _, e := range engines {
		fmt.Fprintf(w, " %12s", e)
	}
	fmt.Fprintln(w)
	for _, rt := range ratings {
		fmt.Fprintf(w, "%-8s %8d", rt, len(times[key{rt, engines[0]}]))
		for _, e := range engines {
			xs := times[key{rt, e}]
			for i, x := range xs {
				if math.IsNaN(x) {
					xs[i] = math.Inf(1)
				}
			}
			med := stats.Median(xs)
			if math.IsInf(med, 1) {
				med = math.NaN()
			}
			fmt.Fprintf(w, " %12s", fmtMS(med))
		}
		fmt.Fprintln(w)
	}
}

// SummaryMarkdown writes the summary as a Markdown table.
func SummaryMarkdown(w io.Writer, runs []compare.Run) {
	fmt.Fprintf(w, "| size | engine | solved | median | p90 | max |")
	for _, s := range compare.Stages {
		fmt.Fprintf(w, " %s |", s)
	}
	fmt.Fprintf(w, " peak heap MB | median size (max) | not solved |\n|---|---|---|---|---|---|")
	for range compare.Stages {
		fmt.Fprintf(w, "---|")
	}
	fmt.Fprintf(w, "---|---|---|\n")
	for _, r := range summarize(runs) {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |", r.size, r.engine, r.solved, r.median, r.p90, r.max)
		for _, s := range r.shares {
			fmt.Fprintf(w, " %s |", s)
		}
		fmt.Fprintf(w, " %s | %s | %s |\n", r.peak, r.typical, r.notes)
	}
}

func fmtMS(ms float64) string {
	switch {
	case math.IsNaN(ms):
		return "-"
	case ms >= 10000:
		return fmt.Sprintf("%.1fs", ms/1000)
	case ms >= 100:
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.2fms", ms)
}

// row is the CSV and JSON form of a run.
type row struct {
	Puzzle     string  `json:"puzzle"`
	Size       int     `json:"size"`
	Givens     int     `json:"givens"`
	Engine     string  `json:"engine"`
	Style      string  `json:"style"`
	Status     string  `json:"status"`
	Verified   bool    `json:"verified"`
	TotalMS    float64 `json:"total_ms"`
	ParseMS    float64 `json:"parse_ms"`
	GroundMS   float64 `json:"ground_ms"`
	SearchMS   float64 `json:"search_ms"`
	EncodeMS   float64 `json:"encode_ms"`
	SolveMS    float64 `json:"solve_ms"`
	DecodeMS   float64 `json:"decode_ms"`
	VerifyMS   float64 `json:"verify_ms"`
	Nodes      int64   `json:"nodes"`
	Vars       int     `json:"vars"`
	Clauses    int     `json:"clauses"`
	Depth      int     `json:"depth"`
	PlanLength int     `json:"plan_length"`
	AllocMB    float64 `json:"alloc_mb"`
	PeakHeapMB float64 `json:"peak_heap_mb"`
	Solutions  int     `json:"solutions,omitempty"` // counted by direct-sat up to --count
	Rating     string  `json:"rating,omitempty"`    // compare --rate
	Solution   string  `json:"solution,omitempty"`
	Error      string  `json:"error,omitempty"`
}

func rowOf(r compare.Run) row {
	style := r.Style.String()
	if r.Engine == compare.DirectSAT {
		style = ""
	}
	out := row{
		Puzzle: r.Puzzle, Size: r.Size, Givens: r.Givens, Engine: string(r.Engine), Style: style,
		Status: string(r.Status), Verified: r.Verified, TotalMS: msOf(r.Total),
		ParseMS: msOf(r.Stages["parse"]), GroundMS: msOf(r.Stages["ground"]), SearchMS: msOf(r.Stages["search"]), EncodeMS: msOf(r.Stages["encode"]),
		SolveMS: msOf(r.Stages["solve"]), DecodeMS: msOf(r.Stages["decode"]), VerifyMS: msOf(r.Stages["verify"]),
		Nodes: r.Nodes, Vars: r.Vars, Clauses: r.Clauses, Depth: r.Depth, PlanLength: r.PlanLength,
		AllocMB: float64(r.AllocBytes) / (1 << 20), PeakHeapMB: float64(r.PeakHeap) / (1 << 20), Solutions: r.Solutions, Rating: r.Rating, Error: r.Error,
	}
	if r.Verified {
		out.Solution = r.Solution.Line()
	}
	return out
}

// WriteCSV writes one row per run.
func WriteCSV(f io.Writer, runs []compare.Run) error {
	w := csv.NewWriter(f)
	w.Write([]string{"puzzle", "size", "givens", "engine", "style", "status", "verified", "total_ms", "parse_ms", "ground_ms", "search_ms", "encode_ms", "solve_ms", "decode_ms", "verify_ms", "nodes", "vars", "clauses", "depth", "plan_length", "alloc_mb", "peak_heap_mb", "solutions", "rating", "solution", "error"})
	ff := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	for _, r := range runs {
		o := rowOf(r)
		w.Write([]string{o.Puzzle, strconv.Itoa(o.Size), strconv.Itoa(o.Givens), o.Engine, o.Style, o.Status, strconv.FormatBool(o.Verified),
			ff(o.TotalMS), ff(o.ParseMS), ff(o.GroundMS), ff(o.SearchMS), ff(o.EncodeMS), ff(o.SolveMS), ff(o.DecodeMS), ff(o.VerifyMS),
			strconv.FormatInt(o.Nodes, 10), strconv.Itoa(o.Vars), strconv.Itoa(o.Clauses), strconv.Itoa(o.Depth), strconv.Itoa(o.PlanLength),
			ff(o.AllocMB), ff(o.PeakHeapMB), countField(o.Solutions), o.Rating, o.Solution, o.Error})
	}
	w.Flush()
	return w.Error()
}

// countField is a solution count for the CSV (blank when not counted).
func countField(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// WriteJSON writes the runs as a JSON array.
func WriteJSON(w io.Writer, runs []compare.Run) error {
	rows := make([]row, len(runs))
	for i, r := range runs {
		rows[i] = rowOf(r)
	}
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// PlotFormat is the format of a plot file by its extension, svg or png,
// or an error.
func PlotFormat(path string) (string, error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "svg" && format != "png" {
		return "", fmt.Errorf("plot %s: the file must end in .svg or .png", path)
	}
	return format, nil
}

// Plot draws two panels into one SVG or PNG image (format): a cactus
// plot, the number of puzzles solved against the time each took (log
// scale), one line per engine (colour) and grid size (dashes); and the
// mean time of each stage per engine and size, stacked.
func Plot(w io.Writer, format string, runs []compare.Run) error {
	if format != "svg" && format != "png" {
		return fmt.Errorf("plot format %q: want svg or png", format)
	}
	gs := groups(runs)
	engineIdx := map[compare.Engine]int{}
	for i, e := range compare.Engines {
		engineIdx[e] = i
	}
	var sizes []int
	for _, g := range gs {
		if _, ok := engineIdx[g.engine]; !ok {
			engineIdx[g.engine] = len(engineIdx)
		}
		if !slices.Contains(sizes, g.size) {
			sizes = append(sizes, g.size)
		}
	}
	var ss []series
	var bars []stack
	for _, g := range gs {
		var ts []float64
		vals := make([]float64, len(compare.Stages))
		for _, r := range g.runs {
			if r.Status == plan.Solved && r.Verified {
				ts = append(ts, max(msOf(r.Total), 1e-3))
				for si, s := range compare.Stages {
					vals[si] += msOf(r.Stages[s])
				}
			}
		}
		size := fmt.Sprintf("%dx%d", g.size, g.size)
		bars = append(bars, stack{engine: string(g.engine), size: size, values: vals})
		if len(ts) == 0 {
			continue
		}
		for si := range vals {
			vals[si] /= float64(len(ts))
		}
		sort.Float64s(ts)
		ss = append(ss, series{label: string(g.engine) + " " + size, ys: ts,
			color: lineColor(engineIdx[g.engine]), dash: lineDash(slices.Index(sizes, g.size))})
	}
	if format == "png" {
		return writePNG(w, ss, bars, compare.Stages)
	}
	return writeSVG(w, ss, bars, compare.Stages)
}
