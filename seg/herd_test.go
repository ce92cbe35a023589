package seg

import (
	"fmt"
	"sort"
	"testing"

	"ncmc/ir"
)

// This file checks the built-in models against herd7 on the C litmus tests
// of bench/litmus/c11-herd: a small exhaustive enumerator (test only)
// builds every execution graph of a straight-line litmus program — every
// choice of values read, of rf sources and of mo per location — and counts
// the graphs each model accepts. The counts must equal herd7's
// "executions" rows, and the reachability of the test's condition its
// allowed/forbidden rows (bench/litmus/expected.csv, herd7 7.58).

// lc is the context a litmus thread runs in.
type lc struct {
	e     *enumRun
	t     int
	evs   []Event
	regs  map[string]int64
	locID func(string) int64
}

type enumRun struct {
	guess []int64 // values the reads return, in order of execution
	pos   int
}

type needMore struct{}

func (c *lc) nextVal() int64 {
	if c.e.pos >= len(c.e.guess) {
		panic(needMore{})
	}
	v := c.e.guess[c.e.pos]
	c.e.pos++
	return v
}

func (c *lc) load(x string, o ir.Order) int64 {
	v := c.nextVal()
	c.evs = append(c.evs, Event{Kind: KRead, Loc: c.locID(x), RVal: v, Order: o})
	return v
}

func (c *lc) store(x string, v int64, o ir.Order) {
	c.evs = append(c.evs, Event{Kind: KWrite, Loc: c.locID(x), WVal: v, Order: o})
}

func (c *lc) rmw(x string, f func(int64) int64, o ir.Order) int64 {
	v := c.nextVal()
	c.evs = append(c.evs, Event{Kind: KRMW, Loc: c.locID(x), RVal: v, WVal: f(v), Order: o})
	return v
}

func (c *lc) xchg(x string, v int64, o ir.Order) int64 {
	return c.rmw(x, func(int64) int64 { return v }, o)
}

// cas is herd's atomic_compare_exchange_strong_explicit(x, exp, des, os, of):
// read *exp non-atomically; if x holds it, RMW(os) writing des and return
// 1; else read x with of, write the value read to *exp and return 0.
func (c *lc) cas(x, exp string, des int64, os, of ir.Order) int64 {
	e := c.load(exp, na)
	v := c.nextVal()
	if v == e {
		c.evs = append(c.evs, Event{Kind: KRMW, Loc: c.locID(x), RVal: v, WVal: des, Order: os})
		return 1
	}
	c.evs = append(c.evs, Event{Kind: KRead, Loc: c.locID(x), RVal: v, Order: of})
	c.store(exp, v, na)
	return 0
}

func (c *lc) fence(o ir.Order) { c.evs = append(c.evs, Event{Kind: KFence, Order: o}) }

func (c *lc) set(r string, v int64) { c.regs[r] = v }

type litmusProg struct {
	locs    []string // location names; all start at 0
	threads []func(c *lc)
	// cond is the test's condition on registers and final memory.
	cond func(regs []map[string]int64, mem map[string]int64) bool
}

type herdRow struct {
	allowed   bool
	noOutcome bool // no outcome row for this model
	execs     int  // 0: no executions row
	race      bool // some consistent execution has a data race
	hasRace   bool // there is a data_race row
}

type enumResult struct {
	consistent int
	reached    bool
	racy       bool
}

// enumerate builds every execution graph of p and evaluates model m.
func enumerate(t *testing.T, p litmusProg, m *Model) enumResult { return countWith(t, p, m, nil) }

