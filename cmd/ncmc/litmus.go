package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"ncmc/frontend/litmus"
	"ncmc/herd"
	"ncmc/memmodel"
	"ncmc/seg"
)

type litmusCmd struct {
	Files         []string      `arg:"" help:"Litmus tests in herd's C, X86 or X86_64 format (.litmus)." type:"path"`
	Model         string        `help:"Memory model: ${models_help}." default:"sc" enum:"${models}"`
	JSON          bool          `name:"json" help:"Print one JSON object per test per line."`
	Explain       bool          `help:"For a forbidden condition, say which axiom of the model forbids each execution that would satisfy it, with a cycle of events."`
	Graphs        string        `help:"Write one DOT file per execution (and per explained forbidden execution) to this directory, herd-style; also SVG when graphviz's dot is installed." type:"path"`
	Operational   bool          `help:"Explore ${operational_help} with the interpreter's interleavings and store buffers instead of graph exploration (same outcomes; slower)."`
	MaxExecutions int           `name:"max-executions" help:"Stop exploring a test after N executions (0: no limit); the verdict is then marked incomplete." default:"0"`
	Timeout       time.Duration `help:"Wall-clock limit per test, e.g. 30s (0: none); a test that hits it is reported incomplete and the exit code is 3 (unknown)." default:"0"`
}

