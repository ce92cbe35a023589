package cir

import "testing"

// semanticCases are programs with the outcome of running them sequentially:
// "ok", or why the run stopped.
var semanticCases = []struct {
	name string
	src  string
	want string
}{
	{"arithmetic", `fn main() {
    let a = 7; let b = -2;
    assert(a / b == -3 && a % b == 1 && a * b == -14 && a - b == 9);
    assert((a & 3) == 3 && (a | 8) == 15 && (a ^ 5) == 2 && ~a == -8);
    assert(1 << 62 << 1 == -9223372036854775808, "wraps");
    assert(9223372036854775807 + 1 == -9223372036854775808, "overflow wraps");
    assert(-16 >> 2 == -4);
    assert(2 + 3 * 4 == 14 && (2 + 3) * 4 == 20 && 10 - 4 - 3 == 3);
    assert(1 < 2 == true && 3 & 1 == 1, "comparison binds looser than &");
}`, "ok"},
	{"short-circuit avoids a null dereference", `record N { v: int; }
fn main() {
    let p: *N = null;
    let ok = p == null || p.v == 1;
    assert(ok);
    let bad = p != null && p.v == 1;
    assert(!bad);
}`, "ok"},
	{"short-circuit avoids a division by zero", `fn main() {
    let d = 0;
    assert(d == 0 || 10 / d == 1);
}`, "ok"},
	{"short-circuit skips calls", `global calls: int;
fn f(): bool { calls = calls + 1; return true; }
fn main() {
    let a = false && f();
    let b = true || f();
    let c = true && f();
    assert(calls == 1, "exactly one call");
}`, "ok"},
	{"evaluation is left to right", `global log: int;
fn f(d: int): int { log = log * 10 + d; return d; }
fn main() {
    let v = f(1) + f(2) * f(3);
    assert(v == 7 && log == 123);
}`, "ok"},
	{"division by zero is a runtime error", `fn main() { let z = 0; let v = 1 / z; }`, "runtime error: division by zero"},
	{"a failing operand fails before later calls", `global called: bool;
fn f(): int { called = true; assert(false, "f ran"); return 1; }
fn main() { let z = 0; let v = 1 / z + f(); }`, "runtime error: division by zero"},
	{"index out of bounds", `global a: int[3];
fn main() { let i = 3; a[i] = 1; }`, "runtime error: index 3 out of bounds [0, 3)"},
	{"null dereference", `record N { v: int; }
fn main() { let p: *N = null; p.v = 1; }`, "runtime error: null pointer dereference"},
	{"assertion message defaults to the condition", `global x: int;
fn main() { assert(x  ==
   1); }`, "assertion failed: x == 1"},
	{"assume blocks", `fn main() { assume(1 > 2); assert(false); }`, "blocked: assume"},
	{"spin loop blocks when its condition holds", `global done: bool;
fn main() { while (!done) {} }`, "blocked: await"},
	{"spin loop passes when its condition fails", `global done: bool = true;
fn main() { while (!done) {} await (done); }`, "ok"},
	{"loops", `global a: int[5];
fn main() {
    let s = 0;
    for i in 0..5 { a[i] = i * i; }
    for (let i = 0; i < 5; i = i + 1) { if (i == 1) { continue; } s = s + a[i]; }
    assert(s == 29);
    let n = 0;
    while (true) { n = n + 1; if (n == 4) { break; } }
    assert(n == 4);
    let k = 0;
    for i in 2..2 { k = 1; }
    for i in 5..2 { k = 1; }
    assert(k == 0);
}`, "ok"},
	{"a loop may run exactly its bound", `fn main() {
    let n = 0;
    while (n < 3) @unroll(3) { n = n + 1; }
    assert(n == 3);
}`, "ok"},
	{"a loop beyond its bound stops", `fn main() {
    let n = 0;
    while (n < 4) @unroll(3) { n = n + 1; }
}`, "bound hit"},
	{"the global bound applies without an annotation", `fn main() {
    let n = 0;
    while (n < 9) { n = n + 1; }
}`, "bound hit"},
	{"inner loop counters restart", `fn main() {
    let total = 0;
    for i in 0..5 {
        let j = 0;
        while (j < 3) @unroll(3) { j = j + 1; total = total + 1; }
    }
    assert(total == 15);
}`, "ok"},
	{"let in a loop body is re-initialized", `fn main() {
    for i in 0..3 { let v: int; assert(v == 0); v = 5; }
}`, "ok"},
	{"range bound is evaluated once", `fn main() {
    let n = 3; let c = 0;
    for i in 0..n { n = n + 1; c = c + 1; }
    assert(c == 3);
}`, "ok"},
	{"recursion", `fn fib(n: int): int { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }
fn main() { assert(fib(10) == 55); }`, "ok"},
	{"implicit return of zero", `fn f(b: bool): int { if (b) { return 5; } }
fn g(): bool { }
fn main() { assert(f(true) == 5 && f(false) == 0 && !g()); }`, "ok"},
	{"objects, methods and heap lists", `record Node { val: int; next: *Node; }
object Stack {
    top: *Node;
    size: int;
    items: int[4];
    m: mutex;
    linearizable fn push(v: int) {
        lock(this.m);
        this.top = new Node { val: v, next: this.top };
        this.items[this.size] = v;
        this.size = this.size + 1;
        unlock(this.m);
    }
    linearizable fn pop(): int {
        lock(this.m);
        let t = this.top;
        let v = -1;
        if (t != null) { v = t.val; this.top = t.next; this.size = this.size - 1; }
        unlock(this.m);
        return v;
    }
    abstraction fn sum(): int {
        let s = 0; let p = this.top;
        while (p != null) { s = s + p.val; p = p.next; }
        return s;
    }
    fn twice(): int { return this.sum() * 2; }
}
global s: Stack;
fn main() {
    s.push(1); s.push(2); s.push(3);
    assert(s.sum() == 6 && s.twice() == 12 && s.size == 3);
    assert(s.items[0] == 1 && s.items[2] == 3);
    assert(s.pop() == 3 && s.pop() == 2);
    let h = new Stack { size: 0 };
    h.push(9);
    assert(h.pop() == 9 && h.pop() == -1);
}`, "ok"},
	{"read-modify-writes", `global x: int = 5;
global b: bool;
record N { v: int; }
global p: *N;
fn main() {
    assert(fetch_add(x, 3) == 5 && x == 8);
    assert(fetch_sub(x, 1, rlx) == 8 && x == 7);
    assert(fetch_and(x, 3) == 7 && x == 3);
    assert(fetch_or(x, 8) == 3 && x == 11);
    assert(fetch_xor(x, 1) == 11 && x == 10);
    assert(exchange(x, 1) == 10 && x == 1);
    assert(!cas(x, 0, 2) && x == 1);
    assert(cas(x, 1, 2, acq_rel, acq) && x == 2);
    assert(cas(b, false, true) && b);
    let n = new N { v: 1 };
    assert(cas(p, null, n) && p == n && p.v == 1);
    store(x, 4, rel);
    assert(load(x, acq) == 4);
    fence(sc);
}`, "ok"},
	{"atomic globals and fields", `atomic global y: int = 1;
object O { atomic n: int; }
global o: O;
fn main() { y = y + 1; o.n = y; assert(o.n == 2); }`, "ok"},
	{"threads and join results", `fn sq(v: int): int { return v * v; }
fn yes(): bool { return true; }
fn main() {
    let t = spawn sq(7);
    let u = spawn yes();
    let r = join(t);
    let b: bool = join(u);
    assert(r == 49 && b);
    assert(tid() == tid());
}`, "ok"},
	{"mutexes", `global m: mutex;
global ms: mutex[2];
fn main() {
    lock(m); unlock(m);
    assert(trylock(ms[1]));
    assert(!trylock(ms[1]));
    unlock(ms[1]);
    atomic { lock(m); unlock(m); }
}`, "ok"},
	{"nondet and the lowest choice", `fn main() { let v = nondet(2, 5); let b = nondet_bool(); assert(v == 2 && !b); }`, "ok"},
	{"shadowing", `fn main() {
    let v = 1;
    { let v = 2; assert(v == 2); }
    if (true) { let v = true; assert(v); }
    assert(v == 1);
}`, "ok"},
	{"min int and hex", `fn main() {
    let m = -9223372036854775808;
    assert(m - 1 == 9223372036854775807);
    assert(0xff == 255 && 0x7FFFFFFFFFFFFFFF == 9223372036854775807 && 0xFFFFFFFFFFFFFFFF == -1);
}`, "ok"},
	{"parenthesized lvalues and receivers", `object O { n: int; fn inc() { (this).n = (this.n) + 1; } }
global o: O;
global a: int[2];
fn main() { (o).inc(); (a[1]) = 3; assert(o.n == 1 && a[(1)] == 3); }`, "ok"},
}

// TestSemantics runs lowered programs on the sequential reference executor
// and checks their outcomes.
func TestSemantics(t *testing.T) {
	for _, tt := range semanticCases {
		t.Run(tt.name, func(t *testing.T) {
			p := compileOK(t, tt.src)
			if got := newSeqExec(p, 8).run(); got != tt.want {
				t.Errorf("run: %s, want %s\n%s", got, tt.want, p)
			}
		})
	}
}
