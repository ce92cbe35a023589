package ir

import (
	"strings"
	"testing"
)

// sample builds a small valid program that uses every kind of
// instruction and expression (a fresh one per call, for mutation).
func sample() *Program {
	pos := func(line int) Pos { return Pos{File: "s.cir", Line: line, Col: 1} }
	rec := &Record{Name: "R", Size: 2, Fields: []*Field{{Name: "a", Type: Int, Offset: 0}, {Name: "b", Type: Int, Offset: 1}}}
	p := &Program{
		Records: []*Record{rec},
		Globals: []*Global{
			{Name: "x", Type: Int, Block: 1, Init: []int64{0}},
			{Name: "arr", Type: ArrayOf(Int, 3), Block: 2, Init: []int64{0, 0, 0}},
			{Name: "m", Type: Mutex, Block: 3, Init: []int64{0}},
			{Name: "cv", Type: Cond, Block: 4, Init: []int64{0}},
		},
		TLS: []*TLSVar{{Name: "tl", Type: Int}},
	}
	c := func(v int64) *Expr { return &Expr{Kind: EConst, Val: v, Type: Int} }
	local := func(i int, t *Type) *Expr { return &Expr{Kind: ELocal, Local: i, Type: t} }
	global := func(i int) *Expr { return &Expr{Kind: EGlobalAddr, Global: i, Type: PtrTo(nil)} }
	instr := func(op Op, line int) Instr { return Instr{Op: op, Pos: pos(line), Dst: -1, Dst2: -1} }
	with := func(in Instr, f func(*Instr)) Instr { f(&in); return in }

	done := &Func{Name: "done", Result: Void, Pos: pos(1)}
	done.Body = []Instr{instr(IReturn, 1)}
	worker := &Func{Name: "worker", Result: Int, NumParams: 1, Pos: pos(2),
		Locals: []Local{{Name: "arg", Type: Int}, {Name: "v", Type: Int}}}
	worker.Body = []Instr{
		with(instr(ILoad, 3), func(in *Instr) { in.Dst, in.Addr = 1, global(0) }),
		with(instr(IRMW, 4), func(in *Instr) { in.Dst, in.Addr, in.A, in.Order = 1, global(0), local(0, Int), OrderSC }),
		with(instr(IReturn, 5), func(in *Instr) { in.A = local(1, Int) }),
	}
	main := &Func{Name: "main", Result: Void, Pos: pos(10), Locals: []Local{
		{Name: "t", Type: Thread}, {Name: "r", Type: Int}, {Name: "p", Type: PtrTo(rec)}, {Name: "c", Type: Int}, {Name: "s", Type: Bool}}}
	main.Body = []Instr{
		with(instr(ISpawn, 11), func(in *Instr) { in.Dst, in.Func, in.Args = 0, worker, []*Expr{c(1)} }),
		with(instr(ILock, 12), func(in *Instr) { in.Addr = global(2) }),
		with(instr(IStore, 13), func(in *Instr) {
			in.Addr = &Expr{Kind: EIndex, A: global(1), B: local(1, Int), Len: 3, Stride: 1, Type: PtrTo(nil)}
			in.A = &Expr{Kind: EBinary, Op: OpAdd, A: c(1), B: &Expr{Kind: ECast, A: local(3, Int), Type: &Type{Kind: TInt, Width: 8}}, Type: Int}
		}),
		with(instr(IUnlock, 14), func(in *Instr) { in.Addr = global(2) }),
		with(instr(IJoin, 15), func(in *Instr) { in.Dst, in.A = 1, local(0, Thread) }),
		with(instr(IAlloc, 16), func(in *Instr) { in.Dst, in.Record, in.Args = 2, rec, []*Expr{c(1)} }),
		with(instr(IStore, 17), func(in *Instr) {
			in.Addr, in.A = &Expr{Kind: EField, A: local(2, PtrTo(rec)), Offset: 1, Type: PtrTo(nil)}, c(2)
		}),
		with(instr(ICAS, 18), func(in *Instr) {
			in.Dst, in.Dst2, in.Addr, in.A, in.B, in.Order, in.FailOrder = 3, 4, global(0), c(0), c(1), OrderAcqRel, OrderAcq
		}),
		with(instr(INondet, 19), func(in *Instr) { in.Dst, in.A, in.B = 3, c(0), c(1) }),
		with(instr(ILoopHead, 20), func(in *Instr) { in.Dst, in.Bound = 1, 4 }),
		with(instr(IBranch, 21), func(in *Instr) {
			in.A, in.Target, in.Target2 = &Expr{Kind: EUnary, Op: OpNot, A: local(3, Int), Type: Bool}, 11, 12
		}),
		with(instr(IAssert, 22), func(in *Instr) { in.A, in.Msg = local(4, Bool), "cas" }),
		with(instr(ITLSStore, 23), func(in *Instr) { in.Slot, in.A = 0, local(3, Int) }),
		with(instr(ITLSLoad, 24), func(in *Instr) { in.Slot, in.Dst = 0, 3 }),
		with(instr(ISelf, 25), func(in *Instr) { in.Dst = 0 }),
		with(instr(ICall, 26), func(in *Instr) { in.Func = done }),
		with(instr(ILock, 27), func(in *Instr) { in.Addr = global(2) }),
		with(instr(IWait, 28), func(in *Instr) { in.Addr, in.B = global(3), global(2) }),
		with(instr(ITryLock, 29), func(in *Instr) { in.Dst, in.Addr = 3, global(2) }),
		with(instr(IAssume, 30), func(in *Instr) { in.A = c(1) }),
		with(instr(IFence, 31), func(in *Instr) { in.Order = OrderSC }),
		with(instr(IJump, 32), func(in *Instr) { in.Target = 22 }),
		instr(IReturn, 33),
	}
	p.Funcs = []*Func{done, worker, main}
	p.Main = main
	return p
}

