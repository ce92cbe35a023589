package svcomp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ncmc/ncmc"
)

func TestReadProperty(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		text string
		name Property
		ok   bool
	}{
		{"CHECK( init(main()), LTL(G ! call(reach_error())) )\n", UnreachCall, true},
		{"CHECK(init(main()),LTL(G ! call(__VERIFIER_error())))", UnreachCall, true},
		{"CHECK( init(main()), LTL(G ! data-race) )\n", NoDataRace, true},
		{"CHECK( init(main()), LTL(G ! overflow) )\n", "p3", false},
		{"hello\n", "", false},
	}
	for i, tc := range tests {
		path := filepath.Join(dir, "p"+strconv.Itoa(i)+".prp")
		os.WriteFile(path, []byte(tc.text), 0o644)
		name, _, err := ReadPropertyFile(path)
		if name != tc.name || (err == nil) != tc.ok {
			t.Errorf("%q: got %q, %v; want %q, ok=%v", tc.text, name, err, tc.name, tc.ok)
		}
	}
}

func TestParseTask(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.c"), []byte("int main(void) { return 0; }\n"), 0o644)
	tests := []struct {
		name, yml string
		file      string // the input file, "" if InputFile fails
		props     []string
		expected  []Answer
	}{
		{"single", "format_version: '2.0'\ninput_files: 'a.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n",
			"a.c", []string{"unreach-call", "no-data-race"}, []Answer{False, True}},
		{"list", "format_version: '1.0'\ninput_files: ['a.*']\nproperties:\n  - property_file: p/unreach-call.prp\n", "a.c", []string{"unreach-call"}, []Answer{""}},
		{"none", "format_version: '2.0'\ninput_files: 'b.c'\n", "", nil, nil},
		{"not-strings", "input_files: [1]\n", "", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			td, err := ParseTask(filepath.Join(dir, tc.name+".yml"), []byte(tc.yml))
			if err != nil {
				t.Fatal(err)
			}
			f, err := td.InputFile()
			if got := filepath.Base(f); (err == nil) != (tc.file != "") || err == nil && got != tc.file {
				t.Errorf("input file %q, %v; want %q", f, err, tc.file)
			}
			if len(td.Properties) != len(tc.props) {
				t.Fatalf("%d properties, want %d", len(td.Properties), len(tc.props))
			}
			for i, p := range td.Properties {
				if p.Name() != tc.props[i] || p.Expected() != tc.expected[i] {
					t.Errorf("property %d: %s %q, want %s %q", i, p.Name(), p.Expected(), tc.props[i], tc.expected[i])
				}
			}
		})
	}
	if _, err := ParseTask("bad.yml", []byte("properties: [")); err == nil || !strings.HasPrefix(err.Error(), "bad.yml: ") {
		t.Errorf("a broken task definition: %v", err)
	}
}

func TestAnswerFor(t *testing.T) {
	race := "data race on x between the write by t1 at p.c:3:1 and the write by t0 at p.c:8:2"
	tests := []struct {
		name string
		res  ncmc.Result
		p    Property
		want Answer
	}{
		{"verified", ncmc.Result{Verdict: ncmc.Verified, Reason: "all executions explored"}, UnreachCall, True},
		{"error call", ncmc.Result{Verdict: ncmc.Violation, Kind: "assertion", Reason: "reach_error() called"}, UnreachCall, False},
		{"error call in an outcome", ncmc.Result{Verdict: ncmc.Violation, Kind: "assertion", Reason: "assertion failed: x",
			Outcomes: []ncmc.Outcome{{Violation: "assertion failed: x"}, {Violation: "__VERIFIER_error() called"}}}, UnreachCall, False},
		{"other violation", ncmc.Result{Verdict: ncmc.Violation, Kind: "assertion", Reason: "assertion failed: x"}, UnreachCall, Unknown},
		{"bound", ncmc.Result{Verdict: ncmc.Unknown, Kind: "unroll", Reason: "bound hit: loop", Stats: ncmc.Stats{BoundHits: 1}}, UnreachCall, Unknown},
		{"race", ncmc.Result{Verdict: ncmc.Violation, Kind: "data-race", Reason: race}, NoDataRace, False},
		{"race is no error call", ncmc.Result{Verdict: ncmc.Violation, Kind: "data-race", Reason: race}, UnreachCall, Unknown},
		{"assertion ends a race-free run", ncmc.Result{Verdict: ncmc.Violation, Kind: "assertion", Reason: "assertion failed: x",
			Outcomes: []ncmc.Outcome{{Violation: "assertion failed: x"}}}, NoDataRace, True},
		{"runtime error", ncmc.Result{Verdict: ncmc.Violation, Kind: "runtime-error", Reason: "runtime error: division by zero",
			Outcomes: []ncmc.Outcome{{Violation: "runtime error: division by zero"}}}, NoDataRace, Unknown},
		{"stopped", ncmc.Result{Verdict: ncmc.Violation, Kind: "assertion", Reason: "assertion failed: x", Stopped: "time bound 1s hit"}, NoDataRace, Unknown},
		{"unsupported", ncmc.Result{Verdict: ncmc.Verified}, "no-overflow", Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, why := AnswerFor(&tc.res, tc.p); got != tc.want {
				t.Errorf("%s: %s (%s), want %s", tc.p, got, why, tc.want)
			}
		})
	}
}

