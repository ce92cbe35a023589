package objgen

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"ncmc/commspec"
	"ncmc/commspec/speccheck"
	"ncmc/frontend"
	"ncmc/ir"
)

// implProgram is the implementation alone with an empty main, as `ncmc spec
// check --impl` takes it.
func implProgram(t *testing.T, im *Impl, atomic bool) *ir.Program {
	t.Helper()
	src := im.Source(atomic) + "\nfn main() {}\n"
	prog, err := frontend.ParseCIR(im.Name+".cir", []byte(src))
	if err != nil {
		t.Fatalf("%s (atomic %v): %v\n%s", im.Name, atomic, err, src)
	}
	return prog
}

// checkSpec runs the soundness check of spec (YAML text) against prog.
func checkSpec(t *testing.T, name, spec string, prog *ir.Program, depth int) *speccheck.Report {
	t.Helper()
	s, err := commspec.Parse(name+".yaml", []byte(spec))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := s.CheckProgram(prog); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rep, err := speccheck.Check(s, prog, speccheck.Options{Depth: depth})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rep
}

// Every implementation of the library, with mutexes and with atomic blocks,
// is checked against its spec as `ncmc spec check` does: every condition
// must be sound within the spec's bounds.
func TestSpecsSound(t *testing.T) {
	for _, im := range Library() {
		for _, atomic := range []bool{false, true} {
			name := im.Name
			if atomic {
				name += "/atomic"
			}
			t.Run(name, func(t *testing.T) {
				if atomic && testing.Short() && (im.Kind == "hashtable" || im.Kind == "unionfind") {
					t.Skip("-short: the atomic variants of the slow checks are skipped")
				}
				t.Parallel()
				rep := checkSpec(t, im.Name, im.Spec, implProgram(t, im, atomic), -1)
				if rep.Truncated || rep.Pairs == 0 {
					t.Fatalf("check incomplete: %d states (truncated %v), %d pairs", rep.States, rep.Truncated, rep.Pairs)
				}
				if !rep.Sound() {
					var b strings.Builder
					rep.Write(&b, false)
					t.Fatalf("unsound spec:\n%s", b.String())
				}
				t.Logf("%d states, %d pairs, %d do not commute", rep.States, rep.Pairs, rep.Differ)
			})
		}
	}
}

// The soundness check can fail: weakening one condition of each kind of
// spec to an unsound one is caught (at depth 1, enough for these).
func TestSpecsSoundCanFail(t *testing.T) {
	cases := []struct{ impl, from, to string }{
		{"counter-lock", "add/get: k1 == 0", "add/get: true"},
		{"set-array", "add/remove: v1 != v2", "add/remove: true"},
		{"set-list-size", "add/size: not r1", "add/size: true"},
		{"hashtable", "put/size: p1 != nil", "put/size: true"},
		{"union-find", "find/union: not tog(classes2(), x1, a2) or tog(classes2(), a2, b2)", "find/union: true"},
	}
	lib := map[string]*Impl{}
	for _, im := range Library() {
		lib[im.Name] = im
	}
	for _, c := range cases {
		t.Run(c.impl, func(t *testing.T) {
			im := lib[c.impl]
			if im == nil || !strings.Contains(im.Spec, c.from) {
				t.Fatalf("no condition %q in the spec of %s", c.from, c.impl)
			}
			spec := strings.Replace(im.Spec, c.from, c.to, 1)
			if rep := checkSpec(t, im.Name, spec, implProgram(t, im, false), 1); rep.Sound() {
				t.Fatalf("%q passed the soundness check", c.to)
			}
		})
	}
}

// Generated programs compile, with the default knobs and with bigger ones,
// and their specs parse and match the program.
func TestGeneratedProgramsCompile(t *testing.T) {
	big := Default()
	big.MaxWorkers, big.MaxOps, big.TotalOps, big.MaxObjects, big.MainOps, big.HeapObjects = 3, 5, 0, 3, 3, 50
	for name, cfg := range map[string]Config{"default": Default(), "big": big} {
		for seed := uint64(0); seed < 100; seed++ {
			p := Generate(rand.New(rand.NewPCG(seed, 11)), cfg)
			prog, err := frontend.ParseCIR("gen.cir", []byte(p.Source))
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", name, seed, err, p.Source)
			}
			for obj, y := range p.Specs() {
				s, err := commspec.Parse(obj+".yaml", []byte(y))
				if err != nil {
					t.Fatalf("%s seed %d: spec of %s: %v", name, seed, obj, err)
				}
				if err := s.CheckProgram(prog); err != nil {
					t.Fatalf("%s seed %d: spec of %s: %v", name, seed, obj, err)
				}
			}
		}
	}
}

// The same seed gives the same program; different seeds differ; Kinds
// restricts the implementations.
func TestGenerateDeterministic(t *testing.T) {
	a := Generate(rand.New(rand.NewPCG(1, 2)), Default())
	b := Generate(rand.New(rand.NewPCG(1, 2)), Default())
	c := Generate(rand.New(rand.NewPCG(3, 2)), Default())
	if a.Source != b.Source {
		t.Fatal("same seed, different programs")
	}
	if a.Source == c.Source {
		t.Fatal("different seeds, same program")
	}
	cfg := Default()
	cfg.Kinds = []string{"unionfind"}
	for seed := uint64(0); seed < 20; seed++ {
		p := Generate(rand.New(rand.NewPCG(seed, 2)), cfg)
		for _, im := range p.Impls {
			if im.Kind != "unionfind" {
				t.Fatalf("seed %d: %s generated with Kinds %v", seed, im.Name, cfg.Kinds)
			}
		}
	}
}

// Over many seeds the generator uses every implementation, both method
// styles, heap instances, several instances, asserts in workers and final
// checks in main.
func TestGeneratorCoverage(t *testing.T) {
	want := map[string]bool{"atomic {": false, "lock(this.m);": false, "= new ": false,
		"global o1": false, "\"a1\"": false, "\"final": false, "lock(mx);": false, "if (": false,
		"nondet(0, 1)": false, " % 3": false, "    atomic {\n        g": false}
	peek := regexp.MustCompile(`= [op][0-9]\.[a-z]+(\[[0-9]\])?;`)
	peeks := 0
	used := map[string]bool{}
	for seed := uint64(0); seed < 300; seed++ {
		p := Generate(rand.New(rand.NewPCG(seed, 5)), Default())
		for k := range want {
			if strings.Contains(p.Source, k) {
				want[k] = true
			}
		}
		for _, im := range p.Impls {
			used[im.Name] = true
		}
		if peek.MatchString(p.Source) {
			peeks++
		}
	}
	if peeks == 0 {
		t.Error("no generated program reads an object's field directly")
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no generated program contains %q", k)
		}
	}
	for _, im := range Library() {
		if !used[im.Name] {
			t.Errorf("implementation %s never used", im.Name)
		}
	}
}
