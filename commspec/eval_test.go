package commspec

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func mustParseFile(t testing.TB, path string) *Spec {
	t.Helper()
	s, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustParse(t testing.TB, src string) *Spec {
	t.Helper()
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func iv(m string, ret int64, args ...int64) Invocation {
	return Invocation{Method: m, Args: args, Ret: ret}
}

const T, F = 1, 0

// TestTable41 evaluates the thesis's set specification (examples/set.yaml).
func TestTable41(t *testing.T) {
	s := mustParseFile(t, "../examples/set.yaml")
	tests := []struct {
		a, b Invocation
		want bool
	}{
		{iv("add", T, 1), iv("add", T, 2), true},
		{iv("add", T, 1), iv("add", F, 1), false},
		{iv("add", F, 1), iv("add", F, 1), true},
		{iv("add", T, 1), iv("contains", T, 1), false},
		{iv("add", F, 1), iv("contains", T, 1), true},
		{iv("add", T, 1), iv("contains", F, 2), true},
		{iv("contains", F, 1), iv("add", T, 1), false},
		{iv("contains", T, 1), iv("add", F, 1), true},
		{iv("contains", F, 1), iv("contains", T, 1), true},
	}
	for _, tc := range tests {
		got, err := s.Eval(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Eval(%v, %v) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
		}
		if s.Commute(tc.a, tc.b) != tc.want || s.AccessPoints().Commute(tc.a, tc.b) != tc.want {
			t.Errorf("Commute(%v, %v) != %v (direct or access points)", tc.a, tc.b, tc.want)
		}
	}
}

// TestTable42 evaluates the thesis's hash table specification
// (examples/hashtable.yaml; nil is 0).
func TestTable42(t *testing.T) {
	s := mustParseFile(t, "../examples/hashtable.yaml")
	tests := []struct {
		a, b Invocation
		want bool
	}{
		{iv("put", 0, 1, 10), iv("put", 0, 3, 30), true},
		{iv("put", 0, 1, 10), iv("put", 10, 1, 20), false},
		{iv("put", 10, 1, 10), iv("put", 20, 1, 20), true},
		{iv("put", 10, 1, 10), iv("put", 10, 1, 20), false},
		{iv("put", 0, 1, 10), iv("get", 0, 1), false},
		{iv("put", 10, 1, 10), iv("get", 10, 1), true},
		{iv("get", 0, 2), iv("put", 0, 1, 5), true},
		{iv("get", 0, 1), iv("put", 0, 1, 5), false},
		{iv("get", 5, 1), iv("put", 5, 1, 5), true},
		{iv("put", 0, 1, 10), iv("size", 0), false},
		{iv("put", 5, 1, 10), iv("size", 1), true},
		{iv("put", 5, 1, 0), iv("size", 1), false},
		{iv("size", 1), iv("put", 5, 1, 10), true},
		{iv("size", 1), iv("put", 0, 1, 10), false},
		{iv("get", 0, 1), iv("get", 7, 1), true},
		{iv("get", 0, 1), iv("size", 7), true},
		{iv("size", 0), iv("size", 7), true},
	}
	for _, tc := range tests {
		got, err := s.Eval(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Eval(%v, %v) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
		}
		if s.AccessPoints().Commute(tc.a, tc.b) != tc.want {
			t.Errorf("access points: Commute(%v, %v) != %v", tc.a, tc.b, tc.want)
		}
	}
}

// mapState is an abstract state given by a table of abstraction values.
type mapState map[string]int64

func (m mapState) Eval(fn string, args []int64) (int64, error) {
	k := fmt.Sprintf("%s%v", fn, args)
	if v, ok := m[k]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("no value for %s", k)
}

// partition encodes a union-find partition of 0..3 like classes() in
// examples/union-find.cir: element i's least class member in bits 2i..2i+1.
func partition(least ...int64) mapState {
	var c int64
	for i, l := range least {
		c |= l << (2 * i)
	}
	return mapState{"classes[]": c}
}

// TestUnionFindL1 evaluates the L1 union-find spec on concrete states.
func TestUnionFindL1(t *testing.T) {
	s := mustParseFile(t, "../examples/union-find.yaml")
	single := partition(0, 1, 2, 3) // {0} {1} {2} {3}
	joined := partition(0, 0, 2, 3) // {0, 1} {2} {3}
	with := func(v Invocation, st State) Invocation { v.State = st; return v }
	tests := []struct {
		a, b Invocation
		want bool
	}{
		{with(iv("find", 0, 0), single), with(iv("union", 0, 0, 1), single), false},
		{with(iv("find", 2, 2), single), with(iv("union", 0, 0, 1), single), true},
		{with(iv("find", 1, 0), joined), with(iv("union", 0, 0, 1), joined), true}, // the union is a no-op
		{with(iv("find", 1, 1), joined), with(iv("union", 0, 1, 2), joined), false},
		{with(iv("union", 0, 1, 2), joined), with(iv("find", 3, 3), joined), true},
		{with(iv("same", F, 0, 2), single), with(iv("union", 0, 2, 0), single), false},
		{with(iv("same", F, 0, 2), single), with(iv("union", 0, 1, 3), single), true},
		{with(iv("same", T, 0, 1), joined), with(iv("union", 0, 1, 2), joined), true},
		{with(iv("union", 0, 0, 1), single), with(iv("union", 0, 2, 3), single), true},
		{with(iv("union", 0, 0, 1), single), with(iv("union", 0, 1, 2), joined), false},
		{with(iv("union", 0, 0, 1), joined), with(iv("union", 0, 1, 0), joined), true}, // both no-ops
		{with(iv("find", 0, 0), single), with(iv("find", 1, 1), single), true},
	}
	for _, tc := range tests {
		got, err := s.Eval(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Eval(%v, %v) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
		}
		if s.NewIndexCommute(tc.a, tc.b) != tc.want {
			t.Errorf("index: Commute(%v, %v) != %v", tc.a, tc.b, tc.want)
		}
	}
	if !s.UsesState() || s.Cond("find", "union").Logic() != "L1" || s.Cond("find", "same").Logic() != "L2" {
		t.Error("wrong logic classification")
	}
	// Without a state an L1 condition cannot be evaluated: do not commute.
	a, b := iv("find", 2, 2), iv("union", 0, 0, 1)
	if _, err := s.Eval(a, b); err == nil || !strings.Contains(err.Error(), "abstract state") {
		t.Errorf("Eval without state: err = %v", err)
	}
	if s.Commute(a, b) {
		t.Error("Commute without state = true")
	}
}

// NewIndexCommute decides a pair through an Index (test helper).
func (s *Spec) NewIndexCommute(a, b Invocation) bool {
	ix := s.NewIndex()
	ix.Add(1, a)
	conflict := false
	ix.Conflicts(b, func(int) { conflict = true })
	return !conflict
}

func TestEvalErrors(t *testing.T) {
	s := mustParse(t, `object: O
methods:
  f: {args: {x: int}, result: {r: int}}
  g: {}
commute:
  f/f: 10 / x1 != 10 / x2 || x1 == x2
  f/g: true
`)
	tests := []struct {
		a, b Invocation
		err  string
	}{
		{iv("h", 0), iv("f", 0, 1), "method h is not in the spec"},
		{iv("f", 0), iv("f", 0, 1), "f takes 1 arguments, the invocation has 0"},
		{iv("f", 0, 0), iv("f", 0, 1), "division by zero"},
	}
	for _, tc := range tests {
		if _, err := s.Eval(tc.a, tc.b); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Eval(%v, %v): err = %v, want %q", tc.a, tc.b, err, tc.err)
		}
		if s.Commute(tc.a, tc.b) {
			t.Errorf("Commute(%v, %v) = true despite an error", tc.a, tc.b)
		}
	}
	if ok, err := s.Eval(iv("g", 0), iv("g", 0)); ok || err != nil {
		t.Errorf("a pair without condition: %v, %v; want false, nil", ok, err)
	}
	if ok, err := s.Eval(iv("g", 0), iv("f", 0, 3)); !ok || err != nil {
		t.Errorf("derived g/f: %v, %v; want true, nil", ok, err)
	}
	// Short-circuit: the division is not reached when x1 == x2 comes first.
	s2 := mustParse(t, strings.Replace(`object: O
methods:
  f: {args: {x: int}, result: {r: int}}
commute:
  f/f: x1 == x2 || 10 / x1 != 10 / x2
`, "", "", 1))
	if ok, err := s2.Eval(iv("f", 0, 0), iv("f", 0, 0)); !ok || err != nil {
		t.Errorf("short circuit: %v, %v", ok, err)
	}
}

func TestOperators(t *testing.T) {
	s := mustParse(t, `object: O
constants: {big: 9223372036854775807, yes: true}
functions:
  sq: {args: {x: int}, result: int, def: "x * x"}
  odd: {args: {x: int}, result: bool, def: "x % 2 != 0"}
methods:
  f: {args: {a: int, b: bool}, result: {r: int}}
commute:
  f/f: >-
    (a1 + a2) * 2 - a1 * 2 == a2 * 2 and -7 / 2 == -3 and -7 % 2 == -1 and
    (1 << 4 | 1) == 17 and (6 & 3 ^ 1) == 3 and ~0 == -1 and 16 >> 2 == 4 and
    big + 1 == -9223372036854775807 - 1 and -9223372036854775808 < 0 and
    min(a1, a2) <= max(a1, a2) and abs(-3) == 3 and sq(3) == 9 and
    (odd(a1) == odd(a2) or b1 != b2 or not yes) and yes == true and (b1 == b2 or true)
`)
	for _, x := range []int64{-3, 0, 1, 4} {
		for _, y := range []int64{-2, 0, 3} {
			a, b := iv("f", 0, x, 0), iv("f", 0, y, 0)
			want := (x%2 != 0) == (y%2 != 0)
			got, err := s.Eval(a, b)
			if err != nil || got != want {
				t.Errorf("f(%d)/f(%d) = %v, %v; want %v", x, y, got, err, want)
			}
		}
	}
}

func TestSymmetry(t *testing.T) {
	spec := func(cond string) string {
		return `object: O
abstraction:
  bits: {result: int}
methods:
  f: {args: {v: int}, result: {r: bool}}
  g: {args: {v: int}}
commute:
  f/f: ` + cond + "\n"
	}
	good := []struct{ cond, how string }{
		{"v1 != v2 || (!r1 && !r2)", "syntactic"},
		{"v2 != v1 || (not r2 and not r1)", "syntactic"},
		{"v1 + 1 > v2 && v2 + 1 > v1", "syntactic"},
		{"'!(v1 == v2) || r1 == r2'", "syntactic"},
		{"max(v1, v2) - min(v1, v2) > 1", "syntactic"},
		{"bits1() == bits2()", "syntactic"},
		{"v1 - v2 != 0", "bounded"},
		{"(v1 - v2) * (v1 - v2) > 0 || (r1 && r2)", "bounded"},
		{"(v1 < v2 || v2 < v1) == (v1 != v2)", "syntactic"},
		{"(v1 < v2 || v2 < v1) == (v2 - v1 != 0)", "bounded"},
		{"bits1() - bits2() != 0", "bounded"},
	}
	for _, tc := range good {
		s, err := Parse("t.yaml", []byte(spec(tc.cond)))
		if err != nil {
			t.Errorf("%s: %v", tc.cond, err)
			continue
		}
		if got := s.Cond("f", "f").Symmetry; got != tc.how {
			t.Errorf("%s: symmetry established %q, want %q", tc.cond, got, tc.how)
		}
	}
	bad := []string{
		"v1 < v2",
		"r1",
		"v1 != 7 || v2 == 7",
		"v1 != v2 || r1",
		"bits1() == 0",
		"bits1() - bits2() != 1",
		"v1 * 3 != v2 + 2",
	}
	for _, cond := range bad {
		_, err := Parse("t.yaml", []byte(spec(cond)))
		if err == nil || !strings.Contains(err.Error(), "must be symmetric") {
			t.Errorf("%s: err = %v, want an asymmetry", cond, err)
		}
	}
	// A pair given in both orders must agree.
	_, err := Parse("t.yaml", []byte(spec("true")+"  f/g: v1 != v2\n  g/f: v1 != v2 || r2\n"))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:10:8: the conditions of f/g and g/f must agree") {
		t.Errorf("mirror: err = %v", err)
	}
	s, err := Parse("t.yaml", []byte(spec("true")+"  f/g: v1 != v2 || r1\n  g/f: r2 or v2 != v1\n"))
	if err != nil || s.Cond("g", "f").Symmetry != "syntactic" {
		t.Errorf("mirror agreement: %v", err)
	}
}

