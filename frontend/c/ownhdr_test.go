package c

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

var updateOwnHeaders = flag.Bool("update-own-headers", false, "rewrite include/glibc-extra.txt from the host's system headers (TestOwnHeadersMatchGlibc)")

// ownHeaderNames are the public own headers (include/*.h without the
// internal _ncmc_*.h).
func ownHeaderNames(t *testing.T) []string {
	t.Helper()
	ents, err := fs.ReadDir(ownFiles, "include")
	if err != nil {
		t.Fatal(err)
	}
	var hs []string
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".h") && !strings.HasPrefix(n, "_ncmc") {
			hs = append(hs, n)
		}
	}
	return hs
}

// probeAST translates a program that includes header h, with the own
// headers (own) or the system headers, in data model dm, with every
// constant macro evaluated.
func probeAST(t *testing.T, dm DataModel, h string, own bool) (*cc.AST, *ownFS) {
	t.Helper()
	cfg, err := config(dm)
	if err != nil {
		t.Skip(err)
	}
	var f *ownFS
	if own {
		cfg, f = ownConfig(cfg, nil)
	}
	cfg.EvalAllMacros = true
	ast, err := cc.Translate(cfg, []cc.Source{
		{Name: "<predefined>", Value: cfg.Predefined},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: "probe.c", Value: "#include <" + h + ">\n"},
	})
	if err != nil {
		t.Fatalf("%s %s (own %v): %v", dm, h, own, err)
	}
	if f != nil && f.denied.Load() {
		t.Fatalf("%s: own %s includes a system header", dm, h)
	}
	return ast, f
}

// incompleteTags are the tags an own header declares without their
// members (a program that needs them fails to translate with the own
// headers, and a definition of its own makes the front end use the
// system headers: they are listed in glibc-extra.txt).
var incompleteTags = map[string]bool{"_IO_FILE": true}

