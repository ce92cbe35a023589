// Package explorertest is the one harness of the differential tests: an
// explorer (the candidate) is run beside an oracle (the reference
// explorer, or the same explorer with other options) on generated
// programs, and every disagreement in verdict or outcomes fails the test.
// It holds what the harnesses of package ncmc and hunt used to copy: the
// outcome keys, the diff of two key lists, the sizes (-short, default,
// -long) and the loop over seeds in parallel chunks with its summary line.
//
// It imports no checker package (the caller passes Verify), so that the
// tests of every package below ncmc can use it.
package explorertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"ncmc/explore"
	"ncmc/ir"
)

var long = flag.Bool("long", false, "run the long variants of the differential tests (also NCMC_LONG=1)")

// Long reports whether the long variants of the differential tests run
// (-long, or NCMC_LONG=1): the one size convention.
func Long() bool { return *long || os.Getenv("NCMC_LONG") == "1" }

// Size is the number of generated programs of a differential test: n if
// set by its flag, else def, short with -short, long with Long.
func Size(n, def, short, long uint64) uint64 {
	if n != 0 {
		return n
	}
	switch {
	case Long():
		return long
	case testing.Short():
		return short
	}
	return def
}

// InChunks runs each on the seeds first .. first+n-1, split into chunks
// parallel subtests of a subtest "chunks" (which returns when all are
// done, so the caller can report totals afterwards).
func InChunks(t *testing.T, first, n, chunks uint64, each func(t *testing.T, seed uint64)) {
	t.Run("chunks", func(t *testing.T) {
		for c := uint64(0); c < chunks; c++ {
			from, to := first+c*n/chunks, first+(c+1)*n/chunks
			t.Run(fmt.Sprintf("%d-%d", from, to), func(t *testing.T) {
				t.Parallel()
				for seed := from; seed < to; seed++ {
					each(t, seed)
				}
			})
		}
	})
}

// Keys renders what two explorers must agree on.
type Keys func(*explore.Result) []string

// OutcomeKeys lists the final states of complete executions and the
// violations found (an assertion failure or runtime error by its message,
// a deadlock as such). The state in which a violation happens is not
// compared: a violating execution stops early, and how far the other
// threads got is not an outcome.
func OutcomeKeys(r *explore.Result) []string {
	return keys(r, func(o explore.Outcome) string {
		switch {
		case strings.HasPrefix(o.Violation, "deadlock"):
			return "deadlock"
		case o.Violation != "":
			return "violation: " + o.Violation
		}
		return "final: " + o.State
	})
}

// SemanticKeys is OutcomeKeys for semantically rendered outcomes
// (Options.Semantic), where a violation's state is compared for the final
// checks of main (messages "assertion failed: final..."), which run after
// every worker has been joined, and deadlocks are told apart by message.
func SemanticKeys(r *explore.Result) []string {
	return keys(r, func(o explore.Outcome) string {
		switch {
		case o.Violation == "":
			return "final: " + o.State
		case strings.HasPrefix(o.Violation, "assertion failed: final"):
			return "violation: " + o.Violation + " in state: " + o.State
		}
		return "violation: " + o.Violation
	})
}

// StrictKeys renders every outcome exactly (state and violation).
func StrictKeys(r *explore.Result) []string {
	return keys(r, func(o explore.Outcome) string { return o.State + " [" + o.Violation + "]" })
}

