package c

import (
	"fmt"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// call lowers a function call: SV-COMP and pthread builtins by name, calls
// of functions defined in the program as ICall.
func (l *fnl) call(pe *cc.PostfixExpression, want bool) *ir.Expr {
	pos := l.tr.pos(pe)
	name := calleeName(pe)
	args := callArgs(pe)
	zero := cnst(0, l.tr.scalarType(pe.Type(), pos), pos)
	if name == "" || l.callsPointer(pe) {
		return l.indirectCall(pe, want)
	}
	if v, done := l.builtin(name, pe, args, want, pos); done {
		if v == nil {
			v = zero
		}
		return v
	}
	fi := l.tr.funcs[name]
	if fi == nil && l.tr.opts.UnderApproximate {
		// Executions that call it are dropped (its arguments are not even
		// evaluated): the remaining ones are executions of the program.
		l.emit(l.assumeFalse(pos, ir.AssumeUser))
		l.tr.approx = append(l.tr.approx, fmt.Sprintf("%s: executions that call %s (not modelled) are cut off there", pos, name))
		return zero
	}
	if fi == nil {
		l.tr.unsupported(pos, "call of %s, which the program does not define and the C front end does not model", name)
		return zero
	}
	l.fi.calls[name] = true
	params := fi.ftype.Parameters()
	var ptypes []cc.Type
	for _, p := range params {
		if p.Type().Kind() != cc.Void {
			ptypes = append(ptypes, p.Type().Decay())
		}
	}
	if len(args) != len(ptypes) {
		l.tr.unsupported(pos, "call of %s with %d arguments (it has %d parameters)", name, len(args), len(ptypes))
		return zero
	}
	in := l.ins(ir.ICall, pos)
	in.Func = fi.f
	for i, a := range args {
		if byValue(ptypes[i]) && isRecordC(a.Type()) {
			// the callee copies the object (lowerFunc)
			lv := l.lvalue(a)
			if lv.isReg() {
				l.tr.unsupported(l.tr.pos(a), "passing a %s value that is not an object", a.Type())
				continue
			}
			if lv.atomic {
				l.tr.unsupported(l.tr.pos(a), "passing an _Atomic %s by value (copy it into a local first)", a.Type())
				continue
			}
			in.Args = append(in.Args, lv.addr)
			continue
		}
		if t := a.Type(); t != nil && !isScalarC(t) && !l.designatesArray(a) && t.Kind() != cc.Function {
			l.tr.unsupported(l.tr.pos(a), "passing a %s by value", t)
			continue
		}
		in.Args = append(in.Args, l.convert(l.expr(a), a.Type(), ptypes[i], l.tr.pos(a)))
	}
	if fi.f.Result == nil {
		// signature runs for every translated function before any call is
		// lowered; dropping the result here would read it as 0.
		panic(fmt.Sprintf("call of %s before its result type is known", name))
	}
	if want && fi.f.Result.Kind != ir.TVoid {
		in.Dst = l.temp(fi.f.Result, pos)
		l.emit(in)
		return l.local(in.Dst, pos)
	}
	l.emit(in)
	return zero
}

// isAbortName reports whether name ends the process (modelled as the thread
// stopping for good; see doc.go).
func isAbortName(name string) bool {
	switch name {
	case "abort", "exit", "_exit", "_Exit", "quick_exit", "__builtin_abort", "__builtin_unreachable", "__builtin_trap":
		return true
	}
	return false
}

// noOps are library functions without an effect the checker can observe
// (output, sleeping, hints); their arguments are still evaluated.
var noOps = map[string]bool{
	"printf": true, "fprintf": true, "puts": true, "putchar": true, "fputs": true, "fflush": true, "perror": true,
	"sleep": true, "usleep": true, "nanosleep": true, "sched_yield": true, "pthread_yield": true,
	"free": true, "__builtin_free": true,
	"pthread_mutex_init": true, "pthread_mutex_destroy": true, "pthread_cond_init": true, "pthread_cond_destroy": true,
	"pthread_mutexattr_init": true, "pthread_mutexattr_destroy": true,
	"pthread_condattr_init": true, "pthread_condattr_destroy": true,
	"pthread_attr_init": true, "pthread_attr_destroy": true, "pthread_attr_setdetachstate": true,
	"pthread_barrier_destroy": true, "pthread_barrierattr_init": true, "pthread_barrierattr_destroy": true,
	"pthread_barrierattr_setpshared": true,
	"pthread_rwlock_destroy":         true, "pthread_rwlockattr_init": true, "pthread_rwlockattr_destroy": true,
	"thrd_yield": true, "cnd_destroy": true, "mtx_destroy": true,
	"sem_destroy": true, "pthread_spin_destroy": true,
	"pthread_key_delete": true, "tss_delete": true, // keys.go
}

// c11Threads maps the C11 <threads.h> functions that behave as a pthread
// function (with the same arguments) to it; thrd_success is 0, as
// pthread's success.
var c11Threads = map[string]string{
	"thrd_current": "pthread_self", "thrd_equal": "pthread_equal",
	"mtx_lock": "pthread_mutex_lock", "mtx_unlock": "pthread_mutex_unlock",
	"cnd_wait": "pthread_cond_wait", "cnd_signal": "pthread_cond_signal", "cnd_broadcast": "pthread_cond_broadcast",
}

// builtin lowers a call of a modelled function; done is false if name is
// not one.
func (l *fnl) builtin(name string, pe *cc.PostfixExpression, args []cc.ExpressionNode, want bool, pos ir.Pos) (v *ir.Expr, done bool) {
	_, defined := l.tr.funcs[name]
	arg := func(i int) *ir.Expr {
		if i < len(args) {
			return l.expr(args[i])
		}
		l.tr.unsupported(pos, "%s called with too few arguments", name)
		return cnst(0, ir.Int, pos)
	}
	need := func(n int) bool {
		if len(args) != n {
			l.tr.unsupported(pos, "%s called with %d arguments (expected %d)", name, len(args), n)
			return false
		}
		return true
	}
	ret0 := func() *ir.Expr { return cnst(0, l.tr.scalarType(pe.Type(), pos), pos) }
	if p, ok := c11Threads[name]; ok && !defined {
		name = p
	}
	switch {
	case (name == "reach_error" || name == "__VERIFIER_error") && defined && l.tr.opts.NoDataRace:
		return nil, false // an ordinary call of the program's function
	case name == "reach_error":
		l.fail(MsgReachError, pos)
		return nil, true
	case name == "__VERIFIER_error":
		l.fail(MsgVerifierError, pos)
		return nil, true
	case strings.HasPrefix(name, "__VERIFIER_nondet_"):
		for _, a := range args {
			l.exprVoid(a)
		}
		return l.nondetFull(name, pe.Type(), pos), true
	case name == "__assert_fail" || name == "__assert_perror_fail" || name == "__assert" || name == "__assert_rtn":
		msg := "assertion failed"
		if len(args) > 0 {
			if s, ok := stringLit(args[0]); ok {
				msg += ": " + s
			}
		}
		l.fail(msg, pos)
		return nil, true
	case isAbortName(name) && !defined:
		for _, a := range args {
			l.exprVoid(a)
		}
		in := l.assumeFalse(pos, ir.AssumeUser)
		in.Msg = ir.MsgExit
		l.emit(in)
		return nil, true
	case (name == "__VERIFIER_assume" || name == "assume_abort_if_not") && !defined:
		if !need(1) {
			return nil, true
		}
		in := l.ins(ir.IAssume, pos)
		in.A = l.truth(args[0])
		in.Assume = ir.AssumeUser
		l.emit(in)
		return nil, true
	case name == "__VERIFIER_assert" && !defined:
		if !need(1) {
			return nil, true
		}
		ok, bad := l.newLabel(), l.newLabel()
		l.cond(args[0], ok, bad)
		l.bind(bad)
		l.fail(MsgReachError, pos)
		l.bind(ok)
		return nil, true
	case name == "__VERIFIER_atomic_begin":
		l.atomicBegin(pos)
		return nil, true
	case name == "__VERIFIER_atomic_end":
		l.emit(l.ins(ir.IAtomicEnd, pos))
		return nil, true
	case strings.HasPrefix(name, "__VERIFIER_atomic_") && !defined:
		l.tr.unsupported(pos, "call of %s, which the program declares but does not define", name)
		return nil, true
	case defined:
		return nil, false
	case (name == "strlen" || name == "strcmp" || name == "strncmp" || name == "strcpy" || name == "strncpy") && !defined:
		return l.stringCall(name, args, pe, pos), true
	case (name == "free" || name == "__builtin_free") && !defined:
		if need(1) {
			in := l.ins(ir.IFree, pos)
			in.Addr = l.expr(args[0])
			l.emit(in)
		}
		return ret0(), true
	case (name == "pthread_mutex_destroy" || name == "mtx_destroy" || name == "pthread_mutex_init") && l.tr.destroysMutex && !defined:
		// A destroyed mutex holds DestroyedMutex (-1, as in GenMC): locking
		// it is a violation. When the program destroys a mutex, init
		// stores the unlocked state (a mutex may be initialized again).
		if len(args) == 0 {
			need(1)
			return ret0(), true
		}
		// Under sc, tso and pso a store and an sc fence: under tso and
		// pso the store reaches memory before the thread goes on (no
		// read of the mutex: mcr does not support reads of mutexes).
		// Under ra and rc11 a release store: the graph explorers order
		// it in the mutex's coherence order with the locks and unlocks,
		// and a lock that reads it reports the violation; no fence (the
		// store needs no more ordering, and an sc fence would only add
		// psc checks).
		st := l.ins(ir.IStore, pos)
		st.Addr, st.A, st.Order = l.expr(args[0]), cnst(ir.DestroyedMutex, ir.Mutex, pos), ir.OrderSC
		if name == "pthread_mutex_init" {
			st.A = cnst(0, ir.Mutex, pos)
		}
		if l.tr.opts.NoAtomicSections {
			st.Order = ir.OrderRel
		}
		for _, a := range args[1:] {
			l.exprVoid(a)
		}
		l.emit(st)
		if !l.tr.opts.NoAtomicSections {
			fe := l.ins(ir.IFence, pos)
			fe.Order = ir.OrderSC
			l.emit(fe)
		}
		return ret0(), true
	case noOps[name]:
		for _, a := range args {
			switch {
			case isStringLit(a):
			case !a.Pure():
				l.exprVoid(a)
			case l.tr.opts.NoDataRace && a.Type() != nil && (isInteger(a.Type()) || isPointer(a.Type())) && !l.usesExtern(a):
				// For data races the reads of printf("%d", *p) count, though
				// their values are not used.
				l.expr(a)
			}
		}
		if want && !strings.HasPrefix(name, "pthread_") && name != "sleep" && name != "usleep" && name != "sched_yield" {
			l.tr.unsupported(pos, "use of the result of %s", name)
		}
		return ret0(), true
	case name == "time" && l.tr.opts.UnderApproximate && len(args) == 1 && isNullPtrConst(args[0]):
		// One possible behaviour of the clock: it stays at 0 (the program
		// runs within the first second of 1970).
		l.tr.approx = append(l.tr.approx, fmt.Sprintf("%s: time(NULL) always returns 0", pos))
		return ret0(), true
	case name == "__builtin_expect" || name == "__builtin_expect_with_probability":
		if len(args) < 1 {
			return nil, true
		}
		v := l.expr(args[0])
		for _, a := range args[1:] {
			l.exprVoid(a)
		}
		return l.convert(v, args[0].Type(), pe.Type(), pos), true
	case name == "pthread_mutexattr_settype" || name == "pthread_mutexattr_setrobust" || name == "pthread_mutexattr_setprotocol":
		l.tr.unsupported(pos, "%s (only default mutexes are modelled: a recursive or error-checking mutex behaves differently)", name)
		return ret0(), true
	case (name == "thrd_create") && !defined:
		// thrd_create(&t, f, arg): f returns int, thrd_join's result.
		if need(3) {
			if h := l.spawn(args[1], nil, args[2], pos); h != nil {
				l.writeOut(args[0], h, pos)
			}
		}
		return ret0(), true
	case (name == "mtx_init" || name == "cnd_init") && !defined:
		if name == "mtx_init" && need(2) {
			if l.tr.destroysMutex {
				st := l.ins(ir.IStore, pos)
				st.Addr, st.A, st.Order = l.expr(args[0]), cnst(0, ir.Mutex, pos), ir.OrderSC
				l.emit(st)
			} else {
				l.exprVoid(args[0])
			}
			// mtx_plain (0) and mtx_timed (2) behave alike here (no timed
			// waits); mtx_recursive (1) does not.
			if v, ok := l.tr.constInt(args[1]); !ok || v&1 != 0 {
				l.tr.unsupported(pos, "mtx_init with a recursive or unknown mutex type (only mtx_plain and mtx_timed are modelled)")
			}
		} else if name == "cnd_init" && need(1) {
			l.exprVoid(args[0])
		}
		return ret0(), true
	case name == "mtx_trylock" && !defined:
		if !need(1) {
			return ret0(), true
		}
		in := l.ins(ir.ITryLock, pos)
		in.Addr = arg(0)
		in.Dst = l.temp(ir.Bool, pos)
		l.emit(in)
		// thrd_success (0) or thrd_busy (1).
		return bin(ir.OpSub, cnst(1, ir.Int, pos), l.local(in.Dst, pos), l.tr.scalarType(pe.Type(), pos), pos), true
	case strings.HasPrefix(name, "pthread_rwlock_") && !strings.HasPrefix(name, "pthread_rwlockattr_") && name != "pthread_rwlock_destroy" && !defined:
		switch name {
		case "pthread_rwlock_init", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock", "pthread_rwlock_unlock":
		default:
			l.tr.unsupported(pos, "%s (timed waits are not modelled)", name)
			return ret0(), true
		}
		if len(args) == 0 || name == "pthread_rwlock_init" && !need(2) {
			return ret0(), true
		}
		return l.rwlock(name, args, pe, pos), true
	case keyNames[name] > 0 && !defined:
		if !need(keyNames[name]) {
			return ret0(), true
		}
		return l.threadKey(name, args, pe, pos), true
	case name == "pthread_once" && !defined:
		if !need(2) {
			return ret0(), true
		}
		return l.pthreadOnce(args, pe, pos), true
	case semSpinArgs[name] > 0 && !defined:
		if !need(semSpinArgs[name]) {
			return ret0(), true
		}
		return l.semSpin(name, args, pe, pos), true
	case name == "pthread_create":
		if need(4) {
			if h := l.spawn(args[2], args[1], args[3], pos); h != nil {
				l.writeOut(args[0], h, pos)
			}
		}
		return ret0(), true
	case (name == "__VERIFIER_spawn" || name == "__VERIFIER_spawn_symmetric") && !defined:
		// GenMC's genmc.h: spawn(f, arg) returns the thread; the symmetric
		// variant's third argument is a hint to GenMC's symmetry reduction.
		n := 2
		if name == "__VERIFIER_spawn_symmetric" {
			n = 3
		}
		if !need(n) {
			return ret0(), true
		}
		if n == 3 {
			l.exprVoid(args[2])
		}
		if h := l.spawn(args[0], nil, args[1], pos); h != nil {
			return h, true
		}
		return ret0(), true
	case (name == "__VERIFIER_join" || name == "__VERIFIER_join_symmetric") && !defined:
		// genmc.h: join(t) returns the thread's result.
		if !need(1) {
			return ret0(), true
		}
		in := l.ins(ir.IJoin, pos)
		in.A = arg(0)
		if !want || name == "__VERIFIER_join_symmetric" {
			l.emit(in)
			return ret0(), true
		}
		in.Dst = l.temp(l.tr.scalarType(pe.Type(), pos), pos)
		l.emit(in)
		return l.local(in.Dst, pos), true
	case (name == "__VERIFIER_loop_begin" || name == "__VERIFIER_spin_start") && !defined:
		return nil, true // genmc.h's markers of a spin loop: hints
	case name == "__VERIFIER_spin_end" && !defined:
		// genmc.h: an iteration of a marked spin loop that ends with a false
		// condition changed nothing; GenMC blocks it (a spin-assume).
		if !need(1) {
			return nil, true
		}
		in := l.ins(ir.IAssume, pos)
		in.A = l.truth(args[0])
		in.Assume = ir.AssumeSpin
		l.emit(in)
		return nil, true
	case name == "pthread_join" || name == "thrd_join" && !defined:
		if !need(2) {
			return ret0(), true
		}
		h := arg(0)
		in := l.ins(ir.IJoin, pos)
		in.A = h
		out := args[1]
		if v, ok := l.tr.constInt(out); ok && v == 0 {
			l.emit(in)
			return ret0(), true
		}
		vt := &ir.Type{Kind: ir.TPtr}
		if pt, ok := out.Type().(*cc.PointerType); ok && isScalarC(pt.Elem()) {
			vt = l.tr.scalarType(pt.Elem(), pos)
		}
		in.Dst = l.temp(vt, pos)
		l.emit(in)
		l.writeOut(out, l.local(in.Dst, pos), pos)
		return ret0(), true
	case name == "pthread_exit" || name == "thrd_exit" && !defined:
		if !need(1) {
			return nil, true
		}
		v := arg(0)
		l.fi.exits = append(l.fi.exits, pos)
		if l.f.Result.Kind == ir.TVoid {
			l.ret(nil, pos)
		} else {
			l.ret(l.convert(v, args[0].Type(), l.fi.ftype.Result(), pos), pos)
		}
		return nil, true
	case name == "pthread_self":
		in := l.ins(ir.ISelf, pos)
		in.Dst = l.temp(ir.Thread, pos)
		l.emit(in)
		return l.local(in.Dst, pos), true
	case name == "pthread_equal":
		if !need(2) {
			return ret0(), true
		}
		a, b := arg(0), arg(1)
		return bin(ir.OpEq, a, b, l.tr.scalarType(pe.Type(), pos), pos), true
	case name == "pthread_mutex_lock" || name == "pthread_mutex_unlock":
		if !need(1) {
			return ret0(), true
		}
		op := ir.ILock
		if name == "pthread_mutex_unlock" {
			op = ir.IUnlock
		}
		in := l.ins(op, pos)
		in.Addr = arg(0)
		l.emit(in)
		return ret0(), true
	case name == "pthread_mutex_trylock":
		if !need(1) {
			return ret0(), true
		}
		in := l.ins(ir.ITryLock, pos)
		in.Addr = arg(0)
		in.Dst = l.temp(ir.Bool, pos)
		l.emit(in)
		// 0 on success, EBUSY (16) when the mutex is held.
		return bin(ir.OpMul, bin(ir.OpSub, cnst(1, ir.Int, pos), l.local(in.Dst, pos), ir.Int, pos), cnst(16, ir.Int, pos), l.tr.scalarType(pe.Type(), pos), pos), true
	case name == "pthread_cond_wait":
		if !need(2) {
			return ret0(), true
		}
		in := l.ins(ir.IWait, pos)
		in.Addr = arg(0)
		in.B = arg(1)
		l.emit(in)
		return ret0(), true
	case name == "pthread_cond_signal" || name == "pthread_cond_broadcast":
		if !need(1) {
			return ret0(), true
		}
		op := ir.ISignal
		if name == "pthread_cond_broadcast" {
			op = ir.IBroadcast
		}
		in := l.ins(op, pos)
		in.Addr = arg(0)
		l.emit(in)
		return ret0(), true
	case (name == "memset" || name == "__builtin_memset") && !defined:
		if !need(3) {
			return ret0(), true
		}
		return l.memset(args, pos), true
	case (name == "memcpy" || name == "memmove" || name == "__builtin_memcpy" || name == "__builtin_memmove") && !defined:
		if !need(3) {
			return ret0(), true
		}
		return l.memcpy(name, args, pos), true
	case name == "pthread_barrier_init":
		if !need(3) {
			return ret0(), true
		}
		return l.barrierInit(args, pe, pos), true
	case name == "pthread_barrier_wait":
		if !need(1) {
			return ret0(), true
		}
		return l.barrierWait(args[0], pe, pos), true
	case name == "malloc" || name == "calloc" || name == "__builtin_malloc" || name == "alloca" || name == "__builtin_alloca":
		return l.malloc(name, pe, args, pos), true
	}
	if v, ok := l.atomicBuiltin(name, pe, args, want, pos); ok {
		return v, true
	}
	return nil, false
}

// stringLit returns the value of a string literal expression.
func stringLit(e cc.ExpressionNode) (string, bool) {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionString {
		return "", false
	}
	if s, ok := p.Value().(cc.StringValue); ok {
		return strings.TrimRight(string(s), "\x00"), true
	}
	return "", false
}

// fail emits an unconditional violation.
func (l *fnl) fail(msg string, pos ir.Pos) {
	in := l.ins(ir.IFail, pos)
	in.Msg = msg
	l.emit(in)
}

// writeOut stores v through the out-parameter expression out (a pointer):
// "&x" with x a register local assigns x directly.
func (l *fnl) writeOut(out cc.ExpressionNode, v *ir.Expr, pos ir.Pos) {
	if u, ok := unparen(out).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		if d := identDecl(u.CastExpression); d != nil {
			if lv, ok := l.locals[d]; ok && !lv.mem {
				l.assignLocal(lv.slot, l.convert(v, l.exprTypeOf(v, lv.t), lv.t, pos), pos)
				return
			}
		}
	}
	p := l.expr(out)
	in := l.ins(ir.IStore, pos)
	in.Addr, in.A = p, v
	l.emit(in)
}