// countWith is enumerate that also calls visit (if not nil) on every
// consistent graph.
func countWith(t *testing.T, p litmusProg, m *Model, visit func(*Graph)) enumResult {
	locs := map[string]int64{}
	for i, x := range p.locs {
		locs[x] = ir.MakePtr(i+1, 0)
	}
	locID := func(x string) int64 {
		l, ok := locs[x]
		if !ok {
			t.Fatalf("unknown location %s", x)
		}
		return l
	}
	domain := []int64{0, 1, 2}
	var res enumResult
	var rec func(guess []int64)
	rec = func(guess []int64) {
		run := &enumRun{guess: guess}
		ctxs := make([]*lc, len(p.threads))
		complete := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil {
					if _, more := r.(needMore); !more {
						panic(r)
					}
					ok = false
				}
			}()
			for i, th := range p.threads {
				ctxs[i] = &lc{e: run, t: i, regs: map[string]int64{}, locID: locID}
				th(ctxs[i])
			}
			return true
		}()
		if !complete {
			for _, v := range domain {
				rec(append(append([]int64{}, guess...), v))
			}
			return
		}
		if run.pos != len(guess) {
			return // a shorter guess already covered this (cannot happen)
		}
		res.add(enumGraphs(p, ctxs, m, locs, visit))
	}
	rec(nil)
	return res
}

func (r *enumResult) add(o enumResult) {
	r.consistent += o.consistent
	r.reached = r.reached || o.reached
	r.racy = r.racy || o.racy
}

// enumGraphs tries every rf and mo for the events the threads produced.
func enumGraphs(p litmusProg, ctxs []*lc, m *Model, locs map[string]int64, visit func(*Graph)) enumResult {
	g := New()
	g.LocName = func(l int64) string {
		for n, v := range locs {
			if v == l {
				return n
			}
		}
		return "?"
	}
	for i, c := range ctxs {
		g.AddThread(int32(i), fmt.Sprint(i), -1, Init)
		for _, e := range c.evs {
			e.ID.T = int32(i)
			g.AppendNoMO(e)
		}
	}
	var reads []*Event
	writes := map[int64][]EventID{}
	g.Events(func(e *Event) {
		if e.Kind.IsRead() {
			reads = append(reads, e)
		}
		if e.Kind.IsWrite() {
			writes[e.Loc] = append(writes[e.Loc], e.ID)
		}
	})
	var locList []int64
	for l := range writes {
		locList = append(locList, l)
	}
	sort.Slice(locList, func(i, j int) bool { return locList[i] < locList[j] })
	var res enumResult
	var chooseRF func(k int)
	var chooseMO func(k int)
	chooseRF = func(k int) {
		if k == len(reads) {
			chooseMO(0)
			return
		}
		r := reads[k]
		if r.RVal == 0 {
			r.RF = Init
			chooseRF(k + 1)
		}
		for _, w := range writes[r.Loc] {
			if w != r.ID && g.Event(w).WVal == r.RVal {
				r.RF = w
				chooseRF(k + 1)
			}
		}
	}
	chooseMO = func(k int) {
		if k == len(locList) {
			if m.Check(g) != nil {
				return
			}
			res.consistent++
			if visit != nil {
				visit(g)
			}
			mem := map[string]int64{}
			for n, l := range locs {
				mem[n] = g.WriteValue(lastMO(g, l), l)
			}
			regs := make([]map[string]int64, len(ctxs))
			for i, c := range ctxs {
				regs[i] = c.regs
			}
			if p.cond(regs, mem) {
				res.reached = true
			}
			if len(Races(g)) > 0 {
				res.racy = true
			}
			return
		}
		l := locList[k]
		permute(writes[l], func(perm []EventID) {
			g.MO[l] = perm
			chooseMO(k + 1)
		})
		delete(g.MO, l)
	}
	chooseRF(0)
	return res
}

func lastMO(g *Graph, l int64) EventID {
	if mo := g.MO[l]; len(mo) > 0 {
		return mo[len(mo)-1]
	}
	return Init
}

