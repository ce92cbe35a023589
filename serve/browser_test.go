package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// findBrowser returns the path of a Chromium (or Chrome) binary, or "".
func findBrowser() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// pageState is what the browser test reads off the page.
type pageState struct {
	Model string `json:"model"`
	// Cells maps "state|model" to the table cell's class.
	Cells map[string]string `json:"cells"`
	// Pictures maps each execution picture's outcome to its edges, and
	// Forbidden each explanation picture's outcome to its edges.
	Pictures  map[string][]string `json:"pictures"`
	Forbidden map[string][]string `json:"forbidden"`
	Command   string              `json:"command"`
	Permalink string              `json:"permalink"`
	Errors    []string            `json:"errors"`
}

const readState = `(() => {
  const edges = (div) => [...div.querySelectorAll("g.edge")].map((g) =>
    g.dataset.from + " -" + g.dataset.rel + "-> " + g.dataset.to + (g.dataset.hl === "1" ? " *" : ""));
  const s = { model: document.querySelector("#models .selected").dataset.model, cells: {}, pictures: {}, forbidden: {},
    command: document.getElementById("command").textContent, permalink: document.getElementById("permalink").href,
    errors: [...document.querySelectorAll("#errors li")].map((li) => li.textContent) };
  for (const tr of document.querySelectorAll("#outcomes tr[data-state]"))
    for (const td of tr.querySelectorAll("td[data-model]"))
      s.cells[tr.dataset.state + "|" + td.dataset.model] = td.classList.contains("allowed") ? "allowed" : "forbidden";
  for (const d of document.querySelectorAll("#executions .picture")) s.pictures[d.dataset.outcome] = edges(d);
  for (const d of document.querySelectorAll("#explanations .picture")) s.forbidden[d.dataset.outcome] = edges(d);
  return JSON.stringify(s);
})()`

// TestBrowser drives the page in headless Chromium: it loads SB and MP,
// switches models, and checks the outcome table, the edges of the
// pictures and the positioned errors; it saves screenshots to
// $SERVE_SCREENSHOTS (default: a directory under the system's temporary
// directory).
func TestBrowser(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		t.Skip("no Chromium found (install Debian's chromium package; `make test` does when it can, or set CHROMIUM): browser test skipped")
	}
	shots := os.Getenv("SERVE_SCREENSHOTS")
	if shots == "" {
		shots = filepath.Join(os.TempDir(), "ncmc-serve-screenshots")
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(Config{Dirs: []string{"../examples"}}))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1400, 1250))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()

	state := func() pageState {
		t.Helper()
		var js string
		if err := chromedp.Run(ctx, chromedp.Evaluate(readState, &js)); err != nil {
			t.Fatal(err)
		}
		var s pageState
		if err := json.Unmarshal([]byte(js), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	ready := func(model, example string) chromedp.Action {
		return chromedp.WaitReady(fmt.Sprintf(`body[data-ready="%s:%s"]`, model, example), chromedp.ByQuery)
	}
	shot := func(name, sel string) {
		t.Helper()
		var png []byte
		var act chromedp.Action = chromedp.CaptureScreenshot(&png) // the window
		if sel != "" {
			act = chromedp.Screenshot(sel, &png, chromedp.ByQuery)
		}
		if err := chromedp.Run(ctx, act); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(shots, name+".png")
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", p)
	}
	click := func(sel string) chromedp.Action { return chromedp.Click(sel, chromedp.ByQuery) }
	checkCells := func(s pageState, outcome string, want map[string]string) {
		t.Helper()
		for m, w := range want {
			if got := s.Cells[outcome+"|"+m]; got != w {
				t.Errorf("%s under %s: %q, want %q", outcome, m, got, w)
			}
		}
	}
	checkEdges := func(what string, have []string, want ...string) {
		t.Helper()
		if have == nil {
			t.Errorf("%s: no picture", what)
			return
		}
		if miss := hasAll(have, want...); len(miss) > 0 {
			t.Errorf("%s: picture lacks edges %v; has %v", what, miss, have)
		}
	}

	// SB under tso: r0=r0=0 allowed, with its picture; then under sc:
	// forbidden, with the cycle highlighted
	sbID, sb := "../examples/litmus/SB.litmus", "0:r0=0; 1:r0=0;"
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?example="+sbID+"&model=tso"), ready("tso", sbID)); err != nil {
		t.Fatal(err)
	}
	s := state()
	checkCells(s, sb, map[string]string{"sc": "forbidden", "tso": "allowed", "pso": "allowed", "ra": "allowed", "rc11": "allowed"})
	checkEdges("SB under tso", s.Pictures[sb], "a -po-> b *", "init y -rf-> b", "b -fr-> c *", "c -po-> d *", "init x -rf-> d", "d -fr-> a *")
	if !strings.Contains(s.Command, "ncmc litmus --model tso") || !strings.Contains(s.Permalink, "model=tso") {
		t.Errorf("command %q, permalink %q", s.Command, s.Permalink)
	}
	shot("sb-tso", "")

	if err := chromedp.Run(ctx, click("#model-sc"), ready("sc", sbID)); err != nil {
		t.Fatal(err)
	}
	s = state()
	if s.Model != "sc" || s.Pictures[sb] != nil {
		t.Errorf("model %s; picture of the forbidden outcome under sc: %v", s.Model, s.Pictures[sb])
	}
	checkEdges("SB under sc, forbidden", s.Forbidden[sb], "a -po-> b *", "b -fr-> c *", "c -po-> d *", "d -fr-> a *", "init x -co-> a")
	shot("sb-sc", "")
	shot("sb-sc-forbidden", "#explanations .picture svg")

	// MP from the menu: r0=1, r1=0 forbidden under sc and tso, allowed
	// under pso (writes reordered) and rc11 (relaxed accesses)
	mpID, mp := "../examples/litmus/MP.litmus", "1:r0=1; 1:r1=0;"
	if err := chromedp.Run(ctx,
		chromedp.SetValue("#menu", mpID, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("menu").dispatchEvent(new Event("change"))`, nil),
		ready("sc", mpID), click("#model-tso"), ready("tso", mpID)); err != nil {
		t.Fatal(err)
	}
	s = state()
	checkCells(s, mp, map[string]string{"sc": "forbidden", "tso": "forbidden", "pso": "allowed", "ra": "forbidden", "rc11": "allowed"})
	checkEdges("MP under tso, forbidden", s.Forbidden[mp], "a -po-> b *", "b -rf-> c *", "c -po-> d *", "d -fr-> a *")
	shot("mp-tso", "")
	shot("mp-tso-forbidden", "#explanations .picture svg")
	if err := chromedp.Run(ctx, click(`#outcomes td[data-model="pso"]`), ready("pso", mpID)); err != nil {
		t.Fatal(err)
	}
	s = state()
	checkEdges("MP under pso", s.Pictures[mp], "a -po-> b", "b -rf-> c", "c -po-> d", "init x -rf-> d", "d -fr-> a")
	shot("mp-pso", "")

	// a syntax error is shown with its position
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`(() => { const e = document.getElementById("editor");
		  e.value = e.value.replace("int r1 = ", "int r1 = = "); e.dispatchEvent(new Event("input")); })()`, nil),
		click("#run"), chromedp.WaitVisible("#errors li", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	s = state()
	if len(s.Errors) == 0 || !strings.Contains(s.Errors[0], "input.litmus:13:12:") {
		t.Errorf("errors %q, want one at input.litmus:13:12", s.Errors)
	}
}
