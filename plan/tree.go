package plan

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"
)

// TreeNode is a node of a plan's decomposition tree: the root (the
// initial task network), a task with the method that decomposed it, or an
// action with its place in the execution order. Count is how many alike
// siblings it stands for when the tree is collapsed (1 otherwise).
type TreeNode struct {
	Label    string // "task args" or "ACTION args"
	Method   string // the method of a task ("" for actions and the root)
	Step     int    // 1-based place of an action in the plan (0 otherwise)
	Count    int
	Children []*TreeNode
}

// Tree builds the decomposition tree of p. With collapse, siblings whose
// subtrees have the same shape (the same task, method and children's
// shapes, arguments aside) are drawn once, with the number they stand for:
// a 9x9 Sudoku plan's 46 fill-cell subtrees become one. Task ids that the
// plan does not define become leaves labelled with their id; a task
// reached twice (an invalid plan) is not expanded again.
func Tree(p *Plan, collapse bool) *TreeNode {
	decomps := map[int]*Decomposition{}
	for i := range p.Decomps {
		decomps[p.Decomps[i].ID] = &p.Decomps[i]
	}
	actions := map[int]int{}
	for i, a := range p.Actions {
		actions[a.ID] = i
	}
	seen := map[int]bool{}
	var build func(id int) *TreeNode
	build = func(id int) *TreeNode {
		if i, ok := actions[id]; ok {
			a := p.Actions[i]
			return &TreeNode{Label: call(a.Name, a.Args), Step: i + 1, Count: 1}
		}
		d, ok := decomps[id]
		if !ok || seen[id] {
			return &TreeNode{Label: fmt.Sprintf("task %d", id), Count: 1}
		}
		seen[id] = true
		n := &TreeNode{Label: call(d.Task, d.Args), Method: d.Method, Count: 1}
		for _, s := range d.Subtasks {
			n.Children = append(n.Children, build(s))
		}
		return n
	}
	root := &TreeNode{Label: "root", Count: 1}
	for _, id := range p.Root {
		root.Children = append(root.Children, build(id))
	}
	if collapse {
		root.collapse()
	}
	return root
}

// shape is the node's subtree without arguments.
func (n *TreeNode) shape() string {
	name, _, _ := strings.Cut(n.Label, " ")
	var b strings.Builder
	b.WriteString(name + ">" + n.Method + "(")
	for _, c := range n.Children {
		b.WriteString(c.shape() + ",")
	}
	b.WriteString(")")
	return b.String()
}

func (n *TreeNode) collapse() {
	var kept []*TreeNode
	first := map[string]*TreeNode{}
	for _, c := range n.Children {
		s := c.shape()
		if f, ok := first[s]; ok {
			f.Count += c.Count
			continue
		}
		first[s] = c
		kept = append(kept, c)
	}
	n.Children = kept
	for _, c := range kept {
		c.collapse()
	}
}

// Size is the number of nodes drawn.
func (n *TreeNode) Size() int {
	s := 1
	for _, c := range n.Children {
		s += c.Size()
	}
	return s
}

func (n *TreeNode) lines() []string {
	var ls []string
	if n.Step > 0 {
		ls = append(ls, fmt.Sprintf("#%d %s", n.Step, n.Label))
	} else {
		ls = append(ls, n.Label)
	}
	if n.Method != "" {
		ls = append(ls, "→ "+n.Method)
	}
	if n.Count > 1 {
		ls = append(ls, fmt.Sprintf("×%d alike", n.Count))
	}
	return ls
}

// WriteDOT writes the tree in Graphviz's DOT language: tasks as rounded
// boxes with their method, actions as filled boxes numbered in execution
// order.
func WriteDOT(w io.Writer, t *TreeNode) error {
	b := bufio.NewWriter(w)
	b.WriteString("digraph plan {\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [arrowsize=0.6];\n")
	id := 0
	var walk func(n *TreeNode) int
	walk = func(n *TreeNode) int {
		me := id
		id++
		esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
		var ls []string
		for _, l := range n.lines() {
			ls = append(ls, esc.Replace(l))
		}
		label := `"` + strings.Join(ls, `\n`) + `"`
		attrs := `shape=box, style=rounded`
		switch {
		case n.Step > 0:
			attrs = `shape=box, style=filled, fillcolor="#dde8ff"`
		case me == 0:
			attrs = `shape=plaintext`
		}
		if n.Count > 1 {
			attrs += `, peripheries=2`
		}
		fmt.Fprintf(b, "  n%d [label=%s, %s];\n", me, label, attrs)
		for _, c := range n.Children {
			fmt.Fprintf(b, "  n%d -> n%d;\n", me, walk(c))
		}
		return me
	}
	walk(t)
	b.WriteString("}\n")
	return b.Flush()
}

