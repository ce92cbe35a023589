package hunt

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// Schedule is a replayable record of one execution: every step (which thread
// moved, or which store buffer flushed) and every nondeterministic choice, in
// the order they happened, plus the bounds the execution ran under and how it
// ended. Replay re-runs it and checks every step.
//
// The text form (String, ParseSchedule) is a few "# key: value" header lines
// followed by whitespace-separated tokens:
//
//	t0.1              thread 0.1 takes one step (a visible instruction)
//	t0.1:flush=x      thread 0.1's store buffer writes its store to x (TSO/PSO)
//	t0.1:nondet=2/5   thread 0.1 picks alternative 2 of 5 of a nondet (the value lo+2)
//	t0:waiter=1/2     thread 0's signal wakes the waiter at index 1 of 2 (in wait order)
//
// Threads are named by their spawn path: t0 is main, t0.2 the second thread main spawned.
type Schedule struct {
	Program        string
	Model          string
	Unroll         int
	MaxSteps       int
	MaxThreadSteps int
	// Origin says which search produced the schedule (strategy, seed, run).
	Origin string
	// explore.Result is how the execution ended (see the "# result:" line); Replay
	// fails when the replayed execution ends differently.
	Result string
	Steps  []SchedStep
}

// SchedStep is one token of a Schedule: a step or a choice.
type SchedStep struct {
	Thread string // thread name without the "t" ("0", "0.1")
	Flush  bool   // a store-buffer flush of Thread to Loc
	Loc    string
	Choice bool // a choice made by Thread: alternative K of N, of Kind
	Kind   interp.ChoiceKind
	K, N   int
}

func (s SchedStep) String() string {
	switch {
	case s.Choice:
		kind := "nondet"
		if s.Kind == interp.ChooseWaiter {
			kind = "waiter"
		}
		return fmt.Sprintf("t%s:%s=%d/%d", s.Thread, kind, s.K, s.N)
	case s.Flush:
		return fmt.Sprintf("t%s:flush=%s", s.Thread, s.Loc)
	}
	return "t" + s.Thread
}

// String renders s in the text form ParseSchedule reads.
func (s *Schedule) String() string {
	var b strings.Builder
	b.WriteString("# ncmc schedule v1 (replay: ncmc test --replay THIS_FILE PROGRAM)\n")
	fmt.Fprintf(&b, "# program: %s\n", s.Program)
	fmt.Fprintf(&b, "# model: %s\n", s.Model)
	fmt.Fprintf(&b, "# unroll: %d\n", s.Unroll)
	fmt.Fprintf(&b, "# max-steps: %d\n", s.MaxSteps)
	fmt.Fprintf(&b, "# thread-steps: %d\n", s.MaxThreadSteps)
	if s.Origin != "" {
		fmt.Fprintf(&b, "# origin: %s\n", s.Origin)
	}
	if s.Result != "" {
		fmt.Fprintf(&b, "# result: %s\n", strings.ReplaceAll(s.Result, "\n", " "))
	}
	width := 0
	for i, st := range s.Steps {
		tok := st.String()
		if width > 0 && width+1+len(tok) > 100 {
			b.WriteByte('\n')
			width = 0
		} else if i > 0 {
			b.WriteByte(' ')
			width++
		}
		b.WriteString(tok)
		width += len(tok)
	}
	b.WriteByte('\n')
	return b.String()
}

// ParseSchedule reads the text form of a Schedule.
func ParseSchedule(text string) (*Schedule, error) {
	s := &Schedule{Model: "sc", Unroll: explore.DefaultUnroll, MaxSteps: explore.DefaultMaxSteps, MaxThreadSteps: DefaultMaxThreadSteps}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSpace(sc.Text())
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "#") {
			key, val, ok := strings.Cut(strings.TrimSpace(l[1:]), ":")
			if !ok {
				continue
			}
			val = strings.TrimSpace(val)
			var err error
			switch strings.TrimSpace(key) {
			case "program":
				s.Program = val
			case "model":
				s.Model = val
			case "unroll":
				s.Unroll, err = strconv.Atoi(val)
			case "max-steps":
				s.MaxSteps, err = strconv.Atoi(val)
			case "thread-steps":
				s.MaxThreadSteps, err = strconv.Atoi(val)
			case "origin":
				s.Origin = val
			case "result":
				s.Result = val
			}
			if err != nil {
				return nil, fmt.Errorf("schedule line %d: bad %s: %v", line, strings.TrimSpace(key), err)
			}
			continue
		}
		for _, tok := range strings.Fields(l) {
			st, err := parseSchedStep(tok)
			if err != nil {
				return nil, fmt.Errorf("schedule line %d: %v", line, err)
			}
			s.Steps = append(s.Steps, st)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if s.Unroll < 0 || s.MaxSteps < 0 || s.MaxThreadSteps < 0 {
		return nil, fmt.Errorf("schedule: bounds must not be negative")
	}
	return s, nil
}

