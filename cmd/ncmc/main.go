// Command ncmc is a stateless model checker for concurrent programs.
//
//	ncmc verify prog.cir [--model sc] [--explorer reference] [--unroll N] ...
//
// Exit codes: 0 verified, 1 violation, 2 bad input or usage, 3 unknown.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"

	"github.com/alecthomas/kong"

	"ncmc/hunt"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/ncmc"
)

// kongVars are the lists the flags' enums and help texts are built from:
// the memory models (package memmodel) and the explorers (ncmc.Explorers),
// so that the command keeps no list of its own.
func kongVars() kong.Vars {
	return kong.Vars{
		"models":           strings.Join(memmodel.Names(), ","),
		"models_help":      strings.Join(memmodel.Names(), ", "),
		"operational":      strings.Join(memmodel.Operational(), ","),
		"operational_help": strings.Join(memmodel.Operational(), ", "),
		"explorers":        strings.Join(ncmc.ExplorerNames(), ","),
		"explorers_help":   ncmc.ExplorerHelp(),
		"strategies":       strings.Join(hunt.StrategyNames(), ","),
		"strategies_help":  hunt.StrategyHelp(),
	}
}

// Exit codes.
const (
	exitVerified  = 0
	exitViolation = 1
	exitBadInput  = 2
	exitUnknown   = 3
)

type cli struct {
	Verify  verifyCmd  `cmd:"" help:"Explore every behaviour of a program and report verified, a counterexample, or unknown."`
	Bench   benchCmd   `cmd:"" help:"Run explorers on programs (all outcomes, class counts) and print a Markdown table of executions, time, SMT time and memory."`
	Test    testCmd    `cmd:"" help:"Hunt for bugs when a program is too big to explore: PCT, random walks or preemption-bounded search (CB-DPOR, CHESS); found bugs come with a replayable schedule."`
	Spec    specCmd    `cmd:"" help:"Commutativity specifications: spec check SPEC --impl PROG.cir tests a spec's soundness."`
	Litmus  litmusCmd  `cmd:"" help:"Run herd-style litmus tests (C, X86, X86_64) under a memory model: reachable outcomes, the verdict of the condition, why a forbidden outcome is forbidden, pictures of the executions."`
	Serve   serveCmd   `cmd:"" help:"Serve a local teaching page: pick or type a litmus test or CIR program and compare the outcomes SC, TSO, PSO, RA and RC11 allow, with pictures of the executions and why forbidden outcomes are forbidden."`
	Version versionCmd `cmd:"" help:"Print the version of ncmc."`
	Sweep   sweepCmd   `cmd:"" help:"Check SV-COMP tasks (task-definition .yml files) against their expected verdicts: SV-COMP score, results table (CSV, JSON, HTML) and a log per task. Exit 1 if some answer is wrong."`
}

// env is what a command needs from the process: output streams and whether
// stderr is a terminal (for progress lines).
type env struct {
	ctx        context.Context
	stdout     io.Writer
	stderr     io.Writer
	stderrTerm bool
}

type exitPanic int

// defaultGCPercent is the garbage collector's target when GOGC is not set:
// explorations allocate short-lived states at a high rate, and collecting
// four times less often cut hashtable-mixed-6 from 44 s to 30 s for 2.4
// times the memory (43 MB to 100 MB). So that a heap cannot grow
// five-fold unchecked, gcTuner (gctune.go) keeps a soft memory limit of
// the live heap plus max(64 MB, twice the live heap), at most half of the
// machine's memory (unless GOMEMLIMIT is set): lastzero N=15 peaked at
// 165 MB (sc) and 214 MB (tso) without it, 119 and 127 MB with it, at the
// same CPU time; hashtable-mixed-6 155 -> 94 MB, 49 -> 47 CPU s.
//
// With the tuner (GOMEMLIMIT not set) the target is off and the limit
// alone paces the collector: a live heap of a few MB (fib_bench) was
// collected every 15 MB allocated under 400, and with two workers, whose
// cores the collector's marking then takes from the exploration, that
// cost 10-15% CPU (fib_bench NUM=5 tso, two workers: 25.6/23.5 -> 22.6/21.3
// CPU s, peak 69 -> 99 MB; lastzero N=15 unchanged in memory, 104 and 112
// MB). defaultGCPercent remains the target when GOMEMLIMIT is set.
const defaultGCPercent = 400

