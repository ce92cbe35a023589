package c

import (
	"context"
	"strings"
	"testing"

	"ncmc/ncmc"
)

// TestFloats gives float, double and long double their C meaning on
// x86-64 (IEEE 754, every operation rounded to its type, FLT_EVAL_METHOD
// 0): literals rounded once to their type, arithmetic and comparisons,
// conversions truncating toward zero, the truth of -0.0 and NaN, floats in
// globals, fields, arrays, parameters and results, atomic floats (a
// compound assignment is one read-modify-write, a compare-exchange
// compares representations). Each meaning has a buggy variant that fails.
func TestFloats(t *testing.T) {
	all := []string{"sc", "tso", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "rounding", models: all, want: ncmc.Verified, src: `
float gf = 0.1f; double gd = 0.1;
int main(void) {
	assert(0.1f + 0.2f == 0.3f);          /* float arithmetic rounds to float */
	assert(0.1 + 0.2 != 0.3);             /* double arithmetic to double */
	assert(gf != gd && (double)gf == 0.100000001490116119384765625);
	float big = 16777216.0f;              /* 2^24: big + 1 is not a float */
	assert(big + 1.0f == big);
	double third = 1.0 / 3; assert(third * 3 == 1.0);
	float h = 1.1f; assert(h != 1.1 && h == (float)1.1);
	assert(0x1.8p1 == 3.0 && 1e-3 == 0.001);
	double inf = 1e308 * 10; assert(inf > 1e308 && -inf < -1e308);
	double nan = inf - inf; assert(nan != nan && !(nan < 0) && !(nan >= 0));
	long double ld = 0.5L; ld *= 3; assert(ld == 1.5 && sizeof ld > sizeof(double)); /* computed as double */
	return 0;
}`},
		{name: "rounding-buggy", models: all, want: ncmc.Violation, msg: "a + b == 0.3", src: `
int main(void) { double a = 0.1, b = 0.2; assert(a + b == 0.3); return 0; }`},
		{name: "float-precision-buggy", want: ncmc.Violation, msg: "big + 1.0f != big", src: `
int main(void) { float big = 16777216.0f; assert(big + 1.0f != big); return 0; }`},
		{name: "conversions", models: all, want: ncmc.Verified, src: `
int main(void) {
	double d = -2.7; int i = d; assert(i == -2);
	assert((int)2.9 == 2 && (unsigned)3.99 == 3 && (long long)-0.5 == 0);
	unsigned u = 4294967295u; float f = u; assert(f == 4294967296.0f);
	long long big = 9007199254740993LL; double bd = big; assert(bd == 9007199254740992.0);
	unsigned long long ub = 18446744073709551615ull; assert((double)ub == 18446744073709551616.0);
	assert((unsigned long long)1e19 == 10000000000000000000ull);
	int n = 7; double q = n / 2; double r = n / 2.0; assert(q == 3.0 && r == 3.5);
	char c = 'A'; assert(c + 0.5 == 65.5);
	float ff = 1e39; assert(ff > 1e38);    /* overflow to infinity */
	_Bool b = 0.25; assert(b == 1);
	return 0;
}`},
		{name: "conversion-out-of-range", models: all, want: ncmc.Violation, msg: "conversion of 3e+09 to int32 out of range", src: `
double g = 3e9;
int main(void) { int i = g; return i; }`},
		{name: "truth", models: all, want: ncmc.Verified, src: `
int main(void) {
	double z = -0.0, nan = 0.0 / 0.0, h = 0.5;
	int n = 0;
	if (z) n++;
	if (!nan) n++;
	if (z || h < 0) n++;
	if (!(h && nan)) n++;
	while (h) { h = h - 0.5; }
	assert(n == 0 && h == 0.0 && (z ? 1 : 2) == 2);
	return 0;
}`},
		{name: "truth-buggy", want: ncmc.Violation, msg: "!z", src: `
int main(void) { double z = 0.0; z = -z; assert(!z); assert(!z == 0); return 0; }`},
		{name: "objects", models: all, want: ncmc.Verified, src: `
struct P { float x; double y; int n; };
struct P gp = { 1.5f, 2.5, 3 };
double arr[3] = { 1, 2.5, -3 };
double scale(double v, float k) { return v * k; }
float half(int i) { return i / 2.0f; }
int main(void) {
	double *p = &arr[1];
	*p += gp.x;                            /* 4.0 */
	struct P l; l = gp; l.y *= 2;
	double a[2]; a[0] = scale(arr[1], 0.5f); a[1] = half(gp.n);
	assert(arr[1] == 4.0 && l.y == 5.0 && gp.y == 2.5 && a[0] == 2.0 && a[1] == 1.5);
	float f = 1.5f; f++; --f; f /= 3;
	assert(f == 0.5f && -f == -0.5f && arr[2] < -arr[0]);
	return 0;
}`},
		{name: "objects-buggy", want: ncmc.Violation, msg: "a == 0.3", src: `
double arr[2] = { 0.1, 0.2 };
int main(void) { double a = arr[0] + arr[1]; assert(a == 0.3); return 0; }`},
		{name: "atomic-add", models: all, want: ncmc.Verified, src: `
_Atomic double bal = 0.5;
void *w(void *a) { bal += 1.25; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	bal += 2.0;
	pthread_join(t, 0);
	assert(bal == 3.75);
	return 0;
}`},
		{name: "plain-add-loses-update", models: []string{"sc", "tso"}, want: ncmc.Violation, msg: "bal == 3.75", src: plainAdd},
		{name: "plain-add-races", models: []string{"rc11"}, want: ncmc.Violation, msg: "data race on bal", src: plainAdd},
		{name: "atomic-ops", models: all, want: ncmc.Verified, src: `
_Atomic double x; _Atomic float y = 1.0f;
int main(void) {
	atomic_store(&x, 2.5);
	assert(atomic_load(&x) == 2.5);
	double old = atomic_exchange(&x, -1.0); assert(old == 2.5 && x == -1.0);
	double e = -1.0; assert(atomic_compare_exchange_strong(&x, &e, 4.0) && x == 4.0);
	e = 3.0; assert(!atomic_compare_exchange_strong(&x, &e, 5.0) && e == 4.0);
	_Atomic double z = 0.0; double mz = -0.0;
	/* compare-exchange compares representations: -0.0 is not 0.0 there */
	assert(!atomic_compare_exchange_strong(&z, &mz, 1.0) && z == 0.0);
	y++; y *= 3; assert(y == 6.0f);
	return 0;
}`},
		{name: "message-passing", models: all, want: ncmc.Verified, src: `
double data; _Atomic double flag;
void *w(void *a) { data = 42.5; atomic_store_explicit(&flag, 1.0, memory_order_release); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&flag, memory_order_acquire) == 1.0) assert(data == 42.5);
	return 0;
}`},
		{name: "message-passing-relaxed", models: []string{"rc11"}, exact: true, want: ncmc.Violation, msg: "data race on data", src: `
double data; _Atomic double flag;
void *w(void *a) { data = 42.5; atomic_store_explicit(&flag, 1.0, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&flag, memory_order_relaxed) == 1.0) assert(data == 42.5);
	return 0;
}`},
	})
}

