package svcomp

import (
	"context"
	"fmt"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

// CheckExplorer checks p on prog with the explorer of opts alone (not the
// staged strategy): `ncmc verify --property` with an explicit --explorer.
// A first violation of another kind (a failed assert(), a deadlock, a
// runtime error) says nothing about the property, so the exploration then
// goes on past violations to look for one of the property's. Data races
// are detected by the stateful reference explorer, which the default and
// mcr give way to; so does an mcr that fails. It returns the last result
// and the answer with its reason.
func CheckExplorer(ctx context.Context, prog *ir.Program, opts ncmc.Options, p Property) (*ncmc.Result, Answer, string, error) {
	if !p.Supported() {
		return nil, Unknown, "", fmt.Errorf("property %s is not supported (only unreach-call, no-data-race, valid-memsafety and valid-memcleanup)", p)
	}
	byDefault := func() bool { return opts.Explorer == "auto" || opts.Explorer == "mcr" || opts.Explorer == "" }
	opts.Leaks = p.Leaks()
	if p == NoDataRace {
		opts.Races = true
		if byDefault() {
			opts.Explorer, opts.StateCache = "reference", true
		}
	}
	deadline := time.Now().Add(opts.Timeout)
	res, err := ncmc.Verify(ctx, prog, opts)
	if err != nil && byDefault() {
		// mcr can fail (the solver gives up): as the staged strategy, go
		// on with the stateful reference explorer for the time left.
		opts.Explorer, opts.StateCache = "reference", true
		if opts.Timeout > 0 {
			if opts.Timeout = time.Until(deadline); opts.Timeout <= 0 {
				return nil, Unknown, "", fmt.Errorf("%v (no time left for the reference explorer)", err)
			}
		}
		res, err = ncmc.Verify(ctx, prog, opts)
	}
	if err != nil {
		return nil, Unknown, "", err
	}
	if res.Verdict == ncmc.Violation && !p.Violates(res.Kind, res.Reason) {
		opts.KeepGoing = true
		if opts.Timeout > 0 {
			opts.Timeout = time.Until(deadline)
		}
		if opts.Timeout >= 0 {
			more, err := ncmc.Verify(ctx, prog, opts)
			if err != nil {
				return nil, Unknown, "", err
			}
			res = more
		}
	}
	a, why := AnswerFor(res, p)
	return res, a, why, nil
}
