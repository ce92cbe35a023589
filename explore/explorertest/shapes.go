package explorertest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"ncmc/internal/progen"
)

// SBConfig returns the generator knobs under tso and pso: every other
// seed without RMWs, CAS and locks (which drain the store buffer), with
// more variables and statements, so that store buffering shows (stores
// followed by loads of other variables).
func SBConfig(seed uint64) progen.Config {
	cfg := progen.Default()
	if seed%2 == 0 {
		cfg.RMW, cfg.CAS, cfg.Lock, cfg.Mutexes = 0, 0, 0, 0
		cfg.MinVars, cfg.MaxVars = 2, 3
		cfg.MinOps, cfg.MaxOps = 2, 4
		cfg.Load, cfg.Store = 6, 6
	}
	return cfg
}

// SBProgram returns a program of store-buffering shapes (SB, MP, LB,
// IRIW and their mixes): 2-3 workers of 2-4 loads, stores, occasional
// fences, fetch_adds and branches on values read, a main that may store
// before spawning and may assert on the final state.
func SBProgram(rng *rand.Rand) string {
	var b strings.Builder
	nv := 2 + rng.IntN(2)
	for v := 0; v < nv; v++ {
		fmt.Fprintf(&b, "global v%d: int;\n", v)
	}
	nw, maxOps := 2, 4 // small enough for the reference explorer, which interleaves flushes
	if rng.IntN(4) == 0 {
		nw, maxOps = 3, 2
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "\nfn w%d() {\n    let r0 = 0;\n    let r1 = 0;\n", w)
		ops := 2 + rng.IntN(maxOps-1)
		for k := 0; k < ops; k++ {
			v, r := rng.IntN(nv), rng.IntN(2)
			// Stores first, loads last: store-load (tso) and store-store
			// (pso) reorderings show.
			x := rng.IntN(20)
			switch {
			case k < (ops+1)/2 && x < 15, k >= (ops+1)/2 && x < 2:
				fmt.Fprintf(&b, "    v%d = %d;\n", v, 1+rng.IntN(2))
			case x < 15:
				fmt.Fprintf(&b, "    r%d = v%d;\n", r, v)
			case x < 16:
				b.WriteString("    fence(sc);\n")
			case x < 17:
				fmt.Fprintf(&b, "    r%d = fetch_add(v%d, 1);\n", r, v)
			case x < 18:
				fmt.Fprintf(&b, "    v%d = r%d + 1;\n", v, r)
			default:
				fmt.Fprintf(&b, "    if (r%d == %d) {\n        v%d = %d;\n    }\n", r, rng.IntN(2), v, 1+rng.IntN(2))
			}
		}
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "    assert(r0 != %d || r1 != %d, \"a%d\");\n", rng.IntN(2), rng.IntN(2), w)
		}
		b.WriteString("}\n")
	}
	b.WriteString("\nfn main() {\n")
	if rng.IntN(3) == 0 {
		fmt.Fprintf(&b, "    v%d = 2;\n", rng.IntN(nv))
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "    let h%d = spawn w%d();\n", w, w)
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "    join(h%d);\n", w)
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "    let f0 = v0;\n    let f1 = v1;\n    assert(f0 + f1 != %d, \"final\");\n", 2+rng.IntN(3))
	}
	b.WriteString("}\n")
	return b.String()
}
