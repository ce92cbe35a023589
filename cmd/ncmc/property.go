package main

import (
	"fmt"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/svcomp"
)

// checkProperty checks the property file of --property with the explorer
// of opts alone (svcomp.CheckExplorer). An unsupported property is
// answered UNKNOWN here (nil result, nil error).
func (v *verifyCmd) checkProperty(e *env, prog *ir.Program, opts ncmc.Options) (*ncmc.Result, svcomp.Answer, string, error) {
	name, _, err := svcomp.ReadPropertyFile(v.Property)
	if err != nil {
		fmt.Fprintf(e.stdout, "%s: UNKNOWN (%v)\n", v.File, err)
		v.printAnswer(e, svcomp.Unknown, err.Error())
		return nil, "", "", nil
	}
	return svcomp.CheckExplorer(e.ctx, prog, opts, name)
}

// printAnswer prints the SV-COMP answer line (not with --json, whose
// output stays one JSON object that carries the answer) and returns the
// exit code of the answer.
func (v *verifyCmd) printAnswer(e *env, answer svcomp.Answer, reason string) int {
	property, _, _ := svcomp.ReadPropertyFile(v.Property)
	line := "VERDICT: " + answer.VerdictFor(property, reason)
	if !answer.Definite() {
		line += " (" + firstLine(reason) + ")"
	}
	if !v.JSON {
		fmt.Fprintln(e.stdout, line)
	}
	switch answer {
	case svcomp.True:
		return exitVerified
	case svcomp.False:
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
	steps := svcomp.ErrorCallTrace(res)
	info := svcomp.WitnessInfo{ProgramFile: v.File, DataModel: v.DataModel, Producer: producer(),
		Created: time.Now(), Language: svcomp.WitnessLanguage(v.File), Specification: svcomp.UnreachCallSpec}
	if v.Property != "" {
		if name, _, _ := svcomp.ReadPropertyFile(v.Property); name != svcomp.UnreachCall {
			fmt.Fprintf(e.stderr, "ncmc: no witness written to %s: witnesses are written for unreach-call only (SV-COMP does not validate %s violation witnesses)\n", v.Witness, name)
			return
		}
		if steps == nil {
			fmt.Fprintf(e.stderr, "ncmc: no witness written to %s: the counterexample found (%s) does not call an error function\n", v.Witness, res.Reason)
			return
		}
		if _, text, err := svcomp.ReadPropertyFile(v.Property); err == nil {
			info.Specification = text
		}
	} else if steps == nil {
		steps = res.Counterexample
		info.Specification = "ncmc: " + res.Kind + " (" + res.Reason + ")"
	}
	if err := svcomp.WriteWitnessFile(v.Witness, info, steps); err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
	}
}

// producer names ncmc and its version for witnesses.
func producer() string { return "ncmc " + versionString() }
