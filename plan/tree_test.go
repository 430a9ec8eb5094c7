package plan

import (
	"bytes"
	"encoding/xml"
	"os/exec"
	"strings"
	"testing"
)

// sample: two alike fill subtrees and a check, as in a small Sudoku plan.
const sample = `==>
3 FILL b0 c0 d1
4 FILL b0 c1 d2
5 CHECK
root 1 2 6
1 fill c0 -> m-fill 3
2 fill c1 -> m-fill 4
6 check -> m-check 5
<==
`

func TestTree(t *testing.T) {
	p, err := Read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	full := Tree(p, false)
	if full.Size() != 7 {
		t.Errorf("full tree: %d nodes, want 7", full.Size())
	}
	c := Tree(p, true)
	if c.Size() != 5 || len(c.Children) != 2 || c.Children[0].Count != 2 || c.Children[1].Count != 1 {
		t.Fatalf("collapsed: %d nodes, %d children", c.Size(), len(c.Children))
	}
	if c.Children[0].Children[0].Step != 1 {
		t.Errorf("the first action is step %d", c.Children[0].Children[0].Step)
	}
	var dot bytes.Buffer
	if err := WriteDOT(&dot, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"fill c0\n→ m-fill\n×2 alike"`, `"#3 CHECK"`, "n0 -> n1"} {
		if !strings.Contains(dot.String(), want) {
			t.Errorf("DOT lacks %s:\n%s", want, dot.String())
		}
	}
	var svg bytes.Buffer
	if err := WriteTreeSVG(&svg, c); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg.Bytes(), new(struct{})); err != nil {
		t.Fatalf("SVG is not XML: %v", err)
	}
	if n := strings.Count(svg.String(), `<g class=`); n != 5 {
		t.Errorf("SVG draws %d boxes, want 5", n)
	}
	// Graphviz renders the DOT where it is installed
	if dotCmd, err := exec.LookPath("dot"); err == nil {
		cmd := exec.Command(dotCmd, "-Tsvg")
		cmd.Stdin = &dot
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("<svg")) {
			t.Errorf("dot -Tsvg: %v\n%s", err, out)
		}
	} else {
		t.Log("graphviz not installed: the DOT output was not rendered")
	}
}

// TestTreeHostile: ids that are not defined, and a task reached twice,
// still give a finite tree.
func TestTreeHostile(t *testing.T) {
	p := &Plan{Root: []int{1, 1, 9}, Decomps: []Decomposition{{ID: 1, Task: "t", Method: "m", Subtasks: []int{1}}}}
	tr := Tree(p, false)
	if tr.Size() != 5 {
		t.Errorf("%d nodes, want root, t, its own leaf, the repeated 1 and task 9", tr.Size())
	}
}
