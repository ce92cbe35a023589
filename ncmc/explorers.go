package ncmc

import (
	"context"
	"fmt"
	"strings"

	"ncmc/explore"
	"ncmc/explore/coverability"
	"ncmc/explore/dpor"
	"ncmc/explore/graph"
	"ncmc/explore/mcrx"
	"ncmc/explore/reference"
	"ncmc/memmodel"
)

// Explorers returns the explorers in the order help texts list them. This
// is the one list: the CLI's --explorer values and help, the error for an
// unknown name and Verify's plan (plan.go) all come from it. Adding an
// explorer is its implementation plus one line here.
func Explorers() []Explorer {
	return []Explorer{
		reference.Explorer{},
		reference.Stateful{},
		mcrx.Explorer{},
		vmcrExplorer{},
		dpor.Explorer{},
		dpor.Explorer{Specs: true},
		mcrx.Thesis{},
		graph.Explorer{},
		trustExplorer{},
		coverability.Explorer{},
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

// unsupported is explore.Unsupportedf for the explorers whose glue is
// still in this package (vmcr, trust).
func unsupported(e Explorer, program bool, format string, args ...any) *Unsupported {
	return explore.Unsupportedf(e, program, format, args...)
}

// trustExplorer is the TruSt-style graph explorer of ra and rc11
// (explore/trust, glue in trustexplore.go): each consistent execution
// graph once, consistency checked incrementally per added event.
type trustExplorer struct{}

func (trustExplorer) Name() string { return "trust" }
func (trustExplorer) Doc() string {
	return "ra, rc11 (and tso, and sc as rc11 with every access seq_cst, for cross-checks): TruSt-style graph exploration (forward and backward revisits, each consistent graph once, incremental consistency); programs with condition variables, trylock, atomic blocks or nondeterminism go to graph"
}
func (e trustExplorer) Check(t *Task) error {
	if t.Model.Exec != memmodel.GraphOnly && t.Model.Name != "sc" && t.Model.Name != "tso" {
		return unsupported(e, false, "the trust explorer supports the ra, rc11, tso and sc models, not %s", t.Model.Name)
	}
	if op := trustSupported(t.Prog); op != "" {
		return unsupported(e, true, "the trust explorer does not model %s", op)
	}
	return graph.CheckProgram(t.Prog)
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
