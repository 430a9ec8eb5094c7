package csp

import "context"

// singleton removes from the domain of cell c every digit whose assignment
// the inner propagation refutes (inner propagates from c in a copy of s).
// It reports whether the domain shrank and false if it emptied.
func (m *Model) singleton(s State, c int, inner func(t State, c int) bool) (changed, ok bool) {
	if s[c].Count() < 2 {
		return false, s[c] != 0
	}
	for _, v := range s[c].Digits() {
		t := s.Clone()
		t[c] = bit(v)
		if !inner(t, c) {
			s[c] &^= bit(v)
			changed = true
		}
	}
	return changed, s[c] != 0
}

// acInner is AC propagated from one newly assigned cell of a state that
// was arc consistent.
func (m *Model) acInner(t State, c int) bool { return m.acFrom(t, []int{c}) }

// gacInner is GAC propagated from the units of one newly assigned cell of
// a state that was generalised arc consistent.
func (m *Model) gacInner(t State, c int) bool { return m.gacFrom(t, m.unitsOf[c]) }

// SACCell removes from one cell the digits that AC refutes when the cell
// takes them (s must be arc consistent). It reports false if the domain
// empties.
func (m *Model) SACCell(s State, c int) bool {
	_, ok := m.singleton(s, c, m.acInner)
	return ok
}

// SGACUnit removes from the cells of one unit the digits that GAC
// refutes when the cell takes them (s must be generalised arc consistent).
// It reports false if a domain empties, and stops with ctx's error (a
// unit of a 25×25 grid is hundreds of GAC propagations).
func (m *Model) SGACUnit(ctx context.Context, s State, u int) (bool, error) {
	for _, c := range m.Units[u].Cells {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if _, ok := m.singleton(s, c, m.gacInner); !ok {
			return false, nil
		}
	}
	return true, nil
}

// SAC makes s singleton arc consistent, kept generalised arc consistent
// in between (so that its pruning includes GAC's): every digit left is one
// whose assignment AC does not refute. It reports false if a domain
// empties, and stops with ctx's error.
func (m *Model) SAC(ctx context.Context, s State) (bool, error) {
	return m.singletonAll(ctx, s, m.acInner)
}

// SGAC makes s singleton generalised arc consistent: every digit left is
// one whose assignment GAC does not refute.
func (m *Model) SGAC(ctx context.Context, s State) (bool, error) {
	return m.singletonAll(ctx, s, m.gacInner)
}

func (m *Model) singletonAll(ctx context.Context, s State, inner func(State, int) bool) (bool, error) {
	if !m.GAC(s) {
		return false, nil
	}
	for {
		changed := false
		for c := range s {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			ch, ok := m.singleton(s, c, inner)
			if !ok {
				return false, nil
			}
			if ch {
				changed = true
				if !m.gacFrom(s, m.unitsOf[c]) {
					return false, nil
				}
			}
		}
		if !changed {
			return true, nil
		}
	}
}
