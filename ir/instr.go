package ir

import "fmt"

// ExprKind classifies pure expressions.
type ExprKind uint8

// Expression kinds. Expressions read locals and constants only.
const (
	EConst  ExprKind = iota // Val
	ELocal                  // Local (slot of the current frame)
	EUnary                  // Op A
	EBinary                 // A Op B
	// EGlobalAddr is the address of cell 0 of global Global (block Global+1).
	EGlobalAddr
	// EIndex is the address A + B*Stride, where A points to an array of Len
	// elements; B outside [0, Len) is a runtime error.
	EIndex
	// EField is the address A + Offset, where A is a pointer to a record; a null
	// A is a runtime error.
	EField
	// ECast narrows A to Type.Width bits (sign- or zero-extending per Type.Signed).
	ECast
)

// Operator is a unary or binary operator.
type Operator uint8

// Operators. Arithmetic wraps around in 64 bits; / and % by zero are runtime
// errors; shifts by a count outside [0, 63] are runtime errors.
const (
	OpNeg    Operator = iota // -A
	OpNot                    // !A (logical)
	OpBitNot                 // ^A
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
	OpAnd // bitwise &
	OpOr  // bitwise |
	OpXor
	OpShl
	OpShr
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpLAnd // logical and of already-evaluated operands (no short circuit; the front end lowers && with branches when operands have effects)
	OpLOr

	// Floating-point operators (float.go). Their operands and results are
	// IEEE 754 bit patterns (FloatBits); the format is given by the Type
	// of the expression, as described at each operator. Every operation is
	// rounded to its format (round to nearest even), as C computes with
	// FLT_EVAL_METHOD 0 (gcc on x86-64).

	OpFNeg // -A: A and the result are of format Type (the sign bit flips)
	OpFAdd // A + B: A, B and the result are of format Type
	OpFSub // A - B, as OpFAdd
	OpFMul // A * B, as OpFAdd
	OpFDiv // A / B, as OpFAdd (division by zero gives an infinity or NaN, as in IEEE 754)
	OpFEq  // A == B on float64 operands (a NaN compares unequal to everything); the result is 0 or 1
	OpFNe  // A != B on float64 operands (true when either is a NaN)
	OpFLt  // A < B on float64 operands (false when either is a NaN)
	OpFLe  // A <= B, as OpFLt
	OpFGt  // A > B, as OpFLt
	OpFGe  // A >= B, as OpFLt
	// OpIToF converts the signed integer A to the floating format Type,
	// rounded to nearest even.
	OpIToF
	// OpUToF converts A, read as an unsigned 64-bit integer, to the
	// floating format Type, rounded to nearest even.
	OpUToF
	// OpFToI converts the float64 A to the integer type Type (Width and
	// Signed; Bool is not allowed), truncating toward zero. A NaN, or a
	// value whose truncation is outside the range of Type, is a runtime
	// error (undefined behaviour in C).
	OpFToI
	// OpFExt converts the float32 A to float64 (exactly).
	OpFExt
	// OpFTrunc converts the float64 A to float32, rounded to nearest even
	// (an overflow gives an infinity, as in IEEE 754).
	OpFTrunc
)

var operatorNames = [...]string{"-", "!", "~", "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
	"fneg", "f+", "f-", "f*", "f/", "f==", "f!=", "f<", "f<=", "f>", "f>=", "itof", "utof", "ftoi", "fext", "ftrunc"}

func (o Operator) String() string {
	if int(o) < len(operatorNames) {
		return operatorNames[o]
	}
	return fmt.Sprintf("operator(%d)", o)
}

// Expr is a pure expression tree. A node may be shared by several
// instructions and expressions (the CIR front end shares one node per
// constant, local and global address), so nothing may modify an Expr once
// it is part of a program. Pos may be zero: the interpreter reports errors
// at the instruction's position, and shared leaves carry none.
type Expr struct {
	Kind   ExprKind
	Op     Operator
	Val    int64
	Local  int
	Global int // index into Program.Globals
	A, B   *Expr
	Len    int // EIndex
	Stride int // EIndex
	Offset int // EField
	Type   *Type
	Pos    Pos
}

// Op is an instruction opcode.
type Op uint8

