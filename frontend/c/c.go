package c

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/cc/v4"

	"ncmc/frontend/diag"
	"ncmc/ir"
	"ncmc/memmodel"
)

// DataModel names the sizes of C's integer and pointer types.
type DataModel string

// Data models. ILP32 (32-bit int, long and pointers) is the data model of the
// SV-COMP ConcurrencySafety tasks and the default; LP64 is the host's.
const (
	ILP32 DataModel = "ILP32"
	LP64  DataModel = "LP64"
)

// Options configure the translation. The zero value is usable.
type Options struct {
	// DataModel selects the integer sizes; "" means ILP32.
	DataModel DataModel
	// MaxNondetValues bounds the number of values a __VERIFIER_nondet_*()
	// call may produce after the front end has narrowed its range (see
	// doc.go); a call with more possible values is unsupported. 0 means 256.
	MaxNondetValues int
	// Defines are extra -D style macro definitions ("N=3" or "DEBUG").
	Defines []string
	// IncludePaths are extra -I style directories, searched (in order)
	// for #include "..." after the including file's directory and for
	// #include <...> before the system directories, as gcc does.
	IncludePaths []string
	// UnderApproximate translates some constructs that are otherwise
	// unsupported by keeping only part of their behaviour: a nondet call
	// with too many values explores a representative subset of them (the
	// smallest values, the type's extremes). Every execution of the result
	// is an execution of the C program, so a violation found is real, but
	// the absence of one proves nothing. CompileApprox lists what was
	// approximated.
	UnderApproximate bool
	// NoDataRace translates for the no-data-race property. A call of
	// reach_error or __VERIFIER_error that the program defines is an
	// ordinary call of its body, instead of an error that ends the
	// execution: calling them is no error for this property, and the
	// program goes on after a body such as {} (one without a body still
	// ends the execution, as SV-COMP declares it noreturn). And the
	// arguments of output functions (printf("%d", *p)) are read, though
	// their values are not used: those reads can race.
	NoDataRace bool
	// NoAtomicSections says the program is explored under ra or rc11,
	// where the front end adds no atomic sections (IAtomicBegin) of its
	// own (those of __VERIFIER_atomic_begin and __VERIFIER_atomic_
	// functions stay): an atomic operation on a whole _Atomic struct or
	// union takes a hidden lock of the object instead (atomicstruct.go);
	// pthread_mutex_destroy and init are release stores without the sc
	// fence that follows them under the other models; dead loads are
	// kept (DropDeadLoads). An atomic add or sub on an integer narrower
	// than 64 bits (and gcc's atomic min and max) is a compare-exchange
	// loop whose failed iterations are discarded (a load, then a
	// compare-exchange of the wrapped-around sum; see spin.go) under
	// every model, with or without this option. ForModel sets it under ra
	// and rc11.
	NoAtomicSections bool
	// Hardware is "tso" or "pso" when the program is explored under that
	// hardware model, which ignores the orders of accesses (docs/cir.md):
	// the front end then compiles C11's atomic accesses with the fences of
	// the usual mappings to that hardware, as a C compiler does, so that a
	// program correct under C11 stays correct there. Under tso (x86) a
	// seq_cst store is followed by a full fence (mov; mfence). Under pso
	// (SPARC PSO, which also lets a thread's stores to different
	// locations pass each other) a release store is preceded by a full
	// fence (membar #StoreStore), a seq_cst store also followed by one, and
	// a release, acq_rel or seq_cst fence is a full fence. Loads need
	// none: neither model reorders a load with a later access. The
	// front end's own stores (unlocks, barriers, pthread_once, ...) are
	// release or seq_cst stores, so they get the same fences. ForModel
	// sets it under tso and pso; "" adds none.
	Hardware string
	// KeepSpinIterations turns off the discarding of no-op loop iterations
	// (spin.go): every loop iteration runs and counts against the loop
	// bound. The outcomes are the same (TestSpinNoOpsDifferential); only
	// the number of executions and the bound hits differ. The front end's
	// own compare-exchange loops (barriers, locks, narrow RMWs) then hit
	// the bound when they retry.
	KeepSpinIterations bool
	// DropDeadLoads turns loads of globals whose values are never used
	// into no-ops (deadload.go): exact under the interleaving models (sc,
	// tso, pso) for everything but data races. It is ignored with
	// NoAtomicSections (ra, rc11) or NoDataRace; ForModel sets it under
	// sc, tso and pso unless data races are checked.
	DropDeadLoads bool
	// ZeroHeap makes malloc'd memory start zeroed, as calloc's, instead of
	// uninitialized (a read before a write is then no violation): SV-COMP's
	// unreach-call and no-data-race tasks read such memory as a value, and
	// their verdicts do not count it as an error. svcomp.Load and ncmc
	// verify --property set it.
	ZeroHeap bool
	// SystemHeaders translates with the host's C library headers only,
	// never with the front end's own compact ones (ownhdr.go), which are
	// otherwise tried first. The result is the same; only the time differs.
	// NCMC_HEADERS=system in the environment does the same.
	SystemHeaders bool
}