// TestOwnHeadersMatchGlibc checks, for every own header and both data
// models, that every name it declares is declared by the system header of
// the same name with the same type (kind, size, alignment, members and
// their offsets, parameters; the pthread types by size and alignment
// only, as the front end models them by name), every enumeration constant
// has the same value, and every macro exists there too, as a function-like
// macro if it is one, with the same value if it is a constant. And that
// include/glibc-extra.txt lists exactly the names the system headers
// declare and the own ones do not (-update-own-headers rewrites it).
func TestOwnHeadersMatchGlibc(t *testing.T) {
	for _, dm := range []DataModel{ILP32, LP64} {
		cfg, err := config(dm)
		if err != nil {
			t.Skip(err)
		}
		if v := hostGlibc(cfg); v != ownGlibc {
			// The front end then uses the system headers only (ownhdr.go),
			// so nothing is wrong for a user; on glibc 2.36 hosts (CI,
			// Debian 12) the comparison runs.
			t.Skipf("%s: the host's glibc is %q, the own headers describe %s and are switched off here; nothing to compare", dm, v, ownGlibc)
		}
	}
	extra := map[string]bool{}
	for _, dm := range []DataModel{ILP32, LP64} {
		for _, h := range ownHeaderNames(t) {
			sys, _ := probeAST(t, dm, h, false)
			own, _ := probeAST(t, dm, h, true)
			for name, onodes := range own.Scope.Nodes {
				snodes, ok := sys.Scope.Nodes[name]
				fromOwn := false
				for _, n := range onodes {
					fromOwn = fromOwn || strings.HasPrefix(n.Position().Filename, ownInclude+"/")
				}
				if !fromOwn {
					continue
				}
				if strings.Contains(name, "ncmc") {
					continue // internal
				}
				if !ok {
					t.Errorf("%s %s: %s is not declared by the system header", dm, h, name)
					continue
				}
				if incompleteTags[name] {
					extra[name] = true
					continue
				}
				if d := compareNodes(onodes, snodes); d != "" {
					t.Errorf("%s %s: %s: %s", dm, h, name, d)
				}
			}
			for name := range sys.Scope.Nodes {
				if _, ok := own.Scope.Nodes[name]; !ok {
					extra[name] = true
				}
			}
			for name := range sys.Macros {
				if _, ok := own.Macros[name]; !ok {
					extra["macro "+name] = true
				}
			}
			var probe strings.Builder
			for name, m := range own.Macros {
				if !strings.HasPrefix(m.Position().Filename, ownInclude+"/") || strings.Contains(strings.ToLower(name), "ncmc") {
					continue
				}
				sm := sys.Macros[name]
				switch {
				case sm == nil:
					t.Errorf("%s %s: macro %s is not defined by the system header", dm, h, name)
				case sm.IsFnLike != m.IsFnLike:
					t.Errorf("%s %s: macro %s: function-like %v, system %v", dm, h, name, m.IsFnLike, sm.IsFnLike)
				case m.IsFnLike:
					if m.MinArgs != sm.MinArgs || m.VarArg != sm.VarArg {
						t.Errorf("%s %s: macro %s: parameters differ from the system's", dm, h, name)
					}
				case (len(m.ReplacementList()) == 0) != (len(sm.ReplacementList()) == 0):
					t.Errorf("%s %s: macro %s: empty %v, system %v", dm, h, name, len(m.ReplacementList()) == 0, len(sm.ReplacementList()) == 0)
				case !cc.IsIntegerType(m.Type()):
					// not an integer constant: compared by its uses
				default:
					// A constant's value and type, checked with the
					// system header.
					var lit string
					switch v := m.Value().(type) {
					case cc.Int64Value:
						if int64(v) == math.MinInt64 {
							lit = "(-9223372036854775807LL-1)"
						} else {
							lit = fmt.Sprintf("%dLL", int64(v))
						}
					case cc.UInt64Value:
						lit = fmt.Sprintf("%dULL", uint64(v))
					default:
						continue
					}
					fmt.Fprintf(&probe, "_Static_assert(_Generic((%s), %s: 1, default: 0), \"type of %s: %s\");\n", name, m.Type(), name, m.Type())
					fmt.Fprintf(&probe, "_Static_assert((%s) == %s, \"value of %s: %s\");\n", name, lit, name, lit)
				}
			}
			if probe.Len() > 0 {
				cfg, _ := config(dm)
				if _, err := cc.Translate(cfg, []cc.Source{
					{Name: "<predefined>", Value: cfg.Predefined},
					{Name: "<builtin>", Value: cc.Builtin},
					{Name: "probe.c", Value: "#include <" + h + ">\n" + probe.String()},
				}); err != nil {
					t.Errorf("%s %s: macros differ from the system header's:\n%v\n%s", dm, h, err, probe.String())
				}
			}
		}
	}
	var names []string
	for n := range extra {
		names = append(names, n)
	}
	sort.Strings(names)
	want := "# Generated by go test ./frontend/c -run TestOwnHeadersMatchGlibc -update-own-headers:\n" +
		"# the file-scope names (identifiers and tags) and the macros (\"macro NAME\") that\n" +
		"# the host's system headers declare and ncmc's own headers of the same name do\n" +
		"# not (ownhdr.go).\n" +
		strings.Join(names, "\n") + "\n"
	const file = "include/glibc-extra.txt"
	if *updateOwnHeaders {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not up to date with the host's headers (%d names, want %d): run with -update-own-headers", file, len(strings.Split(string(got), "\n")), len(names)+5)
	}
}

// compareNodes compares the declarations of one name by an own header
// (o) and a system header (s): "" when they agree.
func compareNodes(o, s []cc.Node) string {
	for _, on := range o {
		found := false
		for _, sn := range s {
			if reflect.TypeOf(on) != reflect.TypeOf(sn) {
				continue
			}
			found = true
			switch x := on.(type) {
			case *cc.Declarator:
				y := sn.(*cc.Declarator)
				if x.IsTypename() != y.IsTypename() {
					return "typedef in one header only"
				}
				if d := compareTypes(x.Type(), y.Type(), 0); d != "" {
					return fmt.Sprintf("type %s, system %s: %s", x.Type(), y.Type(), d)
				}
			case *cc.Enumerator:
				y := sn.(*cc.Enumerator)
				if fmt.Sprint(x.Value()) != fmt.Sprint(y.Value()) {
					return fmt.Sprintf("value %v, system %v", x.Value(), y.Value())
				}
			case *cc.StructOrUnionSpecifier:
				y := sn.(*cc.StructOrUnionSpecifier)
				if d := compareTypes(x.Type(), y.Type(), 0); d != "" {
					return d
				}
			}
		}
		if !found {
			return fmt.Sprintf("a %T here, not in the system header", on)
		}
	}
	return ""
}

