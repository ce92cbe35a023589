package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/svcomp"
)

// sweepCmd checks SV-COMP verification tasks (task-definition files) and
// scores the answers against their expected verdicts.
type sweepCmd struct {
	Paths    []string      `arg:"" name:"path" help:"Task-definition files (.yml) or directories to search for them."`
	Timeout  time.Duration `help:"Time limit per task and property." default:"60s"`
	Jobs     int           `help:"Tasks checked at the same time." default:"1"`
	Out      string        `help:"Directory for results.csv, results.json, summary.html, a log per task and a GraphML violation witness (<dir>-<task>.graphml) per false answer." default:"sweep-results" type:"path"`
	Unroll   int           `help:"Default loop bound (see verify --unroll)." default:"8"`
	MaxSteps int           `name:"max-steps" help:"Visible steps allowed per execution." default:"100000"`
	Explorer string        `help:"Exploration algorithm (see verify --explorer)." default:"auto" enum:"auto,mcr,reference"`
	Model    string        `help:"Memory model: ${models_help} (sc: SV-COMP's tasks are sequentially consistent, checked by the staged strategy; tso/pso: operational store buffers; ra/rc11: graph exploration; under a model other than sc each task's program is translated for it and checked by --explorer alone, as verify --property --model does)." default:"sc" enum:"${models}"`
	Quiet    bool          `short:"q" help:"Print only the totals."`
	// MaxMemory bounds the heap of the whole sweep (memGuard).
	MaxMemory int `name:"max-memory" help:"Memory (MB) the running tasks may hold together; past it they stop with unknown (memory bound hit) and the sweep goes on (0: 60% of the machine's memory)." default:"0"`

	guard *memGuard // nil: no memory bound

	Corrections string `help:"YAML file of expected verdicts believed wrong in the task files (task, property, task_says, correct, reason, evidence; see benchmarks/svcomp/corrections.yaml). The totals against the task files are always printed; the corrected totals are printed beside them and decide the exit code." type:"existingfile"`
}

// sweepResult is the answer for one (task, property) pair.
type sweepResult struct {
	Task     string `json:"task"`
	YML      string `json:"yml"`
	File     string `json:"file"`
	Property string `json:"property"`
	Expected string `json:"expected"` // "true", "false" or "" (not known)
	// Subproperty is the subproperty the task expects a false answer to
	// name (valid-memsafety: valid-free, valid-deref, valid-memtrack), and
	// Violated the one the answer names.
	Subproperty string  `json:"subproperty,omitempty"`
	Violated    string  `json:"violated,omitempty"`
	Answer      string  `json:"answer"`   // "true", "false" or "unknown"
	Category    string  `json:"category"` // correct, wrong, unknown, or "-" without an expected verdict
	Score       int     `json:"score"`
	TimeS       float64 `json:"time_s"`
	Reason      string  `json:"reason"`
	Explorer    string  `json:"explorer,omitempty"`
	Model       string  `json:"model"` // the memory model (--model)
	Log         string  `json:"log"`

	// Set when a correction (--corrections) replaces the task file's
	// expected verdict: the corrected verdict, why, and the category and
	// score against it. Category and Score stay those against the task file.
	Corrected         string `json:"corrected,omitempty"`
	Correction        string `json:"correction,omitempty"`
	CorrectedCategory string `json:"corrected_category,omitempty"`
	CorrectedScore    int    `json:"corrected_score,omitempty"`
}

// sweepSummary totals a sweep.
type sweepSummary struct {
	Pairs     int     `json:"pairs"`
	Correct   int     `json:"correct"`
	Wrong     int     `json:"wrong"`
	Unknown   int     `json:"unknown"`
	Score     int     `json:"score"`
	MaxScore  int     `json:"max_score"`
	TimeS     float64 `json:"time_s"`
	Timeout   string  `json:"timeout"`
	Unroll    int     `json:"unroll"`
	Explorer  string  `json:"explorer"`
	Model     string  `json:"model"` // the memory model of every pair (--model)
	Generated string  `json:"generated"`

	// With --corrections: the totals against the corrected expectations.
	WithCorrections *correctedTotals `json:"with_corrections,omitempty"`
}

// correctedTotals are the sweep's totals when the corrections of a
// corrections file replace the task files' expected verdicts.
type correctedTotals struct {
	File     string `json:"file"`
	Applied  int    `json:"applied"`
	Correct  int    `json:"correct"`
	Wrong    int    `json:"wrong"`
	Unknown  int    `json:"unknown"`
	Score    int    `json:"score"`
	MaxScore int    `json:"max_score"`
}

