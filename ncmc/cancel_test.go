package ncmc

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"ncmc/frontend"
)

// lateCtx is a context whose Err turns to Canceled at its after-th call:
// it ends the exploration at a chosen point of the explorer's own checks.
type lateCtx struct {
	context.Context
	calls, after int64
	done         chan struct{}
	closed       atomic.Bool
}

func (c *lateCtx) Err() error {
	if atomic.AddInt64(&c.calls, 1) >= c.after {
		if c.closed.CompareAndSwap(false, true) {
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

func (c *lateCtx) Done() <-chan struct{} { return c.done }

// TestCancelNeverVerified: an exploration whose context ends at any point
// never answers verified for a program with a violation. The dpor explorer
// once did: its race analysis returned early at the end of the context,
// the search found no backtrack point and claimed that every execution had
// been explored (a wrong "true" in the SV-COMP portfolio when another stage
// answered first and cancelled it).
func TestCancelNeverVerified(t *testing.T) {
	// 16 threads: a run has more than 64 steps, so the explorers' periodic
	// checks of the context (every 64 steps in dpor's race analysis) come
	// into play.
	var sb strings.Builder
	sb.WriteString("global x: int;\nfn inc() { let r = x; x = r + 1; }\nfn main() {\n")
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&sb, "    let h%d = spawn inc();\n", i)
	}
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&sb, "    join(h%d);\n", i)
	}
	sb.WriteString("    assert(x == 16, \"lost update\");\n}\n")
	src := sb.String()
	prog, err := frontend.ParseCIR("lost.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ explorer, model string }{
		{"reference", "sc"}, {"stateful", "sc"}, {"dpor", "sc"}, {"ncmc", "sc"},
		{"vmcr", "sc"}, {"vmcr", "tso"}, {"mcr", "sc"}, {"trust", "rc11"}, {"graph", "rc11"},
	}
	for _, c := range cases {
		t.Run(c.explorer+"/"+c.model, func(t *testing.T) {
			for after := int64(1); after < 300; after++ {
				ctx := &lateCtx{Context: context.Background(), after: after, done: make(chan struct{})}
				res, err := Verify(ctx, prog, Options{Explorer: c.explorer, Model: c.model, Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict == Verified {
					t.Fatalf("context ended at its check %d: verified (%s), %d executions", after, res.Reason, res.Stats.Executions)
				}
				if res.Verdict == Unknown && res.Kind != "time" {
					t.Fatalf("context ended at its check %d: %s/%s (%s)", after, res.Verdict, res.Kind, res.Reason)
				}
			}
			res, err := Verify(context.Background(), prog, Options{Explorer: c.explorer, Model: c.model, Workers: 1})
			if err != nil || res.Verdict != Violation {
				t.Fatalf("without cancellation: %v %v", res, err)
			}
		})
	}
}
