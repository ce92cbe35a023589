package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseGenMC(t *testing.T) {
	tests := []struct {
		name              string
		out               string
		complete, blocked int64
		secs              float64
		verdict           string
		wantErr           bool
	}{
		{"plain", "GenMC v0.10.3 (LLVM 16.0.6)\n*** Verification complete.\nNo errors were detected.\nNumber of complete executions explored: 3328\nTotal wall-clock time: 0.18s\n",
			3328, 0, 0.18, "ok", false},
		{"blocked", "*** Verification complete.\nNo errors were detected.\nNumber of complete executions explored: 6\nNumber of blocked executions seen: 25\nTotal wall-clock time: 0.17s\n",
			6, 25, 0.17, "ok", false},
		{"warnings before", "Warning: Unordered writes!\nEvent (3, 3) conflicts with event (2, 3) in graph:\n\n*** Verification complete.\nNo errors were detected.\nNumber of complete executions explored: 66\nTotal wall-clock time: 0.39s\nTip: Threads could benefit from symmetry reduction.\n",
			66, 0, 0.39, "ok", false},
		{"error", "Error detected: Safety violation!\n*** Verification unsuccessful.\nNumber of complete executions explored: 12\nTotal wall-clock time: 0.05s\n",
			12, 0, 0.05, "error", false},
		{"compile failure", "fatal error: 'foo.h' file not found\n", 0, 0, 0, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseGenMC(tc.out)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if c.Complete != tc.complete || c.Blocked != tc.blocked || c.ToolSecs != tc.secs || c.Verdict != tc.verdict {
				t.Errorf("got %+v, want complete %d blocked %d time %v verdict %s", c, tc.complete, tc.blocked, tc.secs, tc.verdict)
			}
		})
	}
}

func TestParseNidhugg(t *testing.T) {
	tests := []struct {
		name              string
		out               string
		complete, blocked int64
		secs              float64
		verdict           string
		wantErr           bool
	}{
		{"plain", "Total wall-clock time: 0.71 s\nTrace count: 3328\nNo errors were detected.\n", 3328, 0, 0.71, "ok", false},
		{"blocked kinds", "Trace count: 6\nAwait-blocked trace count: 2\nAssume-blocked trace count: 19\nSleepset-blocked trace count: 1\nNo errors were detected.\nTotal wall-clock time: 0.20 s\n",
			6, 22, 0.20, "ok", false},
		{"no time", "Trace count: 200\nNo errors were detected.\n", 200, 0, -1, "ok", false},
		{"error", "Trace count: 3\n\n Error detected:\n  (<0.0>,1-3) main.c:4\n", 3, 0, -1, "error", false},
		{"crash", "nidhugg: unknown option --ra\n", 0, 0, 0, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseNidhugg(tc.out)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if c.Complete != tc.complete || c.Blocked != tc.blocked || c.ToolSecs != tc.secs || c.Verdict != tc.verdict {
				t.Errorf("got %+v, want complete %d blocked %d time %v verdict %s", c, tc.complete, tc.blocked, tc.secs, tc.verdict)
			}
		})
	}
}

func TestParseNcmc(t *testing.T) {
	tests := []struct {
		name              string
		out               string
		complete, blocked int64
		vc, rc            int64
		stopped           bool
		noteHas, noteNot  []string
		wantErr           bool
	}{
		{"mcr", `{"file":"w.c","verdict":"verified","reason":"all executions explored","model":"sc","explorer":"mcr","executions":365,"complete":365,"blocked":0,"bound_hits":0,"outcomes":[],"time_ms":1237.022,"seeds":365,"smt_queries":4856,"smt_ms":1863.632,"counterexample":[],"stats":{"executions":365,"complete":365,"blocked":0,"bound_hits":0,"violations":0,"steps":13055,"queue":0,"seeds":365,"smt_queries":4856,"smt_ms":1863.632,"replay_ms":0}}`,
			365, 0, -1, -1, false, []string{"explorer=mcr", "smt_queries=4856", "smt_ms=1864", "seeds=365"}, []string{"steps", "replay_ms", "unknown"}, false},
		{"classes", `{"verdict":"verified","explorer":"reference","complete":7886,"blocked":64230,"classes":{"read_values":5,"rf":6},"time_ms":4482,"stats":{"pruned":3}}`,
			7886, 64230, 5, 6, false, []string{"pruned=3"}, nil, false},
		{"time limit", "note: something\n" + `{"verdict":"unknown","reason":"time limit 1m0s reached","kind":"time","complete":10,"blocked":1,"bound_hits":0,"time_ms":60000,"stats":{}}`,
			10, 1, -1, -1, true, []string{"unknown: time limit"}, nil, false},
		{"bound hit", `{"verdict":"unknown","reason":"bound hit: loop unroll bound 8","kind":"unroll","complete":2560,"blocked":0,"bound_hits":4096,"time_ms":18121,"stats":{}}`,
			2560, 0, -1, -1, false, []string{"bound hits=4096", "unknown: bound hit"}, nil, false},
		{"no json", "w.c:1:1: syntax error\n", 0, 0, -1, -1, false, nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, vc, rc, err := parseNcmc(tc.out)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if c.Complete != tc.complete || c.Blocked != tc.blocked || vc != tc.vc || rc != tc.rc || c.Stopped != tc.stopped {
				t.Errorf("got %+v classes %d/%d, want complete %d blocked %d classes %d/%d stopped %v", c, vc, rc, tc.complete, tc.blocked, tc.vc, tc.rc, tc.stopped)
			}
			for _, s := range tc.noteHas {
				if !strings.Contains(c.Note, s) {
					t.Errorf("note %q lacks %q", c.Note, s)
				}
			}
			for _, s := range tc.noteNot {
				if strings.Contains(c.Note, s) {
					t.Errorf("note %q has %q", c.Note, s)
				}
			}
		})
	}
}