// TestReconcile: the one rule for disagreeing stages.
func TestReconcile(t *testing.T) {
	o := func(stage string, a Answer) *Outcome { return &Outcome{Stage: stage, Answer: a, Reason: "r-" + stage} }
	tests := []struct {
		name      string
		cur, next *Outcome
		want      Answer
		stage     string // whose outcome it is
		log       string
	}{
		{"none beside", o("stateful", True), nil, True, "stateful", ""},
		{"unknown beside", o("stateful", False), o("dpor", Unknown), False, "stateful", ""},
		{"answer beside none", o("stateful", Unknown), o("coverability", True), True, "coverability", "answer from stage coverability: true"},
		{"agree", o("stateful", False), o("pct", False), False, "stateful", ""},
		{"disagree", o("stateful", True), o("dpor", False), Unknown, "stateful", "the explorers disagree: stateful true (r-stateful), dpor false (r-dpor)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			got := reconcile(tc.cur, tc.next, &log)
			if got.Answer != tc.want || got.Stage != tc.stage || !strings.Contains(log.String(), tc.log) {
				t.Errorf("got %s from %s, log %q; want %s from %s, log %q", got.Answer, got.Stage, log.String(), tc.want, tc.stage, tc.log)
			}
			if got.Answer == Unknown && !strings.HasPrefix(got.Reason, "the explorers disagree") {
				t.Errorf("reason %q", got.Reason)
			}
		})
	}
}

// TestStages: the staged strategy as data: every stage may give some
// answer, only the bug hunts run on a share of the time, and no-data-race
// has no bug hunt (PCT does not detect races).
func TestStages(t *testing.T) {
	for _, p := range []Property{UnreachCall, NoDataRace} {
		main := 0
		for _, st := range Stages(p) {
			if len(st.May) == 0 || st.Run == nil || st.Name == "" || st.Doc == "" {
				t.Errorf("%s: stage %q is incomplete", p, st.Name)
			}
			if st.Share != 0 && st.Name != "pct" {
				t.Errorf("%s: stage %s runs on a share of the time", p, st.Name)
			}
			if p == NoDataRace && st.Name == "pct" {
				t.Errorf("no-data-race has a bug hunt")
			}
			if !st.Beside {
				main++
			}
		}
		if main == 0 {
			t.Errorf("%s: no main line", p)
		}
	}
	if Stages("no-overflow") != nil {
		t.Error("an unsupported property has stages")
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		expected, answer Answer
		cat              Category
		score            int
	}{
		{True, True, Correct, 2}, {False, False, Correct, 1}, {True, False, Wrong, -16},
		{False, True, Wrong, -32}, {True, Unknown, NoAnswer, 0}, {"", False, NoExpected, 0},
	}
	for _, tc := range tests {
		if c, s := CategoryOf(tc.expected, tc.answer), Score(tc.expected, tc.answer); c != tc.cat || s != tc.score {
			t.Errorf("expected %q, answer %s: %s %d, want %s %d", tc.expected, tc.answer, c, s, tc.cat, tc.score)
		}
	}
	if MaxScore(True)+MaxScore(False)+MaxScore("") != 3 {
		t.Error("MaxScore")
	}
}
