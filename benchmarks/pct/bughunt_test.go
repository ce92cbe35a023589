package pct

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

// The buggy programs of the bug-hunting table: the buggy examples and the
// programs of this directory.
var buggy = []struct {
	file  string
	model string
}{
	{"../../examples/peterson-buggy.cir", "sc"},
	{"../../examples/deadlock-abba.cir", "sc"},
	{"../../examples/sb.cir", "tso"},
	{"flagx.cir", "sc"},
	{"flagx-long.cir", "sc"},
	{"lost-update.cir", "sc"},
	{"bank.cir", "sc"},
	{"publish-big.cir", "sc"},
}

type strategy struct {
	name string
	opts ncmc.TestOptions
}

var strategies = []strategy{
	{"pct d=2", ncmc.TestOptions{Strategy: ncmc.StrategyPCT, Depth: 2}},
	{"pct d=3", ncmc.TestOptions{Strategy: ncmc.StrategyPCT, Depth: 3}},
	{"random", ncmc.TestOptions{Strategy: ncmc.StrategyRandom}},
	{"cbdpor", ncmc.TestOptions{Strategy: ncmc.StrategyCBDPOR, Preemptions: 3}},
	{"chess", ncmc.TestOptions{Strategy: ncmc.StrategyCHESS, Preemptions: 3}},
}

func load(t *testing.T, file string) *ir.Program {
	t.Helper()
	p, err := frontend.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Bugs a strategy is not expected to find within a modest budget.
var hopeless = map[string]string{
	"peterson-buggy.cir/pct d=2": "the bug has depth 3: both threads must be in the critical section at once",
	"flagx-long.cir/random":      "a random walk hits it with probability about 2^-31",
}

// Every strategy finds every bug of the table (except the hopeless pairs)
// within a modest budget, and the schedule replays. cbdpor and chess
// support SC only.
func TestStrategiesFindTheBugs(t *testing.T) {
	for _, b := range buggy {
		prog := load(t, b.file)
		for _, s := range strategies {
			if b.model != "sc" && (s.opts.Strategy == ncmc.StrategyCBDPOR || s.opts.Strategy == ncmc.StrategyCHESS) {
				continue
			}
			if _, ok := hopeless[filepath.Base(b.file)+"/"+s.name]; ok {
				continue
			}
			if s.opts.Strategy == ncmc.StrategyCHESS && strings.Contains(b.file, "big") {
				continue // seconds; the table covers it
			}
			o := s.opts
			o.Model, o.Seed, o.Runs = b.model, 1, 20000
			res, err := ncmc.Test(context.Background(), prog, o)
			if err != nil {
				t.Fatal(err)
			}
			if !res.BugFound {
				t.Errorf("%s, %s: no bug (%s)", b.file, s.name, res.Reason)
				continue
			}
			if _, err := ncmc.Replay(prog, res.Schedule); err != nil {
				t.Errorf("%s, %s: the schedule does not replay: %v", b.file, s.name, err)
			}
		}
	}
}

// TestBugHuntTable prints the Markdown table of benchmarks/RESULTS.md
// ("Bug hunting"): runs and time to the first bug of each strategy on each
// buggy program. Randomized strategies run with seeds 1..20 (median and
// worst runs, median time). Set NCMC_BUGHUNT_TABLE=1 to run it.
func TestBugHuntTable(t *testing.T) {
	if os.Getenv("NCMC_BUGHUNT_TABLE") == "" {
		t.Skip("set NCMC_BUGHUNT_TABLE=1 to print the bug-hunting table")
	}
	const seeds, budget = 20, 100000
	var out strings.Builder
	out.WriteString("| program | model | reference DFS | " + strings.Join(names(), " | ") + " |\n")
	out.WriteString("|---|---|---|" + strings.Repeat("---|", len(strategies)) + "\n")
	for _, b := range buggy {
		prog := load(t, b.file)
		row := []string{filepath.Base(b.file), b.model, reference(t, prog, b.model)}
		for _, s := range strategies {
			if b.model != "sc" && (s.opts.Strategy == ncmc.StrategyCBDPOR || s.opts.Strategy == ncmc.StrategyCHESS) {
				row = append(row, "n/a (sc only)")
				continue
			}
			o := s.opts
			o.Model, o.Runs, o.Timeout = b.model, budget, 60*time.Second
			if o.Strategy == ncmc.StrategyCBDPOR || o.Strategy == ncmc.StrategyCHESS {
				o.Runs = 0
				res, err := ncmc.Test(context.Background(), prog, o)
				if err != nil {
					t.Fatal(err)
				}
				if !res.BugFound {
					row = append(row, "not found: "+res.Reason)
					continue
				}
				bound := res.Bounds[len(res.Bounds)-1].Bound
				row = append(row, fmt.Sprintf("%d (bound %d), %s", res.FirstBugRun, bound, round(res.TimeToFirstBug)))
				continue
			}
			var runs []int
			var times []time.Duration
			missed := 0
			for seed := uint64(1); seed <= seeds; seed++ {
				o.Seed = seed
				res, err := ncmc.Test(context.Background(), prog, o)
				if err != nil {
					t.Fatal(err)
				}
				if !res.BugFound {
					missed++
					continue
				}
				runs = append(runs, res.FirstBugRun)
				times = append(times, res.TimeToFirstBug)
			}
			cell := "not found"
			if len(runs) > 0 {
				sort.Ints(runs)
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				cell = fmt.Sprintf("%d (max %d), %s", runs[len(runs)/2], runs[len(runs)-1], round(times[len(times)/2]))
			}
			if missed > 0 {
				cell += fmt.Sprintf("; missed by %d/%d seeds in %d runs", missed, seeds, budget)
			}
			row = append(row, cell)
		}
		out.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	fmt.Print(out.String())
}

func names() []string {
	var n []string
	for _, s := range strategies {
		n = append(n, s.name)
	}
	return n
}

// reference runs ncmc verify's reference explorer (plain DFS over all
// interleavings) to its first violation.
func reference(t *testing.T, prog *ir.Program, model string) string {
	res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: model, Explorer: "reference", Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != ncmc.Violation {
		return fmt.Sprintf("not found (%s) after %d executions", res.Reason, res.Stats.Executions)
	}
	return fmt.Sprintf("%d, %s", res.Stats.Executions, round(res.Elapsed))
}

func round(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}
