package vmcrx_test

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
	"ncmc/explore/vmcr"
	"ncmc/explore/vmcrz3"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

var oracleN = flag.Int("oracle.n", 0, "generated programs in TestVMCROracle (0: 100, 40 with -short, 2000 with -long; make test-long: 2000)")

// oracleTally compares the native witness search with Z3 on every query
// of an exploration (vmcr.Options.Queries).
type oracleTally struct {
	z3     *vmcrz3.Oracle
	mutate func(q *vmcr.Query) // tests of the test: a wrong query for Z3
	flip   func(k int) bool    // tests of the test: a wrong native answer for query k

	mu                    sync.Mutex
	queries, sat, unsat   int
	kinds                 [3]int // queries by vmcr.QueryKind
	sb, finals            int    // queries with store-buffer steps (After, Own); with final conditions
	unknown               int    // Z3 gave no answer (not compared)
	diffs                 int    // SAT/UNSAT disagreements
	badNative, badZ3      int    // schedules that fail Query.Replay
	first                 []string
	programs, unsupported int
	searches, fallbacks   int // the explorations' witness searches and Z3 fallbacks (over the budget)
}

func (c *oracleTally) note(format string, args ...any) {
	if len(c.first) < 5 {
		c.first = append(c.first, fmt.Sprintf(format, args...))
	}
}

func (c *oracleTally) compare(q *vmcr.Query, sat bool, sched []int32) {
	// The native schedule answers the exported query: the Query says
	// what the search decided.
	var nerr error
	if sat {
		nerr = q.Replay(sched)
	}
	sb := false
	for _, th := range q.Threads {
		for _, st := range th.Steps {
			sb = sb || len(st.After) > 0 || st.HasOwn
		}
	}
	c.mu.Lock()
	k := c.queries
	c.queries++
	c.kinds[q.Kind]++
	if sb {
		c.sb++
	}
	if len(q.Finals) > 0 {
		c.finals++
	}
	c.mu.Unlock()
	if c.flip != nil && c.flip(k) {
		sat = !sat
	}
	if c.mutate != nil {
		c.mutate(q)
	}
	v, zs, err := c.z3.Decide(context.Background(), q)
	var zerr error
	if v == vmcr.Sat {
		zerr = q.Replay(zs)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if sat {
		c.sat++
	} else {
		c.unsat++
	}
	if nerr != nil {
		c.badNative++
		c.note("query %d: the native schedule fails replay: %v", k, nerr)
	}
	if zerr != nil {
		c.badZ3++
		c.note("query %d: Z3's schedule fails replay: %v", k, zerr)
	}
	switch {
	case err != nil || v == vmcr.Unknown:
		c.unknown++
		c.note("query %d: Z3 unknown (%v)", k, err)
	case (v == vmcr.Sat) != sat:
		c.diffs++
		c.note("query %d: native sat=%v, Z3 %s", k, sat, v)
	}
}

func (c *oracleTally) add(o *oracleTally) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queries += o.queries
	for k := range c.kinds {
		c.kinds[k] += o.kinds[k]
	}
	c.sb += o.sb
	c.finals += o.finals
	c.sat += o.sat
	c.unsat += o.unsat
	c.unknown += o.unknown
	c.diffs += o.diffs
	c.badNative += o.badNative
	c.badZ3 += o.badZ3
	c.programs += o.programs
	c.searches += o.searches
	c.fallbacks += o.fallbacks
	c.unsupported += o.unsupported
	for _, s := range o.first {
		c.note("%s", s)
	}
}

// oraclePart is a range of seeds explored under one model with one
// program generator.
type oraclePart struct {
	name     string
	model    string
	from, to uint64
	gen      func(rng *rand.Rand, seed uint64) string
}

