package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func readExample(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var edgeRE = regexp.MustCompile(`<g class="edge" data-rel="([^"]*)" data-from="([^"]*)" data-to="([^"]*)" data-hl="([01])" data-relaxed="([01])">`)

// edges lists the edges of an SVG picture as "from -rel-> to", with a "*"
// for highlighted ones and a "~" for relaxed ones.
func edges(svg string) []string {
	var out []string
	for _, m := range edgeRE.FindAllStringSubmatch(svg, -1) {
		s := m[2] + " -" + m[1] + "-> " + m[3]
		if m[4] == "1" {
			s += " *"
		}
		if m[5] == "1" {
			s += " ~"
		}
		out = append(out, s)
	}
	return out
}

func hasAll(have []string, want ...string) []string {
	// "x -r-> y" matches a highlighted or relaxed edge too, "x -r-> y *"
	// only a highlighted one
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
		set[h] = true
		h = strings.TrimSuffix(h, " ~")
		set[h] = true
		set[strings.TrimSuffix(h, " *")] = true
	}
	var missing []string
	for _, w := range want {
		if !set[w] {
			missing = append(missing, w)
		}
	}
	return missing
}

// cell returns the table entry of the row with state under model.
func cell(t *testing.T, r *Response, state, model string) Cell {
	t.Helper()
	for _, row := range r.Outcomes {
		if row.State == state {
			return row.Cells[model]
		}
	}
	t.Fatalf("no outcome %q in %+v", state, r.Outcomes)
	return Cell{}
}

// dumpSVG writes the pictures of r to $SERVE_SVG_OUT (for looking at them).
func dumpSVG(t *testing.T, name string, r *Response) {
	dir := os.Getenv("SERVE_SVG_OUT")
	if dir == "" {
		return
	}
	for i, p := range r.Executions {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%s-%d.svg", name, r.Model, i+1)), []byte(p.SVG), 0o644)
	}
	for i, e := range r.Explanations {
		if e.Picture != nil {
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%s-forbidden-%d.svg", name, r.Model, i+1)), []byte(e.Picture.SVG), 0o644)
		}
	}
}

