package cir

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// TestParseMemory bounds what parsing a large file allocates per source
// byte. The parser used to hold every token of the file at once (80
// bytes each, in a slice grown by copying: 186 bytes allocated per byte of
// a 10 MB file, 2.9 GB in ncmc verify with its GC setting); it now reads
// tokens as it needs them, so what is allocated is essentially the AST:
// 46 bytes per source byte with an ir.Pos (32 bytes) per node, 31 with
// 8-byte line/column pairs (srcPos) and the field/method of a FieldExpr
// out of every expression's exprInfo.
func TestParseMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("global x: int;\nglobal y: int;\nfn main() {\n    let r = 0;\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "    x = x + %d; r = r + y * %d;\n", i%7, i%5)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	errs := diag.NewCollector("big.cir", src)
	f := parse("big.cir", src, errs)
	runtime.ReadMemStats(&after)
	if errs.Len() > 0 {
		t.Fatal(errs.Errors())
	}
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src))
	t.Logf("%d bytes, %d declarations: %.0f bytes allocated per source byte", len(src), len(f.Decls), perByte)
	if perByte > 38 {
		t.Errorf("parsing allocates %.0f bytes per source byte, want at most 38", perByte)
	}
}

// TestCompileMemory bounds what the whole front end (parse, check, lower)
// allocates on a long straight-line function of 50,000 statements, and
// what the program it returns keeps. Lowering used to grow the function's
// instructions (168 bytes each) and hidden temps by append, which grows a
// long slice by a quarter at a time and so allocates about five times
// the final size: 3,630 bytes per statement in all, 1,086 kept; with
// chunks copied once into an exact slice, the temps' slice doubling and a
// 168-byte ir.Instr (184 before its fields were reordered): 2,108 and 956.
// With shared leaf expressions (one node per constant, local and global
// address: 3 of the 5 nodes of x = x + k), 8-byte positions in the tree and
// the body and locals of a long function allocated once at the rate of
// its first chunk: 1,133 and 629. The tree the parser returns is bounded
// too: 515 bytes per statement with 32-byte positions, 355 now.
func TestCompileMemory(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString("global x: int;\nfn main() {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    x = x + %d;\n", i%13)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	var before, after, kept, parsed runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tree := parse("long.cir", src, diag.NewCollector("long.cir", src))
	runtime.GC()
	runtime.ReadMemStats(&parsed)
	runtime.KeepAlive(tree)
	treePerStmt := float64(int64(parsed.HeapAlloc)-int64(before.HeapAlloc)) / n
	tree = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	prog, err := Compile("long.cir", src)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&kept)
	runtime.KeepAlive(prog)
	perStmt := float64(after.TotalAlloc-before.TotalAlloc) / n
	keptPerStmt := float64(int64(kept.HeapAlloc)-int64(before.HeapAlloc)) / n
	t.Logf("%d statements (%d bytes), %d instructions: %.0f bytes allocated and %.0f kept per statement; the parsed tree holds %.0f",
		n, len(src), len(prog.Main.Body), perStmt, keptPerStmt, treePerStmt)
	if perStmt > 1300 {
		t.Errorf("the front end allocates %.0f bytes per statement, want at most 1,300", perStmt)
	}
	if keptPerStmt > 700 {
		t.Errorf("the program keeps %.0f bytes per statement, want at most 700", keptPerStmt)
	}
	if treePerStmt > 400 {
		t.Errorf("the parsed tree holds %.0f bytes per statement, want at most 400", treePerStmt)
	}
}

