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

	"gopkg.in/yaml.v3"

	"ncmc/frontend"
	cfront "ncmc/frontend/c"
	"ncmc/ir"
	"ncmc/ncmc"
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
	Quiet    bool          `short:"q" help:"Print only the totals."`
	// MaxMemory bounds the heap of the whole sweep (memGuard).
	MaxMemory int `name:"max-memory" help:"Memory (MB) the running tasks may hold together; past it they stop with unknown (memory bound hit) and the sweep goes on (0: 60% of the machine's memory)." default:"0"`

	guard *memGuard // nil: no memory bound

	Corrections string `help:"YAML file of expected verdicts believed wrong in the task files (task, property, task_says, correct, reason, evidence; see benchmarks/svcomp/corrections.yaml). The totals against the task files are always printed; the corrected totals are printed beside them and decide the exit code." type:"existingfile"`
}

// The SV-COMP scores of an answer (see ../shared/bench/svcomp/README.md).
const (
	scoreCorrectTrue  = 2
	scoreCorrectFalse = 1
	scoreWrongFalse   = -16
	scoreWrongTrue    = -32
)

// sweepResult is the answer for one (task, property) pair.
type sweepResult struct {
	Task     string  `json:"task"`
	YML      string  `json:"yml"`
	File     string  `json:"file"`
	Property string  `json:"property"`
	Expected string  `json:"expected"` // "true", "false" or "" (not known)
	Answer   string  `json:"answer"`   // "true", "false" or "unknown"
	Category string  `json:"category"` // correct, wrong, unknown, or "-" without an expected verdict
	Score    int     `json:"score"`
	TimeS    float64 `json:"time_s"`
	Reason   string  `json:"reason"`
	Explorer string  `json:"explorer,omitempty"`
	Log      string  `json:"log"`

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

// taskDef is a task-definition file (formats 1.x and 2.x).
type taskDef struct {
	FormatVersion string `yaml:"format_version"`
	InputFiles    any    `yaml:"input_files"`
	Properties    []struct {
		PropertyFile    string `yaml:"property_file"`
		ExpectedVerdict *bool  `yaml:"expected_verdict"`
		Subproperty     string `yaml:"subproperty"`
	} `yaml:"properties"`
	Options struct {
		Language  string `yaml:"language"`
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// sweepUnit is one (task, property) pair to check.
type sweepUnit struct {
	res       sweepResult
	dataModel string
	loadErr   string // why the task definition cannot be used
	// decided is the result of the stage that gave the answer (nil if
	// none did); verify --property prints it and writes its witness.
	decided *ncmc.Result
	// prog is the task's program if the caller translated it already
	// (verify --property), else nil: answer translates it.
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
		task := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(y), ".yml"), ".yaml")
		base := sweepUnit{res: sweepResult{Task: task, YML: y, Answer: "unknown"}}
		data, err := os.ReadFile(y)
		if err != nil {
			base.loadErr = err.Error()
			base.res.Property = "?"
			units = append(units, base)
			continue
		}
		var td taskDef
		if err := yaml.Unmarshal(data, &td); err != nil {
			base.loadErr = fmt.Sprintf("%s: %v", y, err)
			base.res.Property = "?"
			units = append(units, base)
			continue
		}
		file, ferr := inputFile(y, td.InputFiles)
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
			u.res.Property = strings.TrimSuffix(filepath.Base(p.PropertyFile), ".prp")
			if p.ExpectedVerdict != nil {
				u.res.Expected = fmt.Sprint(*p.ExpectedVerdict)
			}
			units = append(units, u)
		}
	}
	return units
}

// inputFile resolves input_files (a pattern or a list of them, relative to
// the task definition) to exactly one program file.
func inputFile(yml string, v any) (string, error) {
	var pats []string
	switch x := v.(type) {
	case string:
		pats = []string{x}
	case []any:
		for _, p := range x {
			s, ok := p.(string)
			if !ok {
				return "", fmt.Errorf("%s: input_files must be strings", yml)
			}
			pats = append(pats, s)
		}
	default:
		return "", fmt.Errorf("%s: no input_files", yml)
	}
	var files []string
	for _, p := range pats {
		m, err := filepath.Glob(filepath.Join(filepath.Dir(yml), p))
		if err != nil {
			return "", err
		}
		files = append(files, m...)
	}
	if len(files) != 1 {
		return "", fmt.Errorf("%s: input_files must name exactly one file (found %d)", yml, len(files))
	}
	return files[0], nil
}

