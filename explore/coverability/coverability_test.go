package coverability

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"ncmc/frontend/cir"
)

// TestAppliesLongStraightLine: the plan asks Applies about every program
// whose bounded exploration hit a bound; on a long single-threaded
// program it must answer from the control flow alone. It used to compute
// dense liveness sets first (instructions x locals bits: 3.5 GB and half
// a minute for 200,000 statements, past any --timeout).
func TestAppliesLongStraightLine(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString("global x: int;\nfn main() {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    x = x + %d;\n", i%13)
	}
	b.WriteString("}\n")
	prog, err := cir.Compile("long.cir", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ok, why := Applies(prog)
	runtime.ReadMemStats(&after)
	if ok || !strings.Contains(why, "spawns no thread") {
		t.Fatalf("Applies = %v, %q; want false, main spawns no thread inside a loop", ok, why)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("Applies allocated %d MB on %d statements; want it linear (a few MB)", alloc>>20, n)
	}
}

// TestAppliesTable: the reasons Applies gives.
func TestAppliesTable(t *testing.T) {
	cases := []struct {
		name, src string
		ok        bool
		why       string
	}{
		{"no loop", "global x: int;\nfn w() { x = 1; }\nfn main() { let h = spawn w(); }\n", false, "spawns no thread"},
		{"spawn in loop", "global x: int;\nfn w() { x = 1; }\nfn main() { let i = 0; while (i < 3) { spawn w(); i = i + 1; } }\n", true, ""},
		{"handle used", "global x: int;\nfn w() { x = 1; }\nfn main() { let i = 0; while (i < 3) { let h = spawn w(); join(h); i = i + 1; } }\n", false, "handle of a spawned thread is used"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog, err := cir.Compile("t.cir", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			ok, why := Applies(prog)
			if ok != c.ok || !strings.Contains(why, c.why) {
				t.Errorf("Applies = %v, %q; want %v, %q", ok, why, c.ok, c.why)
			}
		})
	}
}