// exprTypeOf is the C type to convert an out value from: the destination's
// own type (the builtins produce values of it).
func (l *fnl) exprTypeOf(_ *ir.Expr, t cc.Type) cc.Type { return t }

// spawn lowers pthread_create(&t, attr, start, arg).
// spawn creates a thread running routine (a function of the program) with
// argument arg, and returns its handle (nil if it cannot); attr (the
// attributes of pthread_create, or nil) is evaluated and ignored.
func (l *fnl) spawn(routine, attr, arg cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	name := startRoutine(routine)
	fi := l.tr.funcs[name]
	if fi == nil {
		l.tr.unsupported(pos, "a thread whose start routine is not a function defined in the program")
		return nil
	}
	l.fi.spawns = true
	if attr != nil {
		if v, ok := l.tr.constInt(attr); !ok || v != 0 {
			l.exprVoid(attr) // thread attributes are ignored
		}
	}
	in := l.ins(ir.ISpawn, pos)
	in.Func = fi.f
	var ptypes []cc.Type
	for _, p := range fi.ftype.Parameters() {
		if p.Type().Kind() != cc.Void {
			ptypes = append(ptypes, p.Type().Decay())
		}
	}
	a := l.expr(arg)
	switch len(ptypes) {
	case 0:
	case 1:
		in.Args = []*ir.Expr{l.convert(a, arg.Type(), ptypes[0], pos)}
	default:
		l.tr.unsupported(pos, "thread start routine %s with %d parameters", name, len(ptypes))
	}
	in.Dst = l.temp(ir.Thread, pos)
	l.emit(in)
	return l.local(in.Dst, pos)
}

