// Command ds generates and runs the NCMC data-structure benchmarks
// (benchmarks/ds/README.md): set, hashtable and union-find objects with one
// coarse lock each, N = 4..7 threads, "seekers" (query-only) and "mixed"
// workloads, after Tables 4.4 and 4.5 of the NCMC thesis.
//
//	go run ./benchmarks/ds gen                 # rewrite the .cir programs
//	go run ./benchmarks/ds run [flags]         # print a Markdown table
//
// run explores every program with mcr, the ncmc explorer (default rule) and
// the thesis's rule (--ncmc-rule thesis), each with the coarse and the fine
// spec, and counts the SEG classes with the reference explorer, each run
// under a timeout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ncmc/commspec"
	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ds gen | ds run [-timeout 300s] [-ds set,hashtable,union-find] [-kind seekers,mixed] [-n 4-7] [-runs mcr,ncmc,thesis,ref,cache]")
		os.Exit(2)
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dir := filepath.Join(root, "benchmarks", "ds")
	switch os.Args[1] {
	case "gen":
		if err := generate(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "run":
		fs := flag.NewFlagSet("run", flag.ExitOnError)
		timeout := fs.Duration("timeout", 300*time.Second, "time limit of each run")
		dsF := fs.String("ds", "set,hashtable,union-find", "data structures")
		kindF := fs.String("kind", "seekers,mixed", "workloads")
		nF := fs.String("n", "4-7", "thread counts: a range lo-hi or a single number")
		runsF := fs.String("runs", "mcr,ncmc,thesis,ref,cache", "what to run (cache: the ncmc explorer, fine spec, --state-cache)")
		fs.Parse(os.Args[2:])
		var lo, hi int
		if _, err := fmt.Sscanf(*nF, "%d-%d", &lo, &hi); err != nil {
			if _, err := fmt.Sscanf(*nF, "%d", &lo); err != nil {
				fmt.Fprintln(os.Stderr, "bad -n:", *nF)
				os.Exit(2)
			}
			hi = lo
		}
		runs := set(*runsF)
		ds, kinds := set(*dsF), set(*kindF)
		fmt.Println("| program | mcr | ncmc_c | ncmc_f | thesis_c | thesis_f | SEG classes (reference) | thesis misses | ncmc_f + state cache |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|")
		timedOut := map[string]bool{} // "ds/kind/column" that timed out for a smaller N
		for _, w := range workloads() {
			if !ds[w.DS] || !kinds[w.Kind] || w.N < lo || w.N > hi {
				continue
			}
			fmt.Println(runWorkload(root, dir, w, runs, *timeout, timedOut))
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown command", os.Args[1])
		os.Exit(2)
	}
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, x := range strings.Split(s, ",") {
		m[strings.TrimSpace(x)] = true
	}
	return m
}

func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		p := filepath.Dir(d)
		if p == d {
			return "", errors.New("ds: run inside the ncmc module")
		}
		d = p
	}
}

// specFiles are the coarse and fine specs of each data structure.
var specFiles = map[string][2]string{
	"set":        {"examples/set-coarse.yaml", "examples/set.yaml"},
	"hashtable":  {"examples/hashtable-coarse.yaml", "examples/hashtable.yaml"},
	"union-find": {"examples/union-find-coarse.yaml", "examples/union-find.yaml"},
}

// cell runs one configuration and renders "executions (seconds)", "- (t/o,
// k executions)" for a timeout, or the error.
func cell(prog *ir.Program, o ncmc.Options, timeout time.Duration) (string, *ncmc.Result) {
	o.Timeout = timeout
	o.KeepGoing = true
	o.Workers = 1
	res, err := ncmc.Verify(context.Background(), prog, o)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "deadline exceeded") {
			// mcr may report the deadline as a solver error.
			return "- (t/o)", nil
		}
		return "error: " + strings.ReplaceAll(err.Error(), "|", "/"), nil
	}
	secs := res.Elapsed.Seconds()
	switch res.Verdict {
	case ncmc.Verified:
		return fmt.Sprintf("%d (%.2f s)", res.Stats.Executions, secs), res
	case ncmc.Violation:
		return fmt.Sprintf("violation after %d (%.2f s)", res.Stats.Executions, secs), res
	}
	if res.Kind == "time" {
		return fmt.Sprintf("- (t/o, %d)", res.Stats.Executions), nil
	}
	return fmt.Sprintf("unknown: %s", res.Reason), nil
}