// TestLowerAcrossChunks: a function of more instructions than one chunk
// of fnLower.body (chunkLen), with jumps from one chunk into others (a
// loop around 5,000 statements, branches inside it, a break at the end),
// runs as its source says: the jump targets are patched in the function's
// final, copied body.
func TestLowerAcrossChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("global x: int;\nglobal y: int;\nfn main() {\n    let i = 0;\n    while (i < 5) {\n")
	for k := 0; k < 5000; k++ {
		if k%500 == 250 {
			fmt.Fprintf(&b, "        if (x >= 0) { y = y + %d; } else { y = y - 1; }\n", k)
			continue
		}
		b.WriteString("        x = x + 1;\n")
	}
	b.WriteString("        i = i + 1;\n        if (i == 4) { break; }\n    }\n")
	b.WriteString("    assert(x == 4 * 4990);\n    assert(y == 4 * 25000);\n}\n")
	prog, err := Compile("chunks.cir", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(prog.Main.Body); n <= 2*chunkLen {
		t.Fatalf("main has %d instructions, want more than two chunks (%d)", n, 2*chunkLen)
	}
	if err := ir.Validate(prog); err != nil {
		t.Fatal(err)
	}
	x := newSeqExec(prog, 10)
	x.maxSteps = 1e8
	if got := x.run(); got != "ok" {
		t.Errorf("run: %s", got)
	}
	if x.mem[1][0] != 4*4990 || x.mem[2][0] != 4*25000 {
		t.Errorf("x = %d, y = %d, want %d, %d", x.mem[1][0], x.mem[2][0], 4*4990, 4*25000)
	}
}

// TestLowerReserve: a long function whose first chunk's rate of
// instructions per statement over- or under-estimates the rest (reserve):
// shared updates (a load and a store each) and local ones (one
// assignment), with branches in both parts. The body is exact or within a
// quarter of its length, and the program runs as its source says.
func TestLowerReserve(t *testing.T) {
	tests := []struct {
		name          string
		first, second string // statement of each part
		n1, n2        int
	}{
		{"over-estimate", "x = x + 1;", "r = r + 1;", 5000, 40000},
		{"under-estimate", "r = r + 1;", "x = x + 1;", 5000, 40000},
		{"exact", "x = x + 1;", "x = x + 1;", 5000, 40000},
		// A first statement of 5,000 loads: its rate (5,001 instructions
		// per statement) alone would reserve 200 million instructions.
		{"dense-start", "r = r + 1;", "r = r + 1;", 1, 40000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("global x: int;\nglobal y: int;\nfn main() {\n    let r = 0;\n")
			base := 0
			if tc.name == "dense-start" {
				b.WriteString("    r = x" + strings.Repeat(" + x", 4999) + " - 1;\n")
				base = -1
			}
			branches := 0
			for k := 0; k < tc.n1+tc.n2; k++ {
				if k%1000 == 500 {
					fmt.Fprintf(&b, "    if (r >= 0) { y = y + 1; } else { y = y - 1; }\n")
					branches++
					continue
				}
				s := tc.first
				if k >= tc.n1 {
					s = tc.second
				}
				fmt.Fprintf(&b, "    %s\n", s)
			}
			b.WriteString("    assert(x + r == " + fmt.Sprint(base+tc.n1+tc.n2-branches) + ");\n")
			b.WriteString("    assert(y == " + fmt.Sprint(branches) + ");\n}\n")
			src := []byte(b.String())
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			prog, err := Compile("reserve.cir", src)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			// about 70 MB; a reservation at the first statement's rate
			// would take 33 GB
			if mb := float64(after.TotalAlloc-before.TotalAlloc) / 1e6; mb > 150 {
				t.Errorf("the front end allocated %.0f MB, want at most 150", mb)
			}
			body := prog.Main.Body
			if n := len(body); n <= 4*chunkLen || cap(body) > n+n/4+chunkLen {
				t.Errorf("main has %d instructions in a slice of %d", n, cap(body))
			}
			if n := len(prog.Main.Locals); cap(prog.Main.Locals) > 2*n+64 {
				t.Errorf("main has %d locals in a slice of %d", n, cap(prog.Main.Locals))
			}
			if err := ir.Validate(prog); err != nil {
				t.Fatal(err)
			}
			x := newSeqExec(prog, 10)
			x.maxSteps = 1e8
			if got := x.run(); got != "ok" {
				t.Errorf("run: %s", got)
			}
		})
	}
}
