package mcrx

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"ncmc/explore"
	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/mcr"
)

// A native seed that fails replay is not accepted: it is counted, and the
// seeds of its parent's execution are asked to Z3 instead, so the outcomes
// stay those of a run without the failure.
func TestMCRNativeReplayFailure(t *testing.T) {
	src := `
global x: int; global y: int; global r1: int; global r2: int;
fn a() { x = 1; r1 = y; }
fn b() { y = 1; r2 = x; }
fn main() { let p = spawn a(); let q = spawn b(); join(p); join(q); }
`
	prog, err := frontend.ParseCIR("sb.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	states := func(r *explore.Result) []string {
		var out []string
		for _, o := range r.Outcomes {
			out = append(out, o.State+"|"+o.Violation)
		}
		slices.Sort(out)
		return out
	}
	want, err := runHooked(prog, explore.Options{KeepGoing: true, Workers: 1}, hooks{})
	if err != nil {
		t.Fatal(err)
	}
	// Every native seed expects its last step to read a value it cannot.
	corrupt := func(sd *mcr.Seed) {
		for i := len(sd.Expect) - 1; i >= 0; i-- {
			if sd.Expect[i].HasEvent {
				sd.Expect[i].RVal += 1000
				sd.Expect[i].AnyWVal = false
				return
			}
		}
	}
	got, err := runHooked(prog, explore.Options{KeepGoing: true, Workers: 1}, hooks{corruptNative: corrupt})
	if err != nil {
		t.Fatalf("a failed native witness must not end the exploration: %v", err)
	}
	if got.Stats.NativeReplayFailures == 0 || got.Stats.Z3Calls == 0 {
		t.Errorf("stats %+v: want native replay failures and Z3 calls", got.Stats)
	}
	if g, w := states(got), states(want); !slices.Equal(g, w) {
		t.Errorf("outcomes %v, want %v", g, w)
	}
}

// With a native search budget of one node the native decider leaves many
// queries unknown; Z3 answers those, and the outcomes are those of the
// default run.
func TestMCRNativeUnknownFallback(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.cir")
	fallbacks := 0
	for _, f := range files {
		prog, err := frontend.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []string{"sc", "tso"} {
			want, err := runHooked(prog, explore.Options{Model: model, KeepGoing: true, Workers: 1, MaxExecutions: 500}, hooks{})
			var u *explore.Unsupported
			if errors.As(err, &u) {
				continue // the reference explorer's program
			}
			if err != nil {
				t.Fatal(err)
			}
			if want.Verdict == explore.Unknown {
				continue
			}
			got, err := runHooked(prog, explore.Options{Model: model, KeepGoing: true, Workers: 1, MaxExecutions: 500}, hooks{nativeBudget: 1})
			if err != nil {
				t.Fatal(err)
			}
			fallbacks += got.Stats.Fallbacks
			if got.Stats.Fallbacks != got.Stats.Z3Calls || got.Stats.Native+got.Stats.Fallbacks != got.Stats.SMTQueries {
				t.Errorf("%s %s: stats %+v do not add up", f, model, got.Stats)
			}
			var g, w []string
			for _, o := range got.Outcomes {
				g = append(g, o.State+"|"+o.Violation)
			}
			for _, o := range want.Outcomes {
				w = append(w, o.State+"|"+o.Violation)
			}
			slices.Sort(g)
			slices.Sort(w)
			if !slices.Equal(g, w) || got.Verdict != want.Verdict {
				t.Errorf("%s %s: %s %v, want %s %v", f, model, got.Verdict, g, want.Verdict, w)
			}
		}
	}
	if fallbacks == 0 {
		t.Error("no query fell back to Z3")
	}
	t.Logf("%d fallbacks to Z3", fallbacks)
}

// runHooked runs the mcr explorer with test hooks h.
func runHooked(prog *ir.Program, opts explore.Options, h hooks) (*explore.Result, error) {
	t, err := explore.NewTask(prog, opts)
	if err != nil {
		return nil, err
	}
	return explore.Run(context.Background(), Explorer{hooks: h}, t)
}
