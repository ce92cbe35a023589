package c

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	"ncmc/ncmc"
)

var progDiffN = flag.Int("progdiff.n", 100, "generated whole programs for TestProgramDiff (20 with -short unless given; make test runs 500, make test-long 5000)")

// TestProgramDiff compares the C front end with gcc on generated whole
// sequential programs: several functions with parameters and return
// values, some defined after main and called through a prototype (also
// from functions defined before main), bounded recursion on a depth
// parameter, counted loops over local arrays and a global array, while
// with break and continue, do-while, switch with fall-through, a struct
// updated through a pointer, main's array updated through a pointer
// parameter, out-parameters (into locals, struct fields and array cells),
// every integer width and signedness with wrap-around (-fwrapv), shifts
// in range, division by constants and casts. Structs are not passed by
// value: the front end rejects that (doc.go). Each program stores its
// results in a global long long r[K]; the native build prints them, and
// the same program with assert(r[i] == value) appended to main must
// verify under ncmc, and fail with one value off by one. On a difference
// the program, gcc's values and ncmc's final globals are printed.
func TestProgramDiff(t *testing.T) {
	gcc, seed := diffGCC(t)
	n := *progDiffN
	if testing.Short() && !flagSet("progdiff.n") {
		n = 20
	}
	dir := t.TempDir()
	start := time.Now()
	for i := 0; i < n; i++ {
		// One generator per program, seeded from the run's seed and the
		// program's index: program i is the same whatever -progdiff.n.
		r := rand.New(rand.NewSource(seed*1_000_003 + int64(i)))
		g := &progGen{r: r}
		prog, k := g.program()
		want := runNative(t, gcc, dir, prog, k)
		if t.Failed() {
			return
		}
		bad := r.Intn(k)
		for _, b := range []int{-1, bad} {
			src := progWithAsserts(prog, want, b)
			p, err := Compile("p.c", []byte(src), Options{DataModel: LP64})
			if err != nil {
				t.Fatalf("seed %d program %d: compile: %v\n%s", seed, i, err, src)
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", Unroll: 64, MaxSteps: 1 << 22})
			if err != nil {
				t.Fatalf("seed %d program %d: %v", seed, i, err)
			}
			if b < 0 && res.Verdict != ncmc.Verified {
				var final []string
				for _, o := range res.Outcomes {
					final = append(final, o.State)
				}
				t.Fatalf("seed %d program %d: gcc printed r=%v, ncmc says %s (%s); ncmc's final globals: %s\n%s",
					seed, i, want, res.Verdict, res.Reason, strings.Join(final, " | "), src)
			}
			if b >= 0 && res.Verdict != ncmc.Violation {
				t.Fatalf("seed %d program %d: r[%d] off by one is not detected (%s: %s)\n%s", seed, i, b, res.Verdict, res.Reason, src)
			}
		}
	}
	t.Logf("%d programs (seed %d) in %v", n, seed, time.Since(start).Round(time.Millisecond))
}

// flagSet reports whether the named flag was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// runNative compiles prog (which defines r[k] and a main ending in
// "//END") with gcc, runs it with a printing loop at the end of main, and
// returns the k printed values.
func runNative(t *testing.T, gcc, dir, prog string, k int) []int64 {
	t.Helper()
	native := "#include <stdio.h>\n" + strings.Replace(prog, "//END\n",
		fmt.Sprintf("for (int i = 0; i < %d; i++) printf(\"%%lld\\n\", r[i]);\n", k), 1)
	fs := nativeOutput(t, gcc, dir, native, k)
	vals := make([]int64, k)
	for i, f := range fs {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatalf("native output %q", f)
		}
		vals[i] = v
	}
	return vals
}

// progWithAsserts appends assert(r[i] == want[i]) to main; the value of
// r[bad] is off by one (bad < 0: none).
func progWithAsserts(prog string, want []int64, bad int) string {
	var b strings.Builder
	for i, v := range want {
		if i == bad {
			v++
		}
		fmt.Fprintf(&b, "assert(r[%d] == (long long)0x%xULL);\n", i, uint64(v))
	}
	return "#include <assert.h>\n" + strings.Replace(prog, "//END\n", b.String(), 1)
}

// progGen generates one program.
type progGen struct {
	r     *rand.Rand
	funcs []progFunc
	pf    [3]string // the struct's field types
	gt    string    // the global array's element type
	lt    string    // the element type of main's local array la[4]
}

// progFunc is a generated function.
type progFunc struct {
	name   string
	ret    string   // "void" for the ones with effects
	params []string // parameter types (pointers included)
	kind   int      // fnPure, fnRec, ...
	proto  string
	def    string
}

