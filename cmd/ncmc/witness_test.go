package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ncmc/svcomp"
)

// witnessProg is a small SV-COMP-style task: the error is reached only if
// the second thread's increment runs between the first thread's read and
// write.
const witnessProg = `#include <pthread.h>
extern void abort(void);
void reach_error() {}
int x;
void *inc(void *arg) {
  int t = x;
  x = t + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) { reach_error(); abort(); }
  return 0;
}
`

// witnessSafe is the same task with the increment under a mutex.
const witnessSafe = `#include <pthread.h>
extern void abort(void);
void reach_error() {}
int x;
pthread_mutex_t m;
void *inc(void *arg) {
  pthread_mutex_lock(&m);
  int t = x;
  x = t + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) { reach_error(); abort(); }
  return 0;
}
`

// validateWitness parses a GraphML violation witness back and checks its
// structure against the format (1.0) and the program: it returns the
// problems found.
func validateWitness(t *testing.T, path, program string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d svcomp.GraphML
	if err := xml.Unmarshal(raw, &d); err != nil {
		return []string{"not XML: " + err.Error()}
	}
	var bad []string
	if d.XMLNS != "http://graphml.graphdrawing.org/xmlns" {
		bad = append(bad, "wrong namespace "+d.XMLNS)
	}
	declared := map[string]string{}
	for _, k := range d.Keys {
		declared[k.ID] = k.For
	}
	use := func(data []svcomp.GraphMLData, kind string) map[string]string {
		m := map[string]string{}
		for _, x := range data {
			if declared[x.Key] != kind {
				bad = append(bad, "data key "+x.Key+" not declared for "+kind)
			}
			m[x.Key] = x.Value
		}
		return m
	}
	graph := use(d.Graph.Data, "graph")
	for _, k := range []string{"witness-type", "sourcecodelang", "producer", "specification", "programfile", "programhash", "architecture", "creationtime"} {
		if graph[k] == "" {
			bad = append(bad, "graph data "+k+" missing")
		}
	}
	if graph["witness-type"] != "violation_witness" {
		bad = append(bad, "witness-type "+graph["witness-type"])
	}
	if a := graph["architecture"]; a != "32bit" && a != "64bit" {
		bad = append(bad, "architecture "+a)
	}
	if spec := graph["specification"]; !strings.HasPrefix(spec, "CHECK(") && !strings.HasPrefix(spec, "ncmc: ") {
		bad = append(bad, "specification "+spec)
	}
	src, _ := os.ReadFile(program)
	sum := sha256.Sum256(src)
	if graph["programhash"] != hex.EncodeToString(sum[:]) {
		bad = append(bad, "programhash "+graph["programhash"]+" is not the SHA-256 of "+program)
	}
	lines := strings.Split(string(src), "\n")
	// Nodes: one entry node, the violation node last; edges: a path.
	nodes := map[string]map[string]string{}
	for _, n := range d.Graph.Nodes {
		nodes[n.ID] = use(n.Data, "node")
	}
	if len(nodes) != len(d.Graph.Edges)+1 {
		bad = append(bad, "nodes and edges do not form a path")
	}
	entries, violations := 0, 0
	for id, m := range nodes {
		if m["entry"] == "true" {
			entries++
			if id != d.Graph.Nodes[0].ID {
				bad = append(bad, "entry node is not the first")
			}
		}
		if m["violation"] == "true" {
			violations++
			if id != d.Graph.Nodes[len(d.Graph.Nodes)-1].ID {
				bad = append(bad, "violation node is not the last")
			}
		}
	}
	if entries != 1 || violations != 1 {
		bad = append(bad, "want one entry and one violation node, got "+strconv.Itoa(entries)+" and "+strconv.Itoa(violations))
	}
	at := d.Graph.Nodes[0].ID
	live := map[string]bool{"0": true} // thread ids created so far
	fresh := map[string]bool{}         // created threads that have not moved yet
	for i, e := range d.Graph.Edges {
		m := use(e.Data, "edge")
		if e.Source != at || nodes[e.Target] == nil {
			bad = append(bad, "edge "+strconv.Itoa(i)+" does not continue the path")
		}
		at = e.Target
		tid := m["threadId"]
		if !live[tid] {
			bad = append(bad, "edge "+strconv.Itoa(i)+": thread "+tid+" moves before it is created")
		}
		if fresh[tid] {
			if m["enterFunction"] == "" {
				bad = append(bad, "edge "+strconv.Itoa(i)+": first step of thread "+tid+" without enterFunction")
			}
			delete(fresh, tid)
		} else if m["enterFunction"] != "" {
			bad = append(bad, "edge "+strconv.Itoa(i)+": enterFunction on a later step")
		}
		ln, err := strconv.Atoi(m["startline"])
		if err != nil || ln < 1 || ln > len(lines) {
			bad = append(bad, "edge "+strconv.Itoa(i)+": bad startline "+m["startline"])
			continue
		}
		if c := m["createThread"]; c != "" {
			if live[c] {
				bad = append(bad, "edge "+strconv.Itoa(i)+": thread "+c+" created twice")
			}
			live[c], fresh[c] = true, true
			if !strings.Contains(lines[ln-1], "pthread_create") && !strings.Contains(lines[ln-1], "spawn") {
				bad = append(bad, "edge "+strconv.Itoa(i)+": createThread at line "+m["startline"]+" which creates no thread")
			}
		}
	}
	return bad
}

