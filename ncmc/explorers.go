package ncmc

import (
	"context"
	"fmt"
	"strings"

	"ncmc/memmodel"
)

// Explorers returns the explorers in the order help texts list them. This
// is the one list: the CLI's --explorer values and help, the error for an
// unknown name and Verify's plan (plan.go) all come from it. Adding an
// explorer is its implementation plus one line here.
func Explorers() []Explorer {
	return []Explorer{
		referenceExplorer{},
		statefulExplorer{},
		mcrExplorer{},
		vmcrExplorer{},
		dporExplorer{name: "dpor", doc: "sleep sets and source sets (optimal-style DPOR) over interleavings; sc"},
		dporExplorer{name: "ncmc", doc: "with --spec: invocations of linearizable methods as atomic steps, commuting ones not reordered (docs/ncmc.md); dpor without specs; sc"},
		thesisExplorer{},
		graphExplorer{},
		trustExplorer{},
		coverabilityExplorer{},
	}
}

// AutoExplorer is the name of the default: Verify's plan picks the
// explorers (plan.go).
const AutoExplorer = "auto"

// ExplorerNames lists "auto" and the names of Explorers, in order.
func ExplorerNames() []string {
	out := []string{AutoExplorer}
	for _, e := range Explorers() {
		out = append(out, e.Name())
	}
	return out
}

// ExplorerHelp describes auto and every explorer, one "name: doc" each,
// joined by "; ".
func ExplorerHelp() string {
	parts := []string{AutoExplorer + ": " + autoDoc}
	for _, e := range Explorers() {
		parts = append(parts, e.Name()+": "+e.Doc())
	}
	return strings.Join(parts, "; ")
}

