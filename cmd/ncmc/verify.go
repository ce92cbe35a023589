package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"ncmc/commspec"
	"ncmc/frontend"
	cfront "ncmc/frontend/c"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/svcomp"
)

type verifyCmd struct {
	File          string        `arg:"" help:"Program to verify (.cir, or C: .c, .i)."`
	Model         string        `help:"Memory model: ${models_help} (tso/pso: operational store buffers; ra/rc11: graph exploration, each consistent execution graph once (the trust explorer by default), data races on non-atomic accesses are violations)." default:"sc" enum:"${models}"`
	Explorer      string        `help:"Exploration algorithm (ncmc.Explorers): ${explorers_help}." default:"auto" enum:"${explorers}"`
	Unroll        int           `help:"Default loop bound: a loop whose body runs more often stops the execution with 'bound hit' (verdict unknown; under sc, tso and pso the auto explorer then explores again without it, with a state cache that ends finite-state loops). Loops annotated @unroll(N) use N." default:"8"`
	MaxExecutions int           `name:"max-executions" help:"Stop after N executions (0: no limit); stopping early gives unknown." default:"0"`
	MaxSteps      int           `name:"max-steps" help:"Visible steps allowed per execution before it counts as a bound hit." default:"100000"`
	MaxThreads    int           `name:"max-threads" help:"Threads one execution may have, main included; a spawn beyond it is a bound hit (unknown)." default:"1000"`
	Timeout       time.Duration `help:"Wall-clock limit, e.g. 30s or 5m (0: none); hitting it gives unknown." default:"0"`
	Workers       int           `help:"Parallel workers of the mcr explorer (each with its own Z3 context) and of the vmcr and trust explorers (subtrees; 0: number of CPUs). The verdict and outcome set do not depend on it; under vmcr and trust neither do the counts and the counterexample." default:"0"`
	KeepGoing     bool          `name:"keep-going" help:"Explore past the first violation and list every outcome (C programs without --outcomes: every distinct violation)."`
	Outcomes      bool          `help:"C programs: explore every final state of the globals and list the outcomes, as for CIR and litmus input. Without it the default explorer (vmcr) explores one execution per read-value vector (and nondeterministic choices), not one per final state, so no outcome list is printed (it would not be exhaustive); the verdict, the counterexample and with --keep-going every distinct violation are the same."`
	Classes       bool          `help:"Count distinct execution classes (read-value vectors, reads-from graphs, and with final states where they are explored)."`
	StateCache    bool          `name:"state-cache" help:"Reference and ncmc explorers: cut off runs that reach a state seen before (outcomes and verdict unchanged; counts cover the remaining runs). With ncmc it replaces source-set DPOR by sleep sets with state caching."`
	Races         bool          `help:"Report a data race (two accesses to one location by different threads, at least one a write and one non-atomic, unordered by happens-before: program order, spawn/join, mutexes, atomic blocks, release/acquire atomics) as a violation naming both accesses. Under sc this uses the stateful reference explorer; ra and rc11 report races anyway."`
	JSON          bool          `name:"json" help:"Print one JSON object instead of text."`
	Dot           string        `help:"Write the execution graph of the counterexample (or of the first complete execution) to this DOT file." type:"path"`
	Quiet         bool          `short:"q" help:"Print only the verdict line."`
	Property      string        `help:"SV-COMP property file (.prp: unreach-call or no-data-race): check the property and end the output with an SV-COMP answer line 'VERDICT: TRUE', 'VERDICT: FALSE(unreach-call)', 'VERDICT: FALSE(no-data-race)' or 'VERDICT: UNKNOWN (reason)'. With the default explorer (sc, no --spec, no --max-executions) it runs the stages of ncmc sweep (a PCT bug hunt, the stateful explorer with and without loop bounds, DPOR, the coverability explorer; C constructs the exact translation rejects are under-approximated, which can answer false but never true) within --timeout, 900s if none; with another --explorer, that explorer alone (no-data-race: the stateful reference explorer)." type:"existingfile"`
	DataModel     string        `name:"data-model" help:"C data model of the task: ILP32 (SV-COMP ConcurrencySafety) or LP64." default:"ILP32" enum:"ILP32,LP64"`
	MaxMemory     int           `name:"max-memory" help:"With --property and the default explorer: memory (MB) the stages may hold; past it the answer is unknown (memory bound hit) (0: 60% of the machine's memory)." default:"0"`
	Witness       string        `help:"Write an SV-COMP GraphML 1.0 violation witness of the counterexample to this file." type:"path"`
	Spec          []string      `help:"Commutativity specification (YAML, docs/commspec.md) of an object type of the program; repeatable, one per object type. Selects the ncmc explorer (sc only): executions that differ only in the order of commuting invocations are explored once, and outcomes show objects by their abstraction functions." type:"existingfile"`
	NCMCRule      string        `name:"ncmc-rule" help:"Reduction of the ncmc explorer: complete (default; semantically complete partial-order reduction, docs/ncmc.md) or thesis (the NCMC thesis's scoped-read pruning; known to miss behaviours)." default:"complete" enum:"complete,thesis"`
	Decider       string        `help:"How mcr decides its feasibility queries: native (a native decider, Z3 only when it cannot decide) or z3 (every query to Z3, as before)." default:"native" enum:"native,z3"`
	DebugMCR      bool          `name:"debug-mcr" help:"Print every mcr execution and the seeds it produced (to stderr)." hidden:""`
	CPUProfile    string        `name:"cpuprofile" help:"Write a CPU profile of the exploration to this file (for developers)." hidden:""`
	MemProfile    string        `name:"memprofile" help:"Write a heap profile (after the exploration) to this file (for developers)." hidden:""`
	Define        []string      `name:"define" short:"D" help:"C: define a macro, as cc -D does: -DN=10 or -D N=10, -DDEBUG (value 1); repeatable." placeholder:"NAME[=VALUE]"`
	IncludeDir    []string      `name:"include-dir" short:"I" help:"C: add a directory to the header search path, as cc -I does (searched for #include \"...\" after the file's directory, and for #include <...> before the system directories); repeatable." placeholder:"DIR"`
}