// malloc lowers malloc(n * sizeof(T)), calloc(n, sizeof(T)) and alloca with
// a constant element count: a fresh heap block of that many T. With a count
// n that is not a constant (malloc and calloc), the block holds n copies of
// the record, n evaluated when the allocation runs (ir.IAlloc's A).
func (l *fnl) malloc(name string, pe *cc.PostfixExpression, args []cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	rt := l.tr.scalarType(pe.Type(), pos)
	var count int64 = 1
	var size cc.ExpressionNode
	var dyn cc.ExpressionNode // a count known only at run time
	switch {
	case strings.HasSuffix(name, "calloc") && len(args) == 2:
		n, ok := l.tr.constIntOrConstGlobal(args[0])
		if !ok {
			dyn = args[0]
			n = 1
		}
		count, size = n, args[1]
	case len(args) == 1:
		size = args[0]
		if _, _, ok := l.tr.sizeofShape(size); !ok && !strings.HasSuffix(name, "alloca") {
			if t, c, ok := l.tr.dynSizeofShape(size); ok {
				size, dyn = t, c
			}
		}
	default:
		l.tr.unsupported(pos, "%s with %d arguments", name, len(args))
		return cnst(0, rt, pos)
	}
	et, n, ok := l.tr.sizeofShape(size)
	if !ok {
		l.tr.unsupported(pos, "%s of a size that is not sizeof(T) times a constant", name)
		return cnst(0, rt, pos)
	}
	count *= n
	if count <= 0 || count > 1<<16 {
		l.tr.unsupported(pos, "%s of %d elements", name, count)
		return cnst(0, rt, pos)
	}
	elem := l.tr.irType(et, pos)
	if elem.Size()*int(count) > 1<<16 {
		l.tr.unsupported(pos, "%s of more than 65536 cells", name)
		return cnst(0, rt, pos)
	}
	var rec *ir.Record
	if count == 1 && elem.Kind == ir.TRecord {
		rec = elem.Record
	} else {
		var ft *ir.Type
		if count == 1 {
			ft = elem
		} else {
			ft = ir.ArrayOf(elem, int(count))
		}
		rec = &ir.Record{Name: "malloc(" + ft.String() + ")", Fields: []*ir.Field{{Name: "mem", Type: ft}}, Size: ft.Size(), Pos: pos}
	}
	in := l.ins(ir.IAlloc, pos)
	in.Record = rec
	if dyn != nil {
		// n copies of the record, n evaluated at run time (IAlloc's A)
		in.A = retype(l.convert(l.expr(dyn), dyn.Type(), l.tr.ast.LongLong, pos), ir.Int)
	}
	switch {
	case strings.HasSuffix(name, "calloc"):
		in.Alloc = ir.AllocCalloc
	case strings.HasSuffix(name, "malloc") && l.tr.opts.ZeroHeap:
		in.Alloc = ir.AllocCalloc
	case strings.HasSuffix(name, "malloc"):
		in.Alloc = ir.AllocMalloc
	}
	in.Dst = l.temp(rt, pos)
	l.emit(in)
	return l.local(in.Dst, pos)
}

