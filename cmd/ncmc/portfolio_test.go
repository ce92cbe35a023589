package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ncmc/svcomp"
)

// TestVerifyPropertyPortfolio: verify --property with the default
// explorer answers as the sweep does (its stages, shown in the output):
// a program whose main spawns for ever is proved by the coverability
// stage, a shallow bug among many threads is found, an input the exact
// translation rejects can still be answered false but never true, and
// an explicit explorer keeps the single-explorer check.
func TestVerifyPropertyPortfolio(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prp := write("unreach-call.prp", svcomp.UnreachCallSpec+"\n")
	safe := write("spawner.c", spawnerProg)
	many := write("many.c", `#include <pthread.h>
void reach_error(void) {}
int x;
void *inc(void *arg) { int t = x; x = t + 1; return 0; }
int main(void) {
	pthread_t t[12];
	for (int i = 0; i < 12; i++) pthread_create(&t[i], 0, inc, 0);
	for (int i = 0; i < 12; i++) pthread_join(t[i], 0);
	if (x < 12) reach_error();
	return 0;
}
`)
	approx := func(cond string) string {
		return "void reach_error(void) {}\nextern unsigned int __VERIFIER_nondet_uint(void);\n" +
			"int main(void) {\n\tunsigned int x = __VERIFIER_nondet_uint();\n\tif (" + cond + ") reach_error();\n\treturn 0;\n}\n"
	}
	approxBug := write("approx-bug.c", approx("x == 2"))
	approxSafe := write("approx-safe.c", approx("x + 1 == x"))
	witness := filepath.Join(dir, "w.graphml")
	tests := []struct {
		name    string
		args    []string
		code    int
		verdict string
		out     []string // further lines the output must contain
	}{
		{"coverability", []string{safe}, exitVerified, "VERDICT: TRUE", []string{"answer from stage coverability: true", "how it was checked"}},
		{"many-threads", []string{"--witness", witness, many}, exitViolation, "VERDICT: FALSE(unreach-call)", []string{"counterexample:", "reach_error() called"}},
		{"approx-bug", []string{approxBug}, exitViolation, "VERDICT: FALSE(unreach-call)", []string{"under-approximated translation"}},
		{"approx-safe", []string{approxSafe}, exitUnknown, "VERDICT: UNKNOWN (input under-approximated", nil},
		{"explicit-explorer", []string{"--explorer", "reference", "--unroll", "2", safe}, exitUnknown, "VERDICT: UNKNOWN", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"verify", "--timeout", "20s", "--property", prp}, tc.args...)
			code, stdout, stderr := runCLI(t, args...)
			if code != tc.code || !strings.Contains(stdout, tc.verdict) {
				t.Fatalf("exit %d (want %d), want %q\nstdout:\n%s\nstderr:\n%s", code, tc.code, tc.verdict, stdout, stderr)
			}
			for _, s := range tc.out {
				if !strings.Contains(stdout, s) {
					t.Errorf("output lacks %q:\n%s", s, stdout)
				}
			}
			if tc.name == "explicit-explorer" && strings.Contains(stdout, "how it was checked") {
				t.Errorf("--explorer reference should not run the sweep's stages:\n%s", stdout)
			}
			if tc.name == "many-threads" {
				if strings.Count(stdout, "counterexample:\n") != 1 {
					t.Errorf("the counterexample should be printed once:\n%s", stdout)
				}
				validateWitness(t, witness, many)
			}
		})
	}
}