func TestWitness(t *testing.T) {
	dir := t.TempDir()
	unsafe := filepath.Join(dir, "unsafe.c")
	safe := filepath.Join(dir, "safe.c")
	prp := filepath.Join(dir, "unreach-call.prp")
	race := filepath.Join(dir, "no-data-race.prp")
	os.WriteFile(unsafe, []byte(witnessProg), 0o644)
	os.WriteFile(safe, []byte(witnessSafe), 0o644)
	os.WriteFile(prp, []byte(svcomp.UnreachCallSpec+"\n"), 0o644)
	os.WriteFile(race, []byte("CHECK( init(main()), LTL(G ! data-race) )\n"), 0o644)
	overflow := filepath.Join(dir, "no-overflow.prp")
	os.WriteFile(overflow, []byte("CHECK( init(main()), LTL(G ! overflow) )\n"), 0o644)
	tests := []struct {
		name    string
		args    []string
		program string
		code    int
		verdict string // the VERDICT line
		witness bool
		arch    string
		spec    string // the specification's prefix
	}{
		{"violation ILP32", []string{"--property", prp}, unsafe, 1, "VERDICT: FALSE(unreach-call)", true, "32bit", "CHECK( init(main()), LTL(G ! call(reach_error())) )"},
		{"violation LP64", []string{"--property", prp, "--data-model", "LP64"}, unsafe, 1, "VERDICT: FALSE(unreach-call)", true, "64bit", "CHECK( init(main()), LTL(G ! call(reach_error())) )"},
		{"violation mcr", []string{"--property", prp, "--explorer", "mcr"}, unsafe, 1, "VERDICT: FALSE(unreach-call)", true, "32bit", "CHECK("},
		{"no property", nil, unsafe, 1, "", true, "32bit", "CHECK( init(main()), LTL(G ! call(reach_error())) )"},
		{"cir assertion", nil, "../../examples/peterson-buggy.cir", 1, "", true, "32bit", "ncmc: assertion"},
		{"safe", []string{"--property", prp}, safe, 0, "VERDICT: TRUE", false, "", ""},
		{"bound hit", []string{"--property", prp, "--max-executions", "1", "--explorer", "reference"}, safe, 3, "VERDICT: UNKNOWN (execution bound 1", false, "", ""},
		{"data race", []string{"--property", race}, unsafe, 1, "VERDICT: FALSE(no-data-race)", false, "", ""},
		{"no data race", []string{"--property", race}, safe, 0, "VERDICT: TRUE", false, "", ""},
		{"unsupported property", []string{"--property", overflow}, safe, 3, "VERDICT: UNKNOWN (", false, "", ""},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "w"+strconv.Itoa(i)+".graphml")
			args := append([]string{"verify", "--witness", out}, tc.args...)
			code, stdout, stderr := runCLI(t, append(args, tc.program)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if tc.verdict != "" {
				lines := strings.Split(strings.TrimSpace(stdout), "\n")
				if last := lines[len(lines)-1]; !strings.HasPrefix(last, tc.verdict) {
					t.Errorf("last line %q, want %q", last, tc.verdict)
				}
			}
			_, err := os.Stat(out)
			if !tc.witness {
				if err == nil {
					t.Errorf("a witness was written for a non-violation")
				}
				return
			}
			if err != nil {
				t.Fatalf("no witness: %v\n%s", err, stderr)
			}
			for _, p := range validateWitness(t, out, tc.program) {
				t.Error(p)
			}
			raw, _ := os.ReadFile(out)
			if !strings.Contains(string(raw), "<data key=\"architecture\">"+tc.arch+"<") {
				t.Errorf("architecture is not %s", tc.arch)
			}
			if !strings.Contains(string(raw), "<data key=\"specification\">"+tc.spec) {
				t.Errorf("specification does not start with %s", tc.spec)
			}
			if strings.HasSuffix(tc.program, ".c") {
				// Two threads created, the error reached by the main thread.
				for _, want := range []string{`<data key="createThread">1</data>`, `<data key="createThread">2</data>`, `<data key="enterFunction">inc</data>`, `<data key="sourcecodelang">C</data>`} {
					if !strings.Contains(string(raw), want) {
						t.Errorf("witness lacks %s", want)
					}
				}
				var d svcomp.GraphML
				xml.Unmarshal(raw, &d)
				last := d.Graph.Edges[len(d.Graph.Edges)-1]
				for _, x := range last.Data {
					if x.Key == "startline" && x.Value != "16" {
						t.Errorf("last edge at line %s, want 16 (the reach_error call)", x.Value)
					}
				}
			}
		})
	}
}