func parseSchedStep(tok string) (SchedStep, error) {
	bad := func(why string) (SchedStep, error) {
		return SchedStep{}, fmt.Errorf("bad token %q: %s (want tN, tN:flush=LOC, tN:nondet=K/N or tN:waiter=K/N)", tok, why)
	}
	if !strings.HasPrefix(tok, "t") {
		return bad("a token starts with t and a thread name")
	}
	name, suffix, hasSuffix := strings.Cut(tok[1:], ":")
	if name == "" {
		return bad("no thread name")
	}
	for _, part := range strings.Split(name, ".") {
		if _, err := strconv.ParseUint(part, 10, 32); err != nil {
			return bad("thread names are dotted numbers like 0 or 0.1")
		}
	}
	st := SchedStep{Thread: name}
	if !hasSuffix {
		return st, nil
	}
	key, val, ok := strings.Cut(suffix, "=")
	if !ok {
		return bad("missing =")
	}
	switch key {
	case "flush":
		if val == "" {
			return bad("empty location")
		}
		st.Flush, st.Loc = true, val
		return st, nil
	case "nondet", "waiter":
		ks, ns, ok := strings.Cut(val, "/")
		k, err1 := strconv.Atoi(ks)
		n, err2 := strconv.Atoi(ns)
		if !ok || err1 != nil || err2 != nil || n < 2 || k < 0 || k >= n {
			return bad("want K/N with 0 <= K < N and N >= 2")
		}
		st.Choice, st.K, st.N = true, k, n
		if key == "waiter" {
			st.Kind = interp.ChooseWaiter
		}
		return st, nil
	}
	return bad("unknown kind " + key)
}

// ReplayResult is what Replay reproduced.
type ReplayResult struct {
	// explore.Result is how the replayed execution ended (same format as Schedule.Result).
	Result string
	// explore.Violation, Kind and Pos describe the violation, if any.
	Violation string
	Kind      string
	Pos       ir.Pos
	BoundHit  string
	Trace     []interp.TraceStep
	Graph     *seg.Graph
	Steps     int
}

// scheduleReplayer feeds a Schedule to an execution and checks every token.
type scheduleReplayer struct {
	s     *Schedule
	names *interp.Names
	i     int
	err   error
}

func (r *scheduleReplayer) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("replay diverged at token %d: %s", r.i+1, fmt.Sprintf(format, args...))
	}
}

func (r *scheduleReplayer) Choose(t int32, kind interp.ChoiceKind, n int) int {
	if r.err != nil {
		return 0
	}
	want := SchedStep{Thread: r.names.ThreadName(t), Choice: true, Kind: kind, N: n}
	if r.i >= len(r.s.Steps) {
		r.fail("the schedule has ended but the execution makes a choice (%s)", want)
		return 0
	}
	st := r.s.Steps[r.i]
	if !st.Choice || st.Thread != want.Thread || st.Kind != kind || st.N != n {
		want.K = 0
		r.fail("the schedule says %s, but the execution makes a choice of the form %s", st, strings.Replace(want.String(), "=0/", "=?/", 1))
		return 0
	}
	r.i++
	return st.K
}

func (r *scheduleReplayer) pick(en []interp.Action) (interp.Action, bool) {
	if r.i >= len(r.s.Steps) {
		r.fail("the schedule has ended but the execution goes on (enabled: %s)", actionNames(r.names, en))
		return interp.Action{}, false
	}
	st := r.s.Steps[r.i]
	if st.Choice {
		r.fail("the schedule says %s, but the execution is at a scheduling point (enabled: %s)", st, actionNames(r.names, en))
		return interp.Action{}, false
	}
	for _, a := range en {
		if r.names.ThreadName(a.T) == st.Thread && a.Flush == st.Flush && (!a.Flush || r.names.LocName(a.Loc) == st.Loc) {
			r.i++
			return a, true
		}
	}
	r.fail("%s is not enabled (enabled: %s)", st, actionNames(r.names, en))
	return interp.Action{}, false
}

// Replay re-runs prog along s, checking that every token is possible when it
// comes (the thread is enabled, the choice has the recorded number of
// alternatives), that the execution ends exactly when the schedule does, and
// that it ends as s.Result says. It returns the reproduced execution's story.
func Replay(prog *ir.Program, s *Schedule) (*ReplayResult, error) {
	if prog == nil || prog.Main == nil {
		return nil, fmt.Errorf("program has no main function")
	}
	model, err := explore.OperationalModel(s.Model)
	if err != nil {
		return nil, err
	}
	cfg := interp.Config{Unroll: s.Unroll, MaxSteps: s.MaxSteps, Model: model, MaxThreadSteps: s.MaxThreadSteps}
	if cfg.Unroll == 0 {
		cfg.Unroll = explore.DefaultUnroll
	}
	names := interp.NewNames(prog)
	r := &scheduleReplayer{s: s, names: names}
	x := interp.NewExecution(prog, names, cfg, r, true)
	x.CheckEnd()
	for !x.Finished() && r.err == nil {
		a, ok := r.pick(x.Enabled())
		if !ok {
			break
		}
		x.Step(a)
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.i < len(s.Steps) {
		return nil, fmt.Errorf("replay diverged: the execution ended after %d of the schedule's %d tokens (%s)", r.i, len(s.Steps), outcomeLine(x))
	}
	res := &ReplayResult{Result: outcomeLine(x), Trace: x.Trace, Graph: x.G, Steps: x.Steps(), BoundHit: x.BoundHit()}
	res.Violation, res.Kind, res.Pos = x.Violation()
	if s.Result != "" && res.Result != s.Result {
		return res, fmt.Errorf("replay ended differently: %q, but the schedule says %q", res.Result, s.Result)
	}
	return res, nil
}
