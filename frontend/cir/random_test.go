package cir

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"ncmc/ir"
)

// exprGen generates random well-typed CIR expressions together with their
// values, for a differential test of parsing (precedence), checking,
// constant folding and lowering (loads, evaluation order, short-circuit
// evaluation) against Go's own arithmetic.
type exprGen struct {
	r     *rand.Rand
	ints  map[string]int64 // int-valued leaves: locals, globals, elements, fields
	bools map[string]bool
	calls int // calls of inc/binc that evaluation performs
}

func (g *exprGen) pick(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys[g.r.Intn(len(keys))]
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func lit(v int64) string {
	if v < 0 {
		return fmt.Sprintf("(-%d)", uint64(-v)) // -MinInt64 == MinInt64, printed unsigned
	}
	return fmt.Sprint(v)
}

var interesting = []int64{0, 1, -1, 2, 3, 7, -8, 63, 64, 100, math.MaxInt64, math.MinInt64, 1 << 40}

func (g *exprGen) intLeaf() (string, int64) {
	switch g.r.Intn(3) {
	case 0:
		v := interesting[g.r.Intn(len(interesting))]
		if g.r.Intn(2) == 0 {
			v = int64(g.r.Intn(21) - 10)
		}
		return lit(v), v
	case 1:
		k := g.pick(g.ints)
		return k, g.ints[k]
	}
	k := g.pick(g.ints)
	// inc(e) returns e and counts a call.
	s, v := k, g.ints[k]
	g.calls++
	return "inc(" + s + ")", v
}

// intExpr returns an int expression, its value, and whether evaluating it
// performs calls (the generator must know to count them only when evaluated).
func (g *exprGen) intExpr(depth int) (string, int64) {
	if depth <= 0 || g.r.Intn(4) == 0 {
		return g.intLeaf()
	}
	switch g.r.Intn(12) {
	case 0:
		s, v := g.intExpr(depth - 1)
		return "-" + paren(s), -v
	case 1:
		s, v := g.intExpr(depth - 1)
		return "~" + paren(s), ^v
	}
	ops := []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}
	op := ops[g.r.Intn(len(ops))]
	a, av := g.intExpr(depth - 1)
	saved := g.calls
	b, bv := g.intExpr(depth - 1)
	switch op {
	case "/", "%":
		if bv == 0 {
			g.calls = saved
			b, bv = "3", 3
		}
	case "<<", ">>":
		if bv < 0 || bv > 63 {
			g.calls = saved
			b, bv = "5", 5
		}
	}
	v, _ := constBinary(map[string]tokKind{"+": tPlus, "-": tMinus, "*": tStar, "/": tSlash, "%": tPercent,
		"&": tAmp, "|": tPipe, "^": tCaret, "<<": tShl, ">>": tShr}[op], av, bv)
	return paren(a) + " " + op + " " + paren(b), v
}

func paren(s string) string { return "(" + s + ")" }

func (g *exprGen) boolExpr(depth int) (string, bool) {
	if depth <= 0 || g.r.Intn(5) == 0 {
		switch g.r.Intn(3) {
		case 0:
			b := g.r.Intn(2) == 0
			return fmt.Sprint(b), b
		case 1:
			keys := make([]string, 0, len(g.bools))
			for k := range g.bools {
				keys = append(keys, k)
			}
			sortStrings(keys)
			k := keys[g.r.Intn(len(keys))]
			return k, g.bools[k]
		}
		k := "bl"
		g.calls++
		return "binc(" + k + ")", g.bools[k]
	}
	switch g.r.Intn(6) {
	case 0:
		s, v := g.boolExpr(depth - 1)
		return "!" + paren(s), !v
	case 1, 2:
		op := []string{"&&", "||"}[g.r.Intn(2)]
		a, av := g.boolExpr(depth - 1)
		saved := g.calls
		b, bv := g.boolExpr(depth - 1)
		if (op == "&&" && !av) || (op == "||" && av) {
			g.calls = saved // the right operand is not evaluated
			// A right operand that would fail if it were evaluated.
			if g.r.Intn(2) == 0 {
				b = "1 / " + g.zeroExpr() + " == 1"
			}
			if op == "&&" {
				return paren(a) + " && " + paren(b), false
			}
			return paren(a) + " || " + paren(b), true
		}
		if op == "&&" {
			return paren(a) + " && " + paren(b), av && bv
		}
		return paren(a) + " || " + paren(b), av || bv
	case 3:
		a, av := g.boolExpr(depth - 1)
		b, bv := g.boolExpr(depth - 1)
		if g.r.Intn(2) == 0 {
			return paren(a) + " == " + paren(b), av == bv
		}
		return paren(a) + " != " + paren(b), av != bv
	}
	ops := []string{"<", "<=", ">", ">=", "==", "!="}
	op := ops[g.r.Intn(len(ops))]
	a, av := g.intExpr(depth - 1)
	b, bv := g.intExpr(depth - 1)
	v, _ := constBinary(map[string]tokKind{"<": tLt, "<=": tLe, ">": tGt, ">=": tGe, "==": tEq, "!=": tNe}[op], av, bv)
	return paren(a) + " " + op + " " + paren(b), v != 0
}

