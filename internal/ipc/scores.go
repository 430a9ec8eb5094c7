package ipc

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The IPC 2023 HTN track scored each planner three ways, per domain, and
// summed the domains: coverage (the problems solved), the agile score (a
// problem solved within 1 s scores 1, one solved in t seconds 1 − log t /
// log T, T the time limit, 1800 s there) and the satisficing score (the
// best known plan's cost divided by the plan's cost); a domain's agile and
// satisficing scores are the means over its problems, unsolved ones
// counting 0. Scores computes them for our runs, and Published reads the
// competition's tables of every entrant (results/ of the 2023 set), so
// that the two can stand side by side.

// DomainScore is one run's scores on one domain.
type DomainScore struct {
	Track, Domain string
	Problems      int
	Solved        int
	Agile         float64 // mean over the domain's problems
	Quality       float64 // mean over the domain's problems
}

// Agile is the agile score of a problem solved in t seconds under a
// limit of limit seconds.
func Agile(t, limit float64) float64 {
	if t <= 1 {
		return 1
	}
	if limit <= 1 || t >= limit {
		return 0
	}
	return 1 - math.Log(t)/math.Log(limit)
}

// Scores computes, for each run, its scores per track and domain over
// the problems of all runs (a run without a row for a problem scores 0
// on it). The satisficing score's reference is the cheapest plan any of
// the runs found for the problem: the competition's was the best of any
// entrant's, which its tables do not give.
func Scores(runs []Rows, limit float64) [][]DomainScore {
	problems := map[string]bool{}
	for _, r := range runs {
		for k := range r.Rows {
			problems[k] = true
		}
	}
	best := map[string]float64{}
	for k := range problems {
		for _, r := range runs {
			if res, ok := r.Rows[k]; ok && res.Solved() {
				if c, seen := best[k]; !seen || res.Cost() < c {
					best[k] = res.Cost()
				}
			}
		}
	}
	keys := make([]string, 0, len(problems))
	for k := range problems {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]DomainScore, len(runs))
	for i, r := range runs {
		var scores []DomainScore
		at := map[string]int{}
		for _, k := range keys {
			parts := strings.SplitN(k, "/", 3)
			dk := parts[0] + "/" + parts[1]
			j, ok := at[dk]
			if !ok {
				j = len(scores)
				at[dk] = j
				scores = append(scores, DomainScore{Track: parts[0], Domain: parts[1]})
			}
			d := &scores[j]
			d.Problems++
			res, ok := r.Rows[k]
			if !ok || !res.Solved() {
				continue
			}
			d.Solved++
			d.Agile += Agile(res.Seconds, limit)
			d.Quality += Score(best[k], res.Cost())
		}
		for j := range scores {
			if n := float64(scores[j].Problems); n > 0 {
				scores[j].Agile /= n
				scores[j].Quality /= n
			}
		}
		out[i] = scores
	}
	return out
}

// Published is the competition's tables: per track ("total-order",
// "partial-order"), per score ("coverage", "agile", "satisficing"), per
// entrant, its value per domain column and its total.
type Published struct {
	// Columns per track and score: the tables' domain names
	Columns map[string]map[string][]string
	// Values per track, score and entrant: per column, then the total
	Values map[string]map[string]map[string][]float64
	// Entrants per track, in the order of the coverage table
	Entrants map[string][]string
	// Problems per track and coverage column: the problems the
	// competition ran ("Barman-BDI ;20"), 0 where the header omits it
	Problems map[string][]int
}

