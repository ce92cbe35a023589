package hunt

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ncmc/explore"
	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/interp"
	"ncmc/ir"
)

// classSet explores prog with cbdpor or chess at bound b and returns the
// classes seen (see classKey) and the exploration's statistics.
func classSet(prog *ir.Program, names *interp.Names, strategy string, b, maxExec int) (map[string]int, boundStats) {
	cfg := interp.Config{Unroll: explore.DefaultUnroll, MaxSteps: explore.DefaultMaxSteps, MaxThreadSteps: DefaultMaxThreadSteps}
	keys := map[string]int{}
	explore := exploreCBDPOR
	if strategy == StrategyCHESS {
		explore = exploreCHESS
	}
	st := explore(context.Background(), prog, names, cfg, b, nil, maxExec, func(x *interp.Execution) bool {
		keys[classKey(x)]++
		return false
	})
	return keys, st
}

func diffKeys(a, b map[string]int) (onlyA, onlyB []string) {
	for k := range a {
		if _, ok := b[k]; !ok {
			onlyA = append(onlyA, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			onlyB = append(onlyB, k)
		}
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	return
}

// diffConfig returns the generator knobs for program number i, in turn:
// the defaults; with atomic blocks; with condition variables and two
// mutexes; lock-heavy with condition variables, awaits, atomic blocks and
// longer threads.
func diffConfig(i int) progen.Config {
	cfg := progen.Default()
	switch i % 4 {
	case 1:
		cfg.Atomic = 2
	case 2:
		cfg.Mutexes, cfg.Conds, cfg.Cond = 2, 1, 3
	case 3:
		cfg.Mutexes, cfg.Lock, cfg.Conds, cfg.Cond, cfg.Await, cfg.Atomic, cfg.MaxOps = 2, 5, 1, 2, 2, 1, 4
	}
	return cfg
}

// hasViolation reports whether some class is an assertion failure or runtime error.
func hasViolation(keys map[string]int) bool {
	for k := range keys {
		if strings.HasPrefix(k, "violation|") {
			return true
		}
	}
	return false
}

var cbdporN = flag.Int("cbdpor.n", 0, "generated programs in TestCBDPORMatchesCHESS (0: 300, 20 with -short, 1500 with -long)")

// TestCBDPORMatchesCHESS is the differential test of CB-DPOR: on generated
// programs, for every preemption bound 0..3 (and unbounded, for programs
// with at most maxRef interleavings), CB-DPOR must find exactly the classes
// the preemption-bounded reference explorer (CHESS semantics) finds.
//
// One exception: an assertion failure ends its execution, so the steps the
// other threads would still take, and the races they would reveal, never
// happen. When CHESS finds such a violation at a bound, CB-DPOR must find a
// violation too and no class CHESS lacks, but it may miss classes. (If
// CB-DPOR finds no violation, no execution was cut short and its coverage
// argument applies; so it finds a violation whenever CHESS does.)
//
// -cbdpor.n N runs N programs instead of 300 (20 with -short, 1500 with
// -long).
func TestCBDPORMatchesCHESS(t *testing.T) {
	want := int(explorertest.Size(uint64(*cbdporN), 300, 20, 1500))
	// Programs with more than maxExec CHESS executions at bound 3 are skipped;
	// the unbounded comparison (against the full reference) is made for
	// programs with at most maxRef interleavings.
	const maxExec, maxRef = 20000, 5000
	start := time.Now()
	type tot struct{ programs, buggy, classes, chess, cbdpor, redundant int }
	var tots [5]tot // bounds 0..3, then unbounded
	compared, skipped, failures := 0, 0, 0
	for i := 0; compared < want; i++ {
		if i > 4*want {
			t.Fatalf("only %d of %d generated programs were small enough", compared, want)
		}
		src := progen.Generate(rand.New(rand.NewPCG(uint64(i), 0xcbd0)), diffConfig(i))
		prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", i), []byte(src))
		if err != nil {
			t.Fatalf("program %d does not compile: %v\n%s", i, err, src)
		}
		names := interp.NewNames(prog)
		chess3, st3 := classSet(prog, names, StrategyCHESS, 3, maxExec)
		if !st3.complete {
			skipped++
			continue
		}
		compared++
		failed := false
		for bi, b := range []int{0, 1, 2, 3, -1} {
			chess, cst := chess3, st3
			switch {
			case b < 0:
				chess, cst = classSet(prog, names, StrategyCHESS, -1, maxRef)
				if !cst.complete {
					continue
				}
			case b < 3:
				chess, cst = classSet(prog, names, StrategyCHESS, b, 0)
			}
			cb, bst := classSet(prog, names, StrategyCBDPOR, b, 0)
			if bst.err != nil || cst.err != nil {
				t.Fatalf("program %d bound %d: %v %v", i, b, bst.err, cst.err)
			}
			tots[bi].programs++
			tots[bi].classes += len(chess)
			tots[bi].chess += cst.executions
			tots[bi].cbdpor += bst.executions
			tots[bi].redundant += bst.redundant
			missing, extra := diffKeys(chess, cb)
			if hasViolation(chess) {
				tots[bi].buggy++
				if hasViolation(cb) {
					missing = nil // a violation cuts its execution short: see above
				} else {
					missing = []string{"(no violation found; CHESS found one)"}
				}
			}
			if len(missing)+len(extra) > 0 && !failed {
				failed = true
				failures++
				path := filepath.Join(t.TempDir(), fmt.Sprintf("cbdpor-diff-%d.cir", i))
				os.WriteFile(path, []byte(src), 0o644)
				t.Errorf("program %d (saved as %s), bound %d: CB-DPOR misses %d and adds %d of %d classes\nmissing: %.300q\nextra: %.300q\n%s",
					i, path, b, len(missing), len(extra), len(chess), missing, extra, src)
			}
		}
		if failures >= 3 {
			t.Fatal("stopping after 3 failing programs")
		}
	}
	t.Logf("%d programs compared (%d generated programs skipped as too big), %s", compared, skipped, time.Since(start).Round(time.Millisecond))
	for bi, tt := range tots {
		name := fmt.Sprint(bi)
		if bi == 4 {
			name = "inf"
		}
		t.Logf("bound %s: %d programs (%d with assertion failures), %d classes; CHESS %d executions, CB-DPOR %d executions (+%d sleep-blocked)", name, tt.programs, tt.buggy, tt.classes, tt.chess, tt.cbdpor, tt.redundant)
	}
}

// The differential test can fail: two wrong readings of CB-DPOR (classic
// sleep sets under a bound, and marking the node after the racing step as
// Fig. 3-2 literally says) must miss classes that CHESS finds.
func TestCBDPORNegativeControls(t *testing.T) {
	if testing.Short() {
		t.Skip("negative controls take ~15s")
	}
	variants := []struct {
		name string
		v    cbVariant
	}{
		{"classic sleep sets", cbVariant{classicSleep: true}},
		{"mark after the racing step", cbVariant{markAfter: true}},
	}
	cfg := interp.Config{Unroll: explore.DefaultUnroll, MaxSteps: explore.DefaultMaxSteps, MaxThreadSteps: DefaultMaxThreadSteps}
	const n = 120
	missed := make([]int, len(variants))
	programs := make([]int, len(variants))
	for i := 0; i < n; i++ {
		src := progen.Generate(rand.New(rand.NewPCG(uint64(i), 0xcbd0)), diffConfig(i))
		prog, err := frontend.ParseCIR("gen.cir", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		names := interp.NewNames(prog)
		bad := make([]bool, len(variants))
		for b := 0; b <= 3; b++ {
			chess, st := classSet(prog, names, StrategyCHESS, b, 20000)
			if !st.complete {
				break
			}
			for vi, v := range variants {
				keys := map[string]int{}
				exploreCBDPORVariant(context.Background(), prog, names, cfg, b, nil, 0, func(x *interp.Execution) bool {
					keys[classKey(x)]++
					return false
				}, v.v)
				if m, _ := diffKeys(chess, keys); len(m) > 0 && !hasViolation(chess) {
					missed[vi] += len(m)
					bad[vi] = true
				}
			}
		}
		for vi := range variants {
			if bad[vi] {
				programs[vi]++
			}
		}
	}
	for vi, v := range variants {
		t.Logf("%s: misses %d classes in %d of %d programs", v.name, missed[vi], programs[vi], n)
		if missed[vi] == 0 {
			t.Errorf("%s: the differential test does not catch this broken variant", v.name)
		}
	}
}
