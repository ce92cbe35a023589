package cir

import (
	"fmt"
	"strings"
	"testing"

	"ncmc/ir"
)

// compileOK compiles src and fails the test on errors or an invalid program.
func compileOK(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, err := Compile("t.cir", []byte(src))
	if err != nil {
		t.Fatalf("unexpected errors:\n%v", err)
	}
	if err := ir.Validate(p); err != nil {
		t.Fatalf("invalid IR: %v\n%s", err, p)
	}
	return p
}

// listing renders the body of the function called name (Type.method for
// methods), one instruction per element, without positions.
func listing(t *testing.T, p *ir.Program, name string) []string {
	t.Helper()
	for _, f := range p.Funcs {
		if f.FullName() == name {
			out := make([]string, len(f.Body))
			for i := range f.Body {
				out[i] = ir.InstrString(&f.Body[i], f, p)
			}
			return out
		}
	}
	t.Fatalf("no function %s in\n%s", name, p)
	return nil
}

func findFunc(p *ir.Program, name string) *ir.Func {
	for _, f := range p.Funcs {
		if f.FullName() == name {
			return f
		}
	}
	return nil
}

const decls = `
global x: int;
atomic global y: int = 3;
global a: int[4] = {1, 2};
global p: *Node;
global m: mutex;
global locks: mutex[2];
global cv: cond;
global done: bool;
record Node { val: int; next: *Node; }
object Counter {
    count: int;
    atomic hits: int;
    m: mutex;
    linearizable fn inc() { lock(this.m); this.count = this.count + 1; unlock(this.m); }
    fn get(): int { return this.count; }
    abstraction fn value(): int { return this.count; }
}
global c: Counter;
fn f(k: int): int { return k * 2; }
fn g() { }
`

