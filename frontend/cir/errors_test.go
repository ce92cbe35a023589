package cir

import (
	"strings"
	"testing"

	"ncmc/frontend/diag"
)

// m wraps statements into a main function; the statements start on line 2.
func m(body string) string { return "fn main() {\n" + body + "\n}\n" }

// errorCases are malformed programs and the positioned message each must
// produce.
var errorCases = []struct {
	src  string
	want string // a substring of the rendered error list
}{
	// Lexical errors.
	{m("let x = 1 $ 2;"), "t.cir:2:11: illegal character '$'"},
	{m("let x = 1; /* never closed"), "t.cir:2:12: comment not terminated"},
	{m(`assert(true, "abc);`), "t.cir:2:14: string literal not terminated"},
	{m("let x = 0x;"), "t.cir:2:9: hexadecimal literal 0x has no digits"},
	{m("let x = 12ab;"), "t.cir:2:9: invalid character 'a' in integer literal 12ab"},
	{m("let x = 007;"), "t.cir:2:9: invalid integer literal 007: leading zeros are not allowed"},
	{m("let x = 99999999999999999999999;"), "t.cir:2:9: integer literal 99999999999999999999999 is too large"},
	{m(`assert(true, "a\qb");`), `t.cir:2:16: unknown escape sequence \q`},
	{m("let c = 'a';"), "t.cir:2:9: illegal character '\\'' (character literals are not supported)"},
	// Syntax errors.
	{m("let x = 1\nlet y = 2;"), "t.cir:3:1: expected ';' after let statement, found keyword let"},
	{"global x int;\nfn main() {}", "t.cir:1:10: expected ':', found keyword int"},
	{"fn main() {\n  x = ;\n}", "t.cir:2:7: expected expression, found ';'"},
	{"foo bar;\nfn main() {}", "t.cir:1:1: expected declaration (global, record, object or fn), found identifier foo"},
	{"record R { x: int; fn f() {} }\nfn main() {}", "t.cir:1:20: records cannot have methods (declare an object instead)"},
	{m("let t = spawn 3;"), "t.cir:2:15: spawn needs a function call"},
	{m("if x == 1 { }"), "t.cir:2:4: expected '(' after if, found identifier x (conditions are parenthesized)"},
	{m("while (true) @bound(3) { }"), "t.cir:2:15: unknown annotation: expected @unroll(N), found identifier bound"},
	{m("let lock = 1;"), "t.cir:2:5: expected identifier, found keyword lock (keywords are reserved)"},
	{m("} else { }"), "t.cir:2:3: expected declaration"},
	{m("let x = \"s\";"), "t.cir:2:9: unexpected string literal (strings are only allowed as assertion messages)"},
	{m("atomic x = 1;"), "t.cir:2:8: expected '{' after 'atomic'"},
	{m("let v = load x;"), "t.cir:2:14: expected '(' after load, found identifier x (load is a builtin function)"},
	{m("let x = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1;"), "expression nested too deeply"},
	// Names and declarations.
	{m("x = 1;"), "t.cir:2:1: undefined: x"},
	{"global x: int;\nglobal x: bool;\nfn main() {}", "t.cir:2:8: x redeclared (previous declaration at t.cir:1:8)"},
	{m("let v = 1;\nlet v = 2;"), "t.cir:3:5: v redeclared in this block (previous declaration at t.cir:2:5)"},
	{"fn f(a: int, a: int) {}\nfn main() {}", "t.cir:1:14: duplicate parameter a"},
	{"record R { a: int; a: bool; }\nfn main() {}", "t.cir:1:20: duplicate field a in R"},
	{"object O { a: int; fn a() {} }\nfn main() {}", "t.cir:1:23: method a clashes with field a of O"},
	{"fn f() {}", "t.cir:1:1: program has no main function"},
	{"fn main(a: int) {}", "t.cir:1:9: main must have no parameters"},
	{"global x: Foo;\nfn main() {}", "t.cir:1:11: undefined type Foo"},
	{"global x: int;\nglobal y: x;\nfn main() {}", "t.cir:2:11: x is not a type"},
	{"object O { n: int; fn f(): int { return n; } }\nfn main() {}", "t.cir:1:41: undefined: n (fields are accessed through this: this.n)"},
	{"fn f() {}\nfn main() { let v = f; }", "t.cir:2:21: function f must be called"},
	{"record R { a: int; }\nfn main() { let v = R; }", "t.cir:2:21: R is a type, not a value"},
	// Types.
	{m("let b: bool = 1;"), "t.cir:2:15: cannot initialize b (type bool) with a value of type int"},
	{m("let p = null;"), "t.cir:2:9: cannot infer the type of p from null"},
	{m("let v;"), "t.cir:2:5: let v needs a type or an initial value"},
	{m("if (1) { }"), "t.cir:2:5: if condition must be bool, not int"},
	{m("while (0) { }"), "t.cir:2:8: while condition must be bool, not int"},
	{m("let v = 1 + true;"), "t.cir:2:11: invalid operation: operator + needs int operands, not int and bool"},
	{m("let v = 1 == true;"), "t.cir:2:11: invalid operation: mismatched types int and bool in == comparison"},
	{m("let v = 1 && true;"), "t.cir:2:11: invalid operation: operator && needs bool operands, not int and bool"},
	{m("let v = !1;"), "t.cir:2:9: invalid operation: operator ! needs bool, not int"},
	{"record A { x: int; }\nrecord B { x: int; }\nfn main() { let a: *A = null; let b: *B = null; let e = a == b; }", "t.cir:3:59: invalid operation: mismatched types *A and *B in == comparison"},
	{m("let v = 1 / 0;"), "t.cir:2:13: division by zero"},
	{m("let v = 1 << 64;"), "t.cir:2:14: shift count 64 out of range [0, 63]"},
	{m("let v = 9223372036854775808;"), "t.cir:2:9: integer literal 9223372036854775808 overflows int"},
	{"global m: mutex;\nfn main() { let v = m; }", "t.cir:2:21: cannot use mutex m as a value (use lock, unlock or trylock)"},
	{"global a: int[2];\nfn main() { let v = a; }", "t.cir:2:21: cannot use array a as a value (index it)"},
	{"fn g() {}\nfn main() { let v = g(); }", "t.cir:2:21: g(...) has no value"},
	{"global a: int[2];\nfn main() { a[2] = 1; }", "t.cir:2:15: index 2 out of range for a of type int[2]"},
	{"global a: int[2];\nfn main() { a[true] = 1; }", "t.cir:2:15: array index must be int, not bool"},
	{m("let v = 1; let w = v[0];"), "t.cir:2:21: cannot index v of type int"},
	{m("let v = 1; let w = v.f;"), "t.cir:2:22: v of type int has no fields or methods"},
	{"record R { a: int; }\nfn main() { let p: *R = null; let v = p.b; }", "t.cir:2:41: R has no field b"},
	{"object O { a: int; }\nglobal o: O;\nfn main() { o.m(); }", "t.cir:3:15: O has no method m"},
	{"record R { a: int; }\nglobal r: R;\nfn main() { r.m(); }", "t.cir:3:15: record R has no methods"},
	{"object O { fn f() {} }\nglobal o: O;\nfn main() { let v = o.f; }", "t.cir:3:23: method f must be called"},
	{"global a: int[0];\nfn main() {}", "t.cir:1:15: array size must be positive, not 0"},
	{"global n: int = 2;\nglobal a: int[n];\nfn main() {}", "t.cir:2:15: global n is not a constant"},
	{"global a: int[true];\nfn main() {}", "t.cir:1:15: array size must be an integer constant"},
	{"global a: int[1000000];\nfn main() {}", "t.cir:1:15: array size 1000000 is too large"},
	{"global p: *int;\nfn main() {}", "t.cir:1:11: pointers can only point to records or objects"},
	{"global a: int[2][2];\nfn main() {}", "t.cir:1:11: arrays of arrays are not supported"},
	{"object O { n: int; }\nfn main() { let o: O; }", "t.cir:2:20: O values can only be global instances; use a pointer *O"},
	{"record R { n: int; }\nrecord S { r: R; }\nfn main() {}", "t.cir:2:15: a field cannot embed record R; use a pointer *R"},
	{m("let mm: mutex;"), "t.cir:2:9: type mutex is not allowed here: a mutex is shared state"},
	{"fn f(a: int[2]) {}\nfn main() {}", "t.cir:1:9: arrays are only allowed as globals and fields"},
	{"global x: int = 1 + 2 * y;\nglobal y: int;\nfn main() {}", "t.cir:1:25: global y is not a constant"},
	{"global b: int[2] = {1, 2, 3};\nfn main() {}", "t.cir:1:27: too many initializers for b: int[2] has 2 elements"},
	{"global b: int = {1};\nfn main() {}", "t.cir:1:17: a list initializer { ... } is only for arrays"},
	{"global b: int[2] = 1;\nfn main() {}", "t.cir:1:20: array b must be initialized with a list { ... }"},
	{"global m: mutex = 0;\nfn main() {}", "t.cir:1:19: m of type mutex cannot have an initializer"},
	{"global t: bool = 3;\nfn main() {}", "t.cir:1:18: cannot initialize t (type bool) with a value of type int"},
	{"object O { n: int; }\nglobal o: O = 1;\nfn main() {}", "t.cir:2:15: object instance o cannot have an initializer"},
	{"atomic global m: mutex;\nfn main() {}", "t.cir:1:1: atomic global m must have a scalar type"},
	{"fn f(): int { return 1; }\nglobal x: int = f();\nfn main() {}", "t.cir:2:17: initializer of global x must be a constant"},
	{"object O { fn get(): int { return 1; } }\nglobal a: int[new O { }.get()];\nfn main() {}", "t.cir:2:15: array size must be a constant"},
	{"fn f(): int { return 1; }\nrecord R { a: int[1 + f()]; }\nfn main() {}", "t.cir:2:23: array size must be a constant"},
	{"global a: int[2] = {1, nondet(0, 1)};\nfn main() {}", "t.cir:1:24: initializer of global a must be a constant"},
	{"object O { n: int; }\natomic global o: O;\nfn main() {}", "t.cir:2:1: atomic global o: an instance cannot be atomic (declare its fields atomic instead)"},
	// Assignments and lvalues.
	{m("let v = 1;\n1 = v;"), "t.cir:3:1: cannot assign to 1 (not a variable, array element or field)"},
	{m("for i in 0..3 { i = 2; }"), "t.cir:2:17: cannot assign to range variable i"},
	{"object O { fn f() { this = null; } }\nfn main() {}", "t.cir:1:21: cannot assign to this"},
	{"global m: mutex;\nfn main() { m = 1; }", "t.cir:2:13: cannot assign to m of type mutex"},
	{"fn f() {}\nfn main() { f = 1; }", "t.cir:2:13: function f must be called"},
	{m("let v = 1;\nv + 1;"), "t.cir:3:1: the + expression is not used (only calls can be statements)"},
	{"global x: int;\nfn main() { x = true; }", "t.cir:2:17: cannot assign a value of type bool to x (type int)"},
	// Calls.
	{"fn f(a: int) {}\nfn main() { f(); }", "t.cir:2:14: wrong number of arguments in call to f: have 0, want 1"},
	{"fn f(a: int) {}\nfn main() { f(true); }", "t.cir:2:15: cannot use a value of type bool as argument 1 of f (want int)"},
	{m("let v = 1; v();"), "t.cir:2:12: cannot call v: it is not a function"},
	{m("(1)();"), "t.cir:2:1: cannot call 1: only functions and methods can be called"},
	{"object O { fn f() {} }\nglobal o: O;\nfn main() { spawn o.f(); }", "t.cir:3:13: cannot spawn method f: spawn a function that calls it"},
	// Control flow.
	{m("break;"), "t.cir:2:1: break is not inside a loop"},
	{m("continue;"), "t.cir:2:1: continue is not inside a loop"},
	{m("return 1;"), "t.cir:2:8: unexpected return value (main has no result)"},
	{"fn f(): int { return; }\nfn main() {}", "t.cir:1:15: missing return value (f returns int)"},
	{"fn f(): int { return true; }\nfn main() {}", "t.cir:1:22: cannot return a value of type bool from f (returns int)"},
	{m("atomic { return; }"), "t.cir:2:10: return inside an atomic block"},
	{m("while (true) { atomic { break; } }"), "t.cir:2:25: break would leave an atomic block"},
	{m("this.x = 1;"), "t.cir:2:1: this can only be used inside methods"},
	{"global x: int;\nfn f(): int { return 1; }\nfn main() { await (f() == 1); }", "t.cir:3:20: await condition must be free of side effects"},
	{m("while (true) @unroll(0) { }"), "t.cir:2:22: unroll bound must be a positive integer constant"},
	{m("let n = 1;\nwhile (true) @unroll(n) { }"), "t.cir:3:22: unroll bound must be a positive integer constant"},
	{m("for i in 0..true { }"), "t.cir:2:13: range bound must be int, not bool"},
	{m("for (let i = 0; i < 3; let j = 1) { }"), "t.cir:2:24: the post statement of a for loop cannot declare variables"},
	// Builtins and memory orders.
	{"global x: int;\nfn main() { let v = load(x, foo); }", "t.cir:2:29: unknown memory order foo"},
	{"global x: int;\nfn main() { let v = load(x, rel); }", "t.cir:2:29: invalid memory order rel for load (want na, rlx, acq or sc)"},
	{"global x: int;\nfn main() { store(x, 1, acq); }", "t.cir:2:25: invalid memory order acq for store (want na, rlx, rel or sc)"},
	{"global x: int;\nfn main() { fetch_add(x, 1, na); }", "t.cir:2:29: invalid memory order na for fetch_add"},
	{"global x: int;\nfn main() { cas(x, 0, 1, sc, rel); }", "t.cir:2:30: invalid memory order rel for cas (want rlx, acq or sc)"},
	{m("fence(rlx);"), "t.cir:2:7: invalid memory order rlx for fence (want acq, rel, acq_rel or sc)"},
	{m("fence(1);"), "t.cir:2:7: fence: expected a memory order"},
	{"global m: mutex;\nfn main() { cas(m, 0, 1); }", "t.cir:2:17: cas needs an int, bool or pointer location, not m of type mutex"},
	{"global b: bool;\nfn main() { fetch_add(b, 1); }", "t.cir:2:23: fetch_add needs an int location, not b of type bool"},
	{m("let v = 1; let w = fetch_add(v, 1);"), "t.cir:2:30: fetch_add needs a shared location (a global, array element or field); v is a local variable"},
	{"global x: int;\nfn main() { lock(x); }", "t.cir:2:18: lock needs a mutex, not x of type int"},
	{"global m: mutex;\nfn main() { wait(m, m); }", "t.cir:2:18: wait needs a condition variable, not m of type mutex"},
	{"global c: cond;\nfn main() { signal(c, c); }", "t.cir:2:13: signal takes 1 argument, got 2"},
	{m("let v = join(1);"), "t.cir:2:14: join needs a thread handle, not int"},
	{m("let v = nondet(3, 1);"), "t.cir:2:9: nondet(3, 1): empty range (lo > hi)"},
	{m("let v = nondet_bool(1);"), "t.cir:2:9: nondet_bool takes 0 arguments, got 1"},
	{"global x: int;\nfn main() { store(x, true); }", "t.cir:2:22: cannot store a value of type bool to x (type int)"},
	// Objects, linearizable and abstraction methods.
	{"linearizable fn f() {}\nfn main() {}", "t.cir:1:1: linearizable functions must be methods of an object"},
	{"abstraction fn f(): int { return 1; }\nfn main() {}", "t.cir:1:1: abstraction functions must be methods of an object"},
	{"object O { n: int; abstraction fn v(): int { this.n = 1; return 1; } }\nfn main() {}", "t.cir:1:46: abstraction function v must be pure: writing shared memory is not allowed"},
	{"object O { m: mutex; abstraction fn v(): int { lock(this.m); return 1; } }\nfn main() {}", "t.cir:1:48: abstraction function v must be pure: lock is not allowed"},
	{"fn g(): int { return 1; }\nobject O { abstraction fn v(): int { return g(); } }\nfn main() {}", "t.cir:2:45: abstraction function v must be pure: it may only call abstraction functions, not g"},
	{"fn g() {}\nobject O { abstraction fn v(): int { spawn g(); return 1; } }\nfn main() {}", "t.cir:2:38: abstraction function v must be pure: spawn is not allowed"},
	{"object O { abstraction fn v() { } }\nfn main() {}", "t.cir:1:27: abstraction function v must return a value"},
	{"record R { n: int; }\nfn main() { let p = new R { m: 1 }; }", "t.cir:2:29: R has no field m"},
	{"record R { n: int; }\nfn main() { let p = new R { n: 1, n: 2 }; }", "t.cir:2:35: field n initialized twice"},
	{"record R { n: int; }\nfn main() { let p = new R { n: true }; }", "t.cir:2:32: cannot initialize field n (type int) with a value of type bool"},
	{"record R { m: mutex; }\nfn main() { let p = new R { m: 1 }; }", "t.cir:2:29: field m of type mutex cannot be initialized"},
	{m("let p = new Q { };"), "t.cir:2:13: undefined type Q"},
}

