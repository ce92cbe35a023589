package svcomp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	cfront "ncmc/frontend/c"
	"ncmc/ncmc"
)

// The SV-COMP tasks of ../shared/bench/svcomp: every task whose expected
// verdict is known is translated and checked for unreach-call with one
// explorer and modest bounds (the end-to-end check of the C front end and
// the explorers; the staged strategy is TestLibraryMatchesCLI's and the
// sweep's); the test fails on any wrong verdict (unknown is allowed) and
// logs how many are correct. -svcomp.long uses larger bounds and a longer
// timeout per task; -short a shorter timeout.
var (
	svcompDir      = flag.String("svcomp.dir", "../../shared/bench/svcomp", "directory of the SV-COMP tasks")
	svcompLong     = flag.Bool("svcomp.long", false, "check the SV-COMP tasks with larger bounds (minutes)")
	svcompExplorer = flag.String("svcomp.explorer", "reference", "explorer for the SV-COMP tasks")
	svcompOnly     = flag.String("svcomp.only", "", "check only tasks whose name contains this")
)

func TestSVCOMP(t *testing.T) {
	ymls, _ := filepath.Glob(filepath.Join(*svcompDir, "*", "*.yml"))
	if len(ymls) == 0 {
		t.Skipf("no SV-COMP tasks under %s", *svcompDir)
	}
	sort.Strings(ymls)
	unroll, timeout := 5, 3*time.Second
	switch {
	case *svcompLong:
		unroll, timeout = 12, 60*time.Second
	case testing.Short():
		timeout = 500 * time.Millisecond
	}
	type row struct{ task, prop, want, got, why string }
	var rows []row
	translated, correct, wrong, known := 0, 0, 0, 0
	start := time.Now()
	for _, y := range ymls {
		name := strings.TrimSuffix(filepath.Base(y), ".yml")
		if *svcompOnly != "" && !strings.Contains(name, *svcompOnly) {
			continue
		}
		task, err := ReadTask(y)
		if err != nil {
			t.Fatal(err)
		}
		file, err := task.InputFile()
		if err != nil {
			t.Fatal(err)
		}
		prog, cerr := Load(file, task.Options.DataModel, UnreachCall)
		var u *cfront.Unsupported
		switch {
		case cerr == nil:
			translated++
		case errors.As(cerr, &u):
		default:
			t.Errorf("%s: the C front end rejects a valid task: %v", name, cerr)
			continue
		}
		for _, p := range task.Properties {
			if p.ExpectedVerdict == nil {
				continue
			}
			known++
			prop, want := p.Name(), string(p.Expected())
			r := row{task: name, prop: prop, want: want, got: "unknown"}
			switch {
			case cerr != nil:
				r.why = "unsupported: " + u.Reason()
			case prop != "unreach-call":
				r.why = "property not checked (no data-race detection yet)"
			default:
				opts := ncmc.Options{Explorer: *svcompExplorer, Unroll: unroll, Timeout: timeout, Workers: 1}
				res, err := ncmc.Verify(context.Background(), prog, opts)
				if err == nil && res.Verdict == ncmc.Violation && !UnreachCall.Violates(res.Kind, res.Reason) {
					// Another violation came first: look for an error call
					// among all outcomes.
					opts.KeepGoing = true
					res, err = ncmc.Verify(context.Background(), prog, opts)
				}
				if err != nil {
					r.why = "checker error: " + err.Error()
					break
				}
				a, _ := AnswerFor(res, UnreachCall)
				r.got, r.why = string(a), res.Reason
			}
			switch {
			case r.got == "unknown":
			case r.got == want:
				correct++
			default:
				wrong++
				t.Errorf("WRONG VERDICT: %s %s: got %s, expected %s (%s)", name, prop, r.got, want, r.why)
			}
			rows = append(rows, r)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "SV-COMP tasks (explorer %s, unroll %d, timeout %s per task):\n", *svcompExplorer, unroll, timeout)
	for _, r := range rows {
		mark := " "
		switch {
		case r.got == "unknown":
			mark = "?"
		case r.got == r.want:
			mark = "+"
		default:
			mark = "!"
		}
		why := r.why
		if i := strings.IndexByte(why, '\n'); i >= 0 {
			why = why[:i]
		}
		if len(why) > 110 {
			why = why[:110] + "..."
		}
		fmt.Fprintf(&b, "  %s %-28s %-13s want %-5s got %-7s %s\n", mark, r.task, r.prop, r.want, r.got, why)
	}
	fmt.Fprintf(&b, "%d task files translated; %d of %d (task, property) pairs with a known verdict answered correctly, %d wrong, in %s",
		translated, correct, known, wrong, time.Since(start).Round(time.Second))
	t.Log(b.String())
}
