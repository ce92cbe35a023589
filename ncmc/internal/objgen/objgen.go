// Package objgen generates small random CIR client programs of concurrent
// objects, for differential testing of the ncmc explorer (which reduces
// with commutativity specifications) against the reference explorer.
//
// A generated program declares one to three object instances taken from
// the implementation library (Library: counters, sets as arrays and linked
// lists with and without a size field, a hash table with colliding buckets,
// union-find with path compression), each with a sound commutativity
// specification; a few shared client globals x0.. and a client mutex; and
// 1–3 worker threads besides main. Each worker runs a short random sequence
// of method calls with small arguments (results stored in globals g0.. or
// in typed locals), asserts over the results (some fail in some
// interleavings), branches on results, plain reads and writes of the client
// globals and lock-protected blocks. Main may initialise a heap instance,
// makes calls of its own between spawning and joining, joins every worker
// and then checks results and abstract states with asserts whose messages
// start with "final". Objects are used only through their linearizable
// methods while workers run; abstraction methods are called only by main
// after every join. The same rng state and Config give the same program.
package objgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Config are the knobs of Generate. Weights are relative frequencies of
// worker statement kinds (0 disables a kind).
type Config struct {
	MinWorkers, MaxWorkers int // worker threads spawned by main
	MaxObjects             int // object instances 1..MaxObjects
	MinOps, MaxOps         int // statements per worker
	TotalOps               int // at most this many worker statements in all (0: no cap)
	MainOps                int // up to this many calls by main between spawns and joins
	ClientVars             int // shared int globals x0.. (0: none)
	FinalChecks            int // up to this many final asserts in main
	// Kinds restricts the implementations to these kinds (counter, set,
	// hashtable, unionfind); empty: all.
	Kinds []string
	// HeapObjects is the percentage of instances allocated with new by
	// main (reached through a pointer global) instead of being globals.
	HeapObjects int
	// AtomicMethods is the percentage of programs whose object methods use
	// atomic blocks instead of their mutex (Impl.Source).
	AtomicMethods int
	// LockedMaxWorkers and LockedMaxOps cap MaxWorkers and MaxOps in the
	// other programs (0: no cap): every step inside a locked method is a
	// scheduling point for the reference explorer.
	LockedMaxWorkers, LockedMaxOps int

	// Statement weights. Peek reads a field of an object directly (only in
	// programs with atomic methods); Atomic runs a call and a client store
	// in one atomic block.
	Call, Assert, If, Load, Store, Lock, Peek, Atomic int
	// Nondet and Dep are the percentages of calls whose first argument is
	// nondet(0, 1) and, when an int result is at hand, computed from it.
	Nondet, Dep int
}

// Default returns knobs for programs whose complete exploration by the
// reference explorer takes milliseconds to a few seconds.
func Default() Config {
	return Config{
		MinWorkers: 2, MaxWorkers: 3,
		MaxObjects: 2,
		MinOps:     1, MaxOps: 3, TotalOps: 5,
		MainOps:     1,
		ClientVars:  1,
		FinalChecks: 2,
		HeapObjects: 15, AtomicMethods: 80,
		LockedMaxWorkers: 2, LockedMaxOps: 2,
		Call: 8, Assert: 2, If: 1, Load: 1, Store: 1, Lock: 1, Peek: 1, Atomic: 1,
		Nondet: 5, Dep: 10,
	}
}

// Program is a generated program.
type Program struct {
	Source string  // CIR source
	Impls  []*Impl // the implementations it uses, one per object type (their Spec fields are the specs)
}

// Specs returns the YAML text of the specification of every object type
// the program uses, by object type.
func (p *Program) Specs() map[string]string {
	m := map[string]string{}
	for _, im := range p.Impls {
		m[im.Object] = im.Spec
	}
	return m
}

type local struct {
	name string
	typ  string // int or bool
	set  bool   // assigned before the current point (on every path)
}

type instance struct {
	name string // the expression calls go through: o0 or p0
	impl *Impl
}

type gen struct {
	rng     *rand.Rand
	cfg     Config
	b       strings.Builder
	objs    []instance
	results []string // result globals g0.. with their types, "g0: int"
	asserts int
	ops     int
	budget  int // worker statements left (TotalOps)
	workers int
	hot     int // arguments are mostly dom[hot] and dom[hot+1]
	atomic  bool
	locals  []*local
	inLock  bool
}

