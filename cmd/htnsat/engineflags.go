package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/htnsat/htnsat/ground"
	"github.com/htnsat/htnsat/htn"
	"github.com/htnsat/htnsat/internal/compare"
	"github.com/htnsat/htnsat/internal/pipeline"
	"github.com/htnsat/htnsat/satenc"
	"github.com/spf13/pflag"
)

// engineFlags are the options of the engines, shared by every command that
// plans (plan, compare, sudoku solve) and mapped to the engines' options
// here alone.
type engineFlags struct {
	cores       int
	maxGround   int
	noFold      bool
	noGroups    bool
	noMatching  bool
	noLocked    bool
	noValBranch bool
	noReach     bool
	noProtect   bool
	noLandmarks bool
	noDups      bool
	noLastConf  bool
	noChain     bool
	noValueOrd  bool
	search      string
	heuristic   string
	maxNodes    int64
	noMRV       bool
	noAhead     bool
	noFocus     bool
	noDeadEnds  bool
	noClose     bool
	noRestarts  bool
	recBound    bool
	weights     map[string]int
	noConflicts bool
	completePO  bool
	serial      bool
	seed        uint64
	satSolver   string
	maxDepth    int
	noIncr      bool
	skip        bool
	oneDepth    bool
	trace       bool
	depth       int
}

// groupAnnotation marks the engine flags, which help lists apart.
const groupAnnotation = "htnsat-group"

