package ipc

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/htnsat/htnsat/internal/atomicfile"
	"github.com/htnsat/htnsat/internal/input"
	"github.com/htnsat/htnsat/plan"

	"github.com/htnsat/htnsat/internal/corpus"
)

var header = []string{"track", "domain", "problem", "status", "seconds", "max_rss_mb", "facts", "actions", "methods", "compact_methods", "plan_length", "plan_cost", "optimal", "first_plan_cost", "nodes", "parse_seconds", "ground_seconds", "message"}

// reportFields are the report fields a CSV row keeps, in column order
// after max_rss_mb.
// (optimal is 1 for a plan proven optimal, else 0; first_plan_cost is
// the cost of the first plan of an optimising run.)
var reportFields = []string{"facts", "actions", "methods", "compact_methods", "plan_length", "plan_cost", "optimal", "first_plan_cost", "nodes", "parse_seconds", "ground_seconds"}

// Key identifies a problem in a CSV file: track/domain/problem file.
func Key(in corpus.Instance) string {
	return in.Track + "/" + in.Domain + "/" + filepath.Base(in.ProblemFile)
}

func row(r Result) []string {
	row := []string{r.Instance.Track, r.Instance.Domain, filepath.Base(r.Instance.ProblemFile), r.Status,
		strconv.FormatFloat(r.Seconds, 'f', 3, 64), strconv.FormatFloat(r.MaxRSSMB, 'f', 1, 64)}
	for _, k := range reportFields {
		if strings.HasSuffix(k, "_seconds") {
			row = append(row, strconv.FormatFloat(num(r.Report, k), 'f', 4, 64))
		} else {
			row = append(row, strconv.Itoa(int(num(r.Report, k))))
		}
	}
	return append(row, r.Message)
}

// WriteCSV writes one row per result.
func WriteCSV(f io.Writer, results []Result) error {
	w := csv.NewWriter(f)
	w.Write(header)
	for _, r := range results {
		w.Write(row(r))
	}
	w.Flush()
	return w.Error()
}

// Journal is the file of a run's rows while it runs: each problem's row
// is appended as soon as it is done, so that an interrupted run can be
// resumed; the CSV file itself is written, whole, at the end.
func Journal(file string) string { return file + ".partial" }

// readRecords reads a whole CSV file. A journal's last line may have been
// cut off by the end of the run that wrote it (killed, out of disk): with
// journal, a last line without its newline is dropped.
func readRecords(file string, journal bool) ([][]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	data = input.TrimBOM(data) // a file saved by an editor that marks UTF-8
	if journal && len(data) > 0 && data[len(data)-1] != '\n' {
		data = data[:bytes.LastIndexByte(data, '\n')+1]
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return recs, nil
}

// ReadCSV reads the rows of an earlier run, by Key.
func ReadCSV(file string) (map[string]Result, error) {
	return readCSV(file, false)
}

func readCSV(file string, journal bool) (map[string]Result, error) {
	recs, err := readRecords(file, journal)
	if err != nil {
		return nil, err
	}
	out := map[string]Result{}
	// the columns by name: files written before a column was added lack it
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	width := len(header)
	for i, rec := range recs {
		if i == 0 && len(rec) > 0 && rec[0] == header[0] {
			col = map[string]int{}
			for j, h := range rec {
				col[h] = j
			}
			width = len(rec)
			continue
		}
		if len(rec) != width {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", file, i+1, len(rec), width)
		}
		if !plan.Status(rec[3]).Known() {
			return nil, fmt.Errorf("%s:%d: status %q is not one htnsat writes", file, i+1, rec[3])
		}
		r := Result{Status: rec[3], Message: rec[len(rec)-1], Report: map[string]any{}}
		var errs [2]error
		r.Seconds, errs[0] = strconv.ParseFloat(rec[4], 64)
		r.MaxRSSMB, errs[1] = strconv.ParseFloat(rec[5], 64)
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, i+1, e)
			}
		}
		for _, k := range reportFields {
			j, ok := col[k]
			if !ok {
				continue
			}
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", file, i+1, k, err)
			}
			r.Report[k] = v
		}
		out[rec[0]+"/"+rec[1]+"/"+rec[2]] = r
	}
	return out, nil
}

// csvRows appends rows to the CSV file of a run as problems finish.
type csvRows struct {
	f *os.File
	w *csv.Writer
}

// openCSV starts the journal with the rows already known (results of the
// indices not in todo), written whole before rows are appended: a run
// interrupted at once keeps them.
func openCSV(ctx context.Context, file string, results []Result, todo []int) (*csvRows, error) {
	pending := map[int]bool{}
	for _, i := range todo {
		pending[i] = true
	}
	err := atomicfile.Write(ctx, file, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(header)
		for i, r := range results {
			if !pending[i] {
				cw.Write(row(r))
			}
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	return &csvRows{f: f, w: csv.NewWriter(f)}, nil
}

func (c *csvRows) add(r Result) {
	c.w.Write(row(r))
	c.w.Flush()
}

func (c *csvRows) close() error {
	if c.f == nil {
		return nil
	}
	c.w.Flush()
	err := c.w.Error()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	return err
}
