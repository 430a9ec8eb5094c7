package hddl

// The checked lifted model. Every name is resolved to an index; names are
// kept, exactly as written, for printing. Values of these types are built by
// the checker and never changed afterwards.

// Type is a declared (or implicitly declared) type. Index 0 of
// Domain.Types is always the root type "object".
type Type struct {
	Name    string
	Parents []int // direct parents; empty only for "object"
	// Either lists the member types when this type stands for "(either a b)";
	// such types are made by the checker and printed in their "either" form.
	Either   []int
	Implicit bool // used as a parent but never declared
	Pos      Pos
}

// Object is a domain constant or a problem object.
type Object struct {
	Name string
	Type int
	Pos  Pos
}

// Param is a typed variable: a parameter, a quantified variable or a free
// variable of the initial task network.
type Param struct {
	Name string // with the leading "?"
	Type int
	Pos  Pos
}

// Predicate is a declared predicate.
type Predicate struct {
	Name   string
	Params []Param
	Pos    Pos
}

// Term is a variable or an object. Non-negative values index the variables
// of the enclosing scope (an action's, method's or network's Vars);
// negative values encode objects as -1-index into Problem.Objects (domain
// constants come first there, so a domain term means the same object in
// every problem).
type Term int32

// VarTerm is the term for variable i of the enclosing scope.
func VarTerm(i int) Term { return Term(i) }

// ObjTerm is the term for object i.
func ObjTerm(i int) Term { return Term(-1 - i) }

// IsVar reports whether t is a variable.
func (t Term) IsVar() bool { return t >= 0 }

// Var is the variable index of t; t must be a variable.
func (t Term) Var() int { return int(t) }

// Obj is the object index of t; t must not be a variable.
func (t Term) Obj() int { return int(-1 - t) }

// FormulaKind says which connective a Formula node is.
type FormulaKind uint8

// Formula kinds.
const (
	FTrue   FormulaKind = iota // the empty formula "()"
	FAtom                      // (p t1 ... tn)
	FEqual                     // (= t1 t2)
	FNot                       // (not f)
	FAnd                       // (and f1 ... fn)
	FOr                        // (or f1 ... fn)
	FImply                     // (imply f1 f2)
	FForall                    // (forall (vars) f)
	FExists                    // (exists (vars) f)
	FWhen                      // (when cond effect), effects only
)

var kindNames = [...]string{"()", "atom", "=", "not", "and", "or", "imply", "forall", "exists", "when"}

func (k FormulaKind) String() string { return kindNames[k] }

// Formula is a precondition, goal or effect.
type Formula struct {
	Kind FormulaKind
	Pred int        // FAtom
	Args []Term     // FAtom; FEqual has exactly two
	Subs []*Formula // operands; FForall/FExists/FNot have one, FImply and FWhen two
	Vars []int      // FForall/FExists: indices into the scope's Vars
	Pos  Pos
}

// Action is a primitive task.
type Action struct {
	Name         string
	Vars         []Param // parameters first, then quantified variables
	NumParams    int
	Precondition *Formula // nil means true
	Effect       *Formula // nil means no effect
	// Cost is what (increase (total-cost) N) in the effect adds; in a
	// domain without costs (Domain.Costs false) every action costs 1
	// (see Domain.ActionCost).
	Cost int
	Pos  Pos
}

// Params returns the action's parameters.
func (a *Action) Params() []Param { return a.Vars[:a.NumParams] }

// Task is a compound (abstract) task.
type Task struct {
	Name   string
	Params []Param
	Pos    Pos
}

// TaskRef names a primitive or compound task.
type TaskRef struct {
	Primitive bool // an Action; otherwise a compound Task
	Index     int
}

// Subtask is one task of a task network.
type Subtask struct {
	ID   string // as written; "" when the file gave none
	Task TaskRef
	Args []Term
	Pos  Pos
}

// Order says that subtask Before precedes subtask After (indices into the
// network's Subtasks).
type Order struct {
	Before, After int
	Pos           Pos
}

// Network is a partially ordered task network. When the ordering is total,
// Subtasks are stored in that order, Ordering is the chain 0<1<...<n-1 and
// Total is set; otherwise Subtasks keep the order of the file and Ordering
// the pairs as written.
type Network struct {
	Subtasks []Subtask
	Ordering []Order
	Total    bool
}

// Method decomposes a compound task into a task network.
type Method struct {
	Name         string
	Task         int    // index into Domain.Tasks
	TaskArgs     []Term // arguments of the decomposed task
	Vars         []Param
	NumParams    int
	Precondition *Formula // includes :constraints; nil means true
	Network      Network
	Pos          Pos
}

// Params returns the method's parameters.
func (m *Method) Params() []Param { return m.Vars[:m.NumParams] }