func keys(r *explore.Result, key func(explore.Outcome) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range r.Outcomes {
		k := key(o)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Diff lists the keys of the oracle's outcomes want that the explorer
// called name lacks in got, then those got has beyond want.
func Diff(name string, want, got []string) []string {
	var diffs []string
	in := map[string]bool{}
	for _, k := range got {
		in[k] = true
	}
	for _, k := range want {
		if !in[k] {
			diffs = append(diffs, name+" misses outcome: "+k)
		}
		delete(in, k)
	}
	var extra []string
	for k := range in {
		extra = append(extra, name+" has extra outcome: "+k)
	}
	sort.Strings(extra)
	return append(diffs, extra...)
}

// VerifyFunc is ncmc.Verify (passed in: this package does not import ncmc).
type VerifyFunc func(ctx context.Context, prog *ir.Program, opts explore.Options) (*explore.Result, error)

// Run is one comparison of a candidate with its oracle.
type Run struct {
	// Diffs are the disagreements; Skipped says why nothing was compared.
	Diffs   []string
	Skipped string
	// Notes are logged (e.g. a second candidate run not compared).
	Notes                []string
	OracleExec, CandExec int
	OracleTime, CandTime time.Duration
	// Oracle and Cand are the results (nil when not run).
	Oracle, Cand *explore.Result
}

// Pair is a candidate and its oracle.
type Pair struct {
	// Name is the candidate's name in messages; Want, if set, is the
	// Result.Explorer the candidate must report.
	Name, Want   string
	Oracle, Cand explore.Options
	Keys         Keys
}

// Compare runs p's oracle and then its candidate on prog and compares
// their verdicts and outcomes (p.Keys). A run stopped by a budget
// (Result.Stopped) has not seen every outcome, whatever its verdict: then
// nothing is compared and Skipped says why.
func (p Pair) Compare(ctx context.Context, verify VerifyFunc, prog *ir.Program) Run {
	ref, err := verify(ctx, prog, p.Oracle)
	if err != nil {
		return Run{Diffs: []string{"oracle error: " + err.Error()}}
	}
	if ref.Stopped != "" {
		return Run{Skipped: "oracle over its bound (" + ref.Stopped + ")", Oracle: ref}
	}
	return p.Against(ctx, verify, prog, ref)
}

// Against is Compare with the oracle's result ref already known.
func (p Pair) Against(ctx context.Context, verify VerifyFunc, prog *ir.Program, ref *explore.Result) Run {
	got, err := verify(ctx, prog, p.Cand)
	if err != nil {
		return Run{Diffs: []string{p.Name + " error: " + err.Error()}, Oracle: ref}
	}
	run := Run{Oracle: ref, Cand: got, OracleExec: ref.Stats.Executions + ref.Stats.Pruned, CandExec: got.Stats.Executions,
		OracleTime: ref.Elapsed, CandTime: got.Elapsed}
	if got.Stopped != "" {
		run.Skipped = p.Name + " over its bound (" + got.Stopped + ")"
		return run
	}
	if p.Want != "" && got.Explorer != p.Want {
		run.Diffs = append(run.Diffs, fmt.Sprintf("explored by %q, not %s (%s)", got.Explorer, p.Want, got.Note))
	}
	if got.Verdict != ref.Verdict {
		run.Diffs = append(run.Diffs, fmt.Sprintf("verdict: %s %s (%s), oracle %s (%s)", p.Name, got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	run.Diffs = append(run.Diffs, Diff(p.Name, p.Keys(ref), p.Keys(got))...)
	return run
}

// Harness runs a comparison on generated programs.
type Harness struct {
	// Name is the candidate's name in messages.
	Name string
	// First and N are the seeds (N from Size); Chunks the parallel
	// subtests (0: 2).
	First, N, Chunks uint64
	// Gen returns the program of seed (its source for messages).
	Gen func(seed uint64) (src string, prog *ir.Program, err error)
	// Compare compares the candidate with its oracle on prog, the
	// program of seed (t is the chunk's subtest).
	Compare func(t *testing.T, seed uint64, prog *ir.Program) Run
	// MinCompared is the share of programs that must be compared, not
	// skipped (0: no minimum).
	MinCompared float64
}

// Summary are the totals of a Harness run.
type Summary struct {
	Programs, Compared, Skipped, Differ int
	OracleExec, CandExec                int
	OracleTime, CandTime                time.Duration
}

// Run runs the harness: every disagreement fails t, and a summary line is
// logged.
func (h Harness) Run(t *testing.T) Summary {
	var (
		mu  sync.Mutex
		sum Summary
	)
	chunks := h.Chunks
	if chunks == 0 {
		chunks = 2
	}
	start := time.Now()
	InChunks(t, h.First, h.N, chunks, func(t *testing.T, seed uint64) {
		src, prog, err := h.Gen(seed)
		if err != nil {
			t.Fatalf("seed %d: generated program does not compile: %v\n%s", seed, err, src)
		}
		r := h.Compare(t, seed, prog)
		mu.Lock()
		sum.Programs++
		if r.Skipped != "" {
			sum.Skipped++
		} else {
			sum.Compared++
			sum.OracleExec += r.OracleExec
			sum.CandExec += r.CandExec
			sum.OracleTime += r.OracleTime
			sum.CandTime += r.CandTime
			if len(r.Diffs) > 0 {
				sum.Differ++
			}
		}
		mu.Unlock()
		if r.Skipped != "" {
			t.Logf("seed %d skipped: %s", seed, r.Skipped)
		}
		for _, n := range r.Notes {
			t.Logf("seed %d: %s", seed, n)
		}
		if len(r.Diffs) > 0 {
			t.Errorf("seed %d: %s disagrees with its oracle:\n%s\nprogram:\n%s", seed, h.Name, strings.Join(r.Diffs, "\n"), src)
		}
	})
	t.Logf("%d generated programs, %d compared (%d skipped), %d with disagreements; executions: %s %d, oracle %d; explorer time: %s %v, oracle %v; wall %v",
		sum.Programs, sum.Compared, sum.Skipped, sum.Differ, h.Name, sum.CandExec, sum.OracleExec,
		h.Name, sum.CandTime.Round(time.Millisecond), sum.OracleTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	if float64(sum.Compared) < h.MinCompared*float64(sum.Programs) {
		t.Errorf("only %d of %d programs compared", sum.Compared, sum.Programs)
	}
	return sum
}