// sweepUnit is one (task, property) pair to check.
type sweepUnit struct {
	res       sweepResult
	dataModel string
	loadErr   string // why the task definition cannot be used
	// prog is the task's program if the caller translated it already
	// (verify --property), else nil: svcomp.Check translates it.
	prog *ir.Program
}

func (s *sweepCmd) run(e *env) int {
	if s.Jobs < 1 || s.Timeout <= 0 || s.Unroll <= 0 || s.MaxSteps <= 0 {
		fmt.Fprintln(e.stderr, "ncmc: --jobs, --timeout, --unroll and --max-steps must be positive")
		return exitBadInput
	}
	ymls, err := findTaskFiles(s.Paths)
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	if len(ymls) == 0 {
		fmt.Fprintln(e.stderr, "ncmc: no task-definition files (.yml) found")
		return exitBadInput
	}
	var corr *corrections
	if s.Corrections != "" {
		if corr, err = loadCorrections(s.Corrections); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	}
	units := loadUnits(ymls)
	if err := os.MkdirAll(filepath.Join(s.Out, "logs"), 0o755); err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	start := time.Now()
	var mu sync.Mutex
	done, correct, wrong, unknown := 0, 0, 0, 0
	progress := func(r *sweepResult) {
		mu.Lock()
		defer mu.Unlock()
		done++
		switch r.Category {
		case "correct":
			correct++
		case "wrong":
			wrong++
		default:
			unknown++
		}
		line := fmt.Sprintf("[%d/%d] %d correct, %d wrong, %d unknown; %s %s: %s (%.1fs)",
			done, len(units), correct, wrong, unknown, r.Task, r.Property, r.Answer, r.TimeS)
		if e.stderrTerm {
			fmt.Fprintf(e.stderr, "\r\033[K%s", line)
		} else if !s.Quiet {
			fmt.Fprintln(e.stderr, line)
		}
	}
	work := make(chan int)
	var wg sync.WaitGroup
	gctx, stopGuard := context.WithCancel(e.ctx)
	defer stopGuard()
	s.guard = newMemGuard(gctx, memoryLimit(s.MaxMemory))
	for j := 0; j < s.Jobs; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				s.check(e.ctx, &units[i])
				progress(&units[i].res)
			}
		}()
	}
	for i := range units {
		if e.ctx.Err() != nil {
			units[i].res.Answer, units[i].res.Category, units[i].res.Reason = "unknown", categoryOf(units[i].res.Expected, "unknown"), "sweep interrupted"
			continue
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if e.stderrTerm {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	results := make([]sweepResult, len(units))
	for i := range units {
		results[i] = units[i].res
	}
	for _, w := range corr.apply(results) {
		fmt.Fprintf(e.stderr, "ncmc: warning: %s\n", w)
	}
	sum := summarize(results, time.Since(start), s, corr)
	if err := s.writeResults(results, sum); err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	s.printTable(e.stdout, results, sum)
	nWrong := sum.Wrong
	if sum.WithCorrections != nil {
		nWrong = sum.WithCorrections.Wrong
	}
	if nWrong > 0 {
		return exitViolation
	}
	return exitVerified
}

// findTaskFiles expands the command-line paths into task-definition files.
func findTaskFiles(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".yaml")) {
				add(path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// loadUnits reads the task definitions: one unit per property.
func loadUnits(ymls []string) []sweepUnit {
	var units []sweepUnit
	for _, y := range ymls {
		base := sweepUnit{res: sweepResult{Task: svcomp.TaskName(y), YML: y, Answer: "unknown"}}
		td, err := svcomp.ReadTask(y)
		if err != nil {
			base.loadErr = err.Error()
			base.res.Property = "?"
			units = append(units, base)
			continue
		}
		file, ferr := td.InputFile()
		base.res.File = file
		base.dataModel = td.Options.DataModel
		if ferr != nil {
			base.loadErr = ferr.Error()
		}
		if len(td.Properties) == 0 {
			u := base
			u.res.Property = "-"
			if u.loadErr == "" {
				u.loadErr = "the task lists no property"
			}
			units = append(units, u)
		}
		for _, p := range td.Properties {
			u := base
			u.res.Property = p.Name()
			u.res.Expected = string(p.Expected())
			u.res.Subproperty = p.Subproperty
			units = append(units, u)
		}
	}
	return units
}

// check answers one unit, writes its log and, for a false answer of
// unreach-call, its violation witness.
func (s *sweepCmd) check(ctx context.Context, u *sweepUnit) {
	r := &u.res
	t0 := time.Now()
	var log strings.Builder
	r.Model = s.Model
	fmt.Fprintf(&log, "task %s (%s)\nfile %s\nproperty %s, expected %s\nbounds: unroll %d, max-steps %d, timeout %s, explorer %s, model %s\n\n",
		r.Task, r.YML, r.File, r.Property, orDash(r.Expected), s.Unroll, s.MaxSteps, s.Timeout, s.Explorer, s.Model)
	v := s.solve(ctx, u, &log)
	r.Answer, r.Reason, r.Explorer = string(v.Answer), v.Reason, v.Explorer
	if v.Answer == svcomp.False && v.Property == svcomp.UnreachCall && v.Result != nil {
		s.witness(u, v.Result, &log)
	}
	r.TimeS = time.Since(t0).Seconds()
	r.Category = categoryOf(r.Expected, r.Answer)
	r.Score = scoreOf(r.Expected, r.Answer)
	if v.Answer == svcomp.False {
		if sp := svcomp.Subproperty(v.Property, "", v.Reason); sp != "" && sp != v.Property {
			r.Violated = string(sp)
		}
	}
	if r.Category == string(svcomp.Correct) && r.Expected == string(svcomp.False) && r.Subproperty != "" && r.Violated != r.Subproperty {
		// false for the wrong reason: SV-COMP scores it as wrong
		r.Category, r.Score = string(svcomp.Wrong), svcomp.ScoreWrongFalse
	}
	fmt.Fprintf(&log, "\nanswer %s (%s); %s, score %d, %.2fs\n", r.Answer, r.Reason, r.Category, r.Score, r.TimeS)
	name := fmt.Sprintf("%s-%s.%s.log", filepath.Base(filepath.Dir(r.YML)), r.Task, r.Property)
	r.Log = filepath.Join("logs", name)
	_ = os.WriteFile(filepath.Join(s.Out, r.Log), []byte(log.String()), 0o644)
}

// solve answers one unit with svcomp.Check under the memory guard: an
// answer the guard cut short is unknown because of memory.
func (s *sweepCmd) solve(ctx context.Context, u *sweepUnit, log io.Writer) *svcomp.Verdict {
	r := &u.res
	p := svcomp.Property(r.Property)
	if u.loadErr != "" {
		fmt.Fprintln(log, u.loadErr)
		return &svcomp.Verdict{Property: p, Answer: svcomp.Unknown, Reason: u.loadErr}
	}
	in := svcomp.Input{File: r.File, DataModel: u.dataModel, Property: p, Prog: u.prog}
	lim := svcomp.Limits{Timeout: s.Timeout, Unroll: s.Unroll, MaxSteps: s.MaxSteps, Explorer: s.Explorer, Model: s.Model}
	if s.guard == nil {
		return svcomp.Check(ctx, in, lim, log)
	}
	gctx, done := s.guard.with(ctx)
	defer done()
	v := svcomp.Check(gctx, in, lim, log)
	if v.Answer != svcomp.False && errors.Is(context.Cause(gctx), errMemory) {
		v.Answer, v.Reason = svcomp.Unknown, s.guard.memoryReason()
		fmt.Fprintln(log, "stopped: "+v.Reason)
	}
	return v
}

// witness writes the violation witness of a false answer to --out as
// <dir>-<task>.graphml and notes it in the task's log.
func (s *sweepCmd) witness(u *sweepUnit, res *ncmc.Result, log io.Writer) {
	if s.Out == "" {
		return
	}
	steps := svcomp.ErrorCallTrace(res)
	if steps == nil {
		fmt.Fprintln(log, "no witness: the counterexample found does not end in an error call")
		return
	}
	r := &u.res
	name := fmt.Sprintf("%s-%s.graphml", filepath.Base(filepath.Dir(r.YML)), r.Task)
	info := svcomp.WitnessInfo{ProgramFile: r.File, Specification: svcomp.UnreachCallSpec,
		DataModel: u.dataModel, Producer: producer(), Created: time.Now(), Language: svcomp.WitnessLanguage(r.File)}
	if prp := svcomp.PropertyFile(r.YML, r.Property); prp != "" {
		if _, text, err := svcomp.ReadPropertyFile(prp); err == nil {
			info.Specification = text
		}
	}
	if err := svcomp.WriteWitnessFile(filepath.Join(s.Out, name), info, steps); err != nil {
		fmt.Fprintf(log, "witness not written: %v\n", err)
		return
	}
	fmt.Fprintf(log, "witness %s\n", name)
}

// categoryOf and scoreOf compare an answer with an expected verdict
// ("true", "false" or "": not known; svcomp.CategoryOf, svcomp.Score).
func categoryOf(expected, answer string) string {
	return string(svcomp.CategoryOf(svcomp.Answer(expected), svcomp.Answer(answer)))
}

func scoreOf(expected, answer string) int {
	return svcomp.Score(svcomp.Answer(expected), svcomp.Answer(answer))
}

func summarize(rs []sweepResult, elapsed time.Duration, s *sweepCmd, corr *corrections) sweepSummary {
	sum := sweepSummary{Pairs: len(rs), TimeS: elapsed.Seconds(), Timeout: s.Timeout.String(), Unroll: s.Unroll,
		Explorer: s.Explorer, Model: s.Model, Generated: time.Now().UTC().Format(time.RFC3339)}
	for _, r := range rs {
		switch r.Category {
		case "correct":
			sum.Correct++
		case "wrong":
			sum.Wrong++
		default:
			sum.Unknown++
		}
		sum.Score += r.Score
		sum.MaxScore += svcomp.MaxScore(svcomp.Answer(r.Expected))
	}
	if corr != nil {
		ct := &correctedTotals{File: corr.file}
		for _, r := range rs {
			cat, score, exp := r.Category, r.Score, r.Expected
			if r.Corrected != "" {
				ct.Applied++
				cat, score, exp = r.CorrectedCategory, r.CorrectedScore, r.Corrected
			}
			switch cat {
			case "correct":
				ct.Correct++
			case "wrong":
				ct.Wrong++
			default:
				ct.Unknown++
			}
			ct.Score += score
			ct.MaxScore += svcomp.MaxScore(svcomp.Answer(exp))
		}
		sum.WithCorrections = ct
	}
	return sum
}

func (s *sweepCmd) printTable(w io.Writer, rs []sweepResult, sum sweepSummary) {
	if !s.Quiet {
		for _, r := range rs {
			fmt.Fprintf(w, "%-8s %-30s %-13s expected %-5s answer %-7s %6.1fs  %s\n",
				r.Category, r.Task, r.Property, orDash(r.Expected), r.Answer, r.TimeS, truncate(firstLine(r.Reason), 100))
			if r.Corrected != "" {
				fmt.Fprintf(w, "         %-30s %-13s corrected expectation %s: %s (%s with it)\n",
					"", "", r.Corrected, truncate(firstLine(r.Correction), 100), r.CorrectedCategory)
			}
		}
	}
	fmt.Fprintf(w, "%d (task, property) pairs: %d correct, %d wrong, %d unknown; score %d of %d; %.1fs (timeout %s, unroll %d, explorer %s, model %s)\n",
		sum.Pairs, sum.Correct, sum.Wrong, sum.Unknown, sum.Score, sum.MaxScore, sum.TimeS, sum.Timeout, sum.Unroll, sum.Explorer, sum.Model)
	if ct := sum.WithCorrections; ct != nil {
		fmt.Fprintf(w, "with %d correction(s) from %s: %d correct, %d wrong, %d unknown; score %d of %d\n",
			ct.Applied, ct.File, ct.Correct, ct.Wrong, ct.Unknown, ct.Score, ct.MaxScore)
	}
	fmt.Fprintf(w, "results in %s\n", s.Out)
}

func (s *sweepCmd) writeResults(rs []sweepResult, sum sweepSummary) error {
	// CSV.
	f, err := os.Create(filepath.Join(s.Out, "results.csv"))
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	cw.Write([]string{"task", "property", "expected", "answer", "category", "score", "time_s", "explorer", "reason", "file", "log", "corrected", "corrected_category", "corrected_score", "model"})
	for _, r := range rs {
		cs := ""
		if r.Corrected != "" {
			cs = fmt.Sprint(r.CorrectedScore)
		}
		cw.Write([]string{r.Task, r.Property, r.Expected, r.Answer, r.Category, fmt.Sprint(r.Score),
			fmt.Sprintf("%.3f", r.TimeS), r.Explorer, firstLine(r.Reason), r.File, r.Log, r.Corrected, r.CorrectedCategory, cs, r.Model})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// JSON.
	data, err := json.MarshalIndent(struct {
		Summary sweepSummary  `json:"summary"`
		Results []sweepResult `json:"results"`
	}{sum, rs}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.Out, "results.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.Out, "summary.html"), []byte(sweepHTML(rs, sum, s.Timeout)), 0o644)
}

// sweepHTML renders the summary page: totals, a bar chart of the time per
// task (SVG, one bar per pair, colored by category) and the results table.
func sweepHTML(rs []sweepResult, sum sweepSummary, timeout time.Duration) string {
	var b strings.Builder
	colors := map[string]string{"correct": "#2e7d32", "wrong": "#c62828", "unknown": "#9e9e9e", "-": "#90a4ae"}
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>ncmc sweep</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}th{background:#eee}.correct{color:#2e7d32}.wrong{color:#c62828;font-weight:bold}.unknown{color:#757575}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>ncmc sweep</h1>\n<p>%d (task, property) pairs: <b>%d correct</b>, <b>%d wrong</b>, %d unknown. Score <b>%d</b> of %d. Total time %.1f s (timeout %s per pair, unroll %d, explorer %s, memory model %s). Generated %s.</p>\n",
		sum.Pairs, sum.Correct, sum.Wrong, sum.Unknown, sum.Score, sum.MaxScore, sum.TimeS, html.EscapeString(sum.Timeout), sum.Unroll, html.EscapeString(sum.Explorer), html.EscapeString(sum.Model), html.EscapeString(sum.Generated))
	if ct := sum.WithCorrections; ct != nil {
		fmt.Fprintf(&b, "<p>With %d correction(s) of expected verdicts from <code>%s</code>: <b>%d correct</b>, <b>%d wrong</b>, %d unknown. Score <b>%d</b> of %d. Corrected rows are marked below.</p>\n",
			ct.Applied, html.EscapeString(ct.File), ct.Correct, ct.Wrong, ct.Unknown, ct.Score, ct.MaxScore)
	}
	// Time per task.
	const barH, labelW, plotW = 14, 260, 600
	maxT := timeout.Seconds()
	for _, r := range rs {
		maxT = max(maxT, r.TimeS)
	}
	if maxT <= 0 {
		maxT = 1
	}
	h := len(rs)*barH + 30
	fmt.Fprintf(&b, "<h2>Time per task</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-size=\"11\">\n", labelW+plotW+80, h)
	for i, r := range rs {
		y := i*barH + 2
		w := r.TimeS / maxT * plotW
		fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", labelW-4, y+barH-4, html.EscapeString(truncate(r.Task+" "+r.Property, 42)))
		fmt.Fprintf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %.2fs, %s</title></rect>", labelW, y, max(w, 1), barH-3, colors[r.Category], html.EscapeString(r.Task), r.TimeS, html.EscapeString(r.Category))
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%d\">%.1fs</text>\n", float64(labelW)+max(w, 1)+4, y+barH-4, r.TimeS)
	}
	tx := float64(labelW) + timeout.Seconds()/maxT*plotW
	fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c62828\" stroke-dasharray=\"4\"/><text x=\"%.1f\" y=\"%d\" fill=\"#c62828\">timeout %s</text>\n</svg>\n",
		tx, tx, h-20, tx+2, h-6, html.EscapeString(timeout.String()))
	// Table.
	b.WriteString("<h2>Results</h2>\n<table><tr><th>task</th><th>property</th><th>expected</th><th>answer</th><th>category</th><th>score</th><th>time (s)</th><th>explorer</th><th>reason</th><th>log</th></tr>\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td><td>%d</td><td>%.2f</td><td>%s</td><td>%s</td><td><a href=\"%s\">log</a></td></tr>\n",
			html.EscapeString(r.Task), html.EscapeString(r.Property), html.EscapeString(expectedText(r)), html.EscapeString(r.Answer),
			html.EscapeString(r.Category), html.EscapeString(r.Category), r.Score, r.TimeS, html.EscapeString(r.Explorer),
			html.EscapeString(truncate(firstLine(r.Reason), 160)), html.EscapeString(filepath.ToSlash(r.Log)))
	}
	b.WriteString("</table>\n</body></html>\n")
	return b.String()
}

// expectedText is the expected verdict for the HTML table, with the
// correction when there is one.
func expectedText(r sweepResult) string {
	if r.Corrected == "" {
		return orDash(r.Expected)
	}
	return fmt.Sprintf("%s (corrected: %s, %s with it; %s)", orDash(r.Expected), r.Corrected, r.CorrectedCategory, truncate(firstLine(r.Correction), 120))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

var spaceRE = regexp.MustCompile(`\s+`)

// firstLine is the first line of s with runs of white space made one space.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return spaceRE.ReplaceAllString(s, " ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
