package cir

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"ncmc/ir"
)

// chaosGen generates syntactically valid programs whose names, types,
// arities and contexts are random: most are ill-typed. The checker must
// report errors (or accept and lower the program) without panicking.
type chaosGen struct {
	r     *rand.Rand
	b     strings.Builder
	names []string
}

func (g *chaosGen) n(k int) int { return g.r.Intn(k) }

func (g *chaosGen) name() string { return g.names[g.n(len(g.names))] }

func (g *chaosGen) typ(d int) string {
	base := []string{"int", "bool", "mutex", "cond", "thread", "R", "O", "*R", "*O", "*int", g.name()}[g.n(11)]
	switch g.n(6) {
	case 0:
		return base + "[" + g.expr(d-1) + "]"
	case 1:
		return base + "[" + fmt.Sprint(g.n(4)) + "]"
	}
	return base
}

var chaosBuiltins = []string{"lock", "unlock", "trylock", "wait", "signal", "broadcast", "fence", "join", "load",
	"store", "fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor", "exchange", "cas", "nondet", "nondet_bool", "tid"}

func (g *chaosGen) args(d int) string {
	var a []string
	for i := g.n(4); i > 0; i-- {
		a = append(a, g.expr(d-1))
	}
	return strings.Join(a, ", ")
}

func (g *chaosGen) expr(d int) string {
	if d <= 0 {
		return []string{"0", "1", "-1", "true", "false", "null", "this", g.name(), g.name(), "sc", "acq", "9223372036854775807", "0xffffffffffffffff"}[g.n(13)]
	}
	switch g.n(14) {
	case 0:
		return []string{"-", "!", "~"}[g.n(3)] + g.expr(d-1)
	case 1, 2:
		ops := []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}
		return "(" + g.expr(d-1) + " " + ops[g.n(len(ops))] + " " + g.expr(d-1) + ")"
	case 3:
		return g.expr(d-1) + "[" + g.expr(d-1) + "]"
	case 4:
		return g.expr(d-1) + "." + g.name()
	case 5:
		return g.name() + "(" + g.args(d) + ")"
	case 6:
		return g.expr(d-1) + "." + g.name() + "(" + g.args(d) + ")"
	case 7, 8:
		return chaosBuiltins[g.n(len(chaosBuiltins))] + "(" + g.args(d) + ")"
	case 9:
		return "spawn " + g.name() + "(" + g.args(d) + ")"
	case 10:
		return "new " + g.name() + " { " + g.name() + ": " + g.expr(d-1) + " }"
	case 11:
		return "(" + g.expr(d-1) + ")"
	}
	return g.expr(0)
}

func (g *chaosGen) stmt(d int) string {
	if d <= 0 {
		return g.expr(1) + ";"
	}
	block := func() string {
		var s []string
		for i := g.n(3); i > 0; i-- {
			s = append(s, g.stmt(d-1))
		}
		return "{ " + strings.Join(s, " ") + " }"
	}
	unroll := func() string {
		if g.n(3) == 0 {
			return " @unroll(" + g.expr(0) + ")"
		}
		return ""
	}
	switch g.n(16) {
	case 0:
		t := ""
		if g.n(2) == 0 {
			t = ": " + g.typ(1)
		}
		init := ""
		if g.n(3) != 0 {
			init = " = " + g.expr(2)
		}
		return "let " + g.name() + t + init + ";"
	case 1, 2:
		return g.expr(2) + " = " + g.expr(2) + ";"
	case 3:
		s := "if (" + g.expr(2) + ") " + block()
		if g.n(2) == 0 {
			s += " else " + block()
		}
		return s
	case 4:
		return "while (" + g.expr(2) + ")" + unroll() + " " + block()
	case 5:
		return "for (let " + g.name() + " = " + g.expr(1) + "; " + g.expr(1) + "; " + g.name() + " = " + g.expr(1) + ")" + unroll() + " " + block()
	case 6:
		return "for " + g.name() + " in " + g.expr(1) + ".." + g.expr(1) + unroll() + " " + block()
	case 7:
		return []string{"break;", "continue;", "return;", "return " + g.expr(2) + ";"}[g.n(4)]
	case 8:
		return "await (" + g.expr(2) + ");"
	case 9:
		return "assume (" + g.expr(2) + ");"
	case 10:
		if g.n(2) == 0 {
			return "assert(" + g.expr(2) + ", \"m\");"
		}
		return "assert(" + g.expr(2) + ");"
	case 11:
		return "atomic " + block()
	case 12:
		return block()
	case 13:
		return "while (" + g.expr(2) + ") {}"
	}
	return g.expr(3) + ";"
}

