package variant

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMiniZinc writes p as a MiniZinc model in the style of the well-known MiniZinc models of variants
// an n×n array of variables, alldifferent rows, columns and boxes, the
// givens, and one constraint per variant clue. It prints the solution as
// one line of digits separated by spaces.
func WriteMiniZinc(w io.Writer, p *Puzzle) error {
	n, k := p.Size(), p.Grid.Box
	bw := bufio.NewWriter(w)
	x := func(c int) string { return fmt.Sprintf("x[%d,%d]", c/n+1, c%n+1) }
	list := func(cs []int) string {
		s := make([]string, len(cs))
		for i, c := range cs {
			s[i] = x(c)
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	line := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	if p.Title != "" {
		line("%% %s", strings.ReplaceAll(p.Title, "\n", " "))
	}
	// only the global it needs: some installations (Debian's minizinc
	// with Gecode 6.2) fail on the whole of globals.mzn
	line(`include "alldifferent.mzn";`)
	line("int: n = %d;", n)
	line("array [1..n, 1..n] of var 1..n : x;")
	line("constraint forall (i in 1..n) (alldifferent(x[i, 1..n]));")
	line("constraint forall (j in 1..n) (alldifferent(x[1..n, j]));")
	line("constraint forall (i in 0..%d, j in 0..%d) (alldifferent(x[%d*i+1..%d*i+%d, %d*j+1..%d*j+%d]));", k-1, k-1, k, k, k, k, k, k)
	for c, d := range p.Grid.Cells {
		if d != 0 {
			line("constraint %s = %d;", x(c), d)
		}
	}
	for _, s := range p.Killers {
		line("constraint alldifferent(%s);", list(s.Cells))
		if s.Sum > 0 {
			line("constraint sum(%s) = %d;", list(s.Cells), s.Sum)
		}
	}
	for _, s := range p.LittleKiller {
		line("constraint sum(%s) = %d;", list(s.Cells), s.Sum)
	}
	for _, t := range p.Thermos {
		var lt []string
		for i := 1; i < len(t); i++ {
			lt = append(lt, x(t[i-1])+" < "+x(t[i]))
		}
		line("constraint %s;", strings.Join(lt, " /\\ "))
	}
	for _, a := range p.Arrows {
		for _, l := range a.Lines {
			line("constraint sum(%s) = %s;", list(l), x(a.Circle))
		}
	}
	p.pairClues(func(c pairClue) {
		a, b := x(c.a), x(c.b)
		var f string
		switch c.kind {
		case ratioDot:
			f = fmt.Sprintf("(%s = %d*%s \\/ %s = %d*%s)", a, c.value, b, b, c.value, a)
		case differenceDot:
			f = fmt.Sprintf("abs(%s - %s) = %d", a, b, c.value)
		default:
			f = fmt.Sprintf("%s + %s = %d", a, b, c.value)
		}
		if c.negated {
			f = "not (" + f + ")"
		}
		line("constraint %s;", f)
	})
	for _, l := range p.Renbans {
		line("constraint alldifferent(%s) /\\ max(%s) - min(%s) = %d;", list(l), list(l), list(l), len(l)-1)
	}
	for _, l := range p.Whispers {
		for i := 1; i < len(l); i++ {
			line("constraint abs(%s - %s) >= %d;", x(l[i-1]), x(l[i]), p.WhisperGap())
		}
	}
	for _, l := range p.Palindromes {
		for i := 0; i < len(l)/2; i++ {
			line("constraint %s = %s;", x(l[i]), x(l[len(l)-1-i]))
		}
	}
	for _, q := range p.Quadruples {
		for d, m := range multiplicity(q.Digits) {
			var is []string
			for _, c := range q.Cells {
				is = append(is, fmt.Sprintf("bool2int(%s = %d)", x(c), d))
			}
			line("constraint sum([%s]) >= %d;", strings.Join(is, ", "), m)
		}
	}
	for _, r := range p.Extra {
		line("constraint alldifferent(%s);", list(r))
	}
	for parity, cells := range [][]int{p.Even, p.Odd} {
		for _, c := range cells {
			line("constraint %s mod 2 = %d;", x(c), parity)
		}
	}
	for _, d := range p.Diagonals() {
		line("constraint alldifferent(%s);", list(d))
	}
	for _, ab := range p.moves() {
		line("constraint %s != %s;", x(ab[0]), x(ab[1]))
	}
	line("solve satisfy;")
	line(`output [show(x[i,j]) ++ " " | i, j in 1..n];`)
	return bw.Flush()
}

// WriteXCSP3 writes p as an XCSP3 instance (the format of the XCSP work on Ludii puzzles,
// solvers): an array of n×n variables, allDifferent groups, the givens as
// extension constraints of one tuple, sums, and the binary clues as
// intension predicates.
func WriteXCSP3(w io.Writer, p *Puzzle) error {
	n, k := p.Size(), p.Grid.Box
	bw := bufio.NewWriter(w)
	x := func(c int) string { return fmt.Sprintf("x[%d][%d]", c/n, c%n) }
	list := func(cs []int) string {
		s := make([]string, len(cs))
		for i, c := range cs {
			s[i] = x(c)
		}
		return strings.Join(s, " ")
	}
	line := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	line(`<instance format="XCSP3" type="CSP">`)
	line(`  <variables>`)
	line(`    <array id="x" size="[%d][%d]"> 1..%d </array>`, n, n, n)
	line(`  </variables>`)
	line(`  <constraints>`)
	line(`    <group>`)
	line(`      <allDifferent> %%0 </allDifferent>`)
	for i := 0; i < n; i++ {
		line(`      <args> x[%d][] </args>`, i)
	}
	for j := 0; j < n; j++ {
		line(`      <args> x[][%d] </args>`, j)
	}
	for b := 0; b < n; b++ {
		r0, c0 := b/k*k, b%k*k
		line(`      <args> x[%d..%d][%d..%d] </args>`, r0, r0+k-1, c0, c0+k-1)
	}
	for _, r := range p.Regions() {
		line(`      <args> %s </args>`, list(r))
	}
	line(`    </group>`)
	for c, d := range p.Grid.Cells {
		if d != 0 {
			line(`    <intension> eq(%s,%d) </intension>`, x(c), d)
		}
	}
	sum := func(cells []int, cond string) {
		line(`    <sum> <list> %s </list> <condition> %s </condition> </sum>`, list(cells), cond)
	}
	for _, s := range append(append([]Sum{}, p.Killers...), p.LittleKiller...) {
		if s.Sum > 0 {
			sum(s.Cells, fmt.Sprintf("(eq,%d)", s.Sum))
		}
	}
	for _, a := range p.Arrows {
		for _, l := range a.Lines {
			sum(l, fmt.Sprintf("(eq,%s)", x(a.Circle)))
		}
	}
	for _, t := range p.Thermos {
		line(`    <ordered> <list> %s </list> <operator> lt </operator> </ordered>`, list(t))
	}
	pred := func(f string, args ...any) { line(`    <intension> `+f+` </intension>`, args...) }
	p.pairClues(func(c pairClue) {
		a, b := x(c.a), x(c.b)
		var f string
		switch c.kind {
		case ratioDot:
			f = fmt.Sprintf("or(eq(%s,mul(%d,%s)),eq(%s,mul(%d,%s)))", a, c.value, b, b, c.value, a)
		case differenceDot:
			f = fmt.Sprintf("eq(dist(%s,%s),%d)", a, b, c.value)
		default:
			f = fmt.Sprintf("eq(add(%s,%s),%d)", a, b, c.value)
		}
		if c.negated {
			f = "not(" + f + ")"
		}
		pred("%s", f)
	})
	for _, l := range p.Renbans {
		for i := range l {
			for j := i + 1; j < len(l); j++ {
				pred("le(dist(%s,%s),%d)", x(l[i]), x(l[j]), len(l)-1)
			}
		}
	}
	for _, l := range p.Whispers {
		for i := 1; i < len(l); i++ {
			pred("ge(dist(%s,%s),%d)", x(l[i-1]), x(l[i]), p.WhisperGap())
		}
	}
	for _, l := range p.Palindromes {
		for i := 0; i < len(l)/2; i++ {
			pred("eq(%s,%s)", x(l[i]), x(l[len(l)-1-i]))
		}
	}
	for _, q := range p.Quadruples {
		for d, m := range multiplicity(q.Digits) {
			line(`    <count> <list> %s </list> <values> %d </values> <condition> (ge,%d) </condition> </count>`, list(q.Cells), d, m)
		}
	}
	for _, ab := range p.moves() {
		pred("ne(%s,%s)", x(ab[0]), x(ab[1]))
	}
	for parity, cells := range [][]int{p.Even, p.Odd} {
		for _, c := range cells {
			pred("eq(mod(%s,2),%d)", x(c), parity)
		}
	}
	line(`  </constraints>`)
	line(`</instance>`)
	return bw.Flush()
}