// ReadPublished reads the competition's tables from dir (TO-TABLE-*.csv
// and PO-TABLE-*.csv, as the 2023 results repository has them).
func ReadPublished(dir string) (*Published, error) {
	p := &Published{Columns: map[string]map[string][]string{}, Values: map[string]map[string]map[string][]float64{}, Entrants: map[string][]string{}, Problems: map[string][]int{}}
	for prefix, track := range map[string]string{"TO": "total-order", "PO": "partial-order"} {
		p.Columns[track] = map[string][]string{}
		p.Values[track] = map[string]map[string][]float64{}
		for _, score := range []string{"coverage", "agile", "satisficing"} {
			file := filepath.Join(dir, prefix+"-TABLE-"+score+".csv")
			f, err := os.Open(file)
			if err != nil {
				return nil, err
			}
			recs, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			if len(recs) < 2 || len(recs[0]) < 3 || recs[0][0] != "planner" || recs[0][1] != "total" {
				return nil, fmt.Errorf("%s: not a table of the competition's (planner,total,domains...)", file)
			}
			var cols []string
			var counts []int
			for _, c := range recs[0][2:] {
				name, n, _ := strings.Cut(c, ";") // "Barman-BDI ;20"
				cols = append(cols, strings.TrimSpace(name))
				k, _ := strconv.Atoi(strings.TrimSpace(n))
				counts = append(counts, k)
			}
			if score == "coverage" {
				p.Problems[track] = counts
			}
			p.Columns[track][score] = cols
			vals := map[string][]float64{}
			for i, rec := range recs[1:] {
				if len(rec) != len(recs[0]) {
					return nil, fmt.Errorf("%s:%d: %d fields, want %d", file, i+2, len(rec), len(recs[0]))
				}
				row := make([]float64, len(cols)+1)
				for j, v := range append(rec[2:], rec[1]) {
					if row[j], err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
						return nil, fmt.Errorf("%s:%d: %q: %v", file, i+2, v, err)
					}
				}
				vals[rec[0]] = row
				if score == "coverage" {
					p.Entrants[track] = append(p.Entrants[track], rec[0])
				}
			}
			p.Values[track][score] = vals
		}
	}
	return p, nil
}

// column finds the table column of one of our domain folders: the
// tables spell them "Freecell Learned", "Monroe Fully", "lamps".
func column(cols []string, domain string) int {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", " ")) }
	d := norm(domain)
	for i, c := range cols {
		if c := norm(c); c == d || strings.HasPrefix(d, c+" ") {
			return i
		}
	}
	return -1
}

// value is an entrant's value of a score on one of our domains (NaN when
// its table has no column for it).
func (p *Published) value(track, score, entrant, domain string) float64 {
	i := column(p.Columns[track][score], domain)
	row := p.Values[track][score][entrant]
	if i < 0 || row == nil {
		return math.NaN()
	}
	return row[i]
}

// best is the best value of a score on a domain over the entrants, and
// who has it (the first in coverage order among equals).
func (p *Published) best(track, score, domain string) (float64, string) {
	v, who := math.NaN(), ""
	for _, e := range p.Entrants[track] {
		if x := p.value(track, score, e, domain); !math.IsNaN(x) && (math.IsNaN(v) || x > v) {
			v, who = x, e
		}
	}
	return v, who
}

// problems is the number of the competition's problems in one of our
// domains (0 when its table does not say).
func (p *Published) problems(track, domain string) int {
	if i := column(p.Columns[track]["coverage"], domain); i >= 0 && i < len(p.Problems[track]) {
		return p.Problems[track][i]
	}
	return 0
}

// winner is the entrant with the highest total of a score.
func (p *Published) winner(track, score string) string {
	who, v := "", math.Inf(-1)
	for _, e := range p.Entrants[track] {
		if row := p.Values[track][score][e]; row != nil && row[len(row)-1] > v {
			who, v = e, row[len(row)-1]
		}
	}
	return who
}