const (
	fnPure   = iota // arithmetic on its parameters, may call earlier pure ones
	fnLoop          // a local array filled and folded by counted loops
	fnRec           // bounded recursion on a depth parameter
	fnStruct        // updates a struct through a pointer
	fnOut           // writes two out-parameters
	fnGlobal        // updates the global array
	fnArray         // updates main's local array through a pointer parameter
	fnCtrl          // while with break and continue, do-while, switch, ++ and --
	fnKinds
)

// progTypes are the integer types of the generated programs.
var progTypes = diffTypes

type progVar struct{ name, t string }

func (g *progGen) typ() string { return progTypes[g.r.Intn(len(progTypes))] }

func (g *progGen) lit(t string) string {
	vals := []string{"0", "1", "3", "-1", "7", "100", "127", "128", "255", "-128", "32767", "65535", "-32768",
		"2147483647", "(-2147483647 - 1)", "4294967295u", "9223372036854775807LL", "(-9223372036854775807LL - 1)",
		"18446744073709551615ULL", "0x80000000u", "12345", "-54321", "0x7fff0001"}
	return fmt.Sprintf("(%s)(%s)", t, vals[g.r.Intn(len(vals))])
}

// expr is a side-effect-free expression over vars; it may call the pure
// functions in callable (at most *calls of them).
func (g *progGen) expr(depth int, vars []progVar, callable []progFunc, calls *int) string {
	if depth == 0 || g.r.Intn(5) == 0 {
		if len(vars) == 0 || g.r.Intn(4) == 0 {
			return g.lit(g.typ())
		}
		return vars[g.r.Intn(len(vars))].name
	}
	sub := func() string { return g.expr(depth-1, vars, callable, calls) }
	switch k := g.r.Intn(12); k {
	case 0, 1, 2:
		ops := []string{"+", "-", "*", "&", "|", "^", "+", "-", "*", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"}
		return fmt.Sprintf("(%s %s %s)", sub(), ops[g.r.Intn(len(ops))], sub())
	case 3:
		return fmt.Sprintf("(%s %s (%s & 15))", sub(), []string{"<<", ">>"}[g.r.Intn(2)], sub())
	case 4, 5:
		return fmt.Sprintf("((%s)%s)", g.typ(), sub())
	case 6:
		return fmt.Sprintf("%s(%s)", []string{"-", "~", "!"}[g.r.Intn(3)], sub())
	case 7:
		return fmt.Sprintf("(%s ? %s : %s)", sub(), sub(), sub())
	case 8:
		return fmt.Sprintf("(%s %s %s)", sub(), []string{"/", "%"}[g.r.Intn(2)], []string{"3", "7u", "16LL", "(unsigned char)200"}[g.r.Intn(4)])
	default:
		if *calls > 0 && len(callable) > 0 {
			*calls--
			f := callable[g.r.Intn(len(callable))]
			var args []string
			for j, pt := range f.params {
				if f.kind == fnRec && j == 0 {
					args = append(args, strconv.Itoa(g.r.Intn(6)))
					continue
				}
				args = append(args, fmt.Sprintf("(%s)%s", pt, sub()))
			}
			return fmt.Sprintf("%s(%s)", f.name, strings.Join(args, ", "))
		}
		return sub()
	}
}

// pure returns the functions callable inside expressions (no effects).
func pure(fs []progFunc) []progFunc {
	var out []progFunc
	for _, f := range fs {
		if f.kind == fnPure || f.kind == fnLoop || f.kind == fnRec || f.kind == fnCtrl {
			out = append(out, f)
		}
	}
	return out
}

func (g *progGen) function(i int) progFunc {
	f := progFunc{name: fmt.Sprintf("f%d", i), kind: g.r.Intn(fnKinds)}
	earlier := pure(g.funcs)
	calls := 2
	var b strings.Builder
	params := func(n int) []progVar {
		var vs []progVar
		for j := 0; j < n; j++ {
			v := progVar{fmt.Sprintf("p%d", j), g.typ()}
			vs = append(vs, v)
			f.params = append(f.params, v.t)
		}
		return vs
	}
	switch f.kind {
	case fnPure:
		f.ret = g.typ()
		vs := params(1 + g.r.Intn(3))
		lt := g.typ()
		fmt.Fprintf(&b, "  %s x = (%s)%s;\n", lt, lt, g.expr(3, vs, earlier, &calls))
		vs = append(vs, progVar{"x", lt})
		fmt.Fprintf(&b, "  x %s (%s)%s;\n", []string{"+=", "-=", "*=", "^=", "|=", "&=", "="}[g.r.Intn(7)], lt, g.expr(3, vs, earlier, &calls))
		fmt.Fprintf(&b, "  return (%s)%s;\n", f.ret, g.expr(3, vs, earlier, &calls))
	case fnLoop:
		f.ret = g.typ()
		vs := params(1 + g.r.Intn(2))
		et := g.typ()
		n := 2 + g.r.Intn(7)
		fmt.Fprintf(&b, "  %s a[%d];\n  for (int i = 0; i < %d; i++)\n    a[i] = (%s)%s;\n", et, n, n, et,
			g.expr(2, append(vs, progVar{"i", "int"}), nil, &calls))
		fmt.Fprintf(&b, "  %s acc = (%s)%s;\n", f.ret, f.ret, g.expr(2, vs, earlier, &calls))
		fmt.Fprintf(&b, "  for (int i = 0; i < %d; i++)\n    acc = (%s)((acc * %d) %s %s);\n", n, f.ret, g.r.Intn(40)-20, []string{"+", "^", "-"}[g.r.Intn(3)],
			g.expr(3, append(vs, progVar{"acc", f.ret}, progVar{fmt.Sprintf("a[(i * %d) %% %d]", 1+g.r.Intn(5), n), et}, progVar{"a[i]", et}, progVar{"i", "int"}), nil, &calls))
		b.WriteString("  return acc;\n")
	case fnRec:
		f.ret = g.typ()
		f.params = append(f.params, "int")
		vs := append([]progVar{{"d", "int"}}, params(1+g.r.Intn(2))...)
		var args []string
		for j := range vs[1:] {
			args = append(args, fmt.Sprintf("(%s)%s", f.params[j+1], g.expr(2, vs, nil, &calls)))
		}
		fmt.Fprintf(&b, "  if (d <= 0)\n    return (%s)%s;\n", f.ret, g.expr(2, vs, earlier, &calls))
		fmt.Fprintf(&b, "  %s rest = %s(d - 1, %s);\n", f.ret, f.name, strings.Join(args, ", "))
		fmt.Fprintf(&b, "  return (%s)(rest %s %s);\n", f.ret, []string{"+", "-", "^", "*"}[g.r.Intn(4)],
			g.expr(2, append(vs, progVar{"rest", f.ret}), nil, &calls))
	case fnStruct:
		f.ret = "void"
		vs := append([]progVar{{"q->a", g.pf[0]}, {"q->b", g.pf[1]}, {"q->c", g.pf[2]}}, params(1+g.r.Intn(2))...)
		f.params = append(f.params, "struct P *")
		for _, fld := range []string{"a", "b", "c"} {
			if g.r.Intn(3) > 0 {
				fmt.Fprintf(&b, "  q->%s %s %s;\n", fld, []string{"=", "+=", "^=", "-="}[g.r.Intn(4)], g.expr(3, vs, earlier, &calls))
			}
		}
		fmt.Fprintf(&b, "  (*q).c = %s;\n", g.expr(2, vs, nil, &calls))
	case fnOut:
		f.ret = "void"
		vs := params(1 + g.r.Intn(2))
		t1, t2 := g.typ(), g.typ()
		f.params = append(f.params, t1+" *", t2+" *")
		fmt.Fprintf(&b, "  *o1 = (%s)%s;\n", t1, g.expr(3, vs, earlier, &calls))
		vs = append(vs, progVar{"*o1", t1})
		fmt.Fprintf(&b, "  *o2 = (%s)%s;\n", t2, g.expr(3, vs, earlier, &calls))
		fmt.Fprintf(&b, "  *o1 %s %s;\n", []string{"+=", "^=", "*="}[g.r.Intn(3)], g.expr(2, vs, nil, &calls))
	case fnGlobal:
		f.ret = "void"
		vs := params(1 + g.r.Intn(2))
		fmt.Fprintf(&b, "  for (int i = 0; i < 8; i++)\n    ga[i] = (%s)%s;\n", g.gt,
			g.expr(3, append(vs, progVar{"ga[i]", g.gt}, progVar{"ga[(i + 3) & 7]", g.gt}, progVar{"i", "int"}), nil, &calls))
	case fnArray:
		f.ret = "void"
		vs := params(1 + g.r.Intn(2))
		f.params = append(f.params, g.lt+" *")
		vs = append(vs, progVar{"a[i]", g.lt}, progVar{"a[3 - i]", g.lt}, progVar{"i", "int"})
		fmt.Fprintf(&b, "  for (int i = 0; i < 4; i++)\n    a[i] = (%s)((a[i] * %d) + %s);\n", g.lt, g.r.Intn(40)-20, g.expr(3, vs, earlier, &calls))
	case fnCtrl:
		f.ret = g.typ()
		vs := params(1 + g.r.Intn(2))
		vs = append(vs, progVar{"acc", f.ret}, progVar{"i", "int"})
		n := 2 + g.r.Intn(6)
		fmt.Fprintf(&b, "  %s acc = (%s)%s;\n  int i = 0;\n", f.ret, f.ret, g.expr(2, vs[:len(vs)-2], earlier, &calls))
		fmt.Fprintf(&b, "  while (i < %d) {\n    i++;\n    if (((%s) & 3) == 1)\n      continue;\n    acc = (%s)((acc * %d) + %s);\n    if (((%s) & 7) == 5)\n      break;\n  }\n",
			n, g.expr(2, vs, nil, &calls), f.ret, g.r.Intn(40)-20, g.expr(2, vs, nil, &calls), g.expr(2, vs, nil, &calls))
		fmt.Fprintf(&b, "  do {\n    acc %s (%s)%s;\n    i--;\n  } while (i > 0);\n", []string{"+=", "^=", "-=", "*="}[g.r.Intn(4)], f.ret, g.expr(2, vs, nil, &calls))
		fmt.Fprintf(&b, "  switch ((int)(%s) & 3) {\n  case 0:\n    acc += %d;\n    break;\n  case 1:\n    acc = -acc;\n  case 2:\n    acc ^= %s;\n    break;\n  default:\n    acc--;\n  }\n",
			g.expr(2, vs, nil, &calls), g.r.Intn(1000), g.expr(2, vs, nil, &calls))
		b.WriteString("  return acc;\n")
	}
	// Parameter lists.
	var decl []string
	switch f.kind {
	case fnRec:
		decl = append(decl, "int d")
		for j, pt := range f.params[1:] {
			decl = append(decl, fmt.Sprintf("%s p%d", pt, j))
		}
	case fnStruct, fnArray:
		for j, pt := range f.params[:len(f.params)-1] {
			decl = append(decl, fmt.Sprintf("%s p%d", pt, j))
		}
		decl = append(decl, map[bool]string{true: "struct P *q", false: g.lt + " *a"}[f.kind == fnStruct])
	case fnOut:
		n := len(f.params) - 2
		for j, pt := range f.params[:n] {
			decl = append(decl, fmt.Sprintf("%s p%d", pt, j))
		}
		decl = append(decl, f.params[n]+"o1", f.params[n+1]+"o2")
	default:
		for j, pt := range f.params {
			decl = append(decl, fmt.Sprintf("%s p%d", pt, j))
		}
	}
	head := fmt.Sprintf("%s %s(%s)", f.ret, f.name, strings.Join(decl, ", "))
	f.proto = head + ";\n"
	f.def = head + " {\n" + b.String() + "}\n"
	return f
}

// target returns, half of the time, one of lvals of type t, else local.
func (g *progGen) target(t, local string, lvals []progVar) string {
	var cands []string
	for _, v := range lvals {
		if v.t == t {
			cands = append(cands, v.name)
		}
	}
	if len(cands) == 0 || g.r.Intn(2) == 0 {
		return local
	}
	return cands[g.r.Intn(len(cands))]
}

// program returns a program whose main ends with the line "//END" and
// the number K of results it stores in r.
func (g *progGen) program() (string, int) {
	for i := range g.pf {
		g.pf[i] = g.typ()
	}
	g.gt, g.lt = g.typ(), g.typ()
	nf := 3 + g.r.Intn(5)
	for i := 0; i < nf; i++ {
		g.funcs = append(g.funcs, g.function(i))
	}
	// Main's locals.
	var vars []progVar
	var body strings.Builder
	for i := 0; i < 4; i++ {
		v := progVar{fmt.Sprintf("v%d", i), g.typ()}
		fmt.Fprintf(&body, "  %s %s = %s;\n", v.t, v.name, g.lit(v.t))
		vars = append(vars, v)
	}
	fmt.Fprintf(&body, "  struct P s = { %s, %s, %s };\n", g.lit(g.pf[0]), g.lit(g.pf[1]), g.lit(g.pf[2]))
	lt := g.lt
	fmt.Fprintf(&body, "  %s la[4] = { %s, %s };\n", lt, g.lit(lt), g.lit(lt))
	readable := append(append([]progVar{}, vars...), progVar{"s.a", g.pf[0]}, progVar{"s.b", g.pf[1]}, progVar{"s.c", g.pf[2]},
		progVar{"la[1]", lt}, progVar{"la[3]", lt}, progVar{"ga[2]", g.gt}, progVar{"ga[7]", g.gt})
	lvals := append(append([]progVar{}, vars...), progVar{"s.a", g.pf[0]}, progVar{"s.b", g.pf[1]}, progVar{"s.c", g.pf[2]})
	for i := 0; i < 4; i++ {
		lvals = append(lvals, progVar{fmt.Sprintf("la[%d]", i), lt})
	}
	for i := 0; i < 8; i++ {
		lvals = append(lvals, progVar{fmt.Sprintf("ga[%d]", i), g.gt})
	}
	callable := pure(g.funcs)
	k := 0
	record := func(e string) {
		fmt.Fprintf(&body, "  r[%d] = (long long)(%s);\n", k, e)
		k++
	}
	arg := func(pt string) string {
		calls := 1
		return fmt.Sprintf("(%s)%s", pt, g.expr(3, readable, callable, &calls))
	}
	// Every function is called at least once, then a few more at random.
	order := g.r.Perm(nf)
	for n := 0; n < 3; n++ {
		order = append(order, g.r.Intn(nf))
	}
	for _, fi := range order {
		f := g.funcs[fi]
		var args []string
		switch f.kind {
		case fnRec:
			args = append(args, strconv.Itoa(g.r.Intn(7)))
			for _, pt := range f.params[1:] {
				args = append(args, arg(pt))
			}
		case fnStruct, fnArray:
			for _, pt := range f.params[:len(f.params)-1] {
				args = append(args, arg(pt))
			}
			args = append(args, map[bool]string{true: "&s", false: "la"}[f.kind == fnStruct])
		case fnOut:
			n := len(f.params) - 2
			for _, pt := range f.params[:n] {
				args = append(args, arg(pt))
			}
			t1, t2 := strings.TrimSuffix(f.params[n], " *"), strings.TrimSuffix(f.params[n+1], " *")
			fmt.Fprintf(&body, "  {\n    %s o1 = %s; %s o2 = %s;\n", t1, g.lit(t1), t2, g.lit(t2))
			// An out-parameter may also point into main's variables, the
			// struct or the arrays (the same object twice is allowed: the
			// writes are sequenced).
			d1, d2 := g.target(t1, "o1", lvals), g.target(t2, "o2", lvals)
			fmt.Fprintf(&body, "    %s(%s, &%s, &%s);\n", f.name, strings.Join(args, ", "), d1, d2)
			record(d1)
			record(d2)
			record("o1")
			record("o2")
			w := vars[g.r.Intn(len(vars))]
			fmt.Fprintf(&body, "    %s = (%s)(o1 ^ o2);\n  }\n", w.name, w.t)
			continue
		default:
			for _, pt := range f.params {
				args = append(args, arg(pt))
			}
		}
		call := fmt.Sprintf("%s(%s)", f.name, strings.Join(args, ", "))
		switch f.kind {
		case fnStruct, fnGlobal, fnArray:
			fmt.Fprintf(&body, "  %s;\n", call)
		default:
			w := vars[g.r.Intn(len(vars))]
			fmt.Fprintf(&body, "  %s = (%s)%s;\n", w.name, w.t, call)
			record(w.name)
		}
		if g.r.Intn(2) == 0 {
			fmt.Fprintf(&body, "  la[%d] = (%s)%s;\n", g.r.Intn(4), lt, g.expr(2, readable, nil, new(int)))
		}
		if g.r.Intn(2) == 0 {
			calls := 1
			record(g.expr(3, readable, callable, &calls))
		}
	}
	for _, e := range []string{"s.a", "s.b", "s.c", "la[0]", "la[1]", "la[2]", "la[3]"} {
		record(e)
	}
	for _, v := range vars {
		record(v.name)
	}
	for i := 0; i < 8; i++ {
		record(fmt.Sprintf("ga[%d]", i))
	}
	// Functions defined before main are all those of even index; the
	// others are defined after it, called through their prototypes.
	var p strings.Builder
	fmt.Fprintf(&p, "struct P { %s a; %s b; %s c; };\n%s ga[8] = { %s, %s, %s };\nlong long r[%d];\n",
		g.pf[0], g.pf[1], g.pf[2], g.gt, g.lit(g.gt), g.lit(g.gt), g.lit(g.gt), k)
	for _, f := range g.funcs {
		p.WriteString(f.proto)
	}
	var after strings.Builder
	for i, f := range g.funcs {
		if i%2 == 0 {
			p.WriteString(f.def)
		} else {
			after.WriteString(f.def)
		}
	}
	fmt.Fprintf(&p, "int main(void) {\n%s//END\n  return 0;\n}\n%s", body.String(), after.String())
	return p.String(), k
}
