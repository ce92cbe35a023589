package c

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// translator holds the state of one translation unit.
type translator struct {
	// addrTaken holds the declarators whose address the program takes
	// (&x anywhere), computed on first use (addressTaken).
	addrTaken      map[*cc.Declarator]bool
	addrTakenNames map[string]bool // the same for objects with linkage, by name
	file           string
	src            []byte
	ast            *cc.AST
	cfg            *cc.Config
	opts           Options
	prog           *ir.Program
	errs           *diag.Collector // unsupported constructs
	// destroysMutex: the program calls pthread_mutex_destroy or
	// mtx_destroy, so mutex initialization must store the unlocked state
	// (a destroyed mutex holds ir.DestroyedMutex).
	destroysMutex bool
	// keySlots are the thread registers (prog.TLS) of the thread-specific
	// keys and keyCounter the index of the hidden global counting the
	// keys created (keys.go); nil until a key function is lowered.
	keySlots   []int
	keyCounter int
	// atomicLocks is 1 + the index of the hidden lock table of whole
	// _Atomic struct operations under ra and rc11 (atomicstruct.go); 0
	// until one is lowered.
	atomicLocks int
	// strs maps the bytes of a string literal to its global (strings.go).
	strs map[string]int

	ints        map[int]*ir.Type
	records     map[any]*recInfo
	anonStructs int
	// punCast: a union the program accesses has members that read one
	// cell as integers of different signedness, so every narrow integer
	// load from memory is narrowed to the reader's type (union.go).
	punCast bool

	globals map[string]*gvar         // file-scope objects by name
	statics map[*cc.Declarator]*gvar // function-local statics
	// staticDecls are the function-local statics seen, created on first use.
	staticDecls map[*cc.Declarator]staticDecl
	externs     map[string]*cc.Declarator // declared but (so far) not defined
	funcs       map[string]*fnInfo        // defined functions by name
	funcList    []*fnInfo
	main        *fnInfo

	globalOrder []string
	cl          *fnl            // lowerer for constant expressions
	pure        map[string]bool // pureFunc results
	// posCache holds the positions of binary and postfix expressions
	// (see position).
	posCache map[any]token.Position
	// approx lists the under-approximations made (Options.UnderApproximate).
	approx []string
}

type staticDecl struct {
	fi   *fnInfo
	init *cc.Initializer
}

type recInfo struct {
	rec     *ir.Record
	offsets map[any]int // field key -> cell offset (incl. members of anonymous struct members)
}

// gvar is a global (or static local) object.
type gvar struct {
	idx    int // index in prog.Globals
	g      *ir.Global
	ctype  cc.Type
	decl   *cc.Declarator
	atomic bool
	// konst is the value of a const-qualified scalar global with a constant
	// initializer: reads are folded to it.
	konst    *int64
	init     *cc.Initializer
	isStatic bool // function-local static (initialized with the globals)
	// tls is the record of a thread-local variable's per-thread block (the
	// global is then the table of the threads' blocks); tlsInit its
	// initial cells.
	tls     *ir.Record
	tlsInit []int64
	// tlsSlot is 1 + the index in prog.TLS of a thread-local integer
	// variable whose address is never taken: each thread's copy is a
	// thread register (ITLSLoad/ITLSStore), and there is no IR global.
	// 0 for every other variable.
	tlsSlot int
}

// tlsThreads is the number of threads (by handle) a thread-local variable
// supports; a thread with a larger handle gets a runtime error (index out
// of bounds), never a wrong value.
const tlsThreads = 256

// fnInfo is a C function definition.
type fnInfo struct {
	name   string
	def    *cc.FunctionDefinition
	f      *ir.Func
	ftype  *cc.FunctionType
	atomic bool // __VERIFIER_atomic_*: the body runs as one atomic section
	// uninitMem are the register locals declared without an initializer
	// that a first lowering found may be read before they are assigned:
	// lowered again, they live in memory that starts uninitialized
	// (uninit.go).
	uninitMem map[*cc.Declarator]bool
	// calls lists the functions it calls directly (names).
	calls map[string]bool
	// exits is where it calls pthread_exit, if it does.
	exits []ir.Pos
	// spawns reports whether it calls pthread_create; starts lists the
	// start routines it passes to it.
	spawns bool
	starts map[string]bool
	// refs lists the functions its body uses as values (function
	// pointers); addrTaken reports whether some body or global
	// initializer uses it so, and id is its index among the program's
	// functions (its pointer value).
	refs      map[string]bool
	addrTaken bool
	id        int
	facts     *funcFacts
}

