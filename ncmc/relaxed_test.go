package ncmc

import (
	"context"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ir"
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