// apSpecs are specs whose compiled access points must agree with direct
// evaluation.
var apSpecs = []string{
	`object: A
constants: {nil: 0}
methods:
  put: {args: {k: int, v: int}, result: {p: int}}
  get: {args: {k: int}, result: {v: int}}
  size: {result: {r: int}}
  del: {args: {k: int}, result: {ok: bool}}
  pair: {args: {k: int, j: int}, result: {r: bool}}
  odd: {args: {k: int}, result: {r: int}}
commute:
  put/put: k1 != k2 || (v1 == p1 && v2 == p2)
  put/get: k2 != k1 || v1 == p1
  put/size: v1 != nil && p1 != nil
  get/get: true
  del/del: k1 != k2 || !ok1 && !ok2
  del/put: k1 != k2 or not ok1 and p2 == nil
  del/size: not ok1
  pair/pair: k1 != k2 || j1 != j2 || r1 == r2
  pair/put: k1 != k2 || j1 != v2 || r1
  odd/odd: k1 % 2 != k2 % 2 || (r1 > 0) != (r2 > 0)
  odd/get: k1 % 3 != k2 || r1 == v2
  odd/put: k1 + k2 != 3
  odd/del: false
`,
	"../examples/set.yaml", "../examples/set-coarse.yaml", "../examples/hashtable.yaml",
	"../examples/hashtable-coarse.yaml", "../examples/union-find.yaml", "../examples/union-find-coarse.yaml",
	"../examples/counter.yaml",
}