// jsonResult is the --json output: one object per run.
type jsonResult struct {
	File       string       `json:"file"`
	Verdict    ncmc.Verdict `json:"verdict"`
	Reason     string       `json:"reason"`
	Kind       string       `json:"kind,omitempty"`
	Model      string       `json:"model"`
	Explorer   string       `json:"explorer"`
	Executions int          `json:"executions"`
	Complete   int          `json:"complete"`
	Blocked    int          `json:"blocked"`
	BoundHits  int          `json:"bound_hits"`
	// Outcomes is null when the outcomes are not all known
	// (OutcomesPartial: a C program without --outcomes).
	Outcomes        []ncmc.Outcome `json:"outcomes"`
	OutcomesPartial bool           `json:"outcomes_partial,omitempty"`
	// Violations are the distinct violations, with OutcomesPartial and
	// --keep-going (every one).
	Violations     []violationJSON    `json:"violations,omitempty"`
	Classes        *ncmc.Classes      `json:"classes,omitempty"`
	TimeMS         float64            `json:"time_ms"`
	Location       string             `json:"location,omitempty"`
	Note           string             `json:"note,omitempty"`
	Seeds          int                `json:"seeds"`
	SMTQueries     int                `json:"smt_queries"`
	Native         int                `json:"native"`       // queries decided natively (mcr, vmcr)
	Z3Fallbacks    int                `json:"z3_fallbacks"` // queries passed to Z3 (mcr: native unknown; vmcr: search budget)
	SMTMS          float64            `json:"smt_ms"`
	ReplayMS       float64            `json:"replay_ms"`
	Workers        int                `json:"workers,omitempty"`
	Counterexample []interp.TraceStep `json:"counterexample"`
	Stats          ncmc.Stats         `json:"stats"`
	// SVCOMP is the SV-COMP answer, with --property.
	SVCOMP *svcompJSON `json:"svcomp,omitempty"`
}

