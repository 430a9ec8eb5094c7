package ipc

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/htnsat/htnsat/internal/stats"
)

// Rows are the rows of one run, by Key, with the name its column gets.
type Rows struct {
	Name string
	Rows map[string]Result
}

// ReadRuns reads the CSV files of earlier runs, each named by its file.
func ReadRuns(files []string) ([]Rows, error) {
	var runs []Rows
	for _, f := range files {
		rows, err := ReadCSV(f)
		if err != nil {
			return nil, err
		}
		runs = append(runs, Rows{Name: strings.TrimSuffix(filepath.Base(f), ".csv"), Rows: rows})
	}
	return runs, nil
}

// Keyed indexes results by Key.
func Keyed(results []Result) map[string]Result {
	m := map[string]Result{}
	for _, r := range results {
		m[Key(r.Instance)] = r
	}
	return m
}

// Cost is the cost of a solved row's plan: plan_cost, or its length in a
// row written before costs were (or by a peer that gives lengths only).
func (r Result) Cost() float64 {
	if c, ok := r.Report["plan_cost"].(float64); ok && (c > 0 || num(r.Report, "plan_length") == 0) {
		return c
	}
	return num(r.Report, "plan_length")
}

// Score is the IPC quality score of a plan of cost c when the best known
// plan costs best: best/c (1 when both are 0).
func Score(best, c float64) float64 {
	if c <= best {
		return 1
	}
	return best / c
}

// QualityTable prints, per domain and for each run, the problems solved,
// the IPC quality score (the best cost any of the runs found for a
// problem divided by the run's cost, summed over the problems it solved),
// the plans proven optimal and the median plan cost. Only problems in
// every run count. The first plans of an optimising run (its rows'
// first_plan_cost) are scored too, as a run of their own beside it.
func QualityTable(w io.Writer, runs []Rows) error {
	if len(runs) == 0 {
		return fmt.Errorf("no run to score")
	}
	runs = withFirstPlans(runs)
	type agg struct {
		total  int
		solved []int
		score  []float64
		opt    []int
		costs  [][]float64
	}
	newAgg := func() *agg {
		n := len(runs)
		return &agg{solved: make([]int, n), score: make([]float64, n), opt: make([]int, n), costs: make([][]float64, n)}
	}
	by := map[string]*agg{}
	var keys []string
	rows := make([]map[string]Result, len(runs))
	for i, r := range runs {
		rows[i] = r.Rows
	}
	for _, k := range shared(rows) {
		best := -1.0
		for _, r := range rows {
			if row := r[k]; row.Solved() && (best < 0 || row.Cost() < best) {
				best = row.Cost()
			}
		}
		for _, g := range groups(k) {
			a := by[g]
			if a == nil {
				a = newAgg()
				by[g] = a
				keys = append(keys, g)
			}
			a.total++
			for i, r := range rows {
				row := r[k]
				if !row.Solved() {
					continue
				}
				a.solved[i]++
				a.score[i] += Score(best, row.Cost())
				a.costs[i] = append(a.costs[i], row.Cost())
				if num(row.Report, "optimal") == 1 {
					a.opt[i]++
				}
			}
		}
	}
	if len(keys) == 0 {
		names := make([]string, len(runs))
		for i, r := range runs {
			names[i] = r.Name
		}
		return fmt.Errorf("no problem is in all of %s", strings.Join(names, ", "))
	}
	sortDomains(keys)
	fmt.Fprint(w, "| track | domain | problems |")
	for _, r := range runs {
		fmt.Fprintf(w, " %s: solved | quality | optimal | median cost |", r.Name)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "|---|---|---|")
	for range runs {
		fmt.Fprint(w, "---|---|---|---|")
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		a := by[k]
		track, dom, _ := strings.Cut(k, "|")
		if dom == "" {
			dom = "**all**"
		}
		fmt.Fprintf(w, "| %s | %s | %d |", track, dom, a.total)
		for i := range runs {
			med := "-"
			if len(a.costs[i]) > 0 {
				med = fmt.Sprintf("%g", stats.Median(a.costs[i]))
			}
			fmt.Fprintf(w, " %d | %.2f | %d | %s |", a.solved[i], a.score[i], a.opt[i], med)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// sortDomains orders "track|domain" keys: total order first, domains by
// name within a track, each track's total ("track|") after its domains.
func sortDomains(keys []string) {
	slices.SortFunc(keys, func(a, b string) int {
		ta, da, _ := strings.Cut(a, "|")
		tb, db, _ := strings.Cut(b, "|")
		if ta != tb {
			return -strings.Compare(ta, tb) // total-order before partial-order
		}
		switch {
		case da == "":
			return 1
		case db == "":
			return -1
		}
		return strings.Compare(da, db)
	})
}

// withFirstPlans adds, after each run whose rows tell the cost of their
// first plan, the run of those first plans.
func withFirstPlans(runs []Rows) []Rows {
	var out []Rows
	for _, r := range runs {
		out = append(out, r)
		first := Rows{Name: r.Name + " (first plans)", Rows: map[string]Result{}}
		seen := false
		for k, row := range r.Rows {
			c := num(row.Report, "first_plan_cost")
			if c > 0 {
				seen = true
			}
			f := row
			f.Report = map[string]any{"plan_cost": c, "plan_length": c}
			if c == 0 && row.Solved() {
				// no improving search ran: the plan was the first
				f.Report = map[string]any{"plan_cost": row.Cost(), "plan_length": row.Cost()}
			}
			first.Rows[k] = f
		}
		if seen {
			out = append(out, first)
		}
	}
	return out
}