// oracleParts splits n programs: 65% sc (progen's default mix), 5% sc
// with condition variables (as TestVMCRDifferentialConds), 10% each tso
// and pso (store-buffer shapes, as TestVMCRDifferentialSB), 10% programs
// dense in failures (failure searches, as TestVMCRDifferentialFailures),
// half under sc, half under tso.
func oracleParts(n uint64) []oraclePart {
	sc, cv := n*65/100, n*5/100
	sb := func(rng *rand.Rand, seed uint64) string {
		if seed%3 != 0 {
			return explorertest.SBProgram(rng)
		}
		return progen.Generate(rng, explorertest.SBConfig(seed))
	}
	def := func(rng *rand.Rand, _ uint64) string { return progen.Generate(rng, progen.Default()) }
	fail := func(rng *rand.Rand, seed uint64) string { return progen.Generate(rng, failConfig(seed)) }
	cond := func(rng *rand.Rand, seed uint64) string {
		if seed%2 == 0 {
			return progen.Generate(rng, condConfig(seed))
		}
		return condProgram(rng, 4)
	}
	tso, pso := n/10, n/10
	f := n - sc - cv - tso - pso
	return []oraclePart{
		{"sc", "sc", 1, 1 + sc/2, def}, {"sc", "sc", 1 + sc/2, 1 + sc, def},
		{"cond", "sc", 1, 1 + cv, cond},
		{"tso", "tso", 1, 1 + tso, sb}, {"pso", "pso", 1, 1 + pso, sb},
		{"fail-sc", "sc", 1, 1 + f/2, fail}, {"fail-tso", "tso", 1, 1 + f - f/2, fail},
	}
}

// runOracle explores part's programs with vmcr and compares every witness
// search with Z3 (tally's hooks).
func runOracle(t *testing.T, p oraclePart, tally *oracleTally) {
	for seed := p.from; seed < p.to; seed++ {
		src := p.gen(rand.New(rand.NewPCG(seed, 0x6d6372)), seed)
		prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		one := &oracleTally{z3: tally.z3, mutate: tally.mutate, flip: tally.flip}
		res, err := oracleVerify(prog, p.model, one.compare)
		switch {
		case err != nil:
			t.Errorf("%s seed %d: %v", p.name, seed, err)
		case res.Explorer != "vmcr":
			one.unsupported++
		default:
			one.programs++
			one.searches += res.Stats.SMTQueries
			one.fallbacks += res.Stats.Fallbacks
		}
		if tally.mutate == nil && tally.flip == nil && one.diffs+one.badNative+one.badZ3 > 0 {
			t.Errorf("%s seed %d: %d differences, %d native and %d Z3 schedules that fail replay: %s\nprogram:\n%s",
				p.name, seed, one.diffs, one.badNative, one.badZ3, strings.Join(one.first, "; "), src)
		}
		tally.add(one)
	}
}

func oracleVerify(prog *ir.Program, model string, queries func(*vmcr.Query, bool, []int32)) (*ncmc.Result, error) {
	return ncmc.Verify(context.Background(), prog, ncmc.Options{Explorer: "vmcr", Model: model, KeepGoing: true,
		Workers: 1, MaxExecutions: 2000, VMCRQueries: queries})
}

