package ncmc

import (
	"context"
	"os"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ir"
)

// Hand-built IR programs, so the interpreter is tested independently of the
// CIR front end.

func cnst(v int64) *ir.Expr { return &ir.Expr{Kind: ir.EConst, Val: v, Type: ir.Int} }
func local(i int) *ir.Expr  { return &ir.Expr{Kind: ir.ELocal, Local: i, Type: ir.Int} }
func gaddr(g int) *ir.Expr  { return &ir.Expr{Kind: ir.EGlobalAddr, Global: g} }
func bin(op ir.Operator, a, b *ir.Expr) *ir.Expr {
	return &ir.Expr{Kind: ir.EBinary, Op: op, A: a, B: b, Type: ir.Int}
}

func pos(line int) ir.Pos { return ir.Pos{File: "t.cir", Line: line, Col: 1} }

func instr(op ir.Op, line int) ir.Instr {
	return ir.Instr{Op: op, Pos: pos(line), Dst: -1, Dst2: -1}
}

func load(dst, g int, line int) ir.Instr {
	in := instr(ir.ILoad, line)
	in.Dst, in.Addr = dst, gaddr(g)
	return in
}

func store(g int, v *ir.Expr, line int) ir.Instr {
	in := instr(ir.IStore, line)
	in.Addr, in.A = gaddr(g), v
	return in
}

func globals(names ...string) []*ir.Global {
	var gs []*ir.Global
	for i, n := range names {
		gs = append(gs, &ir.Global{Name: n, Type: ir.Int, Block: i + 1, Init: []int64{0}})
	}
	return gs
}

// sbProgram: t1: x=1; r1=y   t2: y=1; r2=x   main: spawn both, join, assert !(r1==0&&r2==0)
func sbProgram() *ir.Program {
	p := &ir.Program{File: "t.cir", Globals: globals("x", "y", "r1", "r2")}
	mk := func(name string, a, b, r int) *ir.Func {
		f := &ir.Func{Name: name, Locals: []ir.Local{{Name: "t", Type: ir.Int}}, Result: ir.Void}
		f.Body = []ir.Instr{store(a, cnst(1), 1), load(0, b, 2), store(r, local(0), 3)}
		return f
	}
	t1, t2 := mk("t1", 0, 1, 2), mk("t2", 1, 0, 3)
	main := &ir.Func{Name: "main", Result: ir.Void, Locals: []ir.Local{{Name: "h1", Type: ir.Thread}, {Name: "h2", Type: ir.Thread}, {Name: "a", Type: ir.Int}, {Name: "b", Type: ir.Int}}}
	sp1 := instr(ir.ISpawn, 10)
	sp1.Dst, sp1.Func = 0, t1
	sp2 := instr(ir.ISpawn, 11)
	sp2.Dst, sp2.Func = 1, t2
	j1 := instr(ir.IJoin, 12)
	j1.A = local(0)
	j2 := instr(ir.IJoin, 13)
	j2.A = local(1)
	as := instr(ir.IAssert, 16)
	as.A = &ir.Expr{Kind: ir.EUnary, Op: ir.OpNot, A: bin(ir.OpLAnd, bin(ir.OpEq, local(2), cnst(0)), bin(ir.OpEq, local(3), cnst(0)))}
	as.Msg = "not both zero"
	main.Body = []ir.Instr{sp1, sp2, j1, j2, load(2, 2, 14), load(3, 3, 15), as}
	p.Funcs = []*ir.Func{t1, t2, main}
	p.Main = main
	return p
}

