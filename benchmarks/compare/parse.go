package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// counts is what one tool reported about one exploration.
type counts struct {
	Complete int64   // complete executions (GenMC), traces (Nidhugg), complete executions (ncmc)
	Blocked  int64   // blocked executions (GenMC), await/assume/sleep-set blocked traces (Nidhugg), blocked (ncmc)
	ToolSecs float64 // the time the tool itself reports (-1: none)
	Verdict  string  // "ok", "error" (the tool found a bug), or ncmc's verdict
	Note     string  // extra information for the table (ncmc statistics, reasons)
	Stopped  bool    // ncmc stopped at its own time limit (kind "time")
}

var (
	genmcComplete = regexp.MustCompile(`Number of complete executions explored:\s*(\d+)`)
	genmcBlocked  = regexp.MustCompile(`Number of blocked executions seen:\s*(\d+)`)
	genmcTime     = regexp.MustCompile(`Total wall-clock time:\s*([0-9.]+)\s*s`)
	genmcBound    = regexp.MustCompile(`\((\d+) exceeded bound\)`)

	nidhuggTraces  = regexp.MustCompile(`(?m)^\s*Trace count:\s*(\d+)`)
	nidhuggBlocked = regexp.MustCompile(`(?m)^\s*([A-Za-z]+)-blocked trace count:\s*(\d+)`)
	nidhuggTime    = regexp.MustCompile(`Total wall-clock time:\s*([0-9.]+)\s*s`)
)

// parseGenMC reads GenMC 0.10's summary: "Number of complete executions
// explored: N", optionally "Number of blocked executions seen: M" (printed
// only when M > 0) and "Total wall-clock time: T.TTs". A run that found an
// error says "Verification unsuccessful" (or "Error detected") and still
// prints the counts.
func parseGenMC(out string) (counts, error) {
	var c counts
	m := genmcComplete.FindStringSubmatch(out)
	if m == nil {
		return c, fmt.Errorf("GenMC output has no %q line", "Number of complete executions explored")
	}
	c.Complete, _ = strconv.ParseInt(m[1], 10, 64)
	if m := genmcBlocked.FindStringSubmatch(out); m != nil {
		c.Blocked, _ = strconv.ParseInt(m[1], 10, 64)
	}
	c.ToolSecs = -1
	if m := genmcTime.FindStringSubmatch(out); m != nil {
		c.ToolSecs, _ = strconv.ParseFloat(m[1], 64)
	}
	c.Verdict = "ok"
	if strings.Contains(out, "Verification unsuccessful") || strings.Contains(out, "Error detected") {
		c.Verdict = "error"
		c.Note = "GenMC reports an error"
	}
	if m := genmcBound.FindStringSubmatch(out); m != nil {
		c.Note = strings.TrimSpace(c.Note + " " + m[1] + " exceeded bound")
	}
	return c, nil
}

// parseNidhugg reads Nidhugg's summary: "Trace count: N", then, only when
// non-zero, "Await-blocked trace count: A", "Assume-blocked trace count: B"
// and "Sleepset-blocked trace count: S" (summed as blocked, and named in the
// note), "No errors were detected." or "Error detected:", and nidhuggc's
// "Total wall-clock time: T s".
func parseNidhugg(out string) (counts, error) {
	var c counts
	m := nidhuggTraces.FindStringSubmatch(out)
	if m == nil {
		return c, fmt.Errorf("nidhugg output has no %q line", "Trace count")
	}
	c.Complete, _ = strconv.ParseInt(m[1], 10, 64)
	var kinds []string
	for _, b := range nidhuggBlocked.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.ParseInt(b[2], 10, 64)
		c.Blocked += n
		kinds = append(kinds, strings.ToLower(b[1])+" "+b[2])
	}
	if len(kinds) > 0 {
		c.Note = "blocked: " + strings.Join(kinds, ", ")
	}
	c.ToolSecs = -1
	if m := nidhuggTime.FindStringSubmatch(out); m != nil {
		c.ToolSecs, _ = strconv.ParseFloat(m[1], 64)
	}
	c.Verdict = "ok"
	if strings.Contains(out, "Error detected") {
		c.Verdict = "error"
		c.Note = strings.TrimSpace("Nidhugg reports an error; " + c.Note)
	}
	return c, nil
}

