package c

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// ncmc's own C library headers.
//
// Preprocessing, parsing and type checking glibc's headers took about 80 ms
// of a small program's 110 ms (<stdlib.h>, <pthread.h>, <stdatomic.h> and
// <assert.h> expand to some 4,000 declarations, of which a program uses a
// handful). The front end therefore first translates a program with its
// own compact headers (include/*.h, embedded in the binary): the subset of
// the C library it models, with the types, sizes, constants and macro
// expansions of x86-64 glibc under both data models (the x32 ABI for
// ILP32, the host's for LP64; TestOwnHeadersMatchGlibc compares every
// declaration and macro value with the system headers').
//
// The result must be the one the system headers give. So the own headers
// are used only when they are enough, and the program is translated again,
// exactly as before, with the system headers when
//
//   - it includes a system header the front end does not provide (it is
//     not mixed with the own ones: glibc's headers share internal types and
//     include guards) other than gcc's freestanding headers (passThrough),
//     which are used from the compiler's directory as before;
//   - it declares at file scope a name that the system version of a header
//     the front end provides declares and the own version does not
//     (include/glibc-extra.txt): with glibc that could be a conflict;
//   - it defines a feature test macro (_GNU_SOURCE, _POSIX_C_SOURCE, ...)
//     before an own header, which changes what glibc declares;
//   - or anything fails: cc reports an error (a name the own headers lack
//     is then undeclared) or the translation reports an error, so that
//     every message, and its position, is the one it was.
//
// Options.SystemHeaders and NCMC_HEADERS=system turn the own headers off.

//go:embed include/*.h include/glibc-extra.txt
var ownFiles embed.FS

// ownInclude is the virtual include directory of the own headers, searched
// before every system directory (after the user's -I directories).
const ownInclude = "/ncmc-internal-own"

// passThrough are gcc's freestanding headers: they include nothing of
// glibc's, so the own headers use them from the compiler's directory.
var passThrough = map[string]bool{
	"stddef.h": true, "stdbool.h": true, "stdarg.h": true, "stdatomic.h": true,
	"stdalign.h": true, "stdnoreturn.h": true, "float.h": true, "iso646.h": true,
}

// glibcExtra is what include/glibc-extra.txt lists: the file-scope names
// (ordinary identifiers and tags) and, on lines "macro NAME", the macros
// that the system version of an own header declares and the own version
// does not.
type glibcExtraSets struct{ names, macros map[string]bool }

var glibcExtra = sync.OnceValue(func() glibcExtraSets {
	data, err := ownFiles.ReadFile("include/glibc-extra.txt")
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	e := glibcExtraSets{names: map[string]bool{}, macros: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		w := strings.TrimSpace(sc.Text())
		if m, ok := strings.CutPrefix(w, "macro "); ok {
			e.macros[m] = true
		} else if w != "" && !strings.HasPrefix(w, "#") {
			e.names[w] = true
		}
	}
	return e
})

// ownFS serves, for one translation with the own headers, the own headers,
// the virtual files of shimFS and every other file from the host's file
// system, except a header of a system directory that is not passThrough:
// that one is not found, and denied records that the program needs the
// system headers.
type ownFS struct {
	sys    []string // the system include directories, cleaned
	denied atomic.Bool
	mu     sync.Mutex
	user   []string // the other files opened
}

// userFiles returns the files opened other than headers of the own or a
// system directory (the program's own headers).
func (f *ownFS) userFiles() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.user...)
}