// TestVMCROracle asks every witness search of vmcr's exploration of
// generated programs (sc mostly, tso, pso, failure searches) to Z3 too
// (explore/vmcrz3, every query to Z3 itself): the SAT/UNSAT answers must
// agree, every native schedule must answer the exported query
// (Query.Replay) and so must every Z3 schedule. 100 programs by default,
// 2,000 with -long (make test-long).
func TestVMCROracle(t *testing.T) {
	n := explorertest.Size(uint64(*oracleN), 100, 40, 2000)
	z3 := vmcrz3.New(vmcrz3.Options{DisableFastPath: true})
	defer z3.Close()
	all := &oracleTally{z3: z3}
	t.Run("group", func(t *testing.T) {
		for _, p := range oracleParts(n) {
			t.Run(fmt.Sprintf("%s/%d-%d", p.name, p.from, p.to), func(t *testing.T) {
				t.Parallel()
				runOracle(t, p, all)
			})
		}
	})
	if all.queries == 0 {
		t.Fatal("no queries compared")
	}
	if all.unknown > 0 {
		t.Errorf("%d queries without a Z3 answer: %v", all.unknown, all.first)
	}
	t.Logf("%d programs (%d more not explored by vmcr), %d queries compared (native %d sat, %d unsat; Z3 unknown %d): %d differences, %d native and %d Z3 schedules that fail replay",
		all.programs, all.unsupported, all.queries, all.sat, all.unsat, all.unknown, all.diffs, all.badNative, all.badZ3)
	t.Logf("queries: %d witness, %d dedup, %d failure searches; %d with store-buffer steps, %d with final conditions; %d searches in all, %d of them over the native budget (Z3 fallbacks, not compared)",
		all.kinds[vmcr.QWitness], all.kinds[vmcr.QDedup], all.kinds[vmcr.QFailure], all.sb, all.finals, all.searches, all.fallbacks)
	for k, n := range all.kinds {
		if n == 0 {
			t.Errorf("no %s queries compared", vmcr.QueryKind(k))
		}
	}
}

