package htn

import "github.com/htnsat/htnsat/ground"

// solutionFromPath builds the tree of a successful depth-first path:
// network nodes become tree nodes and check nodes are dropped (a task
// decomposed ahead stands as its method's check, but keeps its task).
func solutionFromPath(initial int, nodes []netNode, path []step) *ground.Solution {
	sol := &ground.Solution{}
	tree := make([]int32, len(nodes)) // network node -> tree node
	for i := range tree {
		tree[i] = -1
	}
	node := func(n int32) int32 {
		if tree[n] < 0 {
			tree[n] = int32(len(sol.Nodes))
			sol.Nodes = append(sol.Nodes, ground.SolNode{Task: ground.TaskID(nodes[n].task), Method: -1})
		}
		return tree[n]
	}
	for i := 0; i < initial; i++ {
		sol.Roots = append(sol.Roots, node(int32(i)))
	}
	for _, st := range path {
		if st.method < 0 {
			if nodes[st.node].kind == nodeTask {
				sol.Order = append(sol.Order, node(st.node))
			}
			continue
		}
		var kids []int32
		for i := st.first; i < st.first+st.count; i++ {
			if nodes[i].task >= 0 { // a check is not in the tree
				kids = append(kids, node(i))
			}
		}
		attach(sol, node(st.node), st.method, kids)
	}
	return sol
}

// attach records that tree node n is decomposed by method m into the
// given children, in the method's subtask order.
func attach(sol *ground.Solution, n int32, m int32, kids []int32) {
	sol.Nodes[n].Method = ground.MethodID(m)
	sol.Nodes[n].Children = kids
}
