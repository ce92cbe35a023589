package c

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ncmc/ncmc"
)

var diffN = flag.Int("diff.n", 300, "random integer expressions for TestIntegerDiff")

// TestIntegerDiff compares the C front end's integer semantics with gcc's:
// random expressions over variables of every integer type (with assignments,
// compound assignments, increments, casts and the conditional operator) are
// compiled natively by the host gcc (LP64, -fwrapv) and their values
// printed; the same program is translated with the LP64 data model and
// checked to produce the same values, and, with one value altered, a
// violation.
func TestIntegerDiff(t *testing.T) {
	gcc, seed := diffGCC(t)
	r := rand.New(rand.NewSource(seed))
	const batch = 50
	for start := 0; start < *diffN; start += batch {
		n := min(batch, *diffN-start)
		g := &exprGen{r: r}
		var decls, stmts []string
		for _, v := range diffVars {
			decls = append(decls, fmt.Sprintf("%s %s = %s;", v.t, v.name, g.literal(v.t)))
			decls = append(decls, fmt.Sprintf("%s w%s = %s;", v.t, v.name, g.literal(v.t)))
		}
		for i := 0; i < n; i++ {
			// At most one side effect per statement, on a variable the
			// statement does not otherwise read: the value is then defined
			// whatever the order of evaluation.
			g.w, g.spent = "w"+g.variable(), false
			stmts = append(stmts, fmt.Sprintf("r[%d] = (long long)(%s);", i, g.expr(3)))
		}
		body := strings.Join(decls, "\n") + "\n" + strings.Join(stmts, "\n")
		diffBatch(t, gcc, seed, r, start, "long long", "r", "%lld", body, n, func(i int, out string, altered bool) string {
			v, err := strconv.ParseInt(out, 10, 64)
			if err != nil {
				t.Fatalf("native output %q", out)
			}
			if altered {
				v++
			}
			return fmt.Sprintf("r[%d] == (long long)0x%xULL", i, uint64(v))
		})
	}
}

// diffGCC returns the host gcc and the seed of a differential test against
// it (DIFF_SEED, default 1); without gcc the test is skipped.
func diffGCC(t *testing.T) (gcc string, seed int64) {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	seed = 1
	if s := os.Getenv("DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	return gcc, seed
}

// nativeOutput compiles the C program native with gcc (gnu11, -fwrapv,
// -O0) in dir, runs it and returns the n words it prints.
func nativeOutput(t *testing.T, gcc, dir, native string, n int) []string {
	t.Helper()
	src := filepath.Join(dir, "n.c")
	if err := os.WriteFile(src, []byte(native), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "n")
	if out, err := exec.Command(gcc, "-std=gnu11", "-fwrapv", "-w", "-O0", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, out, native)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("running the native program: %v\n%s", err, native)
	}
	words := strings.Fields(string(out))
	if len(words) != n {
		t.Fatalf("native program printed %d values, want %d\n%s", len(words), n, native)
	}
	return words
}

// diffBatch checks one batch of a differential test against gcc: body
// stores n values into the global array name of element type elem; the
// native build prints each with the printf format. cond(i, out, altered)
// is the C condition that holds when name[i] is the value out that gcc's
// build printed (altered: for no value it accepts otherwise). The program
// with every condition asserted must verify under ncmc (LP64), and fail
// with the condition of one random element altered.
func diffBatch(t *testing.T, gcc string, seed int64, r *rand.Rand, start int, elem, name, format, body string, n int, cond func(i int, out string, altered bool) string) {
	t.Helper()
	native := fmt.Sprintf("#include <stdio.h>\n%s %s[%d];\nint main(void) {\n%s\nfor (int i = 0; i < %d; i++) printf(\"%s\\n\", %s[i]);\nreturn 0;\n}\n",
		elem, name, n, body, n, format, name)
	want := nativeOutput(t, gcc, t.TempDir(), native, n)
	check := func(bad int) ncmc.Verdict {
		var b strings.Builder
		fmt.Fprintf(&b, "void reach_error(void) {}\n%s %s[%d];\nint main(void) {\n%s\n", elem, name, n, body)
		for i, w := range want {
			fmt.Fprintf(&b, "if (!(%s)) reach_error();\n", cond(i, w, i == bad))
		}
		b.WriteString("return 0;\n}\n")
		p, err := Compile("d.c", []byte(b.String()), Options{DataModel: LP64})
		if err != nil {
			t.Fatalf("compile: %v\n%s", err, b.String())
		}
		res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", MaxSteps: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict == ncmc.Violation && bad < 0 {
			t.Errorf("seed %d: values differ from gcc's: %s at %v\n%s", seed, res.Reason, res.ViolationPos, b.String())
		}
		return res.Verdict
	}
	if v := check(-1); v != ncmc.Verified {
		t.Fatalf("seed %d batch %d: %s", seed, start, v)
	}
	if v := check(r.Intn(n)); v != ncmc.Violation {
		t.Fatalf("seed %d batch %d: an altered value is not detected (%s)", seed, start, v)
	}
}

