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
