// Command compare runs ncmc side by side with GenMC and Nidhugg (the
// anchors, where installed) on GenMC's synthetic tests at their parameters
// and runs ncmc alone on the examples, and prints a Markdown table per
// memory model: executions (complete, blocked), value classes (the
// reference explorer with --classes, where it finishes), redundancy, wall
// time, peak memory and the ratio of each wall time to GenMC's and
// Nidhugg's.
//
//	go run ./benchmarks/compare                      # sc, every program, 60 s per run
//	go run ./benchmarks/compare -models sc,tso,ra,rc11 -explorers default,ncmc -out benchmarks/RESULTS.md
//	go run ./benchmarks/compare -quick -programs casw,examples
//
// The programs are read from the GenMC tarball (extracted into a temporary
// directory at each run, never copied into the project). GenMC and
// Nidhugg are looked up in $ANCHORS/bin (default
// $HOME/.cache/ncmc-anchors/bin); without them their columns say so.
// Times are the wall time of the whole process for every tool, so the
// anchors' times include compiling the C file with clang.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// config holds the command line.
type config struct {
	Models          []string
	Explorers       []string // values of ncmc's --explorer; "default" passes none
	Programs        map[string]bool
	Timeout         time.Duration
	Repeat          int // runs of each tool per program (measureRepeated)
	ClassesTimeout  time.Duration
	Classes         bool
	ClassesFallback bool
	Quick           bool
	Ncmc            string
	NcmcArgs        []string
	Unroll          int
	Anchors         string
	Tarball         string
	Examples        string
	Out             string
	Root            string      // the checkout (for the commit and the build)
	Suite           []genmcTest // GenMC's tests to run (genmcSuite)
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := compare(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	models := fs.String("models", "sc", "memory models, comma-separated: sc, tso, ra, rc11 (or all)")
	explorers := fs.String("explorers", "default,ncmc", "ncmc --explorer values to compare, comma-separated (default: no --explorer flag)")
	programs := fs.String("programs", "all", "programs, comma-separated: all, genmc (GenMC's tests), examples, a test name (casw), a test at one setting (casw:N=4) or an example's base name (peterson)")
	timeout := fs.Duration("timeout", 60*time.Second, "wall-clock limit of every run")
	repeat := fs.Int("repeat", 1, "run every tool this many times per program, the tools' runs interleaved, and report each tool's run with the median wall time (a machine whose speed varies from minute to minute needs 3 or more)")
	classesTimeout := fs.Duration("classes-timeout", 0, "limit of the reference explorer's class count (0: -timeout)")
	noClasses := fs.Bool("no-classes", false, "do not count value classes")
	noFallback := fs.Bool("no-classes-fallback", false, "count classes with the reference explorer only (by default, where it does not finish, with --explorer ncmc under sc and the default explorer under the other models)")
	quick := fs.Bool("quick", false, "small parameters (lastzero N=5, readers N=2, casw N=2,3, fib_bench NUM=1,2, indexer N=2) and a 10 s limit unless -timeout is given")
	ncmcBin := fs.String("ncmc", "", "ncmc binary (default: built from this checkout into bin/ncmc)")
	ncmcArgs := fs.String("ncmc-args", "", "extra arguments for every ncmc verify run (space-separated)")
	unroll := fs.Int("unroll", 1000, "ncmc --unroll for every run (GenMC and Nidhugg do not bound loops; lastzero's loop runs N+1 times)")
	anchors := fs.String("anchors", "", "anchor directory with bin/genmc and bin/nidhuggc (default $ANCHORS, else $HOME/.cache/ncmc-anchors)")
	tarball := fs.String("tarball", "", "GenMC source tarball (default ../shared/anchors/genmc-0.10.3.tar.gz beside the checkout, or $GENMC_TARBALL)")
	examples := fs.String("examples", "", "directory of CIR examples (default examples/ of the checkout)")
	out := fs.String("out", "", "also append the tables to this file (e.g. benchmarks/RESULTS.md)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	timeoutSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "timeout" {
			timeoutSet = true
		}
	})
	cfg := config{
		Explorers: splitList(*explorers),
		Programs:  map[string]bool{},
		Timeout:   *timeout, Repeat: max(*repeat, 1), ClassesTimeout: *classesTimeout, Classes: !*noClasses, ClassesFallback: !*noFallback,
		Quick: *quick, Ncmc: *ncmcBin, NcmcArgs: strings.Fields(*ncmcArgs), Unroll: *unroll,
		Anchors: *anchors, Tarball: *tarball, Examples: *examples, Out: *out,
		Suite: genmcSuite,
	}
	if cfg.Quick && !timeoutSet {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.ClassesTimeout == 0 {
		cfg.ClassesTimeout = cfg.Timeout
	}
	for _, m := range splitList(*models) {
		if m == "all" {
			cfg.Models = append(cfg.Models, "sc", "tso", "ra", "rc11")
			continue
		}
		switch m {
		case "sc", "tso", "ra", "rc11":
			cfg.Models = append(cfg.Models, m)
		default:
			return config{}, fmt.Errorf("unknown model %q (sc, tso, ra, rc11)", m)
		}
	}
	if len(cfg.Models) == 0 || len(cfg.Explorers) == 0 {
		return config{}, fmt.Errorf("no model or no explorer given")
	}
	for _, p := range splitList(*programs) {
		if p != "all" {
			cfg.Programs[p] = true
		}
	}
	if cfg.Timeout <= 0 {
		return config{}, fmt.Errorf("-timeout must be positive")
	}
	return cfg, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// tools found on this machine.
type tools struct {
	Ncmc, GenMC, Nidhugg string
	Env                  []string // PATH with the anchors and LLVM 16 first
	HasD                 bool     // ncmc verify lists -D
	Compat               string   // include directory with a genmc.h for Nidhugg
	Version              string   // ncmc version's output
}

func compare(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	if cfg.Root == "" {
		root, err := findRoot()
		if err != nil {
			return err
		}
		cfg.Root = root
	}
	tmp, err := os.MkdirTemp("", "ncmc-compare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	tl, notes, err := findTools(ctx, cfg, tmp, stderr)
	if err != nil {
		return err
	}

	// The programs.
	var synth string
	wantGenMC := len(cfg.Programs) == 0 || !onlyExamples(cfg.Programs, cfg.Suite)
	if wantGenMC {
		tb := cfg.Tarball
		if tb == "" {
			tb = os.Getenv("GENMC_TARBALL")
		}
		if tb == "" {
			tb = filepath.Join(cfg.Root, "..", "shared", "anchors", "genmc-0.10.3.tar.gz")
		}
		if synth, err = extractSynthetic(tb, tmp); err != nil {
			notes = append(notes, fmt.Sprintf("GenMC's tests skipped: %v", err))
			synth = ""
		}
	}
	examples, err := listExamples(cfg)
	if err != nil {
		return err
	}

	var b strings.Builder
	header(&b, cfg, tl, notes)
	fmt.Fprint(stdout, b.String())
	all := b.String()
	for _, model := range cfg.Models {
		var progs []program
		if synth != "" {
			ps, err := genmcPrograms(synth, cfg.Suite, model, cfg.Quick, cfg.Programs)
			if err != nil {
				return err
			}
			progs = append(progs, ps...)
		}
		progs = append(progs, examples...)
		t := tableHeader(model, tl)
		fmt.Fprint(stdout, t)
		all += t
		for _, pr := range progs {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(stderr, "compare: %s %s\n", model, pr.Label)
			rows := measureRepeated(ctx, cfg, tl, model, pr)
			s := formatRows(pr, rows)
			fmt.Fprint(stdout, s)
			all += s
		}
	}
	if cfg.Out != "" {
		f, err := os.OpenFile(cfg.Out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, err = io.WriteString(f, "\n"+all)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return nil
}

func onlyExamples(p map[string]bool, suite []genmcTest) bool {
	for k := range p {
		base := strings.SplitN(k, ":", 2)[0]
		if k == "genmc" {
			return false
		}
		for _, t := range suite {
			if t.Name == base {
				return false
			}
		}
	}
	return true
}

// findRoot walks up from the working directory to the directory of go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory: run from the ncmc checkout")
		}
		dir = parent
	}
}

// findTools builds ncmc (unless -ncmc is given) and looks for the anchors.
func findTools(ctx context.Context, cfg config, tmp string, stderr io.Writer) (tools, []string, error) {
	var tl tools
	var notes []string
	tl.Ncmc = cfg.Ncmc
	if tl.Ncmc == "" {
		tl.Ncmc = filepath.Join(cfg.Root, "bin", "ncmc")
		fmt.Fprintln(stderr, "compare: go build -o bin/ncmc ./cmd/ncmc")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", tl.Ncmc, "./cmd/ncmc")
		cmd.Dir = cfg.Root
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			return tl, nil, fmt.Errorf("building ncmc: %v", err)
		}
	}
	if abs, err := filepath.Abs(tl.Ncmc); err == nil {
		tl.Ncmc = abs
	}
	help, _ := exec.CommandContext(ctx, tl.Ncmc, "verify", "--help").CombinedOutput()
	if !strings.Contains(string(help), "--model") {
		return tl, nil, fmt.Errorf("%s verify --help does not look like ncmc's", tl.Ncmc)
	}
	tl.HasD = ncmcHasDefineFlag(string(help))
	if v, err := exec.CommandContext(ctx, tl.Ncmc, "version").Output(); err == nil {
		tl.Version = strings.TrimSpace(string(v))
	}
	if tl.HasD {
		notes = append(notes, "ncmc gets the parameters with -D")
	} else {
		notes = append(notes, "ncmc has no -D flag: it verifies a generated wrapper per setting (#define lines, then the variant's text)")
	}

	anchors := cfg.Anchors
	if anchors == "" {
		anchors = os.Getenv("ANCHORS")
	}
	if anchors == "" {
		home, _ := os.UserHomeDir()
		anchors = filepath.Join(home, ".cache", "ncmc-anchors")
	}
	bin := filepath.Join(anchors, "bin")
	path := bin + string(os.PathListSeparator) + "/usr/lib/llvm-16/bin" + string(os.PathListSeparator) + os.Getenv("PATH")
	tl.Env = append(os.Environ(), "PATH="+path)
	if isExec(filepath.Join(bin, "genmc")) {
		tl.GenMC = filepath.Join(bin, "genmc")
	} else {
		notes = append(notes, "GenMC not found in "+bin+": its rows are skipped (build it with ../shared/anchors/build.sh)")
	}
	if isExec(filepath.Join(bin, "nidhuggc")) {
		tl.Nidhugg = filepath.Join(bin, "nidhuggc")
		tl.Compat = filepath.Join(tmp, "nidhugg-include")
		if err := os.MkdirAll(tl.Compat, 0o755); err != nil {
			return tl, nil, err
		}
		// szymanski includes GenMC's header for __VERIFIER_assume only.
		if err := os.WriteFile(filepath.Join(tl.Compat, "genmc.h"), []byte("void __VERIFIER_assume(int);\n"), 0o644); err != nil {
			return tl, nil, err
		}
	} else {
		notes = append(notes, "Nidhugg not found in "+bin+": its rows are skipped")
	}
	return tl, notes, nil
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// listExamples returns the CIR examples selected.
func listExamples(cfg config) ([]program, error) {
	dir := cfg.Examples
	if dir == "" {
		dir = filepath.Join(cfg.Root, "examples")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.cir"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []program
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".cir")
		if len(cfg.Programs) > 0 && !cfg.Programs["examples"] && !cfg.Programs[base] {
			continue
		}
		out = append(out, program{Label: base + ".cir", File: f, Expected: -1})
	}
	return out, nil
}

