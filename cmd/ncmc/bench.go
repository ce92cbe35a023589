package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"ncmc/frontend"
	cfront "ncmc/frontend/c"
	"ncmc/ncmc"
)

type benchCmd struct {
	Files      []string      `arg:"" help:"Programs to run (.cir, or C: .c, .i)."`
	Explorers  string        `help:"Comma-separated explorers to run on each program (${explorers})." default:"reference,mcr"`
	Model      string        `help:"Memory model: ${models_help} (ra and rc11: graph explorers only, e.g. --explorers trust,graph)." default:"sc" enum:"${models}"`
	Unroll     int           `help:"Default loop bound." default:"8"`
	Timeout    time.Duration `help:"Time limit per program and explorer." default:"5m"`
	Workers    int           `help:"mcr workers (0: number of CPUs)." default:"1"`
	StateCache bool          `name:"state-cache" help:"Stateful reference explorer (see verify --help)."`
}

// run explores every file with every explorer (all outcomes, counting
// classes) and prints a Markdown table: verdict, executions, outcomes,
// classes, time, SMT time and memory allocated.
func (b *benchCmd) run(e *env) int {
	w := e.stdout
	fmt.Fprintf(w, "| program | explorer | verdict | executions | outcomes | read-value classes | rf classes | redundancy | time | SMT | allocated |\n")
	fmt.Fprintf(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	code := exitVerified
	// C is translated for the model as ncmc verify translates it; dead
	// loads are kept if the trust explorer, which counts them, is run.
	var explorers []string
	for _, ex := range strings.Split(b.Explorers, ",") {
		explorers = append(explorers, strings.TrimSpace(ex))
	}
	copts := cfront.Options{}.ForModel(b.Model, slices.Contains(explorers, "trust"))
	for _, f := range b.Files {
		prog, err := frontend.LoadFileWith(f, copts)
		if err != nil {
			fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
			code = exitBadInput
			continue
		}
		for _, ex := range explorers {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			res, err := ncmc.Verify(e.ctx, prog, ncmc.Options{Explorer: ex, Model: b.Model, Unroll: b.Unroll,
				Timeout: b.Timeout, KeepGoing: true, Classes: true, Workers: b.Workers, StateCache: b.StateCache})
			runtime.ReadMemStats(&after)
			if err != nil {
				fmt.Fprintf(e.stderr, "ncmc: %s: %v\n", f, err)
				code = exitBadInput
				continue
			}
			printBenchRow(w, f, res, after.TotalAlloc-before.TotalAlloc)
		}
	}
	return code
}

func printBenchRow(w io.Writer, file string, res *ncmc.Result, alloc uint64) {
	verdict := string(res.Verdict)
	if res.Verdict == ncmc.Unknown {
		verdict += " (" + res.Kind + ")"
	}
	explorer := res.Explorer
	if res.Note != "" {
		explorer += "*"
	}
	if res.Stats.Pruned > 0 {
		explorer += fmt.Sprintf(" (stateful, %d cut)", res.Stats.Pruned)
	}
	rv, rf, red := "-", "-", "-"
	if res.Classes != nil {
		rv = fmt.Sprint(res.Classes.ReadValues)
		rf = fmt.Sprint(res.Classes.RF)
		if res.Classes.ReadValues > 0 {
			red = fmt.Sprintf("%.2f", float64(res.Stats.Executions)/float64(res.Classes.ReadValues))
		}
	}
	smt := "-"
	if res.Explorer == "mcr" {
		smt = fmt.Sprintf("%.0f ms", res.Stats.SMTMS)
	}
	fmt.Fprintf(w, "| %s | %s | %s | %d | %d | %s | %s | %s | %s | %s | %.1f MB |\n", file, explorer, verdict,
		res.Stats.Executions, len(res.Outcomes), rv, rf, red, res.Elapsed.Round(time.Millisecond), smt, float64(alloc)/1e6)
}
