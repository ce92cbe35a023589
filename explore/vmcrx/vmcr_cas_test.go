package vmcrx_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

var vmcrCASN = flag.Int("vmcr.casn", 0, "generated CAS-table programs per model in the vmcr CAS-table differential test (0: 20, 8 with -short, 600 with -long)")

// casTable returns a program shaped like GenMC's indexer: threads insert
// values into a small table by CAS with linear probing, so that their CAS
// reads of one slot block each other (docs/vmcr.md, "Blocked reads do not
// make backtrack points"). Knobs vary the threads, inserts, table size,
// hash, a thread that stores or adds to a slot plainly, a reader of some
// slots, fences, and an assertion that can fail.
func casTable(rng *rand.Rand, small bool) string {
	size := 2 + rng.IntN(3)
	threads := 2 + rng.IntN(2)
	inserts := 1
	if threads == 2 && (!small || rng.IntN(2) == 0) {
		inserts++
	}
	mul := 1 + rng.IntN(7)
	step := 1 + rng.IntN(size+3)
	var b strings.Builder
	fmt.Fprintf(&b, "global table: int[%d];\nglobal seen: int;\n", size)
	fence := ""
	if rng.IntN(3) == 0 {
		fence = " fence(sc);"
	}
	fmt.Fprintf(&b, `fn ins(id: int) {
    let i = 0;
    while (i < %d) {
        let w = i * %d + id + 1;
        let h = (w * %d) %% %d;
        let k = 0;
        let done = false;
        while (!done && k < %d) {
            done = cas(table[h], 0, w);%s
            if (!done) { h = (h + 1) %% %d; }
            k = k + 1;
        }
        i = i + 1;
    }
}
`, inserts, step, mul, size, size, fence, size)
	extra := ""
	switch rng.IntN(5) {
	case 0:
		fmt.Fprintf(&b, "fn other() { table[%d] = %d; }\n", rng.IntN(size), 50+rng.IntN(3))
		extra = "other"
	case 1:
		fmt.Fprintf(&b, "fn other() { let r = fetch_add(table[%d], 1); seen = r; }\n", rng.IntN(size))
		extra = "other"
	case 2:
		fmt.Fprintf(&b, "fn other() { let a = table[%d]; let c = table[%d]; seen = a + c; }\n", rng.IntN(size), rng.IntN(size))
		extra = "other"
	}
	b.WriteString("fn main() {\n")
	for t := 0; t < threads; t++ {
		fmt.Fprintf(&b, "    let h%d = spawn ins(%d);\n", t, t)
	}
	if extra != "" {
		b.WriteString("    let hx = spawn other();\n    join(hx);\n")
	}
	for t := 0; t < threads; t++ {
		fmt.Fprintf(&b, "    join(h%d);\n", t)
	}
	if rng.IntN(3) == 0 {
		fmt.Fprintf(&b, "    let z = table[%d];\n    assert(z != %d, \"slot\");\n", rng.IntN(size), 1+rng.IntN(threads))
	}
	b.WriteString("}\n")
	return b.String()
}

var unmarkedRE = regexp.MustCompile(`Unmarked:(\d+)`)

// TestVMCRDifferentialCASTable compares vmcr with the reference explorer
// on indexer-shaped programs (casTable) under sc, tso and pso: outcomes,
// verdict, and exactly one complete execution per class. It also checks
// that the blocked-read rule withheld marks on some of them, so that the
// comparison covers it.
func TestVMCRDifferentialCASTable(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrCASN), 20, 8, 600)
	for _, m := range []string{"sc", "tso", "pso"} {
		t.Run(m, func(t *testing.T) {
			var mu sync.Mutex
			classes, fired := 0, 0
			h := explorertest.Harness{Name: "vmcr-cas", First: *vmcrSeed, N: n, Chunks: 4,
				Gen: func(seed uint64) (string, *ir.Program, error) {
					src := casTable(rand.New(rand.NewPCG(seed, 0x636173)), m != "sc" || seed%2 == 0)
					prog, err := frontend.ParseCIR(fmt.Sprintf("cas%d.cir", seed), []byte(src))
					return src, prog, err
				},
				Compare: func(t *testing.T, seed uint64, prog *ir.Program) explorertest.Run {
					var lmu sync.Mutex
					unmarked := 0
					opts := ncmc.Options{Debug: func(format string, args ...any) {
						if !strings.HasPrefix(format, "vmcr: %+v") {
							return
						}
						if m := unmarkedRE.FindStringSubmatch(fmt.Sprintf(format, args...)); m != nil {
							k, _ := strconv.Atoi(m[1])
							lmu.Lock()
							unmarked += k
							lmu.Unlock()
						}
					}}
					r := vmcrCompareWith(prog, m, opts)
					mu.Lock()
					defer mu.Unlock()
					if r.Oracle != nil && r.Skipped == "" {
						classes += r.Oracle.Classes.Values
						if unmarked > 0 {
							fired++
						}
					}
					return r
				}}
			sum := h.Run(t)
			t.Logf("%s: %d complete executions of vmcr for %d classes; the blocked-read rule withheld marks on %d programs", m, sum.CandExec, classes, fired)
			if fired == 0 && n >= 10 {
				t.Errorf("the blocked-read rule never withheld a mark: the programs do not cover it")
			}
		})
	}
}
