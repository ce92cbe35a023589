package main

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// row is one tool's run on one program.
type row struct {
	Tool     string
	Run      runResult
	C        counts
	Err      string // the run could not be read (no summary, crash, start failure)
	TimedOut bool
	Anchor   string // "genmc" or "nidhugg" for the anchors' rows
	Classes  bool   // a class-counting run (no ratios)
}

// finished tells whether the row has a wall time to compare.
func (r row) finished() bool { return !r.TimedOut && r.Err == "" }

// measured is a program's rows and its class counts (-1: unknown).
type measured struct {
	Rows        []row
	ValueClass  int64
	RFClass     int64
	ClassesNote string
}

// measure runs every tool on one program under one model, one at a time.
func measure(ctx context.Context, cfg config, tl tools, model string, pr program) measured {
	m := measured{ValueClass: -1, RFClass: -1}
	if tl.GenMC != "" && pr.Anchors {
		argv := []string{tl.GenMC, "-" + model, "--disable-estimation", "-disable-mm-detector"}
		argv = append(argv, pr.GenMC...)
		argv = append(argv, "--")
		for _, d := range pr.Defines {
			argv = append(argv, "-D"+d)
		}
		argv = append(argv, pr.File)
		res := run(ctx, cfg.Timeout, tl.Env, filepath.Dir(pr.File), argv...)
		name := "GenMC -" + model
		if len(pr.GenMC) > 0 {
			name += " " + strings.Join(pr.GenMC, " ")
		}
		m.Rows = append(m.Rows, anchorRow(name, "genmc", res, parseGenMC))
	}
	if tl.Nidhugg != "" && pr.Anchors && (model == "sc" || model == "tso") {
		argv := []string{tl.Nidhugg}
		for _, d := range pr.Defines {
			argv = append(argv, "-D"+d)
		}
		// Nidhugg's reads-from SMC (--rf) is for SC only (under TSO it
		// warns "not implemented"); under TSO its optimal DPOR.
		alg := "--rf"
		if model == "tso" {
			alg = "--optimal"
		}
		argv = append(argv, "-I"+tl.Compat, "--", "--"+model, alg, pr.File)
		res := run(ctx, cfg.Timeout, tl.Env, filepath.Dir(pr.File), argv...)
		m.Rows = append(m.Rows, anchorRow("Nidhugg --"+model+" "+alg, "nidhugg", res, parseNidhugg))
	}
	src, extra, srcErr := ncmcSource(pr, tl.HasD)
	for _, e := range cfg.Explorers {
		name := "ncmc"
		var args []string
		if e != "default" {
			name += " --explorer " + e
			args = append(args, "--explorer", e)
		}
		if srcErr != nil {
			m.Rows = append(m.Rows, row{Tool: name, Err: srcErr.Error()})
			continue
		}
		r, _, _ := ncmcRun(ctx, cfg, tl, model, src, extra, args, cfg.Timeout)
		r.Tool = name
		m.Rows = append(m.Rows, r)
	}
	if cfg.Classes && srcErr == nil {
		r, vc, rc := ncmcRun(ctx, cfg, tl, model, src, extra, []string{"--explorer", "reference", "--classes"}, cfg.ClassesTimeout)
		r.Tool = "ncmc --explorer reference --classes"
		r.Classes = true
		if r.finished() && r.C.Verdict != "unknown" {
			m.ValueClass, m.RFClass = vc, rc
		}
		m.Rows = append(m.Rows, r)
		if m.ValueClass < 0 && cfg.ClassesFallback {
			// The reference explorer did not finish: count the classes with
			// a complete reduced explorer (source-DPOR under sc, the
			// default explorer elsewhere), each checked against the
			// reference by the differential tests.
			args, name := []string{"--classes"}, "ncmc --classes"
			if model == "sc" {
				args, name = []string{"--explorer", "ncmc", "--classes"}, "ncmc --explorer ncmc --classes"
			}
			r, vc, rc := ncmcRun(ctx, cfg, tl, model, src, extra, args, cfg.ClassesTimeout)
			r.Tool, r.Classes = name, true
			if r.finished() && r.C.Verdict != "unknown" {
				m.ValueClass, m.RFClass, m.ClassesNote = vc, rc, "*"
			}
			m.Rows = append(m.Rows, r)
		}
	}
	return m
}

// measureRepeated measures pr cfg.Repeat times, each time every tool once
// in turn (so that a change in the machine's speed meets every tool
// alike), and keeps per tool the run with the median wall time (an
// unfinished run counts as the slowest). Classes are counted once.
func measureRepeated(ctx context.Context, cfg config, tl tools, model string, pr program) measured {
	m := measure(ctx, cfg, tl, model, pr)
	if cfg.Repeat <= 1 {
		return m
	}
	runs := map[string][]row{}
	for _, r := range m.Rows {
		if !r.Classes {
			runs[r.Tool] = append(runs[r.Tool], r)
		}
	}
	again := cfg
	again.Classes = false
	for i := 1; i < cfg.Repeat && ctx.Err() == nil; i++ {
		for _, r := range measure(ctx, again, tl, model, pr).Rows {
			runs[r.Tool] = append(runs[r.Tool], r)
		}
	}
	for i, r := range m.Rows {
		if !r.Classes {
			m.Rows[i] = medianRun(runs[r.Tool])
		}
	}
	return m
}

