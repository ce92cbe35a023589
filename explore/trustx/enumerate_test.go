package trustx_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"ncmc/explore/graph"
	"ncmc/explore/trustx"
	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// compileCIR parses the CIR program src called name.
func compileCIR(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	p, err := frontend.ParseCIR(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// summary of an exploration: outcomes of complete executions with their
// numbers of distinct graphs, and the set of violation messages.
type enumSummary struct {
	graphs     map[string]map[string]bool // final state -> graph keys
	violations map[string]bool
	dup        int
}

// addGraph records the graph of complete execution x under its final
// state (dup counts graphs seen before).
func (s *enumSummary) addGraph(x *interp.Execution) {
	st := interp.FinalState(x)
	if s.graphs[st] == nil {
		s.graphs[st] = map[string]bool{}
	}
	k := x.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
	if s.graphs[st][k] {
		s.dup++
	}
	s.graphs[st][k] = true
}

func summarise(t *testing.T, p *ir.Program, opts trustx.EnumOptions, budget time.Duration) (*enumSummary, bool) {
	s := &enumSummary{graphs: map[string]map[string]bool{}, violations: map[string]bool{}}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	st, err := trustx.Enumerate(ctx, p, opts, func(x *interp.Execution) bool {
		msg, _, _ := x.Violation()
		switch {
		case msg != "":
			s.violations[msg] = true
		case x.Complete():
			s.addGraph(x)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, st.Stopped == ""
}

func (s *enumSummary) String() string {
	var l []string
	for st, ks := range s.graphs {
		l = append(l, st+" x"+strconv.Itoa(len(ks)))
	}
	for v := range s.violations {
		l = append(l, "violation: "+v)
	}
	sort.Strings(l)
	return strings.Join(l, "\n")
}

// TestGraphSCMatchesOperational cross-checks graph exploration under seg's
// sc model against the interpreter's interleavings on the example programs
// (locks, condition variables, spawn and join, heap, spin loops): the same
// complete outcomes with the same execution graphs, the same violations,
// and every graph built once.
func TestGraphSCMatchesOperational(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.cir")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	budget := 5 * time.Second
	if testing.Short() {
		budget = time.Second
	}
	compared := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.ParseCIR(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if graph.CheckProgram(p) != nil {
			continue
		}
		op, ok1 := summarise(t, p, trustx.EnumOptions{Model: "sc", Operational: true, Unroll: 3}, budget)
		gr, ok2 := summarise(t, p, trustx.EnumOptions{Model: "sc", Unroll: 3}, budget)
		if !ok1 || !ok2 {
			t.Logf("%s: not compared (exploration exceeds %s)", f, budget)
			continue
		}
		compared++
		if gr.dup > 0 {
			t.Errorf("%s: graph exploration built %d graphs twice", f, gr.dup)
		}
		// violating executions stop early, so their partial graphs depend on
		// the schedule: compare only their messages
		if a, b := gr.String(), op.String(); a != b {
			t.Errorf("%s: graph exploration and interleavings disagree\ngraphs:\n%s\ninterleavings:\n%s", f, a, b)
		}
	}
	if compared < 5 {
		t.Errorf("only %d examples compared", compared)
	}
	t.Logf("%d of %d examples compared", compared, len(files))
}