func TestParseArgsFile(t *testing.T) {
	got := parseArgsFile("-disable-ipr -disable-sr   | -DN=2\n\n  | -DN=10 -O1\n-DN=5\n")
	if len(got) != 3 {
		t.Fatalf("got %d lines, want 3: %+v", len(got), got)
	}
	if strings.Join(got[0].GenMC, " ") != "-disable-ipr -disable-sr" || strings.Join(got[0].Defines, " ") != "N=2" {
		t.Errorf("line 1: %+v", got[0])
	}
	if len(got[1].GenMC) != 0 || strings.Join(got[1].Defines, " ") != "N=10" {
		t.Errorf("line 2: %+v", got[1])
	}
	if len(got[2].GenMC) != 0 || strings.Join(got[2].Defines, " ") != "N=5" {
		t.Errorf("line 3 (no '|'): %+v", got[2])
	}
}

func TestNcmcHasDefineFlag(t *testing.T) {
	tests := []struct {
		help string
		want bool
	}{
		{"Flags:\n  -h, --help    Show help.\n      --model=\"sc\"    Memory model\n", false},
		{"Flags:\n  -h, --help    Show help.\n  -D, --define=NAME=VALUE,...   Preprocessor definition\n", true},
		{"Flags:\n      --deadline   a -D inside text is not a flag\n", false},
	}
	for _, tc := range tests {
		if got := ncmcHasDefineFlag(tc.help); got != tc.want {
			t.Errorf("ncmcHasDefineFlag(%q) = %v, want %v", tc.help, got, tc.want)
		}
	}
}