func (f *ownFS) Open(name string) (fs.File, error) {
	if rel, ok := strings.CutPrefix(name, ownInclude+"/"); ok {
		data, err := ownFiles.ReadFile("include/" + rel)
		if err != nil || rel == "glibc-extra.txt" {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return &memFile{name: filepath.Base(rel), r: bytes.NewReader(data)}, nil
	}
	if strings.HasPrefix(name, x32Shim+"/") || strings.HasPrefix(name, ncmcInclude+"/") {
		return shimFS{}.Open(name)
	}
	for _, d := range f.sys {
		if rel, ok := strings.CutPrefix(name, d+"/"); ok {
			if passThrough[rel] {
				return os.Open(name)
			}
			if _, err := os.Stat(name); err == nil {
				f.denied.Store(true)
			}
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
	}
	file, err := os.Open(name)
	if err == nil {
		f.mu.Lock()
		f.user = append(f.user, name)
		f.mu.Unlock()
	}
	return file, err
}

// useOwnHeaders reports whether a translation may try the own headers:
// not turned off, and the host's C library is the one they describe
// (ownGlibc).
func useOwnHeaders(opts Options, cfg *cc.Config) bool {
	return !opts.SystemHeaders && os.Getenv("NCMC_HEADERS") != "system" && hostGlibc(cfg) == ownGlibc
}

// ownGlibc is the version of glibc (x86-64) the own headers describe, as
// "__GLIBC__.__GLIBC_MINOR__"; on a host with another C library the own
// headers are not used (TestOwnHeadersMatchGlibc fails there too, until
// the headers and glibc-extra.txt are brought up to date).
const ownGlibc = "2.36"

var (
	glibcMu    sync.Mutex
	glibcCache = map[string]string{}
	glibcRE    = regexp.MustCompile(`(?m)^#\s*define\s+__GLIBC(_MINOR)?__\s+(\d+)\s*$`)
)

// hostGlibc returns the glibc version that the <features.h> of cfg's
// system include path declares ("" if none).
func hostGlibc(cfg *cc.Config) string {
	for _, d := range cfg.SysIncludePaths {
		if d == "" || strings.HasPrefix(d, "/ncmc-internal") {
			continue
		}
		path := filepath.Join(d, "features.h")
		glibcMu.Lock()
		v, ok := glibcCache[path]
		glibcMu.Unlock()
		if !ok {
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			major, minor := "", ""
			for _, m := range glibcRE.FindAllSubmatch(data, -1) {
				if len(m[1]) == 0 {
					major = string(m[2])
				} else {
					minor = string(m[2])
				}
			}
			if major != "" && minor != "" {
				v = major + "." + minor
			}
			glibcMu.Lock()
			glibcCache[path] = v
			glibcMu.Unlock()
		}
		return v
	}
	return ""
}

// ownConfig returns a copy of the system configuration cfg (with the
// user's -I directories already in place, userDirs) that finds the own
// headers first, and its file system.
func ownConfig(cfg *cc.Config, userDirs []string) (*cc.Config, *ownFS) {
	user := map[string]bool{}
	for _, d := range userDirs {
		user[filepath.Clean(d)] = true
	}
	f := &ownFS{}
	seen := map[string]bool{}
	for _, list := range [][]string{cfg.HostIncludePaths, cfg.HostSysIncludePaths, cfg.SysIncludePaths, cfg.IncludePaths} {
		for _, d := range list {
			if d == "" || d == "@" || d == x32Shim || d == ncmcInclude {
				continue
			}
			d = filepath.Clean(d)
			if !user[d] && !seen[d] {
				seen[d] = true
				f.sys = append(f.sys, d)
			}
		}
	}
	c := *cfg
	c.FS = f
	c.FSOnly = true
	c.SysIncludePaths = insertAfter(cfg.SysIncludePaths, len(userDirs), ownInclude)
	// IncludePaths starts with "" (the including file's directory), then
	// the user's directories.
	c.IncludePaths = insertAfter(cfg.IncludePaths, 1+len(userDirs), ownInclude)
	return &c, f
}

// insertAfter returns a copy of list with s inserted at index i.
func insertAfter(list []string, i int, s string) []string {
	if i > len(list) {
		i = len(list)
	}
	r := append([]string{}, list[:i]...)
	r = append(r, s)
	return append(r, list[i:]...)
}

// ownHeadersEnough reports whether a translation with the own headers
// stands for the one with the system headers: no system header was
// denied, the program declares no name that the system headers declare
// and the own ones do not (a declaration of the program is one that is not
// in an own header), and its text (the file src and the files of its own
// it includes) names no macro that the system headers define and the own
// ones do not (#ifdef WEXITSTATUS, or a macro of its own of that name).
func ownHeadersEnough(src []byte, ast *cc.AST, f *ownFS) bool {
	if f.denied.Load() {
		return false
	}
	extra := glibcExtra()
	for name, nodes := range ast.Scope.Nodes {
		if !extra.names[name] {
			continue
		}
		for _, n := range nodes {
			if !strings.HasPrefix(n.Position().Filename, ownInclude+"/") {
				return false
			}
		}
	}
	texts := [][]byte{src}
	for _, path := range f.userFiles() {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		texts = append(texts, b)
	}
	for _, text := range texts {
		for _, id := range identRE.FindAll(text, -1) {
			if extra.macros[string(id)] {
				return false
			}
		}
	}
	return true
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// compileOwn translates with the own headers. why is "" when the result
// (a program, or a time-out of the parser, which the system headers would
// only repeat) stands; otherwise it says why the system headers are needed.
func compileOwn(filename string, src []byte, sources []cc.Source, cfg *cc.Config, opts Options) (p *ir.Program, approx []string, err error, why string) {
	ocfg, ofs := ownConfig(cfg, opts.IncludePaths)
	ast, err := ccTranslate(ocfg, sources)
	if u, ok := err.(*Unsupported); ok && parserTimedOut(u) && !ofs.denied.Load() {
		// The same input (no header was denied) would time out again.
		return nil, nil, u, ""
	}
	switch {
	case ofs.denied.Load():
		return nil, nil, nil, "includes a header the front end does not provide"
	case err != nil:
		return nil, nil, nil, "error with the own headers: " + firstLine(err.Error())
	case !ownHeadersEnough(src, ast, ofs):
		return nil, nil, nil, "declares or names a name of the system headers"
	}
	p, approx, err = translate(filename, src, ast, ocfg, opts)
	if err != nil {
		return nil, nil, nil, "translation error: " + firstLine(err.Error())
	}
	return p, approx, nil, ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// traceHeaders reports, with NCMC_HEADERS=trace, which headers a
// translation used and why.
func traceHeaders(filename, why string) {
	if os.Getenv("NCMC_HEADERS") != "trace" {
		return
	}
	if why == "" {
		fmt.Fprintf(os.Stderr, "ncmc: %s: own C headers\n", filename)
	} else {
		fmt.Fprintf(os.Stderr, "ncmc: %s: system C headers (%s)\n", filename, why)
	}
}
