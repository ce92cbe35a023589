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
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	seed := int64(1)
	if s := os.Getenv("DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
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
		native := fmt.Sprintf("#include <stdio.h>\nlong long r[%d];\nint main(void) {\n%s\nfor (int i = 0; i < %d; i++) printf(\"%%lld\\n\", r[i]);\nreturn 0;\n}\n", n, body, n)
		dir := t.TempDir()
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
		want := strings.Fields(string(out))
		if len(want) != n {
			t.Fatalf("native program printed %d values, want %d", len(want), n)
		}
		check := func(bad int) ncmc.Verdict {
			var b strings.Builder
			fmt.Fprintf(&b, "void reach_error(void) {}\nlong long r[%d];\nint main(void) {\n%s\n", n, body)
			for i, w := range want {
				v, err := strconv.ParseInt(w, 10, 64)
				if err != nil {
					t.Fatalf("native output %q", w)
				}
				if i == bad {
					v++
				}
				fmt.Fprintf(&b, "if (r[%d] != (long long)0x%xULL) reach_error();\n", i, uint64(v))
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
