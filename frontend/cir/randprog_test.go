package cir

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// progGen generates random well-typed, single-threaded CIR programs: loops
// (bounded, unbounded, spin), branches, break/continue, atomic blocks,
// shadowing, calls, methods, heap records, arrays, RMWs and runtime errors.
type progGen struct {
	r        *rand.Rand
	b        strings.Builder
	ind      int
	scopes   []map[string]string // name -> int, bool, ptr, optr
	loops    []int               // atomic depth at each enclosing loop
	atomic   int
	method   bool   // inside an O method (this is available)
	result   string // result type of the current function, "" for none
	calls    []string
	nlet     int
	stmtLeft int
}

func (g *progGen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("    ", g.ind))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *progGen) n(k int) int { return g.r.Intn(k) }

func (g *progGen) vars(typ string) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(g.scopes) - 1; i >= 0; i-- {
		for name, t := range g.scopes[i] {
			if !seen[name] {
				seen[name] = true
				if t == typ {
					out = append(out, name)
				}
			}
		}
	}
	sortStrings(out)
	return out
}

func (g *progGen) declare(typ string) string {
	// Reuse a small pool of names so that shadowing happens.
	for tries := 0; tries < 5; tries++ {
		name := fmt.Sprintf("v%d", g.n(8))
		if _, dup := g.scopes[len(g.scopes)-1][name]; !dup {
			g.scopes[len(g.scopes)-1][name] = typ
			return name
		}
	}
	g.nlet++
	name := fmt.Sprintf("w%d", g.nlet)
	g.scopes[len(g.scopes)-1][name] = typ
	return name
}

func (g *progGen) index(d int) string {
	if g.n(10) == 0 {
		return "o.f + " + g.intExpr(d) // may be out of bounds (not a constant)
	}
	return "(" + g.intExpr(d) + ") & 3"
}

func (g *progGen) intExpr(d int) string {
	if d <= 0 || g.n(3) == 0 {
		leaves := []func() string{
			func() string { return fmt.Sprint(g.n(21) - 10) },
			func() string { return []string{"9223372036854775807", "(-9223372036854775808)", "0x10"}[g.n(3)] },
			func() string { return []string{"g0", "g1", "ga", "o.f", "o.h"}[g.n(5)] },
			func() string {
				if v := g.vars("int"); len(v) > 0 {
					return v[g.n(len(v))]
				}
				return "1"
			},
			func() string { return "arr[" + g.index(d-1) + "]" },
			func() string { return "o.items[" + g.index(d-1) + "]" },
			func() string {
				if v := g.vars("ptr"); len(v) > 0 && g.n(2) == 0 {
					return v[g.n(len(v))] + ".v"
				}
				if g.n(4) == 0 {
					return "gp.v"
				}
				return "arr[3]"
			},
			func() string {
				if g.method {
					return "this.f"
				}
				return "o.f"
			},
		}
		return leaves[g.n(len(leaves))]()
	}
	switch g.n(9) {
	case 0:
		return "-(" + g.intExpr(d-1) + ")"
	case 1:
		return "~(" + g.intExpr(d-1) + ")"
	case 2:
		if len(g.calls) > 0 {
			c := g.calls[g.n(len(g.calls))]
			switch c {
			case "h1":
				return fmt.Sprintf("h1(%s, %s)", g.intExpr(d-1), g.boolExpr(d-1))
			case "get":
				return fmt.Sprintf("o.get(%s)", g.intExpr(d-1))
			case "bump":
				return fmt.Sprintf("o.bump(%s)", g.intExpr(d-1))
			}
		}
		return "g0"
	case 3:
		switch g.n(4) {
		case 0:
			return fmt.Sprintf("fetch_add(g1, %s)", g.intExpr(d-1))
		case 1:
			return fmt.Sprintf("exchange(arr[%s], %s, acq_rel)", g.index(d-1), g.intExpr(d-1))
		case 2:
			return "load(ga, acq)"
		}
		return fmt.Sprintf("nondet(%d, %d)", g.n(3), 3+g.n(3))
	}
	ops := []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "+", "-"}
	op := ops[g.n(len(ops))]
	a, b := g.intExpr(d-1), g.intExpr(d-1)
	switch {
	case (op == "<<" || op == ">>") && g.n(4) != 0:
		b = "(" + b + ") & 63"
	case op == "<<" || op == ">>" || op == "/" || op == "%":
		b = "o.f + (" + b + ")" // not a constant: may fail at run time
	}
	return "(" + a + ") " + op + " (" + b + ")"
}

