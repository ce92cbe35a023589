package cir

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"ncmc/frontend/diag"
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