func TestValidateAccepts(t *testing.T) {
	p := sample()
	if err := Validate(p); err != nil {
		t.Fatalf("the sample program is rejected: %v", err)
	}
	// A function without a position (synthesized, as a litmus test's
	// main) may have instructions without one; a body may end in a jump.
	p.Main.Pos = Pos{}
	p.Main.Body[1].Pos = Pos{}
	p.Main.Body[len(p.Main.Body)-1] = Instr{Op: IJump, Target: 0, Dst: -1, Dst2: -1}
	if err := Validate(p); err != nil {
		t.Fatalf("rejected: %v", err)
	}
}

// TestValidateRejects: each mutation breaks one invariant, which Validate
// must report (and say where).
func TestValidateRejects(t *testing.T) {
	const (
		fdone = iota
		fworker
		fmain
	)
	tests := []struct {
		name   string
		mutate func(p *Program, fs []*Func)
		want   string
	}{
		{"no main", func(p *Program, fs []*Func) { p.Main = nil }, "no main"},
		{"main elsewhere", func(p *Program, fs []*Func) { p.Main = &Func{Name: "main", Result: Void} }, "main is not among"},
		{"global block", func(p *Program, fs []*Func) { p.Globals[1].Block = 5 }, "global arr: block 5, want 2"},
		{"global init", func(p *Program, fs []*Func) { p.Globals[1].Init = p.Globals[1].Init[:2] }, "2 initial cells, want 3"},
		{"field offset", func(p *Program, fs []*Func) { p.Records[0].Fields[1].Offset = 0 }, "field b: offset 0, want 1"},
		{"record size", func(p *Program, fs []*Func) { p.Records[0].Size = 3 }, "record R: size 3, want 2"},
		{"tls type", func(p *Program, fs []*Func) { p.TLS[0].Type = ArrayOf(Int, 2) }, "thread-local tl: not a scalar"},
		{"no result type", func(p *Program, fs []*Func) { fs[fworker].Result = nil }, "worker: no result type"},
		{"empty body", func(p *Program, fs []*Func) { fs[fdone].Body = nil }, "done: empty body"},
		{"falls off the end", func(p *Program, fs []*Func) { fs[fdone].Body[0].Op = INop }, "body ends with nop"},
		{"parameters", func(p *Program, fs []*Func) { fs[fworker].NumParams = 3 }, "3 parameters for 2 locals"},
		{"non-scalar local", func(p *Program, fs []*Func) { fs[fworker].Locals[1].Type = ArrayOf(Int, 2) }, "local v has non-scalar type"},
		{"method without receiver", func(p *Program, fs []*Func) { fs[fworker].Recv = p.Records[0] }, "method without receiver local"},
		{"no position", func(p *Program, fs []*Func) { fs[fmain].Body[3].Pos = Pos{} }, "main: 3: unlock &m: no position"},
		{"local out of range", func(p *Program, fs []*Func) { fs[fmain].Body[2].Addr.B.Local = 9 }, "local 9 out of range"},
		{"negative local", func(p *Program, fs []*Func) { fs[fmain].Body[4].A.Local = -1 }, "local -1 out of range"},
		{"global out of range", func(p *Program, fs []*Func) { fs[fmain].Body[1].Addr.Global = 7 }, "global 7 out of range"},
		{"missing operand", func(p *Program, fs []*Func) { fs[fmain].Body[6].A = nil }, "missing value operand"},
		{"missing address", func(p *Program, fs []*Func) { fs[fmain].Body[6].Addr = nil }, "missing address operand"},
		{"untyped operand", func(p *Program, fs []*Func) { fs[fmain].Body[2].A.B.Type = nil }, "operand without type"},
		{"destination out of range", func(p *Program, fs []*Func) { fs[fmain].Body[4].Dst = 9 }, "destination 9 out of range"},
		{"load without destination", func(p *Program, fs []*Func) { fs[fworker].Body[0].Dst = -1 }, "destination -1 out of range"},
		{"second destination", func(p *Program, fs []*Func) { fs[fworker].Body[0].Dst2 = 1 }, "second destination 1"},
		{"branch target", func(p *Program, fs []*Func) { fs[fmain].Body[10].Target2 = 99 }, "branch targets 11, 99 out of range"},
		{"jump target", func(p *Program, fs []*Func) { fs[fmain].Body[21].Target = -1 }, "jump target -1 out of range"},
		{"arguments", func(p *Program, fs []*Func) { fs[fmain].Body[0].Args = nil }, "0 arguments for 1 parameters"},
		{"no callee", func(p *Program, fs []*Func) { fs[fmain].Body[0].Func = nil }, "no function"},
		{"foreign callee", func(p *Program, fs []*Func) { fs[fmain].Body[15].Func = &Func{Name: "ext", Result: Void} }, "function ext is not among"},
		{"void result used", func(p *Program, fs []*Func) { fs[fmain].Body[15].Dst = 1 }, "result of a void call used"},
		{"return without value", func(p *Program, fs []*Func) { fs[fworker].Body[2].A = nil }, "return value does not match the result type int"},
		{"return with value", func(p *Program, fs []*Func) { fs[fdone].Body[0].A = &Expr{Kind: EConst, Type: Int} }, "return value does not match"},
		{"releasing failure", func(p *Program, fs []*Func) { fs[fmain].Body[7].FailOrder = OrderRel }, "failure order rel releases"},
		{"allocation", func(p *Program, fs []*Func) { fs[fmain].Body[5].Record = nil }, "allocation arguments do not fit"},
		{"stride", func(p *Program, fs []*Func) { fs[fmain].Body[2].Addr.Stride = 0 }, "index of length 3, stride 0"},
		{"field offset expr", func(p *Program, fs []*Func) { fs[fmain].Body[6].Addr.Offset = -2 }, "negative field offset -2"},
		{"loop bound", func(p *Program, fs []*Func) { fs[fmain].Body[9].Bound = -1 }, "negative bound -1"},
		{"tls slot", func(p *Program, fs []*Func) { fs[fmain].Body[13].Slot = 4 }, "thread-local slot 4 out of range"},
		{"wait without mutex", func(p *Program, fs []*Func) { fs[fmain].Body[17].B = nil }, "missing address operand"},
		{"expression kind", func(p *Program, fs []*Func) { fs[fmain].Body[8].A.Kind = 99 }, "unknown expression kind 99"},
		{"opcode", func(p *Program, fs []*Func) { fs[fmain].Body[19].Op = 200 }, "unknown opcode 200"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sample()
			tc.mutate(p, p.Funcs)
			err := Validate(p)
			if err == nil {
				t.Fatalf("accepted, want an error with %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want one with %q", err, tc.want)
			}
		})
	}
}