// compareTypes compares two types structurally: "" when they agree.
func compareTypes(a, b cc.Type, depth int) string {
	if depth > 6 {
		return ""
	}
	if a.Kind() != b.Kind() {
		return fmt.Sprintf("kind %v, system %v", a.Kind(), b.Kind())
	}
	if x, ok := a.(*cc.StructType); ok && x.IsIncomplete() && incompleteTags[tagName(x)] {
		if y, ok := b.(*cc.StructType); ok && tagName(y) == tagName(x) {
			return ""
		}
	}
	if pa, pb := pthreadKind(a), pthreadKind(b); pa != pb {
		return fmt.Sprintf("pthread kind %q, system %q", pa, pb)
	} else if pa != "" {
		if a.Size() != b.Size() || a.Align() != b.Align() {
			return fmt.Sprintf("%s: size %d align %d, system size %d align %d", pa, a.Size(), a.Align(), b.Size(), b.Align())
		}
		return ""
	}
	if a.Kind() != cc.Function && a.Kind() != cc.Void && (a.Size() != b.Size() || a.Align() != b.Align()) {
		return fmt.Sprintf("size %d align %d, system size %d align %d", a.Size(), a.Align(), b.Size(), b.Align())
	}
	if cc.IsSignedInteger(a) != cc.IsSignedInteger(b) {
		return "signedness"
	}
	switch x := a.(type) {
	case *cc.PointerType:
		return compareTypes(x.Elem(), b.(*cc.PointerType).Elem(), depth+1)
	case *cc.ArrayType:
		y := b.(*cc.ArrayType)
		if x.Len() != y.Len() {
			return fmt.Sprintf("length %d, system %d", x.Len(), y.Len())
		}
		return compareTypes(x.Elem(), y.Elem(), depth+1)
	case *cc.FunctionType:
		y := b.(*cc.FunctionType)
		if x.IsVariadic() != y.IsVariadic() || len(x.Parameters()) != len(y.Parameters()) {
			return fmt.Sprintf("function %s, system %s", x, y)
		}
		if d := compareTypes(x.Result(), y.Result(), depth+1); d != "" {
			return "result: " + d
		}
		for i, p := range x.Parameters() {
			if d := compareTypes(p.Type(), y.Parameters()[i].Type(), depth+1); d != "" {
				return fmt.Sprintf("parameter %d: %s", i+1, d)
			}
		}
	case *cc.StructType:
		y := b.(*cc.StructType)
		if x.IsIncomplete() != y.IsIncomplete() || x.NumFields() != y.NumFields() {
			return fmt.Sprintf("struct %s, system %s", x, y)
		}
		for i := 0; i < x.NumFields(); i++ {
			f, g := x.FieldByIndex(i), y.FieldByIndex(i)
			if f.Name() != g.Name() || f.Offset() != g.Offset() {
				return fmt.Sprintf("field %d: %s at %d, system %s at %d", i, f.Name(), f.Offset(), g.Name(), g.Offset())
			}
			if d := compareTypes(f.Type(), g.Type(), depth+1); d != "" {
				return "field " + f.Name() + ": " + d
			}
		}
	case *cc.UnionType:
		y := b.(*cc.UnionType)
		if x.NumFields() != y.NumFields() {
			return fmt.Sprintf("union %s, system %s", x, y)
		}
	}
	return ""
}

// irDump is a translated program as text, with every source position in
// it (ir.Program.String prints few).
func irDump(p *ir.Program) string {
	var b strings.Builder
	b.WriteString(p.String())
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if pos, ok := v.Interface().(ir.Pos); ok {
				fmt.Fprintf(&b, "%s\n", pos)
				return
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(p))
	return b.String()
}

// compileBoth translates a C file with the own headers (when they are
// enough) and with the system headers; why is compileOwn's reason for the
// system headers ("" when the own ones were used).
func compileBoth(t *testing.T, path string, src []byte, opts Options) (own, sys string, why string) {
	t.Helper()
	render := func(p *ir.Program, approx []string, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return irDump(p) + strings.Join(approx, "\n")
	}
	o := opts
	o.SystemHeaders = false
	cfg, err := config(ILP32)
	if o.DataModel == LP64 {
		cfg, err = config(LP64)
	}
	if err != nil {
		t.Skip(err)
	}
	_ = cfg
	p, approx, err := CompileApprox(path, src, o)
	own = render(p, approx, err)
	why = ownWhy(path, src, o)
	s := opts
	s.SystemHeaders = true
	p, approx, err = CompileApprox(path, src, s)
	sys = render(p, approx, err)
	return own, sys, why
}

