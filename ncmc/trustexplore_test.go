package ncmc

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ncmc/internal/progen"
	"ncmc/seg"
)

var trustN = flag.Int("trust.n", 0, "generated programs per model in TestTrustMatchesReference (0: the default)")

// genAtomicProgram returns a random CIR program over two atomic locations
// x and y (and, with na, a non-atomic z): 2 or 3 threads of loads, stores,
// RMWs, CASes and fences with random memory orders; every value read is
// stored in a register global of its thread, so that the final state shows
// what each read read.
func genAtomicProgram(rng *rand.Rand, na bool) string {
	orders := []string{"rlx", "acq", "rel", "acq_rel", "sc"}
	rorders := []string{"rlx", "acq", "sc"}
	worders := []string{"rlx", "rel", "sc"}
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	locs := []string{"x", "y"}
	if na {
		locs = append(locs, "z")
	}
	var b strings.Builder
	b.WriteString("atomic global x: int;\natomic global y: int;\n")
	if na {
		b.WriteString("global z: int;\n")
	}
	nt := 2 + rng.IntN(2)
	regs := 0
	var fns []string
	for t := 0; t < nt; t++ {
		var body []string
		ops := 1 + rng.IntN(3)
		for k := 0; k < ops; k++ {
			loc := pick(locs)
			plain := loc == "z"
			switch rng.IntN(6) {
			case 0, 1:
				reg := fmt.Sprintf("r%d", regs)
				regs++
				if plain {
					body = append(body, fmt.Sprintf("%s = %s;", reg, loc))
				} else {
					body = append(body, fmt.Sprintf("%s = load(%s, %s);", reg, loc, pick(rorders)))
				}
			case 2, 3:
				v := 1 + rng.IntN(2)
				if plain {
					body = append(body, fmt.Sprintf("%s = %d;", loc, v))
				} else {
					body = append(body, fmt.Sprintf("store(%s, %d, %s);", loc, v, pick(worders)))
				}
			case 4:
				if plain {
					loc = "x"
				}
				reg := fmt.Sprintf("r%d", regs)
				regs++
				if rng.IntN(2) == 0 {
					body = append(body, fmt.Sprintf("%s = fetch_add(%s, 1, %s);", reg, loc, pick(orders)))
				} else {
					body = append(body, fmt.Sprintf("let ok%d = cas(%s, %d, %d, %s, %s); if (ok%d) { %s = 1; }", regs, loc, rng.IntN(2), 2+rng.IntN(2), pick(orders), pick(rorders), regs, reg))
				}
			case 5:
				body = append(body, fmt.Sprintf("fence(%s);", pick([]string{"acq", "rel", "acq_rel", "sc"})))
			}
		}
		fns = append(fns, fmt.Sprintf("fn t%d() { %s }\n", t, strings.Join(body, " ")))
	}
	for r := 0; r < regs; r++ {
		fmt.Fprintf(&b, "global r%d: int;\n", r)
	}
	for _, f := range fns {
		b.WriteString(f)
	}
	b.WriteString("fn main() {")
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, " let h%d = spawn t%d();", t, t)
	}
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, " join(h%d);", t)
	}
	b.WriteString(" }\n")
	return b.String()
}

// TestTrustMatchesReference compares the trust explorer with the reference
// graph explorer on generated programs under ra and rc11: the same complete
// outcomes with the same graphs (each built once), the same violations.
func TestTrustMatchesReference(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	if *trustN > 0 {
		n = *trustN
	}
	for _, model := range []string{"ra", "rc11"} {
		for _, na := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/na=%v", model, na), func(t *testing.T) {
				compared := 0
				for seed := 0; seed < n; seed++ {
					src := genAtomicProgram(rand.New(rand.NewPCG(uint64(seed), 0x7275)), na)
					p, err := frontend.ParseCIR("gen.cir", []byte(src))
					if err != nil {
						t.Fatalf("seed %d: %v\n%s", seed, err, src)
					}
					ref, ok1 := summarise(t, p, EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
					tr, ok2 := summarise(t, p, EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
					if !ok1 || !ok2 {
						continue
					}
					compared++
					if tr.dup > 0 {
						t.Errorf("seed %d: trust built %d graphs twice\n%s", seed, tr.dup, src)
					}
					if a, b := tr.String(), ref.String(); a != b {
						t.Errorf("seed %d: trust and reference disagree\ntrust:\n%s\nreference:\n%s\nprogram:\n%s", seed, a, b, src)
					}
				}
				t.Logf("%d programs compared", compared)
			})
		}
	}
}

