package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runTestCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, false)
	return code, out.String(), errb.String()
}

// ncmc test finds the bug of a buggy example with every strategy, saves a
// schedule, and --replay reproduces it exactly; a tampered schedule is
// rejected.
func TestTestCommandFindsAndReplays(t *testing.T) {
	dir := t.TempDir()
	for _, strategy := range []string{"pct", "random", "cbdpor", "chess"} {
		sched := filepath.Join(dir, strategy+".sched")
		code, out, errs := runTestCLI(t, "test", "../../examples/deadlock-abba.cir", "--strategy", strategy, "--seed", "3", "--save-schedule", sched)
		if code != exitViolation || !strings.Contains(out, "BUG FOUND (deadlock") {
			t.Fatalf("%s: exit %d\n%s%s", strategy, code, out, errs)
		}
		code, out, errs = runTestCLI(t, "test", "../../examples/deadlock-abba.cir", "--replay", sched)
		if code != exitViolation || !strings.Contains(out, "replayed") || !strings.Contains(out, "deadlock") {
			t.Fatalf("%s replay: exit %d\n%s%s", strategy, code, out, errs)
		}
	}
	// Tamper with the schedule: drop its last token.
	text, err := os.ReadFile(filepath.Join(dir, "pct.sched"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	toks := strings.Fields(lines[len(lines)-1])
	lines[len(lines)-1] = strings.Join(toks[:len(toks)-1], " ")
	bad := filepath.Join(dir, "bad.sched")
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	code, out, errs := runTestCLI(t, "test", "../../examples/deadlock-abba.cir", "--replay", bad)
	if code != exitBadInput || !strings.Contains(errs, "diverged") {
		t.Fatalf("tampered replay: exit %d\n%s%s", code, out, errs)
	}
}

// --json gives one object with the guarantee and the schedule.
func TestTestCommandJSON(t *testing.T) {
	code, out, errs := runTestCLI(t, "test", "../../examples/peterson-buggy.cir", "--strategy", "pct", "--depth", "3", "--runs", "2000", "--seed", "1", "--json")
	if code != exitViolation {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v["bug_found"] != true || v["schedule"] == "" || v["pct"] == nil || v["guarantee"] == "" {
		t.Fatalf("unexpected JSON: %s", out)
	}
	// A correct program: no bug, exit 3 (unknown) for pct, 0 for an exhaustive cbdpor.
	code, out, _ = runTestCLI(t, "test", "../../examples/peterson.cir", "--strategy", "pct", "--runs", "200", "-q")
	if code != exitUnknown || !strings.Contains(out, "NO BUG FOUND") {
		t.Fatalf("pct on peterson.cir: exit %d: %s", code, out)
	}
	code, out, _ = runTestCLI(t, "test", "../../examples/peterson.cir", "--strategy", "cbdpor", "--preemptions", "10", "-q")
	if code != exitVerified || !strings.Contains(out, "VERIFIED") {
		t.Fatalf("cbdpor on peterson.cir: exit %d: %s", code, out)
	}
}