// TestWitnessValidator checks that the validator of the tests rejects
// broken witnesses.
func TestWitnessValidator(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.c")
	os.WriteFile(prog, []byte(witnessProg), 0o644)
	good := filepath.Join(dir, "good.graphml")
	if code, out, errs := runCLI(t, "verify", "-q", "--witness", good, prog); code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	raw, _ := os.ReadFile(good)
	if p := validateWitness(t, good, prog); len(p) > 0 {
		t.Fatalf("good witness rejected: %v", p)
	}
	tests := []struct {
		name, old, new, want string
	}{
		{"hash", `<data key="programhash">`, `<data key="programhash">00`, "programhash"},
		{"thread before creation", `<data key="createThread">2</data>`, `<data key="createThread">3</data>`, "before it is created"},
		{"no violation node", `<data key="violation">true</data>`, ``, "one violation node"},
		{"undeclared key", `<data key="threadId">0</data>`, `<data key="thread">0</data>`, "not declared"},
		{"missing producer", `<data key="producer">`, `<data key="producerx">`, "producer missing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(raw), tc.old) {
				t.Fatalf("witness lacks %s", tc.old)
			}
			path := filepath.Join(dir, tc.name+".graphml")
			os.WriteFile(path, []byte(strings.Replace(string(raw), tc.old, tc.new, 1)), 0o644)
			p := validateWitness(t, path, prog)
			if !strings.Contains(strings.Join(p, "\n"), tc.want) {
				t.Errorf("problems %v, want one with %q", p, tc.want)
			}
		})
	}
}

// TestSweepWitness: a sweep writes a witness for each false answer, and
// none for a true one.
func TestSweepWitness(t *testing.T) {
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks")
	props := filepath.Join(dir, "properties")
	os.MkdirAll(tasks, 0o755)
	os.MkdirAll(props, 0o755)
	os.WriteFile(filepath.Join(props, "unreach-call.prp"), []byte(svcomp.UnreachCallSpec+"\n"), 0o644)
	for name, src := range map[string]string{"unsafe": witnessProg, "safe": witnessSafe} {
		os.WriteFile(filepath.Join(tasks, name+".c"), []byte(src), 0o644)
		yml := "format_version: '2.0'\ninput_files: '" + name + ".c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: " +
			strconv.FormatBool(name == "safe") + "\noptions:\n  language: C\n  data_model: LP64\n"
		os.WriteFile(filepath.Join(tasks, name+".yml"), []byte(yml), 0o644)
	}
	out := filepath.Join(dir, "out")
	if code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, tasks); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	w := filepath.Join(out, "tasks-unsafe.graphml")
	for _, p := range validateWitness(t, w, filepath.Join(tasks, "unsafe.c")) {
		t.Error(p)
	}
	raw, _ := os.ReadFile(w)
	if !strings.Contains(string(raw), `<data key="architecture">64bit</data>`) {
		t.Error("the task's data model LP64 is not in the witness")
	}
	if _, err := os.Stat(filepath.Join(out, "tasks-safe.graphml")); err == nil {
		t.Error("a witness was written for a true answer")
	}
}