// TestErrors checks that each malformed program is rejected with a message
// at the right position.
func TestErrors(t *testing.T) {
	for _, tt := range errorCases {
		_, err := Compile("t.cir", []byte(tt.src))
		if err == nil {
			t.Errorf("no error for\n%s\nwant %q", tt.src, tt.want)
			continue
		}
		if _, ok := err.(diag.ErrorList); !ok {
			t.Errorf("error is a %T, not a diag.ErrorList", err)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("for\n%s\ngot  %v\nwant %q", tt.src, err, tt.want)
		}
	}
	t.Logf("%d malformed programs", len(errorCases))
}

func errorList(t *testing.T, src string) diag.ErrorList {
	t.Helper()
	_, err := Compile("t.cir", []byte(src))
	if err == nil {
		t.Fatalf("no error for\n%s", src)
	}
	return err.(diag.ErrorList)
}

func TestAllSemanticErrorsReported(t *testing.T) {
	src := `global x: int;
fn f(): int {
    return true;
}
fn g() {
    y = 1;
    let b: bool = 3;
}
fn main() {
    break;
    x = f(1);
}
`
	l := errorList(t, src)
	want := []string{
		"t.cir:3:12: cannot return a value of type bool from f (returns int)",
		"t.cir:6:5: undefined: y",
		"t.cir:7:19: cannot initialize b (type bool) with a value of type int",
		"t.cir:10:5: break is not inside a loop",
		"t.cir:11:10: wrong number of arguments in call to f: have 1, want 0",
	}
	if len(l) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(l), len(want), l)
	}
	for i, e := range l {
		if got := e.Pos.String() + ": " + e.Msg; got != want[i] {
			t.Errorf("error %d: %s, want %s", i, got, want[i])
		}
	}
}