// ForModel returns opts with the options that depend on the memory model
// the program is explored under (a name of package memmodel) set as every
// command of ncmc sets them (verify, test, bench, sweep and svcomp.Load), so
// that one C program is translated the same way whichever command reads it:
// NoAtomicSections under the graph-only models (ra, rc11), whose
// explorers have no atomic sections; Hardware under tso and pso (the fences
// a compiler adds for them); DropDeadLoads under the operational
// ones (sc, tso, pso) unless keepDeadLoads (data races are checked, or the
// explorer counts every load's reads-from choice, as the trust explorer
// does under sc and tso). An unknown model name sets neither.
func (opts Options) ForModel(model string, keepDeadLoads bool) Options {
	opts.NoAtomicSections, opts.DropDeadLoads, opts.Hardware = false, false, ""
	m, err := memmodel.Lookup(model)
	if err != nil {
		return opts
	}
	if m.Exec == memmodel.StoreBuffer || m.Exec == memmodel.StoreBufferPerLoc {
		opts.Hardware = model
	}
	opts.NoAtomicSections = !m.Operational()
	opts.DropDeadLoads = m.Operational() && !keepDeadLoads
	return opts
}

// Unsupported is the error of a valid C program that uses constructs the
// front end cannot translate faithfully (e.g. complex numbers, timed
// waits, unbounded nondeterministic input). Every such construct found
// is listed with its position; each message starts with "unsupported: ".
// A checker must answer "unknown" for such a program.
type Unsupported struct {
	Errs diag.ErrorList
}

// Error renders every listed construct, one per line (with source lines and
// carets, see diag.Error).
func (u *Unsupported) Error() string { return u.Errs.Error() }