// check answers one unit and writes its log.
func (s *sweepCmd) check(ctx context.Context, u *sweepUnit) {
	r := &u.res
	t0 := time.Now()
	var log strings.Builder
	fmt.Fprintf(&log, "task %s (%s)\nfile %s\nproperty %s, expected %s\nbounds: unroll %d, max-steps %d, timeout %s, explorer %s\n\n",
		r.Task, r.YML, r.File, r.Property, orDash(r.Expected), s.Unroll, s.MaxSteps, s.Timeout, s.Explorer)
	r.Answer, r.Reason = s.answerGuarded(ctx, u, &log)
	r.TimeS = time.Since(t0).Seconds()
	r.Category = categoryOf(r.Expected, r.Answer)
	r.Score = scoreOf(r.Expected, r.Answer)
	fmt.Fprintf(&log, "\nanswer %s (%s); %s, score %d, %.2fs\n", r.Answer, r.Reason, r.Category, r.Score, r.TimeS)
	name := fmt.Sprintf("%s-%s.%s.log", filepath.Base(filepath.Dir(r.YML)), r.Task, r.Property)
	r.Log = filepath.Join("logs", name)
	_ = os.WriteFile(filepath.Join(s.Out, r.Log), []byte(log.String()), 0o644)
}

// answerGuarded is answer under the memory guard: an answer the guard cut
// short is unknown because of memory.
func (s *sweepCmd) answerGuarded(ctx context.Context, u *sweepUnit, log *strings.Builder) (string, string) {
	if s.guard == nil {
		return s.answer(ctx, u, log)
	}
	gctx, done := s.guard.with(ctx)
	defer done()
	answer, reason := s.answer(gctx, u, log)
	if answer != "false" && errors.Is(context.Cause(gctx), errMemory) {
		answer, reason = "unknown", s.guard.memoryReason()
		fmt.Fprintln(log, "stopped: "+reason)
	}
	return answer, reason
}

// answer computes the answer for one unit: "true", "false" or "unknown",
// and why.
func (s *sweepCmd) answer(ctx context.Context, u *sweepUnit, log *strings.Builder) (answer, reason string) {
	defer func() {
		if p := recover(); p != nil {
			answer, reason = "unknown", fmt.Sprintf("internal error: %v", p)
			fmt.Fprintln(log, reason)
		}
	}()
	if u.loadErr != "" {
		fmt.Fprintln(log, u.loadErr)
		return "unknown", u.loadErr
	}
	r := &u.res
	prog, err := u.prog, error(nil)
	if prog == nil {
		prog, err = s.load(r.File, u.dataModel, r.Property)
	}
	var un *frontend.Unsupported
	if err != nil && errors.As(err, &un) && isC(r.File) {
		// Try again keeping only part of the program's behaviour: a
		// violation found is still real, but "true" cannot be answered.
		fmt.Fprintln(log, err)
		p, approx, err2 := cfront.CompileFileApprox(r.File, cfront.Options{DataModel: cDataModel(u.dataModel), UnderApproximate: true, NoDataRace: r.Property == propNoDataRace})
		if err2 == nil {
			fmt.Fprintln(log, "\nunder-approximated translation:")
			for _, a := range approx {
				fmt.Fprintln(log, "  "+a)
			}
			fmt.Fprintln(log)
			prog, err = p, nil
			defer func() {
				if answer == "true" {
					answer = "unknown"
					reason = fmt.Sprintf("input under-approximated (%s): no violation among the explored inputs", firstLine(approx[0]))
					fmt.Fprintln(log, "answer true withheld: "+reason)
				}
			}()
		}
	}
	if err != nil {
		fmt.Fprintln(log, err)
		if errors.As(err, &un) {
			return "unknown", un.Reason()
		}
		return "unknown", "cannot read the program: " + firstLine(err.Error())
	}
	var target func(violation string) bool
	switch r.Property {
	case "unreach-call":
		target = cfront.IsErrorCall
	case "no-data-race":
		target = isDataRace
	default:
		why := fmt.Sprintf("property %s is not supported (only unreach-call and no-data-race)", r.Property)
		fmt.Fprintln(log, why)
		return "unknown", why
	}
	end := time.Now().Add(s.Timeout)
	if r.Property != "unreach-call" {
		return s.exhaustive(ctx, u, prog, target, end, log)
	}
	// For unreach-call a bug hunt (PCT) runs beside the exhaustive stages
	// for the first tenth of the time: it finds shallow bugs in programs
	// too big to explore (and stops the other stages when it does), while
	// a program the exhaustive stages settle quickly is not kept waiting
	// for it. What the exhaustive stages leave at the end is again for the
	// bug hunt.
	exCtx, stopEx := context.WithCancel(ctx)
	defer stopEx()
	hunt := s.startHunt(ctx, prog, target, time.Now().Add(s.Timeout/10), stopEx)
	answer, reason = s.exhaustive(exCtx, u, prog, target, end, log)
	stopped := false
	if answer != "unknown" && !hunt.finished() {
		hunt.cancel()
		stopped = true
	}
	hres := hunt.wait()
	fmt.Fprintf(log, "\n%s", hunt.log.String())
	if stopped {
		fmt.Fprintln(log, "stage pct stopped: the other stages answered first")
	}
	if hres == nil || answer == "false" {
		return answer, reason
	}
	if answer == "true" {
		why := fmt.Sprintf("the explorers disagree: exhaustive true (%s), pct found %s", reason, hres.Reason)
		fmt.Fprintln(log, why)
		return "unknown", why
	}
	fmt.Fprintln(log, "answer from stage pct: false")
	u.res.Explorer = "pct"
	s.sweepWitness(u, hres, log)
	return "false", hres.Reason
}