func permute(xs []EventID, f func([]EventID)) {
	p := append([]EventID{}, xs...)
	var rec func(k int)
	rec = func(k int) {
		if k == len(p) {
			f(append([]EventID{}, p...))
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// regs is shorthand for conditions: r(regs, thread, name) == v.
func r(regs []map[string]int64, t int, n string) int64 { return regs[t][n] }

// The c11-herd tests, transcribed from bench/litmus/c11-herd/*.litmus.
var herdTests = map[string]litmusProg{
	"2+2W+rel": twoTwoW(rel),
	"2+2W+rlx": twoTwoW(rlx),
	"CoWW+rlx": {locs: []string{"x"}, threads: []func(*lc){func(c *lc) { c.store("x", 1, rlx); c.store("x", 2, rlx) }}, cond: func(_ []map[string]int64, m map[string]int64) bool { return m["x"] == 1 }},
	"3.SB+rlx": {locs: []string{"x", "y", "z"}, threads: []func(*lc){sbThread("x", "y", rlx, rlx), sbThread("y", "z", rlx, rlx), sbThread("z", "x", rlx, rlx)}, cond: func(g []map[string]int64, _ map[string]int64) bool {
		return r(g, 0, "r0") == 0 && r(g, 1, "r0") == 0 && r(g, 2, "r0") == 0
	}},
	"SB+rlx":              sbTest(rlx, rlx, na),
	"SB+sc":               sbTest(sc, sc, na),
	"SB+rlx+acqrelfences": sbTest(rlx, rlx, ar),
	"SB+xchg-sc": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.set("r9", c.xchg("x", 1, sc)); c.set("r0", c.load("y", sc)) },
		func(c *lc) { c.set("r9", c.xchg("y", 1, sc)); c.set("r0", c.load("x", sc)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 0 && r(g, 1, "r0") == 0 }},
	"CAS+CAS+rlx": {locs: []string{"x", "e0", "e1"}, threads: []func(*lc){
		func(c *lc) { c.set("r0", c.cas("x", "e0", 1, rlx, rlx)) },
		func(c *lc) { c.set("r0", c.cas("x", "e1", 2, rlx, rlx)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 1 && r(g, 1, "r0") == 1 }},
	"CoRR2+rlx": {locs: []string{"x"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, rlx) },
		func(c *lc) { c.store("x", 2, rlx) },
		func(c *lc) { c.set("r0", c.load("x", rlx)); c.set("r1", c.load("x", rlx)) },
		func(c *lc) { c.set("r0", c.load("x", rlx)); c.set("r1", c.load("x", rlx)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool {
		return r(g, 2, "r0") == 1 && r(g, 2, "r1") == 2 && r(g, 3, "r0") == 2 && r(g, 3, "r1") == 1
	}},
	"CoRW2+rlx": {locs: []string{"x"}, threads: []func(*lc){
		func(c *lc) { c.set("r0", c.load("x", rlx)); c.store("x", 1, rlx) },
		func(c *lc) { c.store("x", 2, rlx) },
	}, cond: func(g []map[string]int64, m map[string]int64) bool { return r(g, 0, "r0") == 2 && m["x"] == 2 }},
	"IRIW+ra":           iriwTest(rel, acq, na),
	"IRIW+sc":           iriwTest(sc, sc, na),
	"IRIW+rlx+scfences": iriwTest(rlx, rlx, sc),
	"ISA2+ra":           isa2Test(rlx, rel, acq, rel, acq, rlx),
	"ISA2+sc":           isa2Test(sc, sc, sc, sc, sc, sc),
	"LB+rlx": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.set("r0", c.load("x", rlx)); c.store("y", 1, rlx) },
		func(c *lc) { c.set("r0", c.load("y", rlx)); c.store("x", 1, rlx) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 1 && r(g, 1, "r0") == 1 }},
	"LB+datas+rlx": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { v := c.load("x", rlx); c.set("r0", v); c.store("y", v, rlx) },
		func(c *lc) { v := c.load("y", rlx); c.set("r0", v); c.store("x", v, rlx) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 1 && r(g, 1, "r0") == 1 }},
	"MP+na+ra": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, na); c.store("y", 1, rel) },
		func(c *lc) {
			v := c.load("y", acq)
			c.set("r0", v)
			c.set("r1", -1)
			if v == 1 {
				c.set("r1", c.load("x", na))
			}
		},
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 1, "r0") == 1 && r(g, 1, "r1") == 0 }},
	"MP+ra":                mpTest(rlx, rel, acq, rlx, na, na),
	"MP+sc":                mpTest(sc, sc, sc, sc, na, na),
	"MP+rel+rlx":           mpTest(rlx, rel, rlx, rlx, na, na),
	"MP+rlx+acq":           mpTest(rlx, rlx, acq, rlx, na, na),
	"MP+relfence+acqfence": mpTest(rlx, rlx, rlx, rlx, rel, acq),
	"R+sc":                 rTest(sc, na),
	"R+rlx+scfences":       rTest(rlx, sc),
	"RWC+ra":               rwcTest(rel, acq),
	"RWC+rlx":              rwcTest(rlx, rlx),
	"S+ra": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 2, rlx); c.store("y", 1, rel) },
		func(c *lc) { c.set("r0", c.load("y", acq)); c.store("x", 1, rlx) },
	}, cond: func(g []map[string]int64, m map[string]int64) bool { return m["x"] == 2 && r(g, 1, "r0") == 1 }},
	"S+sc": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 2, sc); c.store("y", 1, sc) },
		func(c *lc) { c.set("r0", c.load("y", sc)); c.store("x", 1, sc) },
	}, cond: func(g []map[string]int64, m map[string]int64) bool { return m["x"] == 2 && r(g, 1, "r0") == 1 }},
	"WRC+rlx+rel+acq": wrcTest(rlx, rlx, rel, acq, rlx),
	"WRC+sc":          wrcTest(sc, sc, sc, sc, sc),
	"WWC+rlx": {locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 2, rlx) },
		func(c *lc) { c.set("r0", c.load("x", rlx)); c.store("y", 1, rlx) },
		func(c *lc) { c.set("r0", c.load("y", rlx)); c.store("x", 1, rlx) },
	}, cond: func(g []map[string]int64, m map[string]int64) bool {
		return m["x"] == 2 && r(g, 1, "r0") == 2 && r(g, 2, "r0") == 1
	}},
}

