package ncmc

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestDeadlineStopsLongExecution: a thread that spawns itself forever makes
// one execution of 100,000 steps (about 20 s); --timeout must end it
// inside the execution (Config.Deadline), not after it.
func TestDeadlineStopsLongExecution(t *testing.T) {
	p := compileCIR(t, "selfspawn.cir", `
global x: int;
fn t() { x = x + 1; let h = spawn t(); }
fn main() { let h = spawn t(); }
`)
	for _, explorer := range []string{"auto", "reference", "stateful"} {
		start := time.Now()
		res, err := Verify(context.Background(), p, Options{Explorer: explorer, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); res.Verdict != Unknown || took > 8*time.Second {
			t.Errorf("%s: %s (%s) after %s, want unknown soon after the 1s bound", explorer, res.Verdict, res.Reason, took)
		}
	}
}

// TestThreadBound: a program that spawns threads forever ends every
// explorer's execution at the thread bound (Options.MaxThreads), as a
// bound hit with the bound named, instead of growing until memory runs out.
func TestThreadBound(t *testing.T) {
	p := compileCIR(t, "selfspawn.cir", `
global x: int;
fn t() { x = x + 1; let h = spawn t(); }
fn main() { let h = spawn t(); }
`)
	for _, c := range []struct{ model, explorer string }{
		{"sc", "auto"}, {"sc", "reference"}, {"sc", "stateful"}, {"sc", "mcr"}, {"sc", "vmcr"},
		{"tso", "auto"}, {"ra", "auto"}, {"rc11", "graph"},
	} {
		res, err := Verify(context.Background(), p, Options{Model: c.model, Explorer: c.explorer, MaxThreads: 40, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("%s/%s: %v", c.model, c.explorer, err)
		}
		if res.Verdict != Unknown || !strings.Contains(res.Reason, "thread bound 40 hit") {
			t.Errorf("%s/%s: %s (%s), want unknown at the thread bound 40", c.model, c.explorer, res.Verdict, res.Reason)
		}
	}
}
