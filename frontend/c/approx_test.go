package c

import (
	"context"
	"errors"
	"strings"
	"testing"

	"ncmc/ncmc"
)

// TestUnderApproximate: constructs that are unsupported in an exact
// translation are translated under Options.UnderApproximate, each
// approximation is listed, and the result explores only real executions
// (a violation that needs a value outside the sample is not found).
func TestUnderApproximate(t *testing.T) {
	const head = "void reach_error(void) {}\nextern unsigned int __VERIFIER_nondet_uint(void);\nextern int __VERIFIER_nondet_int(void);\n#include <time.h>\nextern int mystery(int);\n"
	cases := []struct {
		name, body string
		approx     int    // approximations listed
		verdict    string // under the approximation: "violation" (the error call), "runtime error" or "verified"
	}{
		{"uint small", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x == 3) reach_error(); return 0; }", 1, "violation"},
		{"uint max", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x == 4294967295u) reach_error(); return 0; }", 1, "violation"},
		{"int min", "int main(void) { int x = __VERIFIER_nondet_int(); if (x == -2147483647 - 1) reach_error(); return 0; }", 1, "violation"},
		{"int minus one", "int main(void) { int x = __VERIFIER_nondet_int(); if (x == -1) reach_error(); return 0; }", 1, "violation"},
		{"uint missed", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x == 12345) reach_error(); return 0; }", 1, "verified"},
		{"time", "int main(void) { if (time(NULL) < 60) reach_error(); return 0; }", 1, "violation"},
		{"unmodelled call cuts", "int main(void) { mystery(1); reach_error(); return 0; }", 1, "verified"},
		{"unmodelled call after", "int main(void) { reach_error(); mystery(1); return 0; }", 1, "violation"},
		{"argc is one", "int main(int argc, char **argv) { if (argc == 1) reach_error(); return 0; }", 1, "violation"},
		{"argc not two", "int main(int argc, char **argv) { if (argc == 2) reach_error(); return 0; }", 1, "verified"},
		{"vla", "int n = 3;\nint main(void) { int a[n]; a[2] = 7; if (a[2] == 7) reach_error(); return 0; }", 1, "violation"},
		{"vla beyond capacity", "int n = 100;\nint main(void) { int a[n]; a[80] = 7; if (a[80] == 7) reach_error(); return 0; }", 1, "runtime error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(head + c.body + "\n")
			_, err := Compile("a.c", src, Options{})
			var un *Unsupported
			if !errors.As(err, &un) {
				t.Fatalf("exact translation: want unsupported, got %v", err)
			}
			p, approx, err := CompileApprox("a.c", src, Options{UnderApproximate: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(approx) != c.approx {
				t.Fatalf("approximations %q, want %d", approx, c.approx)
			}
			if !strings.HasPrefix(approx[0], "a.c:") {
				t.Errorf("approximation %q names no position", approx[0])
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference"})
			if err != nil {
				t.Fatal(err)
			}
			got := "verified"
			if res.Verdict == ncmc.Violation {
				got = "violation"
				if !IsErrorCall(res.Reason) {
					got = "runtime error" // never a wrong value
				}
			}
			if got != c.verdict {
				t.Errorf("verdict %s (%s), want %s", got, res.Reason, c.verdict)
			}
		})
	}
	// An exact program has no approximation.
	_, approx, err := CompileApprox("b.c", []byte("int main(void) { return 0; }\n"), Options{UnderApproximate: true})
	if err != nil || len(approx) != 0 {
		t.Errorf("exact program: %v, %q", err, approx)
	}
}
