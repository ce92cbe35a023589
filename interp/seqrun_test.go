package interp

import (
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ir"
)

const seqSrc = `
record Node { val: int; next: *Node; }
object Stack {
    top: *Node;
    n: int;
    m: mutex;
    linearizable fn push(v: int) {
        lock(this.m);
        this.top = new Node { val: v, next: this.top };
        this.n = this.n + 1;
        unlock(this.m);
    }
    linearizable fn pop(): int {
        lock(this.m);
        assume(this.top != null);
        let v = this.top.val;
        this.top = this.top.next;
        this.n = this.n - 1;
        unlock(this.m);
        return v;
    }
    linearizable fn bad(d: int): int { return 10 / d; }
    linearizable fn relock() { lock(this.m); lock(this.m); }
    fn spin() { while (true) { } }
    fn loop() { while (true) { this.n = this.n + 0; } }
    abstraction fn size(): int { return this.n; }
    abstraction fn sum(): int {
        let s = 0;
        let p = this.top;
        while (p != null) { s = s + p.val; p = p.next; }
        return s;
    }
}
global st: Stack;
fn main() { st.push(1); st.push(2); }
`

func TestSeqRunner(t *testing.T) {
	prog, err := frontend.ParseCIR("seq.cir", []byte(seqSrc))
	if err != nil {
		t.Fatal(err)
	}
	rec := prog.RecordByName("Stack")
	m := func(name string) *ir.Func { return rec.MethodByName(name) }
	r := NewSeqRunner(prog, nil, Config{})
	obj := r.Alloc(rec)
	s0 := r.Snapshot()
	for _, v := range []int64{5, 7} {
		if res := r.Call(m("push"), []int64{obj, v}); !res.OK() {
			t.Fatalf("push: %v", res)
		}
	}
	if res := r.Call(m("sum"), []int64{obj}); !res.OK() || res.Ret != 12 {
		t.Fatalf("sum = %v", res)
	}
	s2 := r.Snapshot()
	if res := r.Call(m("pop"), []int64{obj}); !res.OK() || res.Ret != 7 {
		t.Fatalf("pop = %v", res)
	}
	r.Restore(s2)
	if res := r.Call(m("pop"), []int64{obj}); !res.OK() || res.Ret != 7 {
		t.Fatalf("pop after restore = %v", res)
	}
	// Restoring s0 and pushing the same values gives the same state, down to
	// the heap addresses: equal keys.
	r.Restore(s0)
	r.Call(m("push"), []int64{obj, 5})
	r.Call(m("push"), []int64{obj, 7})
	if r.Snapshot().Key() != s2.Key() {
		t.Error("replaying the same calls gives a different state key")
	}
	r.Restore(s0)
	r.Call(m("push"), []int64{obj, 7})
	r.Call(m("push"), []int64{obj, 5})
	if r.Snapshot().Key() == s2.Key() {
		t.Error("different states have equal keys")
	}
	// Calls that do not return.
	r.Restore(s0)
	tests := []struct {
		f    string
		args []int64
		st   ThreadStatus
		msg  string
	}{
		{"pop", []int64{obj}, Blocked, "assume fails"},
		{"bad", []int64{obj, 0}, Failed, "runtime error: division by zero"},
		{"relock", []int64{obj}, Runnable, "stuck: waits for"},
		{"spin", []int64{obj}, Blocked, "spin-assume"},
		{"loop", []int64{obj}, BoundHit, "loop unroll bound 8 hit"},
		{"push", []int64{obj}, Failed, "takes 2 arguments, got 1"},
	}
	for _, tc := range tests {
		res := r.Call(m(tc.f), tc.args)
		if res.Status != tc.st || !strings.Contains(res.Msg, tc.msg) {
			t.Errorf("%s: %+v, want status %d and %q", tc.f, res, tc.st, tc.msg)
		}
	}
	// The runner recovers after a failed call.
	if res := r.Call(m("bad"), []int64{obj, 2}); !res.OK() || res.Ret != 5 {
		t.Errorf("bad(2) after failures = %+v", res)
	}
}

// TestAbsState evaluates abstraction functions on the memory of a finished
// execution of the program.
func TestAbsState(t *testing.T) {
	prog, err := frontend.ParseCIR("seq.cir", []byte(seqSrc))
	if err != nil {
		t.Fatal(err)
	}
	names := NewNames(prog)
	x := NewExecution(prog, names, Config{Unroll: 8}, nil, false)
	x.Run(func(en []Action) Action { return en[0] })
	if !x.Complete() {
		t.Fatalf("execution did not complete: %v", x.violation)
	}
	g := prog.GlobalByName("st")
	st := NewAbsState(x.Memory(), ir.MakePtr(g.Block, 0), g.Type.Record, Config{})
	for fn, want := range map[string]int64{"size": 2, "sum": 3} {
		if v, err := st.Eval(fn, nil); err != nil || v != want {
			t.Errorf("%s() = %d, %v; want %d", fn, v, err, want)
		}
	}
	if _, err := st.Eval("push", []int64{1}); err == nil || !strings.Contains(err.Error(), "no abstraction function push") {
		t.Errorf("Eval(push): %v", err)
	}
	if _, err := st.Eval("size", []int64{1}); err == nil {
		t.Error("Eval with a wrong number of arguments succeeded")
	}
}

// TestFinalStatesCache: the cached rendering equals FinalState on every
// execution of a program with plain globals, and programs with pointer or
// thread-handle globals are never cached.
func TestFinalStatesCache(t *testing.T) {
	for _, c := range []struct {
		name, src string
		cached    bool
	}{
		{"plain", "global x: int;\nglobal a: int[2];\nglobal b: bool;\nfn main() { x = 1; a[1] = x + 1; b = true; }\n", true},
		{"pointer", "record N { v: int; }\nglobal x: int;\nglobal p: *N;\nfn main() { p = new N { v: 1 }; x = 2; }\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := compileForSeq(t, c.src)
			var fs FinalStates
			for i := 0; i < 3; i++ {
				x := runToEnd(t, prog)
				if got, want := fs.Of(x), FinalState(x); got != want {
					t.Fatalf("run %d: cached %q, FinalState %q", i, got, want)
				}
			}
			if (fs.known > 0) != c.cached {
				t.Errorf("cached = %v, want %v", fs.known > 0, c.cached)
			}
		})
	}
}

func compileForSeq(t *testing.T, src string) *ir.Program {
	t.Helper()
	prog, err := frontend.ParseCIR("fs.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// runToEnd runs prog's first schedule to its end under sc.
func runToEnd(t *testing.T, prog *ir.Program) *Execution {
	t.Helper()
	x := NewExecution(prog, NewNames(prog), Config{Unroll: 4}, FirstChoice{}, false)
	x.Run(func(en []Action) Action { return en[0] })
	if !x.Complete() {
		t.Fatalf("execution did not complete")
	}
	return x
}
