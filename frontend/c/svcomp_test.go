package c

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"ncmc/ncmc"
)

// The SV-COMP tasks of ../shared/bench/svcomp: every task whose expected
// verdict is known is translated and checked with modest bounds; the test
// fails on any wrong verdict (unknown is allowed) and logs how many are
// correct. -svcomp.long uses larger bounds and a longer timeout per task.
var (
	svcompDir      = flag.String("svcomp.dir", "../../../shared/bench/svcomp", "directory of the SV-COMP tasks")
	svcompLong     = flag.Bool("svcomp.long", false, "check the SV-COMP tasks with larger bounds (minutes)")
	svcompExplorer = flag.String("svcomp.explorer", "reference", "explorer for the SV-COMP tasks")
	svcompOnly     = flag.String("svcomp.only", "", "check only tasks whose name contains this")
)

// svTask is a task-definition file (format 2.0).
type svTask struct {
	InputFiles any `yaml:"input_files"`
	Properties []struct {
		PropertyFile    string `yaml:"property_file"`
		ExpectedVerdict *bool  `yaml:"expected_verdict"`
	} `yaml:"properties"`
	Options struct {
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// unreachCall maps a result to the answer for SV-COMP's unreach-call
// property: "false" if some execution calls an error function, "true" if
// every execution was explored without any violation and without hitting a
// bound, else "unknown" (other violations, such as a failed assert() or a
// runtime error, say nothing about reach_error).
func unreachCall(res *ncmc.Result) string {
	for _, o := range res.Outcomes {
		if IsErrorCall(o.Violation) {
			return "false"
		}
	}
	if res.Verdict == ncmc.Violation && IsErrorCall(res.Reason) {
		return "false"
	}
	if res.Verdict == ncmc.Verified {
		return "true"
	}
	return "unknown"
}

func TestSVCOMP(t *testing.T) {
	ymls, _ := filepath.Glob(filepath.Join(*svcompDir, "*", "*.yml"))
	if len(ymls) == 0 {
		t.Skipf("no SV-COMP tasks under %s", *svcompDir)
	}
	sort.Strings(ymls)
	unroll, timeout := 5, 3*time.Second
	if *svcompLong {
		unroll, timeout = 12, 60*time.Second
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
		data, err := os.ReadFile(y)
		if err != nil {
			t.Fatal(err)
		}
		var task svTask
		if err := yaml.Unmarshal(data, &task); err != nil {
			t.Fatalf("%s: %v", y, err)
		}
		input, ok := task.InputFiles.(string)
		if !ok {
			t.Fatalf("%s: input_files is not a single file", y)
		}
		file := filepath.Join(filepath.Dir(y), input)
		dm := DataModel(task.Options.DataModel)
		if dm == "" {
			dm = ILP32
		}
		prog, cerr := CompileFile(file, Options{DataModel: dm})
		var u *Unsupported
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
			prop := strings.TrimSuffix(filepath.Base(p.PropertyFile), ".prp")
			want := fmt.Sprint(*p.ExpectedVerdict)
			r := row{task: name, prop: prop, want: want, got: "unknown"}
			switch {
			case cerr != nil:
				r.why = "unsupported: " + u.Reason()
			case prop != "unreach-call":
				r.why = "property not checked (no data-race detection yet)"
			default:
				opts := ncmc.Options{Explorer: *svcompExplorer, Unroll: unroll, Timeout: timeout, Workers: 1}
				res, err := ncmc.Verify(context.Background(), prog, opts)
				if err == nil && res.Verdict == ncmc.Violation && !IsErrorCall(res.Reason) {
					// Another violation came first: look for an error call
					// among all outcomes.
					opts.KeepGoing = true
					res, err = ncmc.Verify(context.Background(), prog, opts)
				}
				if err != nil {
					r.why = "checker error: " + err.Error()
					break
				}
				r.got = unreachCall(res)
				r.why = res.Reason
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