// violationJSON is a distinct violation and how many explored executions
// ended in it.
type violationJSON struct {
	Violation  string `json:"violation"`
	Executions int    `json:"executions"`
}

// skipFinalStates reports whether final states are left out of the
// classes (ncmc.Options.NoFinalStates): for C programs unless --outcomes
// is given. CIR and litmus input keep them (outcome lists are what their
// users read; litmus verdicts depend on final states).
func (v *verifyCmd) skipFinalStates() bool { return svcomp.IsC(v.File) && !v.Outcomes }

// violations lists the distinct violations among outcomes, sorted, with
// the executions that ended in each (states merged).
func violations(outcomes []ncmc.Outcome) []violationJSON {
	var out []violationJSON
	at := map[string]int{}
	for _, o := range outcomes {
		if o.Violation == "" {
			continue
		}
		i, ok := at[o.Violation]
		if !ok {
			i = len(out)
			at[o.Violation] = i
			out = append(out, violationJSON{Violation: o.Violation})
		}
		out[i].Executions += o.Executions
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Violation < out[j].Violation })
	return out
}

// svcompJSON is the SV-COMP answer in verify's --json output.
type svcompJSON struct {
	Property string        `json:"property"`
	Answer   svcomp.Answer `json:"answer"`  // true, false or unknown
	Verdict  string        `json:"verdict"` // TRUE, FALSE(<property>) or UNKNOWN, as the answer line
	Reason   string        `json:"reason"`
}

