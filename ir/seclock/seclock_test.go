package seclock_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ir/seclock"
)

func load(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	var p *ir.Program
	var err error
	if strings.HasSuffix(name, ".c") {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err = frontend.LoadFile(path)
	} else {
		p, err = frontend.ParseCIR(name, []byte(src))
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// count returns how many instructions of f have opcode op and, for locks
// and unlocks, address the hidden mutex (lock true) or another one.
func count(p *ir.Program, fn string, op ir.Op) int {
	n := 0
	for _, f := range p.Funcs {
		if f.Name != fn {
			continue
		}
		for _, in := range f.Body {
			if in.Op == op {
				n++
			}
		}
	}
	return n
}

func TestLower(t *testing.T) {
	tests := []struct {
		name, src string
		err       string // a substring of Lower's error; "" for none
		check     func(t *testing.T, p *ir.Program)
	}{
		{name: "none.cir", src: `global x: int; fn main() { x = 1; }`,
			check: func(t *testing.T, p *ir.Program) {
				if len(p.Globals) != 1 {
					t.Errorf("a program without sections changed: %d globals", len(p.Globals))
				}
			}},
		{name: "wrap.cir", src: `global x: int; global y: int;
fn u() { atomic { x = x + 1; } }
fn main() { let t = spawn u(); x = 2; y = 3; join(t); }`,
			check: func(t *testing.T, p *ir.Program) {
				g := p.Globals[len(p.Globals)-1]
				if g.Name != seclock.LockName || !g.Hidden || g.Type.Kind != ir.TMutex {
					t.Errorf("last global %s (hidden %v, %s), want the hidden mutex", g.Name, g.Hidden, g.Type)
				}
				// main's store of x waits for the mutex; y is no section's
				if n := count(p, "main", ir.ILock); n != 1 {
					t.Errorf("main locks %d times, want 1 (around x = 2 only)", n)
				}
				if n := count(p, "u", ir.ILock); n != 1 {
					t.Errorf("u locks %d times, want 1 (the section)", n)
				}
				if n := count(p, "u", ir.IAtomicBegin) + count(p, "u", ir.IAtomicEnd); n != 0 {
					t.Errorf("u keeps %d section instructions", n)
				}
			}},
		{name: "call.cir", src: `global x: int;
fn inc() { x = x + 1; }
fn u() { atomic { inc(); } }
fn main() { let t = spawn u(); inc(); join(t); }`,
			check: func(t *testing.T, p *ir.Program) {
				// inc outside a section wraps its load and its store; the
				// copy called inside u's section wraps nothing
				var plain, inner int
				for _, f := range p.Funcs {
					if f.Name != "inc" {
						continue
					}
					n := 0
					for _, in := range f.Body {
						if in.Op == ir.ILock {
							n++
						}
					}
					if n == 0 {
						inner++
					} else {
						plain++
						if n != 2 {
							t.Errorf("inc locks %d times, want 2", n)
						}
					}
				}
				if plain != 1 || inner != 1 {
					t.Errorf("%d wrapped and %d inner versions of inc, want 1 and 1", plain, inner)
				}
			}},
		{name: "return-in-function.c", src: `#include <pthread.h>
int m, x;
void __VERIFIER_atomic_acquire(void) { if (m != 0) return; m = 1; }
void *u(void *p) { __VERIFIER_atomic_acquire(); x = 1; return 0; }
int main() { pthread_t t; pthread_create(&t, 0, u, 0); __VERIFIER_atomic_acquire(); pthread_join(t, 0); return 0; }`,
			check: func(t *testing.T, p *ir.Program) {
				// an atomic function returns from its section on two paths
				if n := count(p, "__VERIFIER_atomic_acquire", ir.IUnlock); n < 2 {
					t.Errorf("__VERIFIER_atomic_acquire unlocks %d times, want one per return", n)
				}
			}},
		{name: "lock-inside.cir", src: `global x: int; global m: mutex;
fn main() { atomic { lock(m); x = 1; unlock(m); } }`, err: "lock inside an atomic section"},
		{name: "join-inside.cir", src: `global x: int;
fn u() { x = 1; }
fn main() { let t = spawn u(); atomic { join(t); } }`, err: "join inside an atomic section"},
		{name: "wait-in-callee.cir", src: `global m: mutex; global c: cond;
fn w() { lock(m); wait(c, m); unlock(m); }
fn main() { atomic { w(); } }`, err: "inside an atomic section"},
		{name: "paths.c", src: `extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern int __VERIFIER_nondet_int(void);
int x;
int main() { if (__VERIFIER_nondet_int()) __VERIFIER_atomic_begin(); x = 1; __VERIFIER_atomic_end(); return 0; }`,
			err: "atomic section"}, // on some paths only, or an end without a begin: the order of the search decides
		{name: "unbegun.c", src: `extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_atomic_begin(void);
int x;
void f(void) { __VERIFIER_atomic_end(); }
int main() { __VERIFIER_atomic_begin(); x = 1; f(); return 0; }`,
			err: "did not begin"},
		{name: "pointer.c", src: `#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x, y;
void *u(void *p) { __VERIFIER_atomic_begin(); *(int *)p = 1; __VERIFIER_atomic_end(); return 0; }
int main() { pthread_t t; pthread_create(&t, 0, u, &x); y = 2; pthread_join(t, 0); return 0; }`,
			// the section writes through a pointer: y's store would have
			// to wait for it
			err: "known only at run time"},
		{name: "private.c", src: `#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *u(void *p) { __VERIFIER_atomic_begin(); *(int *)p = 1; __VERIFIER_atomic_end(); return 0; }
int main() {
	pthread_t t; pthread_create(&t, 0, u, &x);
	int a[2] = {1, 2}; int *q = &x;
	a[1] = a[0] + 1;
	__VERIFIER_atomic_begin(); int r = *q; __VERIFIER_atomic_end();
	pthread_join(t, 0); return a[1] + r;
}`,
			check: func(t *testing.T, p *ir.Program) {
				// main's array never leaves it: its accesses wait for
				// nothing, though the sections' cells are not known
				if n := count(p, "main", ir.ILock); n != 1 {
					t.Errorf("main locks %d times, want 1 (its section)", n)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := load(t, tc.name, tc.src)
			q, err := seclock.Lower(p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Lower: error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Lower: %v", err)
			}
			for _, f := range q.Funcs {
				for _, in := range f.Body {
					if in.Op == ir.IAtomicBegin || in.Op == ir.IAtomicEnd {
						t.Errorf("the rewritten %s still has %s at %s", f.Name, in.Op, in.Pos)
					}
				}
			}
			if err := ir.Validate(q); err != nil {
				t.Errorf("the rewritten program is not valid: %v", err)
			}
			if tc.check != nil {
				tc.check(t, q)
			}
		})
	}
}
