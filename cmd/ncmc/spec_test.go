package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpecCheckExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unsound := write("bad.yaml", `object: Set
methods:
  add:      {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
commute:
  add/add: true
`)
	malformed := write("typo.yaml", `object: Set
methods:
  add: {args: {v: int}, result: {r: bool}}
commute:
  add/add: v1 != w2
`)
	divZero := write("div.yaml", `object: Set
methods:
  add:      {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
commute:
  add/add: v1 / (v2 - v2) == 1
`)
	wrongObj := write("obj.yaml", "object: Stack\nmethods:\n  push: {args: {v: int}}\ncommute:\n  push/push: false\n")
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"spec", "check", "../../examples/set.yaml", "--impl", "../../examples/set-2add-cont.cir", "--depth", "2"}, 0, "all conditions sound within the bound"},
		{[]string{"spec", "check", "../../examples/counter.yaml", "--impl", "../../examples/n-counter-inc-3.cir", "--access-points"}, 0, "inc/inc: always commute"},
		{[]string{"spec", "check", "../../examples/set-coarse.yaml", "--impl", "../../examples/set-2add-cont.cir", "--depth", "1", "-v"}, 0, "could be finer"},
		{[]string{"spec", "check", unsound, "--impl", "../../examples/set-2add-cont.cir", "--ints", "3,4"}, 1, "the condition of add/add is unsound: true"},
		{[]string{"spec", "check", divZero, "--impl", "../../examples/set-2add-cont.cir", "--depth", "1"}, 2, "div.yaml:6:12: the condition of add/add cannot be evaluated: division by zero, on add(v=0)"},
		{[]string{"spec", "check", malformed, "--impl", "../../examples/set-2add-cont.cir"}, 2, "typo.yaml:5:18: undefined: w2"},
		{[]string{"spec", "check", wrongObj, "--impl", "../../examples/set-2add-cont.cir"}, 2, "obj.yaml:1:9: ../../examples/set-2add-cont.cir has no object type Stack"},
		{[]string{"spec", "check", "../../examples/set.yaml", "--impl", "nope.cir"}, 2, "nope.cir"},
		{[]string{"spec", "check", "../../examples/set.yaml", "--impl", "../../examples/set-2add-cont.cir", "--ints", "x"}, 2, `--ints: "x" is not an integer`},
		{[]string{"spec", "check", "../../examples/set.yaml"}, 2, "--impl"},
		// hashtable at depth 4 takes several seconds: a 1 ms bound stops it.
		{[]string{"spec", "check", "../../examples/hashtable.yaml", "--impl", "../../examples/hashtable.cir", "--depth", "4", "--timeout", "1ms"}, 3, "unknown: the time bound was hit (--timeout 1ms)"},
		{[]string{"spec", "check", "../../examples/set.yaml", "--impl", "../../examples/set-2add-cont.cir", "--timeout", "-1s"}, 2, "--timeout"},
		// a counterexample found before the bound still answers 1.
		{[]string{"spec", "check", unsound, "--impl", "../../examples/set-2add-cont.cir", "--ints", "3,4", "--timeout", "1m"}, 1, "the condition of add/add is unsound: true"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.out) {
			t.Errorf("ncmc %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, tc.out, out, errs)
		}
	}
}
