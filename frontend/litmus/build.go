package litmus

import (
	"fmt"
	"regexp"
	"strings"

	"ncmc/ir"
)

// ---- init section ----

type initVal struct {
	val  int64
	name string // address of this location, if set
	off  int
}

var (
	reThread   = regexp.MustCompile(`^P[0-9]+$`)
	reIntType  = regexp.MustCompile(`^u?int(8|16|32|64|128)?_t$`)
	typeWords  = map[string]bool{}
	reserved   = map[string]bool{}
	x86Regs32  = map[string]string{"eax": "rax", "ebx": "rbx", "ecx": "rcx", "edx": "rdx", "esi": "rsi", "edi": "rdi", "ebp": "rbp", "esp": "rsp"}
	intelRegs  = map[string]bool{"EAX": true, "EBX": true, "ECX": true, "EDX": true, "ESI": true, "EDI": true, "EBP": true, "ESP": true}
	maxThreads = 64
)

func init() {
	for _, w := range strings.Fields(`int char long short unsigned signed void bool _Bool
		_Atomic volatile const atomic atomic_int atomic_uint atomic_long atomic_ulong atomic_llong
		atomic_ullong atomic_bool atomic_char atomic_short atomic_intptr_t atomic_uintptr_t
		atomic_size_t atomic_t intptr_t uintptr_t size_t __int128 spinlock_t mtx_t`) {
		typeWords[w] = true
	}
	for _, w := range strings.Fields(`volatile const _Atomic atomic char int long struct void if else while
		for do return break continue switch case default goto sizeof`) {
		reserved[w] = true
	}
}

func isTypeWord(s string) bool { return typeWords[s] || reIntType.MatchString(s) }

// regName canonicalises a register name for the test's architecture:
// Intel registers upper case, AT&T registers as their 64-bit names.
func (p *parser) regName(s string) string {
	switch p.t.Arch {
	case "X86":
		if u := strings.ToUpper(s); intelRegs[u] {
			return u
		}
	case "X86_64":
		l := strings.ToLower(s)
		if r, ok := x86Regs32[l]; ok {
			return r
		}
		if strings.HasPrefix(l, "r") && strings.HasSuffix(l, "d") && len(l) <= 4 {
			return strings.TrimSuffix(l, "d") // r8d -> r8
		}
		return l
	}
	return s
}

func (p *parser) initSection(start, end int) {
	t := p.t
	p.setToks(p.lex(start, end, ocamlComments))
	p.inits = map[Loc]initVal{}
	for p.peek().kind != tEOF {
		if p.accept(";") {
			continue
		}
		p.guard(func() { p.initItem() })
		// resynchronise after an error: skip to the next ';'
		for p.peek().kind != tEOF && !p.is(";") {
			p.advance()
		}
	}
	_ = t
}

func (p *parser) initItem() {
	// type words (optional), '*' (optional)
	typed := false
	for {
		tok := p.peek()
		if tok.kind == tIdent && tok.text == "struct" {
			p.advance()
			p.ident("a struct name")
			typed = true
			continue
		}
		if tok.kind == tIdent && isTypeWord(tok.text) && !(p.peekN(1).text == "=" || p.peekN(1).text == ";" || p.peekN(1).kind == tEOF) {
			p.advance()
			typed = true
			continue
		}
		break
	}
	ptr := typed && p.accept("*")
	tok := p.peek()
	l := p.condLoc()
	if !l.IsReg() {
		if reserved[l.Name] || reThread.MatchString(l.Name) {
			p.fail(tok.off, "%q cannot be the name of a location", l.Name)
		}
		p.location(l.Name)
	}
	if p.is("[") {
		p.fail(p.peek().off, "arrays are not supported")
	}
	v := initVal{off: tok.off}
	if p.accept("=") {
		vt := p.peek()
		switch {
		case vt.text == "&" || vt.kind == tIdent:
			p.accept("&")
			n := p.ident("a location name")
			v.name = n.text
			p.location(n.text)
		case vt.kind == tInt || vt.text == "-":
			v.val = p.signedInt()
		default:
			p.fail(vt.off, "expected an initial value, found %s", describe(vt))
		}
	} else if !typed {
		p.fail(p.peek().off, "expected '=' and an initial value after %s", l)
	}
	_ = ptr
	if _, dup := p.inits[l]; dup {
		p.errAt(tok.off, "%s is initialised twice", l)
	}
	p.inits[l] = v
	if !p.is(";") && p.peek().kind != tEOF {
		p.fail(p.peek().off, "expected ';' after the initialisation of %s, found %s", l, describe(p.peek()))
	}
}

