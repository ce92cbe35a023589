package main

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// genmcTest is one of GenMC's synthetic tests and the parameter settings
// it is measured at.
type genmcTest struct {
	Name    string
	Variant string     // file under variants/ holding main
	Params  [][]string // each a list of definitions ("N=10"); one empty list: the program's defaults
	Quick   [][]string // the parameters of -quick
}

// genmcSuite is the comparison set of issue 17 (parameters of GenMC's args
// files; fib_bench and szymanski have none: fib_bench is run at NUM=3,4,5,
// szymanski at its default N=1).
var genmcSuite = []genmcTest{
	{"lastzero", "lastzero0.c", [][]string{{"N=10"}, {"N=15"}}, [][]string{{"N=5"}}},
	{"readers", "readers0.c", [][]string{{"N=8"}, {"N=13"}}, [][]string{{"N=2"}}},
	{"casw", "casw0.c", [][]string{{"N=4"}, {"N=5"}}, [][]string{{"N=2"}, {"N=3"}}},
	{"fib_bench", "fib_bench0.c", [][]string{{"NUM=3"}, {"NUM=4"}, {"NUM=5"}}, [][]string{{"NUM=1"}, {"NUM=2"}}},
	{"szymanski", "szymanski0.c", [][]string{{}}, [][]string{{}}},
	{"indexer", "indexer0.c", [][]string{{"N=12"}, {"N=15"}}, [][]string{{"N=2"}}},
}

// program is one row group of the table: a C or CIR file at one parameter
// setting.
type program struct {
	Label   string   // "lastzero N=10"
	File    string   // the variant (C) or example (CIR) file
	Defines []string // -D definitions
	GenMC   []string // the test's own GenMC flags (args file), e.g. -disable-ipr -disable-sr
	Anchors bool     // GenMC and Nidhugg run it too (GenMC's tests; not our CIR examples)
	// Expected is GenMC's count of complete executions from the test's
	// expected.<model>.mo.in (-1: none for this model and setting).
	Expected int64
}

// extractSynthetic unpacks tests/correct/synthetic/ and include/ of the
// GenMC tarball into dir and returns the synthetic directory.
func extractSynthetic(tarball, dir string) (string, error) {
	f, err := os.Open(tarball)
	if err != nil {
		return "", err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %v", tarball, err)
	}
	tr := tar.NewReader(gz)
	synth := ""
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%s: %v", tarball, err)
		}
		name := filepath.Clean(h.Name)
		if strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			continue
		}
		i := strings.Index(name, "tests/correct/synthetic/")
		if i < 0 || h.Typeflag != tar.TypeReg {
			continue
		}
		dst := filepath.Join(dir, name)
		if synth == "" {
			synth = filepath.Join(dir, name[:i], "tests/correct/synthetic")
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		w, err := os.Create(dst)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(w, tr)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
	}
	if synth == "" {
		return "", fmt.Errorf("%s holds no tests/correct/synthetic/", tarball)
	}
	return synth, nil
}

// argsFile is the GenMC args file a model's runs take their
// flags from: the model's own, else rc11's for ra (both are C11 models),
// else sc's (tso, and tests whose only args are sc's), else rc11's.
func argsFile(testDir, model string) (string, string, bool) {
	order := []string{model}
	switch model {
	case "ra":
		order = append(order, "rc11", "sc")
	default:
		order = append(order, "sc", "rc11")
	}
	for _, m := range order {
		p := filepath.Join(testDir, "args."+m+".mo.in")
		if _, err := os.Stat(p); err == nil {
			return p, m, true
		}
	}
	return "", "", false
}

// genmcPrograms lists the programs of the suite under one model, with the
// GenMC flags of the args line that has the same definitions.
func genmcPrograms(synth string, tests []genmcTest, model string, quick bool, only map[string]bool) ([]program, error) {
	var out []program
	for _, t := range tests {
		params := t.Params
		if quick {
			params = t.Quick
		}
		dir := filepath.Join(synth, t.Name)
		var lines []argsLine
		argsModel := ""
		if p, m, ok := argsFile(dir, model); ok {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			lines, argsModel = parseArgsFile(string(b)), m
		}
		// GenMC's expected counts, line by line beside the args file
		// (first line without one), for this very model only.
		var expected []int64
		if b, err := os.ReadFile(filepath.Join(dir, "expected."+model+".mo.in")); err == nil && (argsModel == "" || argsModel == model) {
			for _, f := range strings.Fields(string(b)) {
				n, err := strconv.ParseInt(f, 10, 64)
				if err != nil {
					break
				}
				expected = append(expected, n)
			}
		}
		for _, defs := range params {
			label := strings.TrimSpace(t.Name + " " + strings.Join(defs, " "))
			if len(only) > 0 && !only[t.Name] && !only[strings.ReplaceAll(label, " ", ":")] && !only["genmc"] {
				continue
			}
			pr := program{Label: label, File: filepath.Join(dir, "variants", t.Variant), Defines: defs, Anchors: true, Expected: -1}
			for i, l := range lines {
				if sameStrings(l.Defines, defs) {
					pr.GenMC = l.GenMC
					if i < len(expected) {
						pr.Expected = expected[i]
					}
					break
				}
			}
			if len(lines) == 0 && len(defs) == 0 && len(expected) > 0 {
				pr.Expected = expected[0]
			}
			if pr.GenMC == nil && len(lines) > 0 {
				// A parameter the args file does not list: the test's flags
				// are the same on every line of the suite's files.
				pr.GenMC = lines[0].GenMC
			}
			out = append(out, pr)
		}
	}
	return out, nil
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ncmcSource returns the file to hand ncmc for a program and the extra
// arguments. With -D support it is the variant itself with -D NAME=VALUE,
// unless the program includes <genmc.h> (GenMC's header, which ncmc's C
// front end does not have). Otherwise it writes a wrapper next to the
// variant (so its relative includes resolve): the definitions as #define
// lines, then the variant's text with <genmc.h> replaced by the one
// declaration these tests use from it.
func ncmcSource(pr program, hasD bool) (string, []string, error) {
	if !pr.Anchors || (len(pr.Defines) == 0 && !includesGenMCH(pr.File)) {
		return pr.File, nil, nil
	}
	if hasD && !includesGenMCH(pr.File) {
		var args []string
		for _, d := range pr.Defines {
			args = append(args, "-D", d)
		}
		return pr.File, args, nil
	}
	text, err := os.ReadFile(pr.File)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	b.WriteString("/* generated by benchmarks/compare: " + filepath.Base(pr.File) + " at " + strings.Join(pr.Defines, " ") + " */\n")
	for _, d := range pr.Defines {
		name, val, _ := strings.Cut(d, "=")
		if val == "" {
			val = "1"
		}
		fmt.Fprintf(&b, "#define %s %s\n", name, val)
	}
	for _, l := range strings.SplitAfter(string(text), "\n") {
		if isGenMCHInclude(l) {
			b.WriteString("void __VERIFIER_assume(int); /* was: " + strings.TrimSpace(l) + " */\n")
			continue
		}
		b.WriteString(l)
	}
	name := strings.TrimSuffix(filepath.Base(pr.File), ".c") + "-ncmc-" + sanitize(strings.Join(pr.Defines, "_")) + ".c"
	path := filepath.Join(filepath.Dir(pr.File), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return "", nil, err
	}
	return path, nil, nil
}

func includesGenMCH(file string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if isGenMCHInclude(l) {
			return true
		}
	}
	return false
}

func isGenMCHInclude(line string) bool {
	l := strings.Join(strings.Fields(line), "")
	return l == "#include<genmc.h>" || l == `#include"genmc.h"`
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