// register adds the engine flags to f, marked as such (help lists them
// under "Engine flags").
func (e *engineFlags) register(to *pflag.FlagSet) {
	f := pflag.NewFlagSet("engine", pflag.ContinueOnError)
	defer func() {
		f.VisitAll(func(fl *pflag.Flag) {
			if fl.Annotations == nil {
				fl.Annotations = map[string][]string{}
			}
			fl.Annotations[groupAnnotation] = []string{"engine"}
		})
		to.AddFlagSet(f)
	}()
	f.IntVar(&e.cores, "cores", 0, "CPUs --engine auto may use (0: those this process may run on, as taskset and containers set them): on one, in turn: grounding on demand for 3% of the time limit (a totally ordered problem), then progression, held from a quarter of what is left while the SAT engine searches for another quarter, and on again after it (at once if the SAT engine ends without an answer); on more, side by side")
	f.IntVar(&e.maxGround, "max-ground", ground.DefaultMaxGround, "most ground actions plus methods to build")
	f.BoolVar(&e.noFold, "no-fold", false, "do not compact the ground task: keep tasks with a single method, pure tests included (both engines)")
	f.BoolVar(&e.noGroups, "no-groups", false, "do not reason over choice groups (both engines)")
	f.BoolVar(&e.noMatching, "no-matching", false, "depth-first search: do not filter choice groups by matching (all-different consistency), only by their counters")
	f.BoolVar(&e.noChain, "no-chain", false, "greedy best-first search: queue every successor, instead of following a node's forced steps (those with a single successor) unqueued and estimating only where a choice comes")
	f.BoolVar(&e.noLastConf, "no-last-conflict", false, "depth-first search: after a task failed with every method, do not decompose it first at the next branching")
	f.BoolVar(&e.noValueOrd, "no-value-order", false, "depth-first search: try a task's methods in the domain's order, not the one it took last and then those whose values fewest other methods can take first (choice groups), those reaching the most unmet goal facts first (a goal state), or, in a recursive task, those nearest its targets first (the preconditions of its method without subtasks)")
	f.BoolVar(&e.noProtect, "no-protect", false, "depth-first search of a totally ordered network: do not check that a step deletes no fact an action or method precondition waiting further on needs, unless a task in between can add it again")
	f.BoolVar(&e.noReach, "no-reach", false, "depth-first search: do not track which facts the tasks left can still add (a fact false now that no action they reach adds kills what needs it)")
	f.BoolVar(&e.noDups, "no-duplicates", false, "depth-first search of an acyclic network: search again a node met before with the same state and network (by default one searched to the end without a plan, on another path or before a restart, is not)")
	f.BoolVar(&e.noLandmarks, "no-landmarks", false, "depth-first search: ignore the facts every plan makes true at some point (landmarks, from the goal state), which the tasks left must still be able to add until one has")
	f.BoolVar(&e.noValBranch, "no-value-branch", false, "depth-first search: branch on tasks alone, never on which task of a choice group takes a value that fewer methods can take than the task has")
	f.BoolVar(&e.noLocked, "no-locked", false, "depth-first search: do not kill the methods a value locked in another choice group rules out (locked candidates)")
	f.StringVar(&e.search, "search", "auto", "progression search: auto (a portfolio: dfs, gbfs and astar in turn, under doubling slices of time; on a recursive network dfs also with --recursion-bound and --no-reach; on a large totally ordered task gbfs also with --heuristic rc, which takes astar's turn; in partial order half of dfs and of gbfs serial, see --serial, and the bounded dfs without restarts; over a task grounded on demand, dfs and gbfs, whose relaxed composition estimate first grounds what lies below the tasks met while it stays small, the least costs of the lifted domain past that), dfs, gbfs or astar")
	f.StringVar(&e.heuristic, "heuristic", "auto", "best-first searches: rc (relaxed composition, state-aware), tdg (least actions, admissible) or auto (rc for gbfs, tdg for astar)")
	f.Int64Var(&e.maxNodes, "max-nodes", 0, "most search nodes (0: no limit)")
	f.BoolVar(&e.noMRV, "no-mrv", false, "decompose compound tasks in network order, not most constrained first")
	f.BoolVar(&e.noAhead, "no-lookahead", false, "depth-first search of a totally ordered network: decompose only the task whose turn it is, not a more constrained one further on")
	f.BoolVar(&e.noFocus, "no-focus", false, "partial order: do not decompose the latest decomposition's tasks before older ones")
	f.BoolVar(&e.noDeadEnds, "no-dead-ends", false, "do not track methods that can never apply again")
	f.BoolVar(&e.noClose, "no-close", false, "grounding on demand: do not first try to ground everything below the initial network (within a quarter of the time, 30 s at most, a million actions and methods and 65,536 instances of one task) and search that as a full grounding, compacted, with every analysis of the whole task")
	f.BoolVar(&e.recBound, "recursion-bound", false, "depth-first search of a recursive network: bound how deep a task recurs, from 1, doubling when the search is exhausted")
	f.StringToIntVar(&e.weights, "portfolio", nil, "--search auto: weights of the portfolio's members by name (dfs, dfs-rec, gbfs, gbfs-rc, astar; in partial order also dfs-serial, dfs-serial-rec, gbfs-serial), e.g. dfs=2,dfs-rec=1; 0 leaves a member out")
	f.BoolVar(&e.noRestarts, "no-restarts", false, "depth-first search: never start over")
	f.BoolVar(&e.noConflicts, "no-conflicts", false, "do not weigh the choice of task by past dead ends")
	f.BoolVar(&e.serial, "serial", false, "search of a partial-order network (dfs, gbfs, astar): carry each begun task through before its siblings (if that finds nothing, the search runs again without it; the portfolio has serial and full dfs and gbfs members)")
	f.Uint64Var(&e.seed, "seed", 0, "seed of the random tie-breaking after restarts")
	f.BoolVar(&e.completePO, "complete-po", false, "in partial-order networks, also try decompositions before applicable actions (complete, slower)")
	f.StringVar(&e.satSolver, "sat-solver", "", "SAT solver: gophersat (pure Go, in-process), libcadical (linked, in binaries built with make build-cadical) or an external DIMACS solver command (e.g. 'cadical -q'); default: "+satenc.Default().Name())
	f.IntVar(&e.maxDepth, "max-depth", 0, "SAT engine: deepest decomposition tree tried for recursive problems (0: 256)")
	capFlag(f, "max-depth", satenc.DepthCap)
	f.BoolVar(&e.noIncr, "no-incremental", false, "SAT engine: encode and solve each depth of a recursive task on its own (by default one formula grows layer by layer: in the linked CaDiCaL, or handed whole to a solver that starts afresh)")
	f.BoolVar(&e.skip, "skip", false, "SAT engine, with a solver that cannot be resumed (gophersat, external): give each depth but the last a time budget (0.5 s, or a third of the time so far) and move on to one a quarter deeper when it runs out (the linked CaDiCaL shares its time among depths anyway)")
	f.BoolVar(&e.trace, "trace", false, "SAT engine: write each depth encoded and each search asked (its outcome and time) to stderr")
	f.BoolVar(&e.oneDepth, "one-depth", false, "SAT engine, with the linked CaDiCaL: ask one depth at a time, each to the end, instead of sharing the solver's time among up to four depths (algorithm B) once half of --timeout has passed")
	f.IntVar(&e.depth, "depth", 0, "SAT engine: use exactly this depth (0: automatic)")
	capFlag(f, "depth", satenc.DepthCap)
}