// Reason is a one-line summary: the first construct's position and message,
// plus how many more there are.
func (u *Unsupported) Reason() string {
	if len(u.Errs) == 0 {
		return "unsupported C construct"
	}
	e := u.Errs[0]
	s := e.Pos.String() + ": " + e.Msg
	if n := len(u.Errs) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// Messages of the IFail instructions the error functions lower to. A
// checker of the SV-COMP property unreach-call must treat exactly these
// violations (see IsErrorCall) as the property's violation.
const (
	MsgReachError    = "reach_error() called"
	MsgVerifierError = "__VERIFIER_error() called"
)

// IsErrorCall reports whether a violation message is a call of one of
// SV-COMP's error functions (reach_error, or the older __VERIFIER_error).
func IsErrorCall(msg string) bool { return msg == MsgReachError || msg == MsgVerifierError }

// CompileFile reads the C file at path and translates it (see Compile).
func CompileFile(path string, opts Options) (*ir.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Compile(path, src, opts)
}

// Compile translates the C program src, read from file filename (used in
// positions and to find the headers it includes with quotes). On failure
// the error is a diag.ErrorList (invalid C), an *Unsupported (valid C the
// front end cannot translate), or another error (e.g. no host C compiler).
func Compile(filename string, src []byte, opts Options) (*ir.Program, error) {
	p, _, err := CompileApprox(filename, src, opts)
	return p, err
}

// CompileFileApprox reads the C file at path and translates it (see
// CompileApprox).
func CompileFileApprox(path string, opts Options) (*ir.Program, []string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return CompileApprox(path, src, opts)
}

// CompileApprox is Compile that also returns the under-approximations made
// (Options.UnderApproximate), one "file:line:col: what" line each; none
// means the program is translated exactly.
func CompileApprox(filename string, src []byte, opts Options) (*ir.Program, []string, error) {
	if opts.DataModel == "" {
		opts.DataModel = ILP32
	}
	if opts.MaxNondetValues <= 0 {
		opts.MaxNondetValues = 256
	}
	if err := checkNesting(filename, src); err != nil {
		return nil, nil, err
	}
	cfg, sources, err := ccInput(filename, src, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := preprocessErrors(filename, src, cfg, sources); err != nil {
		return nil, nil, err // includes.go: the parser may loop after a missing include
	}
	if useOwnHeaders(opts, cfg) {
		// The own headers first (ownhdr.go); on any doubt, the system's.
		p, approx, err, why := compileOwn(filename, src, sources, cfg, opts)
		traceHeaders(filename, why)
		if why == "" {
			return p, approx, err
		}
	}
	ast, err := ccTranslate(cfg, sources)
	if err != nil {
		if u, ok := err.(*Unsupported); ok {
			return nil, nil, u
		}
		return nil, nil, ccErrors(filename, src, err)
	}
	return translate(filename, src, ast, cfg, opts)
}

// ccInput returns the parser's configuration (with opts' include paths)
// and the sources of a translation of src: the predefined macros with
// opts' -D definitions, cc's builtins and the program.
func ccInput(filename string, src []byte, opts Options) (*cc.Config, []cc.Source, error) {
	cfg, err := config(opts.DataModel)
	if err != nil {
		return nil, nil, err
	}
	if len(opts.IncludePaths) > 0 {
		// IncludePaths starts with "" (the including file's directory).
		cfg.IncludePaths = append(append(append([]string{}, cfg.IncludePaths[:1]...), opts.IncludePaths...), cfg.IncludePaths[1:]...)
		cfg.SysIncludePaths = append(append([]string{}, opts.IncludePaths...), cfg.SysIncludePaths...)
	}
	sources := []cc.Source{
		{Name: "<predefined>", Value: cfg.Predefined + defines(opts.Defines)},
		{Name: "<builtin>", Value: cc.Builtin},
		// The sentinel declaration works around a parser hang
		// (modernc.org/cc/v4 v4.31.0 loops forever when a pointer
		// declarator is cut off by the end of the input, e.g. "void *"):
		// its identifier ends that loop. It is harmless in a valid program.
		{Name: filename, Value: append(append([]byte(nil), src...), "\nint "+eofSentinel+";\n"...)},
	}
	return cfg, sources, nil
}

// ccTranslate runs cc.Translate; a crash of the parser is reported as an
// unsupported program (the input may be valid C: no verdict can be given).
// The parser loops forever on some malformed input (a declarator cut off
// by the end of the tokens after a missing include: parser.
// typeQualifierList), so it runs on its own goroutine under a bound
// (parseBound); past it the program is unsupported too, and the
// goroutine is left behind (it cannot be stopped: the command exits).
func ccTranslate(cfg *cc.Config, sources []cc.Source) (*cc.AST, error) {
	return ccTranslateWithin(cfg, sources, parseBound(sources))
}

// ccTranslateWithin is ccTranslate with the bound given.
func ccTranslateWithin(cfg *cc.Config, sources []cc.Source, bound time.Duration) (*cc.AST, error) {
	name := sources[len(sources)-1].Name
	type result struct {
		ast *cc.AST
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: &Unsupported{Errs: diag.ErrorList{{Pos: ir.Pos{File: name}, Msg: fmt.Sprintf("unsupported: internal error in the C parser (modernc.org/cc/v4): %v", r)}}}}
			}
		}()
		ast, err := cc.Translate(cfg, sources)
		done <- result{ast, err}
	}()
	timer := time.NewTimer(bound)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.ast, r.err
	case <-timer.C:
		return nil, &Unsupported{Errs: diag.ErrorList{{Pos: ir.Pos{File: name, Line: 1, Col: 1},
			Msg: fmt.Sprintf("unsupported: the C parser did not finish within %v: %s (check the program with cc -fsyntax-only)", bound, parserLoops)}}}
	}
}

