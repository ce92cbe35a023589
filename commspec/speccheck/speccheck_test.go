package speccheck

import (
	"bytes"
	"strings"
	"testing"

	"ncmc/commspec"
	"ncmc/frontend"
	"ncmc/ir"
)

func load(t *testing.T, specSrc, specFile, progFile string) (*commspec.Spec, *ir.Program) {
	t.Helper()
	var s *commspec.Spec
	var err error
	if specSrc != "" {
		s, err = commspec.Parse(specFile, []byte(specSrc))
	} else {
		s, err = commspec.ParseFile(specFile)
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.LoadFile(progFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckProgram(p); err != nil {
		t.Fatal(err)
	}
	return s, p
}

// TestShippedSpecsSound checks every spec in examples/ against its example.
func TestShippedSpecsSound(t *testing.T) {
	tests := []struct {
		spec, prog string
		depth      int
	}{
		{"counter", "n-counter-inc-3", -1},
		{"counter", "counter-2inc-cf", -1},
		{"counter", "counter-shb2", -1},
		{"set", "set-2add-cont", -1},
		{"set-coarse", "set-2add-cont", -1},
		{"hashtable", "hashtable", 1},
		{"hashtable-coarse", "hashtable", 1},
		{"union-find", "union-find", 1},
		{"union-find-coarse", "union-find", 1},
	}
	for _, tc := range tests {
		t.Run(tc.spec+"/"+tc.prog, func(t *testing.T) {
			s, p := load(t, "", "../../examples/"+tc.spec+".yaml", "../../examples/"+tc.prog+".cir")
			r, err := Check(s, p, Options{Depth: tc.depth})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r.Write(&out, true)
			if !r.Sound() || r.Failing() || r.Inconclusive > 0 || r.Truncated {
				t.Fatalf("not sound:\n%s", out.String())
			}
			if r.States < 2 || r.Pairs == 0 {
				t.Fatalf("nothing checked:\n%s", out.String())
			}
			t.Logf("%s: %d states, %d pairs", tc.spec, r.States, r.Pairs)
		})
	}
}

// TestUnsound checks that unsound conditions get counterexamples.
func TestUnsound(t *testing.T) {
	tests := []struct {
		name, spec, prog string
		opts             Options
		unsound          map[string]string // condition -> substring of a difference
		sound            []string
	}{
		{"set add/add true", `object: Set
methods:
  add:      {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
commute:
  add/add: true
  add/contains: v1 != v2
  contains/contains: true
`, "set-2add-cont", Options{Depth: 1}, map[string]string{"add/add": "returns true when inv 1 goes first but false when inv 2 goes first"},
			[]string{"add/contains", "contains/add", "contains/contains"}},
		{"set add/contains ignores add's result", `object: Set
methods:
  add:      {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
commute:
  add/contains: v1 != v2 || r2
`, "set-2add-cont", Options{Depth: 1}, map[string]string{"add/contains": "contains(0) returns"}, nil},
		{"hashtable", `object: HashTable
constants: {nil: 0}
methods:
  put:  {args: {k: int, v: int}, result: {p: int}}
  get:  {args: {k: int}, result: {v: int}}
  size: {result: {r: int}}
commute:
  put/put: k1 != k2 || v1 == v2
  put/size: v1 != nil
  put/get: k1 != k2 || v1 == p1
`, "hashtable", Options{Depth: 1}, map[string]string{"put/put": "put(0, 1) returns 0 when inv 1 goes first but 1", "put/size": "size() returns"},
			[]string{"put/get", "get/put"}},
		{"union-find", `object: UnionFind
methods:
  find:  {args: {x: int}, result: {r: int}}
  same:  {args: {a: int, b: int}, result: {s: bool}}
  union: {args: {a: int, b: int}}
abstraction:
  classes: {result: int}
functions:
  cls:      {args: {c: int, i: int}, result: int, def: "(c >> (2 * i)) & 3"}
  together: {args: {c: int, i: int, j: int}, result: bool, def: "cls(c, i) == cls(c, j)"}
commute:
  same/union: s1
  union/union: together(classes1(), a1, b1) or together(classes2(), a2, b2)
  find/union: x1 != a2
check:
  init: [init()]
  ints: [0, 1, 2]
`, "union-find", Options{Depth: 1}, map[string]string{
			"same/union":  "same(0, 1) returns false when inv 1 goes first but true when inv 2 goes first",
			"union/union": "a later call tells the final states apart: find(0) returns 1 when inv 1 goes first but 0",
			"find/union":  "find(0) returns 1 when inv 1 goes first but 2 when inv 2 goes first"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, p := load(t, tc.spec, "bad.yaml", "../../examples/"+tc.prog+".cir")
			r, err := Check(s, p, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r.Write(&out, false)
			if r.Sound() {
				t.Fatalf("no counterexample:\n%s", out.String())
			}
			for _, cr := range r.Conds {
				name := cr.Cond.Name()
				want, bad := tc.unsound[name]
				switch {
				case bad && cr.Counterexample == nil:
					t.Errorf("%s: no counterexample", name)
				case bad && !strings.Contains(strings.Join(cr.Counterexample.Diffs, "\n"), want):
					t.Errorf("%s: differences %q, want one containing %q", name, cr.Counterexample.Diffs, want)
				case !bad && cr.Counterexample != nil && contains(tc.sound, name):
					t.Errorf("%s: unexpected counterexample %+v", name, cr.Counterexample)
				}
			}
			if !strings.Contains(out.String(), "bad.yaml:") || !strings.Contains(out.String(), "unsound condition(s)") {
				t.Errorf("report lacks positions or summary:\n%s", out.String())
			}
		})
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestCounterexampleText pins the complete text of one counterexample.
func TestCounterexampleText(t *testing.T) {
	s, p := load(t, `object: Set
methods:
  add:      {args: {v: int}, result: {r: bool}}
  contains: {args: {v: int}, result: {r: bool}}
commute:
  add/contains: v1 != v2 || r2
check:
  ints: [1, 2]
`, "bad.yaml", "../../examples/set-2add-cont.cir")
	r, err := Check(s, p, Options{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out, false)
	want := `bad.yaml:6:17: the condition of add/contains is unsound: v1 != v2 || r2
  state:  after add(1) (bits() = 2)
  inv 1:  add(1)
  inv 2:  contains(1)
  holds:  for add(v=1)\r=false and contains(v=1)\r=true (the results of the run in which inv 1 goes first)
  run:    inv 1 first: add(1) returns false, then contains(1) returns true; then bits() = 2
  run:    inv 2 first: contains(1) returns true, then add(1) returns false; then bits() = 2
`
	if !strings.Contains(out.String(), want) {
		// add(1)\false and contains(1)\true commute: the first real
		// counterexample is in the initial state.
		want = `bad.yaml:6:17: the condition of add/contains is unsound: v1 != v2 || r2
  state:  the initial state (bits() = 0)
  inv 1:  add(1)
  inv 2:  contains(1)
  holds:  for add(v=1)\r=true and contains(v=1)\r=true (the results of the run in which inv 1 goes first)
  run:    inv 1 first: add(1) returns true, then contains(1) returns true; then bits() = 2
  run:    inv 2 first: contains(1) returns false, then add(1) returns true; then bits() = 2
  differ: inv 2 contains(1) returns true when inv 1 goes first but false when inv 2 goes first
`
		if !strings.Contains(out.String(), want) {
			t.Errorf("report:\n%s\nwant it to contain:\n%s", out.String(), want)
		}
	}
}

// TestEnabledness: an invocation that blocks or fails in one order only.
func TestEnabledness(t *testing.T) {
	s, p := load(t, `object: Gate
methods:
  put:   {result: {n: int}}
  take:  {}
  check: {args: {x: int}, result: {b: bool}}
commute:
  take/take: true
  put/take: true
  check/check: true
  check/take: x1 > 5
`, "gate.yaml", "testdata/gate.cir")
	r, err := Check(s, p, Options{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out, false)
	for _, cr := range r.Conds {
		switch cr.Cond.Name() {
		case "put/take", "take/put":
			if cr.Counterexample == nil {
				t.Errorf("%s: no counterexample\n%s", cr.Cond.Name(), out.String())
			} else if d := strings.Join(cr.Counterexample.Diffs, "\n"); !strings.Contains(d, "nothing (assume fails") {
				t.Errorf("%s: differences %q do not mention the blocked take", cr.Cond.Name(), d)
			}
		default:
			if cr.Counterexample != nil {
				t.Errorf("%s: unexpected counterexample\n%s", cr.Cond.Name(), out.String())
			}
		}
	}
}

// TestCompareModes: a difference only a later call sees is missed when only
// the abstraction functions are compared.
func TestCompareModes(t *testing.T) {
	src := `object: UnionFind
methods:
  find:  {args: {x: int}, result: {r: int}}
  union: {args: {a: int, b: int}}
commute:
  union/union: true
check:
  init: [init()]
  ints: [0, 1]
`
	s, p := load(t, src, "u.yaml", "../../examples/union-find.cir")
	for _, tc := range []struct {
		mode  string
		sound bool
	}{{"abstract", true}, {"observe", false}, {"both", false}} {
		r, err := Check(s, p, Options{Depth: 0, Compare: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		if r.Sound() != tc.sound {
			var out bytes.Buffer
			r.Write(&out, false)
			t.Errorf("compare %s: sound = %v, want %v\n%s", tc.mode, r.Sound(), tc.sound, out.String())
		}
	}
}

func TestCheckErrors(t *testing.T) {
	s, p := load(t, `object: UnionFind
methods:
  find:  {args: {x: int}, result: {r: int}}
commute:
  find/find: true
check:
  init: ["union(0, 7)"]
`, "u.yaml", "../../examples/union-find.cir")
	if _, err := Check(s, p, Options{}); err == nil || !strings.Contains(err.Error(), "u.yaml:7:11: init call union(0, 7) fails: runtime error: array index 7 out of bounds") {
		t.Errorf("err = %v", err)
	}
	if _, err := Check(s, p, Options{Compare: "exact"}); err == nil || !strings.Contains(err.Error(), "unknown comparison") {
		t.Errorf("err = %v", err)
	}
}

// TestEvalErrors checks that a condition that fails to evaluate, always or
// on some pairs, is reported as an error of the spec, with the pair.
func TestEvalErrors(t *testing.T) {
	tests := []struct {
		name, cond string
		want       string // substring of the report; "" means no error
	}{
		{"always", "v1 / (v2 - v2) == 1", "add/add cannot be evaluated: division by zero, on add(v=0)"},
		{"sometimes", "v1 / v2 == 1 && v1 != v2", "add/add cannot be evaluated: division by zero, on add(v=0)"},
		{"shift", "(v1 << (v2 + 70)) == 0", "add/add cannot be evaluated: shift count 70 out of range"},
		{"guarded", "v2 != 0 && v1 / v2 == 1 && v1 != v2", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "object: Set\nmethods:\n  add:      {args: {v: int}, result: {r: bool}}\n  contains: {args: {v: int}, result: {r: bool}}\ncommute:\n  add/add: " + tc.cond + "\n"
			s, p := load(t, src, "e.yaml", "../../examples/set-2add-cont.cir")
			r, err := Check(s, p, Options{Depth: 1})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r.Write(&out, false)
			if r.Failing() != (tc.want != "") || !strings.Contains(out.String(), tc.want) {
				t.Fatalf("Failing() = %v, want report with %q:\n%s", r.Failing(), tc.want, out.String())
			}
			if tc.want != "" && !strings.Contains(out.String(), "ERROR    add/add") {
				t.Fatalf("no ERROR line:\n%s", out.String())
			}
		})
	}
}
