package ncmc

import (
	"context"
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