// zeroExpr is a non-constant expression whose value is 0.
func (g *exprGen) zeroExpr() string {
	keys := make([]string, 0, len(g.ints))
	for k, v := range g.ints {
		if v == 0 {
			keys = append(keys, k)
		}
	}
	sortStrings(keys)
	return keys[g.r.Intn(len(keys))] // z is always there
}

func TestRandomExpressions(t *testing.T) {
	const programs = 300
	r := rand.New(rand.NewSource(1))
	for n := 0; n < programs; n++ {
		g := &exprGen{r: r, ints: map[string]int64{}, bools: map[string]bool{}}
		var decl, init strings.Builder
		val := func() int64 { return interesting[r.Intn(len(interesting))] }
		decl.WriteString("record R { v: int; }\nobject O { f: int; atomic h: int; fn get(): int { return this.f; } }\nglobal o: O;\nglobal calls: int;\n")
		decl.WriteString("fn inc(v: int): int { calls = calls + 1; return v; }\nfn binc(v: bool): bool { calls = calls + 1; return v; }\n")
		for i := 0; i < 2; i++ {
			v := val()
			fmt.Fprintf(&decl, "global g%d: int = %s;\n", i, lit(v))
			g.ints[fmt.Sprintf("g%d", i)] = v
		}
		va := val()
		fmt.Fprintf(&decl, "atomic global ga: int = %s;\n", lit(va))
		g.ints["ga"] = va
		a0, a1 := val(), val()
		fmt.Fprintf(&decl, "global arr: int[3] = {%s, %s};\n", lit(a0), lit(a1))
		g.ints["arr[0]"], g.ints["arr[1]"], g.ints["arr[2]"] = a0, a1, 0
		bg := r.Intn(2) == 0
		fmt.Fprintf(&decl, "global bg: bool = %v;\n", bg)
		g.bools["bg"] = bg
		for i := 0; i < 3; i++ {
			v := val()
			fmt.Fprintf(&init, "    let l%d = %s;\n", i, lit(v))
			g.ints[fmt.Sprintf("l%d", i)] = v
		}
		init.WriteString("    let z = 0;\n    let one = 1;\n")
		g.ints["z"], g.ints["one"] = 0, 1
		g.ints["arr[one]"] = a1
		of, oh, pv := val(), val(), val()
		fmt.Fprintf(&init, "    o.f = %s;\n    o.h = %s;\n    let p = new R { v: %s };\n", lit(of), lit(oh), lit(pv))
		g.ints["o.f"], g.ints["o.h"], g.ints["p.v"], g.ints["o.get()"] = of, oh, pv, of
		bl := r.Intn(2) == 0
		fmt.Fprintf(&init, "    let bl = %v;\n", bl)
		g.bools["bl"] = bl
		var body strings.Builder
		for i := 0; i < 6; i++ {
			if r.Intn(2) == 0 {
				s, v := g.intExpr(4)
				fmt.Fprintf(&body, "    assert(%s == %s, \"int %d\");\n", s, lit(v), i)
			} else {
				s, v := g.boolExpr(4)
				fmt.Fprintf(&body, "    assert((%s) == %v, \"bool %d\");\n", s, v, i)
			}
		}
		fmt.Fprintf(&body, "    assert(calls == %d, \"call count\");\n", g.calls)
		src := decl.String() + "fn main() {\n" + init.String() + body.String() + "}\n"
		p, err := Compile("r.cir", []byte(src))
		if err != nil {
			t.Fatalf("program %d does not compile: %v\n%s", n, err, src)
		}
		if err := ir.Validate(p); err != nil {
			t.Fatalf("program %d: invalid IR: %v", n, err)
		}
		if got := newSeqExec(p, 8).run(); got != "ok" {
			t.Fatalf("program %d: %s\n%s\n%s", n, got, src, p)
		}
	}
}
