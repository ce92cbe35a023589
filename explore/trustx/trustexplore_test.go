package trustx_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ncmc/explore/explorertest"
	"ncmc/explore/graph"
	"ncmc/explore/trustx"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

var trustN = flag.Int("trust.n", 0, "generated programs per model in the trust differential tests (0: each test's default, -short and -long sizes)")

// genAtomicProgram returns a random CIR program over two atomic locations
// x and y (and, with na, a non-atomic z): 2 or 3 threads of loads, stores,
// RMWs, CASes and fences with random memory orders; every value read is
// stored in a register global of its thread, so that the final state shows
// what each read read.
func genAtomicProgram(rng *rand.Rand, na bool) string { return genAtomic(rng, na, false) }

// genAtomic is genAtomicProgram; with assumes, a statement may also be an
// assume or an await on an atomic load (a thread that fails one blocks).
func genAtomic(rng *rand.Rand, na, assumes bool) string {
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
		if assumes {
			ops = 2 + rng.IntN(4)
		}
		for k := 0; k < ops; k++ {
			loc := pick(locs)
			plain := loc == "z"
			kinds := 6
			if assumes {
				kinds = 8
			}
			switch rng.IntN(kinds) {
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
			case 6, 7:
				if plain {
					loc = "y"
				}
				op := pick([]string{"==", "!=", "<"})
				what := "assume"
				if rng.IntN(2) == 0 {
					what = "await"
				}
				body = append(body, fmt.Sprintf("%s (load(%s, %s) %s %d);", what, loc, pick(rorders), op, rng.IntN(3)))
			}
		}
		fns = append(fns, fmt.Sprintf("fn t%d() { %s }\n", t, strings.Join(body, " ")))
	}
	return genProgram(&b, regs, fns)
}

// TestTrustMatchesReference compares the trust explorer with the reference
// graph explorer on generated programs under ra and rc11: the same complete
// outcomes with the same graphs (each built once), the same violations.
func TestTrustMatchesReference(t *testing.T) {
	n := explorertest.Size(uint64(*trustN), 300, 60, 300)
	for _, model := range []string{"ra", "rc11"} {
		for _, na := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/na=%v", model, na), func(t *testing.T) {
				explorertest.Harness{Name: "trust", First: 0, N: n,
					Gen: func(seed uint64) (string, *ir.Program, error) {
						src := genAtomicProgram(rand.New(rand.NewPCG(seed, 0x7275)), na)
						p, err := frontend.ParseCIR("gen.cir", []byte(src))
						return src, p, err
					},
					Compare: func(t *testing.T, seed uint64, p *ir.Program) explorertest.Run {
						ref, ok1 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
						tr, ok2 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
						if !ok1 || !ok2 {
							return explorertest.Run{Skipped: "over the 10s budget"}
						}
						var r explorertest.Run
						if tr.dup > 0 {
							r.Diffs = append(r.Diffs, fmt.Sprintf("trust built %d graphs twice", tr.dup))
						}
						if a, b := tr.String(), ref.String(); a != b {
							r.Diffs = append(r.Diffs, fmt.Sprintf("trust and reference disagree\ntrust:\n%s\nreference:\n%s", a, b))
						}
						return r
					}}.Run(t)
			})
		}
	}
}