// sizeofShape matches sizeof(T), sizeof(T) * n and n * sizeof(T) with a
// constant n (possibly under casts).
func (tr *translator) sizeofShape(e cc.ExpressionNode) (cc.Type, int64, bool) {
	e = unparen(e)
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			break
		}
		e = unparen(c.CastExpression)
	}
	switch x := e.(type) {
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionSizeofType:
			return x.TypeName.Type(), 1, true
		case cc.UnaryExpressionSizeofExpr:
			return x.UnaryExpression.Type().Undecay(), 1, sizeofOperandOK(x.UnaryExpression)
		}
	case *cc.MultiplicativeExpression:
		if x.Case != cc.MultiplicativeExpressionMul {
			break
		}
		if t, n, ok := tr.sizeofShape(x.MultiplicativeExpression); ok {
			if c, ok := tr.constIntOrConstGlobal(x.CastExpression); ok {
				return t, n * c, true
			}
		}
		if t, n, ok := tr.sizeofShape(x.CastExpression); ok {
			if c, ok := tr.constIntOrConstGlobal(x.MultiplicativeExpression); ok {
				return t, n * c, true
			}
		}
	}
	return nil, 0, false
}

// dynSizeofShape matches e * sizeof(T) and sizeof(T) * e with e not a
// constant: it returns the sizeof operand and e.
func (tr *translator) dynSizeofShape(e cc.ExpressionNode) (cc.ExpressionNode, cc.ExpressionNode, bool) {
	e = unparen(e)
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			break
		}
		e = unparen(c.CastExpression)
	}
	x, ok := e.(*cc.MultiplicativeExpression)
	if !ok || x.Case != cc.MultiplicativeExpressionMul {
		return nil, nil, false
	}
	if _, _, ok := tr.sizeofShape(x.CastExpression); ok && isInteger(x.MultiplicativeExpression.Type()) {
		return x.CastExpression, x.MultiplicativeExpression, true
	}
	if _, _, ok := tr.sizeofShape(x.MultiplicativeExpression); ok && isInteger(x.CastExpression.Type()) {
		return x.MultiplicativeExpression, x.CastExpression, true
	}
	return nil, nil, false
}