func (v *verifyCmd) run(e *env) int {
	if !checkFlags(e.stderr, positive("--unroll", v.Unroll), positive("--max-steps", v.MaxSteps), positive("--max-threads", v.MaxThreads),
		nonNegative("--max-executions", v.MaxExecutions), nonNegativeDuration("--timeout", v.Timeout),
		nonNegative("--workers", v.Workers), nonNegative("--max-memory", v.MaxMemory)) {
		return exitBadInput
	}
	if v.CPUProfile != "" {
		f, err := os.Create(v.CPUProfile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	if v.MemProfile != "" {
		defer func() {
			if f, err := os.Create(v.MemProfile); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	var property svcomp.Property
	if v.Property != "" {
		property, _, _ = svcomp.ReadPropertyFile(v.Property)
	}
	start := time.Now()
	prog, err := v.loadWithin(property)
	if err == frontend.ErrTimeBound {
		return v.frontEndTimeout(e, time.Since(start))
	}
	if err != nil {
		if u, ok := err.(*frontend.Unsupported); ok {
			if v.usePortfolio() && len(v.Define)+len(v.IncludeDir) > 0 {
				// The sweep's stages would translate the file again
				// (under-approximated) without the -D and -I flags.
				return v.unsupported(e, u)
			}
			if v.usePortfolio() {
				return v.portfolio(e, nil) // may answer false on an under-approximated translation
			}
			return v.unsupported(e, u) // valid input that cannot be checked: unknown
		}
		fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
		return exitBadInput
	}
	if v.usePortfolio() {
		return v.portfolio(e, prog)
	}

	opts := ncmc.Options{
		Model: v.Model, Explorer: v.Explorer, Unroll: v.Unroll,
		MaxExecutions: v.MaxExecutions, MaxSteps: v.MaxSteps, MaxThreads: v.MaxThreads, Timeout: v.remaining(start),
		KeepGoing: v.KeepGoing, Classes: v.Classes, Workers: v.Workers, StateCache: v.StateCache, Decider: v.Decider,
		Races: v.Races, NoFinalStates: v.skipFinalStates(),
	}
	for _, f := range v.Spec {
		s, err := commspec.ParseFile(f)
		if err != nil {
			fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
			return exitBadInput
		}
		if err := s.CheckProgram(prog); err != nil {
			fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
			return exitBadInput
		}
		opts.Specs = append(opts.Specs, s)
	}
	if len(v.Spec) > 0 {
		opts.NCMCRule = v.NCMCRule
	}
	if v.DebugMCR {
		opts.Debug = func(format string, args ...any) { fmt.Fprintf(e.stderr, format+"\n", args...) }
	}
	progress := e.stderrTerm && !v.JSON && !v.Quiet
	if progress {
		opts.Progress = func(s ncmc.Stats) {
			rate := float64(s.Executions) / s.Elapsed.Seconds()
			fmt.Fprintf(e.stderr, "\r\033[K%s: %d executions, queue %d, %.0f exec/s, %s", v.File, s.Executions, s.Queue, rate, s.Elapsed.Round(100*time.Millisecond))
		}
	}
	var res *ncmc.Result
	var answer svcomp.Answer
	var answerReason string
	if v.Property != "" {
		res, answer, answerReason, err = v.checkProperty(e, prog, opts)
		if res == nil && err == nil {
			return exitUnknown // an unsupported property: answered UNKNOWN
		}
	} else {
		res, err = ncmc.Verify(e.ctx, prog, opts)
	}
	if progress {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	if v.Explorer == "coverability" && res.Explorer == "coverability" && res.Kind == "unsupported" {
		// An explorer chosen by the user that does not apply to the program
		// is a usage error, as it is under a memory model it does not
		// support (Verify's error).
		fmt.Fprintf(e.stderr, "ncmc: %s: %s\n", v.File, res.Reason)
		return exitBadInput
	}
	if v.Dot != "" && res.Graph != nil {
		if err := writeDOT(v.Dot, res); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	}
	if v.JSON {
		if code := v.printJSON(e, res, answer, answerReason); code != 0 {
			return code
		}
	} else {
		printText(e.stdout, v, res)
	}
	if v.Witness != "" {
		v.writeWitness(e, res)
	}
	if v.Property != "" {
		return v.printAnswer(e, answer, answerReason)
	}
	switch res.Verdict {
	case ncmc.Verified:
		return exitVerified
	case ncmc.Violation:
		return exitViolation
	}
	return exitUnknown
}

// loadWithin is load bounded by --timeout (frontend.Bounded).
func (v *verifyCmd) loadWithin(property svcomp.Property) (*ir.Program, error) {
	return withFrontEndGC(func() (*ir.Program, error) {
		return frontend.Bounded(nil, v.Timeout, func() (*ir.Program, error) { return v.load(property) })
	})
}

// remaining is what is left of --timeout after the front end, which
// started at start (0: no time bound; at least a millisecond).
func (v *verifyCmd) remaining(start time.Time) time.Duration {
	if v.Timeout <= 0 {
		return 0
	}
	return max(v.Timeout-time.Since(start), time.Millisecond)
}

// frontEndTimeout reports an unknown verdict for a program whose
// translation outlived --timeout.
func (v *verifyCmd) frontEndTimeout(e *env, took time.Duration) int {
	reason := fmt.Sprintf("time bound %s hit in the front end (translating the program)", v.Timeout)
	res := &ncmc.Result{Verdict: ncmc.Unknown, Reason: reason, Kind: "time", Model: v.Model, Explorer: "none", Elapsed: took, Outcomes: []ncmc.Outcome{}}
	if v.JSON {
		if code := v.printJSON(e, res, svcomp.Unknown, reason); code != 0 {
			return code
		}
	} else {
		printText(e.stdout, v, res)
	}
	if v.Property != "" {
		return v.printAnswer(e, svcomp.Unknown, reason)
	}
	return exitUnknown
}

// load translates the program: C with the data model, the property's
// options and the -D and -I flags; CIR by its front end.
func (v *verifyCmd) load(property svcomp.Property) (*ir.Program, error) {
	if !svcomp.IsC(v.File) {
		if len(v.Define)+len(v.IncludeDir) > 0 {
			return nil, fmt.Errorf("ncmc: -D and -I apply to C programs only, not %s", v.File)
		}
		return svcomp.Load(v.File, v.DataModel, property)
	}
	for _, d := range v.Define {
		if name, _, _ := strings.Cut(d, "="); !cMacroName.MatchString(name) {
			return nil, fmt.Errorf("ncmc: -D%s: %q is not a macro name", d, name)
		}
	}
	opts := cfront.Options{DataModel: svcomp.CDataModel(v.DataModel), NoDataRace: property == svcomp.NoDataRace,
		Defines: v.Define, IncludePaths: v.IncludeDir, ZeroHeap: property != ""}
	// Dead loads are kept for --races and for the trust explorer, a
	// cross-check of graph exploration under sc and tso that counts graphs
	// as GenMC does (one per reads-from choice of every load).
	return cfront.CompileFile(v.File, opts.ForModel(v.Model, v.Races || v.Explorer == "trust"))
}

// cMacroName matches a C identifier (the name of a -D macro).
var cMacroName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// printJSON prints res as one JSON object, with the SV-COMP answer and
// its reason when --property is given; it returns exitBadInput if that
// fails, else 0.
func (v *verifyCmd) printJSON(e *env, res *ncmc.Result, answer svcomp.Answer, reason string) int {
	out := jsonResult{File: v.File, Verdict: res.Verdict, Reason: res.Reason, Kind: res.Kind,
		Model: res.Model, Explorer: res.Explorer, Executions: res.Stats.Executions,
		Complete: res.Stats.Complete, Blocked: res.Stats.Blocked, BoundHits: res.Stats.BoundHits,
		Outcomes: res.Outcomes, Classes: res.Classes, TimeMS: float64(res.Elapsed.Microseconds()) / 1000,
		Counterexample: res.Counterexample, Stats: res.Stats, Note: res.Note,
		Seeds: res.Stats.Seeds, SMTQueries: res.Stats.SMTQueries, Native: res.Stats.Native, Z3Fallbacks: res.Stats.Fallbacks, SMTMS: res.Stats.SMTMS, ReplayMS: res.Stats.ReplayMS}
	if res.ViolationPos.IsValid() {
		out.Location = res.ViolationPos.String()
	}
	if res.OutcomesPartial {
		out.Outcomes, out.OutcomesPartial = nil, true
		if v.KeepGoing {
			out.Violations = violations(res.Outcomes)
		}
	}
	if out.Counterexample == nil {
		out.Counterexample = []interp.TraceStep{}
	}
	if v.Property != "" {
		p, _, _ := svcomp.ReadPropertyFile(v.Property)
		out.SVCOMP = &svcompJSON{Property: string(p), Answer: answer, Verdict: answer.VerdictFor(p, reason), Reason: reason}
	}
	enc := json.NewEncoder(e.stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	return 0
}

func printText(w io.Writer, v *verifyCmd, res *ncmc.Result) {
	fmt.Fprintf(w, "%s: %s (%s)\n", v.File, strings.ToUpper(string(res.Verdict)), res.Reason)
	if v.Quiet {
		return
	}
	if res.ViolationPos.IsValid() {
		fmt.Fprintf(w, "  at %s\n", res.ViolationPos)
	}
	s := res.Stats
	fmt.Fprintf(w, "model %s, explorer %s: %d executions (%d complete, %d blocked, %d bound hits) in %s\n",
		res.Model, res.Explorer, s.Executions, s.Complete, s.Blocked, s.BoundHits, res.Elapsed.Round(time.Microsecond))
	if res.Explorer == "ncmc" && s.Pruned > 0 {
		fmt.Fprintf(w, "ncmc: %d runs cut by sleep sets (pruned)\n", s.Pruned)
	}
	if res.Explorer == "ncmc" && s.Cached > 0 {
		fmt.Fprintf(w, "ncmc: %d runs cut at a state seen before (state cache)\n", s.Cached)
	}
	if res.Explorer == "coverability" {
		fmt.Fprintf(w, "coverability: %d abstract states kept, %d runs cut at a covered state\n", s.States, s.Pruned)
	}
	if res.Explorer == "vmcr" {
		fmt.Fprintf(w, "vmcr: %d nodes (annotated partial traces), %d interpreter runs, %d queries (%d decided natively, %d Z3 fallbacks)\n", s.Nodes, s.Runs, s.SMTQueries, s.Native, s.Fallbacks)
	}
	if res.Explorer == "mcr" {
		fmt.Fprintf(w, "mcr: %d seeds, %d queries (%d decided natively, %d Z3 fallbacks, %d Z3 calls), SMT %.1f ms, replay %.1f ms\n", s.Seeds, s.SMTQueries, s.Native, s.Fallbacks, s.Z3Calls, s.SMTMS, s.ReplayMS)
		if s.NativeReplayFailures > 0 {
			fmt.Fprintf(w, "mcr: %d native witnesses failed to replay (asked Z3 again)\n", s.NativeReplayFailures)
		}
	}
	if res.Note != "" {
		fmt.Fprintf(w, "note: %s\n", res.Note)
	}
	if res.Classes != nil {
		seg := ""
		if res.Classes.SEG > 0 {
			seg = fmt.Sprintf(", %d seg (semantic execution graphs)", res.Classes.SEG)
		}
		choices := ""
		if res.Classes.ReadChoices != res.Classes.ReadValues {
			choices = fmt.Sprintf(", %d read values with choices", res.Classes.ReadChoices)
		}
		finals := fmt.Sprintf(", %d read values with final states", res.Classes.Values)
		if res.OutcomesPartial {
			finals = " (final states not explored: --outcomes)"
		}
		fmt.Fprintf(w, "classes: %d read-value vectors, %d reads-from graphs%s%s%s\n", res.Classes.ReadValues, res.Classes.RF, seg, choices, finals)
	}
	if len(res.Counterexample) > 0 {
		fmt.Fprintln(w, "\ncounterexample:")
		printTrace(w, res.Counterexample)
		fmt.Fprintln(w)
	}
	if res.OutcomesPartial {
		// Not every final state was explored: a list would look
		// exhaustive and is not. With --keep-going every distinct
		// violation is there (without it, the first one only: the
		// verdict and the counterexample show it).
		fmt.Fprintln(w, "outcomes: not listed: final states were not explored (one execution per read-value vector); --outcomes explores and lists them")
		if vs := violations(res.Outcomes); len(vs) > 0 && v.KeepGoing {
			fmt.Fprintf(w, "violations (%d distinct):\n", len(vs))
			for _, x := range vs {
				fmt.Fprintf(w, "  [%s] x%d\n", x.Violation, x.Executions)
			}
		}
		return
	}
	if len(res.Outcomes) > 0 {
		fmt.Fprintf(w, "outcomes (%d distinct):\n", len(res.Outcomes))
		for _, o := range res.Outcomes {
			state := o.State
			if state == "" {
				state = "(no globals)"
			}
			if o.Violation != "" {
				fmt.Fprintf(w, "  %s   [%s] x%d\n", state, o.Violation, o.Executions)
			} else {
				fmt.Fprintf(w, "  %s   x%d\n", state, o.Executions)
			}
		}
	}
}

// printTrace prints a counterexample (svcomp.WriteTrace).
func printTrace(w io.Writer, steps []interp.TraceStep) { svcomp.WriteTrace(w, steps) }

func writeDOT(path string, res *ncmc.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeGraphDOT(f, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
