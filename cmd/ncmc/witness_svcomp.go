package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	cfront "ncmc/frontend/c"
	"ncmc/ir"
	"ncmc/ncmc"
)

// SV-COMP properties ncmc knows by their property file's text.
const (
	propUnreachCall = "unreach-call"
	propNoDataRace  = "no-data-race"
)

// readProperty reads an SV-COMP property file (.prp) and names the
// property it states: unreach-call, no-data-race, or an error for a
// property ncmc does not check (the name is still returned when known).
func readProperty(path string) (name, text string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	text = strings.TrimSpace(string(b))
	norm := strings.Join(strings.Fields(text), "")
	switch {
	case text == "" || !strings.HasPrefix(norm, "CHECK("):
		return "", text, fmt.Errorf("%s: not an SV-COMP property file (no CHECK( ... ) line)", path)
	case strings.Contains(norm, "G!call(reach_error())") || strings.Contains(norm, "G!call(__VERIFIER_error())"):
		return propUnreachCall, text, nil
	case strings.Contains(norm, "G!data-race"):
		return propNoDataRace, text, nil
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return base, text, fmt.Errorf("%s: property %s is not supported (ncmc checks unreach-call)", path, base)
}

// svcompVerdict is the SV-COMP answer for an answer of propertyAnswer:
// "TRUE", "FALSE(<property>)" or "UNKNOWN".
func svcompVerdict(property, answer string) string {
	switch answer {
	case "true":
		return "TRUE"
	case "false":
		return "FALSE(" + property + ")"
	}
	return "UNKNOWN"
}

// checkSVCOMP verifies prog for an SV-COMP property (unreach-call or
// no-data-race). A first violation of another kind (a failed assert(), a
// deadlock, a runtime error) says nothing about the property, so the
// exploration then goes on past violations to look for one of the
// property's. Data races are detected by the stateful reference explorer
// (as in sweep), which the default and mcr give way to; so does an mcr that
// fails. It returns the last
// result and the answer ("true", "false" or "unknown") with its reason.
func checkSVCOMP(ctx context.Context, prog *ir.Program, opts ncmc.Options, property string) (*ncmc.Result, string, string, error) {
	target := cfront.IsErrorCall
	if property == propNoDataRace {
		target = isDataRace
		opts.Races = true
		if opts.Explorer == "auto" || opts.Explorer == "mcr" || opts.Explorer == "" {
			opts.Explorer, opts.StateCache = "reference", true
		}
	}
	deadline := time.Now().Add(opts.Timeout)
	res, err := ncmc.Verify(ctx, prog, opts)
	if err != nil && (opts.Explorer == "auto" || opts.Explorer == "mcr" || opts.Explorer == "") {
		// mcr can fail (the solver gives up): as sweep, go on with the
		// stateful reference explorer for the time left.
		opts.Explorer, opts.StateCache = "reference", true
		if opts.Timeout > 0 {
			if opts.Timeout = time.Until(deadline); opts.Timeout <= 0 {
				return nil, "", "", fmt.Errorf("%v (no time left for the reference explorer)", err)
			}
		}
		res, err = ncmc.Verify(ctx, prog, opts)
	}
	if err != nil {
		return nil, "", "", err
	}
	if res.Verdict == ncmc.Violation && !target(res.Reason) {
		opts.KeepGoing = true
		if opts.Timeout > 0 {
			opts.Timeout = time.Until(deadline)
		}
		if opts.Timeout >= 0 {
			more, err := ncmc.Verify(ctx, prog, opts)
			if err != nil {
				return nil, "", "", err
			}
			res = more
		}
	}
	answer, reason := propertyAnswer(res, target, property)
	return res, answer, reason, nil
}

// errorCallTrace returns the counterexample of res if it ends in a call
// of an error function (the witness of an unreach-call violation), else
// nil.
func errorCallTrace(res *ncmc.Result) []ncmc.TraceStep {
	steps := res.Counterexample
	if len(steps) == 0 || !cfront.IsErrorCall(steps[len(steps)-1].What) {
		return nil
	}
	return steps
}

// sweepWitness writes the violation witness of a false answer of a sweep
// unit to --out as <dir>-<task>.graphml and notes it in the task's log.
func (s *sweepCmd) sweepWitness(u *sweepUnit, res *ncmc.Result, log io.Writer) {
	u.decided = res
	if s.Out == "" {
		return // verify --property: it writes --witness itself
	}
	steps := errorCallTrace(res)
	if steps == nil {
		fmt.Fprintln(log, "no witness: the counterexample found does not end in an error call")
		return
	}
	r := &u.res
	name := fmt.Sprintf("%s-%s.graphml", filepath.Base(filepath.Dir(r.YML)), r.Task)
	info := witnessInfo{ProgramFile: r.File, Specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )",
		DataModel: u.dataModel, Producer: producer(), Created: time.Now(), Language: witnessLanguage(r.File)}
	if prp := sweepPropertyFile(r.YML, r.Property); prp != "" {
		if _, text, err := readProperty(prp); err == nil {
			info.Specification = text
		}
	}
	if err := writeWitnessFile(filepath.Join(s.Out, name), info, steps); err != nil {
		fmt.Fprintf(log, "witness not written: %v\n", err)
		return
	}
	fmt.Fprintf(log, "witness %s\n", name)
}