// parserLoops is part of the message of a parse that ran out of time.
const parserLoops = "it loops on some malformed input"

// parserTimedOut reports whether u is ccTranslate's report of a parse
// that ran out of time.
func parserTimedOut(u *Unsupported) bool {
	return len(u.Errs) == 1 && strings.Contains(u.Errs[0].Msg, parserLoops)
}

// parseBound is how long ccTranslate waits for the C parser: 10 s plus 1 s
// per 25 KB of source (a 10,000-statement program parses in about 1 s;
// the looping parser holds about 1.2 GB of error messages after 10 s).
func parseBound(sources []cc.Source) time.Duration {
	n := 0
	for _, s := range sources {
		if b, ok := s.Value.([]byte); ok {
			n += len(b)
		}
	}
	return 10*time.Second + time.Duration(n/25000)*time.Second
}

func defines(ds []string) string {
	var b strings.Builder
	for _, d := range ds {
		k, v, ok := strings.Cut(d, "=")
		if !ok {
			v = "1"
		}
		fmt.Fprintf(&b, "\n#define %s %s\n", k, v)
	}
	return b.String()
}

// eofSentinel is the name of a global appended to every program (see Compile).
const eofSentinel = "__ncmc_eof_sentinel"

// x32Shim is a virtual include directory. The ILP32 configuration uses the
// predefined macros of gcc -mx32 (ILP32 on x86-64) with the host's x86-64
// headers; glibc's <gnu/stubs.h> then includes <gnu/stubs-x32.h>, which a
// host without x32 libraries lacks, and which only lists unimplemented
// functions. The shim provides it empty.
const x32Shim = "/ncmc-internal-x32-shim"

// stdatomicShim is <stdatomic.h> in the ILP32 configuration: the host's,
// after <stdint.h>, as clang's includes it.
const stdatomicShim = "#include <stdint.h>\n#include_next <stdatomic.h>\n"

// ncmcInclude is a virtual include directory searched after all others: it
// holds the headers the front end provides (genmc.h, see genmcHeader).
const ncmcInclude = "/ncmc-internal-include"

// shimFS serves the virtual files of x32Shim and ncmcInclude; cc opens
// every other file from the host's file system.
type shimFS struct{}