// location registers shared location name (on first mention) and returns
// its index among the program's globals.
func (p *parser) location(name string) int {
	if i, ok := p.locIdx[name]; ok {
		return i
	}
	if p.locIdx == nil {
		p.locIdx = map[string]int{}
	}
	i := len(p.t.Locations)
	p.locIdx[name] = i
	p.t.Locations = append(p.t.Locations, name)
	return i
}

// ---- function builder ----

// fnb builds the body of one thread function.
type fnb struct {
	p      *parser
	f      *ir.Func
	thread int
	body   []ir.Instr
	regs   map[string]int // register -> local slot
	labels []int          // label id -> instruction index (-1 unbound)
	ntemp  int
	endOff int
}

func (p *parser) newFn(thread int) *fnb {
	f := &ir.Func{Name: fmt.Sprintf("P%d", thread), Kind: ir.FuncPlain, Result: ir.Void}
	return &fnb{p: p, f: f, thread: thread, regs: map[string]int{}}
}

func (b *fnb) ins(op ir.Op, pos ir.Pos) ir.Instr {
	return ir.Instr{Op: op, Pos: pos, Dst: -1, Dst2: -1}
}

func (b *fnb) emit(in ir.Instr) { b.body = append(b.body, in) }

// reg returns the local slot of register name, declaring it on first use.
func (b *fnb) reg(name string, pos ir.Pos) int {
	if s, ok := b.regs[name]; ok {
		return s
	}
	b.f.Locals = append(b.f.Locals, ir.Local{Name: name, Type: ir.Int, Pos: pos})
	s := len(b.f.Locals) - 1
	b.regs[name] = s
	return s
}

func (b *fnb) temp(pos ir.Pos) int {
	b.ntemp++
	b.f.Locals = append(b.f.Locals, ir.Local{Name: fmt.Sprintf("t%d", b.ntemp), Type: ir.Int, Pos: pos})
	return len(b.f.Locals) - 1
}

func localExpr(slot int, pos ir.Pos) *ir.Expr {
	return &ir.Expr{Kind: ir.ELocal, Local: slot, Type: ir.Int, Pos: pos}
}

func constExpr(v int64, pos ir.Pos) *ir.Expr {
	return &ir.Expr{Kind: ir.EConst, Val: v, Type: ir.Int, Pos: pos}
}

func (b *fnb) globalAddr(name string, pos ir.Pos) *ir.Expr {
	return &ir.Expr{Kind: ir.EGlobalAddr, Global: b.p.location(name), Type: ir.PtrTo(nil), Pos: pos}
}

func binExpr(op ir.Operator, a, c *ir.Expr, pos ir.Pos) *ir.Expr {
	return &ir.Expr{Kind: ir.EBinary, Op: op, A: a, B: c, Type: ir.Int, Pos: pos}
}

func (b *fnb) load(addr *ir.Expr, o ir.Order, pos ir.Pos) *ir.Expr {
	d := b.temp(pos)
	in := b.ins(ir.ILoad, pos)
	in.Addr, in.Order, in.Dst = addr, o, d
	b.emit(in)
	return localExpr(d, pos)
}

func (b *fnb) store(addr, v *ir.Expr, o ir.Order, pos ir.Pos) {
	in := b.ins(ir.IStore, pos)
	in.Addr, in.A, in.Order = addr, v, o
	b.emit(in)
}