// exhaustive runs the exhaustive stages (the stateful reference explorer,
// and for unreach-call the dpor stage beside it) until end.
func (s *sweepCmd) exhaustive(ctx context.Context, u *sweepUnit, prog *ir.Program, target func(string) bool, end time.Time, log io.Writer) (answer, reason string) {
	r := &u.res
	opts := ncmc.Options{Unroll: s.Unroll, MaxSteps: s.MaxSteps, Workers: 1, Races: r.Property == "no-data-race"}
	switch s.Explorer {
	case "auto":
		// The sweep's own choice, independent of verify's default: the
		// stateful reference explorer is complete and cuts finite-state
		// spin loops; thread symmetry merges states that differ only by
		// which of several identical threads is where (programs that
		// cannot observe thread identity only).
		opts.Explorer, opts.StateCache, opts.Symmetry = "reference", true, true
	default:
		opts.Explorer = s.Explorer
	}
	if opts.Races && opts.Explorer == "mcr" {
		opts.Explorer, opts.StateCache = "reference", true
		fmt.Fprintln(log, "data races are checked with the stateful reference explorer (mcr does not detect them)")
	}
	var dpor, km *dporRun
	if r.Property == "no-data-race" && s.Explorer == "auto" {
		// Stage coverability with race detection, beside the stateful
		// stages, for programs that spawn threads in a loop: the only
		// stage that can show no race for any number of threads.
		if ok, _ := ncmc.CoverabilityApplies(prog); ok {
			var stop context.CancelFunc
			ctx, stop = context.WithCancel(ctx)
			defer stop()
			km = s.startKM(ctx, prog, opts, end, stop)
		}
	}
	if r.Property == "unreach-call" && s.Explorer == "auto" {
		// Stage dpor, beside the stateful stages (it stops them when it
		// answers): the ncmc explorer without specs, a sleep-set +
		// source-set DPOR for SC (checked against the plain reference
		// explorer by TestDPORDifferential). It proves programs the
		// stateful explorer cannot finish (workstealqueue_mutex-2), and the
		// stateful explorer those it cannot (qw2004_variant, spin loops).
		var stop context.CancelFunc
		ctx, stop = context.WithCancel(ctx)
		defer stop()
		dpor = s.startDPOR(ctx, prog, target, opts, end, stop)
		// Stage coverability, beside them too, for programs that spawn
		// threads in a loop (unboundedly many): the Karp-Miller
		// construction (ncmc/coverability.go), which only ever answers
		// true.
		if ok, _ := ncmc.CoverabilityApplies(prog); ok {
			km = s.startKM(ctx, prog, opts, end, stop)
		}
	}
	answer, reason = s.stateful(ctx, u, prog, target, opts, end, log)
	if km != nil {
		if answer != "unknown" && !km.finished() {
			km.cancel()
		}
		kres := km.wait()
		fmt.Fprintf(log, "\n%s", km.log.String())
		switch {
		case kres == nil:
		case answer == "false":
			why := fmt.Sprintf("the explorers disagree: stateful false (%s), coverability true (%s)", reason, kres.Reason)
			fmt.Fprintln(log, why)
			answer, reason = "unknown", why
		case answer == "unknown":
			fmt.Fprintln(log, "answer from stage coverability: true")
			answer, reason = "true", kres.Reason
			u.res.Explorer = "coverability"
			u.decided = kres
		}
	}
	if dpor == nil {
		return answer, reason
	}
	stopped := false
	if answer != "unknown" && !dpor.finished() {
		dpor.cancel()
		stopped = true
	}
	res := dpor.wait()
	fmt.Fprintf(log, "\n%s", dpor.log.String())
	if stopped {
		fmt.Fprintln(log, "stage dpor stopped: the other stages answered first")
	}
	if res == nil {
		return answer, reason
	}
	a, why := propertyAnswer(res, target, r.Property)
	if answer != "unknown" && answer != a {
		why = fmt.Sprintf("the explorers disagree: stateful %s (%s), dpor %s (%s)", answer, reason, a, why)
		fmt.Fprintln(log, why)
		return "unknown", why
	}
	if answer != "unknown" {
		return answer, reason
	}
	fmt.Fprintf(log, "answer from stage dpor: %s\n", a)
	u.res.Explorer = "ncmc"
	u.decided = res
	if a == "false" {
		s.sweepWitness(u, res, log)
	}
	return a, why
}