func twoTwoW(o ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, o); c.store("y", 2, o) },
		func(c *lc) { c.store("y", 1, o); c.store("x", 2, o) },
	}, cond: func(_ []map[string]int64, m map[string]int64) bool { return m["x"] == 1 && m["y"] == 1 }}
}

func sbThread(w, rd string, ow, or ir.Order) func(*lc) {
	return func(c *lc) { c.store(w, 1, ow); c.set("r0", c.load(rd, or)) }
}

func sbTest(ow, or, f ir.Order) litmusProg {
	th := func(w, rd string) func(*lc) {
		return func(c *lc) {
			c.store(w, 1, ow)
			if f != na {
				c.fence(f)
			}
			c.set("r0", c.load(rd, or))
		}
	}
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){th("x", "y"), th("y", "x")},
		cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 0 && r(g, 1, "r0") == 0 }}
}

func mpTest(ow1, ow2, or1, or2, fw, fr ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) {
			c.store("x", 1, ow1)
			if fw != na {
				c.fence(fw)
			}
			c.store("y", 1, ow2)
		},
		func(c *lc) {
			c.set("r0", c.load("y", or1))
			if fr != na {
				c.fence(fr)
			}
			c.set("r1", c.load("x", or2))
		},
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 1, "r0") == 1 && r(g, 1, "r1") == 0 }}
}

func iriwTest(ow, or, f ir.Order) litmusProg {
	rd := func(a, b string) func(*lc) {
		return func(c *lc) {
			c.set("r0", c.load(a, or))
			if f != na {
				c.fence(f)
			}
			c.set("r1", c.load(b, or))
		}
	}
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, ow) },
		func(c *lc) { c.store("y", 1, ow) },
		rd("x", "y"), rd("y", "x"),
	}, cond: func(g []map[string]int64, _ map[string]int64) bool {
		return r(g, 2, "r0") == 1 && r(g, 2, "r1") == 0 && r(g, 3, "r0") == 1 && r(g, 3, "r1") == 0
	}}
}

func isa2Test(o1, o2, o3, o4, o5, o6 ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y", "z"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, o1); c.store("y", 1, o2) },
		func(c *lc) { c.set("r0", c.load("y", o3)); c.store("z", 1, o4) },
		func(c *lc) { c.set("r0", c.load("z", o5)); c.set("r1", c.load("x", o6)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool {
		return r(g, 1, "r0") == 1 && r(g, 2, "r0") == 1 && r(g, 2, "r1") == 0
	}}
}

func rTest(o, f ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) {
			c.store("x", 1, o)
			if f != na {
				c.fence(f)
			}
			c.store("y", 1, o)
		},
		func(c *lc) {
			c.store("y", 2, o)
			if f != na {
				c.fence(f)
			}
			c.set("r0", c.load("x", o))
		},
	}, cond: func(g []map[string]int64, m map[string]int64) bool { return m["y"] == 2 && r(g, 1, "r0") == 0 }}
}