// sizeofOperandOK reports whether sizeof's operand type is the type of the
// object (an identifier or a dereference), not a decayed array.
func sizeofOperandOK(e cc.ExpressionNode) bool {
	t := e.Type()
	return t != nil && t.Kind() != cc.Ptr || t.Undecay() == t
}

// ---- nondeterminism ----

// intRange returns the range of C integer type t.
func intRange(t cc.Type) (lo, hi int64, ok bool) {
	if !isInteger(t) {
		return 0, 0, false
	}
	w, s := intInfo(t)
	switch {
	case t.Kind() == cc.Bool:
		return 0, 1, true
	case w >= 64 && !s:
		return 0, 0, false // more values than an int64 range holds
	case s:
		return -(int64(1) << (w - 1)), int64(1)<<(w-1) - 1, true
	default:
		return 0, int64(1)<<w - 1, true
	}
}

// nondetValue emits INondet [lo, hi] with type t.
func (l *fnl) nondetValue(lo, hi int64, t *ir.Type, pos ir.Pos) *ir.Expr {
	in := l.ins(ir.INondet, pos)
	in.Dst = l.temp(t, pos)
	in.A, in.B = cnst(lo, t, pos), cnst(hi, t, pos)
	l.emit(in)
	return l.local(in.Dst, pos)
}