func TestAllSyntaxErrorsReported(t *testing.T) {
	src := `global x int;
fn main() {
    let a = ;
    x = 1 +;
    if (x) { let = 2; }
}
record R { a int; }
`
	l := errorList(t, src)
	want := []string{"t.cir:1:10:", "t.cir:3:13:", "t.cir:4:12:", "t.cir:5:18:", "t.cir:7:14:"}
	if len(l) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(l), len(want), l)
	}
	for i, e := range l {
		if !strings.HasPrefix(e.Pos.String()+":", want[i]) {
			t.Errorf("error %d at %s, want %s", i, e.Pos, want[i])
		}
	}
}

func TestTooManyErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("fn main() {\n")
	for i := 0; i < 30; i++ {
		b.WriteString("    undefined_name = 1;\n")
	}
	b.WriteString("}\n")
	l := errorList(t, b.String())
	if len(l) != diag.MaxErrors+1 {
		t.Fatalf("got %d errors, want %d", len(l), diag.MaxErrors+1)
	}
	last := l[len(l)-1]
	if last.Msg != "too many errors" || last.Pos.Line != diag.MaxErrors+2 {
		t.Errorf("last error %v", last)
	}
}

func TestErrorRendering(t *testing.T) {
	src := "fn main() {\n\tlet v = w;\n}\n"
	l := errorList(t, src)
	want := "t.cir:2:10: undefined: w\n\tlet v = w;\n\t        ^"
	if l.Error() != want {
		t.Errorf("rendered as\n%s\nwant\n%s", l.Error(), want)
	}
}