// TestVMCROracleCatches: the comparison can fail. A wrong native answer
// (one query in 50 flipped) and wrong queries for Z3 (the faults an
// encoding could have: store-buffer After edges or the interference of
// other writes forgotten, a join that does not wait) each give
// differences on the first programs.
func TestVMCROracleCatches(t *testing.T) {
	z3 := vmcrz3.New(vmcrz3.Options{DisableFastPath: true})
	defer z3.Close()
	sb := oracleParts(100)[3] // tso
	sc := oracleParts(100)[0]
	sc.to, sb.to = sc.from+15, sb.from+10
	cases := []struct {
		name   string
		part   oraclePart
		mutate func(q *vmcr.Query)
		flip   func(k int) bool
	}{
		{name: "flipped native answers", part: sc, flip: func(k int) bool { return k%50 == 7 }},
		{name: "no After edges", part: sb, mutate: func(q *vmcr.Query) {
			for t := range q.Threads {
				for i := range q.Threads[t].Steps {
					q.Threads[t].Steps[i].After = nil
				}
			}
		}},
		// Forgetting interference makes a read accept every write it
		// could read at some point: here, every write of its location.
		{name: "reads accept any write", part: sc, mutate: func(q *vmcr.Query) {
			ws := make([][]vmcr.Ref, q.Locs)
			for t := range q.Threads {
				for i, st := range q.Threads[t].Steps {
					if st.Write {
						ws[st.Loc] = append(ws[st.Loc], vmcr.Ref{T: int32(t), I: int32(i)})
					}
				}
			}
			for t := range q.Threads {
				for i := range q.Threads[t].Steps {
					if st := &q.Threads[t].Steps[i]; st.Read {
						st.Accept = append([]vmcr.Ref{vmcr.Init}, ws[st.Loc]...)
					}
				}
			}
		}},
		{name: "joins do not wait", part: sc, mutate: func(q *vmcr.Query) {
			for t := range q.Threads {
				for i := range q.Threads[t].Steps {
					q.Threads[t].Steps[i].Join = -1
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tally := &oracleTally{z3: z3, mutate: c.mutate, flip: c.flip}
			runOracle(t, c.part, tally)
			if tally.diffs+tally.badZ3 == 0 {
				t.Errorf("no difference found over %d programs, %d queries", tally.programs, tally.queries)
			}
			t.Logf("%d programs, %d queries: %d differences, %d Z3 schedules that fail replay", tally.programs, tally.queries, tally.diffs, tally.badZ3)
		})
	}
}

// TestVMCRZ3Fallback: with a witness-search budget of one state nearly
// every search goes to Z3 (the fallback path: a Sat schedule is replayed,
// run and checked like a native witness; Unsat is infeasible). vmcr must
// still agree with the reference explorer, with one complete execution
// per class, on 40 generated programs (oracleParts' mix; 20 with -short,
// 400 with -long) and on the examples under sc, tso and pso, and Z3 must
// answer every fallback.
func TestVMCRZ3Fallback(t *testing.T) {
	n := explorertest.Size(0, 40, 20, 400)
	files, _ := filepath.Glob("../../examples/*.cir")
	fallbacks, queries := 0, 0
	check := func(t *testing.T, name, model string, prog *ir.Program) {
		r := vmcrCompareWith(prog, model, ncmc.Options{Workers: 1, VMCRMaxSearch: 1})
		if len(r.Diffs) > 0 {
			t.Errorf("%s: vmcr with Z3 fallbacks disagrees with the reference explorer:\n%s", name, strings.Join(r.Diffs, "\n"))
		}
		if r.Cand == nil {
			return
		}
		s := r.Cand.Stats
		fallbacks += s.Fallbacks
		queries += s.SMTQueries
		if s.Z3Calls != s.Fallbacks || s.Native+s.Fallbacks != s.SMTQueries {
			t.Errorf("%s: %d queries, %d native, %d fallbacks, %d decided by Z3", name, s.SMTQueries, s.Native, s.Fallbacks, s.Z3Calls)
		}
	}
	for _, p := range oracleParts(n) {
		t.Run(fmt.Sprintf("%s/%d-%d", p.name, p.from, p.to), func(t *testing.T) {
			for seed := p.from; seed < p.to; seed++ {
				src := p.gen(rand.New(rand.NewPCG(seed, 0x6d6372)), seed)
				prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				check(t, fmt.Sprintf("seed %d", seed), p.model, prog)
			}
		})
	}
	for _, model := range []string{"sc", "tso", "pso"} {
		t.Run("examples/"+model, func(t *testing.T) {
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				prog, err := frontend.ParseCIR(f, src)
				if err != nil {
					t.Fatal(err)
				}
				check(t, filepath.Base(f), model, prog)
			}
		})
	}
	if fallbacks == 0 {
		t.Error("no search went to Z3")
	}
	t.Logf("%d queries, %d of them Z3 fallbacks", queries, fallbacks)
}

// TestVMCRZ3FallbackTimeout: with every search going to Z3, a time limit
// still ends the exploration within a second of it (the encoding checks
// the context and smt interrupts Z3).
func TestVMCRZ3FallbackTimeout(t *testing.T) {
	src := `
global x: int; global y: int; global z: int;
fn w(k: int) {
    let i = 0;
    while (i < 6) { x = k; let a = y; y = a + k; let b = z; z = x + b; i = i + 1; }
}
fn main() {
    let p1 = spawn w(1); let p2 = spawn w(2); let p3 = spawn w(3); let p4 = spawn w(4);
    join(p1); join(p2); join(p3); join(p4);
}
`
	prog, err := frontend.ParseCIR("loops.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"sc", "tso"} {
		start := time.Now()
		res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Explorer: "vmcr", Model: model, Workers: 2,
			VMCRMaxSearch: 1, Timeout: time.Second, Unroll: 10})
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		if res.Stopped == "" || res.Stats.Fallbacks == 0 {
			t.Fatalf("%s: finished (%q) in %v with %d Z3 fallbacks: the program is too small for the test", model, res.Stopped, took, res.Stats.Fallbacks)
		}
		if took > 3*time.Second { // 1 s past the limit, and slack for a loaded machine
			t.Errorf("%s: a time limit of 1 s answered after %v", model, took)
		}
		t.Logf("%s: stopped (%s) after %v, %d queries, %d Z3 fallbacks", model, res.Stopped, took, res.Stats.SMTQueries, res.Stats.Fallbacks)
	}
}