// racesOf collects the data races (both events) of every graph without a
// violation that Enumerate visits.
func racesOf(t *testing.T, p *ir.Program, opts trustx.EnumOptions) (map[string]bool, bool) {
	out := map[string]bool{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := trustx.Enumerate(ctx, p, opts, func(x *interp.Execution) bool {
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
// and data races. 100 programs per model (40 with -short, 200 with -long).
func TestTrustMatchesReferenceProgen(t *testing.T) {
	n := explorertest.Size(uint64(*trustN), 100, 40, 200)
	cfg := progen.Default()
	cfg.Mutexes, cfg.Lock, cfg.Nondet = 0, 0, 0
	for _, model := range []string{"ra", "rc11"} {
		t.Run(model, func(t *testing.T) {
			explorertest.Harness{Name: "trust", First: 0, N: n, MinCompared: 0.5,
				Gen: func(seed uint64) (string, *ir.Program, error) {
					src := progen.Generate(rand.New(rand.NewPCG(seed, 0x7470)), cfg)
					p, err := frontend.ParseCIR("gen.cir", []byte(src))
					return src, p, err
				},
				Compare: func(t *testing.T, seed uint64, p *ir.Program) explorertest.Run {
					if why := trustx.Supported(p); why != "" {
						return explorertest.Run{Skipped: "trust does not model " + why}
					}
					ref, ok1 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
					tr, ok2 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
					rr, ok3 := racesOf(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"})
					tt, ok4 := racesOf(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"})
					if !ok1 || !ok2 || !ok3 || !ok4 {
						return explorertest.Run{Skipped: "over the 10s budget"}
					}
					var r explorertest.Run
					if tr.dup > 0 {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust built %d graphs twice", tr.dup))
					}
					if a, b := tr.String(), ref.String(); a != b {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust and reference disagree\ntrust:\n%s\nreference:\n%s", a, b))
					}
					for m := range rr {
						if !tt[m] {
							r.Diffs = append(r.Diffs, "trust misses the race "+m)
						}
					}
					for m := range tt {
						if !rr[m] {
							r.Diffs = append(r.Diffs, "trust reports a race the reference does not: "+m)
						}
					}
					return r
				}}.Run(t)
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
	files, _ := filepath.Glob("../../examples/*.cir")
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
		if graph.CheckProgram(p) == nil && trustx.Supported(p) == "" {
			progs = append(progs, prog{f, p})
		}
	}
	compared := 0
	for _, pr := range progs {
		for _, model := range []string{"ra", "rc11"} {
			ref, ok1 := summarise(t, pr.p, trustx.EnumOptions{Model: model, Explorer: "reference", Unroll: 3}, budget)
			tr, ok2 := summarise(t, pr.p, trustx.EnumOptions{Model: model, Explorer: "trust", Unroll: 3}, budget)
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

// blockSummary is what an exploration reached: complete outcomes with
// their graphs (enumSummary), and the graphs of the executions that ended
// with a thread blocked by an assume or await, each counted once.
type blockSummary struct {
	enumSummary
	blocked    map[string]bool
	nComplete  int
	nBlocked   int
	nViolating int
	dupBlocked int
}

func summariseBlocked(t *testing.T, p *ir.Program, opts trustx.EnumOptions, budget time.Duration) (*blockSummary, bool) {
	s := &blockSummary{enumSummary: enumSummary{graphs: map[string]map[string]bool{}, violations: map[string]bool{}}, blocked: map[string]bool{}}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	st, err := trustx.Enumerate(ctx, p, opts, func(x *interp.Execution) bool {
		msg, _, _ := x.Violation()
		switch {
		case msg != "":
			s.violations[msg] = true
			s.nViolating++
		case x.Complete():
			s.nComplete++
			s.addGraph(x)
		case x.Blocked():
			s.nBlocked++
			k := x.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
			if s.blocked[k] {
				s.dupBlocked++
			}
			s.blocked[k] = true
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, st.Stopped == ""
}

// TestTrustAssumeDifferential compares the trust explorer with the graph
// explorer on generated programs with assumes and awaits on atomic loads
// under ra and rc11: the same numbers of complete and of blocked
// executions, the same outcomes and graphs (complete and blocked), the same
// violations, each graph once. 200 programs per model (80 with -short, 500
// with -long).
func TestTrustAssumeDifferential(t *testing.T) {
	n := explorertest.Size(uint64(*trustN), 200, 80, 500)
	for _, model := range []string{"ra", "rc11"} {
		t.Run(model, func(t *testing.T) {
			var mu sync.Mutex
			withBlocked := 0
			sum := explorertest.Harness{Name: "trust", First: 0, N: n, MinCompared: 0.9,
				Gen: func(seed uint64) (string, *ir.Program, error) {
					src := genAtomic(rand.New(rand.NewPCG(seed, 0x6173)), seed%2 == 1, true)
					p, err := frontend.ParseCIR("gen.cir", []byte(src))
					if err == nil && trustx.Supported(p) != "" {
						err = fmt.Errorf("trust does not support the program: %s", trustx.Supported(p))
					}
					return src, p, err
				},
				Compare: func(t *testing.T, seed uint64, p *ir.Program) explorertest.Run {
					ref, ok1 := summariseBlocked(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
					tr, ok2 := summariseBlocked(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
					if !ok1 || !ok2 {
						return explorertest.Run{Skipped: "over the 10s budget"}
					}
					if ref.nBlocked > 0 {
						mu.Lock()
						withBlocked++
						mu.Unlock()
					}
					var r explorertest.Run
					if tr.dup > 0 || tr.dupBlocked > 0 {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust built %d complete and %d blocked graphs twice", tr.dup, tr.dupBlocked))
					}
					if a, b := tr.String(), ref.String(); a != b {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust and graph disagree\ntrust:\n%s\ngraph:\n%s", a, b))
						return r
					}
					if tr.nComplete != ref.nComplete || tr.nBlocked != ref.nBlocked {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust %d complete %d blocked, graph %d complete %d blocked", tr.nComplete, tr.nBlocked, ref.nComplete, ref.nBlocked))
						return r
					}
					for k := range ref.blocked {
						if !tr.blocked[k] {
							r.Diffs = append(r.Diffs, "trust misses the blocked graph "+k)
							break
						}
					}
					return r
				}}.Run(t)
			t.Logf("%d programs compared, %d with blocked executions", sum.Compared, withBlocked)
		})
	}
}

// sbLater is store buffering with sc fences where t2 writes y again after
// its load: the graph in which t1 reads t2's second write and t2 reads the
// initial x is reached only by a backward revisit of t1's load, which an
// earlier revisit (by t2's first write) made read the coherence-latest
// write; the explorer used to count such a read as never maximal and
// missed the graph (4 of 5).
const sbLater = `
atomic global x: int;
atomic global y: int;
global a: int;
global b: int;
fn t1() { store(x, 1, rlx); fence(sc); a = load(y, rlx); }
fn t2() { store(y, 1, rlx); fence(sc); b = load(x, rlx); store(y, 2, rlx); }
fn main() { let h1 = spawn t1(); let h2 = spawn t2(); join(h1); join(h2); }
`

func TestTrustRevisitedReadMaximal(t *testing.T) {
	p := compileCIR(t, "sblater.cir", sbLater)
	for _, model := range []string{"ra", "rc11"} {
		ref, ok1 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
		tr, ok2 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
		if !ok1 || !ok2 {
			t.Fatalf("%s: exploration did not finish", model)
		}
		if a, b := tr.String(), ref.String(); a != b || !strings.Contains(a, "a=2 b=0") {
			t.Errorf("%s: trust and graph disagree\ntrust:\n%s\ngraph:\n%s", model, a, b)
		}
	}
}

// genLockProgram returns a random CIR program of 2 or 3 threads that take
// up to two of three mutexes nested in random orders (so deadlocks are
// common), try locks, and load and store two atomic locations inside and
// outside the critical sections; every value read ends in a register
// global.
func genLockProgram(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("global m0: mutex;\nglobal m1: mutex;\nglobal m2: mutex;\natomic global x: int;\natomic global y: int;\n")
	regs := 0
	access := func() string {
		loc := []string{"x", "y"}[rng.IntN(2)]
		if rng.IntN(2) == 0 {
			regs++
			return fmt.Sprintf("r%d = load(%s, %s);", regs-1, loc, []string{"rlx", "acq"}[rng.IntN(2)])
		}
		return fmt.Sprintf("store(%s, %d, %s);", loc, 1+rng.IntN(2), []string{"rlx", "rel"}[rng.IntN(2)])
	}
	nt := 2 + rng.IntN(2)
	var fns []string
	for t := 0; t < nt; t++ {
		var body []string
		for k := 0; k < 1+rng.IntN(2); k++ {
			a := rng.IntN(3)
			switch rng.IntN(4) {
			case 0:
				body = append(body, access())
			default:
				inner := access()
				if rng.IntN(2) == 0 {
					c := (a + 1 + rng.IntN(2)) % 3
					inner = fmt.Sprintf("lock(m%d); %s unlock(m%d);", c, access(), c)
				}
				body = append(body, fmt.Sprintf("lock(m%d); %s %s unlock(m%d);", a, access(), inner, a))
			}
		}
		fns = append(fns, fmt.Sprintf("fn t%d() { %s }\n", t, strings.Join(body, " ")))
	}
	return genProgram(&b, regs, fns)
}

// TestTrustMutexDifferential compares the trust explorer, which models a
// lock as an acquire compare-and-swap that blocks its thread when it reads
// a held mutex, with the graph explorer, which keeps the interpreter's
// operational mutexes, on progen's programs with mutexes (nested locks,
// so deadlocks too): the same complete outcomes and graphs, the same
// violations (deadlocks included), no graph twice. 150 programs per model
// (80 with -short, 500 with -long).
func TestTrustMutexDifferential(t *testing.T) {
	n := explorertest.Size(uint64(*trustN), 150, 80, 500)
	cfg := progen.Default()
	cfg.Nondet, cfg.Mutexes, cfg.Lock, cfg.MaxOps = 0, 2, 12, 4
	cfg.Cond = 0
	for _, model := range []string{"ra", "rc11"} {
		t.Run(model, func(t *testing.T) {
			var mu sync.Mutex
			var hasLock sync.Map // seed -> its source has a lock
			locked, deadlocks := 0, 0
			sum := explorertest.Harness{Name: "trust", First: 0, N: n,
				Gen: func(seed uint64) (string, *ir.Program, error) {
					rng := rand.New(rand.NewPCG(seed, 0x6d75))
					src := ""
					if seed%2 == 0 {
						src = progen.Generate(rng, cfg)
					} else {
						src = genLockProgram(rng)
					}
					p, err := frontend.ParseCIR("gen.cir", []byte(src))
					if err == nil && trustx.Supported(p) != "" {
						err = fmt.Errorf("trust does not support the program: %s", trustx.Supported(p))
					}
					hasLock.Store(seed, strings.Contains(src, "lock("))
					return src, p, err
				},
				Compare: func(t *testing.T, seed uint64, p *ir.Program) explorertest.Run {
					ref, ok1 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"}, 10*time.Second)
					tr, ok2 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"}, 10*time.Second)
					if !ok1 || !ok2 {
						return explorertest.Run{Skipped: "over the 10s budget"}
					}
					mu.Lock()
					if l, ok := hasLock.Load(seed); ok && l.(bool) {
						locked++
					}
					for v := range ref.violations {
						if strings.HasPrefix(v, "deadlock") {
							deadlocks++
							break
						}
					}
					mu.Unlock()
					var r explorertest.Run
					if tr.dup > 0 {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust built %d graphs twice", tr.dup))
					}
					if a, b := tr.String(), ref.String(); a != b {
						r.Diffs = append(r.Diffs, fmt.Sprintf("trust and graph disagree\ntrust:\n%s\ngraph:\n%s", a, b))
					}
					return r
				}}.Run(t)
			t.Logf("%d programs compared, %d with locks, %d with deadlocks", sum.Compared, locked, deadlocks)
			if uint64(sum.Compared) < n*9/10 || uint64(locked) < n/2 || deadlocks == 0 {
				t.Errorf("too few: %d compared, %d with locks, %d with deadlocks of %d", sum.Compared, locked, deadlocks, n)
			}
		})
	}
}

// genProgram ends a generated program begun in b: the register globals
// r0..r(regs-1), the thread functions fns (t0, t1, ...) and a main that
// spawns and joins them all.
func genProgram(b *strings.Builder, regs int, fns []string) string {
	for r := 0; r < regs; r++ {
		fmt.Fprintf(b, "global r%d: int;\n", r)
	}
	for _, f := range fns {
		b.WriteString(f)
	}
	b.WriteString("fn main() {")
	for t := range fns {
		fmt.Fprintf(b, " let h%d = spawn t%d();", t, t)
	}
	for t := range fns {
		fmt.Fprintf(b, " join(h%d);", t)
	}
	b.WriteString(" }\n")
	return b.String()
}