// nondetFull lowers a __VERIFIER_nondet_*() call whose value is used in an
// arbitrary way: every value of its type is explored, if there are few.
func (l *fnl) nondetFull(name string, t cc.Type, pos ir.Pos) *ir.Expr {
	it := l.tr.scalarType(t, pos)
	if w := floatWidth(t); w > 0 {
		if l.tr.opts.UnderApproximate {
			return l.nondetFloatSample(name, w, pos)
		}
		l.tr.unsupported(pos, "nondeterministic floating-point input: %s() (ncmc explores finitely many values, of integer types only)", name)
		return fconst(0, w, pos)
	}
	lo, hi, ok := intRange(t)
	if !ok || hi-lo+1 > int64(l.tr.opts.MaxNondetValues) || hi-lo < 0 {
		n := "more than 2^63"
		if ok {
			n = formatCount(hi - lo + 1)
		}
		if l.tr.opts.UnderApproximate {
			return l.nondetSample(name, n, t, it, pos)
		}
		l.tr.unsupported(pos, "unbounded nondeterministic input: %s() can return %s values and ncmc explores at most %d per call (bound it with an assumption right after the call, e.g. x = %s(); assume_abort_if_not(0 <= x && x < 10);)",
			name, n, l.tr.opts.MaxNondetValues, name)
		return cnst(0, it, pos)
	}
	return l.nondetValue(lo, hi, it, pos)
}

// isNullPtrConst reports whether e is a null pointer constant (0 or NULL).
func isNullPtrConst(e cc.ExpressionNode) bool {
	v := e.Value()
	switch x := v.(type) {
	case cc.Int64Value:
		return x == 0
	case cc.UInt64Value:
		return x == 0
	}
	return false
}

// nondetSample lowers a nondet call with too many values to a choice among
// a few of them (Options.UnderApproximate): 0 to 4, -1 and -2 if signed,
// and the two smallest and two largest values of the type.
func (l *fnl) nondetSample(name, count string, t cc.Type, it *ir.Type, pos ir.Pos) *ir.Expr {
	lo, hi, ok := intRange(t)
	if !ok { // unsigned 64-bit
		lo, hi = 0, -1
	}
	var vals []int64
	seen := map[int64]bool{}
	add := func(v int64) {
		if v = castVal(v, it); !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	for v := int64(0); v <= 4; v++ {
		add(v)
	}
	if lo < 0 {
		add(-1)
		add(-2)
	}
	add(lo)
	add(lo + 1)
	add(hi - 1)
	add(hi)
	idx := l.nondetValue(0, int64(len(vals)-1), ir.Int, pos)
	var sum *ir.Expr
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = strconv.FormatInt(v, 10)
		if !ok && v < 0 {
			strs[i] = strconv.FormatUint(uint64(v), 10)
		}
		term := bin(ir.OpMul, cnst(v, it, pos), bin(ir.OpEq, idx, cnst(int64(i), ir.Int, pos), it, pos), it, pos)
		if sum == nil {
			sum = term
		} else {
			sum = bin(ir.OpAdd, sum, term, it, pos)
		}
	}
	l.tr.approx = append(l.tr.approx, fmt.Sprintf("%s: %s() can return %s values; only %s are explored",
		pos, name, count, strings.Join(strs, ", ")))
	return sum
}

// nondetFloatSample lowers a __VERIFIER_nondet_float() or _double() call
// under Options.UnderApproximate to a choice among a few values of the
// float of width w: 0, ±1, ±0.5, ±1e10.
func (l *fnl) nondetFloatSample(name string, w int, pos ir.Pos) *ir.Expr {
	vals := []float64{0, 1, -1, 0.5, -0.5, 1e10, -1e10}
	idx := l.nondetValue(0, int64(len(vals)-1), ir.Int, pos)
	var sum *ir.Expr
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = strconv.FormatFloat(v, 'g', -1, 64)
		// At most one term is non-zero: the sum is that value's bits.
		term := bin(ir.OpMul, cnst(ir.FloatBits(v, w), ir.Int, pos), bin(ir.OpEq, idx, cnst(int64(i), ir.Int, pos), ir.Int, pos), ir.Int, pos)
		if sum == nil {
			sum = term
		} else {
			sum = bin(ir.OpAdd, sum, term, ir.Int, pos)
		}
	}
	l.tr.approx = append(l.tr.approx, fmt.Sprintf("%s: %s() can return any float; only %s are explored", pos, name, strings.Join(strs, ", ")))
	return retype(sum, floatType(w))
}

func formatCount(n int64) string {
	switch n {
	case 1 << 16:
		return "65536 (2^16)"
	case 1 << 32:
		return "4294967296 (2^32)"
	}
	return strconv.FormatInt(n, 10)
}

