package ground_test

import (
	"math/rand/v2"
	"testing"

	"github.com/htnsat/htnsat/ground"
)

// TestComponents checks the strongly connected components of random task
// graphs against reachability computed by brute force: two tasks share a
// component exactly when each reaches the other, and a method's compound
// subtasks never lie in a component numbered above its task's.
func TestComponents(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		na := rng.IntN(3)
		nc := 1 + rng.IntN(12)
		task := &ground.Task{Actions: make([]ground.Action, na), Compounds: make([]ground.Compound, nc)}
		for i := range nc * (1 + rng.IntN(3)) {
			c := ground.TaskID(na + rng.IntN(nc))
			if i < nc {
				c = ground.TaskID(na + i)
			}
			var sub []ground.TaskID
			for range rng.IntN(4) {
				sub = append(sub, ground.TaskID(rng.IntN(na+nc)))
			}
			m := ground.MethodID(len(task.Methods))
			task.Methods = append(task.Methods, ground.Method{Task: c, Subtasks: sub})
			task.Compound(c).Methods = append(task.Compound(c).Methods, m)
		}
		// reach[i][j]: compound i decomposes, in one or more steps, into j
		reach := make([][]bool, nc)
		for i := range reach {
			reach[i] = make([]bool, nc)
			reach[i][i] = true
		}
		for _, m := range task.Methods {
			for _, s := range m.Subtasks {
				if !task.IsPrimitive(s) {
					reach[int(m.Task)-na][int(s)-na] = true
				}
			}
		}
		for k := range nc {
			for i := range nc {
				for j := range nc {
					reach[i][j] = reach[i][j] || reach[i][k] && reach[k][j]
				}
			}
		}
		comp, n := task.Components()
		if len(comp) != nc {
			t.Fatalf("trial %d: %d components for %d tasks", trial, len(comp), nc)
		}
		for i := range nc {
			if comp[i] < 0 || int(comp[i]) >= n {
				t.Fatalf("trial %d: task %d in component %d of %d", trial, i, comp[i], n)
			}
			for j := range nc {
				if same, mutual := comp[i] == comp[j], reach[i][j] && reach[j][i]; same != mutual {
					t.Fatalf("trial %d: tasks %d and %d: same component %v, reach each other %v", trial, i, j, same, mutual)
				}
			}
		}
		for _, m := range task.Methods {
			for _, s := range m.Subtasks {
				if !task.IsPrimitive(s) && comp[int(s)-na] > comp[int(m.Task)-na] {
					t.Fatalf("trial %d: subtask in component %d above its task's %d", trial, comp[int(s)-na], comp[int(m.Task)-na])
				}
			}
		}
	}
}
