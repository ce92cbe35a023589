package smt

import (
	"strings"
	"testing"
)

func TestSimplify(t *testing.T) {
	b := NewBuilder()
	x, y, z, w := b.NewVar("x"), b.NewVar("y"), b.NewVar("z"), b.NewVar("w")
	xy, yz, zw := b.Lt(x, y), b.Lt(y, z), b.Lt(z, w)
	tests := []struct {
		name string
		got  Formula
		want Formula
	}{
		{"Lt(a,a)", b.Lt(x, x), False()},
		{"empty And", b.And(), True()},
		{"empty Or", b.Or(), False()},
		{"And with False", b.And(xy, False(), yz), False()},
		{"Or with True", b.Or(xy, True(), yz), True()},
		{"And drops True", b.And(True(), xy, True()), xy},
		{"Or drops False", b.Or(False(), xy), xy},
		{"single And", b.And(xy), xy},
		{"dedupe", b.And(xy, yz, xy), b.And(yz, xy)},
		{"commutative", b.Or(xy, yz), b.Or(yz, xy)},
		{"flatten And", b.And(xy, b.And(yz, zw)), b.And(b.And(xy, yz), zw)},
		{"flatten Or", b.Or(xy, b.Or(yz, zw)), b.Or(zw, yz, xy)},
		{"complement And", b.And(xy, yz, b.Lt(y, x)), False()},
		{"complement Or", b.Or(xy, b.Lt(y, x)), True()},
		{"Not Lt", b.Not(xy), b.Lt(y, x)},
		{"Not True", b.Not(True()), False()},
		{"Not False", b.Not(False()), True()},
		{"Not Not", b.Not(b.Not(b.Or(xy, b.And(yz, zw)))), b.Or(xy, b.And(yz, zw))},
		{"De Morgan", b.Not(b.And(xy, yz)), b.Or(b.Lt(y, x), b.Lt(z, y))},
		{"Implies", b.Implies(xy, yz), b.Or(b.Lt(y, x), yz)},
		{"Implies False", b.Implies(False(), yz), True()},
		{"Gt", b.Gt(x, y), b.Lt(y, x)},
		{"Chain", b.Chain(x, y, z, w), b.And(xy, yz, zw)},
		{"Chain short", b.Chain(x), True()},
		{"zero Formula", Formula{}, True()},
		{"Builder.True", b.True(), True()},
		{"Builder.False", b.False(), False()},
		{"Iff", b.Iff(xy, yz), b.Or(b.And(xy, yz), b.And(b.Lt(y, x), b.Lt(z, y)))},
		{"Iff self", b.Iff(xy, xy), True()},
		{"And zero", b.And(Formula{}, xy), xy},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got.node() != tc.want.node() {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
}

func TestNotInvolutionAndSharing(t *testing.T) {
	b := NewBuilder()
	v := make([]Var, 5)
	for i := range v {
		v[i] = b.NewVar("")
	}
	f := b.And(b.Or(b.Lt(v[0], v[1]), b.Lt(v[2], v[3])), b.Or(b.Lt(v[1], v[2]), b.Lt(v[3], v[4])))
	g := b.Not(f)
	if b.Not(g) != f {
		t.Fatalf("Not(Not(f)) != f")
	}
	if g.Kind() != KindOr || len(g.Args()) != 2 {
		t.Fatalf("Not(f) = %v", g)
	}
	// A DAG with heavy sharing: 2^40 paths but 80 nodes; Not, Eval, Size
	// and Vars must not blow up.
	h := b.Lt(v[0], v[1])
	for i := 0; i < 40; i++ {
		h = b.Or(b.And(h, b.Lt(v[i%5], v[(i+2)%5])), b.And(h, b.Lt(v[(i+1)%5], v[(i+3)%5])))
	}
	if s := h.Size(); s > 200 {
		t.Fatalf("Size = %d, want small", s)
	}
	nh := b.Not(h)
	if b.Not(nh) != h {
		t.Fatalf("Not(Not(h)) != h")
	}
	before := b.NumNodes()
	b.Not(h)
	if b.NumNodes() != before {
		t.Fatalf("second Not created nodes")
	}
	val := func(x Var) int64 { return int64(x) }
	if Eval(h, val) == Eval(nh, val) {
		t.Fatalf("Eval(h) == Eval(Not h)")
	}
	if got := len(Vars(h)); got != 5 {
		t.Fatalf("Vars = %d", got)
	}
	if s := h.String(); len(s) > maxStringLen+3 || !strings.HasSuffix(s, "...") {
		t.Fatalf("String not truncated: %d chars", len(s))
	}
}

func TestFormulaInspection(t *testing.T) {
	b := NewBuilder()
	x, y := b.NewVar("x"), b.NewVar("y")
	f := b.Lt(x, y)
	if a, c, ok := f.Atom(); !ok || a != x || c != y {
		t.Fatalf("Atom = %v %v %v", a, c, ok)
	}
	if f.Kind() != KindLt || f.Args() != nil {
		t.Fatalf("Kind/Args")
	}
	if s := b.Or(f, b.Lt(y, 7)).String(); s != "(or (< x y) (< y o7))" {
		t.Fatalf("String = %q", s)
	}
	if b.NumVars() != 8 {
		t.Fatalf("NumVars = %d", b.NumVars())
	}
	if v := b.NewVar("n"); v != 8 {
		t.Fatalf("NewVar after Lt(_, 7) = %d", v)
	}
	if !True().IsTrue() || !False().IsFalse() || (Formula{}).Kind() != KindTrue {
		t.Fatalf("constants")
	}
	for k, want := range map[Kind]string{KindFalse: "false", KindTrue: "true", KindLt: "<", KindAnd: "and", KindOr: "or", 9: "Kind(9)"} {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q", k, k.String())
		}
	}
}

func TestMixingBuildersPanics(t *testing.T) {
	b1, b2 := NewBuilder(), NewBuilder()
	f1, f2 := b1.Lt(0, 1), b2.Lt(1, 2)
	defer func() {
		if recover() == nil {
			t.Fatalf("no panic")
		}
	}()
	b1.And(f1, f2)
}

func TestEvalAndBruteForce(t *testing.T) {
	b := NewBuilder()
	x, y, z := b.NewVar("x"), b.NewVar("y"), b.NewVar("z")
	tests := []struct {
		name string
		f    Formula
		sat  bool
	}{
		{"true", True(), true},
		{"false", False(), false},
		{"atom", b.Lt(x, y), true},
		{"cycle", b.Chain(x, y, z, x), false},
		{"chain", b.Chain(x, y, z), true},
		{"betweenness", b.And(b.Or(b.Chain(x, y, z), b.Chain(z, y, x)), b.Lt(y, x), b.Lt(y, z)), false},
		{"disjunctive", b.And(b.Or(b.Lt(x, y), b.Lt(y, z)), b.Lt(z, x)), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, sat, err := BruteForce(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if sat != tc.sat {
				t.Fatalf("sat = %v, want %v", sat, tc.sat)
			}
			if sat && !Eval(tc.f, func(v Var) int64 { return m[v] }) {
				t.Fatalf("model %v does not satisfy %v", m, tc.f)
			}
		})
	}
	// Too many variables.
	vs := make([]Var, MaxBruteForceVars+1)
	for i := range vs {
		vs[i] = b.NewVar("")
	}
	if _, _, err := BruteForce(b.Chain(vs...)); err == nil {
		t.Fatalf("no error for %d vars", len(vs))
	}
}

func TestConjunctiveOrder(t *testing.T) {
	b := NewBuilder()
	v := make([]Var, 6)
	for i := range v {
		v[i] = b.NewVar("")
	}
	order, sat, err := ConjunctiveOrder(b.Lt(v[3], v[1]), b.And(b.Lt(v[1], v[0]), b.Lt(v[5], v[4])), True())
	if err != nil || !sat {
		t.Fatalf("sat=%v err=%v", sat, err)
	}
	want := []Var{v[3], v[1], v[0], v[5], v[4]}
	if len(order) != len(want) {
		t.Fatalf("order = %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order = %v, want %v", order, want)
		}
	}
	if _, sat, _ := ConjunctiveOrder(b.Chain(v[0], v[1], v[2]), b.Lt(v[2], v[0])); sat {
		t.Fatalf("cycle is sat")
	}
	if _, sat, _ := ConjunctiveOrder(False()); sat {
		t.Fatalf("False is sat")
	}
	if _, _, err := ConjunctiveOrder(b.Or(b.Lt(v[0], v[1]), b.Lt(v[2], v[3]))); err != ErrNotConjunctive {
		t.Fatalf("err = %v", err)
	}
}