func (tr *translator) pos(n interface{ Position() token.Position }) ir.Pos {
	if n == nil {
		return ir.Pos{File: tr.file}
	}
	p := tr.position(n)
	if p.Line == 0 {
		return ir.Pos{File: tr.file}
	}
	return ir.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// position is n.Position(), in time independent of the depth of n's
// left operands. cc finds the position of a binary expression (or of a
// postfix one: a[i], f(x), s.m) by recursing into its left operand, so a
// chain 1+1+...+1 of n terms costs n per node and n*n in all, with a
// goroutine stack n frames deep; here the descent to the leftmost operand
// is a loop, and the positions found are kept for every node passed.
func (tr *translator) position(n interface{ Position() token.Position }) token.Position {
	if leftOperand(n) == nil {
		return n.Position()
	}
	if p, ok := tr.posCache[n]; ok {
		return p
	}
	if tr.posCache == nil {
		tr.posCache = map[any]token.Position{}
	}
	path := []any{n}
	var cur any = n
	p, found := token.Position{}, false
	for {
		next := leftOperand(cur)
		if next == nil {
			break
		}
		if q, ok := tr.posCache[next]; ok {
			p, found = q, true
			break
		}
		path = append(path, next)
		cur = next
	}
	if !found {
		p = cur.(interface{ Position() token.Position }).Position()
		if !p.IsValid() {
			return n.Position() // the operand has no position: cc's own rules
		}
	}
	for _, m := range path {
		tr.posCache[m] = p
	}
	return p
}

// leftOperand returns the operand of a binary or postfix expression n that
// comes first in the source, or nil if n is not one (or has none).
func leftOperand(n any) cc.Node {
	var e cc.ExpressionNode
	switch x := n.(type) {
	case *cc.AdditiveExpression:
		e = x.AdditiveExpression
		if x.Case == cc.AdditiveExpressionMul {
			e = x.MultiplicativeExpression
		}
	case *cc.MultiplicativeExpression:
		e = x.MultiplicativeExpression
		if x.Case == cc.MultiplicativeExpressionCast {
			e = x.CastExpression
		}
	case *cc.ShiftExpression:
		e = x.ShiftExpression
		if x.Case == cc.ShiftExpressionAdd {
			e = x.AdditiveExpression
		}
	case *cc.RelationalExpression:
		e = x.RelationalExpression
		if x.Case == cc.RelationalExpressionShift {
			e = x.ShiftExpression
		}
	case *cc.EqualityExpression:
		e = x.EqualityExpression
		if x.Case == cc.EqualityExpressionRel {
			e = x.RelationalExpression
		}
	case *cc.AndExpression:
		e = x.AndExpression
		if x.Case == cc.AndExpressionEq {
			e = x.EqualityExpression
		}
	case *cc.ExclusiveOrExpression:
		e = x.ExclusiveOrExpression
		if x.Case == cc.ExclusiveOrExpressionAnd {
			e = x.AndExpression
		}
	case *cc.InclusiveOrExpression:
		e = x.InclusiveOrExpression
		if x.Case == cc.InclusiveOrExpressionXor {
			e = x.ExclusiveOrExpression
		}
	case *cc.LogicalAndExpression:
		e = x.LogicalAndExpression
		if x.Case == cc.LogicalAndExpressionOr {
			e = x.InclusiveOrExpression
		}
	case *cc.LogicalOrExpression:
		e = x.LogicalOrExpression
		if x.Case == cc.LogicalOrExpressionLAnd {
			e = x.LogicalAndExpression
		}
	case *cc.PostfixExpression:
		e = x.PostfixExpression
	case *cc.ExpressionList:
		e = x.AssignmentExpression
	}
	if e == nil {
		return nil
	}
	return e
}

func (tr *translator) tokPos(t cc.Token) ir.Pos { return tr.pos(t) }

// unsupported records an unsupported construct at pos.
func (tr *translator) unsupported(pos ir.Pos, format string, args ...any) {
	if pos.File == "" {
		pos.File = tr.file
	}
	tr.errs.Errorf(pos, "unsupported: "+format, args...)
	if tr.errs.Len() > 200 {
		panic(tooManyErrors{})
	}
}

// translate lowers a type-checked translation unit.
func translate(filename string, src []byte, ast *cc.AST, cfg *cc.Config, opts Options) (prog *ir.Program, approx []string, err error) {
	tr := &translator{
		file: filename, src: src, ast: ast, cfg: cfg, opts: opts,
		prog:        &ir.Program{File: filename, Source: src},
		errs:        diag.NewCollector(filename, src),
		ints:        map[int]*ir.Type{},
		records:     map[any]*recInfo{},
		globals:     map[string]*gvar{},
		statics:     map[*cc.Declarator]*gvar{},
		staticDecls: map[*cc.Declarator]staticDecl{},
		externs:     map[string]*cc.Declarator{},
		funcs:       map[string]*fnInfo{},
		pure:        map[string]bool{},
	}
	defer func() {
		// A construct the walker does not expect must never crash the
		// checker: report it as unsupported instead.
		if r := recover(); r != nil {
			if os.Getenv("NCMC_C_PANIC") != "" {
				panic(r)
			}
			if _, ok := r.(tooManyErrors); !ok {
				tr.unsupported(ir.Pos{File: filename}, "internal error in the C front end: %v", r)
			}
			prog, approx, err = nil, nil, &Unsupported{Errs: tr.errs.Errors()}
		}
	}()
	tr.collect()
	if tr.main == nil {
		// Not a program (an empty file, a library): bad input, as for
		// CIR, not a valid program the front end cannot translate.
		errs := diag.NewCollector(filename, src)
		errs.Errorf(endPos(filename, src), "the program has no main function")
		return nil, nil, errs.Errors()
	}
	// Functions named in global initializers are pointed to (funcptr.go)
	// and kept.
	var globalRefs []*fnInfo
	for _, name := range tr.globalOrder {
		if gv := tr.globals[name]; gv != nil && gv.init != nil {
			walk(gv.init, func(n any) bool {
				if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
					if d, ok := p.ResolvedTo().(*cc.Declarator); ok && d.Type() != nil && d.Type().Kind() == cc.Function {
						if g := tr.funcs[d.Name()]; g != nil && !g.addrTaken {
							g.addrTaken = true
							globalRefs = append(globalRefs, g)
						}
					}
				}
				return true
			})
		}
	}
	tr.layoutGlobals()
	for _, fi := range tr.funcList {
		fi.facts = tr.analyze(fi)
	}
	// Only the functions main can reach are translated (headers define
	// inline functions the program never calls).
	reach := map[string]bool{}
	var visit func(fi *fnInfo)
	visit = func(fi *fnInfo) {
		if reach[fi.name] {
			return
		}
		reach[fi.name] = true
		for _, m := range []map[string]bool{fi.calls, fi.starts, fi.refs} {
			for c := range m {
				if g := tr.funcs[c]; g != nil {
					visit(g)
				}
			}
		}
	}
	visit(tr.main)
	for _, g := range globalRefs {
		visit(g)
	}
	var kept []*fnInfo
	tr.prog.Funcs = nil
	for _, fi := range tr.funcList {
		if reach[fi.name] {
			kept = append(kept, fi)
			tr.prog.Funcs = append(tr.prog.Funcs, fi.f)
		}
	}
	tr.funcList = kept
	for _, fi := range tr.funcList {
		tr.signature(fi)
	}
	tr.scanUnions()
	for _, fi := range tr.funcList {
		tr.lowerFuncUninit(fi)
	}
	tr.checkExits()
	tr.prog.Main = tr.main.f
	if tr.errs.Len() > 0 {
		return nil, nil, &Unsupported{Errs: tr.errs.Errors()}
	}
	return tr.prog, tr.approx, nil
}

