package ipc

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/corpus"
)

// PandaRow is one row of pandapi-ground.csv: pandaPI's grounder on one
// problem (blank counts where it failed within its limit).
type PandaRow struct {
	Track, Domain, Problem  string
	Facts, Actions, Methods int
	Seconds                 float64
	Grounded                bool
}

// Key is the row's problem in the form of Key(corpus.Instance).
func (p PandaRow) Key() string { return p.Track + "/" + p.Domain + "/" + p.Problem }

// ReadPandaPI reads pandaPI's grounding figures (columns track, domain,
// problem, facts, actions, methods, seconds).
func ReadPandaPI(file string) ([]PandaRow, error) {
	recs, err := readRecords(file, false)
	if err != nil {
		return nil, err
	}
	var out []PandaRow
	for i, rec := range recs {
		if i == 0 && len(rec) > 0 && rec[0] == "track" {
			continue
		}
		if len(rec) != 7 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 7", file, i+1, len(rec))
		}
		for j := range rec {
			rec[j] = strings.TrimSpace(rec[j])
		}
		r := PandaRow{Track: rec[0], Domain: rec[1], Problem: rec[2]}
		if rec[5] != "" {
			r.Grounded = true
			var errs [4]error
			r.Facts, errs[0] = strconv.Atoi(rec[3])
			r.Actions, errs[1] = strconv.Atoi(rec[4])
			r.Methods, errs[2] = strconv.Atoi(rec[5])
			r.Seconds, errs[3] = strconv.ParseFloat(rec[6], 64)
			for _, e := range errs {
				if e != nil {
					return nil, fmt.Errorf("%s:%d: %v", file, i+1, e)
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// SelectPandaPI lists the problems of sel that rows name, in the rows'
// order; it fails on a row whose problem is not in all (the whole set).
func SelectPandaPI(all, sel []corpus.Instance, rows []PandaRow) ([]corpus.Instance, error) {
	known := map[string]bool{}
	for _, in := range all {
		known[Key(in)] = true
	}
	chosen := map[string]corpus.Instance{}
	for _, in := range sel {
		chosen[Key(in)] = in
	}
	var out []corpus.Instance
	for _, r := range rows {
		if !known[r.Key()] {
			return nil, fmt.Errorf("pandaPI row %s: no such problem", r.Key())
		}
		if in, ok := chosen[r.Key()]; ok {
			out = append(out, in)
		}
	}
	return out, nil
}

// pandaSlack is how far our method count may exceed pandaPI's: 1.5 times,
// or 100 more for tiny tasks.
func pandaSlack(ours, theirs int) bool { return ours <= theirs*3/2 || ours <= theirs+100 }

// PandaTable prints, per problem, pandaPI's grounding beside ours (the
// methods of the compacted task, which like pandaPI's counts come after
// the expansion of tasks with a single method; the time of the stages
// after parsing), with a summary line.
func PandaTable(w io.Writer, rows []PandaRow, results []Result) {
	byKey := map[string]Result{}
	for _, r := range results {
		byKey[Key(r.Instance)] = r
	}
	fmt.Fprintln(w, "| track | domain | problem | pandaPI actions | pandaPI methods | pandaPI s | actions | methods | ratio | ground s | parse s | |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	both, over, slower, onlyOurs, onlyTheirs := 0, 0, 0, 0, 0
	for _, p := range rows {
		r, ok := byKey[p.Key()]
		if !ok {
			continue
		}
		pa, pm, ps := "-", "-", "-"
		if p.Grounded {
			pa, pm, ps = strconv.Itoa(p.Actions), strconv.Itoa(p.Methods), strconv.FormatFloat(p.Seconds, 'f', 2, 64)
		}
		if !r.Solved() {
			if p.Grounded {
				onlyTheirs++
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | | | | | |\n", short(p.Track), p.Domain, p.Problem, pa, pm, ps, r.Status)
			continue
		}
		acts, meths := int(num(r.Report, "actions")), int(num(r.Report, "compact_methods"))
		gs, parse := num(r.Report, "ground_seconds"), num(r.Report, "parse_seconds")
		ratio, mark := "", ""
		if p.Grounded {
			both++
			if p.Methods > 0 {
				ratio = strconv.FormatFloat(float64(meths)/float64(p.Methods), 'f', 2, 64)
			}
			if !pandaSlack(meths, p.Methods) {
				over++
				mark = "methods"
			}
			// pandaPI's figure has two decimals
			if gs > p.Seconds+0.005 {
				slower++
				mark = strings.TrimSpace(mark + " slower")
			}
		} else {
			onlyOurs++
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %d | %d | %s | %.2f | %.2f | %s |\n",
			short(p.Track), p.Domain, p.Problem, pa, pm, ps, acts, meths, ratio, gs, parse, mark)
	}
	fmt.Fprintf(w, "\n%d problems grounded by both: %d with more than 1.5 times pandaPI's methods (and 100 more), %d with a slower grounding; %d grounded only by htnsat, %d only by pandaPI.\n",
		both, over, slower, onlyOurs, onlyTheirs)
}

func short(track string) string {
	if track == "total-order" {
		return "TO"
	}
	return "PO"
}

// PandaPIFile is pandapi-ground.csv beside the IPC set in dir.
func PandaPIFile(dir string) string { return filepath.Join(dir, "pandapi-ground.csv") }
