package c

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var genmcTarball = flag.String("genmc.tarball", "../../../shared/anchors/genmc-0.10.3.tar.gz", "GenMC's source tarball (its tests/correct/synthetic programs are translated by TestGenMCSynthetic)")

// TestGenMCSynthetic translates every variant of GenMC's regression tests
// tests/correct/synthetic (from the tarball of -genmc.tarball, skipped if
// it is absent) with the -D flags of the test's first argument line, as
// GenMC's driver does, and logs how many translate, with the reasons of
// the others. GenMC's own include directory is not used: its assert.h,
// pthread.h and stdatomic.h map onto GenMC's internals; the host's headers
// and the front end's genmc.h are. It fails if fewer than
// genmcSyntheticMin variants translate (a regression).
//
//	go test ./frontend/c -run TestGenMCSynthetic -v
func TestGenMCSynthetic(t *testing.T) {
	if testing.Short() {
		t.Skip("translates 79 programs")
	}
	dir := t.TempDir()
	root, err := extractGenMC(*genmcTarball, dir, "tests/correct/synthetic/")
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("no GenMC tarball at %s", *genmcTarball)
	}
	if err != nil {
		t.Fatal(err)
	}
	syn := filepath.Join(root, "tests", "correct", "synthetic")
	variants, _ := filepath.Glob(filepath.Join(syn, "*", "variants", "*.c"))
	sort.Strings(variants)
	ok := 0
	reasons := map[string]int{}
	for _, v := range variants {
		test := filepath.Dir(filepath.Dir(v))
		defs := genmcDefines(test)
		_, err := CompileFile(v, Options{Defines: defs})
		name := strings.TrimPrefix(v, syn+string(filepath.Separator))
		if err == nil {
			ok++
			t.Logf("ok    %s %v", name, defs)
			continue
		}
		first := firstLineOf(err.Error())
		t.Logf("FAIL  %s %v: %s", name, defs, first)
		reasons[genmcReason(first)]++
	}
	t.Logf("%d of %d variants of tests/correct/synthetic translate", ok, len(variants))
	var rs []string
	for r, n := range reasons {
		rs = append(rs, fmt.Sprintf("%3d  %s", n, r))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(rs)))
	t.Logf("reasons:\n%s", strings.Join(rs, "\n"))
	if ok < genmcSyntheticMin {
		t.Errorf("%d variants translate, fewer than %d", ok, genmcSyntheticMin)
	}
}

// genmcSyntheticMin is the number of variants of GenMC's synthetic tests
// known to translate.
const genmcSyntheticMin = 79

var posPrefixRE = regexp.MustCompile(`^[^ ]*:\d+:\d+: `)

// genmcReason is an error message without its position and the names in
// it, to group failures.
func genmcReason(msg string) string {
	msg = posPrefixRE.ReplaceAllString(msg, "")
	if i := strings.Index(msg, " (and "); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// genmcDefines returns the -D flags of the first line of a GenMC test's
// argument file (args.sc.mo.in, or another model's): GenMC's arguments,
// '|', the compiler's.
func genmcDefines(test string) []string {
	for _, f := range []string{"args.sc.mo.in", "args.sc.in", "args.rc11.mo.in", "args.rc11.wb.in", "args.imm.wb.in", "args.wrc11.in"} {
		b, err := os.ReadFile(filepath.Join(test, f))
		if err != nil {
			continue
		}
		line, _, _ := strings.Cut(string(b), "\n")
		_, cflags, _ := strings.Cut(line, "|")
		var defs []string
		for _, w := range strings.Fields(cflags) {
			if d, ok := strings.CutPrefix(w, "-D"); ok {
				defs = append(defs, d)
			}
		}
		return defs
	}
	return nil
}

// extractGenMC extracts the files of the tarball whose path (after the
// top directory) starts with one of prefixes into dir, and returns the
// directory the top directory became.
func extractGenMC(tarball, dir string, prefixes ...string) (string, error) {
	f, err := os.Open(tarball)
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	tr := tar.NewReader(zr)
	top := ""
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		name := filepath.ToSlash(filepath.Clean(h.Name))
		first, rest, _ := strings.Cut(name, "/")
		if top == "" {
			top = first
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(name, "..") {
			continue
		}
		want := false
		for _, p := range prefixes {
			want = want || strings.HasPrefix(rest, p)
		}
		if !want {
			continue
		}
		out := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", err
		}
		b, err := io.ReadAll(io.LimitReader(tr, 1<<24))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, top), nil
}
