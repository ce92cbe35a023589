package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/ncmc"
)

// unsupported reports a program the front end cannot translate (a valid C
// program using a construct the C front end does not model): the verdict
// is unknown (exit 3), with the first construct as the reason; every
// construct found is listed on stderr.
func (v *verifyCmd) unsupported(e *env, u *frontend.Unsupported) int {
	reason := u.Reason()
	if v.JSON {
		out := jsonResult{File: v.File, Verdict: ncmc.Unknown, Reason: reason, Kind: "unsupported",
			Model: v.Model, Explorer: v.Explorer, Outcomes: []ncmc.Outcome{}, Counterexample: []interp.TraceStep{}}
		if err := json.NewEncoder(e.stdout).Encode(out); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	} else {
		fmt.Fprintf(e.stdout, "%s: UNKNOWN (%s)\n", v.File, reason)
	}
	if !v.Quiet {
		fmt.Fprintln(e.stderr, strings.TrimRight(u.Error(), "\n"))
	}
	if v.Property != "" {
		return v.printAnswer(e, "unknown", reason)
	}
	return exitUnknown
}