// medianRun returns the run of rs with the median wall time, unfinished
// runs last (the lower median of an even count).
func medianRun(rs []row) row {
	slices.SortStableFunc(rs, func(a, b row) int {
		if fa, fb := a.finished(), b.finished(); fa != fb {
			if fa {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Run.Wall, b.Run.Wall)
	})
	return rs[(len(rs)-1)/2]
}

// anchorRow reads an anchor's run.
func anchorRow(name, anchor string, res runResult, parse func(string) (counts, error)) row {
	r := row{Tool: name, Run: res, Anchor: anchor, TimedOut: res.TimedOut}
	switch {
	case res.Err != nil:
		r.Err = res.Err.Error()
	case res.TimedOut:
	default:
		c, err := parse(res.Output)
		if err != nil {
			r.Err = fmt.Sprintf("exit %d: %v: %s", res.Exit, err, lastLine(res.Output))
			break
		}
		r.C = c
	}
	return r
}

// ncmcRun runs `ncmc verify` with --json. ncmc gets the limit as its own
// --timeout (so a run that stops in time still reports its counts) and is
// killed 5 s after it.
func ncmcRun(ctx context.Context, cfg config, tl tools, model, src string, extra, args []string, limit time.Duration) (row, int64, int64) {
	argv := []string{tl.Ncmc, "verify", src, "--model", model, "--json", "--keep-going",
		"--unroll", strconv.Itoa(cfg.Unroll), "--timeout", limit.String()}
	argv = append(argv, extra...)
	argv = append(argv, args...)
	argv = append(argv, cfg.NcmcArgs...)
	res := run(ctx, limit+5*time.Second, tl.Env, filepath.Dir(src), argv...)
	r := row{Run: res, TimedOut: res.TimedOut}
	vc, rc := int64(-1), int64(-1)
	switch {
	case res.Err != nil:
		r.Err = res.Err.Error()
	case res.TimedOut:
	case res.Exit == 2:
		r.Err = "bad input: " + lastLine(res.Output)
	default:
		c, v, f, err := parseNcmc(res.Output)
		if err != nil {
			r.Err = fmt.Sprintf("exit %d: %v: %s", res.Exit, err, lastLine(res.Output))
			break
		}
		r.C, vc, rc = c, v, f
		r.TimedOut = c.Stopped
	}
	return r, vc, rc
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return shorten(lines[len(lines)-1], 120)
}

// formatRows prints a program's rows of the Markdown table.
func formatRows(pr program, m measured) string {
	var genmc, nidhugg *row
	for i := range m.Rows {
		switch m.Rows[i].Anchor {
		case "genmc":
			genmc = &m.Rows[i]
		case "nidhugg":
			nidhugg = &m.Rows[i]
		}
	}
	classes := "—"
	if m.ValueClass >= 0 {
		classes = group(m.ValueClass) + m.ClassesNote
		if m.RFClass >= 0 && m.RFClass != m.ValueClass {
			classes += " (rf " + group(m.RFClass) + ")"
		}
	}
	var b strings.Builder
	for _, r := range m.Rows {
		complete, blocked, red, wall, tool, peak := "—", "—", "—", "—", "—", "—"
		note := r.C.Note
		switch {
		case r.Err != "":
			note = "error: " + r.Err
		case r.TimedOut:
			wall = "time-out"
			if r.C.Complete > 0 || r.C.Blocked > 0 {
				complete, blocked = "≥"+group(r.C.Complete), "≥"+group(r.C.Blocked)
			}
		default:
			complete, blocked = group(r.C.Complete), group(r.C.Blocked)
			wall = secs(r.Run.Wall.Seconds())
			if r.C.ToolSecs >= 0 {
				tool = secs(r.C.ToolSecs)
			}
			if m.ValueClass > 0 {
				red = fmt.Sprintf("%.2f", float64(r.C.Complete)/float64(m.ValueClass))
				if r.C.Complete < m.ValueClass && (r.C.Verdict == "ok" || r.C.Verdict == "verified") {
					// A complete exploration sees every value class at
					// least once: fewer executions means missed classes
					// (or a coarser equivalence).
					note = strings.TrimSpace("FEWER EXECUTIONS THAN VALUE CLASSES " + note)
				}
			}
		}
		if r.Anchor == "genmc" && r.finished() && pr.Expected >= 0 {
			if r.C.Complete == pr.Expected {
				note = strings.TrimSpace("= GenMC's expected count " + note)
			} else {
				note = strings.TrimSpace(fmt.Sprintf("GenMC's expected count is %s! %s", group(pr.Expected), note))
			}
		}
		if r.Run.MaxRSSKB > 0 {
			peak = fmt.Sprintf("%.0f", float64(r.Run.MaxRSSKB)/1024)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			cell(pr.Label), cell(r.Tool), complete, blocked, classes, red, wall, tool, peak,
			ratio(r, genmc), ratio(r, nidhugg), cell(note))
	}
	return b.String()
}

// ratio is r's wall time over the anchor's, when both finished.
func ratio(r row, anchor *row) string {
	if anchor == nil || r.Classes || r.Anchor == anchor.Anchor || !anchor.finished() || anchor.Run.Wall <= 0 {
		return "—"
	}
	if r.TimedOut && r.Err == "" {
		return fmt.Sprintf(">%.0f", r.Run.Wall.Seconds()/anchor.Run.Wall.Seconds())
	}
	if !r.finished() {
		return "—"
	}
	return fmt.Sprintf("%.2f", r.Run.Wall.Seconds()/anchor.Run.Wall.Seconds())
}

// secs prints a time in seconds, with three decimals below 0.1 s.
func secs(s float64) string {
	if s < 0.1 {
		return fmt.Sprintf("%.3f", s)
	}
	return fmt.Sprintf("%.2f", s)
}

// group writes n with thousands separators.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// cell escapes a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
