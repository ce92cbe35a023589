package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodCorrection = `corrections:
  - task: lie
    property: unreach-call
    task_says: true
    correct: false
    reason: the program calls reach_error after a racy increment
    evidence: ["by hand"]
`

func TestLoadCorrectionsErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"not a mapping", "- a\n", "c.yaml:1:1: expected a mapping"},
		{"unknown top key", "fixes: []\n", "c.yaml:1:1: unknown key \"fixes\""},
		{"not a list", "corrections: 3\n", "c.yaml:1:14: 'corrections' must be a list"},
		{"entry not a mapping", "corrections:\n  - 3\n", "c.yaml:2:5: a correction must be a mapping"},
		{"unknown key", strings.Replace(goodCorrection, "reason:", "why:", 1), "c.yaml:6:5: unknown key \"why\""},
		{"missing reason", strings.Replace(goodCorrection, "    reason: the program calls reach_error after a racy increment\n", "", 1), "c.yaml:2:5: the correction lacks \"reason\""},
		{"bad verdict", strings.Replace(goodCorrection, "correct: false", "correct: maybe", 1), "c.yaml:5:14: \"correct\" must be true or false, not \"maybe\""},
		{"same verdicts", strings.Replace(goodCorrection, "correct: false", "correct: true", 1), "nothing to correct"},
		{"duplicate key", strings.Replace(goodCorrection, "    evidence", "    task: x\n    evidence", 1), "c.yaml:7:5: duplicate key \"task\""},
		{"duplicate entry", goodCorrection + strings.TrimPrefix(goodCorrection, "corrections:\n"), "c.yaml:8:5: a second correction for lie unreach-call (the first is at "},
		{"evidence not strings", strings.Replace(goodCorrection, `["by hand"]`, `[{a: b}]`, 1), "c.yaml:7:16: 'evidence' must be a list of strings"},
		{"syntax", "corrections: [\n", "c.yaml: "},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(dir, "c.yaml")
			os.WriteFile(f, []byte(tc.src), 0o644)
			_, err := loadCorrections(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	f := filepath.Join(dir, "c.yaml")
	os.WriteFile(f, []byte(goodCorrection), 0o644)
	cs, err := loadCorrections(f)
	if err != nil || len(cs.entries) != 1 {
		t.Fatalf("good file: %v", err)
	}
	c := cs.entries[[2]string{"lie", "unreach-call"}]
	if c == nil || c.TaskSays != "true" || c.Correct != "false" || len(c.Evidence) != 1 || !strings.HasSuffix(c.Pos, "c.yaml:2:5") {
		t.Errorf("parsed %+v", c)
	}
}

// TestSweepCorrections: a correction adds corrected totals beside the
// task-file totals (which stay as they are) and decides the exit code; a
// correction that no longer fits its task file is reported, not applied;
// a broken corrections file is bad input.
func TestSweepCorrections(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	writeTask(t, dir, "lie", racy, "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n")
	corr := filepath.Join(dir, "corrections.yaml")
	os.WriteFile(corr, []byte(goodCorrection), 0o644)
	code, stdout, stderr := runCLI(t, "sweep", "--out", out, "--corrections", corr, filepath.Join(dir, "lie.yml"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"1 (task, property) pairs: 0 correct, 1 wrong, 0 unknown; score -16 of 2",
		"with 1 correction(s) from " + corr + ": 1 correct, 0 wrong, 0 unknown; score 1 of 1",
		"corrected expectation false: the program calls reach_error",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	f, _ := os.Open(filepath.Join(out, "results.csv"))
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 2 || strings.Join(rows[1][2:6], " ") != "true false wrong -16" || strings.Join(rows[1][11:14], " ") != "false correct 1" || rows[1][14] != "sc" {
		t.Errorf("results.csv: %v %q", err, rows)
	}
	var js struct {
		Summary sweepSummary `json:"summary"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &js); err != nil || js.Summary.Wrong != 1 || js.Summary.WithCorrections == nil || js.Summary.WithCorrections.Wrong != 0 || js.Summary.WithCorrections.Applied != 1 {
		t.Errorf("results.json: %v %+v", err, js.Summary)
	}
	if h, _ := os.ReadFile(filepath.Join(out, "summary.html")); !strings.Contains(string(h), "corrected: false, correct with it") {
		t.Errorf("summary.html does not mark the corrected row")
	}

	// The task file now says what the correction expected it to say not:
	// the correction is stale and not applied.
	writeTask(t, dir, "lie", racy, "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n")
	code, stdout, stderr = runCLI(t, "sweep", "-q", "--out", out, "--corrections", corr, filepath.Join(dir, "lie.yml"))
	if code != 0 || !strings.Contains(stderr, "already says false; the correction is no longer needed") ||
		!strings.Contains(stdout, "with 0 correction(s)") {
		t.Errorf("stale correction: exit %d\n%s\n%s", code, stdout, stderr)
	}

	os.WriteFile(corr, []byte("corrections:\n  - task: lie\n"), 0o644)
	code, _, stderr = runCLI(t, "sweep", "--out", out, "--corrections", corr, filepath.Join(dir, "lie.yml"))
	if code != exitBadInput || !strings.Contains(stderr, corr+":2:5: the correction lacks \"property\"") {
		t.Errorf("broken file: exit %d, %s", code, stderr)
	}
}

// TestShippedCorrections: the corrections shipped with ncmc parse and
// still fit the task files of ../shared/bench/svcomp.
func TestShippedCorrections(t *testing.T) {
	cs, err := loadCorrections("../../benchmarks/svcomp/corrections.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for key, c := range cs.entries {
		yml := filepath.Join("../../../shared/bench/svcomp/more", key[0]+".yml")
		if _, err := os.Stat(yml); err != nil {
			t.Skipf("../shared/bench not beside the checkout: %v", err)
		}
		units := loadUnits([]string{yml})
		found := false
		for _, u := range units {
			if u.res.Property == key[1] {
				found = true
				if u.res.Expected != c.TaskSays {
					t.Errorf("%s: the task file says %q now, the correction expects %s", c.Pos, u.res.Expected, c.TaskSays)
				}
			}
		}
		if !found {
			t.Errorf("%s: %s has no property %s", c.Pos, yml, key[1])
		}
	}
}

func FuzzLoadCorrections(f *testing.F) {
	f.Add(goodCorrection)
	f.Add("corrections: []\n")
	f.Add("corrections:\n  - {task: a, property: b, task_says: true, correct: false, reason: c}\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		p := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Skip()
		}
		cs, err := loadCorrections(p)
		if err == nil && cs == nil {
			t.Fatal("no corrections and no error")
		}
		if err != nil && !strings.HasPrefix(err.Error(), p) {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}