func TestAnalyzeLitmus(t *testing.T) {
	sb := "0:r0=0; 1:r0=0;"
	mp := "1:r0=1; 1:r1=0;"
	sbx := "0:EAX=0; 1:EAX=0;"
	tests := []struct {
		file, model, state string
		// allowed lists the models that allow state
		allowed []string
		// forbiddenEdges must be in the explanation's picture when the
		// model forbids state; allowedEdges in some execution's picture
		// otherwise
		edges []string
		axiom string
	}{
		{"examples/litmus/SB.litmus", "sc", sb, []string{"tso", "pso", "ra", "rc11"},
			[]string{"a -po-> b *", "b -fr-> c *", "c -po-> d *", "d -fr-> a *", "init x -rf-> d", "init x -co-> a"}, "sc"},
		{"examples/litmus/SB.litmus", "tso", sb, []string{"tso", "pso", "ra", "rc11"},
			[]string{"a -po-> b * ~", "c -po-> d * ~", "b -fr-> c *", "init y -rf-> b"}, ""},
		{"examples/litmus/MP.litmus", "tso", mp, []string{"pso", "rc11"},
			[]string{"a -po-> b *", "b -rf-> c *", "c -po-> d *", "d -fr-> a *"}, "tso"},
		{"examples/litmus/MP.litmus", "pso", mp, []string{"pso", "rc11"},
			[]string{"a -po-> b * ~", "b -rf-> c *", "d -fr-> a *"}, ""},
		{"examples/litmus/MP+rel+acq.litmus", "ra", mp, []string{"pso"},
			[]string{"b -sw-> c", "d -fr-> a *"}, "coherence"},
		{"examples/litmus/MP+rel+acq.litmus", "rc11", mp, []string{"pso"},
			[]string{"b -sw-> c", "d -fr-> a *"}, "coherence"},
		{"examples/litmus/SB+mfences.x86.litmus", "tso", sbx, nil, nil, ""},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file)+"/"+tc.model, func(t *testing.T) {
			r, err := Analyze(context.Background(), Request{Source: readExample(t, tc.file), Name: tc.file, Model: tc.model}, DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %+v", r.Errors)
			}
			dumpSVG(t, strings.TrimSuffix(filepath.Base(tc.file), ".litmus"), r)
			if len(tc.allowed) == 0 && len(tc.edges) == 0 {
				// the outcome is in no model's table
				for _, row := range r.Outcomes {
					if row.State == tc.state {
						t.Fatalf("%s reached: %+v", tc.state, row)
					}
				}
				return
			}
			for _, m := range Models {
				c := cell(t, r, tc.state, m)
				if want := contains(tc.allowed, m); c.Allowed != want || (c.Executions > 0) != want {
					t.Errorf("%s under %s: allowed %v (%d executions), want %v", tc.state, m, c.Allowed, c.Executions, want)
				}
			}
			if want := fmt.Sprintf("ncmc litmus --model %s --explain --graphs graphs %s", tc.model, tc.file); r.Command != want {
				t.Errorf("command %q, want %q", r.Command, want)
			}
			if contains(tc.allowed, tc.model) {
				if len(r.Explanations) != 0 {
					t.Errorf("explanations for allowed outcome: %+v", r.Explanations)
				}
				var found bool
				for _, p := range r.Executions {
					if p.Outcome == tc.state && len(hasAll(edges(p.SVG), tc.edges...)) == 0 {
						found = true
					}
				}
				if !found {
					t.Errorf("no picture of %s with edges %v", tc.state, tc.edges)
				}
				return
			}
			var ex *Explanation
			for i := range r.Explanations {
				if r.Explanations[i].Outcome == tc.state {
					ex = &r.Explanations[i]
				}
			}
			if ex == nil || ex.Picture == nil {
				t.Fatalf("no explanation with a picture of %s: %+v", tc.state, r.Explanations)
			}
			if ex.Axiom != tc.axiom || !strings.Contains(ex.Cycle, "cycle") {
				t.Errorf("axiom %q cycle %q, want axiom %q", ex.Axiom, ex.Cycle, tc.axiom)
			}
			if miss := hasAll(edges(ex.Picture.SVG), tc.edges...); len(miss) > 0 {
				t.Errorf("picture lacks %v; has %v", miss, edges(ex.Picture.SVG))
			}
			for _, p := range r.Executions {
				if p.Outcome == tc.state {
					t.Errorf("a picture of the forbidden outcome %s", tc.state)
				}
			}
		})
	}
}