// Instruction opcodes. "Visible" instructions touch shared state and are
// scheduling points; the others run without interruption.
const (
	INop       Op = iota
	IAssign       // Dst = A
	ILoad         // visible: Dst = *Addr (Order)
	IStore        // visible: *Addr = A (Order)
	IRMW          // visible: Dst = old *Addr; *Addr = RMW(old, A) (Order)
	ICAS          // visible: Dst = old *Addr; if old == A { *Addr = B } (Order on success, FailOrder on failure); Dst2 (if >= 0) = success
	IFence        // visible: fence (Order)
	ILock         // visible: lock mutex *Addr (blocks while held)
	IUnlock       // visible: unlock mutex *Addr
	ITryLock      // visible: Dst = 1 and lock if free, else Dst = 0
	IWait         // visible: wait on cond *Addr, releasing mutex *B (B is an address expression); reacquires before continuing
	ISignal       // visible: wake one waiter of cond *Addr
	IBroadcast    // visible: wake all waiters of cond *Addr
	ISpawn        // visible: Dst = handle of a new thread running Func(Args)
	IJoin         // visible: wait for thread A to finish; Dst (if >= 0) = its result
	ICall         // Dst (if >= 0) = Func(Args); for methods Args[0] is the receiver
	IReturn       // return A (nil for void)
	IJump         // goto Target
	IBranch       // if A goto Target else goto Target2
	IAssert       // if !A: assertion violation (Msg)
	IAssume       // if !A: the thread blocks for good (Kind tells assume or spin)
	INondet       // Dst = a nondeterministic value in [A, B]
	IAtomicBegin
	IAtomicEnd
	IAlloc    // Dst = pointer to a fresh heap block of Record (A copies of it when A is not nil: a count in [1, 65536 / Record.Size], else the execution stops with a bound hit); Args give the initial value of each cell (missing ones are 0). Allocation is thread-local: no event.
	ILoopHead // loop bound check, placed at the start of the loop body (executed once per iteration that enters the body): Dst = Dst + 1; if Dst > Bound (0: the global --unroll) the thread stops with "bound hit"
	ISelf     // Dst = the current thread's handle
	IFail     // an unconditional runtime error (Msg), e.g. reach_error()
	// ITLSLoad is Dst = the running thread's copy of thread-local variable
	// Slot (Program.TLS). Only its own thread can reach that copy, so it is
	// not a scheduling point.
	ITLSLoad
	// ITLSStore is the running thread's copy of thread-local variable Slot
	// = A (not a scheduling point, as ITLSLoad).
	ITLSStore
	// IFree is free(Addr) (visible): a null Addr does nothing; otherwise
	// Addr must be the start of a live block allocated with Alloc
	// AllocMalloc or AllocCalloc (else a double-free or invalid-free
	// violation), and the block is freed: every later access to it is a
	// use-after-free violation. Its event is a write of every cell of the
	// block (seg.Event.Msg "free"), so it conflicts with every access to it.
	IFree
)

// MsgExit is the Msg of the IAssume of false that a front end emits for a
// call that ends the process (C's exit, abort): the execution is discarded
// as any failed assumption, but an interpreter checking memory leaks
// (interp.Config.Leaks) checks them there first.
const MsgExit = "exit"

// MsgQuiet as the Msg of an ILock or IUnlock keeps it out of
// counterexamples (a lock a rewriting adds, ir/seclock); any other
// non-empty Msg of theirs is what a counterexample says of the step.
const MsgQuiet = "\x00quiet"

// DestroyedMutex is the value of a mutex's cell after the C front end's
// pthread_mutex_destroy (as in GenMC): the interpreter reports a lock of it.
const DestroyedMutex int64 = -1

// AllocKind says what an IAlloc allocates.
type AllocKind uint8

// Allocation kinds.
const (
	AllocLocal  AllocKind = iota // a local in memory (or other front-end storage): not freeable
	AllocMalloc                  // malloc: freeable; a read of a cell no write has written is an uninitialized-read violation
	AllocCalloc                  // calloc: freeable, zeroed
	// AllocUninit is a local in memory declared without an initializer:
	// not freeable; a read of a cell no write has written is an
	// uninitialized-read violation, as for AllocMalloc; dead when its
	// function returns, as AllocStack.
	AllocUninit
	// AllocStack is a local in memory declared with an initializer (or a
	// parameter whose address is taken): not freeable, and, as an
	// AllocUninit block, dead when its function returns (an interpreter
	// reports a later access as a use after return), except the locals of
	// the main thread's main function, which live while the program runs.
	AllocStack
)