func (shimFS) Open(name string) (fs.File, error) {
	switch name {
	case x32Shim + "/gnu/stubs-x32.h":
		return &memFile{name: "stubs-x32.h", r: bytes.NewReader(nil)}, nil
	case x32Shim + "/stdatomic.h":
		// clang's <stdatomic.h> includes <stdint.h> (GenMC's tests use
		// intptr_t with only <stdatomic.h>); gcc's does not
		return &memFile{name: "stdatomic.h", r: bytes.NewReader([]byte(stdatomicShim))}, nil
	case ncmcInclude + "/genmc.h":
		return &memFile{name: "genmc.h", r: bytes.NewReader([]byte(genmcHeader))}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type memFile struct {
	name string
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f}, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return i.f.name }
func (i memInfo) Size() int64        { return i.f.r.Size() }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

var (
	cfgMu    sync.Mutex
	cfgCache = map[DataModel]*cc.Config{}
)

// config returns (a copy of) the cc configuration of a data model. Building
// one runs the host C compiler, so they are cached, in memory and on disk
// (hostConfig).
func config(dm DataModel) (*cc.Config, error) {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	if c, ok := cfgCache[dm]; ok {
		cp := *c
		return &cp, nil
	}
	host, err := hostConfig("amd64")
	if err != nil {
		return nil, fmt.Errorf("C front end: %v (a host C compiler, gcc or cc, is needed for the system headers)", err)
	}
	var c *cc.Config
	switch dm {
	case LP64:
		c = host
	case ILP32:
		c, err = hostConfig("386", "-mx32")
		if err != nil {
			return nil, fmt.Errorf("C front end: %v", err)
		}
		if !strings.Contains(c.Predefined, "__ILP32__") {
			return nil, fmt.Errorf("C front end: the host C compiler does not support -mx32, needed for the ILP32 data model (use LP64)")
		}
		c.HostIncludePaths = host.HostIncludePaths
		c.HostSysIncludePaths = host.HostSysIncludePaths
		c.SysIncludePaths = append([]string{x32Shim}, host.SysIncludePaths...)
		c.IncludePaths = append([]string{""}, append(append([]string{}, host.HostIncludePaths...), c.SysIncludePaths...)...)
	default:
		return nil, fmt.Errorf("C front end: unknown data model %q (ILP32 or LP64)", dm)
	}
	c.FS = shimFS{}
	c.SysIncludePaths = append(append([]string{}, c.SysIncludePaths...), ncmcInclude)
	c.IncludePaths = append(append([]string{}, c.IncludePaths...), ncmcInclude)
	// Macro expansion can blow up exponentially on hostile input.
	c.ExpansionLimit = 50_000_000
	cfgCache[dm] = c
	cp := *c
	return &cp, nil
}

var (
	ccPosRE = regexp.MustCompile(`^(.*?):(\d+):(\d+): ?(.*)$`)
	// ccOriginRE matches the location in cc's own Go source that some of
	// its messages end with, e.g. " (check.go:5579:intConst:)".
	ccOriginRE = regexp.MustCompile(`\s*\([A-Za-z0-9_]+\.go:\d+:[^()]*\)\s*$`)
	// ccRangeRE matches cc's message for an integer constant too large for
	// every integer type.
	ccRangeRE = regexp.MustCompile(`^strconv\.Parse(?:Uint|Int): parsing "([^"]*)": value out of range$`)
)

// ccCascade reports whether a cc error line only follows from another
// error: cc's notes about nodes it could not type ("TODO *cc.X missed/failed
// type check") and complaints about the <invalid type> an undefined name
// was given.
func ccCascade(line string) bool {
	return strings.Contains(line, "TODO *cc.") && strings.Contains(line, "missed/failed type check") ||
		strings.Contains(line, "<invalid type>")
}

// ccMessage is cc's error message msg as a user reads it: without the
// location in cc's own source, and with Go library wording replaced.
func ccMessage(msg string) string {
	msg = ccOriginRE.ReplaceAllString(msg, "")
	if m := ccRangeRE.FindStringSubmatch(msg); m != nil {
		lit := m[1]
		if len(lit) > 40 {
			lit = lit[:20] + "..." + lit[len(lit)-10:]
		}
		msg = fmt.Sprintf("integer constant %s is too large for any integer type", lit)
	}
	return msg
}

// ccErrors turns cc's error (one "file:line:col: msg" per line) into a
// diag.ErrorList.
func ccErrors(filename string, src []byte, err error) error {
	col := diag.NewCollector(filename, src)
	lines := strings.Split(err.Error(), "\n")
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if ccCascade(line) && len(lines) > 1 {
			continue // a consequence of another error, in cc's own words
		}
		if m := ccPosRE.FindStringSubmatch(line); m != nil {
			l, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			col.Errorf(ir.Pos{File: m[1], Line: l, Col: c}, "%s", ccMessage(m[4]))
			continue
		}
		// cc names no position ("-: ...") at the end of the input.
		col.Errorf(endPos(filename, src), "%s", ccMessage(strings.TrimPrefix(line, "-: ")))
	}
	if col.Len() == 0 {
		col.Errorf(endPos(filename, src), "%s", err.Error())
	}
	return col.Errors()
}

// endPos is the position just past the last character of src, where an
// error without a position of its own (at the end of the input, or about
// the whole program) is reported.
func endPos(filename string, src []byte) ir.Pos {
	line := 1 + bytes.Count(src, []byte("\n"))
	last := src[bytes.LastIndexByte(src, '\n')+1:]
	if len(last) == 0 && line > 1 { // ends with a newline: the end of the last line
		line--
		prev := src[:len(src)-1]
		last = prev[bytes.LastIndexByte(prev, '\n')+1:]
	}
	return ir.Pos{File: filename, Line: line, Col: len(last) + 1}
}