func TestAnalyzeCIR(t *testing.T) {
	r, err := Analyze(context.Background(), Request{Source: readExample(t, "examples/sb.cir"), Name: "examples/sb.cir", Model: "sc"}, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Errors) > 0 || r.Kind != "cir" {
		t.Fatalf("kind %q errors %+v", r.Kind, r.Errors)
	}
	bad := "x=1; y=1; r1=0; r2=0;"
	var row *Row
	for i := range r.Outcomes {
		if r.Outcomes[i].State == bad {
			row = &r.Outcomes[i]
		}
	}
	if row == nil || row.Error == "" {
		t.Fatalf("no failing outcome %q: %+v", bad, r.Outcomes)
	}
	for _, m := range Models {
		if want := m != "sc"; row.Cells[m].Allowed != want {
			t.Errorf("%s under %s: allowed %v, want %v", bad, m, row.Cells[m].Allowed, want)
		}
	}
	if len(r.Executions) != 3 || r.Summary[0].Verdict != "verified" || r.Summary[1].Verdict != "violation" {
		t.Errorf("%d pictures, summary %+v", len(r.Executions), r.Summary)
	}
	if len(r.Explanations) != 1 || r.Explanations[0].Axiom != "sc" || r.Explanations[0].Picture == nil ||
		!strings.HasPrefix(r.Explanations[0].Outcome, bad+" [assertion failed") {
		t.Errorf("explanations %+v", r.Explanations)
	} else if miss := hasAll(edges(r.Explanations[0].Picture.SVG), "h -po-> i *", "i -fr-> l *", "l -po-> m *", "m -fr-> h *", "j -rf-> e"); len(miss) > 0 {
		t.Errorf("explanation's picture lacks %v; has %v", miss, edges(r.Explanations[0].Picture.SVG))
	}
	if r.Command != "ncmc verify --model sc examples/sb.cir" {
		t.Errorf("command %q", r.Command)
	}
	// the picture bound
	lim := DefaultLimits
	lim.MaxPictures = 2
	for _, kind := range []string{"examples/sb.cir", "examples/litmus/SB.litmus"} {
		r, err = Analyze(context.Background(), Request{Source: readExample(t, kind), Name: kind, Model: "tso"}, lim)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Executions) != 2 || r.Omitted != 2 {
			t.Errorf("%s: %d pictures, %d omitted; want 2 and 2", kind, len(r.Executions), r.Omitted)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	tests := []struct {
		name, kind, src string
		line, col       int
		msg             string
	}{
		{"bad.litmus", "", "C bad\n{ }\nP0 (int* x) {\n  *x = ;\n}\nexists (x=1)\n", 4, 8, "expected"},
		{"bad.cir", "", "global x: int;\nfn main() {\n  x = ;\n}\n", 3, 7, "expected"},
		{"", "cir", "fn main() { y = 1; }\n", 1, 13, "y"},
	}
	for _, tc := range tests {
		t.Run(tc.name+tc.kind, func(t *testing.T) {
			r, err := Analyze(context.Background(), Request{Source: tc.src, Name: tc.name, Kind: tc.kind}, DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Errors) == 0 {
				t.Fatal("no error")
			}
			e := r.Errors[0]
			if e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error %+v, want %d:%d containing %q", e, tc.line, tc.col, tc.msg)
			}
		})
	}
	if _, err := Analyze(context.Background(), Request{Source: "x", Model: "arm"}, DefaultLimits); err == nil {
		t.Error("unknown model accepted")
	}
}

func post(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+"/api/run", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

func TestServerAPI(t *testing.T) {
	srv := httptest.NewServer(New(Config{Dirs: []string{"../examples/litmus"}, MaxSource: 2000, Timeout: 20 * time.Second}))
	defer srv.Close()
	sb := readExample(t, "examples/litmus/SB.litmus")

	// menu and example
	resp, err := http.Get(srv.URL + "/api/examples")
	if err != nil {
		t.Fatal(err)
	}
	var menu []Example
	if err := json.NewDecoder(resp.Body).Decode(&menu); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ids := map[string]bool{}
	for _, e := range menu {
		ids[e.ID] = true
	}
	if !ids["../examples/litmus/SB.litmus"] || !ids["../examples/litmus/MP.litmus"] {
		t.Fatalf("menu %+v", menu)
	}
	for _, tc := range []struct {
		id   string
		code int
	}{{"../examples/litmus/SB.litmus", 200}, {"../examples/litmus/../sb.cir", 404}, {"/etc/passwd", 404}} {
		resp, err := http.Get(srv.URL + "/api/example?id=" + tc.id)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("example %s: status %d, want %d", tc.id, resp.StatusCode, tc.code)
		}
	}

	for _, tc := range []struct {
		name string
		body any
		code int
	}{
		{"ok", Request{Source: sb, Model: "tso"}, 200},
		{"bad model", Request{Source: sb, Model: "arm"}, 400},
		{"bad kind", Request{Source: sb, Kind: "java"}, 400},
		{"unknown field", map[string]string{"source": sb, "modle": "sc"}, 400},
		{"too big", Request{Source: strings.Repeat(" ", 3000) + sb}, 413},
		{"way too big", Request{Source: strings.Repeat(" ", 10000) + sb}, 413},
	} {
		code, out := post(t, srv.URL, tc.body)
		if code != tc.code {
			t.Errorf("%s: status %d, want %d (%v)", tc.name, code, tc.code, out["error"])
		}
	}

	// concurrent requests are independent: each gets its own model's answer
	var wg sync.WaitGroup
	models := []string{"sc", "tso", "ra", "sc", "tso", "ra"}
	got := make([]map[string]any, len(models))
	for i, m := range models {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, got[i] = post(t, srv.URL, Request{Source: sb, Model: m})
		}()
	}
	wg.Wait()
	for i, m := range models {
		n := len(got[i]["executions"].([]any))
		want := map[string]int{"sc": 3, "tso": 4, "ra": 4}[m]
		if got[i]["model"] != m || n != want {
			t.Errorf("request %d: model %v with %d executions, want %s with %d", i, got[i]["model"], n, m, want)
		}
	}
}