// nondetCallOf returns the nondet call e is (under casts), or nil.
func nondetCallOf(e cc.ExpressionNode) *cc.PostfixExpression {
	e = unparen(e)
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			break
		}
		if !isInteger(c.Type()) {
			return nil
		}
		e = unparen(c.CastExpression)
	}
	pe, ok := e.(*cc.PostfixExpression)
	if !ok || pe.Case != cc.PostfixExpressionCall || pe.ArgumentExpressionList != nil {
		return nil
	}
	name := calleeName(pe)
	if !strings.HasPrefix(name, "__VERIFIER_nondet_") || !isInteger(pe.Type()) {
		return nil
	}
	return pe
}

// nondetTruth lowers a nondet call used only as a truth value: its value
// matters only through being zero or not, so 0 and 1 stand for all values.
func (l *fnl) nondetTruth(n cc.ExpressionNode) *ir.Expr {
	pe := nondetCallOf(n)
	if pe == nil {
		return nil
	}
	pos := l.tr.pos(pe)
	return l.nondetValue(0, 1, l.tr.scalarType(n.Type(), pos), pos)
}

// nondetInit lowers the initializer of local lv of type t when it is a
// nondet call whose range can be narrowed exactly (see nondetNarrow);
// nil otherwise.
func (l *fnl) nondetInit(e cc.ExpressionNode, lv *localVar, t cc.Type, d *cc.Declarator, decl *cc.Declaration) *ir.Expr {
	pe := nondetCallOf(e)
	if pe == nil || !isInteger(t) {
		return nil
	}
	pos := l.tr.pos(pe)
	if lv.boolOnly {
		return l.nondetValue(0, 1, l.tr.scalarType(t, pos), pos)
	}
	same := func(x cc.ExpressionNode) bool { return identDecl(x) == d }
	return l.nondetNarrow(pe, t, same, l.peekAfter(decl), pos)
}

// nondetAssign lowers "x = nondet();" as a whole statement, with x a
// register local (or a global in main before any thread is created) whose
// range the next statement restricts; nil otherwise.
func (l *fnl) nondetAssign(x *cc.AssignmentExpression, rhs, lhs cc.ExpressionNode, lv lval) *ir.Expr {
	pe := nondetCallOf(rhs)
	if pe == nil || !isInteger(lv.t) {
		return nil
	}
	pos := l.tr.pos(pe)
	d := identDecl(lhs)
	if d == nil {
		return nil
	}
	if loc, ok := l.locals[d]; ok {
		if loc.mem {
			return nil
		}
		if loc.boolOnly {
			return l.nondetValue(0, 1, l.tr.scalarType(lv.t, pos), pos)
		}
		same := func(x cc.ExpressionNode) bool { return identDecl(x) == d }
		return l.nondetNarrow(pe, lv.t, same, l.peekAfter(x), pos)
	}
	gv := l.globalFor(d)
	if gv == nil || !l.singleThreaded() || lv.atomic {
		return nil
	}
	same := func(x cc.ExpressionNode) bool {
		xd := identDecl(x)
		return xd != nil && l.globalFor(xd) == gv
	}
	return l.nondetNarrow(pe, lv.t, same, l.peekAfter(x), pos)
}

// singleThreaded reports whether the statement being lowered runs in main
// before any thread can have been created.
func (l *fnl) singleThreaded() bool {
	return l.fi == l.tr.main && l.topLevel && !l.threadsStarted && l.loopDepth == 0
}

// nondetNarrow narrows the range of the nondet call pe assigned to a
// variable x of type t when the statement right after the assignment is
// an assumption on x (assume_abort_if_not(c), __VERIFIER_assume(c), or
// if (!c) abort();) whose condition bounds x by constants: only the values
// the assumption can accept are explored, and the assumption itself is
// kept, so the set of executions that pass it is unchanged.
func (l *fnl) nondetNarrow(pe *cc.PostfixExpression, t cc.Type, same func(cc.ExpressionNode) bool, next *cc.BlockItem, pos ir.Pos) *ir.Expr {
	it := l.tr.scalarType(t, pos)
	st := pe.Type()
	// The values x can receive: the source range if it converts without
	// change, all of t's range if the source is at least as wide.
	var olo, ohi int64
	var ok bool
	switch {
	case fits(st, t):
		olo, ohi, ok = intRange(st)
	default:
		ws, _ := intInfo(st)
		wt, _ := intInfo(t)
		if ws >= wt {
			olo, ohi, ok = intRange(t)
		}
	}
	if !ok || next == nil {
		return nil
	}
	c := l.assumption(next)
	if c == nil {
		return nil
	}
	if n, ok := c.(*notExpr); ok && !readOnly(n.ExpressionNode) || !readOnly(c) {
		return nil
	}
	b := bounds{lo: olo, hi: ohi}
	l.constrain(c, false, t, same, &b)
	if b.hi < b.lo {
		b.hi = b.lo // the assumption rejects every value: any one will do
	}
	if b.hi-b.lo+1 > int64(l.tr.opts.MaxNondetValues) || b.hi-b.lo < 0 {
		return nil
	}
	return l.nondetValue(b.lo, b.hi, it, pos)
}

type bounds struct{ lo, hi int64 }

// assumption returns the condition the block item assumes, or nil.
func (l *fnl) assumption(bi *cc.BlockItem) cc.ExpressionNode {
	if bi == nil || bi.Case != cc.BlockItemStmt || bi.Statement == nil {
		return nil
	}
	s := bi.Statement
	switch s.Case {
	case cc.StatementExpr:
		e := s.ExpressionStatement.ExpressionList
		if e == nil {
			return nil
		}
		pe, ok := unparen(e).(*cc.PostfixExpression)
		if !ok || pe.Case != cc.PostfixExpressionCall {
			return nil
		}
		args := callArgs(pe)
		if len(args) == 1 && l.tr.isAssumeFunc(calleeName(pe)) {
			return args[0]
		}
	case cc.StatementSelection:
		ss := s.SelectionStatement
		if ss.Case == cc.SelectionStatementIf && l.tr.isAbortStmt(ss.Statement) {
			return &notExpr{ss.ExpressionList}
		}
	}
	return nil
}

