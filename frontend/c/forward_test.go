package c

import (
	"testing"

	"ncmc/ncmc"
)

// TestForwardCalls checks that a call lowered before the called function's
// body keeps the callee's result: calls through a prototype of a function
// defined later, mutual recursion, and a thread start routine and callee
// defined after main. Each case has a correct and a buggy variant; before
// the fix the result of such a call was read as 0, so the correct variants
// were violations and the ==0 variants verified.
func TestForwardCalls(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want ncmc.Verdict
	}{
		{"prototype", `int f(int);
int main(void) { assert(f(3) == 4); return 0; }
int f(int k) { return k + 1; }`, ncmc.Verified},
		{"prototype-buggy", `int f(int);
int main(void) { assert(f(3) == 0); return 0; }
int f(int k) { return k + 1; }`, ncmc.Violation},
		{"prototype-pointer", `int g; int *addr(void);
int main(void) { *addr() = 5; assert(g == 5); return 0; }
int *addr(void) { return &g; }`, ncmc.Verified},
		{"prototype-pointer-buggy", `int g, h; int *addr(void);
int main(void) { *addr() = 5; assert(h == 5); return 0; }
int *addr(void) { return &g; }`, ncmc.Violation},
		{"prototype-unsigned-char", `unsigned char wrap(unsigned char);
int main(void) { assert(wrap(255) == 0); return 0; }
unsigned char wrap(unsigned char c) { return c + 1; }`, ncmc.Verified},
		{"prototype-unsigned-char-buggy", `unsigned char wrap(unsigned char);
int main(void) { assert(wrap(255) == 256); return 0; }
unsigned char wrap(unsigned char c) { return c + 1; }`, ncmc.Violation},
		{"recursion-after-main", `int fact(int);
int main(void) { assert(fact(5) == 120); return 0; }
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }`, ncmc.Verified},
		{"recursion-after-main-buggy", `int fact(int);
int main(void) { assert(fact(5) == 24); return 0; }
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }`, ncmc.Violation},
		{"mutual-recursion", `int odd(int);
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int main(void) { assert(even(6) && odd(3) && !odd(4)); return 0; }`, ncmc.Verified},
		{"mutual-recursion-buggy", `int odd(int);
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int main(void) { assert(odd(5) == 0); return 0; }`, ncmc.Violation},
		{"thread-calls-later", `int x; int get(void); void *w(void *a);
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); assert(x == 7); return 0; }
void *w(void *a) { x = get(); return 0; }
int get(void) { return 7; }`, ncmc.Verified},
		{"thread-calls-later-buggy", `int x; int get(void); void *w(void *a);
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); assert(x == 0); return 0; }
void *w(void *a) { x = get(); return 0; }
int get(void) { return 7; }`, ncmc.Violation},
		{"join-result-later", `void *w(void *a);
int main(void) { pthread_t t; void *r; pthread_create(&t, 0, w, 0); pthread_join(t, &r); assert((long)r == 9); return 0; }
void *w(void *a) { return (void *)9; }`, ncmc.Verified},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := verify(t, prelude+c.src, 10)
			if res.Verdict != c.want {
				t.Fatalf("verdict %v (%s), want %v", res.Verdict, res.Reason, c.want)
			}
		})
	}
}