// TestLowerShapes checks the exact instruction sequence of main for key constructs.
func TestLowerShapes(t *testing.T) {
	tests := []struct {
		name string
		body string // the body of main (declarations above are in scope)
		want []string
	}{
		{"global increment is load then store", `x = x + 1;`, []string{
			"%1 = load.na &x", "store.na &x, (%1 + 1)", "return"}},
		{"atomic global defaults to sc", `y = y + 1;`, []string{
			"%1 = load.sc &y", "store.sc &y, (%1 + 1)", "return"}},
		{"let from a global loads into the local", `let r = x; r = r + 1;`, []string{
			"%r = load.na &x", "%r = (%r + 1)", "return"}},
		{"let without initializer is zero", `let r: int; let b: bool; let q: *Node;`, []string{
			"%r = 0", "%b = 0", "%q = 0", "return"}},
		{"array element", `let i = 1; a[i] = a[i + 1];`, []string{
			"%i = 1", "%1 = load.na &a[(%i + 1)]", "store.na &a[%i], %1", "return"}},
		{"global object field", `c.count = c.hits;`, []string{
			"%1 = load.sc &c+1", "store.na &c+0, %1", "return"}},
		{"global pointer field loads the pointer", `p.val = 1;`, []string{
			"%1 = load.na &p", "store.na %1+0, 1", "return"}},
		{"local pointer field", `let q = new Node { next: p }; q.val = q.next.val;`, []string{
			"%1 = load.na &p", "%q = alloc Node(0, %1)", "%2 = load.na %q+1", "%3 = load.na %2+0", "store.na %q+0, %3", "return"}},
		{"method calls pass the receiver address", `c.inc(); let v = c.get(); let q: *Counter = null; q.inc();`, []string{
			"call Counter.inc(&c)", "%v = call Counter.get(&c)", "%q = 0", "call Counter.inc(%q)", "return"}},
		{"function call arguments left to right", `let z = f(x) + f(2);`, []string{
			"%1 = load.na &x", "%2 = call f(%1)", "%3 = call f(2)", "%z = (%2 + %3)", "return"}},
		{"&& with loads short-circuits", `let b = x == 1 && y == 2;`, []string{
			"%1 = load.na &x", "%2 = (%1 == 1)", "branch %2, 3, 5", "%3 = load.sc &y", "%2 = (%3 == 2)", "%b = %2", "return"}},
		{"|| with loads short-circuits", `let b = done || x == 2;`, []string{
			"%1 = load.na &done", "branch %1, 4, 2", "%2 = load.na &x", "%1 = (%2 == 2)", "%b = %1", "return"}},
		{"constants are folded", `let v = 2 * 3 + 1; let w = -(1 << 62) * 2; let b = !true || 1 < 2;`, []string{
			"%v = 7", "%w = -9223372036854775808", "%b = 1", "return"}},
		{"&& on locals is pure", `let i = 1; let b = i > 0 && i < 3;`, []string{
			"%i = 1", "%b = ((%i > 0) && (%i < 3))", "return"}},
		{"&& guarding a division branches", `let i = 1; let b = i != 0 && 10 / i > 1;`, []string{
			"%i = 1", "%1 = (%i != 0)", "branch %1, 3, 4", "%1 = ((10 / %i) > 1)", "%b = %1", "return"}},
		{"a failing operand is computed before later effects", `let i = 0; let r = 10 / i + f(1);`, []string{
			"%i = 0", "%1 = (10 / %i)", "%2 = call f(1)", "%r = (%1 + %2)", "return"}},
		{"while loop has a counter and a loop head in the body", `while (x < 3) @unroll(4) { x = x + 1; }`, []string{
			"%loop.1 = 0", "%1 = load.na &x", "branch (%1 < 3), 3, 7", "loophead %loop.1 bound 4",
			"%2 = load.na &x", "store.na &x, (%2 + 1)", "jump 1", "return"}},
		{"while without annotation uses the global bound", `while (true) { break; }`, []string{
			"%loop.1 = 0", "branch 1, 2, 5", "loophead %loop.1 bound 0", "jump 5", "jump 1", "return"}},
		{"spin loop becomes await", `while (!done) {}`, []string{
			"%1 = load.na &done", "await %1", "return"}},
		{"spin loop with a compound condition", `while (x != 1 && y != 1) {}`, []string{
			"%1 = load.na &x", "%2 = (%1 != 1)", "branch %2, 3, 5", "%3 = load.sc &y", "%2 = (%3 != 1)", "await !(%2)", "return"}},
		{"annotated empty loop stays a loop", `while (!done) @unroll(2) {}`, []string{
			"%loop.1 = 0", "%1 = load.na &done", "branch !(%1), 3, 5", "loophead %loop.1 bound 2", "jump 1", "return"}},
		{"empty loop with a call in the condition stays a loop", `while (f(1) == 0) {}`, []string{
			"%loop.1 = 0", "%1 = call f(1)", "branch (%1 == 0), 3, 5", "loophead %loop.1 bound 0", "jump 1", "return"}},
		{"await", `await (x == 1);`, []string{
			"%1 = load.na &x", "await (%1 == 1)", "return"}},
		{"constant range loop has no loop head", `for i in 0..3 { x = i; }`, []string{
			"%i = 0", "branch (%i < 3), 2, 5", "store.na &x, %i", "%i = (%i + 1)", "jump 1", "return"}},
		{"variable range loop has a loop head", `let n = 2; for i in 0..n @unroll(5) { }`, []string{
			"%n = 2", "%i = 0", "%1 = %n", "%loop.1 = 0", "branch (%i < %1), 5, 8", "loophead %loop.1 bound 5",
			"%i = (%i + 1)", "jump 4", "return"}},
		{"C-style for with continue", `for (let j = 0; j < 2; j = j + 1) { if (j == 0) { continue; } x = j; }`, []string{
			"%j = 0", "%loop.1 = 0", "branch (%j < 2), 3, 9", "loophead %loop.1 bound 0",
			"branch (%j == 0), 5, 6", "jump 7", "store.na &x, %j", "%j = (%j + 1)", "jump 2", "return"}},
		{"if else if else", `let i = 1; if (i == 0) { x = 0; } else if (i == 1) { x = 1; } else { x = 2; }`, []string{
			"%i = 1", "branch (%i == 0), 2, 4", "store.na &x, 0", "jump 8", "branch (%i == 1), 5, 7",
			"store.na &x, 1", "jump 8", "store.na &x, 2", "return"}},
		{"assume and assert", `let n = nondet(0, 3); assume(n != 2); assert(n < 3); assert(x == 0, "x not zero");`, []string{
			"%n = nondet 0, 3", "assume (%n != 2)", `assert (%n < 3) "n < 3"`, "%1 = load.na &x", `assert (%1 == 0) "x not zero"`, "return"}},
		{"nondet_bool and tid", `let b = nondet_bool(); let me = tid();`, []string{
			"%b = nondet 0, 1", "%me = self", "return"}},
		{"new with omitted fields", `let q = new Node { val: 7 };`, []string{
			"%q = alloc Node(7, 0)", "return"}},
		{"new evaluates initializers in source order", `let q = new Node { next: p, val: x };`, []string{
			"%1 = load.na &p", "%2 = load.na &x", "%q = alloc Node(%2, %1)", "return"}},
		{"cas default orders", `let ok = cas(x, 0, 1); let ok2 = cas(x, 0, 1, acq_rel); let ok3 = cas(x, 1, 2, rel); let ok4 = cas(x, 1, 2, acq, rlx);`, []string{
			"%1 = cas.sc.sc &x, 0, 1 -> %ok", "%2 = cas.acq_rel.acq &x, 0, 1 -> %ok2", "%3 = cas.rel.rlx &x, 1, 2 -> %ok3", "%4 = cas.acq.rlx &x, 1, 2 -> %ok4", "return"}},
		{"rmw", `let o = fetch_add(x, 2); fetch_sub(x, 1, rlx); let e = exchange(done, true, acq_rel); let q = fetch_xor(x, 3, rel);`, []string{
			"%o = fetch_add.sc &x, 2", "%1 = fetch_sub.rlx &x, 1", "%e = exchange.acq_rel &done, 1", "%q = fetch_xor.rel &x, 3", "return"}},
		{"explicit orders", `let v = load(x, acq); let w = load(y); store(x, v, rel); store(y, 1); fence(acq_rel);`, []string{
			"%v = load.acq &x", "%w = load.sc &y", "store.rel &x, %v", "store.sc &y, 1", "fence.acq_rel", "return"}},
		{"spawn and join", `let t = spawn f(3); let r = join(t); spawn g(); join(t);`, []string{
			"%t = spawn f(3)", "%r = join %t", "spawn g()", "join %t", "return"}},
		{"mutexes and condition variables", `let i = 1; lock(m); wait(cv, m); signal(cv); broadcast(cv); unlock(m); let ok = trylock(locks[i]);`, []string{
			"%i = 1", "lock &m", "wait &cv, &m", "signal &cv", "broadcast &cv", "unlock &m", "%ok = trylock &locks[%i]", "return"}},
		{"atomic block", `atomic { x = 1; y = 2; }`, []string{
			"atomic_begin", "store.na &x, 1", "store.sc &y, 2", "atomic_end", "return"}},
		{"expression statements drop results", `f(1); c.get(); fetch_add(x, 1);`, []string{
			"call f(1)", "call Counter.get(&c)", "%1 = fetch_add.sc &x, 1", "return"}},
		{"join takes the type of its context", `let t = spawn f(1); let b: bool = join(t); x = join(t);`, []string{
			"%t = spawn f(1)", "%b = join %t", "%1 = join %t", "store.na &x, %1", "return"}},
		{"min int literal", `let v = -9223372036854775808; let h = 0xFFFFFFFFFFFFFFFF;`, []string{
			"%v = -9223372036854775808", "%h = -1", "return"}},
		{"shadowing gets distinct slots", `let v = 1; { let v = 2; x = v; } x = v;`, []string{
			"%v = 1", "%v.2 = 2", "store.na &x, %v.2", "store.na &x, %v", "return"}},
		{"return in main", `if (done) { return; } x = 1;`, []string{
			"%1 = load.na &done", "branch %1, 2, 3", "return", "store.na &x, 1", "return"}},
		{"store evaluates the target before the value", `a[f(1)] = f(2);`, []string{
			"%1 = call f(1)", "%2 = call f(2)", "store.na &a[%1], %2", "return"}},
		{"a failing index is computed before the value", `let i = 2; a[8 / i] = f(2);`, []string{
			"%i = 2", "%1 = (8 / %i)", "%2 = call f(2)", "store.na &a[%1], %2", "return"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileOK(t, decls+"fn main() {\n"+tt.body+"\n}\n")
			got := listing(t, p, "main")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("main lowered to\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

func TestLowerMethods(t *testing.T) {
	p := compileOK(t, decls+"fn main() {}\n")
	want := map[string][]string{
		"Counter.inc":   {"lock %this+2", "%1 = load.na %this+0", "store.na %this+0, (%1 + 1)", "unlock %this+2", "return"},
		"Counter.get":   {"%1 = load.na %this+0", "return %1", "return 0"},
		"Counter.value": {"%1 = load.na %this+0", "return %1", "return 0"},
		"f":             {"return (%k * 2)", "return 0"},
	}
	for name, w := range want {
		if got := listing(t, p, name); strings.Join(got, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s lowered to\n\t%s\nwant\n\t%s", name, strings.Join(got, "\n\t"), strings.Join(w, "\n\t"))
		}
	}
	kinds := map[string]ir.FuncKind{"Counter.inc": ir.FuncLinearizable, "Counter.get": ir.FuncMethod,
		"Counter.value": ir.FuncAbstraction, "f": ir.FuncPlain, "main": ir.FuncPlain}
	for name, k := range kinds {
		f := findFunc(p, name)
		if f.Kind != k {
			t.Errorf("%s: kind %s, want %s", name, f.Kind, k)
		}
		if (f.Recv != nil) != (k != ir.FuncPlain) {
			t.Errorf("%s: Recv = %v", name, f.Recv)
		}
	}
	inc := findFunc(p, "Counter.inc")
	if inc.NumParams != 1 || inc.Locals[0].Name != "this" || inc.Locals[0].Type.Record != p.RecordByName("Counter") {
		t.Errorf("Counter.inc receiver: %d params, locals %+v", inc.NumParams, inc.Locals)
	}
	ctr := p.RecordByName("Counter")
	if !ctr.IsObject || ctr.Size != 3 || len(ctr.Methods) != 3 || ctr.MethodByName("inc") != inc {
		t.Errorf("Counter record: %+v", ctr)
	}
	if p.Main != findFunc(p, "main") {
		t.Errorf("Program.Main is not main")
	}
}

func TestLowerGlobalsAndRecords(t *testing.T) {
	p := compileOK(t, `
global x: int;
atomic global y: int = -3;
global b: bool = true;
global a: int[4] = {1, 2 * 3};
global flags: bool[2] = {true};
global h: *N = null;
global k: int = 1 << 4 | 1;
record N { v: int; arr: int[3]; next: *N; }
object O { atomic n: int; m: mutex; q: *N; }
global o: O;
fn main() {}
`)
	type gw struct {
		typ    string
		init   string
		atomic bool
	}
	want := map[string]gw{
		"x": {"int", "[0]", false}, "y": {"int", "[-3]", true}, "b": {"bool", "[1]", false},
		"a": {"int[4]", "[1 6 0 0]", false}, "flags": {"bool[2]", "[1 0]", false},
		"h": {"*N", "[0]", false}, "k": {"int", "[17]", false}, "o": {"O", "[0 0 0]", false},
	}
	for i, g := range p.Globals {
		w, ok := want[g.Name]
		if !ok {
			t.Errorf("unexpected global %s", g.Name)
			continue
		}
		if g.Type.String() != w.typ || fmt.Sprint(g.Init) != w.init || g.Atomic != w.atomic || g.Block != i+1 {
			t.Errorf("global %s: %s %v atomic=%v block %d; want %s %s atomic=%v block %d", g.Name, g.Type, g.Init, g.Atomic, g.Block, w.typ, w.init, w.atomic, i+1)
		}
		if !g.Pos.IsValid() {
			t.Errorf("global %s has no position", g.Name)
		}
	}
	n := p.RecordByName("N")
	if n.IsObject || n.Size != 5 || n.FieldByName("v").Offset != 0 || n.FieldByName("arr").Offset != 1 || n.FieldByName("next").Offset != 4 {
		t.Errorf("record N laid out as %+v", n)
	}
	if p.File != "t.cir" || !strings.Contains(string(p.Source), "record N") {
		t.Errorf("File/Source not set: %q", p.File)
	}
}

func TestLowerPositions(t *testing.T) {
	src := "global x: int;\nfn main() {\n    x = x + 1;\n    assert(x == 1);\n}\n"
	p := compileOK(t, src)
	body := p.Main.Body
	want := []ir.Pos{{File: "t.cir", Line: 3, Col: 9}, {File: "t.cir", Line: 3, Col: 5}, {File: "t.cir", Line: 4, Col: 12},
		{File: "t.cir", Line: 4, Col: 5}, {File: "t.cir", Line: 5, Col: 1}}
	if len(body) != len(want) {
		t.Fatalf("got %d instructions, want %d", len(body), len(want))
	}
	for i, in := range body {
		if in.Pos != want[i] {
			t.Errorf("instruction %d (%s) at %s, want %s", i, in.Op, in.Pos, want[i])
		}
	}
}

func TestLowerInstrFields(t *testing.T) {
	p := compileOK(t, decls+`fn main() {
    while (!done) {}
    await (done);
    assume(done);
    let ok = cas(x, 0, 1, acq_rel);
    while (x < 3) @unroll(7) { x = x + 1; }
}`)
	var ops []ir.Instr
	ops = append(ops, p.Main.Body...)
	var assumes []ir.AssumeKind
	for _, in := range ops {
		switch in.Op {
		case ir.IAssume:
			assumes = append(assumes, in.Assume)
		case ir.ICAS:
			if in.Order != ir.OrderAcqRel || in.FailOrder != ir.OrderAcq || in.Dst < 0 || in.Dst2 < 0 || in.Dst == in.Dst2 {
				t.Errorf("cas: %+v", in)
			}
			if p.Main.Locals[in.Dst2].Name != "ok" || p.Main.Locals[in.Dst2].Type.Kind != ir.TBool {
				t.Errorf("cas success flag goes to %+v", p.Main.Locals[in.Dst2])
			}
		case ir.ILoopHead:
			if in.Bound != 7 || p.Main.Locals[in.Dst].Type.Kind != ir.TInt {
				t.Errorf("loophead: %+v", in)
			}
		}
	}
	if len(assumes) != 3 || assumes[0] != ir.AssumeSpin || assumes[1] != ir.AssumeSpin || assumes[2] != ir.AssumeUser {
		t.Errorf("assume kinds %v, want [spin spin user]", assumes)
	}
}
