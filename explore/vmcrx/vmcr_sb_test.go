package vmcrx_test

import (
	"context"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ncmc"
)

// Under tso and pso the default plan explores with vmcr; a program vmcr
// does not support goes to mcr (and on), and the result says why; one with
// condition variables goes to the stateful explorer first.
func TestVMCRDefaultUnderSB(t *testing.T) {
	tests := []struct {
		file, model string
		explorer    string // "" : anything but vmcr
		verdict     ncmc.Verdict
		note        string
	}{
		{"../../examples/sb.cir", "tso", "vmcr", ncmc.Violation, ""},
		{"../../examples/sb.cir", "pso", "vmcr", ncmc.Violation, ""},
		{"../../examples/sb.cir", "sc", "vmcr", ncmc.Verified, ""},
		{"../../examples/mp.cir", "tso", "vmcr", ncmc.Verified, ""},
		{"../../examples/mp.cir", "pso", "vmcr", ncmc.Violation, ""},
		// condition variables: the stateful explorer first (its state
		// cache is much faster on them), vmcr when it does not finish
		{"../../examples/prodcons-condvar.cir", "tso", "stateful", ncmc.Verified, "condition variables: the stateful explorer first"},
		{"../../examples/prodcons-condvar.cir", "pso", "stateful", ncmc.Verified, "condition variables: the stateful explorer first"},
		{"../../examples/hashtable.cir", "tso", "", ncmc.Verified, "vmcr does not support linearizable methods"},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.model, func(t *testing.T) {
			prog, err := frontend.LoadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: tc.model})
			if err != nil {
				t.Fatal(err)
			}
			if tc.explorer != "" && res.Explorer != tc.explorer || tc.explorer == "" && res.Explorer == "vmcr" {
				t.Errorf("explored by %s (note %q)", res.Explorer, res.Note)
			}
			if res.Verdict != tc.verdict {
				t.Errorf("verdict %s (%s), want %s", res.Verdict, res.Reason, tc.verdict)
			}
			if !strings.Contains(res.Note, tc.note) {
				t.Errorf("note %q, want it to say %q", res.Note, tc.note)
			}
		})
	}
}