// Domain is a checked HDDL domain.
type Domain struct {
	Name string
	// Costs says that the domain has action costs: it declares the
	// function total-cost, or an action increases it.
	Costs        bool
	File         string
	Requirements []string
	Types        []Type
	Constants    []Object
	Predicates   []Predicate
	Tasks        []Task
	Actions      []Action
	Methods      []Method
	Warnings     []*Error

	typeIndex   map[string]int
	constIndex  map[string]int
	predIndex   map[string]int
	taskIndex   map[string]int
	actionIndex map[string]int
	methodIndex map[string]int
	// subtype[t] lists every type that is t or below t
	subtypes [][]int
	// ancestors[t] lists every type that is t or above t
	ancestors [][]int
}

// Problem is a checked HDDL problem over a Domain.
type Problem struct {
	Name       string
	DomainName string
	File       string
	Domain     *Domain
	// Objects holds the domain's constants first, then the problem's objects.
	Objects []Object
	Init    []Atom
	// Initial is the initial task network. Its Vars are the free variables
	// (:htn :parameters) followed by variables quantified in Constraints.
	Initial     Network
	Vars        []Param
	NumParams   int
	Constraints *Formula // :htn :constraints; nil means true
	HasHTN      bool
	Goal        *Formula // nil means true
	GoalVars    []Param  // the variables quantified in Goal
	Warnings    []*Error

	objIndex map[string]int
}

// Atom is a ground atom of the initial state.
type Atom struct {
	Pred int
	Args []int // object indices
	Pos  Pos
}

// TypeIndex returns the index of the named type, or -1.
func (d *Domain) TypeIndex(name string) int { return lookup(d.typeIndex, name) }

// PredicateIndex returns the index of the named predicate, or -1.
func (d *Domain) PredicateIndex(name string) int { return lookup(d.predIndex, name) }

// TaskIndex returns the index of the named compound task, or -1.
func (d *Domain) TaskIndex(name string) int { return lookup(d.taskIndex, name) }

// ActionIndex returns the index of the named action, or -1.
func (d *Domain) ActionIndex(name string) int { return lookup(d.actionIndex, name) }

// MethodIndex returns the index of the named method, or -1.
func (d *Domain) MethodIndex(name string) int { return lookup(d.methodIndex, name) }

// ObjectIndex returns the index of the named object or constant, or -1.
func (p *Problem) ObjectIndex(name string) int { return lookup(p.objIndex, name) }

func lookup(m map[string]int, name string) int {
	if i, ok := m[name]; ok {
		return i
	}
	return -1
}

// IsSubtype reports whether type a is b or below b.
func (d *Domain) IsSubtype(a, b int) bool {
	for _, t := range d.ancestors[a] {
		if t == b {
			return true
		}
	}
	return false
}

// Subtypes lists every type that is t or below t.
func (d *Domain) Subtypes(t int) []int { return d.subtypes[t] }

// ObjectNames returns the names of the objects args index.
func (p *Problem) ObjectNames(args []int) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = p.Objects[a].Name
	}
	return out
}

// ObjectsOfType returns the indices of the objects whose type is t or a
// subtype of t, in object order.
func (p *Problem) ObjectsOfType(t int) []int {
	var out []int
	for i, o := range p.Objects {
		if p.Domain.IsSubtype(o.Type, t) {
			out = append(out, i)
		}
	}
	return out
}

// TaskName returns the name of a primitive or compound task.
func (d *Domain) TaskName(r TaskRef) string {
	if r.Primitive {
		return d.Actions[r.Index].Name
	}
	return d.Tasks[r.Index].Name
}

// TaskParams returns the parameters of a primitive or compound task.
func (d *Domain) TaskParams(r TaskRef) []Param {
	if r.Primitive {
		return d.Actions[r.Index].Params()
	}
	return d.Tasks[r.Index].Params
}

// IsTotalOrder reports whether every method's network and the initial
// network are totally ordered.
func (p *Problem) IsTotalOrder() bool {
	if !p.Initial.Total {
		return false
	}
	for i := range p.Domain.Methods {
		if !p.Domain.Methods[i].Network.Total {
			return false
		}
	}
	return true
}

// MaxCost is the largest action cost a domain may state. The planners add
// costs along a plan in 64 bits, so with costs up to 2^31-1 no sum over
// any plan that fits in memory overflows, and a search that compares
// costs (A*, --optimize) compares the true ones.
const MaxCost = 1<<31 - 1

// ActionCost is the cost of action i: its (increase (total-cost) N) in a
// domain with costs, 1 in a domain without (the length of a plan is its
// cost).
func (d *Domain) ActionCost(i int) int {
	if !d.Costs {
		return 1
	}
	return d.Actions[i].Cost
}