func rwcTest(ow, or ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, ow) },
		func(c *lc) { c.set("r0", c.load("x", or)); c.set("r1", c.load("y", or)) },
		func(c *lc) { c.store("y", 1, ow); c.set("r0", c.load("x", or)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool {
		return r(g, 1, "r0") == 1 && r(g, 1, "r1") == 0 && r(g, 2, "r0") == 0
	}}
}

func wrcTest(o1, o2, o3, o4, o5 ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, o1) },
		func(c *lc) { c.set("r0", c.load("x", o2)); c.store("y", 1, o3) },
		func(c *lc) { c.set("r0", c.load("y", o4)); c.set("r1", c.load("x", o5)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool {
		return r(g, 1, "r0") == 1 && r(g, 2, "r0") == 1 && r(g, 2, "r1") == 0
	}}
}

// herdExpected holds bench/litmus/expected.csv's rows for c11-herd and the
// models sc, tso, ra, rc11 (generated from the CSV).
var herdExpected = map[string]map[string]herdRow{
	"2+2W+rel":             {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: true, execs: 4}, "rc11": {allowed: true, execs: 4}},
	"2+2W+rlx":             {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: true, execs: 4}, "rc11": {allowed: true, execs: 4}},
	"3.SB+rlx":             {"sc": {allowed: false, execs: 7}, "tso": {allowed: true}, "ra": {allowed: true, execs: 8}, "rc11": {allowed: true, execs: 8}},
	"CAS+CAS+rlx":          {"sc": {allowed: false, execs: 2}, "rc11": {allowed: false, execs: 2, race: false, hasRace: true}},
	"CoRR2+rlx":            {"sc": {allowed: false, execs: 72}, "tso": {allowed: false}, "ra": {allowed: false, execs: 72}, "rc11": {allowed: false, execs: 72}},
	"CoRW2+rlx":            {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"CoWW+rlx":             {"sc": {allowed: false, execs: 1}, "tso": {allowed: false}, "ra": {allowed: false, execs: 1}, "rc11": {allowed: false, execs: 1}},
	"IRIW+ra":              {"sc": {allowed: false, execs: 15}, "tso": {allowed: false}, "ra": {allowed: true, execs: 16}, "rc11": {allowed: true, execs: 16}},
	"IRIW+rlx+scfences":    {"sc": {allowed: false, execs: 15}, "tso": {allowed: false}, "rc11": {allowed: false, execs: 15}},
	"IRIW+sc":              {"sc": {allowed: false, execs: 15}, "tso": {allowed: false}, "ra": {allowed: true, execs: 16}, "rc11": {allowed: false, execs: 15}},
	"ISA2+ra":              {"sc": {allowed: false, execs: 7}, "tso": {allowed: false}, "ra": {allowed: false, execs: 7}, "rc11": {allowed: false, execs: 7}},
	"ISA2+sc":              {"sc": {allowed: false, execs: 7}, "tso": {allowed: false}, "ra": {allowed: false, execs: 7}, "rc11": {allowed: false, execs: 7}},
	"LB+datas+rlx":         {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"LB+rlx":               {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"MP+na+ra":             {"sc": {allowed: false, execs: 2}, "rc11": {allowed: false, execs: 2, race: false, hasRace: true}},
	"MP+ra":                {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"MP+rel+rlx":           {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: true, execs: 4}},
	"MP+relfence+acqfence": {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "rc11": {allowed: false, execs: 3}},
	"MP+rlx+acq":           {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: true, execs: 4}},
	"MP+sc":                {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"R+rlx+scfences":       {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "rc11": {allowed: false, execs: 3}},
	"R+sc":                 {"sc": {allowed: false, execs: 3}, "tso": {allowed: true}, "ra": {allowed: true, execs: 4}, "rc11": {allowed: false, execs: 3}},
	"RWC+ra":               {"sc": {allowed: false, execs: 7}, "tso": {allowed: true}, "ra": {allowed: true, execs: 8}, "rc11": {allowed: true, execs: 8}},
	"RWC+rlx":              {"sc": {allowed: false, execs: 7}, "tso": {allowed: true}, "ra": {allowed: true, execs: 8}, "rc11": {allowed: true, execs: 8}},
	"S+ra":                 {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"S+sc":                 {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: false, execs: 3}, "rc11": {allowed: false, execs: 3}},
	"SB+rlx":               {"sc": {allowed: false, execs: 3}, "tso": {allowed: true}, "ra": {allowed: true, execs: 4}, "rc11": {allowed: true, execs: 4}},
	"SB+rlx+acqrelfences":  {"sc": {allowed: false, execs: 3}, "tso": {allowed: true}, "rc11": {allowed: true, execs: 4}},
	"SB+sc":                {"sc": {allowed: false, execs: 3}, "tso": {allowed: true}, "ra": {allowed: true, execs: 4}, "rc11": {allowed: false, execs: 3}},
	"SB+xchg-sc":           {"sc": {allowed: false, execs: 3}, "tso": {allowed: false}, "ra": {allowed: true, execs: 4}, "rc11": {allowed: false, execs: 3}},
	"WRC+rlx+rel+acq":      {"sc": {allowed: false, execs: 7}, "tso": {allowed: false}, "ra": {allowed: false, execs: 7}, "rc11": {allowed: false, execs: 7}},
	"WRC+sc":               {"sc": {allowed: false, execs: 7}, "tso": {allowed: false}, "ra": {allowed: false, execs: 7}, "rc11": {allowed: false, execs: 7}},
	"WWC+rlx":              {"sc": {allowed: false, execs: 9}, "tso": {allowed: false}, "ra": {allowed: false, execs: 9}, "rc11": {allowed: true, execs: 10}},
}

func TestHerdC11Litmus(t *testing.T) {
	names := make([]string, 0, len(herdExpected))
	for n := range herdExpected {
		names = append(names, n)
	}
	sort.Strings(names)
	rows := 0
	for _, name := range names {
		p, ok := herdTests[name]
		if !ok {
			t.Errorf("%s: not transcribed", name)
			continue
		}
		for _, mn := range []string{"sc", "tso", "ra", "rc11"} {
			want, ok := herdExpected[name][mn]
			if !ok {
				continue
			}
			got := enumerate(t, p, LookupModel(mn))
			if !want.noOutcome {
				rows++
				if got.reached != want.allowed {
					t.Errorf("%s under %s: outcome allowed=%v, herd says %v", name, mn, got.reached, want.allowed)
				}
			}
			if want.execs != 0 {
				rows++
				if got.consistent != want.execs {
					t.Errorf("%s under %s: %d consistent executions, herd says %d", name, mn, got.consistent, want.execs)
				}
			}
			if want.hasRace {
				rows++
				if got.racy != want.race {
					t.Errorf("%s under %s: data race %v, herd says %v", name, mn, got.racy, want.race)
				}
			}
		}
	}
	t.Logf("%d herd rows checked", rows)
}

// PSO has no herd reference; check its verdicts on the same tests against
// the expected PSO behaviour: everything TSO allows, plus write-write
// reordering (MP, 2+2W, S, ISA2 become observable without fences).
func TestPSOLitmus(t *testing.T) {
	want := map[string]bool{
		"SB+rlx": true, "MP+ra": true, "MP+sc": true, "MP+relfence+acqfence": true, "2+2W+rlx": true,
		"LB+rlx": false, "IRIW+ra": false, "S+ra": true, "ISA2+ra": true, "R+sc": true, "R+rlx+scfences": false,
		"CoRR2+rlx": false, "CoWW+rlx": false, "SB+xchg-sc": false, "WRC+rlx+rel+acq": false, "RWC+rlx": true,
	}
	pso, tso := LookupModel("pso"), LookupModel("tso")
	for name, w := range want {
		got := enumerate(t, herdTests[name], pso)
		if got.reached != w {
			t.Errorf("%s under pso: allowed=%v, want %v", name, got.reached, w)
		}
		// PSO is weaker than TSO: at least as many consistent executions
		if g2 := enumerate(t, herdTests[name], tso); g2.consistent > got.consistent {
			t.Errorf("%s: tso accepts %d executions, pso only %d", name, g2.consistent, got.consistent)
		}
	}
}

// Tests of Vafeiadis et al., POPL 2015 (bench/litmus/c11popl15), with the
// rc11 and sc rows of expected.csv; race=false rows marked "derived" have no
// data_race row in the CSV and follow from the RC11 definitions (the
// accesses are ordered by hb whenever both happen).
var popl15Tests = map[string]struct {
	p    litmusProg
	rows map[string]herdRow
}{
	"a1": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.set("r0", c.load("y", rlx)); c.store("x", 1, rel) },
		func(c *lc) {
			if v := c.load("x", acq); v != 0 {
				c.store("y", 1, na)
			}
		},
	}, cond: func(_ []map[string]int64, m map[string]int64) bool { return m["x"] == 1 && m["y"] == 1 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true}}},
	"a1_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 1, rel); c.set("r0", c.load("y", rlx)) },
		func(c *lc) {
			if v := c.load("x", acq); v != 0 {
				c.store("y", 1, na)
			}
		},
	}, cond: func(_ []map[string]int64, m map[string]int64) bool { return m["x"] == 1 && m["y"] == 1 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true, race: true, hasRace: true}}},
	"a2_reorder": {litmusProg{locs: []string{"x", "y", "z"}, threads: []func(*lc){
		func(c *lc) { c.set("r0", c.cas("x", "z", 1, rel, rlx)); c.set("r1", c.load("y", rlx)) },
		func(c *lc) {
			if v := c.load("x", acq); v != 0 {
				c.store("y", 1, na)
			}
		},
	}, cond: func([]map[string]int64, map[string]int64) bool { return true }},
		map[string]herdRow{"rc11": {allowed: true, race: true, hasRace: true}}},
	"a3": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rel) },
		func(c *lc) {
			v := c.load("x", acq)
			c.set("r1", v)
			if v != 0 {
				c.set("r2", c.load("y", rlx))
			}
		},
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 1, "r1") == 1 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true, race: false, hasRace: true /* derived */}}},
	"a3_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rel) },
		func(c *lc) { c.set("r2", c.load("y", rlx)); c.set("r1", c.load("x", acq)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 1, "r1") == 1 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true, race: true, hasRace: true}}},
	"a4": {sbTest(sc, sc, na), map[string]herdRow{"sc": {allowed: false}, "rc11": {allowed: false}}},
	"a4_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.set("r1", c.load("y", sc)); c.store("x", 1, sc) },
		func(c *lc) { c.store("y", 1, sc); c.set("r2", c.load("x", sc)) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r1") == 0 && r(g, 1, "r2") == 0 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true}}},
	"a5_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rel) },
		func(c *lc) {
			if v := c.load("x", rlx); v != 0 {
				c.set("r1", c.load("y", rlx))
				c.fence(acq)
			}
		},
	}, cond: func([]map[string]int64, map[string]int64) bool { return true }},
		map[string]herdRow{"rc11": {allowed: true, race: true, hasRace: true}}},
	"a6_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rel) },
		func(c *lc) {
			c.fence(acq)
			if v := c.load("x", rlx); v != 0 {
				c.set("r1", c.load("y", rlx))
			}
		},
	}, cond: func([]map[string]int64, map[string]int64) bool { return true }},
		map[string]herdRow{"rc11": {allowed: true, race: true, hasRace: true}}},
	"a7_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.fence(rel); c.set("r0", c.load("y", rlx)); c.store("x", 1, rlx) },
		func(c *lc) {
			if v := c.load("x", acq); v != 0 {
				c.store("y", 1, na)
			}
		},
	}, cond: func([]map[string]int64, map[string]int64) bool { return true }},
		map[string]herdRow{"rc11": {allowed: true, race: true, hasRace: true}}},
	"a8_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rlx); c.fence(rel) },
		func(c *lc) {
			if v := c.load("x", acq); v != 0 {
				c.store("y", 2, na)
			}
		},
	}, cond: func([]map[string]int64, map[string]int64) bool { return true }},
		map[string]herdRow{"rc11": {allowed: true, race: true, hasRace: true}}},
	"a9_reorder": {litmusProg{locs: []string{"x", "y", "z"}, threads: []func(*lc){
		func(c *lc) { c.store("z", 1, na); c.store("x", 1, rel) },
		func(c *lc) {
			if v := c.load("x", rlx); v != 0 {
				c.fence(rel)
				c.fence(acq)
				c.store("y", 1, rlx)
			}
		},
		func(c *lc) {
			if v := c.load("y", acq); v != 0 {
				c.store("z", 2, na)
			}
		},
	}, cond: func([]map[string]int64, map[string]int64) bool { return true }},
		map[string]herdRow{"rc11": {allowed: true, race: true, hasRace: true}}},
	"b": {herdTests["LB+rlx"], map[string]herdRow{"sc": {allowed: false}, "rc11": {allowed: false}}},
	"b_reorder": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, rlx); c.set("r0", c.load("x", rlx)) },
		func(c *lc) { c.set("r1", c.load("y", rlx)); c.store("x", 1, rlx) },
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 1 && r(g, 1, "r1") == 1 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true}}},
	"cyc":    {cycTest(rlx), map[string]herdRow{"sc": {allowed: false}, "rc11": {allowed: false}}},
	"cyc_na": {cycTest(na), map[string]herdRow{"sc": {allowed: false}, "rc11": {allowed: false, race: false, hasRace: true /* derived */}}},
	"rseq_weak": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("x", 2, rlx) },
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rel); c.store("x", 3, rlx) },
		func(c *lc) {
			if v := c.load("x", acq); v == 3 {
				c.set("r1", c.load("y", na))
			}
		},
	}, cond: func(_ []map[string]int64, m map[string]int64) bool { return m["x"] == 3 && m["y"] == 1 }},
		// PLDI 2017 release sequences: x=3 continues x=1's release sequence
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true, race: false, hasRace: true /* derived */}}},
	"rseq_weak2": {litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) { c.store("y", 1, na); c.store("x", 1, rel); c.store("x", 3, rlx) },
		func(c *lc) {
			if v := c.load("x", acq); v == 3 {
				c.set("r1", c.load("y", na))
			}
		},
	}, cond: func(_ []map[string]int64, m map[string]int64) bool { return m["x"] == 3 && m["y"] == 1 }},
		map[string]herdRow{"sc": {allowed: true}, "rc11": {allowed: true, race: false, hasRace: true /* derived */}}},
}