func (g *chaosGen) fn(prefix string) string {
	var ps []string
	for i := g.n(3); i > 0; i-- {
		ps = append(ps, g.name()+": "+g.typ(1))
	}
	res := ""
	if g.n(2) == 0 {
		res = ": " + g.typ(1)
	}
	var body []string
	for i := g.n(6); i > 0; i-- {
		body = append(body, g.stmt(3))
	}
	name := g.name()
	if g.n(4) == 0 {
		name = "main"
	}
	return prefix + "fn " + name + "(" + strings.Join(ps, ", ") + ")" + res + " { " + strings.Join(body, " ") + " }\n"
}

func (g *chaosGen) program() string {
	g.names = []string{"x", "y", "a", "m", "cv", "c", "p", "R", "O", "f", "g", "main", "v", "w", "i", "val", "next", "inc", "get", "count", "_"}
	kinds := []string{"", "linearizable ", "abstraction "}
	for i := 2 + g.n(8); i > 0; i-- {
		switch g.n(5) {
		case 0:
			at := ""
			if g.n(4) == 0 {
				at = "atomic "
			}
			init := ""
			switch g.n(4) {
			case 0:
				init = " = " + g.expr(2)
			case 1:
				init = " = {" + g.args(2) + "}"
			}
			fmt.Fprintf(&g.b, "%sglobal %s: %s%s;\n", at, g.name(), g.typ(2), init)
		case 1:
			kw := []string{"record", "object"}[g.n(2)]
			fmt.Fprintf(&g.b, "%s %s {\n", kw, []string{"R", "O", g.name()}[g.n(3)])
			for j := g.n(4); j > 0; j-- {
				at := ""
				if g.n(5) == 0 {
					at = "atomic "
				}
				fmt.Fprintf(&g.b, "    %s%s: %s;\n", at, g.name(), g.typ(2))
			}
			if kw == "object" {
				for j := g.n(3); j > 0; j-- {
					g.b.WriteString("    " + g.fn(kinds[g.n(3)]))
				}
			}
			g.b.WriteString("}\n")
		default:
			g.b.WriteString(g.fn(kinds[g.n(6)%3*(g.n(2))]))
		}
	}
	return g.b.String()
}

func runChaos(t *testing.T, seed int64) {
	g := &chaosGen{r: rand.New(rand.NewSource(seed))}
	src := g.program()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("seed %d: panic %v on\n%s", seed, r, src)
		}
	}()
	p, l := compile("c.cir", []byte(src))
	if len(l) > 0 {
		checkErrors(t, []byte(src), l)
		return
	}
	if err := ir.Validate(p); err != nil {
		t.Fatalf("seed %d: invalid IR: %v\n%s", seed, err, src)
	}
}

// TestChaos runs the checker over many random, mostly ill-typed programs.
func TestChaos(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for seed := int64(0); seed < int64(n); seed++ {
		runChaos(t, seed)
	}
}

// FuzzChaos explores more seeds of the chaos generator.
func FuzzChaos(f *testing.F) {
	f.Add(int64(1))
	f.Fuzz(func(t *testing.T, seed int64) { runChaos(t, seed) })
}