// LookupExplorer returns the explorer called name; the error lists the
// explorers there are. "auto" is not an explorer but a plan (plan.go).
func LookupExplorer(name string) (Explorer, error) {
	for _, e := range Explorers() {
		if e.Name() == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("explorer %q is not available (available: %s)", name, strings.Join(ExplorerNames(), ", "))
}

func unsupported(e Explorer, program bool, format string, args ...any) *Unsupported {
	return &Unsupported{Explorer: e.Name(), Reason: fmt.Sprintf(format, args...), Program: program}
}

// referenceExplorer enumerates every interleaving: the oracle.
type referenceExplorer struct{}

func (referenceExplorer) Name() string { return "reference" }
func (referenceExplorer) Doc() string {
	return "enumerates every interleaving (sc, tso, pso); the oracle; with --state-cache it is the stateful explorer"
}
func (e referenceExplorer) Check(t *Task) error { return checkOperational(e, t) }
func (referenceExplorer) Explore(ctx context.Context, t *Task) error {
	return exploreReference(ctx, t)
}

// statefulExplorer is the reference explorer with the state cache: runs
// that reach a state seen before are cut off (snapshots, symmetry).
type statefulExplorer struct{}

func (statefulExplorer) Name() string { return "stateful" }
func (statefulExplorer) Doc() string {
	return "the reference explorer with a state cache: runs that reach a state seen before are cut off (outcomes and verdict unchanged)"
}
func (e statefulExplorer) Check(t *Task) error { return checkOperational(e, t) }
func (statefulExplorer) Explore(ctx context.Context, t *Task) error {
	t.Opts.StateCache = true
	return exploreReference(ctx, t)
}

func checkOperational(e Explorer, t *Task) error {
	if !t.Model.Operational() {
		return unsupported(e, false, "%s explores interleavings: it supports the %s models, not %s", e.Name(), strings.Join(memmodel.Operational(), ", "), t.Model.Name)
	}
	if t.Opts.Races && t.Model.Exec != memmodel.Interleaving {
		return unsupported(e, false, "data-race detection is available under sc, ra and rc11 (not %s)", t.Model.Name)
	}
	return nil
}

// mcrExplorer is maximal causality reduction (mcrexplore.go, package mcr).
type mcrExplorer struct{}

func (mcrExplorer) Name() string { return "mcr" }
func (mcrExplorer) Doc() string {
	return "maximal causality reduction with Z3 (sc, tso, pso); programs it does not support (condition variables, trylock) are explored by the reference explorer, with a note"
}
func (e mcrExplorer) Check(t *Task) error {
	if !t.Model.Operational() {
		return unsupported(e, false, "%s", mcrModels())
	}
	if t.Opts.Races {
		return unsupported(e, false, "data-race detection is not available with the mcr explorer")
	}
	if why := mcrUnsupported(t.Prog, t.Opts); why != "" {
		return unsupported(e, true, "%s", why)
	}
	return nil
}

// mcrModels says which models mcr supports.
func mcrModels() string {
	return fmt.Sprintf("mcr supports the %s models", strings.Join(memmodel.Operational(), ", "))
}

func (mcrExplorer) Explore(ctx context.Context, t *Task) error { return exploreMCR(ctx, t) }

// dporExplorer is the DPOR explorer (ncmcexplore.go): "dpor", and "ncmc"
// for the same algorithm with commutativity specs.
type dporExplorer struct{ name, doc string }

func (e dporExplorer) Name() string { return e.name }
func (e dporExplorer) Doc() string  { return e.doc }
func (e dporExplorer) Check(t *Task) error {
	if t.Opts.Races {
		return unsupported(e, false, "data-race detection is not available with the %s explorer", e.name)
	}
	if t.Model.Exec != memmodel.Interleaving {
		return unsupported(e, false, "the %s explorer (--spec) supports only the sc memory model, not %s", e.name, t.Model.Name)
	}
	return checkSpecs(t.Prog, t.Opts.Specs)
}
func (dporExplorer) Explore(ctx context.Context, t *Task) error { return exploreNCMC(ctx, t) }

// thesisExplorer is mcr under the NCMC thesis's scoped-read rule
// (ncmcthesis.go).
type thesisExplorer struct{}

func (thesisExplorer) Name() string { return "ncmc-thesis" }
func (thesisExplorer) Doc() string {
	return "with --spec: mcr under the NCMC thesis's scoped-read pruning (known to miss behaviours); sc"
}
func (e thesisExplorer) Check(t *Task) error {
	if err := (dporExplorer{name: "ncmc"}).Check(t); err != nil {
		return err
	}
	if why := mcrUnsupported(t.Prog, t.Opts); why != "" {
		return fmt.Errorf("ncmc rule thesis runs on mcr: %s", why)
	}
	return nil
}
func (thesisExplorer) Explore(ctx context.Context, t *Task) error { return verifyNCMCThesis(ctx, t) }

// graphExplorer builds each consistent execution graph once, choosing
// reads-from and modification order against the model's axioms
// (interp/relaxed.go).
type graphExplorer struct{}

func (graphExplorer) Name() string { return "graph" }
func (graphExplorer) Doc() string {
	return "builds each consistent execution graph once, rf and mo choices checked against the model's axioms (every model; the explorer of ra and rc11)"
}
func (e graphExplorer) Check(t *Task) error {
	if t.Opts.Races && t.Model.Race == "" {
		return unsupported(e, false, "the %s model defines no data races for graph exploration; use the reference explorer", t.Model.Name)
	}
	if err := checkGraphProgram(t.Prog); err != nil {
		return err
	}
	return nil
}
func (graphExplorer) Explore(ctx context.Context, t *Task) error { return exploreGraphs(ctx, t) }

// coverabilityExplorer is the Karp–Miller construction over
// interchangeable threads (coverability.go).
type coverabilityExplorer struct{}

func (coverabilityExplorer) Name() string { return "coverability" }
func (coverabilityExplorer) Doc() string {
	return "sc, programs whose threads are interchangeable and whose spawned handles are never used (e.g. main spawning in an endless loop): the Karp-Miller construction, which can prove programs with unboundedly many threads safe; it never answers violation"
}
func (e coverabilityExplorer) Check(t *Task) error {
	if t.Model.Exec != memmodel.Interleaving {
		return unsupported(e, false, "the coverability explorer supports the sc memory model only")
	}
	return nil
}
func (coverabilityExplorer) Explore(ctx context.Context, t *Task) error {
	return exploreCoverability(ctx, t)
}

// trustExplorer is the TruSt-style graph explorer of ra and rc11
// (explore/trust, glue in trustexplore.go): each consistent execution
// graph once, consistency checked incrementally per added event.
type trustExplorer struct{}

func (trustExplorer) Name() string { return "trust" }
func (trustExplorer) Doc() string {
	return "ra, rc11: TruSt-style graph exploration (forward and backward revisits, each consistent graph once, incremental consistency); programs with mutexes, condition variables, atomic blocks or nondeterminism go to graph"
}
func (e trustExplorer) Check(t *Task) error {
	if t.Model.Exec != memmodel.GraphOnly {
		return unsupported(e, false, "the trust explorer supports the ra and rc11 models, not %s", t.Model.Name)
	}
	if op := trustSupported(t.Prog); op != "" {
		return unsupported(e, true, "the trust explorer does not model %s", op)
	}
	return checkGraphProgram(t.Prog)
}
func (trustExplorer) Explore(ctx context.Context, t *Task) error {
	return adoptResult(t, func() (*Result, error) { return exploreTrust(ctx, t.Prog, t.Opts) })
}

// vmcrExplorer is value-annotated MCR (explore/vmcr, glue in
// vmcrexplore.go): one execution per value class, RVF-SMC style.
type vmcrExplorer struct{}

func (vmcrExplorer) Name() string { return "vmcr" }
func (vmcrExplorer) Doc() string {
	return "sc, tso, pso: value-annotated maximal causality reduction (one frontier read per node, value groups, negative annotations; store buffers as commit threads; docs/vmcr.md); condition variables and atomic blocks go to the stateful explorer"
}
func (e vmcrExplorer) Check(t *Task) error {
	if t.Opts.Races {
		return unsupported(e, false, "data-race detection is not available with the vmcr explorer")
	}
	if why := vmcrModelUnsupported(t.Model); why != "" {
		return unsupported(e, false, "%s", why)
	}
	if why := vmcrUnsupported(t.Prog); why != "" {
		return unsupported(e, true, "%s", why)
	}
	return nil
}
func (vmcrExplorer) Explore(ctx context.Context, t *Task) error {
	return adoptResult(t, func() (*Result, error) { return exploreVMCR(ctx, t.Prog, t.Opts) })
}

// adoptResult runs an explorer whose glue still builds its own Result
// (trustexplore.go, vmcrexplore.go: written beside the Task API and not yet
// ported to it) and makes that Result the task's.
func adoptResult(t *Task, run func() (*Result, error)) error {
	res, err := run()
	if err != nil {
		return err
	}
	t.Amend(func(r *Result) { *r = *res })
	return nil
}
