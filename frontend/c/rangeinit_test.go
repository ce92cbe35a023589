package c

import (
	"strings"
	"testing"

	"ncmc/ncmc"
)

// TestRangeDesignators: GNU's [lo ... hi] = constant initializes each
// element of the range, in globals and locals, nested in structs (GenMC's
// memcpy3 and memcpy4); a range whose value is not a constant is rejected
// with its position (gcc evaluates it once).
func TestRangeDesignators(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "ranges", want: ncmc.Verified, src: `
struct foo { int b; int a[5]; };
int g[6] = { [1 ... 3] = 7, 9 };
int main(void) {
	struct foo w = { .a = { [0 ... 2] = 42 }, .b = 1 };
	assert(w.a[0] == 42 && w.a[2] == 42 && w.a[3] == 0 && w.b == 1);
	assert(g[0] == 0 && g[1] == 7 && g[3] == 7 && g[4] == 9 && g[5] == 0);
	return 0;
}`},
		{name: "ranges-buggy", want: ncmc.Violation, msg: "w.a[3] == 42", src: `
struct foo { int b; int a[5]; };
int main(void) { struct foo w = { .a = { [0 ... 2] = 42 } }; assert(w.a[3] == 42); return 0; }`},
	})
	_, err := Compile("t.c", []byte("int f(void);\nint main(void) { int a[4] = { [0 ... 2] = f() }; return a[0]; }\nint f(void) { return 1; }\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), "t.c:2:31: unsupported: range designator") {
		t.Fatalf("got %v, want an unsupported range designator at 2:31", err)
	}
}

// TestStructByValue: a struct or union argument is copied: the callee
// works on its own object (GenMC's memcpy4), the caller's is unchanged,
// and a write to the argument in another thread after the call is not
// seen by the callee's copy.
func TestStructByValue(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "copy", models: []string{"sc", "rc11"}, want: ncmc.Verified, src: `
struct foo { atomic_int x; int y; int a[4]; };
union u { int i; unsigned v; };
int fun(struct foo f) { int r = f.x + f.y + f.a[3]; f.y = 100; f.a[3] = 0; return r; }
unsigned un(union u w) { w.i = -1; return w.v; }
int main(void) {
	struct foo w = { .a = { [0 ... 3] = 42 }, .y = 42, .x = 17 };
	assert(fun(w) == 101 && w.y == 42 && w.a[3] == 42);
	union u z; z.i = 3;
	assert(un(z) == 4294967295u && z.i == 3);
	struct foo *p = &w;
	assert(fun(*p) == 101);
	return 0;
}`},
		{name: "copy-buggy", want: ncmc.Violation, msg: "w.y == 100", src: `
struct foo { int y; };
void set(struct foo f) { f.y = 100; }
int main(void) { struct foo w = { 1 }; set(w); assert(w.y == 100); return 0; }`},
	})
}

// TestCompilerBarrier: asm("") and asm volatile("" ::: "memory") are
// compiler barriers, no-ops here (GenMC's norev-replay uses one); an asm
// with an instruction or operands is rejected with its position.
func TestCompilerBarrier(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "barriers", want: ncmc.Verified, src: `
int x;
int main(void) { x = 1; asm(""); __asm__ __volatile__("" ::: "memory"); assert(x == 1); return 0; }`},
	})
	for src, want := range map[string]string{
		"int main(void) { __asm__(\"nop\"); return 0; }\n":                 "t.c:1:18: unsupported: asm statements",
		"int main(void) { int r = 0; asm(\"\" : \"=r\"(r)); return r; }\n": "t.c:1:29: unsupported: asm statements",
	} {
		_, err := Compile("t.c", []byte(src), Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", src, err, want)
		}
	}
}