type diffVar struct{ name, t string }

var diffVars = []diffVar{
	{"b", "_Bool"}, {"c", "char"}, {"sc", "signed char"}, {"uc", "unsigned char"}, {"s", "short"}, {"us", "unsigned short"},
	{"i", "int"}, {"u", "unsigned"}, {"l", "long"}, {"ul", "unsigned long"}, {"ll", "long long"}, {"ull", "unsigned long long"},
}

var diffTypes = []string{"_Bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned",
	"long", "unsigned long", "long long", "unsigned long long"}

type exprGen struct {
	r     *rand.Rand
	w     string // the variable side effects may write
	spent bool   // the statement already has its side effect
}

func (g *exprGen) literal(t string) string {
	vals := []string{"0", "1", "2", "-1", "7", "100", "127", "128", "255", "256", "-128", "32767", "65535", "-32768",
		"2147483647", "-2147483647 - 1", "4294967295u", "9223372036854775807LL", "(-9223372036854775807LL - 1)",
		"18446744073709551615ULL", "0x80000000u", "12345", "-54321"}
	return fmt.Sprintf("(%s)(%s)", t, vals[g.r.Intn(len(vals))])
}

func (g *exprGen) variable() string { return diffVars[g.r.Intn(len(diffVars))].name }

func (g *exprGen) expr(depth int) string {
	if depth == 0 || g.r.Intn(5) == 0 {
		if g.r.Intn(3) == 0 {
			return g.literal(diffTypes[g.r.Intn(len(diffTypes))])
		}
		return g.variable()
	}
	a := g.expr(depth - 1)
	k := g.r.Intn(16)
	if k >= 8 && k <= 13 && k != 12 {
		if g.spent {
			k = 0
		} else {
			g.spent = true
		}
	}
	switch k {
	case 0, 1, 2:
		ops := []string{"+", "-", "*", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"}
		return fmt.Sprintf("(%s %s %s)", a, ops[g.r.Intn(len(ops))], g.expr(depth-1))
	case 3:
		// Division and remainder by a positive divisor.
		op := []string{"/", "%"}[g.r.Intn(2)]
		return fmt.Sprintf("(%s %s (%s))", a, op, []string{"3", "7u", "(unsigned char)200", "16LL", "((i & 7) + 1)", "((ull & 5u) + 2u)"}[g.r.Intn(6)])
	case 4:
		op := []string{"<<", ">>"}[g.r.Intn(2)]
		return fmt.Sprintf("(%s %s (%s & 15))", a, op, g.expr(depth-1))
	case 5:
		return fmt.Sprintf("(%s)%s", diffTypes[g.r.Intn(len(diffTypes))], a)
	case 6:
		return fmt.Sprintf("%s(%s)", []string{"-", "~", "!", "+"}[g.r.Intn(4)], a)
	case 7:
		return fmt.Sprintf("(%s ? %s : %s)", a, g.expr(depth-1), g.expr(depth-1))
	case 8:
		return fmt.Sprintf("(%s = %s)", g.w, a)
	case 9:
		ops := []string{"+=", "-=", "*=", "&=", "|=", "^="}
		return fmt.Sprintf("(%s %s %s)", g.w, ops[g.r.Intn(len(ops))], a)
	case 10:
		return fmt.Sprintf("(%s >>= (%s & 7))", g.w, a)
	case 11:
		v := g.w
		return []string{v + "++", v + "--", "++" + v, "--" + v}[g.r.Intn(4)]
	case 12:
		return fmt.Sprintf("(%s, %s)", a, g.expr(depth-1))
	case 13:
		return fmt.Sprintf("(%s /= %s)", g.w, []string{"3", "5u", "(char)9"}[g.r.Intn(3)])
	default:
		return a
	}
}

// TestMemoryDiff compares struct, array and pointer addressing with gcc:
// random sequences of assignments through array indexing, member access,
// pointers, pointer arithmetic and struct copies, on globals and locals;
// every scalar is then compared.
func TestMemoryDiff(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	const decls = `struct in { short x; unsigned char y; };
struct S { char c; int a[3]; unsigned short us; long long ll; struct in in; struct in two[2]; };
struct S g[2] = { { 1, { 2, 3 }, 4, 5, { 6, 7 } }, { .us = 9, .c = -3 } };
int ga[4][3] = { { 1 }, 2, 3, 4, { 5, 6 } };
`
	lvals := []string{"g[0].c", "g[1].a[2]", "g[0].a[0]", "g[1].us", "g[0].ll", "g[1].in.x", "g[0].in.y", "g[1].two[1].y", "g[0].two[0].x",
		"ga[3][2]", "ga[0][1]", "ga[2][0]", "*p", "p[2]", "*(p + 4)", "ps->a[1]", "ps->in.y", "(*ps).ll", "ps[-1].us", "q->x", "q[1].y",
		"l.a[1]", "l.in.x", "la[1][2]", "*lp", "lp[-1]", "(&l)->us"}
	ptrs := []string{"p = &ga[1][0];", "p = ga[2];", "p = &ga[0][0] + 3;", "ps = &g[1];", "ps = g + 1;", "q = &g[0].two[0];", "q = g[1].two;",
		"lp = &la[1][1];", "lp = la[2] + 1;", "lp++;", "lp--;", "p += 1;", "p -= 1;"}
	r := rand.New(rand.NewSource(1))
	rounds := 10
	if testing.Short() {
		rounds = 3
	}
	for round := 0; round < rounds; round++ {
		var b strings.Builder
		b.WriteString("struct S l = { 11, { 12, 13, 14 } }; int la[3][3] = { 1, 2, 3, 4 };\n")
		b.WriteString("int *p = &ga[1][0]; struct S *ps = &g[1]; struct in *q = &g[0].two[0]; int *lp = &la[1][1];\n")
		for i := 0; i < 40; i++ {
			switch k := r.Intn(10); {
			case k < 2:
				b.WriteString(ptrs[r.Intn(len(ptrs))] + "\n")
			case k == 2:
				b.WriteString([]string{"g[0] = g[1];", "l = g[0];", "g[1] = l;", "g[0].in = g[1].two[1];"}[r.Intn(4)] + "\n")
			default:
				op := []string{"=", "+=", "-=", "^="}[r.Intn(4)]
				fmt.Fprintf(&b, "%s %s %s + %d;\n", lvals[r.Intn(len(lvals))], op, lvals[r.Intn(len(lvals))], r.Intn(200)-100)
			}
			// Keep the pointers inside their arrays.
			b.WriteString("if (p < &ga[0][0] + 1 || p > &ga[1][2]) p = &ga[1][0];\nif (lp < &la[0][1] || lp > &la[2][0]) lp = &la[1][1];\n")
		}
		var cells []string
		for gi := 0; gi < 2; gi++ {
			for _, f := range []string{"c", "a[0]", "a[1]", "a[2]", "us", "ll", "in.x", "in.y", "two[0].x", "two[0].y", "two[1].x", "two[1].y"} {
				cells = append(cells, fmt.Sprintf("g[%d].%s", gi, f))
			}
		}
		for _, f := range []string{"c", "a[0]", "a[1]", "a[2]", "us", "ll", "in.x", "in.y"} {
			cells = append(cells, "l."+f)
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 3; j++ {
				cells = append(cells, fmt.Sprintf("ga[%d][%d]", i, j))
				if i < 3 {
					cells = append(cells, fmt.Sprintf("la[%d][%d]", i, j))
				}
			}
		}
		body := b.String()
		var nat strings.Builder
		fmt.Fprintf(&nat, "#include <stdio.h>\n%sint main(void) {\n%s", decls, body)
		for _, c := range cells {
			fmt.Fprintf(&nat, "printf(\"%%lld\\n\", (long long)(%s));\n", c)
		}
		nat.WriteString("return 0;\n}\n")
		dir := t.TempDir()
		src := filepath.Join(dir, "m.c")
		os.WriteFile(src, []byte(nat.String()), 0o644)
		bin := filepath.Join(dir, "m")
		if out, err := exec.Command(gcc, "-std=gnu11", "-fwrapv", "-w", "-o", bin, src).CombinedOutput(); err != nil {
			t.Fatalf("gcc: %v\n%s", err, out)
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(string(out))
		for _, bad := range []int{-1, r.Intn(len(cells))} {
			var chk strings.Builder
			fmt.Fprintf(&chk, "void reach_error(void) {}\n%sint main(void) {\n%s", decls, body)
			for i, c := range cells {
				v, _ := strconv.ParseInt(want[i], 10, 64)
				if i == bad {
					v++
				}
				fmt.Fprintf(&chk, "if ((long long)(%s) != (long long)0x%xULL) reach_error();\n", c, uint64(v))
			}
			chk.WriteString("return 0;\n}\n")
			p, err := Compile("m.c", []byte(chk.String()), Options{DataModel: LP64})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", MaxSteps: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if (res.Verdict == ncmc.Verified) != (bad < 0) {
				t.Fatalf("round %d (altered cell %d): %s (%s) at %v\n%s", round, bad, res.Verdict, res.Reason, res.ViolationPos, chk.String())
			}
		}
	}
}