// writeTarball writes a gzipped tar of files (path → text) to p.
func writeTarball(t *testing.T, p string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, text := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(text)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tinyFiles is a GenMC-style synthetic test: N threads each add 1 to an
// atomic, so a thread reads one of N values: N! value classes.
var tinyFiles = map[string]string{
	"genmc-x/tests/correct/synthetic/tiny/tiny.c":            "atomic_int x;\n\nvoid *thr(void *arg)\n{\n\tatomic_fetch_add_explicit(&x, 1, memory_order_relaxed);\n\treturn NULL;\n}\n",
	"genmc-x/tests/correct/synthetic/tiny/variants/tiny0.c":  "#include <pthread.h>\n#include <stdatomic.h>\n#include <genmc.h>\n\n#include \"../tiny.c\"\n\nint main()\n{\n\tpthread_t t[N];\n\tfor (int i = 0; i < N; i++)\n\t\tpthread_create(&t[i], NULL, thr, NULL);\n\treturn 0;\n}\n",
	"genmc-x/tests/correct/synthetic/tiny/args.sc.mo.in":     "-disable-sr | -DN=2\n-disable-sr | -DN=3\n",
	"genmc-x/tests/correct/synthetic/tiny/args.rc11.mo.in":   " | -DN=2\n | -DN=3\n",
	"genmc-x/tests/correct/synthetic/tiny/expected.sc.mo.in": "2\n6\n2\n6\n",
	"genmc-x/src/main.cpp":                                   "not extracted\n",
}

func TestGenMCProgramsAndWrapper(t *testing.T) {
	dir := t.TempDir()
	tb := filepath.Join(dir, "g.tar.gz")
	writeTarball(t, tb, tinyFiles)
	synth, err := extractSynthetic(tb, filepath.Join(dir, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x", "genmc-x", "src", "main.cpp")); err == nil {
		t.Errorf("extracted a file outside tests/correct/synthetic")
	}
	suite := []genmcTest{{"tiny", "tiny0.c", [][]string{{"N=3"}, {"N=4"}}, [][]string{{"N=2"}}}}
	tests := []struct {
		model string
		quick bool
		want  []string // label: GenMC flags (expected count)
	}{
		{"sc", false, []string{"tiny N=3: -disable-sr (6)", "tiny N=4: -disable-sr (-1)"}},
		{"sc", true, []string{"tiny N=2: -disable-sr (2)"}},
		{"tso", true, []string{"tiny N=2: -disable-sr (-1)"}},         // no tso file: sc's flags, no expected count
		{"ra", false, []string{"tiny N=3:  (-1)", "tiny N=4:  (-1)"}}, // rc11's
	}
	for _, tc := range tests {
		ps, err := genmcPrograms(synth, suite, tc.model, tc.quick, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, fmt.Sprintf("%s: %s (%d)", p.Label, strings.Join(p.GenMC, " "), p.Expected))
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s quick=%v: got %q, want %q", tc.model, tc.quick, got, tc.want)
		}
	}
	ps, _ := genmcPrograms(synth, suite, "sc", false, map[string]bool{"tiny:N=4": true})
	if len(ps) != 1 || ps[0].Label != "tiny N=4" {
		t.Fatalf("selection tiny:N=4 gave %+v", ps)
	}
	for _, hasD := range []bool{false, true} {
		src, extra, err := ncmcSource(ps[0], hasD)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := os.ReadFile(src)
		// The program includes <genmc.h>: always a wrapper, -D or not.
		if len(extra) != 0 || !strings.Contains(string(text), "#define N 4\n") || strings.Contains(string(text), "#include <genmc.h>\n") ||
			!strings.Contains(string(text), "void __VERIFIER_assume(int);") || filepath.Dir(src) != filepath.Dir(ps[0].File) {
			t.Errorf("hasD=%v: wrapper %s (extra %q):\n%s", hasD, src, extra, text)
		}
	}
	plain := program{Label: "p N=4", File: filepath.Join(dir, "p.c"), Defines: []string{"N=4"}, Anchors: true}
	if err := os.WriteFile(plain.File, []byte("int main() { return N; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, extra, _ := ncmcSource(plain, true); src != plain.File || strings.Join(extra, " ") != "-D N=4" {
		t.Errorf("with -D: %s %q, want the file itself and -D N=4", src, extra)
	}
}

func TestFormatRows(t *testing.T) {
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	m := measured{ValueClass: 200, RFClass: 200, Rows: []row{
		{Tool: "GenMC -sc", Anchor: "genmc", Run: runResult{Wall: sec(0.5), MaxRSSKB: 92 * 1024}, C: counts{Complete: 1200, ToolSecs: 0.4}},
		{Tool: "Nidhugg --sc --rf", Anchor: "nidhugg", Run: runResult{Wall: sec(1)}, C: counts{Complete: 200, ToolSecs: -1}},
		{Tool: "ncmc", Run: runResult{Wall: sec(2)}, C: counts{Complete: 400, Blocked: 3, ToolSecs: 1.5, Note: "a|b"}},
		{Tool: "ncmc slow", Run: runResult{Wall: sec(60)}, C: counts{Complete: 10}, TimedOut: true},
		{Tool: "ncmc broken", Err: "bad input: x.c:1:1: oops"},
		{Tool: "ncmc --explorer reference --classes", Classes: true, Run: runResult{Wall: sec(3)}, C: counts{Complete: 9000, ToolSecs: 2}},
	}}
	got := formatRows(program{Label: "casw N=4", Expected: 1200}, m)
	want := []string{
		"| casw N=4 | GenMC -sc | 1,200 | 0 | 200 | 6.00 | 0.50 | 0.40 | 92 | — | 0.50 | = GenMC's expected count |",
		"| casw N=4 | Nidhugg --sc --rf | 200 | 0 | 200 | 1.00 | 1.00 | — | — | 2.00 | — |  |",
		"| casw N=4 | ncmc | 400 | 3 | 200 | 2.00 | 2.00 | 1.50 | — | 4.00 | 2.00 | a\\|b |",
		"| casw N=4 | ncmc slow | ≥10 | ≥0 | 200 | — | time-out | — | — | >120 | >60 | |",
		"| casw N=4 | ncmc broken | — | — | 200 | — | — | — | — | — | — | error: bad input: x.c:1:1: oops |",
		"| casw N=4 | ncmc --explorer reference --classes | 9,000 | 0 | 200 | 45.00 | 3.00 | 2.00 | — | — | — | |",
	}
	low := measured{ValueClass: 12, Rows: []row{{Tool: "ncmc", Run: runResult{Wall: sec(1)}, C: counts{Complete: 10, Verdict: "verified"}}}}
	if s := formatRows(program{Label: "hashtable.cir", Expected: -1}, low); !strings.Contains(s, "FEWER EXECUTIONS THAN VALUE CLASSES") {
		t.Errorf("fewer executions than classes not flagged:\n%s", s)
	}
	m.Rows[0].C.Complete = 1199
	if s := formatRows(program{Label: "casw N=4", Expected: 1200}, m); !strings.Contains(s, "GenMC's expected count is 1,200!") {
		t.Errorf("a GenMC count different from the expected one is not flagged:\n%s", s)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d rows:\n%s", len(lines), got)
	}
	for i := range want {
		if strings.Join(strings.Fields(lines[i]), " ") != strings.Join(strings.Fields(want[i]), " ") {
			t.Errorf("row %d:\n got %s\nwant %s", i, lines[i], want[i])
		}
	}
}

// TestCompareTiny runs the whole program without anchors on one CIR
// example and on the tiny synthetic test (from a generated tarball), with
// an ncmc built from this checkout.
func TestCompareTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ncmc")
	}
	root, err := findRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ncmc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/ncmc")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tb := filepath.Join(dir, "g.tar.gz")
	writeTarball(t, tb, tinyFiles)
	cfg, err := parseFlags([]string{"-quick", "-models", "sc", "-explorers", "default,ncmc", "-programs", "tiny,sb",
		"-ncmc", bin, "-anchors", filepath.Join(dir, "none"), "-tarball", tb, "-out", filepath.Join(dir, "out.md")})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Root = root
	cfg.Suite = []genmcTest{{"tiny", "tiny0.c", nil, [][]string{{"N=3"}}}}
	var stdout, stderr bytes.Buffer
	if err := compare(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, s := range []string{
		"GenMC not found", "Nidhugg not found", "load average at start: ", "#### model sc",
		// sb: 3 value classes; the ncmc explorer explores exactly those.
		"| sb.cir | ncmc --explorer ncmc | 3 | 0 | 3 | 1.00 |",
		"| tiny N=3 | ncmc --explorer reference --classes |",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	// tiny N=3: 3! = 6 orders of the increments, each its own class. The
	// 32-bit increments are one RMW each (ir.IntWrap): no blocked execution.
	if !strings.Contains(out, "| tiny N=3 | ncmc --explorer ncmc | 6 | 0 | 6 | 1.00 |") {
		t.Errorf("output lacks the tiny N=3 row of the ncmc explorer with 6 executions, 0 blocked, 6 classes:\n%s", out)
	}
	if strings.Contains(out, "error:") {
		t.Errorf("a run failed:\n%s", out)
	}
	written, err := os.ReadFile(filepath.Join(dir, "out.md"))
	if err != nil || !strings.Contains(string(written), "| sb.cir | ncmc --explorer ncmc | 3 |") {
		t.Errorf("-out file: %v\n%s", err, written)
	}
}

// TestMedianRun: the run with the median wall time, unfinished runs last.
func TestMedianRun(t *testing.T) {
	r := func(wall time.Duration, timedOut bool) row {
		return row{Tool: "x", Run: runResult{Wall: wall}, TimedOut: timedOut}
	}
	tests := []struct {
		rs   []row
		want time.Duration
	}{
		{[]row{r(3, false), r(1, false), r(2, false)}, 2},
		{[]row{r(1, true), r(5, false), r(4, false)}, 5},
		{[]row{r(9, false)}, 9},
		{[]row{r(4, false), r(2, false)}, 2},
		{[]row{r(1, true), r(2, true), r(7, false)}, 1}, // two of three timed out: the median did
	}
	for i, tc := range tests {
		if got := medianRun(tc.rs).Run.Wall; got != tc.want {
			t.Errorf("case %d: median wall %v, want %v", i, got, tc.want)
		}
	}
}
