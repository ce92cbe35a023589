// Package pct holds the PCT benchmark programs and the test that checks
// PCT's probabilistic guarantee on them empirically.
package pct

import (
	"context"
	"math"
	"testing"

	"ncmc/frontend"
	"ncmc/ncmc"
)

// binomCDF returns P(X <= h) for X ~ Binomial(n, p).
func binomCDF(h, n int, p float64) float64 {
	switch {
	case h < 0:
		return 0
	case h >= n || p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	lgn, _ := math.Lgamma(float64(n + 1))
	s := 0.0
	for i := 0; i <= h; i++ {
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		s += math.Exp(lgn - a - b + float64(i)*lp + float64(n-i)*lq)
	}
	return math.Min(s, 1)
}

// clopperPearson returns the exact (Clopper-Pearson) confidence interval of
// a binomial proportion with h successes in n trials; each tail has
// probability alpha.
func clopperPearson(h, n int, alpha float64) (lo, hi float64) {
	// hi: the p with P(X <= h; p) = alpha (P(X <= h) falls as p grows).
	a, b := float64(h)/float64(n), 1.0
	for i := 0; i < 100; i++ {
		m := (a + b) / 2
		if binomCDF(h, n, m) > alpha {
			a = m
		} else {
			b = m
		}
	}
	hi = (a + b) / 2
	if h == 0 {
		return 0, hi
	}
	// lo: the p with P(X >= h; p) = alpha (rises with p).
	a, b = 0, float64(h)/float64(n)
	for i := 0; i < 100; i++ {
		m := (a + b) / 2
		if 1-binomCDF(h-1, n, m) < alpha {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2, hi
}

func TestClopperPearson(t *testing.T) {
	// Reference values computed independently with exact binomial sums in
	// 60-digit decimal arithmetic: [0.0211554, 0.0293040].
	lo, hi := clopperPearson(250, 10000, 0.005)
	if math.Abs(lo-0.0211554) > 1e-6 || math.Abs(hi-0.0293040) > 1e-6 {
		t.Errorf("CP(250, 10000) = [%.7f, %.7f], want [0.0211554, 0.0293040]", lo, hi)
	}
	// No successes: the upper bound is 1 - alpha^(1/n) in closed form.
	lo, hi = clopperPearson(0, 100, 0.005)
	if want := 1 - math.Pow(0.005, 0.01); lo != 0 || math.Abs(hi-want) > 1e-9 {
		t.Errorf("CP(0, 100) = [%g, %g], want [0, %g]", lo, hi, want)
	}
}

const runs = 10000

// TestPCTHitRate runs PCT (d = 2) 10,000 times on each flag/x program and
// checks its guarantee: the per-run hit rate must not be significantly
// below 1/(n·k) = 1/(2k) (the upper end of the 99% Clopper-Pearson interval
// must reach it). The bound is tight for this program, so the measured rate
// should sit near 1/(2k), well above a uniform random walk's.
func TestPCTHitRate(t *testing.T) {
	for _, file := range []string{"flagx.cir", "flagx-long.cir"} {
		prog, err := frontend.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ncmc.Test(context.Background(), prog, ncmc.TestOptions{Strategy: ncmc.StrategyPCT, Runs: runs, Seed: 1, Depth: 2, KeepGoing: true})
		if err != nil {
			t.Fatal(err)
		}
		pi := res.PCT
		if pi == nil || pi.Threads != 2 {
			t.Fatalf("%s: PCT info %+v, want n = 2", file, pi)
		}
		bound := 1 / float64(2*pi.Steps)
		// The calibration run has no change point and cannot hit this bug;
		// count the hits over the runs that had one.
		lo, hi := clopperPearson(res.Hits, pi.PCTRuns, 0.005)
		rate := float64(res.Hits) / float64(pi.PCTRuns)
		t.Logf("%s: PCT n=%d k=%d: %d hits in %d runs, rate %.5f, 99%% CI [%.5f, %.5f]; 1/(2k) = %.5f (rate/bound = %.2f)",
			file, pi.Threads, pi.Steps, res.Hits, pi.PCTRuns, rate, lo, hi, bound, rate/bound)
		if hi < bound {
			t.Errorf("%s: PCT's hit rate %.5f is significantly below its guarantee 1/(2k) = %.5f", file, rate, bound)
		}
		if !res.BugFound || res.Schedule == nil {
			t.Fatalf("%s: no bug reported", file)
		}
		// A random walk is much worse on this bug.
		rw, err := ncmc.Test(context.Background(), prog, ncmc.TestOptions{Strategy: ncmc.StrategyRandom, Runs: runs, Seed: 1, KeepGoing: true})
		if err != nil {
			t.Fatal(err)
		}
		rlo, rhi := clopperPearson(rw.Hits, runs, 0.005)
		t.Logf("%s: random walk: %d hits in %d runs, 99%% CI [%.5f, %.5f]", file, rw.Hits, runs, rlo, rhi)
		if rhi >= lo {
			t.Errorf("%s: the random walk (%d hits) is not clearly worse than PCT (%d hits)", file, rw.Hits, res.Hits)
		}
	}
}