func TestServerBounds(t *testing.T) {
	// a program with many executions: the execution bound and the time
	// bound stop it, and the answer says so
	var b strings.Builder
	b.WriteString("C many\n{ }\n")
	for p := 0; p < 4; p++ {
		fmt.Fprintf(&b, "P%d (atomic_int* x) {\n", p)
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&b, "  atomic_store_explicit(x, %d, memory_order_relaxed);\n  int r%d = atomic_load_explicit(x, memory_order_relaxed);\n", p*10+i+1, i)
		}
		b.WriteString("}\n")
	}
	b.WriteString("exists (x=1)\n")
	src := b.String()
	for _, tc := range []struct {
		name    string
		cfg     Config
		maxTime time.Duration
		want    string
	}{
		{"executions", Config{Limits: Limits{MaxExecutions: 50}}, 20 * time.Second, "execution bound 50 hit"},
		{"time", Config{Timeout: 300 * time.Millisecond}, 10 * time.Second, "cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(New(tc.cfg))
			defer srv.Close()
			start := time.Now()
			code, out := post(t, srv.URL, Request{Source: src, Model: "rc11"})
			if d := time.Since(start); d > tc.maxTime {
				t.Errorf("took %v", d)
			}
			if code != 200 {
				t.Fatalf("status %d: %v", code, out["error"])
			}
			if inc, _ := out["incomplete"].(string); !strings.Contains(inc, tc.want) {
				t.Errorf("incomplete %q, want it to contain %q", inc, tc.want)
			}
			if ex, _ := out["explanations"].([]any); len(ex) != 0 {
				t.Errorf("%d explanations of outcomes an incomplete exploration did not reach", len(ex))
			}
		})
	}
}

// TestAnalyzeX86 checks the explanation of a condition no model reaches
// and herd's x86 labels (no C11 orders) under tso, C11 orders under rc11.
func TestAnalyzeX86(t *testing.T) {
	src := readExample(t, "examples/litmus/SB+mfences.x86.litmus")
	for _, tc := range []struct {
		model, axiom string
		labels       []string
	}{
		{"tso", "tso", []string{">a: W x=1<", ">b: MFENCE<", ">c: R y=0<"}},
		{"rc11", "", []string{">a: W(rel) x=1<", ">b: F(sc)<", ">c: R(acq) y=0<"}},
	} {
		r, err := Analyze(context.Background(), Request{Source: src, Model: tc.model}, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Explanations) != 1 || r.Explanations[0].Picture == nil {
			t.Fatalf("%s: explanations %+v", tc.model, r.Explanations)
		}
		ex := r.Explanations[0]
		if !strings.HasPrefix(ex.Outcome, "the condition exists") || (tc.axiom != "" && ex.Axiom != tc.axiom) {
			t.Errorf("%s: explanation of %q by axiom %q", tc.model, ex.Outcome, ex.Axiom)
		}
		for _, l := range tc.labels {
			if !strings.Contains(ex.Picture.SVG, l) {
				t.Errorf("%s: no label %q in the picture", tc.model, l)
			}
		}
	}
}