// stateful runs the stages of the stateful reference explorer and the
// final bug hunt (for unreach-call) until end and returns the answer and
// why.
func (s *sweepCmd) stateful(ctx context.Context, u *sweepUnit, prog *ir.Program, target func(string) bool, opts ncmc.Options, end time.Time, log io.Writer) (string, string) {
	r := &u.res
	deadline := end
	runCtx := ctx
	run := func(stage string) (*ncmc.Result, error) {
		opts.Timeout = time.Until(deadline)
		if opts.Timeout <= 0 {
			return nil, errSweepTime
		}
		fmt.Fprintf(log, "stage %s: explorer %s (state cache %v, symmetry %v), unroll %s, max-steps %d, races %v, keep going %v, %s left\n",
			stage, opts.Explorer, opts.StateCache, opts.Symmetry, unrollText(opts), opts.MaxSteps, opts.Races, opts.KeepGoing, opts.Timeout.Round(time.Millisecond))
		res, err := ncmc.Verify(runCtx, prog, opts)
		if err != nil && opts.Explorer == "mcr" {
			fmt.Fprintf(log, "mcr failed (%v): using the stateful reference explorer\n", err)
			opts.Explorer, opts.StateCache, opts.Timeout = "reference", true, time.Until(deadline)
			if opts.Timeout <= 0 {
				return nil, errSweepTime
			}
			res, err = ncmc.Verify(runCtx, prog, opts)
		}
		if err == nil && res.Verdict == ncmc.Violation && !target(res.Reason) {
			// Another kind of violation (a failed assert(), a deadlock, a
			// runtime error) came first: explore on, collecting every
			// outcome.
			fmt.Fprintf(log, "first violation: %s; exploring on\n", res.Reason)
			opts.KeepGoing, opts.Timeout = true, time.Until(deadline)
			if opts.Timeout > 0 {
				res, err = ncmc.Verify(runCtx, prog, opts)
			}
		}
		if err == nil {
			logResult(log, res)
		}
		return res, err
	}
	finish := func(res *ncmc.Result) (string, string) {
		u.res.Explorer = explorerText(opts)
		u.decided = res
		a, why := propertyAnswer(res, target, r.Property)
		if a == "false" && r.Property == "unreach-call" {
			s.sweepWitness(u, res, log)
		}
		if a == "unknown" && strings.HasPrefix(why, "time bound") {
			why = fmt.Sprintf("time bound %s hit", s.Timeout)
		}
		return a, why
	}
	// Stage 1 (the stateful reference explorer) stops at its first bound
	// hit: from then on it cannot answer true, and stage 2 (unbounded
	// loops) explores all it would and more with the time left (ring_2w1r-1
	// spent 44 of its 54 s in stage 1 after the first hit; stage 2 needs
	// about 55 s to verify it).
	//
	// Not when main spawns threads in a loop: the bounded exploration is
	// then the way to find a bug with a few threads (an endless spawning
	// loop makes stage 2's state space infinite), and the coverability
	// stage the way to prove there is none.
	stateful1 := opts.Explorer == "reference" && opts.StateCache && !ncmc.SpawnsInLoop(prog)
	boundStop := false
	var cancel1 context.CancelFunc = func() {}
	if stateful1 {
		runCtx, cancel1 = context.WithCancel(ctx)
		opts.ProgressEvery = time.Nanosecond // after every execution
		opts.Progress = func(st ncmc.Stats) {
			if st.BoundHits > 0 && !boundStop {
				boundStop = true
				cancel1()
			}
		}
	}
	res, err := run("1")
	cancel1()
	runCtx, opts.Progress, opts.ProgressEvery = ctx, nil, 0
	if boundStop && err == nil && res.Verdict == ncmc.Unknown {
		fmt.Fprintln(log, "stage 1 stopped at its first bound hit")
	}
	if err == nil {
		if a, _ := propertyAnswer(res, target, r.Property); a != "unknown" {
			return finish(res)
		}
		// A loop bound was hit: explore again without the default loop
		// bound; the state cache cuts runs that come back to a state seen
		// before, so finite-state loops end without unrolling.
		if (res.Stopped == "" || boundStop) && res.Stats.BoundHits > 0 && opts.Explorer == "reference" && opts.StateCache {
			opts.UnboundedLoops, opts.KeepGoing = true, false
			fmt.Fprintf(log, "\nloop bound hit (%s): exploring again with unbounded loops\n", res.Reason)
			res2, err2 := run("2")
			if err2 == nil {
				res = res2
			} else {
				fmt.Fprintln(log, err2)
			}
		}
	}
	if r.Property == "unreach-call" && (err == nil || errors.Is(err, errSweepTime)) {
		if err == nil {
			if a, _ := propertyAnswer(res, target, r.Property); a != "unknown" {
				return finish(res)
			}
		}
		if hunt := s.bugHunt(ctx, prog, target, end, log); hunt != nil {
			u.res.Explorer = "pct"
			s.sweepWitness(u, hunt, log)
			return "false", hunt.Reason
		}
	}
	u.res.Explorer = explorerText(opts)
	if errors.Is(err, errSweepTime) {
		return "unknown", fmt.Sprintf("time bound %s hit", s.Timeout)
	}
	if err != nil {
		fmt.Fprintln(log, err)
		return "unknown", "checker error: " + err.Error()
	}
	return finish(res)
}

