package hddl

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ---------------------------------------------------------------- types

func (c *checker) declareTypes(s *typesSection) {
	d := c.d
	for _, g := range s.Groups {
		parent := -1
		switch {
		case len(g.Type) == 1:
			parent = c.typeByName(g.Type[0], true)
		case g.Open != "":
			c.errorf(g.Pos, "\"either\" is not allowed as a parent type in :types")
		}
		for _, n := range g.Names {
			if strings.HasPrefix(n.Value, "?") {
				c.errorf(n.Pos, "expected a type name, found variable %s", n.Value)
				continue
			}
			t := c.typeByName(n, false)
			if t == 0 {
				continue // "object" may be listed; it needs no parent
			}
			ty := &d.Types[t]
			if ty.Implicit {
				// declared after being used as a parent
				ty.Implicit = false
				ty.Pos = posOf(n.Pos)
			}
			if parent >= 0 && !containsInt(ty.Parents, parent) {
				ty.Parents = append(ty.Parents, parent)
			}
		}
	}
}

// typeByName returns the index of a type, declaring it if needed. A type
// first met as a parent is marked implicit until declared.
func (c *checker) typeByName(id *ident, asParent bool) int {
	d := c.d
	if i, ok := d.typeIndex[id.Value]; ok {
		return i
	}
	d.typeIndex[id.Value] = len(d.Types)
	d.Types = append(d.Types, Type{Name: id.Value, Implicit: asParent, Pos: posOf(id.Pos)})
	return len(d.Types) - 1
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// finishTypes gives parentless types the parent "object", warns about
// implicit types, rejects cycles and computes the subtype relation.
func (c *checker) finishTypes() {
	d := c.d
	for i := 1; i < len(d.Types); i++ {
		t := &d.Types[i]
		if len(t.Parents) == 0 {
			t.Parents = []int{0}
		}
		if t.Implicit {
			c.warns = append(c.warns, &Error{Pos: t.Pos, Msg: fmt.Sprintf("warning: type %s is used as a parent but never declared; declaring it as a subtype of object", t.Name)})
		}
	}
	// cycle check by DFS
	state := make([]int8, len(d.Types)) // 0 new, 1 on stack, 2 done
	var visit func(t int, path []int) bool
	visit = func(t int, path []int) bool {
		switch state[t] {
		case 1:
			var names []string
			start := 0
			for i, p := range path {
				if p == t {
					start = i
				}
			}
			for _, p := range path[start:] {
				names = append(names, d.Types[p].Name)
			}
			names = append(names, d.Types[t].Name)
			c.errs.Add(d.Types[t].Pos, "cyclic type hierarchy %s", strings.Join(names, " - "))
			return false
		case 2:
			return true
		}
		state[t] = 1
		ok := true
		for _, p := range d.Types[t].Parents {
			if !visit(p, append(path, t)) {
				ok = false
				break
			}
		}
		state[t] = 2
		return ok
	}
	for i := range d.Types {
		if !visit(i, nil) {
			// break the cycle so that the rest of the checker terminates
			d.Types[i].Parents = []int{0}
		}
	}
	c.sortTypes()
	c.computeSubtypes()
}

// sortTypes orders the types by name ("object" stays first), so that a
// model's type indices do not depend on the order of the declarations and
// printing then re-reading a domain gives the same indices.
func (c *checker) sortTypes() {
	d := c.d
	order := make([]int, len(d.Types)-1)
	for i := range order {
		order[i] = i + 1
	}
	sort.Slice(order, func(a, b int) bool { return d.Types[order[a]].Name < d.Types[order[b]].Name })
	order = append([]int{0}, order...)
	newIndex := make([]int, len(d.Types))
	for n, o := range order {
		newIndex[o] = n
	}
	types := make([]Type, len(d.Types))
	for n, o := range order {
		t := d.Types[o]
		parents := make([]int, len(t.Parents))
		for i, p := range t.Parents {
			parents[i] = newIndex[p]
		}
		t.Parents = parents
		types[n] = t
		d.typeIndex[t.Name] = n
	}
	d.Types = types
}

// MaxTypePairs bounds the subtype relation a domain may have: the pairs
// (t, a) with a an ancestor of t, t itself included. A chain of n types
// has about n²/2 of them; real domains have a few hundred.
const MaxTypePairs = 1 << 22

func (c *checker) computeSubtypes() {
	d := c.d
	n := len(d.Types)
	d.ancestors = make([][]int, n)
	d.subtypes = make([][]int, n)
	pairs := 0
	seen := make([]int, n) // seen[x] == t+1: x is an ancestor of t found
	var stack []int
	for t := 0; t < n; t++ {
		seen[t] = t + 1
		anc := []int{t}
		stack = append(stack[:0], t)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range d.Types[x].Parents {
				if seen[p] != t+1 {
					seen[p] = t + 1
					anc = append(anc, p)
					stack = append(stack, p)
				}
			}
		}
		if pairs += len(anc); pairs > MaxTypePairs {
			c.errs.Add(d.Types[t].Pos, "the type hierarchy is too large: more than %d pairs of a type and its ancestors (%d types)", MaxTypePairs, n)
			for u := t; u < n; u++ {
				d.ancestors[u] = []int{u} // enough for the checker to end
			}
			break
		}
		sort.Ints(anc)
		d.ancestors[t] = anc
	}
	for t := 0; t < n; t++ {
		for _, a := range d.ancestors[t] {
			d.subtypes[a] = append(d.subtypes[a], t)
		}
	}
}

