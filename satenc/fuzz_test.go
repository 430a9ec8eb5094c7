package satenc

import (
	"errors"
	"strings"
	"testing"
)

// FuzzReadModel feeds arbitrary bytes to the model reader, as a solver's
// answer to a formula of 20 variables: it must not panic, a satisfiable
// answer has a value for every variable, an error wraps ErrSolver (or is
// an I/O error) and quotes at most a short excerpt.
func FuzzReadModel(f *testing.F) {
	for _, s := range []string{
		"s SATISFIABLE\nv 1 -2 3 0\n",
		"s UNSATISFIABLE\n",
		"SAT\n1 -2 3 -4 0\n",
		"UNSAT\n",
		"c comment\ns SATISFIABLE\nv 1 2\nv -3 0\n",
		"s UNKNOWN\n",
		"v 99 0\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res, err := ReadModel(strings.NewReader(string(src)), 20)
		if err != nil {
			if !errors.Is(err, ErrSolver) {
				t.Fatalf("error %v does not wrap ErrSolver", err)
			}
			if len(err.Error()) > 400 {
				t.Fatalf("a message of %d bytes", len(err.Error()))
			}
			return
		}
		if res.Sat && len(res.Model) != 21 {
			t.Fatalf("a model of %d values for 20 variables", len(res.Model)-1)
		}
	})
}