func TestReferenceSB(t *testing.T) {
	res, err := Verify(context.Background(), sbProgram(), Options{Explorer: "reference", KeepGoing: true, Classes: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Verified {
		t.Fatalf("verdict %s (%s)", res.Verdict, res.Reason)
	}
	var states []string
	for _, o := range res.Outcomes {
		states = append(states, o.State)
	}
	got := strings.Join(states, " | ")
	for _, want := range []string{"r1=0 r2=1", "r1=1 r2=0", "r1=1 r2=1"} {
		if !strings.Contains(got, want) {
			t.Errorf("outcome %q missing from %s", want, got)
		}
	}
	if strings.Contains(got, "r1=0 r2=0") {
		t.Errorf("SC must not reach r1=0 r2=0: %s", got)
	}
	// 2 threads of 3 visible steps each: C(6,3) = 20 interleavings, main's
	// spawns and joins add no choices once both children run.
	if res.Stats.Executions < 20 {
		t.Errorf("executions = %d, want >= 20", res.Stats.Executions)
	}
	if res.Classes.ReadValues != 3 {
		t.Errorf("read-value classes = %d, want 3", res.Classes.ReadValues)
	}
}

// A violated assertion yields a counterexample that replays the bad interleaving.
func TestReferenceCounterexample(t *testing.T) {
	p := sbProgram()
	// Assert r1 == 1: violated when t1 reads y before t2 writes it.
	as := &p.Main.Body[len(p.Main.Body)-1]
	as.A = bin(ir.OpEq, local(2), cnst(1))
	as.Msg = "r1 == 1"
	res, err := Verify(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Violation || res.Kind != "assertion" {
		t.Fatalf("verdict %s kind %s", res.Verdict, res.Kind)
	}
	if len(res.Counterexample) == 0 {
		t.Fatal("no counterexample")
	}
	last := res.Counterexample[len(res.Counterexample)-1]
	if !strings.Contains(last.What, "assertion failed: r1 == 1") || last.Line != 16 {
		t.Errorf("last step = %+v", last)
	}
}

// Two threads locking two mutexes in opposite orders deadlock.
func TestReferenceDeadlock(t *testing.T) {
	p := &ir.Program{File: "t.cir"}
	p.Globals = []*ir.Global{{Name: "a", Type: ir.Mutex, Block: 1, Init: []int64{0}}, {Name: "b", Type: ir.Mutex, Block: 2, Init: []int64{0}}}
	lk := func(op ir.Op, g, line int) ir.Instr {
		in := instr(op, line)
		in.Addr = gaddr(g)
		return in
	}
	mk := func(name string, first, second int) *ir.Func {
		return &ir.Func{Name: name, Result: ir.Void, Body: []ir.Instr{lk(ir.ILock, first, 1), lk(ir.ILock, second, 2), lk(ir.IUnlock, second, 3), lk(ir.IUnlock, first, 4)}}
	}
	t1, t2 := mk("t1", 0, 1), mk("t2", 1, 0)
	main := &ir.Func{Name: "main", Result: ir.Void, Locals: []ir.Local{{Name: "h1", Type: ir.Thread}, {Name: "h2", Type: ir.Thread}}}
	sp1 := instr(ir.ISpawn, 10)
	sp1.Dst, sp1.Func = 0, t1
	sp2 := instr(ir.ISpawn, 11)
	sp2.Dst, sp2.Func = 1, t2
	j1 := instr(ir.IJoin, 12)
	j1.A = local(0)
	j2 := instr(ir.IJoin, 13)
	j2.A = local(1)
	main.Body = []ir.Instr{sp1, sp2, j1, j2}
	p.Funcs = []*ir.Func{t1, t2, main}
	p.Main = main
	res, err := Verify(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Violation || res.Kind != "deadlock" {
		t.Fatalf("verdict %s kind %s reason %s", res.Verdict, res.Kind, res.Reason)
	}
	if !strings.Contains(res.Reason, "waits for a") || !strings.Contains(res.Reason, "waits for b") {
		t.Errorf("reason %q should name both mutexes", res.Reason)
	}
}

// Under TSO and PSO the store-buffering outcome r1=0 r2=0 becomes reachable.
func TestReferenceSBRelaxed(t *testing.T) {
	for _, model := range []string{"tso", "pso"} {
		res, err := Verify(context.Background(), sbProgram(), Options{Model: model, KeepGoing: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Violation {
			t.Fatalf("%s: verdict %s, want violation (r1=r2=0 reachable)", model, res.Verdict)
		}
		found := false
		for _, o := range res.Outcomes {
			if strings.Contains(o.State, "r1=0 r2=0") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: r1=0 r2=0 not among %v", model, res.Outcomes)
		}
	}
}

// MCR reaches the same outcomes as the reference explorer on SB, with fewer executions.
func TestMCRSB(t *testing.T) {
	ref, err := Verify(context.Background(), sbProgram(), Options{Explorer: "reference", KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Verify(context.Background(), sbProgram(), Options{Explorer: "mcr", KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Explorer != "mcr" || m.Verdict != ref.Verdict {
		t.Fatalf("mcr: explorer %s verdict %s; reference verdict %s", m.Explorer, m.Verdict, ref.Verdict)
	}
	if got, want := outcomeSet(m), outcomeSet(ref); got != want {
		t.Errorf("mcr outcomes %s, reference %s", got, want)
	}
	if m.Stats.Executions >= ref.Stats.Executions {
		t.Errorf("mcr executions %d not fewer than reference %d", m.Stats.Executions, ref.Stats.Executions)
	}
}

func outcomeSet(r *Result) string {
	var s []string
	for _, o := range r.Outcomes {
		s = append(s, o.State+"|"+o.Violation)
	}
	return strings.Join(s, "\n")
}

// Entering an atomic block is a scheduling point: another thread may run
// between the previous step and the block (a soundness bug once).
func TestAtomicEntryIsAStep(t *testing.T) {
	src, err := os.ReadFile("testdata/regress/atomic-entry.cir")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.ParseCIR("atomic-entry.cir", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []string{"reference", "mcr"} {
		res, err := Verify(context.Background(), prog, Options{Explorer: ex})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Violation {
			t.Errorf("%s: verdict %s, want violation", ex, res.Verdict)
		}
	}
}