// notExpr stands for the negation of a condition in constrain.
type notExpr struct{ cc.ExpressionNode }

// isAssumeFunc reports whether calling name assumes its argument:
// __VERIFIER_assume or assume_abort_if_not, either modelled or defined as
// "if (!cond) abort();".
func (tr *translator) isAssumeFunc(name string) bool {
	if name != "__VERIFIER_assume" && name != "assume_abort_if_not" {
		return false
	}
	fi := tr.funcs[name]
	if fi == nil {
		return true
	}
	ps := fi.ftype.Parameters()
	if len(ps) != 1 || ps[0].Declarator == nil {
		return false
	}
	bl := fi.def.CompoundStatement.BlockItemList
	if bl == nil || bl.BlockItemList != nil || bl.BlockItem.Case != cc.BlockItemStmt {
		return false
	}
	s := bl.BlockItem.Statement
	if s.Case != cc.StatementSelection || s.SelectionStatement.Case != cc.SelectionStatementIf {
		return false
	}
	u, ok := unparen(s.SelectionStatement.ExpressionList).(*cc.UnaryExpression)
	return ok && u.Case == cc.UnaryExpressionNot && identDecl(u.CastExpression) == ps[0].Declarator && tr.isAbortStmt(s.SelectionStatement.Statement)
}

// isAbortStmt reports whether s is a call of abort/exit (possibly braced).
func (tr *translator) isAbortStmt(s *cc.Statement) bool {
	if s == nil {
		return false
	}
	switch s.Case {
	case cc.StatementCompound:
		bl := s.CompoundStatement.BlockItemList
		if bl == nil || bl.BlockItem.Case != cc.BlockItemStmt {
			return false
		}
		for rest := bl.BlockItemList; rest != nil; rest = rest.BlockItemList {
			if rest.BlockItem.Case != cc.BlockItemStmt || !isEmptyStmt(rest.BlockItem.Statement) {
				return false
			}
		}
		return tr.isAbortStmt(bl.BlockItem.Statement)
	case cc.StatementExpr:
		e := s.ExpressionStatement.ExpressionList
		if e == nil {
			return false
		}
		pe, ok := unparen(e).(*cc.PostfixExpression)
		if !ok || pe.Case != cc.PostfixExpressionCall {
			return false
		}
		name := calleeName(pe)
		_, defined := tr.funcs[name]
		return isAbortName(name) && !defined
	}
	return false
}

// constrain tightens b with the constraints the condition c (negated if
// neg) puts on x. Parts it does not understand are ignored, which only
// leaves b wider.
func (l *fnl) constrain(c cc.ExpressionNode, neg bool, t cc.Type, same func(cc.ExpressionNode) bool, b *bounds) {
	if n, ok := c.(*notExpr); ok {
		l.constrain(n.ExpressionNode, !neg, t, same, b)
		return
	}
	switch x := unparen(c).(type) {
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			l.constrain(x.CastExpression, !neg, t, same, b)
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd && !neg {
			l.constrain(x.LogicalAndExpression, false, t, same, b)
			l.constrain(x.InclusiveOrExpression, false, t, same, b)
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr && neg {
			l.constrain(x.LogicalOrExpression, true, t, same, b)
			l.constrain(x.LogicalAndExpression, true, t, same, b)
		}
	case *cc.RelationalExpression:
		ops := map[cc.RelationalExpressionCase]string{cc.RelationalExpressionLt: "<", cc.RelationalExpressionGt: ">",
			cc.RelationalExpressionLeq: "<=", cc.RelationalExpressionGeq: ">="}
		if op, ok := ops[x.Case]; ok {
			l.bound(op, x.RelationalExpression, x.ShiftExpression, neg, t, same, b)
		}
	case *cc.EqualityExpression:
		if x.Case == cc.EqualityExpressionEq && !neg {
			l.bound("==", x.EqualityExpression, x.RelationalExpression, false, t, same, b)
		}
		if x.Case == cc.EqualityExpressionNeq && neg {
			l.bound("==", x.EqualityExpression, x.RelationalExpression, false, t, same, b)
		}
	}
}

// bound applies "a op k" (or "k op a") with a naming x and k a constant,
// when the comparison is exact on x's values.
func (l *fnl) bound(op string, a, k cc.ExpressionNode, neg bool, t cc.Type, same func(cc.ExpressionNode) bool, b *bounds) {
	flip := map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "=="}
	if !same(a) {
		if !same(k) {
			return
		}
		a, k = k, a
		op = flip[op]
	}
	v, ok := l.tr.constIntOrConstGlobal(k)
	if !ok || !isInteger(k.Type()) || !isInteger(a.Type()) {
		return
	}
	ct := cc.UsualArithmeticConversions(a.Type(), k.Type())
	if ct == nil || !fits(a.Type(), ct) || castVal(v, l.tr.intType(ct)) != v {
		return
	}
	if neg {
		op = map[string]string{"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": ""}[op]
	}
	switch op {
	case "<":
		b.hi = min(b.hi, v-1)
	case "<=":
		b.hi = min(b.hi, v)
	case ">":
		b.lo = max(b.lo, v+1)
	case ">=":
		b.lo = max(b.lo, v)
	case "==":
		b.lo, b.hi = max(b.lo, v), min(b.hi, v)
	}
}

// usesExtern reports whether e names an object the program declares extern
// but does not define (fprintf's stderr): such an argument is not read.
func (l *fnl) usesExtern(e cc.ExpressionNode) bool {
	found := false
	walk(e, func(n any) bool {
		if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
			if d, ok := p.ResolvedTo().(*cc.Declarator); ok && l.globalFor(d) == nil {
				if _, ext := l.tr.externs[d.Name()]; ext {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
