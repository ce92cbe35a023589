package ncmc

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

func compileCIR(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	p, err := frontend.ParseCIR(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

const mpRlx = `
global data: int;
atomic global flag: int;
fn writer() { data = 42; store(flag, 1, rlx); }
fn reader() {
    let f = load(flag, rlx);
    if (f == 1) { let d = data; assert(d == 42, "stale data"); }
}
fn main() { spawn writer(); spawn reader(); }
`

// naRace: main's plain read of x races with a's plain write under every
// model with races (nothing orders them).
const naRace = `
global x: int;
fn a() { x = 1; }
fn main() { let h = spawn a(); let r = x; join(h); }
`

const mpAtomicRlx = `
atomic global data: int;
atomic global flag: int;
fn writer() { store(data, 42, rlx); store(flag, 1, ORDER); }
fn reader() {
    let f = load(flag, RORDER);
    if (f == 1) { let d = load(data, rlx); assert(d == 42, "stale data"); }
}
fn main() { spawn writer(); spawn reader(); }
`

const sbAtomic = `
atomic global x: int;
atomic global y: int;
global r1: int;
global r2: int;
fn t1() { store(x, 1, ORDER); r1 = load(y, ORDER); }
fn t2() { store(y, 1, ORDER); r2 = load(x, ORDER); }
fn main() {
    let a = spawn t1(); let b = spawn t2(); join(a); join(b);
    assert(!(r1 == 0 && r2 == 0), "store buffering");
}
`

const lostWakeup = `
global m: mutex;
global cv: cond;
fn waiter() { lock(m); wait(cv, m); unlock(m); }
fn main() { spawn waiter(); signal(cv); }
`

const atomicBlock = `
global x: int;
fn main() { atomic { x = 1; } }
`

func TestVerifyRelaxed(t *testing.T) {
	tests := []struct {
		name, src, model string
		verdict          Verdict
		kind, reason     string
	}{
		{"mp rlx flag", mpRlx, "rc11", Violation, "data-race", "data race on data between d: W(na) data=42 (thread t0.1) and h: R(na) data="},
		{"mp rlx flag ra", mpRlx, "ra", Verified, "", ""},
		{"na race ra", naRace, "ra", Violation, "data-race", "data race on x between b: R(na) x=0 (thread t0) and c: W(na) x=1 (thread t0.1)"},
		{"na race rc11", naRace, "rc11", Violation, "data-race", "data race on x between b: R(na) x=0 (thread t0) and c: W(na) x=1 (thread t0.1)"},
		{"mp rlx flag sc", mpRlx, "sc", Verified, "", ""},
		{"mp atomic rlx", strings.NewReplacer("RORDER", "rlx", "ORDER", "rlx").Replace(mpAtomicRlx), "rc11", Violation, "assertion", "stale data"},
		{"mp atomic rel/acq", strings.NewReplacer("RORDER", "acq", "ORDER", "rel").Replace(mpAtomicRlx), "rc11", Verified, "", ""},
		{"mp atomic rlx under ra", strings.NewReplacer("RORDER", "rlx", "ORDER", "rlx").Replace(mpAtomicRlx), "ra", Verified, "", ""},
		{"sb rlx ra", strings.ReplaceAll(sbAtomic, "ORDER", "rlx"), "ra", Violation, "assertion", "store buffering"},
		{"sb rlx rc11", strings.ReplaceAll(sbAtomic, "ORDER", "rlx"), "rc11", Violation, "assertion", "store buffering"},
		{"sb sc rc11", strings.ReplaceAll(sbAtomic, "ORDER", "sc"), "rc11", Verified, "", ""},
		{"sb sc ra", strings.ReplaceAll(sbAtomic, "ORDER", "sc"), "ra", Violation, "assertion", "store buffering"},
		{"lost wakeup rc11", lostWakeup, "rc11", Violation, "deadlock", "waits on condition cv"},
		{"lost wakeup sc", lostWakeup, "sc", Violation, "deadlock", "waits on condition cv"},
	}
	for _, tc := range tests {
		for _, explorer := range []string{"reference", "trust"} {
			if explorer == "trust" && tc.model != "ra" && tc.model != "rc11" {
				continue
			}
			t.Run(tc.name+"/"+explorer, func(t *testing.T) {
				p := compileCIR(t, tc.name+".cir", tc.src)
				res, err := Verify(context.Background(), p, Options{Model: tc.model, Explorer: explorer})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != tc.verdict || res.Kind != tc.kind || !strings.Contains(res.Reason, tc.reason) {
					t.Errorf("got %s %s %q, want %s %s %q", res.Verdict, res.Kind, res.Reason, tc.verdict, tc.kind, tc.reason)
				}
				if tc.verdict == Violation && (len(res.Counterexample) == 0 || res.Graph == nil) {
					t.Errorf("violation without counterexample")
				}
			})
		}
	}
	// asking for mcr falls back with a note
	p := compileCIR(t, "sb.cir", strings.ReplaceAll(sbAtomic, "ORDER", "sc"))
	res, err := Verify(context.Background(), p, Options{Model: "rc11", Explorer: "mcr"})
	if err != nil || res.Explorer != "trust" || !strings.Contains(res.Note, "mcr supports the sc, tso, pso models") {
		t.Errorf("rc11 with mcr: %v %+v", err, res)
	}
	// atomic blocks are rejected
	p = compileCIR(t, "ab.cir", atomicBlock)
	if _, err := Verify(context.Background(), p, Options{Model: "ra"}); err == nil || !strings.Contains(err.Error(), "atomic blocks") {
		t.Errorf("atomic block under ra: %v", err)
	}
	if _, err := Verify(context.Background(), p, Options{Model: "arm"}); err == nil || !strings.Contains(err.Error(), "sc, tso, pso, ra, rc11") {
		t.Errorf("bad model: %v", err)
	}
}

// summary of an exploration: outcomes of complete executions with their
// numbers of distinct graphs, and the set of violation messages.
type enumSummary struct {
	graphs     map[string]map[string]bool // final state -> graph keys
	violations map[string]bool
	dup        int
}

func summarise(t *testing.T, p *ir.Program, opts EnumOptions, budget time.Duration) (*enumSummary, bool) {
	s := &enumSummary{graphs: map[string]map[string]bool{}, violations: map[string]bool{}}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	st, err := Enumerate(ctx, p, opts, func(x *interp.Execution) bool {
		msg, _, _ := x.Violation()
		switch {
		case msg != "":
			s.violations[msg] = true
		case x.Complete():
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
	files, _ := filepath.Glob("../examples/*.cir")
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
		if checkGraphProgram(p) != nil {
			continue
		}
		op, ok1 := summarise(t, p, EnumOptions{Model: "sc", Operational: true, Unroll: 3}, budget)
		gr, ok2 := summarise(t, p, EnumOptions{Model: "sc", Unroll: 3}, budget)
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