type tooManyErrors struct{}

// collect walks the file-scope declarations: function definitions and
// global objects.
func (tr *translator) collect() {
	for l := tr.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			tr.addFunc(ed.FunctionDefinition)
		case cc.ExternalDeclarationDecl:
			tr.fileDecl(ed.Declaration)
		case cc.ExternalDeclarationAsmStmt:
			tr.unsupported(tr.pos(ed.AsmStatement), "asm statements")
		}
	}
	// Globals declared extern and defined later are definitions.
	for name := range tr.globals {
		delete(tr.externs, name)
	}
}

func (tr *translator) addFunc(fd *cc.FunctionDefinition) {
	d := fd.Declarator
	name := d.Name()
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok {
		tr.unsupported(tr.pos(d), "function definition of type %s", d.Type())
		return
	}
	if _, dup := tr.funcs[name]; dup {
		return // cc reports redefinitions
	}
	f := &ir.Func{Name: name, Kind: ir.FuncPlain, Pos: tr.pos(d)}
	fi := &fnInfo{name: name, def: fd, f: f, ftype: ft, calls: map[string]bool{}, starts: map[string]bool{}, refs: map[string]bool{}, id: len(tr.funcList),
		atomic: strings.HasPrefix(name, "__VERIFIER_atomic_") && name != "__VERIFIER_atomic_begin" && name != "__VERIFIER_atomic_end"}
	tr.funcs[name] = fi
	tr.funcList = append(tr.funcList, fi)
	tr.prog.Funcs = append(tr.prog.Funcs, f)
	if name == "main" {
		tr.main = fi
	}
}