// ScoreTables prints, per track, the coverage, agile and satisficing
// scores of each run per domain and in total, beside the competition's
// winner of that score and the best entrant per domain (when pub is not
// nil). limitNote says what the runs' limits were.
func ScoreTables(w io.Writer, runs []Rows, limit float64, pub *Published, limitNote string) error {
	if len(runs) == 0 {
		return fmt.Errorf("no run to score")
	}
	scores := Scores(runs, limit)
	for _, track := range []string{"total-order", "partial-order"} {
		var domains []DomainScore
		for _, d := range scores[0] {
			if d.Track == track {
				domains = append(domains, d)
			}
		}
		if len(domains) == 0 {
			continue
		}
		for _, score := range []string{"coverage", "agile", "satisficing"} {
			fmt.Fprintf(w, "\n%s, %s", track, score)
			if pub != nil {
				fmt.Fprintf(w, ": ours (%s) beside the IPC 2023 entrants (their published table: 1 core, 8 GB, 1800 s on the organisers' machines)", limitNote)
			} else {
				fmt.Fprintf(w, " (%s)", limitNote)
			}
			fmt.Fprint(w, scoreNote(score, limit, pub != nil))
			fmt.Fprint(w, "\n\n| domain | problems |")
			for _, r := range runs {
				fmt.Fprintf(w, " %s |", r.Name)
			}
			winner := ""
			if pub != nil {
				winner = pub.winner(track, score)
				fmt.Fprintf(w, " %s (IPC 2023 winner) | best entrant |", winner)
			}
			fmt.Fprint(w, "\n|---|---|")
			for range len(runs) + map[bool]int{true: 2}[pub != nil] {
				fmt.Fprint(w, "---|")
			}
			fmt.Fprintln(w)
			totals := make([]float64, len(runs))
			var winTotal, bestTotal float64
			problems, theirs := 0, 0
			for _, d := range domains {
				problems += d.Problems
				if pub != nil {
					theirs += pub.problems(track, d.Domain)
				}
				count := strconv.Itoa(d.Problems)
				if pub != nil {
					if n := pub.problems(track, d.Domain); n > 0 && n != d.Problems {
						count = fmt.Sprintf("%d (theirs %d)", d.Problems, n)
					}
				}
				fmt.Fprintf(w, "| %s | %s |", d.Domain, count)
				for i := range runs {
					s := domainOf(scores[i], track, d.Domain)
					v := pick(s, score)
					totals[i] += v
					fmt.Fprintf(w, " %s |", format(score, v))
				}
				if pub != nil {
					wv := pub.value(track, score, winner, d.Domain)
					bv, who := pub.best(track, score, d.Domain)
					if !math.IsNaN(wv) {
						winTotal += wv
					}
					if !math.IsNaN(bv) {
						bestTotal += bv
					}
					fmt.Fprintf(w, " %s | %s |", format(score, wv), bestCell(score, bv, who))
				}
				fmt.Fprintln(w)
			}
			count := strconv.Itoa(problems)
			if theirs > 0 && theirs != problems {
				count = fmt.Sprintf("%d (theirs %d)", problems, theirs)
			}
			fmt.Fprintf(w, "| **total** | %s |", count)
			for _, t := range totals {
				fmt.Fprintf(w, " %s |", format(score, t))
			}
			if pub != nil {
				fmt.Fprintf(w, " %s | %s |", format(score, winTotal), format(score, bestTotal))
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

// scoreNote says how far a score of ours can be set beside the
// entrants': agile's T is our limit, not their 1800 s, and our
// satisficing reference is the cheapest plan of our runs, since theirs
// (the cheapest of any entrant's) is not published per problem.
func scoreNote(score string, limit float64, published bool) string {
	switch {
	case score == "agile":
		return fmt.Sprintf(". Ours with T = %g s: a plan found in t > 1 s scores 1 − log t / log %g, lower than the same time scores with their T = 1800 s", limit, limit)
	case score == "satisficing" && published:
		return ". Ours against the cheapest plan of the runs in this table, theirs against the cheapest of any entrant's (not published per problem): ours is an upper bound of what the competition would have scored"
	case score == "coverage" && published:
		return ". Where a domain has another number of problems here than in the competition, \"theirs\" is the competition's: the entrants' figures are over their problems"
	}
	return ""
}

func domainOf(scores []DomainScore, track, domain string) DomainScore {
	i := slices.IndexFunc(scores, func(d DomainScore) bool { return d.Track == track && d.Domain == domain })
	if i < 0 {
		return DomainScore{}
	}
	return scores[i]
}

func pick(d DomainScore, score string) float64 {
	switch score {
	case "coverage":
		return float64(d.Solved)
	case "agile":
		return d.Agile
	}
	return d.Quality
}

func format(score string, v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case score == "coverage":
		return strconv.Itoa(int(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func bestCell(score string, v float64, who string) string {
	if math.IsNaN(v) {
		return "–"
	}
	return format(score, v) + " (" + who + ")"
}
