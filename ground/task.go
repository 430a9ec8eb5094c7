package ground

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/htnsat/htnsat/hddl"
)

// FactID indexes Task.Facts.
type FactID int32

// TaskID names a primitive or a compound task. Primitive tasks (actions)
// come first: IDs below len(Task.Actions) are actions, the others are
// compound tasks at index ID-len(Task.Actions) of Task.Compounds.
type TaskID int32

// MethodID indexes Task.Methods.
type MethodID int32

// Fact is a ground fluent atom.
type Fact struct {
	Pred int   // index into the domain's predicates
	Args []int // object indices
}

// Action is a ground primitive task. Preconditions and effects are over
// fluent facts only: static and constant facts are compiled away.
type Action struct {
	Schema int   // index into the domain's actions
	Args   []int // objects bound to the schema's parameters
	Pre    []FactID
	NegPre []FactID
	Add    []FactID
	Del    []FactID
}

// ActionCost is the cost of ground action a (hddl.Domain.ActionCost: 1
// in a domain without costs, or in a task built without a problem).
func (t *Task) ActionCost(a TaskID) int {
	if t.Problem == nil || t.Problem.Domain == nil {
		return 1
	}
	return t.Problem.Domain.ActionCost(t.Actions[a].Schema)
}

// Compound is a ground compound task.
type Compound struct {
	// Schema indexes the domain's tasks, or is -1 for a synthetic choice
	// task: one that binds free variables of the initial task network, or
	// one that stands for a subtask of a method, or for consecutive ones,
	// and binds the variables only they use (each of its methods has those
	// subtasks as its subtasks). Plans are written without synthetic tasks.
	Schema  int
	Args    []int
	Methods []MethodID
}

// Synthetic reports whether the task was made by the grounder.
func (c *Compound) Synthetic() bool { return c.Schema < 0 }

// Order says that subtask Before precedes subtask After.
type Order struct{ Before, After int32 }

// Method is a ground method. Its precondition must hold in the state in
// which its first subtask runs (for a method without subtasks: where the
// decomposed task stands in the plan).
type Method struct {
	// Schema indexes the domain's methods, or is -1 for the methods of a
	// synthetic choice task.
	Schema int
	// Args are the objects bound to the schema's parameters, -1 for one
	// bound in a synthetic task split off the method (see Compound); for
	// the methods of a synthetic task, the values of the variables it binds.
	Args     []int
	Task     TaskID
	Pre      []FactID
	NegPre   []FactID
	Subtasks []TaskID
	Ordering []Order // pairs over Subtasks indices
	Total    bool    // Subtasks are listed in their only order
}

// Task is a ground HTN planning task with dense integer IDs. It is built
// by Ground and never changed afterwards.
type Task struct {
	Facts     []Fact
	Actions   []Action
	Compounds []Compound
	Methods   []Method
	Init      []FactID // the fluent facts true in the initial state
	// The initial task network.
	Initial      []TaskID
	InitialOrder []Order
	InitialTotal bool
	Goal         []FactID // fluent facts that must hold at the end
	GoalNeg      []FactID // fluent facts that must not hold at the end

	Problem *hddl.Problem // the lifted problem, for names

	memo *memo // analyses computed once (nil: not kept)
}

// memo keeps the analyses of a task that are expensive enough to compute
// once for all its engines.
type memo struct {
	groups atomic.Pointer[[]ChoiceGroup]
}

// NumTasks is the number of primitive and compound tasks.
func (t *Task) NumTasks() int { return len(t.Actions) + len(t.Compounds) }

// IsPrimitive reports whether id is an action.
func (t *Task) IsPrimitive(id TaskID) bool { return int(id) < len(t.Actions) }

// Compound returns the compound task id; id must not be primitive.
func (t *Task) Compound(id TaskID) *Compound { return &t.Compounds[int(id)-len(t.Actions)] }

// CompoundID is the TaskID of compound task i.
func (t *Task) CompoundID(i int) TaskID { return TaskID(len(t.Actions) + i) }

// FactName is "(pred a b)".
func (t *Task) FactName(f FactID) string {
	fa := t.Facts[f]
	return "(" + t.call(t.Problem.Domain.Predicates[fa.Pred].Name, fa.Args) + ")"
}

func (t *Task) call(name string, args []int) string { return callName(t.Problem, name, args) }

// callName writes a name and the objects args index, as HDDL writes a
// call without its parentheses ("move a b").
func callName[T int | int32](p *hddl.Problem, name string, args []T) string {
	var b strings.Builder
	b.WriteString(name)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(p.Objects[a].Name)
	}
	return b.String()
}