func (tr *translator) fileDecl(decl *cc.Declaration) {
	if decl == nil || decl.Case != cc.DeclarationDecl {
		return
	}
	for l := decl.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		d := id.Declarator
		if d.IsTypename() || d.Type() == nil || d.Type().Kind() == cc.Function {
			continue
		}
		name := d.Name()
		if name == eofSentinel {
			continue
		}
		if d.IsExtern() && id.Initializer == nil {
			if _, ok := tr.globals[name]; !ok {
				tr.externs[name] = d
			}
			continue
		}
		if gv, ok := tr.globals[name]; ok {
			// A tentative definition followed by the real one.
			if id.Initializer != nil {
				gv.init, gv.decl, gv.ctype = id.Initializer, d, d.Type()
			}
			continue
		}
		tr.globals[name] = &gvar{decl: d, ctype: d.Type(), init: id.Initializer, idx: -1}
		tr.globalOrder = append(tr.globalOrder, name)
	}
}

// layoutGlobals creates the IR globals in declaration order and computes
// their initial values.
func (tr *translator) layoutGlobals() {
	for _, name := range tr.globalOrder {
		tr.createGlobal(tr.globals[name], name)
	}
	for _, name := range tr.globalOrder {
		tr.initGlobal(tr.globals[name])
	}
}

func (tr *translator) createGlobal(gv *gvar, name string) {
	d := gv.decl
	pos := tr.pos(d)
	t := gv.ctype
	if at, ok := t.(*cc.ArrayType); ok && at.IsIncomplete() && gv.init != nil {
		// int a[] = {...}: cc completes the type on the initializer.
		if it := gv.init.Type(); it != nil && it.Kind() == cc.Array {
			t = it
			gv.ctype = t
		}
	}
	if d.IsThreadLocal() && isInteger(t) && !tr.isAtomicDecl(d) && !tr.addressTaken(d) {
		// A thread register: no memory, no scheduling point, nothing
		// that tells threads apart.
		gv.tlsSlot = len(tr.prog.TLS) + 1
		tr.prog.TLS = append(tr.prog.TLS, &ir.TLSVar{Name: name, Type: tr.scalarType(t, pos), Pos: pos})
		return
	}
	g := &ir.Global{Name: name, Type: tr.irType(t, pos), Pos: pos}
	g.Atomic = tr.isAtomicDecl(d)
	gv.atomic = g.Atomic
	if d.IsThreadLocal() {
		// Each thread has its own copy: a block allocated by the thread on
		// its first access and found through a table indexed by the thread
		// handle (the global itself).
		rec := &ir.Record{Name: name, Fields: []*ir.Field{{Name: name, Type: g.Type, Pos: pos}}, Size: g.Type.Size(), Pos: pos}
		gv.tls = rec
		g.Type = ir.ArrayOf(ir.PtrTo(rec), tlsThreads)
		g.Name = name + ".tls"
		g.Atomic = false
	}
	gv.g = g
	gv.idx = len(tr.prog.Globals)
	g.Block = gv.idx + 1
	tr.prog.Globals = append(tr.prog.Globals, g)
}

// addressTaken reports whether the program applies & to the object d.
func (tr *translator) addressTaken(d *cc.Declarator) bool {
	if tr.addrTaken == nil {
		tr.addrTaken, tr.addrTakenNames = map[*cc.Declarator]bool{}, map[string]bool{}
		walk(tr.ast.TranslationUnit, func(n any) bool {
			if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
				if x := identDecl(u.CastExpression); x != nil {
					tr.addrTaken[x] = true
					if x.Linkage() != cc.None {
						// Another declaration of the same file-scope object.
						tr.addrTakenNames[x.Name()] = true
					}
				}
			}
			return true
		})
	}
	return tr.addrTaken[d] || d.Linkage() != cc.None && tr.addrTakenNames[d.Name()]
}

// staticLocal returns the global holding the function-local static d.
func (tr *translator) staticLocal(fi *fnInfo, d *cc.Declarator, init *cc.Initializer) *gvar {
	if gv, ok := tr.statics[d]; ok {
		return gv
	}
	gv := &gvar{decl: d, ctype: d.Type(), init: init, isStatic: true}
	tr.statics[d] = gv
	name := fi.name + "." + d.Name()
	for tr.globals[name] != nil {
		name += "'"
	}
	tr.globals[name] = gv
	tr.createGlobal(gv, name)
	tr.initGlobal(gv)
	return gv
}