func (b *fnb) rmw(k ir.RMWKind, addr, v *ir.Expr, o ir.Order, pos ir.Pos) *ir.Expr {
	d := b.temp(pos)
	in := b.ins(ir.IRMW, pos)
	in.Addr, in.A, in.Order, in.RMW, in.Dst = addr, v, o, k, d
	b.emit(in)
	return localExpr(d, pos)
}

// cas emits a compare-and-swap and returns (old value, success flag).
func (b *fnb) cas(addr, exp, des *ir.Expr, os, of ir.Order, pos ir.Pos) (*ir.Expr, *ir.Expr) {
	old, ok := b.temp(pos), b.temp(pos)
	in := b.ins(ir.ICAS, pos)
	in.Addr, in.A, in.B, in.Order, in.FailOrder, in.Dst, in.Dst2 = addr, exp, des, os, of, old, ok
	b.emit(in)
	return localExpr(old, pos), localExpr(ok, pos)
}

func (b *fnb) fence(o ir.Order, pos ir.Pos) {
	in := b.ins(ir.IFence, pos)
	in.Order = o
	b.emit(in)
}

func (b *fnb) assign(dst int, v *ir.Expr, pos ir.Pos) {
	in := b.ins(ir.IAssign, pos)
	in.Dst, in.A = dst, v
	b.emit(in)
}

func (b *fnb) newLabel() int {
	b.labels = append(b.labels, -1)
	return len(b.labels) - 1
}

func (b *fnb) bind(l int) { b.labels[l] = len(b.body) }

func (b *fnb) jump(l int, pos ir.Pos) {
	in := b.ins(ir.IJump, pos)
	in.Target = l
	b.emit(in)
}

func (b *fnb) branch(c *ir.Expr, then, els int, pos ir.Pos) {
	in := b.ins(ir.IBranch, pos)
	in.A, in.Target, in.Target2 = c, then, els
	b.emit(in)
}

// ---- the whole program ----

