package ipc

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/stats"
)

// Table prints a Markdown table with one row per domain and a total per
// track; verb heads the column of problems done ("grounded", "solved").
func Table(w io.Writer, results []Result, verb string) {
	type agg struct {
		total, ok                int
		secs, facts, acts, meths []float64
		compact                  []float64
		reasons                  map[string]int
	}
	by := map[string]*agg{}
	var keys []string
	tracks := map[string]*agg{}
	for _, r := range results {
		for _, k := range []string{r.Instance.Track + "|" + r.Instance.Domain, r.Instance.Track + "|"} {
			a := by[k]
			if a == nil {
				a = &agg{reasons: map[string]int{}}
				by[k] = a
				if !strings.HasSuffix(k, "|") {
					keys = append(keys, k)
				} else {
					tracks[r.Instance.Track] = a
				}
			}
			a.total++
			if r.Solved() {
				a.ok++
				a.secs = append(a.secs, r.Seconds)
				a.facts = append(a.facts, num(r.Report, "facts"))
				a.acts = append(a.acts, num(r.Report, "actions"))
				a.meths = append(a.meths, num(r.Report, "methods"))
				a.compact = append(a.compact, num(r.Report, "compact_methods"))
			} else {
				a.reasons[r.Status]++
			}
		}
	}
	fmt.Fprintf(w, "| track | domain | %s | median s | max s | facts | actions | methods | compacted | not done |\n", verb)
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|\n")
	// med formats the median of xs, "-" when there are none
	med := func(xs []float64, prec int) string {
		if len(xs) == 0 {
			return "-"
		}
		return strconv.FormatFloat(stats.Median(xs), 'f', prec, 64)
	}
	row := func(track, dom string, a *agg) {
		maxS := "-"
		if len(a.secs) > 0 {
			maxS = strconv.FormatFloat(slices.Max(a.secs), 'f', 2, 64)
		}
		var rs []string
		for k, v := range a.reasons {
			rs = append(rs, fmt.Sprintf("%d %s", v, k))
		}
		sort.Strings(rs)
		fmt.Fprintf(w, "| %s | %s | %d/%d | %s | %s | %s | %s | %s | %s | %s |\n",
			track, dom, a.ok, a.total, med(a.secs, 2), maxS, med(a.facts, 0), med(a.acts, 0), med(a.meths, 0), med(a.compact, 0), strings.Join(rs, ", "))
	}
	for _, k := range keys {
		parts := strings.SplitN(k, "|", 2)
		row(parts[0], parts[1], by[k])
	}
	for _, t := range []string{"total-order", "partial-order"} {
		if a := tracks[t]; a != nil {
			row(t, fmt.Sprintf("**all (%.1f%%)**", 100*float64(a.ok)/float64(max(a.total, 1))), a)
		}
	}
}