// huntRun is the first bug hunt running beside the exhaustive stages.
type huntRun struct {
	log    strings.Builder // the stage's own log, appended to the task's when it is done
	done   chan struct{}
	res    *ncmc.Result // a violating result that calls the error function, or nil
	cancel context.CancelFunc
}

func (h *huntRun) wait() *ncmc.Result { <-h.done; return h.res }

func (h *huntRun) finished() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

// startHunt starts a PCT bug hunt (bugHunt) until end; when it finds a
// run that calls the error function it calls found (which stops the
// exhaustive stages).
func (s *sweepCmd) startHunt(ctx context.Context, prog *ir.Program, target func(string) bool, end time.Time, found func()) *huntRun {
	h := &huntRun{done: make(chan struct{})}
	ctx, h.cancel = context.WithCancel(ctx)
	go func() {
		defer close(h.done)
		defer h.cancel()
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(&h.log, "pct: internal error: %v\n", p)
				h.res = nil
			}
		}()
		h.res = s.bugHunt(ctx, prog, target, end, &h.log)
		if h.res != nil {
			found()
		}
	}()
	return h
}

// dporRun is the dpor stage running beside the stateful stages.
type dporRun struct {
	log    strings.Builder // the stage's own log, appended to the task's when it is done
	done   chan struct{}
	res    *ncmc.Result // its answering result, or nil (set before done is closed)
	cancel context.CancelFunc
}

func (d *dporRun) wait() *ncmc.Result { <-d.done; return d.res }

