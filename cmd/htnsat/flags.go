package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxAnnotation names a flag's largest value (see capFlag).
const maxAnnotation = "htnsat-max"

// maxParallel is the most runs, problems or solves at once a flag may ask
// for: each is a whole solve, and none is cheap.
const maxParallel = 256

// capFlag sets the largest value of an integer flag, which checkFlags
// enforces.
func capFlag(fs *pflag.FlagSet, name string, max int64) {
	if err := fs.SetAnnotation(name, maxAnnotation, []string{strconv.FormatInt(max, 10)}); err != nil {
		panic(err) // a flag that does not exist: a programming error
	}
}

// checkFlags checks the numeric flags given on the command line, in one
// place for every command: no count, limit, size or duration of htnsat
// is negative, and a flag with a cap (capFlag) stays under it.
func checkFlags(cmd *cobra.Command) error {
	var bad error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if bad != nil {
			return
		}
		var vals []int64
		switch f.Value.Type() {
		case "int", "int64", "int32":
			v, err := strconv.ParseInt(f.Value.String(), 10, 64)
			if err != nil {
				return
			}
			vals = []int64{v}
		case "duration":
			d, err := time.ParseDuration(f.Value.String())
			if err != nil {
				return
			}
			if d < 0 {
				bad = fmt.Errorf("--%s %s: must be 0 or more", f.Name, f.Value)
			}
			return
		case "stringToInt":
			for _, kv := range strings.Split(strings.Trim(f.Value.String(), "[]"), ",") {
				if _, v, ok := strings.Cut(kv, "="); ok {
					n, err := strconv.ParseInt(v, 10, 64)
					if err == nil {
						vals = append(vals, n)
					}
				}
			}
		default:
			return
		}
		for _, v := range vals {
			if v < 0 {
				bad = fmt.Errorf("--%s %s: must be 0 or more", f.Name, f.Value)
				return
			}
			if m, ok := f.Annotations[maxAnnotation]; ok {
				if max, _ := strconv.ParseInt(m[0], 10, 64); v > max {
					bad = fmt.Errorf("--%s %s: at most %d", f.Name, f.Value, max)
					return
				}
			}
		}
	})
	if bad != nil {
		return &usageError{bad}
	}
	return nil
}