var opNames = [...]string{"nop", "assign", "load", "store", "rmw", "cas", "fence", "lock", "unlock", "trylock", "wait", "signal", "broadcast", "spawn", "join", "call", "return", "jump", "branch", "assert", "assume", "nondet", "atomic_begin", "atomic_end", "alloc", "loophead", "self", "fail", "tls_load", "tls_store", "free"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// IsVisible reports whether instructions with opcode o are scheduling points.
func (o Op) IsVisible() bool {
	switch o {
	case ILoad, IStore, IRMW, ICAS, IFence, ILock, IUnlock, ITryLock, IWait, ISignal, IBroadcast, ISpawn, IJoin, IFree:
		return true
	}
	return false
}

// Next returns the indices of the instructions that may run right after
// in, the instruction at index i of its function: none after a return or
// an unconditional failure, the targets of a jump or a branch, else i+1.
func (in *Instr) Next(i int) []int {
	switch in.Op {
	case IReturn, IFail:
		return nil
	case IJump:
		return []int{in.Target}
	case IBranch:
		return []int{in.Target, in.Target2}
	}
	return []int{i + 1}
}

// RMWKind is the operation of an IRMW instruction.
type RMWKind uint8

// RMW operations.
const (
	RMWAdd RMWKind = iota
	RMWSub
	RMWXchg
	RMWAnd
	RMWOr
	RMWXor
)

var rmwNames = [...]string{"fetch_add", "fetch_sub", "exchange", "fetch_and", "fetch_or", "fetch_xor"}

func (k RMWKind) String() string {
	if int(k) < len(rmwNames) {
		return rmwNames[k]
	}
	return fmt.Sprintf("rmw(%d)", k)
}

// Apply returns the value an RMW of kind k writes, given the old value and the operand.
func (k RMWKind) Apply(old, v int64) int64 {
	switch k {
	case RMWAdd:
		return old + v
	case RMWSub:
		return old - v
	case RMWXchg:
		return v
	case RMWAnd:
		return old & v
	case RMWOr:
		return old | v
	case RMWXor:
		return old ^ v
	}
	panic("ir: bad RMW kind")
}

// IntWrap reduces the result of an IRMW to a fixed-width integer, as C's
// narrow integer types wrap around (an atomic_fetch_add on an int wraps at
// 32 bits). Zero keeps the 64-bit result; otherwise the low bits give the
// width (8, 16 or 32) and WrapSigned marks a signed type (sign-extended;
// unsigned types are zero-extended).
type IntWrap uint8

// WrapSigned marks an IntWrap of a signed type.
const WrapSigned IntWrap = 0x80

// MakeWrap returns the IntWrap of an integer of width bits (0 or 64 and
// more: none).
func MakeWrap(width int, signed bool) IntWrap {
	if width <= 0 || width >= 64 {
		return 0
	}
	w := IntWrap(width)
	if signed {
		w |= WrapSigned
	}
	return w
}

// Width returns the width in bits (0: no wrap).
func (w IntWrap) Width() int { return int(w &^ WrapSigned) }

// Apply reduces v to the wrap's width.
func (w IntWrap) Apply(v int64) int64 {
	n := uint(w.Width())
	if n == 0 {
		return v
	}
	if w&WrapSigned != 0 {
		return v << (64 - n) >> (64 - n)
	}
	return int64(uint64(v) & (1<<n - 1))
}

func (w IntWrap) String() string {
	switch {
	case w == 0:
		return ""
	case w&WrapSigned != 0:
		return fmt.Sprintf("i%d", w.Width())
	}
	return fmt.Sprintf("u%d", w.Width())
}

// RMWResult returns the value IRMW in writes, given the old value and the
// operand: its operation's result, wrapped to in.Wrap.
func (in *Instr) RMWResult(old, v int64) int64 { return in.Wrap.Apply(in.RMW.Apply(old, v)) }

// AssumeKind distinguishes user assumptions from spin-loop waits.
type AssumeKind uint8

// Assume kinds.
const (
	AssumeUser AssumeKind = iota // assume(c): a false c discards the execution (blocked)
	AssumeSpin                   // await(c) or a side-effect-free spin loop: a failed iteration blocks (GenMC's spin-assume)
	// AssumeBarrier is AssumeSpin for the wait of a front end's barrier
	// (C's pthread_barrier_wait): the load right before it reads a cell
	// that only the barrier's own atomic accesses touch, so no data race
	// involves it, and a graph explorer may run that load only once the
	// write it waits for is there (explore/trustx).
	AssumeBarrier
)

// Spin reports whether a false assumption of kind k is a spin-assume's
// failed iteration (AssumeSpin, AssumeBarrier) rather than a user's assume.
func (k AssumeKind) Spin() bool { return k == AssumeSpin || k == AssumeBarrier }

// Instr is one instruction. Unused operand fields are nil / -1 / zero.
// The one-byte fields come first so that they share a word (a front end
// holds one Instr per instruction of a whole program: 168 bytes, not 184).
type Instr struct {
	Op        Op
	Order     Order
	FailOrder Order
	RMW       RMWKind
	Alloc     AllocKind  // IAlloc
	Assume    AssumeKind // IAssume
	Wrap      IntWrap    // IRMW: the width its result wraps at (0: 64 bits)
	Pos       Pos
	Dst       int // destination local, -1 if none
	Dst2      int // second destination (ICAS success flag), -1 if none
	Addr      *Expr
	A, B      *Expr
	Args      []*Expr
	Func      *Func
	Target    int
	Target2   int
	Msg       string  // IFail's message; MsgExit on an IAssume that ends the process; ILock's and IUnlock's counterexample note (MsgQuiet: none)
	Record    *Record // IAlloc
	Bound     int     // ILoopHead: 0 means the global unroll bound
	Slot      int     // ITLSLoad, ITLSStore: index into Program.TLS
}

// MayFail reports whether evaluating e (nil: nothing) may raise a runtime
// error: a division or remainder, a shift or a floating-point operator
// (any of them), an index unless it is a constant in range, a field of a
// record unless nonNull says its address is never null (nonNull may be
// nil: every field may fail).
func (e *Expr) MayFail(nonNull func(rec *Expr) bool) bool {
	for e != nil {
		switch e.Kind {
		case EIndex:
			if b := e.B; b == nil || b.Kind != EConst || b.Val < 0 || b.Val >= int64(e.Len) {
				return true
			}
			e = e.A
		case EField:
			if nonNull == nil || !nonNull(e.A) {
				return true
			}
			e = e.A
		case EUnary, EBinary:
			switch {
			case e.Op == OpDiv, e.Op == OpMod, e.Op == OpShl, e.Op == OpShr, e.Op >= OpFNeg:
				return true
			}
			if e.B.MayFail(nonNull) {
				return true
			}
			e = e.A
		case ECast:
			e = e.A
		default:
			return false
		}
	}
	return false
}

// AddrBase returns the address a indexes or selects a field of, through any
// number of them (a itself if it does neither).
func AddrBase(a *Expr) *Expr {
	for a != nil && (a.Kind == EIndex || a.Kind == EField) {
		a = a.A
	}
	return a
}

// GlobalLocals returns the locals of f (not parameters) that only ever
// hold the address of (a cell of) one global: every instruction that
// writes them assigns an address of that global.
func (f *Func) GlobalLocals() map[int]int {
	cs := map[int]int{}
	bad := map[int]bool{}
	for i := range f.Body {
		in := &f.Body[i]
		for _, d := range []int{in.Dst, in.Dst2} {
			if d < 0 || bad[d] || d == in.Dst2 && in.Op != ICAS {
				continue
			}
			g, ok := 0, false
			if in.Op == IAssign && d == in.Dst {
				if a := AddrBase(in.A); a != nil && a.Kind == EGlobalAddr {
					g, ok = a.Global, true
				}
			}
			if old, seen := cs[d]; !ok || seen && old != g {
				bad[d] = true
				delete(cs, d)
				continue
			}
			cs[d] = g
		}
	}
	for d := range cs {
		if d < f.NumParams {
			delete(cs, d)
		}
	}
	return cs
}