func (d *dporRun) finished() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// startDPOR starts the ncmc explorer without specs (plain DPOR for SC: no
// state cache, no symmetry) on prog until end, for unreach-call. Its result
// answers the property if a violating execution calls the error function
// (a real execution: false is sound), or if every execution was explored
// with no bound hit and no budget stop (true); then it calls answered
// (which stops the stateful stages). It stops its search at the first loop
// or step bound hit, after which it could only answer false, which the bug
// hunts and the stateful explorer find as well.
func (s *sweepCmd) startDPOR(ctx context.Context, prog *ir.Program, target func(string) bool, base ncmc.Options, end time.Time, answered func()) *dporRun {
	d := &dporRun{done: make(chan struct{})}
	ctx, d.cancel = context.WithCancel(ctx)
	go func() {
		defer close(d.done)
		defer d.cancel()
		d.res = s.dpor(ctx, prog, target, base, end, &d.log)
		if d.res != nil {
			answered()
		}
	}()
	return d
}

// startKM starts the coverability explorer (ncmc/coverability.go) on prog
// until end. Its result answers unreach-call only when it is verified
// (every reachable state covered, no violation); then it calls answered
// (which stops the other stages).
func (s *sweepCmd) startKM(ctx context.Context, prog *ir.Program, base ncmc.Options, end time.Time, answered func()) *dporRun {
	d := &dporRun{done: make(chan struct{})}
	ctx, d.cancel = context.WithCancel(ctx)
	go func() {
		defer close(d.done)
		defer d.cancel()
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(&d.log, "coverability: internal error: %v\n", p)
				d.res = nil
			}
		}()
		opts := base
		// base.Races (no-data-race): the stage answers whether a data race
		// is reachable; other violations do not matter then.
		opts.Explorer, opts.StateCache, opts.Symmetry, opts.UnboundedLoops, opts.KeepGoing = "coverability", false, false, true, false
		opts.Timeout = time.Until(end)
		if opts.Timeout <= 0 {
			return
		}
		fmt.Fprintf(&d.log, "stage coverability (beside the stateful stages; main spawns threads in a loop): Karp-Miller over interchangeable threads, races %v, max-steps %d, %s left\n",
			opts.Races, opts.MaxSteps, opts.Timeout.Round(time.Millisecond))
		res, err := ncmc.Verify(ctx, prog, opts)
		if err != nil {
			fmt.Fprintln(&d.log, err)
			return
		}
		logResult(&d.log, res)
		if res.Verdict == ncmc.Verified || opts.Races && res.Kind == ncmc.RaceFree {
			d.res = res
			answered()
		}
	}()
	return d
}

// dpor is the dpor stage (startDPOR).
func (s *sweepCmd) dpor(ctx context.Context, prog *ir.Program, target func(string) bool, base ncmc.Options, end time.Time, log io.Writer) *ncmc.Result {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(log, "dpor: internal error: %v\n", p)
		}
	}()
	opts := base
	opts.Explorer, opts.StateCache, opts.Symmetry, opts.UnboundedLoops, opts.Races = "ncmc", false, false, false, false
	for _, keep := range []bool{false, true} {
		opts.KeepGoing, opts.Timeout = keep, time.Until(end)
		if opts.Timeout <= 0 {
			return nil
		}
		dctx, cancel := context.WithCancel(ctx)
		boundHit := false
		opts.ProgressEvery = time.Nanosecond // after every execution (0 means the default, 250 ms)
		opts.Progress = func(st ncmc.Stats) {
			if st.BoundHits > 0 && !boundHit {
				boundHit = true
				cancel()
			}
		}
		fmt.Fprintf(log, "stage dpor (beside the stateful stages): explorer ncmc (no specs: DPOR), unroll %s, max-steps %d, keep going %v, stops at the first bound hit, %s left\n",
			unrollText(opts), opts.MaxSteps, keep, opts.Timeout.Round(time.Millisecond))
		res, err := ncmc.Verify(dctx, prog, opts)
		cancel()
		if err != nil {
			fmt.Fprintln(log, err)
			return nil
		}
		logResult(log, res)
		a, _ := propertyAnswer(res, target, "unreach-call")
		switch {
		case a == "false":
			return res
		case a == "true" && !boundHit && res.Stopped == "" && res.Stats.BoundHits == 0:
			return res
		case boundHit:
			fmt.Fprintln(log, "dpor: a bound was hit: no answer true possible, stage over")
			return nil
		case res.Verdict == ncmc.Violation && res.Stopped == "" && !keep:
			// Another kind of violation came first: explore on.
			fmt.Fprintf(log, "first violation: %s; exploring on\n", res.Reason)
			continue
		}
		return nil
	}
	return nil
}

