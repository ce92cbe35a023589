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
// tokens as it needs them, so what is allocated is essentially the AST.
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
	if perByte > 100 {
		t.Errorf("parsing allocates %.0f bytes per source byte, want at most 100", perByte)
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
func TestCompileMemory(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString("global x: int;\nfn main() {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    x = x + %d;\n", i%13)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	var before, after, kept runtime.MemStats
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
	t.Logf("%d statements (%d bytes), %d instructions: %.0f bytes allocated and %.0f kept per statement",
		n, len(src), len(prog.Main.Body), perStmt, keptPerStmt)
	if perStmt > 2500 {
		t.Errorf("the front end allocates %.0f bytes per statement, want at most 2,500", perStmt)
	}
	if keptPerStmt > 1000 {
		t.Errorf("the program keeps %.0f bytes per statement, want at most 1,000", keptPerStmt)
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
