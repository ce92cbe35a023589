package trustx_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"ncmc/explore/graph"
	"ncmc/explore/trustx"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/interp"
	"ncmc/memmodel"
	"ncmc/seg"
)

// TestGraphRacesMatchModel checks the imperative race finder of graph
// exploration (GraphRaces, the fast path) against the data-race axiom of
// the model text (memmodel.Model.Race, evaluated by seg's engine) under
// every model that defines races, on the graphs of generated programs: the
// same racing pairs. It is what keeps ra.cat's "flag empty dr" and the
// detector in agreement (docs/design.md, "RA has data races").
func TestGraphRacesMatchModel(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	var models []*memmodel.Model
	for _, m := range memmodel.All() {
		if m.Race != "" {
			models = append(models, m)
		}
	}
	if len(models) < 2 {
		t.Fatalf("models with races: %v, want ra and rc11", models)
	}
	// generated programs (plain globals: mostly racy) and the examples
	// (mostly race-free)
	var names, srcs []string
	for seed := uint64(1); seed <= uint64(n); seed++ {
		names = append(names, fmt.Sprintf("seed%d.cir", seed))
		srcs = append(srcs, progen.Generate(rand.New(rand.NewPCG(seed, 0x72616365)), progen.Default()))
	}
	files, _ := filepath.Glob("../../examples/*.cir")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names, srcs = append(names, f), append(srcs, string(b))
	}
	graphs, racy := 0, 0
	for i, src := range srcs {
		name := names[i]
		p, err := frontend.ParseCIR(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if graph.CheckProgram(p) != nil {
			continue
		}
		for _, m := range models {
			_, err := trustx.Enumerate(context.Background(), p, trustx.EnumOptions{Model: m.Name, Unroll: 2, MaxExecutions: 300}, func(x *interp.Execution) bool {
				graphs++
				got := racePairs(interp.GraphRaces(x.G, m.Name))
				want := modelRacePairs(t, m, x.G)
				if got != want {
					t.Errorf("%s, %s: GraphRaces %s, model's %s: %s\n%s", name, m.Name, got, m.Race, want, src)
					return false
				}
				if got != "[]" {
					racy++
				}
				return true
			})
			if err != nil {
				t.Fatalf("%s, %s: %v", name, m.Name, err)
			}
		}
	}
	if racy == 0 || racy == graphs {
		t.Fatalf("%d of %d graphs racy: the comparison needs both kinds", racy, graphs)
	}
	t.Logf("%d graphs, %d with races", graphs, racy)
}

func racePairs(rs []interp.Race) string {
	var out []string
	for _, r := range rs {
		a, b := r.A, r.B
		if b.T < a.T || (b.T == a.T && b.I < a.I) {
			a, b = b, a
		}
		out = append(out, fmt.Sprint(a, b))
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}

// modelRacePairs evaluates the relation of m's race axiom on g.
func modelRacePairs(t *testing.T, m *memmodel.Model, g *seg.Graph) string {
	t.Helper()
	var expr string
	for _, a := range m.Axioms.Axioms() {
		if a.Flag && a.Name == m.Race {
			expr = a.Expr
		}
	}
	sp, dr, err := m.Axioms.Relation(g, expr)
	if err != nil {
		t.Fatal(err)
	}
	var rs []interp.Race
	dr.Each(func(i, j int) {
		if i < j {
			rs = append(rs, interp.Race{A: sp.Node(i).ID, B: sp.Node(j).ID})
		}
	})
	return racePairs(rs)
}