// typeOfGroup resolves the type of a typed group: its named type, an
// "either" type, or object.
func (c *checker) typeOfGroup(g *typedGroup) int {
	d := c.d
	switch {
	case len(g.Type) == 1:
		if i, ok := d.typeIndex[g.Type[0].Value]; ok {
			return i
		}
		c.errorf(g.Type[0].Pos, "unknown type %s", g.Type[0].Value)
		return 0
	case g.Open != "":
		var members []int
		for _, a := range g.Alts {
			i, ok := d.typeIndex[a.Value]
			if !ok {
				c.errorf(a.Pos, "unknown type %s", a.Value)
				continue
			}
			if !containsInt(members, i) {
				members = append(members, i)
			}
		}
		if len(members) == 0 {
			return 0
		}
		if len(members) == 1 {
			return members[0]
		}
		return c.eitherType(members)
	}
	return 0
}

// eitherType returns the implicit type standing for "(either m1 m2 ...)":
// a new subtype of object that every member has as a parent.
func (c *checker) eitherType(members []int) int {
	d := c.d
	sorted := append([]int(nil), members...)
	sort.Ints(sorted)
	names := make([]string, len(sorted))
	for i, m := range sorted {
		names[i] = d.Types[m].Name
	}
	key := "(either " + strings.Join(names, " ") + ")"
	if i, ok := d.typeIndex[key]; ok {
		return i
	}
	u := len(d.Types)
	d.typeIndex[key] = u
	d.Types = append(d.Types, Type{Name: key, Parents: []int{0}, Either: sorted})
	// u is a new parent of its members: it joins the ancestors of every
	// type below a member (no full recomputation per either type)
	d.ancestors = append(d.ancestors, []int{0, u})
	d.subtypes = append(d.subtypes, nil)
	d.subtypes[0] = append(d.subtypes[0], u)
	below := map[int]bool{}
	for _, m := range sorted {
		d.Types[m].Parents = append(d.Types[m].Parents, u)
		for _, x := range d.subtypes[m] {
			below[x] = true
		}
	}
	below[u] = true
	xs := make([]int, 0, len(below))
	for x := range below {
		xs = append(xs, x)
	}
	sort.Ints(xs)
	for _, x := range xs {
		if x != u {
			d.ancestors[x] = insertSorted(d.ancestors[x], u)
		}
	}
	d.subtypes[u] = xs
	return u
}

// insertSorted inserts x into the sorted list s, if missing.
func insertSorted(s []int, x int) []int {
	i := sort.SearchInts(s, x)
	if i < len(s) && s[i] == x {
		return s
	}
	return slices.Insert(s, i, x)
}

// compatible reports whether some object could have both types.
func (c *checker) compatible(a, b int) bool {
	d := c.d
	if d.IsSubtype(a, b) || d.IsSubtype(b, a) {
		return true
	}
	for _, x := range d.subtypes[a] {
		if d.IsSubtype(x, b) {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- objects and parameters

func (c *checker) objects(groups []*typedGroup, what string) []Object {
	var out []Object
	for _, g := range groups {
		t := c.typeOfGroup(g)
		if g.Open != "" {
			c.errorf(g.Pos, "a %s cannot have an \"either\" type", what)
		}
		for _, n := range g.Names {
			if strings.HasPrefix(n.Value, "?") {
				c.errorf(n.Pos, "expected a %s name, found variable %s", what, n.Value)
				continue
			}
			out = append(out, Object{Name: n.Value, Type: t, Pos: posOf(n.Pos)})
		}
	}
	return out
}

func (c *checker) declareObject(o Object, index map[string]int, list *[]Object, what string) {
	if i, ok := index[o.Name]; ok {
		prev := (*list)[i]
		if prev.Type == o.Type {
			c.warns = append(c.warns, &Error{Pos: o.Pos, Msg: fmt.Sprintf("warning: %s %s declared again (first at %s)", what, o.Name, prev.Pos)})
			return
		}
		c.errs.Add(o.Pos, "%s %s declared again with type %s (first declared at %s with type %s)", what, o.Name, c.d.Types[o.Type].Name, prev.Pos, c.d.Types[prev.Type].Name)
		return
	}
	index[o.Name] = len(*list)
	*list = append(*list, o)
}

// params reads a typed variable list.
func (c *checker) params(groups []*typedGroup) []Param {
	var out []Param
	seen := map[string]Pos{}
	for _, g := range groups {
		t := c.typeOfGroup(g)
		for _, n := range g.Names {
			if !strings.HasPrefix(n.Value, "?") {
				c.errorf(n.Pos, "expected a variable, found name %s", n.Value)
				continue
			}
			if p, ok := seen[n.Value]; ok {
				c.errorf(n.Pos, "duplicate parameter %s (first at %s)", n.Value, p)
				continue
			}
			seen[n.Value] = posOf(n.Pos)
			out = append(out, Param{Name: n.Value, Type: t, Pos: posOf(n.Pos)})
		}
	}
	return out
}