// ownWhy is compileOwn's verdict on a program: "" when the own headers
// are used.
func ownWhy(path string, src []byte, opts Options) string {
	if opts.DataModel == "" {
		opts.DataModel = ILP32
	}
	if opts.MaxNondetValues <= 0 {
		opts.MaxNondetValues = 256
	}
	cfg, sources, err := ccInput(path, src, opts)
	if err != nil {
		return err.Error()
	}
	_, _, _, why := compileOwn(path, src, sources, cfg, opts)
	return why
}

// TestOwnHeadersFallback: the own headers are used for the programs they
// cover and the system headers for the others, with the same result.
func TestOwnHeadersFallback(t *testing.T) {
	const prog = `
atomic_int x;
void *t(void *a) { atomic_store(&x, 1); return NULL; }
int main() { pthread_t p; pthread_create(&p, NULL, t, NULL); pthread_join(p, NULL); assert(x == 1); return 0; }
`
	const incs = "#include <stdlib.h>\n#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lib.h"), []byte("#include <stdio.h>\nstatic int lib(void) { puts(\"x\"); return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mac.h"), []byte("#define _SYS_TYPES_H 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "inc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inc", "stdlib.h"), []byte("#define MINE 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		opts      Options
		own       bool   // the own headers are used
		why       string // else part of the reason
	}{
		{"genmc-like", incs + prog, Options{}, true, ""},
		{"lp64", incs + prog, Options{DataModel: LP64}, true, ""},
		{"stdio-string-limits-stdint", "#include <stdio.h>\n#include <string.h>\n#include <limits.h>\n#include <stdint.h>\n#include <stdbool.h>\n#include <time.h>\nint main(void) { char b[8]; strcpy(b, \"ab\"); int64_t v = INT64_MAX; bool ok = strlen(b) == 2 && v > INT_MAX; printf(\"%d\\n\", ok); return 0; }\n", Options{}, true, ""},
		{"genmc.h", "#include <genmc.h>\n#include <assert.h>\nint main(void) { int x = 1; __VERIFIER_assume(x == 1); assert(x); return 0; }\n", Options{}, true, ""},
		{"quoted assert.h", "#include \"assert.h\"\nint main(void) { assert(1); return 0; }\n", Options{}, true, ""},
		{"user header", "#include \"lib.h\"\nint main(void) { return lib(); }\n", Options{}, true, ""},
		{"NDEBUG", "#define NDEBUG\n#include <assert.h>\nint main(void) { assert(0); return 0; }\n", Options{}, true, ""},
		{"other system header", "#include <unistd.h>\n#include <pthread.h>\nint main(void) { usleep(1); return 0; }\n", Options{}, false, "does not provide"},
		{"has_include", "#if __has_include(<unistd.h>)\nint u;\n#endif\n#include <stdlib.h>\nint main(void) { return 0; }\n", Options{}, false, "does not provide"},
		{"glibc name", "#include <stdlib.h>\nint rpmatch(int x) { return x; }\nint main(void) { return rpmatch(0); }\n", Options{}, false, "declares or names"},
		{"glibc name conflict", "#include <stdlib.h>\nint mkstemp;\nint main(void) { return mkstemp; }\n", Options{}, false, "declares or names"},
		{"glibc macro", "#include <stdlib.h>\n#ifdef WEXITSTATUS\nint w;\n#endif\nint main(void) { return 0; }\n", Options{}, false, "names a name"},
		{"glibc macro in a user header", "#include \"mac.h\"\n#include <stdlib.h>\nint main(void) { return 0; }\n", Options{}, false, "names a name"},
		{"glibc tag", "#include <stdio.h>\nstruct _IO_FILE { int x; };\nint main(void) { return 0; }\n", Options{}, false, "declares or names"},
		{"feature macro", "#define _GNU_SOURCE\n#include <pthread.h>\nint main(void) { return 0; }\n", Options{}, false, "error with the own headers"},
		{"missing declaration", "#include <stdio.h>\nint main(void) { fpos_t p; return 0; }\n", Options{}, false, "error with the own headers"},
		{"pthread internals", "#include <pthread.h>\npthread_mutex_t m;\nint main(void) { return m.__data.__lock; }\n", Options{}, false, "error with the own headers"},
		{"bad input", "#include <stdlib.h>\nint main(void) { return undefined_var; }\n", Options{}, false, "error with the own headers"},
		{"-I header first", "#include <stdlib.h>\nint main(void) { return MINE; }\n", Options{IncludePaths: []string{filepath.Join(dir, "inc")}}, true, ""},
		{"unmodelled function", "#include <stdlib.h>\nint main(void) { return (int)strtoul(\"1\", 0, 10); }\n", Options{}, false, "translation error"},
		{"implicit declaration", "#include <stdlib.h>\nint main(void) { return mblen(\"\", 1); }\n", Options{}, false, ""},
		{"unsupported", "#include <stdio.h>\nint main(void) { FILE *f = fopen(\"x\", \"r\"); return f != 0; }\n", Options{}, false, "translation error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "p.c")
			own, sys, why := compileBoth(t, path, []byte(tc.src), tc.opts)
			if own != sys {
				t.Errorf("own headers:\n%s\nsystem headers:\n%s", own, sys)
			}
			if tc.own != (why == "") || !tc.own && !strings.Contains(why, tc.why) {
				t.Errorf("own headers used: %v (%q), want %v (%q)", why == "", why, tc.own, tc.why)
			}
		})
	}
}