func (g *progGen) boolExpr(d int) string {
	if d <= 0 || g.n(3) == 0 {
		switch g.n(4) {
		case 0:
			return []string{"true", "false"}[g.n(2)]
		case 1:
			return "bg"
		case 2:
			if v := g.vars("bool"); len(v) > 0 {
				return v[g.n(len(v))]
			}
			return "true"
		}
		return fmt.Sprintf("(%s) < (%s)", g.intExpr(0), g.intExpr(0))
	}
	switch g.n(8) {
	case 0:
		return "!(" + g.boolExpr(d-1) + ")"
	case 1, 2:
		return "(" + g.boolExpr(d-1) + ") " + []string{"&&", "||"}[g.n(2)] + " (" + g.boolExpr(d-1) + ")"
	case 3:
		if g.hasCall("h2") {
			return fmt.Sprintf("h2(%s)", g.intExpr(d-1))
		}
	case 4:
		return fmt.Sprintf("cas(g0, %s, %s)", g.intExpr(d-1), g.intExpr(d-1))
	case 5:
		if v := g.vars("ptr"); len(v) > 0 {
			return v[g.n(len(v))] + " " + []string{"==", "!="}[g.n(2)] + " " + []string{"null", "gp"}[g.n(2)]
		}
	}
	ops := []string{"<", "<=", ">", ">=", "==", "!="}
	return "(" + g.intExpr(d-1) + ") " + ops[g.n(len(ops))] + " (" + g.intExpr(d-1) + ")"
}

func (g *progGen) hasCall(c string) bool {
	for _, x := range g.calls {
		if x == c {
			return true
		}
	}
	return false
}

func (g *progGen) ptrExpr(d int) string {
	switch g.n(4) {
	case 0:
		return "null"
	case 1:
		return "gp"
	case 2:
		if v := g.vars("ptr"); len(v) > 0 {
			return v[g.n(len(v))]
		}
	}
	return fmt.Sprintf("new R { v: %s, next: %s }", g.intExpr(d-1), []string{"null", "gp"}[g.n(2)])
}

func (g *progGen) push() { g.scopes = append(g.scopes, map[string]string{}) }
func (g *progGen) pop()  { g.scopes = g.scopes[:len(g.scopes)-1] }

func (g *progGen) block(depth int, body func()) {
	g.push()
	g.ind++
	body()
	g.ind--
	g.pop()
}

func (g *progGen) stmts(depth, n int) {
	for i := 0; i < n && g.stmtLeft > 0; i++ {
		g.stmt(depth)
	}
}