// WriteTreeSVG draws the tree as SVG without Graphviz: leaves left to
// right in plan order, each parent centred over its children.
func WriteTreeSVG(w io.Writer, t *TreeNode) error {
	const charW, lineH, padX, gapX, gapY = 6.2, 13.0, 8.0, 12.0, 34.0
	type placed struct {
		n          *TreeNode
		x, y, w, h float64
		kids       []*placed
	}
	width := func(n *TreeNode) float64 {
		m := 0
		for _, l := range n.lines() {
			m = max(m, len([]rune(l)))
		}
		return float64(m)*charW + 2*padX
	}
	height := func(n *TreeNode) float64 { return float64(len(n.lines()))*lineH + 8 }
	// per depth, the tallest box sets the row height
	var rowH []float64
	var measure func(n *TreeNode, d int)
	measure = func(n *TreeNode, d int) {
		for len(rowH) <= d {
			rowH = append(rowH, 0)
		}
		rowH[d] = max(rowH[d], height(n))
		for _, c := range n.Children {
			measure(c, d+1)
		}
	}
	measure(t, 0)
	rowY := make([]float64, len(rowH))
	for d := 1; d < len(rowH); d++ {
		rowY[d] = rowY[d-1] + rowH[d-1] + gapY
	}
	// each subtree is as wide as its box or its children side by side,
	// whichever is wider; children are centred under their parent
	var span func(n *TreeNode) float64
	span = func(n *TreeNode) float64 {
		kids := 0.0
		for i, c := range n.Children {
			if i > 0 {
				kids += gapX
			}
			kids += span(c)
		}
		return max(width(n), kids)
	}
	var place func(n *TreeNode, d int, left float64) *placed
	place = func(n *TreeNode, d int, left float64) *placed {
		total := span(n)
		p := &placed{n: n, x: left + total/2, y: rowY[d] + 10, w: width(n), h: height(n)}
		kids := -gapX
		for _, c := range n.Children {
			kids += span(c) + gapX
		}
		at := left + (total-kids)/2
		for _, c := range n.Children {
			p.kids = append(p.kids, place(c, d+1, at))
			at += span(c) + gapX
		}
		return p
	}
	top := place(t, 0, 5)
	minX := 0.0
	W := span(t) + 10
	H := rowY[len(rowY)-1] + rowH[len(rowH)-1] + 20
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="%.0f 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n", W, H, minX-5, W, H)
	fmt.Fprintf(b, `<rect x="%.0f" width="100%%" height="100%%" fill="white"/>`+"\n", minX-5)
	var draw func(p *placed)
	draw = func(p *placed) {
		for _, k := range p.kids {
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888"/>`+"\n", p.x, p.y+p.h, k.x, k.y)
		}
		fill, rx, class := "#f4f4f4", 6, "task"
		switch {
		case p.n.Step > 0:
			fill, rx, class = "#dde8ff", 0, "action"
		case p == top:
			fill, class = "white", "root"
		}
		stroke := "#444"
		if p.n.Count > 1 {
			stroke = "#c05000"
		}
		fmt.Fprintf(b, `<g class="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="%d" fill="%s" stroke="%s"/>`, class, p.x-p.w/2, p.y, p.w, p.h, rx, fill, stroke)
		for i, l := range p.n.lines() {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, p.x, p.y+lineH*float64(i+1), html.EscapeString(l))
		}
		b.WriteString("</g>\n")
		for _, k := range p.kids {
			draw(k)
		}
	}
	draw(top)
	b.WriteString("</svg>\n")
	return b.Flush()
}