func cycTest(o ir.Order) litmusProg {
	return litmusProg{locs: []string{"x", "y"}, threads: []func(*lc){
		func(c *lc) {
			v := c.load("x", o)
			c.set("r0", v)
			if v != 0 {
				c.store("y", 1, o)
			}
		},
		func(c *lc) {
			v := c.load("y", o)
			c.set("r1", v)
			if v != 0 {
				c.store("x", 1, o)
			}
		},
	}, cond: func(g []map[string]int64, _ map[string]int64) bool { return r(g, 0, "r0") == 1 && r(g, 1, "r1") == 1 }}
}

func TestPOPL15Litmus(t *testing.T) {
	names := make([]string, 0, len(popl15Tests))
	for n := range popl15Tests {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		tc := popl15Tests[name]
		for _, mn := range []string{"sc", "rc11"} {
			want, ok := tc.rows[mn]
			if !ok {
				continue
			}
			got := enumerate(t, tc.p, LookupModel(mn))
			if got.reached != want.allowed {
				t.Errorf("%s under %s: outcome allowed=%v, want %v", name, mn, got.reached, want.allowed)
			}
			if want.hasRace && got.racy != want.race {
				t.Errorf("%s under %s: data race %v, want %v", name, mn, got.racy, want.race)
			}
		}
	}
}