// build creates the ir.Program: globals for the locations and observed
// registers, the thread functions (finished with the register stores) and
// main.
func (p *parser) build() {
	t := p.t
	// locations the condition mentions exist even if no thread uses them
	locs := t.Observed()
	for _, l := range locs {
		if !l.IsReg() {
			p.location(l.Name)
		}
		if l.IsReg() && l.Thread >= t.Threads {
			p.errAt(p.condOff(l), "%s names thread %d, but the test has %d thread(s)", l, l.Thread, t.Threads)
		}
	}
	for l := range p.inits {
		if l.IsReg() && l.Thread >= t.Threads {
			p.errAt(p.inits[l].off, "%s names thread %d, but the test has %d thread(s)", l, l.Thread, t.Threads)
		}
	}
	if t.Threads == 0 {
		p.errAt(len(p.src), "the test has no threads")
	}
	if p.c.Len() > 0 {
		return
	}
	for i, name := range t.Locations {
		t.addr[name] = ir.MakePtr(i+1, 0)
	}
	value := func(v initVal) int64 {
		if v.name != "" {
			return t.addr[v.name]
		}
		return v.val
	}
	for _, l := range sortedInitLocs(p.inits) {
		t.Init[l] = value(p.inits[l])
	}
	// resolve location names used as values in conditions
	resolve := func(pr *Prop) {
		var walk func(*Prop)
		walk = func(q *Prop) {
			if q == nil {
				return
			}
			if q.Kind == PAtom && q.ValueName != "" {
				a, ok := t.addr[q.ValueName]
				if !ok {
					p.errAt(p.offOf(q.Pos), "unknown location %q used as a value", q.ValueName)
				}
				q.Value = a
			}
			walk(q.A)
			walk(q.B)
		}
		walk(pr)
	}
	resolve(t.Cond.Prop)
	resolve(t.Filter)

	prog := &ir.Program{File: p.file, Source: p.src}
	for i, name := range t.Locations {
		typ := ir.Int
		if p.mutexes[name] {
			typ = ir.Mutex
		}
		init := t.Init[Loc{Thread: -1, Name: name}]
		prog.Globals = append(prog.Globals, &ir.Global{Name: name, Type: typ, Block: i + 1, Init: []int64{init}})
	}
	regGlobal := map[Loc]int{}
	for _, l := range locs {
		if l.IsReg() {
			regGlobal[l] = len(prog.Globals)
			prog.Globals = append(prog.Globals, &ir.Global{Name: l.Global(), Type: ir.Int, Block: len(prog.Globals) + 1,
				Init: []int64{t.Init[l]}})
		}
	}
	main := &ir.Func{Name: "main", Kind: ir.FuncPlain, Result: ir.Void}
	prog.Funcs = append(prog.Funcs, main)
	prog.Main = main
	for i, b := range p.fns {
		// initial register values from the init section go first
		var pre []ir.Instr
		for _, l := range sortedInitLocs(p.inits) {
			if l.Thread == i && t.Init[l] != 0 {
				s := b.reg(l.Name, b.f.Pos)
				in := b.ins(ir.IAssign, b.f.Pos)
				in.Dst, in.A = s, constExpr(t.Init[l], b.f.Pos)
				pre = append(pre, in)
			}
		}
		if len(pre) > 0 {
			for k := range b.labels {
				if b.labels[k] >= 0 {
					b.labels[k] += len(pre)
				}
			}
			b.body = append(pre, b.body...)
		}
		end := p.pos(b.endOff)
		for _, l := range locs {
			if l.IsReg() && l.Thread == i {
				if s, ok := b.regs[l.Name]; ok {
					addr := &ir.Expr{Kind: ir.EGlobalAddr, Global: regGlobal[l], Type: ir.PtrTo(nil), Pos: end}
					b.store(addr, localExpr(s, end), ir.OrderNA, end)
				}
			}
		}
		b.emit(b.ins(ir.IReturn, end))
		for k := range b.body {
			in := &b.body[k]
			switch in.Op {
			case ir.IJump:
				in.Target = b.labels[in.Target]
			case ir.IBranch:
				in.Target = b.labels[in.Target]
				in.Target2 = b.labels[in.Target2]
			}
		}
		b.f.Body = b.body
		prog.Funcs = append(prog.Funcs, b.f)
		sp := b.ins(ir.ISpawn, b.f.Pos)
		sp.Func = b.f
		main.Body = append(main.Body, sp)
	}
	main.Body = append(main.Body, ir.Instr{Op: ir.IReturn, Dst: -1, Dst2: -1})
	for _, b := range p.fns {
		for _, l := range b.labels {
			if l < 0 {
				p.errAt(b.endOff, "internal error: unbound label in P%d", b.thread)
			}
		}
	}
	t.Prog = prog
}

func sortedInitLocs(m map[Loc]initVal) []Loc {
	mm := make(map[Loc]int64, len(m))
	for l := range m {
		mm[l] = 0
	}
	return sortedLocs(mm)
}

// condOff finds the offset of the first mention of l in the condition.
func (p *parser) condOff(l Loc) int {
	off := -1
	var walk func(*Prop)
	walk = func(q *Prop) {
		if q == nil || off >= 0 {
			return
		}
		if q.Kind == PAtom && (q.L == l || q.RIsLoc && q.R == l) {
			off = p.offOf(q.Pos)
			return
		}
		walk(q.A)
		walk(q.B)
	}
	walk(p.t.Cond.Prop)
	walk(p.t.Filter)
	if off < 0 {
		return len(p.src)
	}
	return off
}

func (p *parser) offOf(pos ir.Pos) int {
	if pos.Line <= 0 || pos.Line > len(p.lines) {
		return 0
	}
	return p.lines[pos.Line-1] + pos.Col - 1
}