// runWorkload runs the configurations of w and renders its table row. A
// configuration that timed out for a smaller N of the same workload is
// skipped (timedOut, updated here).
func runWorkload(root, dir string, w workload, runs map[string]bool, timeout time.Duration, timedOut map[string]bool) string {
	path := filepath.Join(dir, w.name()+".cir")
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("| %s | %v |", w.name(), err)
	}
	prog, err := frontend.ParseCIR(path, src)
	if err != nil {
		return fmt.Sprintf("| %s | %v |", w.name(), err)
	}
	var specs [2][]*commspec.Spec
	for i, f := range specFiles[w.DS] {
		s, err := commspec.ParseFile(filepath.Join(root, f))
		if err != nil {
			return fmt.Sprintf("| %s | %v |", w.name(), err)
		}
		specs[i] = []*commspec.Spec{s}
	}
	cells := make([]string, 8)
	for i := range cells {
		cells[i] = "n/r"
	}
	run := func(col int, o ncmc.Options) *ncmc.Result {
		k := w.DS + "/" + w.Kind + "/" + strconv.Itoa(col)
		if timedOut[k] {
			cells[col] = "skipped"
			return nil
		}
		var res *ncmc.Result
		cells[col], res = cell(prog, o, timeout)
		if strings.HasPrefix(cells[col], "- (t/o") {
			timedOut[k] = true
		}
		return res
	}
	if runs["mcr"] {
		run(0, ncmc.Options{Explorer: "mcr"})
	}
	var complete *ncmc.Result // the ncmc explorer with the fine spec
	if runs["ncmc"] {
		for i := 0; i < 2; i++ {
			complete = run(1+i, ncmc.Options{Explorer: "ncmc", Specs: specs[i]})
		}
	}
	var cached *ncmc.Result // the same with the state cache
	if runs["cache"] {
		cached = run(7, ncmc.Options{Explorer: "ncmc", Specs: specs[1], StateCache: true})
		if cached != nil {
			cells[7] = fmt.Sprintf("%d + %d cut (%.2f s)", cached.Stats.Executions, cached.Stats.Cached, cached.Elapsed.Seconds())
		}
	}
	var thesis [2]*ncmc.Result
	if runs["thesis"] {
		for i := 0; i < 2; i++ {
			thesis[i] = run(3+i, ncmc.Options{Explorer: "ncmc", NCMCRule: "thesis", Specs: specs[i]})
		}
	}
	var ref *ncmc.Result
	if runs["ref"] {
		ref = run(5, ncmc.Options{Explorer: "reference", Specs: specs[1], Classes: true})
		if ref != nil && ref.Classes != nil {
			cells[5] = fmt.Sprintf("%d (%d executions, %.2f s)", ref.Classes.SEG, ref.Stats.Executions, ref.Elapsed.Seconds())
		}
	}
	oracle, vs := ref, ""
	if oracle == nil && complete != nil {
		oracle, vs = complete, " (vs ncmc_f)"
	}
	if oracle == nil && cached != nil {
		oracle, vs = cached, " (vs ncmc_f + state cache)"
	}
	if oracle != nil && (thesis[0] != nil || thesis[1] != nil) {
		var ms []string
		for i, th := range thesis {
			if th == nil {
				continue
			}
			got := map[string]bool{}
			for _, o := range th.Outcomes {
				got[o.State+"|"+o.Violation] = true
			}
			miss := 0
			for _, o := range oracle.Outcomes {
				if !got[o.State+"|"+o.Violation] {
					miss++
				}
			}
			ms = append(ms, fmt.Sprintf("%s: %d of %d outcomes%s", []string{"c", "f"}[i], miss, len(oracle.Outcomes), vs))
		}
		cells[6] = strings.Join(ms, "; ")
	}
	return "| " + w.name() + " | " + strings.Join(cells, " | ") + " |"
}