// isAtomicDecl reports whether d declares an _Atomic scalar object (directly
// or through a typedef such as atomic_int).
func (tr *translator) isAtomicDecl(d *cc.Declarator) bool {
	t := d.Type()
	if t == nil {
		return false
	}
	if td := t.Typedef(); td != nil && td.IsAtomic() {
		return true
	}
	atomic, pointee := atomicDeclarator(d)
	if pointee && !pointsToAtomic(d) {
		// "_Atomic int **p": cc's types do not record which level is
		// atomic, so accesses through *p could not be made atomic.
		tr.unsupported(tr.pos(d), "_Atomic on the type a pointer to a pointer points to (_Atomic int **p)")
	}
	return atomic
}

// atomicDeclarator tells whether the object a declarator declares is
// _Atomic (atomic), and whether its declaration makes a type it points to
// _Atomic instead (pointee), from the syntax, as cc records only that an
// _Atomic appeared among the declaration specifiers (Declarator.IsAtomic):
//
//	_Atomic int x;          x atomic
//	_Atomic(int *) p;       p atomic (the pointer comes from the specifier)
//	int * _Atomic p;        p atomic (the qualifier of p's own '*')
//	int * _Atomic * q;      q not atomic: *q is
//	_Atomic int *p;         p not atomic: *p is (pointee)
func atomicDeclarator(d *cc.Declarator) (atomic, pointee bool) {
	if d == nil {
		return false, false
	}
	if d.Pointer == nil {
		return d.IsAtomic(), false
	}
	last := d.Pointer
	for last.Pointer != nil {
		if hasAtomicQual(last.TypeQualifiers) {
			pointee = true
		}
		last = last.Pointer
	}
	return hasAtomicQual(last.TypeQualifiers), pointee || d.IsAtomic()
}

// pointsToAtomic reports whether d declares a pointer to an _Atomic object
// by the syntax (_Atomic int *p, _Atomic(int) *p, const _Atomic int *p): a
// single level of pointer whose pointee's specifiers are _Atomic. Accesses
// through such a pointer (*p, p[i]) are seq_cst, as through atomic_int *p.
func pointsToAtomic(d *cc.Declarator) bool {
	if d == nil || d.Pointer == nil || d.Pointer.Pointer != nil || hasAtomicQual(d.Pointer.TypeQualifiers) {
		return false
	}
	_, pointee := atomicDeclarator(d)
	return pointee
}

// exprPointsToAtomic reports whether e names a variable declared as a
// pointer to an _Atomic object (pointsToAtomic).
func exprPointsToAtomic(e cc.ExpressionNode) bool {
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok {
			return pointsToAtomic(d)
		}
	}
	return false
}

// hasAtomicQual reports whether a type qualifier list contains _Atomic.
func hasAtomicQual(q *cc.TypeQualifiers) bool {
	for ; q != nil; q = q.TypeQualifiers {
		if q.TypeQualifier != nil && q.TypeQualifier.Case == cc.TypeQualifierAtomic {
			return true
		}
	}
	return false
}

// checkExits rejects pthread_exit in functions that are also called as
// ordinary functions (it would only return from the callee).
func (tr *translator) checkExits() {
	called := map[string]bool{}
	for _, fi := range tr.funcList {
		for c := range fi.calls {
			called[c] = true
		}
	}
	for _, fi := range tr.funcList {
		if len(fi.exits) > 0 && called[fi.name] {
			tr.unsupported(fi.exits[0], "pthread_exit in function %s, which is also called directly (only thread start functions and main may call pthread_exit)", fi.name)
		}
	}
}

// mayCreateThreads reports whether calling f can create a thread.
func (tr *translator) mayCreateThreads(name string) bool {
	seen := map[string]bool{}
	var visit func(n string) bool
	visit = func(n string) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		fi := tr.funcs[n]
		if fi == nil {
			return false
		}
		if fi.spawns {
			return true
		}
		names := make([]string, 0, len(fi.calls))
		for c := range fi.calls {
			names = append(names, c)
		}
		sort.Strings(names)
		for _, c := range names {
			if visit(c) {
				return true
			}
		}
		return false
	}
	return visit(name)
}

func (tr *translator) String() string { return fmt.Sprintf("translator(%s)", tr.file) }