// TestOwnHeadersSameIR translates every C program of the repository's test
// data and examples, of GenMC's synthetic tests (with their -D flags) and
// of the SV-COMP tasks, with the own headers and with the system headers,
// in both data models, and requires the same translation (the IR with
// every position, or the same error) from both.
func TestOwnHeadersSameIR(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every C program twice")
	}
	type prog struct {
		path string
		defs []string
	}
	var progs []prog
	for _, root := range []string{"testdata", "../../examples", "../../ncmc/testdata", "../../benchmarks", *svcompDir} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".c") {
				progs = append(progs, prog{path: p})
			}
			return nil
		})
	}
	root, err := extractGenMC(*genmcTarball, t.TempDir(), "tests/correct/synthetic/")
	if err == nil {
		syn := filepath.Join(root, "tests", "correct", "synthetic")
		variants, _ := filepath.Glob(filepath.Join(syn, "*", "variants", "*.c"))
		for _, v := range variants {
			progs = append(progs, prog{v, genmcDefines(filepath.Dir(filepath.Dir(v)))})
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	own, differ := 0, 0
	for _, pr := range progs {
		src, err := os.ReadFile(pr.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, dm := range []DataModel{ILP32, LP64} {
			o, s, why := compileBoth(t, pr.path, src, Options{DataModel: dm, Defines: pr.defs})
			if why == "" {
				own++
			} else {
				t.Logf("%s (%s): system headers: %s", pr.path, dm, why)
			}
			if o != s {
				differ++
				t.Errorf("%s (%s): the translations differ (own headers used: %v)\nown:\n%.2000s\nsystem:\n%.2000s", pr.path, dm, why == "", o, s)
			}
		}
	}
	t.Logf("%d programs, %d translations of %d with the own headers, %d differ", len(progs), own, 2*len(progs), differ)
	if len(progs) < 50 {
		t.Errorf("only %d programs found", len(progs))
	}
}

func tagName(t *cc.StructType) string {
	tok := t.Tag()
	return tok.SrcStr()
}

// BenchmarkCompileHeaders translates a small GenMC-style program that
// includes <stdlib.h>, <pthread.h>, <stdatomic.h> and <assert.h>, with the
// own headers and with the system headers.
//
//	go test ./frontend/c -run XXX -bench CompileHeaders
func BenchmarkCompileHeaders(b *testing.B) {
	src := []byte("#include <stdlib.h>\n#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\n" +
		"atomic_int x;\nvoid *t(void *a) { atomic_store(&x, 1); return NULL; }\n" +
		"int main() { pthread_t p; pthread_create(&p, NULL, t, NULL); pthread_join(p, NULL); assert(x == 1); return 0; }\n")
	for _, sys := range []bool{false, true} {
		name := "own"
		if sys {
			name = "system"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Compile("x.c", src, Options{SystemHeaders: sys}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