func TestHugeInputs(t *testing.T) {
	long := func(unit string, n int) string { return strings.Repeat(unit, n) }
	tests := []struct{ src, want string }{
		{m("let v = 1" + long(" + 1", 20000) + ";"), "expression too long"},
		{"record R { f: *R; }\nfn main() { let p: *R = null; let q = p" + long(".f", 20000) + "; }", "expression too long"},
		{m("let v = " + long("-", 5000) + "1;"), "expression nested too deeply"},
		{m(long("{", 5000) + long("}", 5000)), "blocks nested too deeply"},
		{m("if (true) {}" + long(" else if (true) {}", 5000)), "nested too deeply"},
		{"global p: " + long("*", 5000) + "int;\nfn main() {}", "type nested too deeply"},
	}
	for _, tt := range tests {
		_, err := Compile("t.cir", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("input of %d bytes: got %.300v, want %q", len(tt.src), err, tt.want)
		}
	}
	// Long but acceptable chains compile.
	compileOK(t, m("let v = 1"+long(" + 1", 5000)+"; assert(v == 5001);"))
}

func TestSyntaxHints(t *testing.T) {
	tests := []struct{ src, want string }{
		{m("if (x = 1) { }"), "t.cir:2:7: expected ')', found '=' (use == to compare)"},
		{m("x++;"), "t.cir:2:2: there is no ++ operator (write x = x + 1)"},
		{m("p->f = 1;"), "t.cir:2:2: there is no -> operator"},
		{"fn f() -> int { return 1; }\nfn main() {}", "t.cir:1:8: result types are written fn f(): T, not ->"},
		{m("else { }"), "t.cir:2:1: else without a matching if"},
		{"fn main() {\n  if (x == 1 {\n    x = 2;\n  }\n}", "t.cir:2:14: expected ')', found '{'"},
	}
	for _, tt := range tests {
		l := errorList(t, tt.src)
		if !strings.Contains(l.Error(), tt.want) {
			t.Errorf("for\n%s\ngot  %v\nwant %q", tt.src, l, tt.want)
		}
		if len(l) != 1 {
			t.Errorf("for\n%s\ngot %d errors (cascade?):\n%v", tt.src, len(l), l)
		}
	}
}