// Generate returns a random program.
func Generate(rng *rand.Rand, cfg Config) *Program {
	g := &gen{rng: rng, cfg: cfg}
	lib := Library()
	if len(cfg.Kinds) > 0 {
		var keep []*Impl
		for _, im := range lib {
			for _, k := range cfg.Kinds {
				if im.Kind == k {
					keep = append(keep, im)
				}
			}
		}
		lib = keep
	}
	if len(lib) == 0 {
		lib = Library()
	}
	atomic := rng.IntN(100) < cfg.AtomicMethods
	g.atomic = atomic
	g.hot = rng.IntN(2)
	if !atomic {
		if cfg.LockedMaxWorkers > 0 {
			cfg.MaxWorkers = min(cfg.MaxWorkers, cfg.LockedMaxWorkers)
			cfg.MinWorkers = min(cfg.MinWorkers, cfg.MaxWorkers)
		}
		if cfg.LockedMaxOps > 0 {
			cfg.MaxOps = min(cfg.MaxOps, cfg.LockedMaxOps)
			cfg.MinOps = min(cfg.MinOps, cfg.MaxOps)
		}
		g.cfg = cfg
	}
	n := g.between(1, max(cfg.MaxObjects, 1))
	var used []*Impl
	var heap []int
	for i := 0; i < n; i++ {
		im := lib[rng.IntN(len(lib))]
		seen := false
		for _, u := range used {
			if u == im {
				seen = true
			}
		}
		if !seen {
			used = append(used, im)
		}
		name := fmt.Sprintf("o%d", i)
		if rng.IntN(100) < cfg.HeapObjects {
			name = fmt.Sprintf("p%d", i)
			heap = append(heap, i)
		}
		g.objs = append(g.objs, instance{name: name, impl: im})
	}

	// Workers and main are generated first (they declare result globals),
	// then everything is assembled.
	workers := g.between(max(cfg.MinWorkers, 1), max(cfg.MaxWorkers, cfg.MinWorkers, 1))
	g.budget, g.workers = cfg.TotalOps, workers
	var bodies []string
	for w := 1; w <= workers; w++ {
		bodies = append(bodies, g.worker(w))
	}
	mainBody := g.mainFn(workers, heap)

	var out strings.Builder
	out.WriteString("// generated by ncmc/internal/objgen\n")
	for _, im := range used {
		out.WriteString("\n" + im.Source(atomic))
	}
	out.WriteString("\n")
	for _, o := range g.objs {
		if o.name[0] == 'p' {
			fmt.Fprintf(&out, "global %s: *%s;\n", o.name, o.impl.Object)
		} else {
			fmt.Fprintf(&out, "global %s: %s;\n", o.name, o.impl.Object)
		}
	}
	for i := 0; i < cfg.ClientVars; i++ {
		fmt.Fprintf(&out, "global x%d: int;\n", i)
	}
	if cfg.ClientVars > 0 && cfg.Lock > 0 {
		out.WriteString("global mx: mutex;\n")
	}
	for _, r := range g.results {
		fmt.Fprintf(&out, "global %s;\n", r)
	}
	for _, b := range bodies {
		out.WriteString("\n" + b)
	}
	out.WriteString("\n" + mainBody)
	return &Program{Source: out.String(), Impls: used}
}

func (g *gen) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + g.rng.IntN(hi-lo+1)
}

func (g *gen) pick(xs []int) int { return xs[g.rng.IntN(len(xs))] }

// args returns the argument list of a call of m. Two arguments drawn from
// one domain (union-find's elements) differ.
func (g *gen) args(m Method) string {
	var args []string
	first := ""
	if len(m.Args) > 0 && inDomain(m.Args[0], 0, 1, 2) {
		switch n := g.rng.IntN(100); {
		case n < g.cfg.Nondet:
			first = "nondet(0, 1)"
		case n < g.cfg.Nondet+g.cfg.Dep:
			if l := g.setLocal("int"); l != nil {
				// Results are non-negative: size, get, put, find.
				first = fmt.Sprintf("%s %% 3", l.name)
			}
		}
	}
	for i, dom := range m.Args {
		if i == 0 && first != "" {
			args = append(args, first)
			continue
		}
		v := g.arg(dom)
		for i == 1 && first == "" && len(m.Args[0]) > 1 && sameDomain(dom, m.Args[0]) && fmt.Sprint(v) == args[0] {
			v = g.pick(dom)
		}
		args = append(args, fmt.Sprint(v))
	}
	return strings.Join(args, ", ")
}

// inDomain reports whether every v is in dom.
func inDomain(dom []int, vs ...int) bool {
	for _, v := range vs {
		found := false
		for _, d := range dom {
			found = found || d == v
		}
		if !found {
			return false
		}
	}
	return true
}

