package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ncmc/commspec"
	"ncmc/commspec/speccheck"
	"ncmc/frontend"
)

// specCmd groups the commands on commutativity specifications.
type specCmd struct {
	Check specCheckCmd `cmd:"" help:"Check that every condition of a commutativity spec (YAML, docs/commspec.md) is sound for the object's implementation, by running pairs of invocations in both orders from every state reachable by short call sequences. Exit 0: sound within the bound; 1: a counterexample; 2: bad input, including a condition that fails to evaluate (division by zero, shift out of range)."`
}

type specCheckCmd struct {
	Spec      string        `arg:"" help:"Commutativity spec (.yaml)."`
	Impl      string        `required:"" help:"CIR program (.cir) whose object type implements the spec."`
	Depth     int           `help:"Length of the call sequences that build object states; 0: the initial state only (default: the spec's check.depth, else 2)." default:"-1"`
	Ints      string        `help:"Domain of int arguments, comma-separated, e.g. 0,1,2 (default: the spec's check.ints, else 0,1,2)."`
	MaxStates int           `name:"max-states" help:"Stop building states after N distinct ones (0: 5000)." default:"0"`
	Unroll    int           `help:"Bound of loops without @unroll." default:"8"`
	Compare   string        `help:"How final states are compared: abstract (abstraction functions), observe (one later call of every method), both." default:"both" enum:"abstract,observe,both"`
	Verbose   bool          `short:"v" help:"Also report conditions that could be finer (pairs that commute although the condition says no)."`
	AP        bool          `name:"access-points" help:"Also print how each method pair is decided (access points or direct evaluation)."`
	Timeout   time.Duration `help:"Wall-clock limit, e.g. 30s (0: none); hitting it before a counterexample is found gives exit 3 (unknown)." default:"0"`
}

func (c *specCheckCmd) run(e *env) int {
	depth := inRange("--depth", c.Depth, 0, 8)
	depth.ok = depth.ok || c.Depth == -1 // the default: the spec's check.depth
	if !checkFlags(e.stderr, depth, nonNegative("--max-states", c.MaxStates), positive("--unroll", c.Unroll), nonNegativeDuration("--timeout", c.Timeout)) {
		return exitBadInput
	}
	spec, err := commspec.ParseFile(c.Spec)
	if err != nil {
		fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
		return exitBadInput
	}
	prog, err := frontend.LoadFile(c.Impl)
	if err != nil {
		fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
		return exitBadInput
	}
	if err := spec.CheckProgram(prog); err != nil {
		fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
		return exitBadInput
	}
	opts := speccheck.Options{Depth: c.Depth, MaxStates: c.MaxStates, Unroll: c.Unroll, Compare: c.Compare}
	if c.Ints != "" {
		for _, f := range strings.Split(c.Ints, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(f), 0, 64)
			if err != nil {
				fmt.Fprintf(e.stderr, "ncmc: --ints: %q is not an integer\n", f)
				return exitBadInput
			}
			opts.Ints = append(opts.Ints, v)
		}
	}
	if c.Timeout > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
		defer cancel()
		opts.Context = ctx
	}
	rep, err := speccheck.Check(spec, prog, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	if c.AP {
		fmt.Fprint(e.stdout, spec.AccessPoints().Describe())
	}
	rep.Write(e.stdout, c.Verbose)
	switch {
	case !rep.Sound():
		return exitViolation
	case rep.Failing():
		return exitBadInput // a condition that cannot be evaluated is a mistake of the spec
	case rep.Stopped != nil:
		fmt.Fprintf(e.stderr, "ncmc: unknown: %s (--timeout %s)\n", rep.StopReason(), c.Timeout)
		return exitUnknown
	}
	return exitVerified
}