// frontEndGCPercent is the collector's target while a front end builds a
// program (Go's default). Most of what a front end allocates stays live
// (the program) or is dropped late (the syntax tree, while it is lowered),
// so under defaultGCPercent the heap would grow to about five times the
// program before the collector ran again: a 9 MB CIR file of 600,000
// statements (a 390 MB program) peaked at 1.15 GB, 640 MB under 100 (with
// withFrontEndGC's collection), 600-640 MB under 50, which costs the C
// front end 50-70% more time on GenMC's szymanski (70 -> 120 ms). Small
// programs never reach the collector's 4 MB minimum.
const frontEndGCPercent = 100

// frontEndCollectAbove is the growth of the heap during a translation past
// which withFrontEndGC collects after it: below it the explorer's own collections come soon
// enough, and a forced collection is not free (in the CLI tests, which run
// many commands in one process, collecting after every translation made
// TestWitness 2 s -> 50 s).
const frontEndCollectAbove = 64 << 20

// withFrontEndGC runs load (a front end) under frontEndGCPercent unless the
// user set GOGC, and restores the explorer's target afterwards. After a
// translation that grew the heap by more than frontEndCollectAbove it collects once,
// so that the explorer starts in the space the front end's garbage (the
// syntax tree) held rather than growing the heap past it (not after an
// error: nothing is explored, and a translation abandoned at --timeout
// still runs).
func withFrontEndGC(load func() (*ir.Program, error)) (*ir.Program, error) {
	if os.Getenv("GOGC") != "" {
		return load()
	}
	old := debug.SetGCPercent(frontEndGCPercent)
	defer debug.SetGCPercent(old)
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(heap)
	before := heap[0].Value.Uint64()
	prog, err := load()
	if err == nil {
		metrics.Read(heap)
		if after := heap[0].Value.Uint64(); after > before+frontEndCollectAbove {
			runtime.GC()
		}
	}
	return prog, err
}

func main() {
	if !memProfileAsked(os.Args[1:]) {
		// Sampling allocations for a heap profile nobody reads costs
		// about 1.5% of an exploration's CPU time.
		runtime.MemProfileRate = 0
	}
	if os.Getenv("GOGC") == "" {
		if os.Getenv("GOMEMLIMIT") == "" {
			// The tuner's limit alone paces the collector (gctune.go).
			debug.SetGCPercent(-1)
			startGCTuner(totalMemory() / 2)
		} else {
			debug.SetGCPercent(defaultGCPercent)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr)))
}

// memProfileAsked reports whether the command line asks for a heap
// profile (verify --memprofile).
func memProfileAsked(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--memprofile") || strings.HasPrefix(a, "-memprofile") {
			return true
		}
	}
	return false
}

// totalMemory returns the machine's memory in bytes from /proc/meminfo (0
// if unknown).
func totalMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run executes the command line args and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, stderrTerm bool) (code int) {
	var c cli
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(exitPanic); ok {
				code = int(e)
				return
			}
			panic(r)
		}
	}()
	parser, err := kong.New(&c,
		kong.Name("ncmc"),
		kong.Description("ncmc: a stateless model checker for concurrent programs (CIR).\n\nExit codes: 0 verified, 1 violation, 2 bad input or usage, 3 unknown."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitPanic(c)) }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kongVars(),
	)
	if err != nil {
		fmt.Fprintf(stderr, "ncmc: internal error: %v\n", err)
		return exitBadInput
	}
	kctx, err := parser.Parse(args)
	for tries := 0; err != nil && tries < 8; tries++ {
		// "--unroll -1": parse the negative number as the flag's value.
		joined, ok := joinNegativeValue(args, err)
		if !ok {
			break
		}
		args = joined
		kctx, err = parser.Parse(args)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ncmc: %v\n", err)
		var pe *kong.ParseError
		if errors.As(err, &pe) {
			fmt.Fprintln(stderr, "run 'ncmc --help' for usage")
		}
		return exitBadInput
	}
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr, stderrTerm: stderrTerm}
	switch kctx.Command() {
	case "test <file>":
		return c.Test.run(e)
	case "verify <file>":
		return c.Verify.run(e)
	case "bench <files>":
		return c.Bench.run(e)
	case "litmus <files>":
		return c.Litmus.run(e)
	case "spec check <spec>":
		return c.Spec.Check.run(e)
	case "sweep <path>":
		return c.Sweep.run(e)
	case "serve":
		return c.Serve.run(e)
	case "version":
		return c.Version.run(e)
	}
	fmt.Fprintf(stderr, "ncmc: unknown command %q\n", kctx.Command())
	return exitBadInput
}
