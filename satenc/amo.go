package satenc

// AtMostOne adds clauses saying that at most one of vs is true: pairwise
// for up to six variables, otherwise the sequential counter of Sinz
// (2005), with n-1 helper variables from s and 3n-4 clauses instead of
// n(n-1)/2.
func AtMostOne(s Sink, vs []Var) {
	n := len(vs)
	if n <= 1 {
		return
	}
	if n <= 6 {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				s.AddClause(vs[i].Neg(), vs[j].Neg())
			}
		}
		return
	}
	// c[i] is true if one of vs[0..i] is true
	c := make([]Var, n-1)
	for i := range c {
		c[i] = s.NewVar()
	}
	s.AddClause(vs[0].Neg(), c[0].Pos())
	for i := 1; i < n-1; i++ {
		s.AddClause(vs[i].Neg(), c[i].Pos())
		s.AddClause(c[i-1].Neg(), c[i].Pos())
		s.AddClause(vs[i].Neg(), c[i-1].Neg())
	}
	s.AddClause(vs[n-1].Neg(), c[n-2].Neg())
}

// atMostOne is AtMostOne with helper variables named after vertex owner.
func (e *Encoding) atMostOne(vs []Var, owner int32) {
	AtMostOne(&auxSink{e: e, owner: owner}, vs)
}

// auxSink gives AtMostOne the encoding's variables and clauses.
type auxSink struct {
	e     *Encoding
	owner int32
	n     int32
}

func (a *auxSink) NewVar() Var {
	a.n++
	return a.e.newVar(kindAux, a.owner, a.n-1)
}

func (a *auxSink) AddClause(lits ...Lit) { a.e.add(lits...) }