func loadAP(t *testing.T, src string) *Spec {
	if strings.HasSuffix(src, ".yaml") {
		return mustParseFile(t, src)
	}
	return mustParse(t, src)
}

func randInv(r *rand.Rand, s *Spec) Invocation {
	m := s.Methods[r.IntN(len(s.Methods))]
	v := Invocation{Method: m.Name}
	val := func(t Type) int64 {
		if t == Bool {
			return int64(r.IntN(2))
		}
		return int64(r.IntN(4))
	}
	for _, p := range m.Params {
		v.Args = append(v.Args, val(p.Type))
	}
	if m.Result != nil {
		v.Ret = val(m.Result.Type)
	}
	v.State = partition(int64(r.IntN(2)), int64(r.IntN(2)), int64(r.IntN(3)), int64(r.IntN(4)))
	return v
}

// TestAccessPointsAgree checks that the compiled access points (pairwise and
// through an Index) agree with direct evaluation on random invocations.
func TestAccessPointsAgree(t *testing.T) {
	for _, src := range apSpecs {
		s := loadAP(t, src)
		ap := s.AccessPoints()
		r := rand.New(rand.NewPCG(7, uint64(len(src))))
		for k := 0; k < 5000; k++ {
			a, b := randInv(r, s), randInv(r, s)
			want := s.Commute(a, b)
			if got := ap.Commute(a, b); got != want {
				t.Fatalf("%s: access points say %v, the condition %v, for %v and %v\n%s", s.Object, got, want, a, b, ap.Describe())
			}
		}
		// An index of 40 invocations answers like pairwise evaluation.
		for round := 0; round < 50; round++ {
			ix := s.NewIndex()
			var us []Invocation
			for id := 0; id < 40; id++ {
				u := randInv(r, s)
				us = append(us, u)
				ix.Add(id, u)
			}
			v := randInv(r, s)
			var got, want []int
			ix.Conflicts(v, func(id int) { got = append(got, id) })
			for id, u := range us {
				if !s.Commute(u, v) {
					want = append(want, id)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: index conflicts of %v = %v, want %v", s.Object, v, got, want)
			}
		}
	}
}

// TestAccessPointsCompiled checks which forms compile.
func TestAccessPointsCompiled(t *testing.T) {
	s := loadAP(t, apSpecs[0])
	ap := s.AccessPoints()
	compiled := map[string]bool{
		"put/put": true, "put/get": true, "put/size": true, "get/get": true, "del/del": true,
		"del/put": true, "del/size": true, "pair/pair": true, "pair/put": true, "odd/odd": true,
		"odd/del": true, "size/size": true, // no condition: a keyless always-conflicting channel
		"odd/get": false, // the atom r1 == v2 mentions both invocations
		"odd/put": false, // k1 + k2 != 3 is not a key comparison
	}
	for pair, want := range compiled {
		m1, m2, _ := strings.Cut(pair, "/")
		if got := ap.Compiled(m1, m2); got != want {
			t.Errorf("%s compiled = %v, want %v\n%s", pair, got, want, ap.Describe())
		}
	}
	pts, err := ap.Points(iv("put", 0, 1, 5))
	if err != nil || len(pts) != 6 { // put/put, put/get, put/size, del/put, pair/put, put/put's ... one per channel of put
		t.Logf("points of put: %v (%v)", pts, err)
	}
	for _, p := range pts {
		if p.Wild {
			t.Errorf("unexpected wild point %v", p)
		}
	}
	// A class or key that fails to evaluate gives a Wild point, which conflicts.
	s2 := mustParse(t, "object: O\nmethods:\n  f: {args: {x: int}}\ncommute:\n  f/f: 10 / x1 != 10 / x2\n")
	p, _ := s2.AccessPoints().Points(iv("f", 0, 0))
	q, _ := s2.AccessPoints().Points(iv("f", 0, 7))
	if len(p) != 1 || !p[0].Wild || !s2.AccessPoints().Conflict(p[0], q[0]) {
		t.Errorf("wild points: %v %v", p, q)
	}
}