// bugHunt runs PCT (randomised bug finding, ncmc test) until end, with a
// loop bound of at least 64, and returns a violating result if a run
// violates the property (a real execution: the answer false is sound), or
// nil.
func (s *sweepCmd) bugHunt(ctx context.Context, prog *ir.Program, target func(string) bool, end time.Time, log io.Writer) *ncmc.Result {
	topts := ncmc.TestOptions{Strategy: ncmc.StrategyPCT, Runs: 1 << 30, Unroll: max(s.Unroll, 64), MaxSteps: s.MaxSteps}
	for _, keep := range []bool{false, true} {
		topts.Timeout, topts.KeepGoing = time.Until(end), keep
		if topts.Timeout <= 0 {
			return nil
		}
		fmt.Fprintf(log, "\nstage pct: bug hunt with PCT (unroll %d, keep going %v), %s left\n", topts.Unroll, keep, topts.Timeout.Round(time.Millisecond))
		if ctx.Err() != nil {
			fmt.Fprintln(log, "pct: stopped before it started")
			return nil
		}
		tr, err := ncmc.Test(ctx, prog, topts)
		if err != nil {
			fmt.Fprintln(log, err)
			return nil
		}
		fmt.Fprintf(log, "pct: %d runs, %s\n", tr.Stats.Executions, tr.Reason)
		if !tr.BugFound {
			return nil
		}
		if target(tr.Reason) {
			res := &ncmc.Result{Verdict: ncmc.Violation, Reason: tr.Reason, Kind: tr.Kind, Counterexample: tr.Counterexample, ViolationPos: tr.ViolationPos, Graph: tr.Graph,
				Model: "sc", Explorer: "pct", Stats: tr.Stats, Elapsed: tr.Stats.Elapsed}
			if len(tr.Counterexample) > 0 {
				fmt.Fprintln(log, "\ncounterexample:")
				printTrace(log, tr.Counterexample)
			}
			return res
		}
		for _, o := range tr.Outcomes {
			if target(o.Violation) {
				fmt.Fprintf(log, "pct: a run calls the error function: %s\n", o.Violation)
				return &ncmc.Result{Verdict: ncmc.Violation, Reason: o.Violation, Model: "sc", Explorer: "pct", Stats: tr.Stats, Elapsed: tr.Stats.Elapsed}
			}
		}
	}
	return nil
}

var errSweepTime = errors.New("time limit reached")

func unrollText(o ncmc.Options) string {
	if o.UnboundedLoops {
		return "none (unbounded loops)"
	}
	return fmt.Sprint(o.Unroll)
}

// explorerText names the exploration the answer came from, for the results.
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

// isDataRace reports whether a violation message is a data race (scraces.go).
func isDataRace(msg string) bool { return strings.HasPrefix(msg, "data race") }

// propertyAnswer maps a result to the answer for a property whose
// violations target recognises: false if some execution has one; true if
// the search ran to its end without one and without hitting a bound, where
// the only other violations allowed are those that merely end an
// execution of the C program (a failed assert() aborts it, a deadlock
// hangs it; for unreach-call only a result without any violation counts);
// else unknown.
func propertyAnswer(res *ncmc.Result, target func(string) bool, property string) (string, string) {
	for _, o := range res.Outcomes {
		if target(o.Violation) {
			return "false", o.Violation
		}
	}
	if res.Verdict == ncmc.Violation && target(res.Reason) {
		return "false", res.Reason
	}
	if res.Verdict == ncmc.Verified {
		return "true", res.Reason
	}
	if property == "no-data-race" && res.Verdict == ncmc.Violation && res.Stopped == "" && res.Stats.BoundHits == 0 {
		for _, o := range res.Outcomes {
			if strings.HasPrefix(o.Violation, "runtime error") {
				return "unknown", "a runtime error (undefined behaviour) ends some execution: " + o.Violation
			}
		}
		return "true", "all executions explored: no data race (some end in " + res.Reason + ")"
	}
	if res.Verdict == ncmc.Violation && res.Stopped != "" {
		return "unknown", res.Stopped
	}
	return "unknown", res.Reason
}

// load translates the program of a task.
// For no-data-race a call of the program's reach_error runs its body
// (cfront.Options.NoDataRace): it is no error there, and a body such
// as {} lets the program go on, maybe to a race.
func (s *sweepCmd) load(file, dataModel, property string) (*ir.Program, error) {
	if isC(file) {
		return cfront.CompileFile(file, cfront.Options{DataModel: cDataModel(dataModel), NoDataRace: property == propNoDataRace})
	}
	return frontend.LoadFile(file)
}