func (g *progGen) stmt(depth int) {
	g.stmtLeft--
	e := 2
	k := g.n(20)
	if depth <= 0 && k >= 9 {
		k = g.n(9)
	}
	switch k {
	case 0:
		typ := []string{"int", "int", "bool", "ptr"}[g.n(4)]
		var init string
		switch typ {
		case "int":
			init = g.intExpr(e)
		case "bool":
			init = g.boolExpr(e)
		default:
			init = g.ptrExpr(e)
		}
		name := g.declare(typ)
		if typ == "ptr" {
			g.line("let %s: *R = %s;", name, init)
		} else if g.n(2) == 0 {
			g.line("let %s: %s = %s;", name, typ, init)
		} else {
			g.line("let %s = %s;", name, init)
		}
	case 1:
		if v := g.vars("int"); len(v) > 0 {
			g.line("%s = %s;", v[g.n(len(v))], g.intExpr(e))
		} else {
			g.line("g0 = %s;", g.intExpr(e))
		}
	case 2:
		target := []string{"g0", "g1", "ga", "arr[" + g.index(1) + "]", "o.f", "o.h", "o.items[" + g.index(1) + "]", "gp.v"}[g.n(15)%8]
		if g.method && g.n(2) == 0 {
			target = "this.f"
		}
		g.line("%s = %s;", target, g.intExpr(e))
	case 3:
		if v := g.vars("bool"); len(v) > 0 && g.n(2) == 0 {
			g.line("%s = %s;", v[g.n(len(v))], g.boolExpr(e))
		} else {
			g.line("bg = %s;", g.boolExpr(e))
		}
	case 4:
		if v := g.vars("ptr"); len(v) > 0 {
			p := v[g.n(len(v))]
			switch g.n(3) {
			case 0:
				g.line("%s = %s;", p, g.ptrExpr(e))
			case 1:
				g.line("%s.v = %s;", p, g.intExpr(e))
			default:
				g.line("gp = %s;", p)
			}
		} else {
			g.line("gp = %s;", g.ptrExpr(e))
		}
	case 5:
		if g.n(2) == 0 {
			g.line("assert(%s);", g.boolExpr(e))
		} else {
			g.line("assert(%s, \"a%d\");", g.boolExpr(e), g.n(100))
		}
	case 6:
		switch g.n(5) {
		case 0:
			g.line("assume(%s);", g.boolExpr(1))
		case 1:
			g.line("fetch_sub(o.h, %s, rlx);", g.intExpr(1))
		case 2:
			g.line("store(g1, %s, rel);", g.intExpr(1))
		case 3:
			g.line("lock(m); g0 = g0 + 1; unlock(m);")
		default:
			if len(g.calls) > 0 {
				c := g.calls[g.n(len(g.calls))]
				switch c {
				case "h1":
					g.line("h1(%s, %s);", g.intExpr(1), g.boolExpr(1))
				case "h2":
					g.line("h2(%s);", g.intExpr(1))
				case "get":
					g.line("o.get(%s);", g.intExpr(1))
				case "bump":
					g.line("o.bump(%s);", g.intExpr(1))
				}
			}
		}
	case 7:
		if len(g.loops) > 0 && g.loops[len(g.loops)-1] == g.atomic && g.n(2) == 0 {
			g.line("if (%s) { %s; }", g.boolExpr(1), []string{"break", "continue"}[g.n(2)])
		} else if g.atomic == 0 && g.n(4) == 0 {
			switch g.result {
			case "":
				g.line("if (%s) { return; }", g.boolExpr(1))
			case "int":
				g.line("if (%s) { return %s; }", g.boolExpr(1), g.intExpr(1))
			case "bool":
				g.line("if (%s) { return %s; }", g.boolExpr(1), g.boolExpr(1))
			}
		}
	case 8:
		switch g.n(3) {
		case 0:
			g.line("while (%s) {}", g.boolExpr(1))
		case 1:
			g.line("await (%s);", []string{"bg", "!bg", "g0 == g1", "arr[1] >= 0 || o.f < 0"}[g.n(4)])
		default:
			g.line("fence(%s);", []string{"acq", "rel", "acq_rel", "sc"}[g.n(4)])
		}
	case 9, 10:
		g.line("if (%s) {", g.boolExpr(e))
		g.block(depth, func() { g.stmts(depth-1, 1+g.n(3)) })
		if g.n(2) == 0 {
			g.line("} else {")
			g.block(depth, func() { g.stmts(depth-1, 1+g.n(3)) })
		}
		g.line("}")
	case 11, 12:
		ann := ""
		if g.n(3) != 0 {
			ann = fmt.Sprintf(" @unroll(%d)", 1+g.n(4))
		}
		if g.n(2) == 0 {
			c := g.declare("int")
			g.line("let %s = 0;", c)
			g.line("while (%s < %d && %s)%s {", c, g.n(5), g.boolExpr(1), ann)
			g.block(depth, func() {
				g.line("%s = %s + 1;", c, c)
				g.loop(func() { g.stmts(depth-1, 1+g.n(3)) })
			})
		} else {
			g.line("while (%s)%s {", g.boolExpr(1), ann)
			g.block(depth, func() { g.loop(func() { g.stmts(depth-1, 1+g.n(3)) }) })
		}
		g.line("}")
	case 13:
		hi := fmt.Sprint(g.n(4))
		if g.n(2) == 0 {
			hi = g.intExpr(1)
		}
		g.push()
		i := g.declare("int")
		g.scopes[len(g.scopes)-1][i] = "ro"
		g.line("for %s in %d..%s {", i, g.n(2), hi)
		g.block(depth, func() { g.loop(func() { g.stmts(depth-1, 1+g.n(3)) }) })
		g.pop()
		g.line("}")
	case 14:
		g.push()
		i := g.declare("int")
		g.line("for (let %s = 0; %s < %d; %s = %s + 1) {", i, i, g.n(5), i, i)
		g.block(depth, func() { g.loop(func() { g.stmts(depth-1, 1+g.n(3)) }) })
		g.pop()
		g.line("}")
	case 15:
		g.line("atomic {")
		g.atomic++
		g.block(depth, func() { g.stmts(depth-1, 1+g.n(3)) })
		g.atomic--
		g.line("}")
	case 16:
		g.line("{")
		g.block(depth, func() { g.stmts(depth-1, 1+g.n(3)) })
		g.line("}")
	default:
		g.stmt(depth - 1)
		g.stmtLeft++
	}
}

