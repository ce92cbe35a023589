package progen

import (
	"math/rand/v2"
	"testing"

	"ncmc/frontend"
)

// Every generated program compiles, with the default knobs and with every
// statement kind (condition variables included) enabled.
func TestGeneratedProgramsCompile(t *testing.T) {
	cfgs := map[string]Config{"default": Default()}
	all := Default()
	all.Conds, all.Cond, all.Atomic, all.Mutexes, all.MaxWorkers, all.MaxOps, all.MaxDepth = 2, 2, 2, 2, 3, 6, 3
	cfgs["all-kinds"] = all
	for name, cfg := range cfgs {
		for seed := uint64(0); seed < 300; seed++ {
			src := Generate(rand.New(rand.NewPCG(seed, 7)), cfg)
			if _, err := frontend.ParseCIR("gen.cir", []byte(src)); err != nil {
				t.Fatalf("%s seed %d: %v\n%s", name, seed, err, src)
			}
		}
	}
}

// The same seed gives the same program; different seeds differ.
func TestGenerateDeterministic(t *testing.T) {
	a := Generate(rand.New(rand.NewPCG(1, 2)), Default())
	b := Generate(rand.New(rand.NewPCG(1, 2)), Default())
	c := Generate(rand.New(rand.NewPCG(3, 2)), Default())
	if a != b {
		t.Fatal("same seed, different programs")
	}
	if a == c {
		t.Fatal("different seeds, same program")
	}
}