func (c *litmusCmd) run(e *env) int {
	if m, err := memmodel.Lookup(c.Model); c.Operational && (err != nil || !m.Operational()) {
		fmt.Fprintf(e.stderr, "ncmc: --operational exists only for %s\n", strings.Join(memmodel.Operational(), ", "))
		return exitBadInput
	}
	if !checkFlags(e.stderr, nonNegative("--max-executions", c.MaxExecutions), nonNegativeDuration("--timeout", c.Timeout)) {
		return exitBadInput
	}
	if c.Graphs != "" {
		if err := os.MkdirAll(c.Graphs, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	}
	code := exitVerified
	enc := json.NewEncoder(e.stdout)
	for i, file := range c.Files {
		src, err := os.ReadFile(file)
		var t *litmus.Test
		if err == nil {
			t, err = litmus.Parse(file, src)
		}
		if err != nil {
			fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
			code = exitBadInput
			continue
		}
		ctx, cancel := e.ctx, context.CancelFunc(func() {})
		if c.Timeout > 0 {
			ctx, cancel = context.WithTimeout(e.ctx, c.Timeout)
		}
		res, err := runBounded(ctx, t, herd.Options{Model: c.Model, Operational: c.Operational, Explain: c.Explain,
			Graphs: c.Graphs != "", MaxExecutions: c.MaxExecutions})
		timedOut := ctx.Err() != nil && e.ctx.Err() == nil
		cancel()
		if err == nil && timedOut {
			if res.Incomplete == "" {
				res.Incomplete = fmt.Sprintf("--timeout %s hit", c.Timeout)
			}
			if code == exitVerified {
				code = exitUnknown
			}
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %s: %v\n", file, err)
			code = exitBadInput
			continue
		}
		if c.Graphs != "" {
			if err := c.writeGraphs(e, t, res); err != nil {
				fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
				code = exitBadInput
			}
		}
		if c.JSON {
			if err := enc.Encode(res); err != nil {
				fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
				return exitBadInput
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		printLitmus(e.stdout, t, res)
	}
	return code
}

// abandonGrace is how long runBounded waits, after its context ends, for
// the exploration to notice.
const abandonGrace = 200 * time.Millisecond

// runBounded is herd.Run, answered soon after ctx ends: the exploration
// looks at its context between executions only, and a single execution
// can take long (one thread of 400 stores), so when it has not returned
// abandonGrace after ctx ended, the test is reported incomplete with the
// outcomes of no execution, and the exploration is left to stop at its
// next check (its result is dropped).
func runBounded(ctx context.Context, t *litmus.Test, opts herd.Options) (*herd.Result, error) {
	type answer struct {
		res *herd.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := herd.Run(ctx, t, opts)
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		return a.res, a.err
	case <-ctx.Done():
	}
	select {
	case a := <-done:
		return a.res, a.err
	case <-time.After(abandonGrace):
	}
	return &herd.Result{Test: t.Name, File: t.File, Model: opts.Model, Condition: t.Cond.String(),
		Outcomes: []herd.Outcome{}, Verdict: "unknown", Incomplete: "cancelled inside an execution: " + ctx.Err().Error()}, nil
}

func printLitmus(w io.Writer, t *litmus.Test, res *herd.Result) {
	fmt.Fprintf(w, "Test %s (%s) under %s: %s\n", res.Test, res.File, res.Model, strings.ToUpper(res.Verdict))
	fmt.Fprintf(w, "  condition %s\n", res.Condition)
	s := "s"
	if res.Executions == 1 {
		s = ""
	}
	fmt.Fprintf(w, "  %d consistent execution%s, %d outcome(s):\n", res.Executions, s, len(res.Outcomes))
	width := 0
	for _, o := range res.Outcomes {
		if len(o.State) > width {
			width = len(o.State)
		}
	}
	for _, o := range res.Outcomes {
		mark := " "
		if o.Satisfies {
			mark = "*"
		}
		line := fmt.Sprintf("  %s %-*s  x%d", mark, width, o.State, o.Executions)
		if o.Racy > 0 {
			line += fmt.Sprintf("  (%d with a data race)", o.Racy)
		}
		if o.Error != "" {
			line += "  [" + o.Error + "]"
		}
		fmt.Fprintln(w, line)
	}
	if res.Positive > 0 {
		fmt.Fprintln(w, "  (* = satisfies the condition's proposition)")
	}
	if res.Filtered > 0 {
		fmt.Fprintf(w, "  %d execution(s) removed by the filter\n", res.Filtered)
	}
	if res.Blocked > 0 {
		fmt.Fprintf(w, "  %d execution(s) discarded: a loop needed more than two iterations (herd unrolls twice)\n", res.Blocked)
	}
	ok := "No"
	if res.Passes {
		ok = "Ok"
	}
	if res.Observation != "" { // none when the exploration was abandoned
		fmt.Fprintf(w, "  %s; Observation %s %s %d %d\n", ok, res.Test, res.Observation, res.Positive, res.Negative)
	}
	if res.DataRace {
		fmt.Fprintf(w, "  data races (undefined behaviour under %s):\n", res.Model)
		for _, r := range res.Races {
			fmt.Fprintf(w, "    %s\n", r)
		}
	}
	if res.Incomplete != "" {
		fmt.Fprintf(w, "  incomplete: %s\n", res.Incomplete)
	}
	if ex := res.Explanation; ex != nil {
		fmt.Fprintf(w, "  why forbidden: %s\n", strings.ReplaceAll(ex.String(), "\n", "\n  "))
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.+-]+`)

// writeGraphs writes one DOT file (and SVG) per execution and per explained
// forbidden execution.
func (c *litmusCmd) writeGraphs(e *env, t *litmus.Test, res *herd.Result) error {
	base := unsafeName.ReplaceAllString(t.Name, "_") + "-" + res.Model
	rels := seg.DrawPO | seg.DrawRF | seg.DrawMO | seg.DrawFR
	var model *seg.Model
	if m, err := memmodel.Lookup(res.Model); err == nil && m.Exec == memmodel.GraphOnly {
		// sw and hb come from the model's own definitions (ra.cat and
		// rc11.cat define both)
		rels |= seg.DrawSW
		model = m.Axioms
	}
	_, dotErr := exec.LookPath("dot")
	write := func(name string, g *seg.Graph, opts seg.DOTOpts) error {
		path := filepath.Join(c.Graphs, name+".dot")
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := g.WriteDOT(f, opts); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		if dotErr == nil {
			svg := filepath.Join(c.Graphs, name+".svg")
			if out, err := exec.CommandContext(e.ctx, "dot", "-Tsvg", "-o", svg, path).CombinedOutput(); err != nil {
				return fmt.Errorf("dot -Tsvg %s: %v: %s", path, err, out)
			}
		}
		return nil
	}
	for i, x := range res.Graphs {
		sat := ""
		if res.Outcomes != nil {
			for _, o := range res.Outcomes {
				if o.State == x.Outcome && o.Satisfies {
					sat = " — satisfies the condition"
				}
			}
		}
		title := fmt.Sprintf("%s under %s: execution %d of %d, outcome %s%s", t.Name, res.Model, i+1, len(res.Graphs), x.Outcome, sat)
		switch {
		case x.NotSC != nil && x.Why != "":
			title += fmt.Sprintf("\nnot sequentially consistent (cycle in bold), %s", x.Why)
		case x.NotSC == nil && res.Model != "sc":
			title += "\nsequentially consistent: also allowed under sc"
		}
		if len(x.Races) > 0 {
			title += fmt.Sprintf("\n%d data race(s): %s", len(x.Races), x.Races[0])
		}
		opts := seg.DOTOpts{Rels: rels, Model: model, Title: title}
		if x.Why != "" {
			opts.Highlight = x.NotSC
		}
		if err := write(fmt.Sprintf("%s-%d", base, i+1), x.Graph, opts); err != nil {
			return err
		}
	}
	if ex := res.Explanation; ex != nil {
		for i, x := range ex.Examples {
			title := fmt.Sprintf("%s under %s: FORBIDDEN outcome %s\n%s: axiom %s violated (%s %s); cycle in bold",
				t.Name, res.Model, x.Outcome, res.Model, x.Violation.Axiom, x.Violation.Kind, x.Violation.Expr)
			if err := write(fmt.Sprintf("%s-forbidden-%d", base, i+1), x.Graph, seg.DOTOpts{Rels: rels, Model: model, Highlight: x.Violation, Title: title}); err != nil {
				return err
			}
		}
	}
	if !c.JSON {
		n := len(res.Graphs)
		if res.Explanation != nil {
			n += len(res.Explanation.Examples)
		}
		kind := "DOT"
		if dotErr == nil {
			kind = "DOT and SVG"
		}
		fmt.Fprintf(e.stderr, "%s: wrote %d graph(s) (%s) to %s\n", t.File, n, kind, c.Graphs)
	}
	return nil
}