func (g *progGen) loop(body func()) {
	g.loops = append(g.loops, g.atomic)
	body()
	g.loops = g.loops[:len(g.loops)-1]
}

func (g *progGen) function(header, result string, method bool, calls []string, params map[string]string) {
	g.line("%s {", header)
	g.scopes = []map[string]string{params}
	g.method, g.result, g.calls = method, result, calls
	g.stmtLeft = 4 + g.n(8)
	g.ind++
	g.stmts(2, 3+g.n(4))
	switch result {
	case "int":
		g.line("return %s;", g.intExpr(2))
	case "bool":
		g.line("return %s;", g.boolExpr(2))
	}
	g.ind--
	g.line("}")
}

func (g *progGen) program() string {
	g.line("record R { v: int; next: *R; }")
	g.line("global g0: int = %d;", g.n(5))
	g.line("global g1: int;")
	g.line("atomic global ga: int = -3;")
	g.line("global arr: int[4] = {1, 2, 3};")
	g.line("global bg: bool = %v;", g.n(3) != 0)
	g.line("global gp: *R;")
	g.line("global m: mutex;")
	g.line("object O {")
	g.ind++
	g.line("f: int;")
	g.line("atomic h: int;")
	g.line("items: int[4];")
	g.function("fn get(k: int): int", "int", true, nil, map[string]string{"k": "int"})
	g.function("linearizable fn bump(d: int): int", "int", true, []string{"get"}, map[string]string{"d": "int"})
	g.ind--
	g.line("}")
	g.line("global o: O;")
	g.function("fn h2(a: int): bool", "bool", false, []string{"get"}, map[string]string{"a": "int"})
	g.function("fn h1(a: int, b: bool): int", "int", false, []string{"h2", "bump"}, map[string]string{"a": "int", "b": "bool"})
	g.function("fn main()", "", false, []string{"h1", "h2", "get", "bump"}, map[string]string{})
	return g.b.String()
}

// TestRandomPrograms compiles random programs and runs each both on the
// AST (astEval) and, lowered, on the IR (seqExec): they must stop for the
// same reason and leave the same memory behind.
func TestRandomPrograms(t *testing.T) {
	programs := 1500
	if testing.Short() {
		programs = 200
	}
	outcomes := map[string]int{}
	for n := 0; n < programs; n++ {
		g := &progGen{r: rand.New(rand.NewSource(int64(n)))}
		src := g.program()
		errs := diag.NewCollector("r.cir", []byte(src))
		f := parse("r.cir", []byte(src), errs)
		if errs.Len() > 0 {
			t.Fatalf("program %d does not parse:\n%v\n%s", n, errs.Errors(), src)
		}
		c, prog := checkFile(f, []byte(src), errs)
		if prog == nil {
			t.Fatalf("program %d does not check:\n%v\n%s", n, errs.Errors(), src)
		}
		lower(f, prog, c, false)
		if err := ir.Validate(prog); err != nil {
			t.Fatalf("program %d: invalid IR: %v\n%s", n, err, src)
		}
		ae := newAstEval(c, prog, 3)
		want := ae.run()
		se := newSeqExec(prog, 3)
		got := se.run()
		key := want
		if i := strings.Index(key, ":"); i > 0 {
			key = key[:i]
		}
		outcomes[key]++
		if strings.HasSuffix(got, "limit") || strings.HasSuffix(want, "limit") {
			continue // the two interpreters count steps differently
		}
		if got != want {
			t.Fatalf("program %d: IR run %q, AST run %q\n%s\n%s", n, got, want, src, prog)
		}
		if fmt.Sprint(se.mem) != fmt.Sprint(ae.mem) {
			t.Fatalf("program %d: memory differs:\nIR  %v\nAST %v\n%s\n%s", n, se.mem, ae.mem, src, prog)
		}
	}
	t.Logf("%d programs, outcomes %v", programs, outcomes)
}