func isC(file string) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".c", ".i":
		return true
	}
	return false
}

// cDataModel is the task's data model for the C front end (ILP32 if the
// task names none).
func cDataModel(dataModel string) cfront.DataModel {
	if dm := cfront.DataModel(dataModel); dm != "" {
		return dm
	}
	return cfront.ILP32
}

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
		printTrace(w, res.Counterexample)
	}
	if len(res.Outcomes) > 0 {
		fmt.Fprintf(w, "\noutcomes (%d distinct):\n", len(res.Outcomes))
		for i, o := range res.Outcomes {
			if i == 50 {
				fmt.Fprintf(w, "  ... %d more\n", len(res.Outcomes)-50)
				break
			}
			fmt.Fprintf(w, "  %s [%s] x%d\n", o.State, orDash(o.Violation), o.Executions)
		}
	}
}

func categoryOf(expected, answer string) string {
	switch {
	case expected == "":
		return "-"
	case answer == "unknown":
		return "unknown"
	case answer == expected:
		return "correct"
	}
	return "wrong"
}

func scoreOf(expected, answer string) int {
	switch {
	case expected == "" || answer == "unknown":
		return 0
	case answer == "true" && expected == "true":
		return scoreCorrectTrue
	case answer == "false" && expected == "false":
		return scoreCorrectFalse
	case answer == "false":
		return scoreWrongFalse
	}
	return scoreWrongTrue
}

func summarize(rs []sweepResult, elapsed time.Duration, s *sweepCmd, corr *corrections) sweepSummary {
	sum := sweepSummary{Pairs: len(rs), TimeS: elapsed.Seconds(), Timeout: s.Timeout.String(), Unroll: s.Unroll,
		Explorer: s.Explorer, Generated: time.Now().UTC().Format(time.RFC3339)}
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
		sum.MaxScore += maxScoreOf(r.Expected)
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
			ct.MaxScore += maxScoreOf(exp)
		}
		sum.WithCorrections = ct
	}
	return sum
}

// maxScoreOf is the score of a correct answer for an expected verdict.
func maxScoreOf(expected string) int {
	switch expected {
	case "true":
		return scoreCorrectTrue
	case "false":
		return scoreCorrectFalse
	}
	return 0
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
	fmt.Fprintf(w, "%d (task, property) pairs: %d correct, %d wrong, %d unknown; score %d of %d; %.1fs (timeout %s, unroll %d, explorer %s)\n",
		sum.Pairs, sum.Correct, sum.Wrong, sum.Unknown, sum.Score, sum.MaxScore, sum.TimeS, sum.Timeout, sum.Unroll, sum.Explorer)
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
	cw.Write([]string{"task", "property", "expected", "answer", "category", "score", "time_s", "explorer", "reason", "file", "log", "corrected", "corrected_category", "corrected_score"})
	for _, r := range rs {
		cs := ""
		if r.Corrected != "" {
			cs = fmt.Sprint(r.CorrectedScore)
		}
		cw.Write([]string{r.Task, r.Property, r.Expected, r.Answer, r.Category, fmt.Sprint(r.Score),
			fmt.Sprintf("%.3f", r.TimeS), r.Explorer, firstLine(r.Reason), r.File, r.Log, r.Corrected, r.CorrectedCategory, cs})
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
	fmt.Fprintf(&b, "<h1>ncmc sweep</h1>\n<p>%d (task, property) pairs: <b>%d correct</b>, <b>%d wrong</b>, %d unknown. Score <b>%d</b> of %d. Total time %.1f s (timeout %s per pair, unroll %d, explorer %s). Generated %s.</p>\n",
		sum.Pairs, sum.Correct, sum.Wrong, sum.Unknown, sum.Score, sum.MaxScore, sum.TimeS, html.EscapeString(sum.Timeout), sum.Unroll, html.EscapeString(sum.Explorer), html.EscapeString(sum.Generated))
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

// unreachCallAnswer maps a result to the answer for unreach-call: false if
// some execution calls an error function, true if every execution was
// explored without any violation and without hitting a bound, else
// unknown (other violations, such as a failed assert() or a runtime error,
// say nothing about the error functions).
func unreachCallAnswer(res *ncmc.Result) (string, string) {
	return propertyAnswer(res, cfront.IsErrorCall, "unreach-call")
}