// sweepPropertyFile finds the property file of a task's property in the
// usual sv-benchmarks layout (../properties/<property>.prp next to the
// task's directory), or "".
func sweepPropertyFile(yml, property string) string {
	for _, dir := range []string{filepath.Join(filepath.Dir(yml), "..", "properties"), filepath.Join(filepath.Dir(yml), "properties")} {
		p := filepath.Join(dir, property+".prp")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// loadProgram loads a CIR or C program; C programs are translated under
// dataModel (ILP32 or LP64), for property (see sweepCmd.load).
func loadProgram(file, dataModel, property string) (*ir.Program, error) {
	return (&sweepCmd{}).load(file, dataModel, property)
}

// checkProperty checks the property file of --property. An unsupported
// property is answered UNKNOWN here (nil result, nil error).
func (v *verifyCmd) checkProperty(e *env, prog *ir.Program, opts ncmc.Options) (*ncmc.Result, string, string, error) {
	name, _, err := readProperty(v.Property)
	if err != nil {
		fmt.Fprintf(e.stdout, "%s: UNKNOWN (%v)\n", v.File, err)
		v.printAnswer(e, "unknown", err.Error())
		return nil, "", "", nil
	}
	return checkSVCOMP(e.ctx, prog, opts, name)
}

// printAnswer prints the SV-COMP answer line (not with --json, whose
// output stays one JSON object) and returns the exit code of the answer.
func (v *verifyCmd) printAnswer(e *env, answer, reason string) int {
	property, _, _ := readProperty(v.Property)
	line := "VERDICT: " + svcompVerdict(property, answer)
	if answer != "true" && answer != "false" {
		line += " (" + firstLine(reason) + ")"
	}
	if !v.JSON {
		fmt.Fprintln(e.stdout, line)
	}
	switch answer {
	case "true":
		return exitVerified
	case "false":
		return exitViolation
	}
	return exitUnknown
}

// writeWitness writes --witness for a violation: with --property, only
// a counterexample that ends in an error call is a witness of the
// property; without, any counterexample is written (its specification is
// unreach-call when it ends in an error call, else ncmc's own violation
// kind, which no SV-COMP validator knows).
func (v *verifyCmd) writeWitness(e *env, res *ncmc.Result) {
	if res.Verdict != ncmc.Violation || len(res.Counterexample) == 0 {
		fmt.Fprintf(e.stderr, "ncmc: no witness written to %s: no violation was found\n", v.Witness)
		return
	}
	steps := errorCallTrace(res)
	info := witnessInfo{ProgramFile: v.File, DataModel: v.DataModel, Producer: producer(),
		Created: time.Now(), Language: witnessLanguage(v.File), Specification: unreachCallSpec}
	if v.Property != "" {
		if name, _, _ := readProperty(v.Property); name != propUnreachCall {
			fmt.Fprintf(e.stderr, "ncmc: no witness written to %s: witnesses are written for unreach-call only (SV-COMP does not validate %s violation witnesses)\n", v.Witness, name)
			return
		}
		if steps == nil {
			fmt.Fprintf(e.stderr, "ncmc: no witness written to %s: the counterexample found (%s) does not call an error function\n", v.Witness, res.Reason)
			return
		}
		if _, text, err := readProperty(v.Property); err == nil {
			info.Specification = text
		}
	} else if steps == nil {
		steps = res.Counterexample
		info.Specification = "ncmc: " + res.Kind + " (" + res.Reason + ")"
	}
	if err := writeWitnessFile(v.Witness, info, steps); err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
	}
}