// TaskName is the task's name and arguments as in the input ("move a b").
// Synthetic choice tasks are named "__choice_<i>".
func (t *Task) TaskName(id TaskID) string {
	d := t.Problem.Domain
	if t.IsPrimitive(id) {
		a := &t.Actions[id]
		return t.call(d.Actions[a.Schema].Name, a.Args)
	}
	c := t.Compound(id)
	if c.Synthetic() {
		return fmt.Sprintf("__choice_%d", int(id)-len(t.Actions))
	}
	return t.call(d.Tasks[c.Schema].Name, c.Args)
}

// MethodName is the lifted method's name ("__choose" for the methods of a
// synthetic choice task).
func (t *Task) MethodName(m MethodID) string {
	if s := t.Methods[m].Schema; s >= 0 {
		return t.Problem.Domain.Methods[s].Name
	}
	return "__choose"
}

// Validate checks that every ID is in range, that methods decompose
// compound tasks listed as their own, that orderings are acyclic and that
// facts appear at most once per list. Tests call it on every task.
func (t *Task) Validate() error {
	nf, nt := len(t.Facts), t.NumTasks()
	facts := func(what string, fs []FactID) error {
		seen := map[FactID]bool{}
		for _, f := range fs {
			if f < 0 || int(f) >= nf {
				return fmt.Errorf("%s: fact %d out of range", what, f)
			}
			if seen[f] {
				return fmt.Errorf("%s: fact %s listed twice", what, t.FactName(f))
			}
			seen[f] = true
		}
		return nil
	}
	for i, a := range t.Actions {
		what := "action " + t.TaskName(TaskID(i))
		for _, l := range []struct {
			n  string
			fs []FactID
		}{{"pre", a.Pre}, {"negpre", a.NegPre}, {"add", a.Add}, {"del", a.Del}} {
			if err := facts(what+" "+l.n, l.fs); err != nil {
				return err
			}
		}
		if len(a.Args) != len(t.Problem.Domain.Actions[a.Schema].Params()) {
			return fmt.Errorf("%s: %d arguments", what, len(a.Args))
		}
	}
	tasks := func(what string, ts []TaskID, order []Order) error {
		for _, s := range ts {
			if s < 0 || int(s) >= nt {
				return fmt.Errorf("%s: task %d out of range", what, s)
			}
		}
		if _, err := Linearize(len(ts), order); err != nil {
			return fmt.Errorf("%s: %v", what, err)
		}
		return nil
	}
	for i := range t.Compounds {
		c := &t.Compounds[i]
		id := t.CompoundID(i)
		if len(c.Methods) == 0 {
			return fmt.Errorf("compound task %s has no method", t.TaskName(id))
		}
		for _, m := range c.Methods {
			if m < 0 || int(m) >= len(t.Methods) || t.Methods[m].Task != id {
				return fmt.Errorf("compound task %s lists method %d, which is not its own", t.TaskName(id), m)
			}
		}
	}
	for i := range t.Methods {
		m := &t.Methods[i]
		what := fmt.Sprintf("method %d (%s)", i, t.MethodName(MethodID(i)))
		if m.Task < 0 || int(m.Task) >= nt || t.IsPrimitive(m.Task) {
			return fmt.Errorf("%s decomposes task %d, which is not compound", what, m.Task)
		}
		if err := facts(what+" pre", m.Pre); err != nil {
			return err
		}
		if err := facts(what+" negpre", m.NegPre); err != nil {
			return err
		}
		if err := tasks(what, m.Subtasks, m.Ordering); err != nil {
			return err
		}
		if m.Total && !isChain(len(m.Subtasks), m.Ordering) {
			return fmt.Errorf("%s is marked total but its ordering is not the chain", what)
		}
	}
	if err := facts("init", t.Init); err != nil {
		return err
	}
	if err := facts("goal", t.Goal); err != nil {
		return err
	}
	if err := facts("negative goal", t.GoalNeg); err != nil {
		return err
	}
	if err := tasks("initial network", t.Initial, t.InitialOrder); err != nil {
		return err
	}
	if t.InitialTotal && !isChain(len(t.Initial), t.InitialOrder) {
		return fmt.Errorf("initial network is marked total but its ordering is not the chain")
	}
	return nil
}

func isChain(n int, order []Order) bool {
	if len(order) != max(n-1, 0) {
		return false
	}
	for i, o := range order {
		if int(o.Before) != i || int(o.After) != i+1 {
			return false
		}
	}
	return true
}
