package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBadInputCLI checks the exit codes and messages of the commands on
// inputs a new user might give: each gives its code with one clear,
// positioned message, in bounded time and output.
func TestBadInputCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	n := 100000
	empty := write("empty.c", "")
	deepC := write("deep.c", "int main(void) { int x = "+strings.Repeat("(", n)+"1"+strings.Repeat(")", n)+"; return x; }\n")
	flatC := write("flat.c", "#include <assert.h>\nint main(void) { int x = 0;\n"+strings.Repeat("x = x + 1;\n", 10000)+"assert(x == 10000); return 0; }\n")
	fwd := write("fwd.c", "#include <assert.h>\nint f(int);\nint main(void) { assert(f(3) == 4); return 0; }\nint f(int k) { return k + 1; }\n")
	fwdBug := write("fwdbug.c", "#include <assert.h>\nint f(int);\nint main(void) { assert(f(3) == 0); return 0; }\nint f(int k) { return k + 1; }\n")
	huge := write("huge.c", "int main(void) { int x = 999999999999999999999999999; return x; }\n")
	deepLitmus := write("deep.litmus", "C deep\n\n{ [x] = 0; }\n\nP0 (atomic_int* x) {\n  int r0 = "+strings.Repeat("(", n)+"1"+strings.Repeat(")", n)+";\n  atomic_store_explicit(x, r0, memory_order_relaxed);\n}\n\nexists ([x]=1)\n")
	incDir := filepath.Join(dir, "inc")
	if err := os.MkdirAll(incDir, 0o755); err != nil {
		t.Fatal(err)
	}
	write("inc/lim.h", "#define LIMIT 3\n")
	dflag := write("dflag.c", "#include <assert.h>\n#include <lim.h>\nint main(void) { int s = 0; for (int i = 0; i < N; i++) s++; assert(s == N && N < LIMIT * 10); return 0; }\n")
	// Four threads storing to one location five times each: millions of
	// coherence orders, far more than a second's worth. (One thread of
	// 2,000 stores was slow once, but is one execution, explored at once
	// since Enumerate uses the trust explorer under sc and tso.)
	var movs strings.Builder
	movs.WriteString("X86 movs\n{ x=0; }\n P0 | P1 | P2 | P3 ;\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&movs, " MOV [x],$%d | MOV [x],$%d | MOV [x],$%d | MOV [x],$%d ;\n", i, i, i, i)
	}
	movs.WriteString(" MOV EAX,[x] | MOV EAX,[x] | MOV EAX,[x] | MOV EAX,[x] ;\nexists (0:EAX=1)\n")
	slowLitmus := write("movs.litmus", movs.String())
	var chain strings.Builder
	chain.WriteString("int main(void) { int x = 0;\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&chain, "  if (x == %d) x = %d; else\n", i, i+1)
	}
	chain.WriteString("  x = 0;\n  return 0; }\n")
	slowC := write("chain.c", chain.String()) // about 6 s in the C parser
	spawner := write("spawner.cir", "global x: int;\nfn t() { x = x + 1; let h = spawn t(); }\nfn main() { let h = spawn t(); }\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // substring ("" : stdout must be empty)
		stderr string // substring ("" : stderr must be empty)
		within time.Duration
	}{
		{"empty-c", []string{"verify", empty}, 2, "", "empty.c:1:1: the program has no main function", 0},
		{"deep-c", []string{"verify", deepC}, 2, "", "deep.c:1:1025: brackets nested more than 1000 deep", 0},
		{"flat-c", []string{"verify", "-q", flatC}, 0, "VERIFIED", "", 0},
		{"forward-call", []string{"verify", "-q", fwd}, 0, "VERIFIED", "", 0},
		{"forward-call-buggy", []string{"verify", "-q", fwdBug}, 1, "VIOLATION", "", 0},
		{"huge-literal", []string{"verify", huge}, 2, "", "huge.c:1:26: integer constant 999999999999999999999999999 is too large", 0},
		{"deep-litmus", []string{"litmus", deepLitmus}, 2, "", "deep.litmus:6:511: nested more than 500 deep", 0},
		{"litmus-timeout", []string{"litmus", "--timeout", "1s", slowLitmus}, 3, "incomplete", "", 10 * time.Second},
		{"unroll-negative", []string{"verify", "--unroll", "-1", "../../examples/sb.cir"}, 2, "", "ncmc: --unroll must be positive (got -1)", 0},
		{"unroll-negative-joined", []string{"verify", "--unroll=-1", "../../examples/sb.cir"}, 2, "", "ncmc: --unroll must be positive (got -1)", 0},
		{"max-memory-negative", []string{"verify", "--max-memory=-1", "../../examples/sb.cir"}, 2, "", "ncmc: --max-memory must not be negative (got -1)", 0},
		{"timeout-negative", []string{"verify", "--timeout", "-5s", "../../examples/sb.cir"}, 2, "", "ncmc: --timeout must not be negative (got -5s)", 0},
		{"front-end-timeout", []string{"verify", "--timeout", "500ms", slowC}, 3, "time bound 500ms hit in the front end", "", 4 * time.Second},
		{"front-end-timeout-test", []string{"test", "--timeout", "500ms", slowC}, 3, "time bound 500ms hit in the front end", "", 4 * time.Second},
		{"max-threads-zero", []string{"verify", "--max-threads", "0", "../../examples/sb.cir"}, 2, "", "ncmc: --max-threads must be positive (got 0)", 0},
		{"thread-bound", []string{"verify", "--max-threads", "30", spawner}, 3, "thread bound 30 hit", "", 10 * time.Second},
		{"thread-bound-test", []string{"test", "--max-threads", "30", "--runs", "3", spawner}, 3, "thread bound 30 hit", "", 10 * time.Second},
		{"test-depth-zero", []string{"test", "--depth", "0", "../../examples/sb.cir"}, 2, "", "ncmc: --depth must be positive (got 0)", 0},
		{"define-include", []string{"verify", "-q", dflag, "-DN=10", "-I", incDir}, 0, "VERIFIED", "", 0},
		{"define-include-long", []string{"verify", "-q", "--define", "N=12", "--include-dir=" + incDir, dflag}, 0, "VERIFIED", "", 0},
		{"define-buggy", []string{"verify", "-q", dflag, "-D", "N=40", "-I" + incDir}, 1, "VIOLATION", "", 0},
		{"define-missing", []string{"verify", dflag, "-I", incDir}, 2, "", "dflag.c:3:49: undefined: N", 0},
		{"define-bad-name", []string{"verify", dflag, "-D1N"}, 2, "", `-D1N: "1N" is not a macro name`, 0},
		{"define-cir", []string{"verify", "-DN=1", "../../examples/sb.cir"}, 2, "", "-D and -I apply to C programs only", 0},
		{"coverability-sc", []string{"verify", "--explorer", "coverability", "../../examples/peterson.cir"}, 2, "", "the coverability explorer does not apply", 0},
		{"coverability-tso", []string{"verify", "--explorer", "coverability", "--model", "tso", "../../examples/peterson.cir"}, 2, "", "the coverability explorer supports the sc memory model only", 0},
		{"litmus-max-executions", []string{"litmus", "--max-executions", "-2", deepLitmus}, 2, "", "ncmc: --max-executions must not be negative (got -2)", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			code, out, errs := runCLI(t, tc.args...)
			if d := time.Since(start); tc.within > 0 && d > tc.within {
				t.Errorf("took %s, want at most %s", d, tc.within)
			}
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%.500s\nstderr:\n%.500s", code, tc.code, out, errs)
			}
			for _, c := range []struct{ name, got, want string }{{"stdout", out, tc.stdout}, {"stderr", errs, tc.stderr}} {
				if c.want == "" && c.got != "" {
					t.Errorf("%s not empty:\n%.500s", c.name, c.got)
				}
				if !strings.Contains(c.got, c.want) {
					t.Errorf("%s lacks %q:\n%.500s", c.name, c.want, c.got)
				}
				if strings.Count(c.got, "no main function") > 1 {
					t.Errorf("%s repeats the message:\n%s", c.name, c.got)
				}
				for _, l := range strings.Split(c.got, "\n") {
					if len(l) > 400 {
						t.Errorf("%s has a line of %d bytes", c.name, len(l))
					}
				}
			}
		})
	}
}
