// Package c11 holds C11 acceptance programs (research note §4.3) written in CIR, with their
// expected verdicts under the memory models; see README.md.
package c11

import (
	"context"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ncmc"
)

// expected verdicts: file, model, verdict, violation kind, substring of the reason
var expected = []struct {
	file, model string
	verdict     ncmc.Verdict
	kind        string
	reason      string
}{
	{"t11a-relseq-fence.cir", "rc11", ncmc.Verified, "", ""},
	{"t11a-relseq-fence.cir", "ra", ncmc.Verified, "", ""},
	{"t11a-relseq-fence.cir", "sc", ncmc.Verified, "", ""},
	{"t11a-nofence.cir", "rc11", ncmc.Violation, "data-race", "data race on d"},
	{"t11a-nofence.cir", "ra", ncmc.Verified, "", ""},
	{"t11a-nofence.cir", "sc", ncmc.Verified, "", ""},
	{"t11b-iriw-sc.cir", "rc11", ncmc.Verified, "", ""},
	{"t11b-iriw-sc.cir", "ra", ncmc.Violation, "assertion", "disagree"},
	{"t11b-iriw-sc.cir", "sc", ncmc.Verified, "", ""},
	{"t11c-sb-scfences.cir", "rc11", ncmc.Verified, "", ""},
	{"t11c-sb-scfences.cir", "ra", ncmc.Verified, "", ""},
	{"t11c-sb-scfences.cir", "tso", ncmc.Verified, "", ""},
	{"t11c-sb-scfences.cir", "sc", ncmc.Verified, "", ""},
	{"t11c-sb-onefence.cir", "rc11", ncmc.Violation, "assertion", "store buffering"},
	{"t11c-sb-onefence.cir", "ra", ncmc.Violation, "assertion", "store buffering"},
	{"t11c-sb-onefence.cir", "tso", ncmc.Violation, "assertion", "store buffering"},
	{"t11c-sb-onefence.cir", "sc", ncmc.Verified, "", ""},
	{"t11d-lb.cir", "rc11", ncmc.Verified, "", ""},
	{"t11d-lb.cir", "ra", ncmc.Verified, "", ""},
	{"t11d-lb.cir", "tso", ncmc.Verified, "", ""},
	{"spsc-buggy.cir", "rc11", ncmc.Violation, "data-race", "data race on Node@t0.1#1.element"},
	{"spsc-buggy.cir", "sc", ncmc.Verified, "", ""},
	{"spsc-fixed.cir", "rc11", ncmc.Violation, "data-race", "data race on Node@t0.1#1.element"},
	{"spsc-fixed.cir", "sc", ncmc.Verified, "", ""},
	{"spsc-fixed2.cir", "rc11", ncmc.Verified, "", ""},
	{"spsc-fixed2.cir", "ra", ncmc.Verified, "", ""},
	{"barrier-spin-na.cir", "rc11", ncmc.Violation, "data-race", "data race on barrier"},
	{"barrier-spin-na.cir", "ra", ncmc.Violation, "data-race", "data race on barrier"},
	{"barrier-spin-na.cir", "sc", ncmc.Verified, "", ""},
	{"barrier-spin-rlx.cir", "rc11", ncmc.Verified, "", ""},
	{"spinning-barrier.cir", "rc11", ncmc.Verified, "", ""},
	{"spinning-barrier.cir", "ra", ncmc.Verified, "", ""},
	{"spinning-barrier.cir", "sc", ncmc.Verified, "", ""},
	{"mcs-lock.cir", "rc11", ncmc.Verified, "", ""},
	{"mcs-lock.cir", "ra", ncmc.Verified, "", ""},
	{"mcs-lock.cir", "sc", ncmc.Verified, "", ""},
	{"mcs-lock-rlx.cir", "rc11", ncmc.Violation, "data-race", "data race on shared"},
	{"mcs-lock-rlx.cir", "ra", ncmc.Verified, "", ""},
	{"chase-lev-buggy.cir", "rc11", ncmc.Violation, "runtime-error", "division by zero"},
	{"chase-lev-buggy.cir", "ra", ncmc.Verified, "", ""},
	{"chase-lev-buggy.cir", "sc", ncmc.Verified, "", ""},
	{"chase-lev-fixed.cir", "rc11", ncmc.Verified, "", ""},
	{"chase-lev-fixed.cir", "ra", ncmc.Verified, "", ""},
	{"chase-lev-fixed.cir", "sc", ncmc.Verified, "", ""},
}

func TestC11Programs(t *testing.T) {
	for _, tc := range expected {
		t.Run(tc.file+"/"+tc.model, func(t *testing.T) {
			if testing.Short() && tc.model == "sc" {
				t.Skip("-short: the sc rows (the slowest; the suite is about ra and rc11)")
			}
			p, err := frontend.LoadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: tc.model})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.verdict || res.Kind != tc.kind || !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("got %s %s %q, want %s %s %q", res.Verdict, res.Kind, res.Reason, tc.verdict, tc.kind, tc.reason)
			}
		})
	}
}
