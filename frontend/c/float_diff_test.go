package c

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

var floatDiffN = flag.Int("floatdiff.n", 300, "random floating-point expressions for TestFloatDiff")

// TestFloatDiff compares the C front end's floating-point semantics with
// gcc's on x86-64: random expressions over float, double and integer
// variables of every width (+ - * /, unary minus, comparisons, the
// conditional operator, casts between float, double and the integer types,
// integer-to-float conversions of 64-bit values that must round) are
// compiled natively by the host gcc (LP64, -O0, SSE arithmetic) and their
// values printed exactly (%a); the same program, translated with the LP64
// data model, must produce the same values, compared by representation
// (NaN as NaN, the sign of a zero through 1/x), and fail with one value
// altered.
func TestFloatDiff(t *testing.T) {
	gcc, seed := diffGCC(t)
	r := rand.New(rand.NewSource(seed))
	const batch = 50
	for start := 0; start < *floatDiffN; start += batch {
		n := min(batch, *floatDiffN-start)
		g := &floatGen{r: r}
		var decls, stmts []string
		for _, v := range floatVars {
			decls = append(decls, fmt.Sprintf("%s %s = %s;", v.t, v.name, g.init(v)))
		}
		for i := 0; i < n; i++ {
			e, _ := g.expr(3)
			stmts = append(stmts, fmt.Sprintf("d[%d] = (double)(%s);", i, e))
		}
		body := strings.Join(decls, "\n") + "\n" + strings.Join(stmts, "\n")
		diffBatch(t, gcc, seed, r, start, "double", "d", "%a", body, n, func(i int, out string, altered bool) string {
			return sameAs(fmt.Sprintf("d[%d]", i), parseHexFloat(t, out), altered)
		})
	}
}

// parseHexFloat reads a value printed by glibc's %a.
func parseHexFloat(t *testing.T, s string) float64 {
	switch strings.TrimPrefix(s, "-") {
	case "nan":
		return math.NaN()
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("native output %q: %v", s, err)
	}
	return v
}

// sameAs is a C condition that holds when the double x has exactly the
// value v (NaN is any NaN; a zero's sign counts); altered, it holds for
// no value that sameAs(x, v, false) accepts.
func sameAs(x string, v float64, altered bool) string {
	var c string
	switch {
	case math.IsNaN(v):
		c = x + " != " + x
	case math.IsInf(v, 0), v == 0:
		inf := "(1e308 * 10.0)"
		if math.Signbit(v) {
			inf = "-" + inf
		}
		if v == 0 {
			c = fmt.Sprintf("%s == 0 && 1 / %s == %s", x, x, inf)
		} else {
			c = x + " == " + inf
		}
	default:
		c = x + " == " + strconv.FormatFloat(v, 'x', -1, 64)
	}
	if altered {
		return "!(" + c + ")"
	}
	return c
}

type floatVar struct {
	name, t string
	float   bool
}

var floatVars = []floatVar{
	{"f0", "float", true}, {"f1", "float", true}, {"d0", "double", true}, {"d1", "double", true},
	{"i0", "int", false}, {"u0", "unsigned", false}, {"ll0", "long long", false}, {"ull0", "unsigned long long", false},
	{"c0", "signed char", false}, {"b0", "_Bool", false},
}

// floatGen generates random C expressions over floatVars.
type floatGen struct{ r *rand.Rand }

// literal is a random float (f suffix) or double constant, in decimal or
// hexadecimal, with a fraction that often does not round exactly.
func (g *floatGen) literal() (string, bool) {
	v := float64(g.r.Intn(2001)-1000) / float64([]int{1, 3, 7, 10, 1000, 1 << 10}[g.r.Intn(6)])
	s := strconv.FormatFloat(v, 'g', 12, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	switch g.r.Intn(4) {
	case 0:
		s += "f"
	case 1:
		s = strconv.FormatFloat(v, 'x', -1, 64)
	}
	return "(" + s + ")", true
}

// init is an initial value for variable v: floats in [-1000, 1000] (so
// that casts of the variables to int are defined), integers of the full
// range of their type.
func (g *floatGen) init(v floatVar) string {
	switch v.t {
	case "float", "double":
		s, _ := g.literal()
		return s
	case "int":
		return strconv.Itoa(int(int32(g.r.Uint32())))
	case "unsigned":
		return strconv.FormatUint(uint64(g.r.Uint32()), 10) + "u"
	case "long long":
		return fmt.Sprintf("%dLL", int64(g.r.Uint64())>>uint(g.r.Intn(64)))
	case "unsigned long long":
		return fmt.Sprintf("%dULL", g.r.Uint64()>>uint(g.r.Intn(64)))
	case "signed char":
		return strconv.Itoa(g.r.Intn(256) - 128)
	}
	return strconv.Itoa(g.r.Intn(2))
}

// expr returns an expression of at most depth levels and whether its type
// is a floating one. Integer operands of / are converted to double first
// (no division by zero), and only float variables are converted to int
// (their values are in range).
func (g *floatGen) expr(depth int) (string, bool) {
	if depth == 0 || g.r.Intn(4) == 0 {
		if g.r.Intn(3) == 0 {
			return g.literal()
		}
		v := floatVars[g.r.Intn(len(floatVars))]
		return v.name, v.float
	}
	switch g.r.Intn(9) {
	case 0, 1, 2:
		a, af := g.expr(depth - 1)
		b, bf := g.expr(depth - 1)
		op := []string{"+", "-", "*", "/"}[g.r.Intn(4)]
		if op == "/" && !af && !bf {
			b, bf = "(double)("+b+")", true
		}
		if !af && !bf && op == "*" {
			op = "+" // keep integer products out (they mostly wrap)
		}
		return "(" + a + " " + op + " " + b + ")", af || bf
	case 3:
		a, af := g.expr(depth - 1)
		return "(- " + a + ")", af
	case 4:
		a, _ := g.expr(depth - 1)
		return "((" + []string{"float", "double"}[g.r.Intn(2)] + ")" + a + ")", true
	case 5:
		a, _ := g.expr(depth - 1)
		b, _ := g.expr(depth - 1)
		return "(" + a + " " + []string{"<", "<=", ">", ">=", "==", "!="}[g.r.Intn(6)] + " " + b + ")", false
	case 6:
		c, _ := g.expr(depth - 1)
		a, af := g.expr(depth - 1)
		b, bf := g.expr(depth - 1)
		return "(" + c + " ? " + a + " : " + b + ")", af || bf
	case 7:
		v := floatVars[g.r.Intn(4)]
		return "((" + []string{"int", "long long", "short"}[g.r.Intn(3)] + ")" + v.name + ")", false
	}
	a, _ := g.expr(depth - 1)
	return "(!" + a + ")", false
}