// racesOf collects the data races (both events) of every graph without a
// violation that Enumerate visits.
func racesOf(t *testing.T, p *ir.Program, opts EnumOptions) (map[string]bool, bool) {
	out := map[string]bool{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := Enumerate(ctx, p, opts, func(x *interp.Execution) bool {
		if msg, _, _ := x.Violation(); msg != "" {
			return true // a violating execution's graph depends on where it stopped
		}
		k := x.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
		for _, r := range x.Races() {
			out[fmt.Sprintf("%v-%v in %s", r.A, r.B, k)] = true
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, st.Stopped == ""
}

// TestTrustMatchesReferenceProgen compares the explorers on progen's
// programs (plain globals, so data races under rc11; loads, stores, RMWs,
// CAS, branches, loops, asserts and awaits; no locks or nondet, which the
// trust explorer leaves to the reference): the same outcomes, violations
// and data races.
func TestTrustMatchesReferenceProgen(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	if *trustN > 0 {
		n = *trustN
	}
	cfg := progen.Default()
	cfg.Mutexes, cfg.Lock, cfg.Nondet = 0, 0, 0
	for _, model := range []string{"ra", "rc11"} {
		t.Run(model, func(t *testing.T) {
			compared := 0
			for seed := 0; seed < n; seed++ {
				src := progen.Generate(rand.New(rand.NewPCG(uint64(seed), 0x7470)), cfg)
				p, err := frontend.ParseCIR("gen.cir", []byte(src))
				if err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, src)
				}
				if trustSupported(p) != "" {
					continue
				}
				ref, ok1 := summarise(t, p, EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
				tr, ok2 := summarise(t, p, EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
				rr, ok3 := racesOf(t, p, EnumOptions{Model: model, Explorer: "reference"})
				tt, ok4 := racesOf(t, p, EnumOptions{Model: model, Explorer: "trust"})
				if !ok1 || !ok2 || !ok3 || !ok4 {
					continue
				}
				compared++
				if tr.dup > 0 {
					t.Errorf("seed %d: trust built %d graphs twice\n%s", seed, tr.dup, src)
				}
				if a, b := tr.String(), ref.String(); a != b {
					t.Errorf("seed %d: trust and reference disagree\ntrust:\n%s\nreference:\n%s\nprogram:\n%s", seed, a, b, src)
				}
				for m := range rr {
					if !tt[m] {
						t.Errorf("seed %d: trust misses the race %s\n%s", seed, m, src)
					}
				}
				for m := range tt {
					if !rr[m] {
						t.Errorf("seed %d: trust reports a race the reference does not: %s\n%s", seed, m, src)
					}
				}
			}
			t.Logf("%d programs compared", compared)
			if compared < n/2 {
				t.Errorf("only %d of %d programs compared", compared, n)
			}
		})
	}
}

// heapPublish publishes a heap record through an atomic pointer: replaying
// its graphs must allocate the record before the reader dereferences it.
const heapPublish = `
record R { atomic v: int; }
atomic global p: *R;
atomic global x: int;
fn a() {
    let r = load(p, acq);
    if (r != null) { let w = load(r.v, rlx); store(x, w, rlx); }
}
fn b() { let r = new R { v: 7 }; store(r.v, 8, rlx); store(p, r, rel); }
fn c() { let y = load(x, rlx); }
fn main() { spawn a(); spawn b(); spawn c(); }
`

// TestTrustExamples compares the explorers under ra and rc11 on the
// example programs the trust explorer supports, and on heapPublish.
func TestTrustExamples(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.cir")
	budget := 5 * time.Second
	if testing.Short() {
		budget = time.Second
	}
	type prog struct {
		name string
		p    *ir.Program
	}
	progs := []prog{{"heapPublish", compileCIR(t, "heap.cir", heapPublish)}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.ParseCIR(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if checkGraphProgram(p) == nil && trustSupported(p) == "" {
			progs = append(progs, prog{f, p})
		}
	}
	compared := 0
	for _, pr := range progs {
		for _, model := range []string{"ra", "rc11"} {
			ref, ok1 := summarise(t, pr.p, EnumOptions{Model: model, Explorer: "reference", Unroll: 3}, budget)
			tr, ok2 := summarise(t, pr.p, EnumOptions{Model: model, Explorer: "trust", Unroll: 3}, budget)
			if !ok1 || !ok2 {
				continue
			}
			compared++
			if tr.dup > 0 {
				t.Errorf("%s %s: trust built %d graphs twice", pr.name, model, tr.dup)
			}
			if a, b := tr.String(), ref.String(); a != b {
				t.Errorf("%s %s: trust and reference disagree\ntrust:\n%s\nreference:\n%s", pr.name, model, a, b)
			}
		}
	}
	t.Logf("%d program/model pairs compared", compared)
	if compared < 4 {
		t.Errorf("only %d compared", compared)
	}
}