// header prints the machine, date, commit, load average and notes.
func header(b *strings.Builder, cfg config, tl tools, notes []string) {
	now := time.Now().UTC()
	fmt.Fprintf(b, "### ncmc against GenMC and Nidhugg (`make compare`), %s\n\n", now.Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(b, "- machine: %s\n", machine())
	fmt.Fprintf(b, "- load average at start: %s\n", loadAvg())
	if cfg.Repeat > 1 {
		fmt.Fprintf(b, "- every tool ran %d times per program, the tools in turn; each row is its run with the median wall time\n", cfg.Repeat)
	}
	fmt.Fprintf(b, "- ncmc: %s (`ncmc version`: %s; checkout at commit %s)\n", tl.Ncmc, tl.Version, commit(cfg.Root))
	gm, nd := "absent", "absent"
	if tl.GenMC != "" {
		gm = tl.GenMC + " (`-<model> --disable-estimation -disable-mm-detector` plus the test's flags from its args file)"
	}
	if tl.Nidhugg != "" {
		nd = tl.Nidhugg + " (`--sc --rf`; `--tso --optimal`, as its reads-from SMC is not implemented for TSO; it has no ra/rc11)"
	}
	fmt.Fprintf(b, "- GenMC: %s\n- Nidhugg: %s\n", gm, nd)
	fmt.Fprintf(b, "- limit %s per run (classes: %s); ncmc runs with `--json --keep-going --unroll %d --timeout <limit>%s` (killed 5 s after the limit); explorers: %s\n",
		cfg.Timeout, cfg.ClassesTimeout, cfg.Unroll, strings.Join(append([]string{""}, cfg.NcmcArgs...), " "), strings.Join(cfg.Explorers, ", "))
	fmt.Fprintln(b, "- GenMC's programs are C, for which ncmc's default leaves final states out of its classes: vmcr explores one execution per read-value vector (and choices), as Nidhugg --rf explores one trace per reads-from class (docs/vmcr.md \"Classes\"; the CIR examples keep final states); `-ncmc-args --outcomes` measures the classes with final states instead")
	fmt.Fprintln(b, "- wall = wall time of the whole process, so GenMC's and Nidhugg's include compiling the C file with clang; tool = the time the tool reports itself (GenMC and nidhuggc: whole run; ncmc: exploration); peak = the child's maximum resident set (with its children, e.g. clang)")
	fmt.Fprintln(b, "- classes = value classes (distinct per-thread read-value vectors of complete executions) counted by `ncmc verify --explorer reference --classes` (plain DFS; the state cache would cut classes); where it does not finish within the limit, a count marked * comes from a complete reduced explorer (`--explorer ncmc --classes` under sc, the default explorer with `--classes` under tso, ra and rc11); rf classes beside where they differ; redundancy = complete executions / value classes; ×GenMC, ×Nidhugg = wall time / theirs")
	for _, n := range notes {
		fmt.Fprintf(b, "- %s\n", n)
	}
	b.WriteString("\n")
}

func tableHeader(model string, tl tools) string {
	return fmt.Sprintf("\n#### model %s\n\n| program | tool | complete | blocked | classes | redundancy | wall s | tool s | peak MB | ×GenMC | ×Nidhugg | notes |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", model)
}

func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				if _, v, ok := strings.Cut(l, ":"); ok {
					cpu = strings.TrimSpace(v)
				}
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		for _, l := range strings.Split(string(b), "\n") {
			if _, err := fmt.Sscanf(l, "MemTotal: %d kB", &kb); err == nil {
				mem = fmt.Sprintf(", %.0f GiB", float64(kb)/(1<<20))
				break
			}
		}
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s, %d CPUs%s, %s/%s, %s (host %s)", cpu, runtime.NumCPU(), mem, runtime.GOOS, runtime.GOARCH, runtime.Version(), host)
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func commit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += " with uncommitted changes"
	}
	return c
}