// htnOptions are the progression planner's options.
func (e *engineFlags) htnOptions() (htn.Options, error) {
	s, err := htn.ParseSearch(e.search)
	if err != nil {
		return htn.Options{}, &usageError{err}
	}
	h, err := htn.ParseHeuristic(e.heuristic)
	if err != nil {
		return htn.Options{}, &usageError{err}
	}
	for name, w := range e.weights {
		if !slices.Contains(htn.PortfolioMembers, name) {
			return htn.Options{}, &usageError{fmt.Errorf("--portfolio: no member %q (want one of %s)", name, strings.Join(htn.PortfolioMembers, ", "))}
		}
		if w < 0 {
			return htn.Options{}, &usageError{fmt.Errorf("--portfolio: the weight of %s is negative", name)}
		}
	}
	return htn.Options{
		Weights: e.weights,
		Search:  s, Heuristic: h, MaxNodes: e.maxNodes, Seed: e.seed, CompletePO: e.completePO, Serial: e.serial,
		NoMRV: e.noMRV, NoLookahead: e.noAhead, NoFocus: e.noFocus, NoDeadEnds: e.noDeadEnds, NoClose: e.noClose, NoGroups: e.noGroups,
		NoMatching: e.noMatching, NoLocked: e.noLocked, NoValueBranch: e.noValBranch, NoReach: e.noReach, NoProtect: e.noProtect, NoLandmarks: e.noLandmarks, NoDuplicates: e.noDups, NoLastConflict: e.noLastConf, NoChain: e.noChain, NoValueOrder: e.noValueOrd, NoRestarts: e.noRestarts, NoConflicts: e.noConflicts, RecursionBound: e.recBound,
	}, nil
}

// satConfig is the SAT engine's configuration.
func (e *engineFlags) satConfig() (satenc.Config, error) {
	cfg := satenc.Config{MaxDepth: e.maxDepth, Depth: e.depth, NoIncremental: e.noIncr, Skip: e.skip, OneDepth: e.oneDepth, Options: satenc.Options{NoGroups: e.noGroups}}
	if e.trace {
		cfg.Trace = os.Stderr
	}
	var err error
	cfg.Solver, err = satSolver(e.satSolver)
	return cfg, err
}

// satSolver is the solver a --sat-solver value names (nil for "": the
// default).
func satSolver(name string) (satenc.Solver, error) {
	switch name {
	case "":
		return nil, nil
	case "gophersat":
		return satenc.Gophersat{}, nil
	case "libcadical":
		if s := satenc.Linked(); s != nil {
			return s, nil
		}
		return nil, &usageError{fmt.Errorf("--sat-solver libcadical: this binary does not link CaDiCaL (make build-cadical builds one that does)")}
	}
	return satenc.External{Command: name}, nil
}

// pipeline is the configuration of a planning run with engine.
func (e *engineFlags) pipeline(engine pipeline.Engine) (pipeline.Config, error) {
	o, err := e.htnOptions()
	if err != nil {
		return pipeline.Config{}, err
	}
	sat, err := e.satConfig()
	if err != nil {
		return pipeline.Config{}, err
	}
	if e.cores < 0 {
		return pipeline.Config{}, fmt.Errorf("--cores %d: give 1 or more, or 0 for the CPUs this process may use", e.cores)
	}
	return pipeline.Config{Engine: engine, Ground: ground.Options{MaxGround: e.maxGround}, NoFold: e.noFold, HTN: o, SAT: sat, Cores: e.cores}, nil
}

// compare is the configuration of the Sudoku engines.
func (e *engineFlags) compare() (compare.Options, error) {
	o, err := e.htnOptions()
	if err != nil {
		return compare.Options{}, err
	}
	sat, err := e.satConfig()
	if err != nil {
		return compare.Options{}, err
	}
	return compare.Options{HTN: o, SAT: sat, NoFold: e.noFold, MaxGround: e.maxGround}, nil
}
