package satenc

// atMostOne encodes that at most one of vs is true: pairwise for a few
// variables, otherwise with the sequential counter of Sinz (2005), which
// needs n-1 helper variables and 3n-4 clauses instead of n(n-1)/2.
func (e *encoder) atMostOne(vs []Var, owner int32) {
	n := len(vs)
	if n <= 1 {
		return
	}
	if n <= 6 {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				e.add(vs[i].Neg(), vs[j].Neg())
			}
		}
		return
	}
	// s[i] is true if one of vs[0..i] is true
	s := make([]Var, n-1)
	for i := range s {
		s[i] = e.newVar(kindAux, owner, int32(i))
	}
	e.add(vs[0].Neg(), s[0].Pos())
	for i := 1; i < n-1; i++ {
		e.add(vs[i].Neg(), s[i].Pos())
		e.add(s[i-1].Neg(), s[i].Pos())
		e.add(vs[i].Neg(), s[i-1].Neg())
	}
	e.add(vs[n-1].Neg(), s[n-2].Neg())
}