// ncmcReport is the part of `ncmc verify --json` this program reads.
type ncmcReport struct {
	Verdict  string  `json:"verdict"`
	Reason   string  `json:"reason"`
	Kind     string  `json:"kind"`
	Explorer string  `json:"explorer"`
	Complete int64   `json:"complete"`
	Blocked  int64   `json:"blocked"`
	BoundHit int64   `json:"bound_hits"`
	TimeMS   float64 `json:"time_ms"`
	Classes  *struct {
		ReadValues int64 `json:"read_values"`
		RF         int64 `json:"rf"`
	} `json:"classes"`
	Stats map[string]json.Number `json:"stats"`
}

// ncmcPlainStats are the statistics already shown in other columns.
var ncmcPlainStats = map[string]bool{
	"executions": true, "complete": true, "blocked": true, "bound_hits": true,
	"violations": true, "steps": true, "queue": true,
}

// parseNcmc reads `ncmc verify --json`. Every statistic beyond the
// execution counts (SMT queries and time, seeds, decider counters, pruned
// runs, whatever a newer ncmc adds) goes into the note, sorted by name, so
// explorers that print more are compared without changing this program.
// It also returns the class counts when the run counted them (-1 if not).
func parseNcmc(out string) (c counts, valueClasses, rfClasses int64, err error) {
	valueClasses, rfClasses = -1, -1
	start := strings.IndexByte(out, '{')
	if start < 0 {
		return c, valueClasses, rfClasses, fmt.Errorf("ncmc printed no JSON object")
	}
	var r ncmcReport
	dec := json.NewDecoder(strings.NewReader(out[start:]))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return c, valueClasses, rfClasses, fmt.Errorf("ncmc JSON: %v", err)
	}
	c.Complete, c.Blocked = r.Complete, r.Blocked
	c.ToolSecs = r.TimeMS / 1000
	c.Verdict = r.Verdict
	c.Stopped = r.Verdict == "unknown" && r.Kind == "time"
	var notes []string
	if r.Verdict != "verified" {
		notes = append(notes, r.Verdict+": "+shorten(r.Reason, 80))
	}
	if r.BoundHit > 0 {
		notes = append(notes, fmt.Sprintf("bound hits=%d", r.BoundHit))
	}
	if r.Explorer != "" {
		notes = append(notes, "explorer="+r.Explorer)
	}
	keys := make([]string, 0, len(r.Stats))
	for k := range r.Stats {
		if !ncmcPlainStats[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := r.Stats[k].String()
		if f, err := strconv.ParseFloat(v, 64); err == nil && strings.Contains(v, ".") {
			v = strconv.FormatFloat(f, 'f', 0, 64)
		}
		if v == "0" {
			continue
		}
		notes = append(notes, k+"="+v)
	}
	c.Note = strings.Join(notes, " ")
	if r.Classes != nil {
		valueClasses, rfClasses = r.Classes.ReadValues, r.Classes.RF
	}
	return c, valueClasses, rfClasses, nil
}

// ncmcHasDefineFlag tells whether `ncmc verify --help` lists a -D flag
// (preprocessor definitions), so programs can be passed with -D NAME=VALUE
// instead of through a generated wrapper file.
func ncmcHasDefineFlag(help string) bool {
	return regexp.MustCompile(`(?m)^\s*-D[,= ]`).MatchString(help)
}

// argsLine is one line of a GenMC args.<model>.<coherence>.in file: GenMC
// flags, a '|', then clang flags (the -D definitions of the run).
type argsLine struct {
	GenMC   []string
	Defines []string // "N=10"
}

// parseArgsFile reads an args file. Lines without '|' (the wrc11 files) are
// clang flags only.
func parseArgsFile(text string) []argsLine {
	var lines []argsLine
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		g, cl := "", l
		if i := strings.IndexByte(l, '|'); i >= 0 {
			g, cl = l[:i], l[i+1:]
		}
		a := argsLine{GenMC: strings.Fields(g)}
		for _, f := range strings.Fields(cl) {
			if strings.HasPrefix(f, "-D") {
				a.Defines = append(a.Defines, strings.TrimPrefix(f, "-D"))
			}
		}
		lines = append(lines, a)
	}
	return lines
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}
