package svcomp

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"ncmc/interp"
	"ncmc/ncmc"
)

// WriteTrace writes a counterexample, one step a line: the thread, the
// source line, what the step does and the source text.
func WriteTrace(w io.Writer, steps []interp.TraceStep) {
	width := 6
	for _, st := range steps {
		if len(st.Thread) > width {
			width = len(st.Thread)
		}
	}
	for _, st := range steps {
		line := "      "
		if st.Line > 0 {
			line = fmt.Sprintf("l.%-4d", st.Line)
		}
		text := fmt.Sprintf("  %-*s %s %s", width, st.Thread, line, st.What)
		if st.Source != "" {
			text = fmt.Sprintf("%-60s | %s", text, st.Source)
		}
		fmt.Fprintln(w, text)
	}
}

// logResult writes a stage's result to its log.
func logResult(w io.Writer, res *ncmc.Result) {
	fmt.Fprintf(w, "verdict %s (%s), explorer %s\n", res.Verdict, res.Reason, res.Explorer)
	if res.Note != "" {
		fmt.Fprintf(w, "note: %s\n", res.Note)
	}
	st := res.Stats
	fmt.Fprintf(w, "%d executions (%d complete, %d blocked, %d bound hits, %d violations), %d steps, %s\n",
		st.Executions, st.Complete, st.Blocked, st.BoundHits, st.Violations, st.Steps, res.Elapsed.Round(time.Millisecond))
	if res.ViolationPos.IsValid() {
		fmt.Fprintf(w, "violation at %s\n", res.ViolationPos)
	}
	if len(res.Counterexample) > 0 {
		fmt.Fprintln(w, "\ncounterexample:")
		WriteTrace(w, res.Counterexample)
	}
	if len(res.Outcomes) > 0 {
		partial := ""
		if res.OutcomesPartial { // final states not explored (Options.NoFinalStates): a sample
			partial = ", of the executions explored only: not every final state"
		}
		fmt.Fprintf(w, "\noutcomes (%d distinct%s):\n", len(res.Outcomes), partial)
		for i, o := range res.Outcomes {
			if i == 50 {
				fmt.Fprintf(w, "  ... %d more\n", len(res.Outcomes)-50)
				break
			}
			v := o.Violation
			if v == "" {
				v = "-"
			}
			fmt.Fprintf(w, "  %s [%s] x%d\n", o.State, v, o.Executions)
		}
	}
}

func unrollText(o ncmc.Options) string {
	if o.UnboundedLoops {
		return "none (unbounded loops)"
	}
	return fmt.Sprint(o.Unroll)
}

// explorerText names the exploration an answer came from, for the results.
func explorerText(o ncmc.Options) string {
	e := o.Explorer
	if o.StateCache {
		e += "+state-cache"
	}
	if o.Symmetry && !o.Races {
		e += "+symmetry"
	}
	if o.UnboundedLoops {
		e += "+unbounded-loops"
	}
	return e
}

var spaceRE = regexp.MustCompile(`\s+`)

// firstLine is the first line of s with runs of white space made one space.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return spaceRE.ReplaceAllString(s, " ")
}