// plainAdd is atomic-add without _Atomic: an update can be lost (under
// sc and tso), and the accesses race (rc11).
const plainAdd = `
double bal = 0.5;
void *w(void *a) { bal += 1.25; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	bal += 2.0;
	pthread_join(t, 0);
	assert(bal == 3.75);
	return 0;
}`

// TestFloatsUnsupported: the floating types ncmc does not model, and
// atomic arithmetic C11 does not define on floats, are rejected with
// their position.
func TestFloatsUnsupported(t *testing.T) {
	cases := []struct{ name, decl, want string }{
		{"complex", "_Complex double c; int f(void) { return &c == 0; }", "t.c:1:"},
		{"float128", "__float128 q; int f(void) { return &q == 0; }", "t.c:1:"},
		{"nondet", "extern double __VERIFIER_nondet_double(void); int f(void) { return __VERIFIER_nondet_double() > 0; }", "t.c:1:68: unsupported: nondeterministic floating-point input"},
		{"fetch-add", "double d; int f(void) { __atomic_fetch_add(&d, 1.0, 5); return 0; }", "t.c:1:25: unsupported: atomic fetch_add on double"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantUnsupported(t, c.decl+"\nint main(void) { return f(); }\n", Options{}, c.want)
		})
	}
}

// TestNondetFloatApprox: under Options.UnderApproximate a nondet float is a
// choice among a few values, and a value among them can break an
// assertion.
func TestNondetFloatApprox(t *testing.T) {
	src := syncPrelude + `extern float __VERIFIER_nondet_float(void);
int main(void) { float f = __VERIFIER_nondet_float(); assert(f != -0.5f); return 0; }`
	p, approx, err := CompileApprox("t.c", []byte(src), Options{UnderApproximate: true})
	if err != nil || len(approx) != 1 || !strings.Contains(approx[0], "only 0, 1, -1, 0.5, -0.5") {
		t.Fatalf("compile: %v, approximations %q", err, approx)
	}
	res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: "sc"})
	if err != nil || res.Verdict != ncmc.Violation {
		t.Fatalf("got %v (%v), want a violation", res.Verdict, err)
	}
}