func sameDomain(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// arg draws an argument from dom, mostly from its first two values, so that
// calls collide on keys more often than a uniform choice would.
func (g *gen) arg(dom []int) int {
	if len(dom) > 2 && g.rng.IntN(4) != 0 {
		return dom[g.hot+g.rng.IntN(2)]
	}
	return g.pick(dom)
}

func (g *gen) line(d int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("    ", d))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// newLocal declares a fresh local of type typ at the top of the function
// (the declarations are prepended when the function is assembled).
func (g *gen) newLocal(typ string) *local {
	l := &local{name: fmt.Sprintf("r%d", len(g.locals)), typ: typ}
	g.locals = append(g.locals, l)
	return l
}

// setLocal returns an assigned local of type typ ("" any), or nil.
func (g *gen) setLocal(typ string) *local {
	var c []*local
	for _, l := range g.locals {
		if l.set && (typ == "" || l.typ == typ) {
			c = append(c, l)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.rng.IntN(len(c))]
}

func (g *gen) function(header string, body func()) string {
	g.b.Reset()
	g.locals = nil
	body()
	text := g.b.String()
	var decl strings.Builder
	decl.WriteString(header + " {\n")
	for _, l := range g.locals {
		zero := "0"
		if l.typ == "bool" {
			zero = "false"
		}
		fmt.Fprintf(&decl, "    let %s = %s;\n", l.name, zero)
	}
	return decl.String() + text + "}\n"
}

func (g *gen) worker(w int) string {
	return g.function(fmt.Sprintf("fn w%d()", w), func() {
		g.ops = g.between(g.cfg.MinOps, max(g.cfg.MaxOps, g.cfg.MinOps))
		if g.cfg.TotalOps > 0 {
			// An even share of what is left for this and the later workers.
			share := max(g.budget/(g.workers-w+1), 1)
			g.ops = max(min(g.ops, share), 1)
			g.budget -= g.ops
		}
		for g.ops > 0 {
			g.stmt(1, true)
		}
	})
}

// call emits one method call at depth d. The result, if any, goes to a new
// result global, an int/bool local, or nowhere.
func (g *gen) call(d int) {
	o := g.objs[0] // the hot instance takes most calls
	if g.rng.IntN(4) == 0 {
		o = g.objs[g.rng.IntN(len(g.objs))]
	}
	m := o.impl.Calls[g.rng.IntN(len(o.impl.Calls))]
	text := fmt.Sprintf("%s.%s(%s)", o.name, m.Name, g.args(m))
	if m.Result == "" {
		g.line(d, "%s;", text)
		return
	}
	switch g.rng.IntN(5) {
	case 0, 1, 2:
		name := fmt.Sprintf("g%d", len(g.results))
		init := "-1"
		if m.Result == "bool" {
			init = "false"
		}
		g.results = append(g.results, fmt.Sprintf("%s: %s = %s", name, m.Result, init))
		g.line(d, "%s = %s;", name, text)
	case 3:
		l := g.newLocal(m.Result)
		g.line(d, "%s = %s;", l.name, text)
		if d == 1 {
			l.set = true
		}
	default:
		g.line(d, "%s;", text)
	}
}

// stmt emits one worker statement at depth d; nest allows if/lock blocks.
func (g *gen) stmt(d int, nest bool) {
	cfg := g.cfg
	g.ops--
	type kind struct {
		w int
		f func()
	}
	x := func() string { return fmt.Sprintf("x%d", g.rng.IntN(cfg.ClientVars)) }
	kinds := []kind{{cfg.Call, func() { g.call(d) }}}
	if l := g.setLocal(""); l != nil {
		kinds = append(kinds, kind{cfg.Assert, func() {
			g.asserts++
			if l.typ == "bool" {
				neg := []string{"", "!"}[g.rng.IntN(2)]
				g.line(d, "assert(%s%s, \"a%d\");", neg, l.name, g.asserts)
			} else {
				g.line(d, "assert(%s != %d, \"a%d\");", l.name, g.rng.IntN(3), g.asserts)
			}
		}})
		if nest && d < 3 {
			kinds = append(kinds, kind{cfg.If, func() {
				if l.typ == "bool" {
					g.line(d, "if (%s) {", l.name)
				} else {
					g.line(d, "if (%s == %d) {", l.name, g.rng.IntN(3))
				}
				g.stmt(d+1, false)
				if g.rng.IntN(2) == 0 {
					g.line(d, "} else {")
					g.stmt(d+1, false)
				}
				g.line(d, "}")
			}})
		}
	}
	if cfg.ClientVars > 0 {
		kinds = append(kinds,
			kind{cfg.Load, func() {
				l := g.newLocal("int")
				g.line(d, "%s = %s;", l.name, x())
				if d == 1 {
					l.set = true
				}
			}},
			kind{cfg.Store, func() {
				if l := g.setLocal("int"); l != nil && g.rng.IntN(2) == 0 {
					g.line(d, "%s = %s + 1;", x(), l.name)
				} else {
					g.line(d, "%s = %d;", x(), 1+g.rng.IntN(2))
				}
			}})
		if nest && !g.inLock && cfg.Lock > 0 {
			kinds = append(kinds, kind{cfg.Lock, func() {
				g.inLock = true
				g.line(d, "lock(mx);")
				if g.rng.IntN(2) == 0 {
					g.line(d, "%s = %s + 1;", x(), x())
				}
				g.stmt(d, false)
				g.line(d, "unlock(mx);")
				g.inLock = false
			}})
		}
	}
	var peek []instance
	for _, o := range g.objs {
		if len(o.impl.Peek) > 0 && (g.atomic || o.impl.Object == "CounterA") {
			peek = append(peek, o)
		}
	}
	if len(peek) > 0 {
		kinds = append(kinds, kind{cfg.Peek, func() {
			o := peek[g.rng.IntN(len(peek))]
			l := g.newLocal("int")
			g.line(d, "%s = %s.%s;", l.name, o.name, o.impl.Peek[g.rng.IntN(len(o.impl.Peek))])
			if d == 1 {
				l.set = true
			}
		}})
	}
	if cfg.ClientVars > 0 {
		kinds = append(kinds, kind{cfg.Atomic, func() {
			g.line(d, "atomic {")
			g.call(d + 1)
			g.line(d+1, "x%d = %d;", g.rng.IntN(cfg.ClientVars), 1+g.rng.IntN(2))
			g.line(d, "}")
		}})
	}
	total := 0
	for _, k := range kinds {
		total += k.w
	}
	if total == 0 {
		g.call(d)
		return
	}
	n := g.rng.IntN(total)
	for _, k := range kinds {
		if n < k.w {
			k.f()
			return
		}
		n -= k.w
	}
}

func (g *gen) mainFn(workers int, heap []int) string {
	return g.function("fn main()", func() {
		for _, i := range heap {
			o := g.objs[i]
			g.line(1, "%s = new %s { };", o.name, o.impl.Object)
		}
		for w := 1; w <= workers; w++ {
			g.line(1, "let h%d = spawn w%d();", w, w)
		}
		for k := g.between(0, g.cfg.MainOps); k > 0; k-- {
			g.call(1)
		}
		for w := 1; w <= workers; w++ {
			g.line(1, "join(h%d);", w)
		}
		for k := g.between(0, g.cfg.FinalChecks); k > 0; k-- {
			g.final()
		}
	})
}

// final emits a check of main after every join: over a result global, an
// abstraction value, or the result of one more call.
func (g *gen) final() {
	g.asserts++
	msg := fmt.Sprintf("final%d", g.asserts)
	o := g.objs[g.rng.IntN(len(g.objs))]
	switch r := g.rng.IntN(3); {
	case r == 0 && len(g.results) > 0:
		res := g.results[g.rng.IntN(len(g.results))]
		name, typ, _ := strings.Cut(res, ": ")
		if strings.HasPrefix(typ, "bool") {
			g.line(1, "assert(%s%s, %q);", []string{"", "!"}[g.rng.IntN(2)], name, msg)
		} else {
			g.line(1, "assert(%s != %d, %q);", name, g.rng.IntN(3), msg)
		}
	case r == 1 && len(o.impl.Abs) > 0:
		a := o.impl.Abs[g.rng.IntN(len(o.impl.Abs))]
		g.line(1, "assert(%s.%s != %d, %q);", o.name, a.Call, g.pick(a.Values), msg)
	default:
		var ms []Method
		for _, m := range o.impl.Calls {
			if m.Result != "" {
				ms = append(ms, m)
			}
		}
		m := ms[g.rng.IntN(len(ms))]
		l := g.newLocal(m.Result)
		g.line(1, "%s = %s.%s(%s);", l.name, o.name, m.Name, g.args(m))
		if m.Result == "bool" {
			g.line(1, "assert(%s%s, %q);", []string{"", "!"}[g.rng.IntN(2)], l.name, msg)
		} else {
			g.line(1, "assert(%s != %d, %q);", l.name, g.rng.IntN(3), msg)
		}
	}
}
