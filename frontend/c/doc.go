// Package c is ncmc's front end for C: it translates the C of the SV-COMP
// ConcurrencySafety pthread tasks into an ir.Program.
//
// The program is preprocessed, parsed and type-checked by modernc.org/cc/v4
// (in the ILP32 data model, <stdatomic.h> also includes <stdint.h>, as
// clang's does: GenMC's tests rely on it)
// against the host C library's headers (the host C compiler, gcc or cc, must
// be installed: it supplies the predefined macros and include paths). The
// default data model is ILP32, that of the SV-COMP concurrency tasks: the
// predefined macros of gcc -mx32 with the host's x86-64 headers, so int,
// long and pointers are 32 bits and long long is 64. LP64 is available
// through Options. Headers included with quotes are looked up next to the
// file first.
//
// The front end first tries its own compact versions of <assert.h>,
// <stdlib.h>, <stdio.h>, <string.h>, <stdint.h>, <limits.h>, <time.h> and
// <pthread.h> (include/, embedded; x86-64 glibc 2.36's types, sizes and
// constants), which take a fraction of the time of glibc's, and translates
// with the system headers, as before, whenever the result could differ (a
// header it does not provide, a name or macro glibc declares and its own
// headers do not, a feature test macro, any error): see ownhdr.go and
// docs/c.md. NCMC_HEADERS=system turns them off.
//
// Options.Defines and Options.IncludePaths are cc's -D and -I (ncmc verify
// -DN=10 -I dir): a -I directory is searched for #include "..." after the
// including file's directory and for #include <...> before the system
// directories. The front end provides <genmc.h> (see below) in a directory
// searched after all others.
//
// # Errors: invalid versus unsupported
//
// A program that is not valid C (a syntax or type error found by cc) yields
// a diag.ErrorList: bad input. A valid program that uses a construct this
// front end cannot translate faithfully yields an *Unsupported listing each
// such construct with its position ("file:line:col: unsupported: ..."); a
// checker must then answer "unknown", never a verdict. Nothing is
// approximated silently: every construct is either translated with its C
// meaning (as restricted below) or reported.
//
// A file without main (an empty file included) is bad input. So is a file
// whose brackets ((), [] and {} together) nest more than MaxNesting (1000)
// deep: the check runs on the text before the parser sees it (the parser
// would exhaust its stack), so brackets produced by macros or in included
// headers are not counted. Errors name the user's file, line and column;
// a long source line is shown as a window around the column.
//
// # Memory and values
//
// Memory is a sequence of cells, one per scalar: an integer of any width, a
// pointer, a pthread_t, a mutex or a condition variable. Arrays and structs
// are laid out cell by cell, so pointer arithmetic and indexing move by
// whole elements and offsetof(T, m) (written &((T*)0)->m, as glibc's macro
// and the Linux container_of do) is the member's offset in cells. The
// members of a union all start at its first cell; a union whose members
// agree on every cell they share (integers of one width, pointers, the same
// synchronization type) is supported, and reading a member other than the
// one written reinterprets the shared cells in the reader's type (union.go).
// Byte-level reinterpretation is not modelled: unions whose members overlap
// cells of different widths or kinds, member access on an _Atomic struct or
// union object, arithmetic on a pointer converted to char* or void* (except by an
// offsetof), bit-fields, and memset/memcpy/memmove other than on a
// constant number of whole elements of a known type (mem.go: a store per
// cell; memset with byte 0, or any byte on char elements) are
// unsupported. The elements of an array of an atomic type and objects
// reached through a pointer to one are atomic.
//
// String literals, strlen, strcmp, strncmp, strcpy and strncpy: see
// strings.go (a literal is a hidden read-only global array of char; the
// functions are loops of one access per char).
//
// Integers keep their C types: arithmetic is done in 64 bits and the result
// is narrowed to the operand type with ir.ECast, so unsigned types wrap
// around and signed overflow wraps as gcc's code does; the usual arithmetic
// conversions and integer promotions apply, and conversions between integer
// types truncate and extend as on x86 (64-bit unsigned division, remainder,
// comparison and right shift are built from the IR's signed operations).
// A differential test against the host gcc checks this on thousands of
// random expressions. Division by zero and shift counts outside [0, 63] are
// runtime errors of the checker (C leaves them undefined). A pointer
// converted to an integer keeps its whole (checker-internal) value, so it
// can be tested and converted back, but arithmetic on it is not meaningful.
//
// float is an IR float of 32 bits, double and long double of 64
// (ir.Float32, ir.Float64; float.go): a cell holds the IEEE 754 bit pattern
// and every operation is one IR float operator rounded to its type, as gcc
// computes on x86-64 (FLT_EVAL_METHOD 0), so float + float is rounded to
// float and float + double is a double operation. Literals are rounded
// once, from their spelling, to their own type. Comparisons compare
// values (NaN unequal to everything); the truth of a float is f != 0 (-0.0
// is false, a NaN true). An integer converted to a float rounds to
// nearest even; a float converted to an integer truncates toward zero, and
// a NaN or a value out of the target type's range (undefined in C) is a
// runtime error. long double is computed as a double, not in the x87
// 80-bit format: a program whose result depends on the extra precision may
// get another answer than with gcc. A compound assignment or ++/-- on an
// _Atomic float is one seq_cst read-modify-write (a compare-exchange loop,
// as gcc compiles it); a compare-exchange compares representations.
// TestFloatDiff checks random float expressions against the host gcc.
// _Float16, _Float128, decimal and complex types, nondeterministic floats
// and atomic fetch-add on floats (not C11) are unsupported.
//
// Whole _Atomic struct and union objects (atomicstruct.go): atomic_load,
// atomic_store, atomic_exchange, atomic_compare_exchange_* of the whole
// object and plain assignment to or from it are each one atomic operation.
// Under sc, tso and pso each is an atomic section (ir.IAtomicBegin,
// IAtomicEnd) that loads every cell or stores every cell and then fences
// (so that under tso and pso the new value reaches memory inside the
// section). Under ra and rc11 (Options.NoAtomicSections), as gcc's
// libatomic does, each takes a hidden lock of the object (ir.ILock, relaxed
// cell accesses, ir.IUnlock); the locks are a hidden table of 64 mutexes
// ("atomic.locks") indexed by a hash of the object's address, so that
// distinct objects almost always have distinct locks (objects that share a
// lock only synchronise more). The operations on one object are then
// sequentially consistent among themselves and synchronise as acquire and
// release whatever their memory orders (stronger than C11 for relaxed
// ones, as with libatomic); against other seq_cst accesses they keep C11's
// seq_cst guarantees, but are no fences. A compare-exchange compares the
// representations cell by cell under the lock and on failure copies the
// object into *expected. TestAtomicStructs runs each case under every
// model, and under ra and rc11 compares the trust and graph explorers.
//
// Globals (and function-local statics) are IR globals, initialized with
// their constant initializers (scalars, nested braces with brace elision,
// one-level designators, GNU range designators [lo ... hi] = constant on
// arrays of scalars, addresses of globals, PTHREAD_*_INITIALIZER).
// Every access to memory another thread could see is its own visible
// instruction: reads are ILoads and writes IStores with order na, or sc for
// objects declared _Atomic (directly or through a typedef such as
// atomic_int); _Atomic(T *) p and T * _Atomic p make the pointer p atomic;
// accesses through a variable declared "_Atomic int *p" (*p, p[i]) are
// atomic, as through atomic_int *p (the parser's types do not record the
// atomic pointee, so it is read from the declaration's syntax; a copy of p
// into a plain int * is not atomic, as C drops the qualifier with a
// warning); "_Atomic int **p" is unsupported. Locals are IR
// locals (invisible to other threads) unless their address is taken or
// they are arrays or structs: such a local lives in a heap block allocated
// once per call of its function (so every execution of its declaration,
// e.g. in a loop, uses the same object, as on a stack); its initializer is
// written by stores where it runs, or put into the allocation when it is
// constant and runs once per call. Taking the address of a local only to
// pass it as the out-parameter of pthread_create, pthread_join or an
// __atomic builtin does not put it in memory.
//
// A local declared without an initializer starts uninitialized (uninit.go):
// in memory (an array, a struct, a local whose address is taken) its cells
// hold interp.Uninit until written (ir.AllocUninit), and a register local
// that may be read before it is assigned on some path is moved into such
// memory, so reading it unassigned is an "uninitialized-read" violation in
// exactly the executions that do. With Options.ZeroHeap (SV-COMP tasks,
// which use indeterminate values as nondeterminism) memory locals start
// zeroed and such a register read is unsupported. A malloc'd block starts uninitialized: each of its cells
// holds interp.Uninit until it is written, and a read (load,
// read-modify-write, compare-exchange) of such a cell is an
// "uninitialized-read" violation, as GenMC reports a read of dynamic memory
// that reads from the initializer; the read is reported in exactly the
// executions where no write to the cell precedes it (a racing write that
// comes first initializes it). calloc'd blocks start zeroed. Struct assignment and initialization copy cell
// by cell. A struct or union argument of a function of the program is
// passed by value: the caller passes the object's address and the callee
// copies it, cell by cell, into a local object of its own at entry;
// returning one by value, or passing one through a function pointer, is
// unsupported.
//
// malloc(sizeof(T) * n), malloc(n * sizeof(T)), calloc(n, sizeof(T)) and
// alloca with a constant n allocate a fresh block of n T (other sizes are
// unsupported); malloc(n * sizeof(T)) and calloc(n, sizeof(T)) with an n
// that is not a constant allocate n elements when they run (IAlloc's A; a
// count outside 1 to 65536 cells is a bound hit, so malloc(0) gives
// unknown); allocation never fails, as SV-COMP assumes (ir.IAlloc with
// ir.AllocMalloc, AllocCalloc; alloca is a local, AllocLocal).
//
// # Memory safety
//
// free(p) is ir.IFree, a visible step: free(NULL) does nothing; a pointer
// that is not the start of a live malloc'd or calloc'd block is an
// "invalid-free" violation (a global, a local, alloca memory, the middle of
// a block), a block already freed a "double-free" one. Every later access
// to a freed block (load, store, read-modify-write, lock, a store buffer
// flushing into it under tso and pso) is a "use-after-free" violation.
// Under sc, tso and pso the free is a write of every cell of the block, so
// the explorers order it against every access to the block (the accesses
// that come after it are found in some explored execution); the programs
// using free run on the stateful explorer (vmcr and mcr do not take free).
// Under ra and rc11 (graph explorer) an access is reported when it is added
// to the execution after the free; an access that races with the free
// without being ordered after it in any explored graph is not reported (a
// data race between the free and the access, which GenMC reports as an
// access to freed memory).
//
// pthread_mutex_destroy (mtx_destroy) stores ir.DestroyedMutex (-1, as
// GenMC) into the mutex and fences; a later lock or trylock of it is a
// "destroyed-mutex" violation, and when a program destroys mutexes,
// pthread_mutex_init (mtx_init) stores the unlocked state, so a mutex can
// be initialized again. Under ra and rc11 (Options.NoAtomicSections) the
// stores are release stores without the fence: the graph explorers place
// them in the mutex's coherence order with the locks and unlocks, and a
// lock that comes after the destroy (reads -1) is the violation
// (TestDestroyedMutexGraph). Each violation kind has a counterexample
// (TestMemorySafety).
//
// A local in memory dies when its function returns (ir.AllocStack, and
// ir.AllocUninit for one without an initializer): the interpreter frees
// the returning frame's blocks (the main function's locals, which threads
// may use, live while the program runs), and a later access through a
// dangling pointer is a "use-after-return" violation (GenMC's stack-freed
// test), a free of it an "invalid-free" one. Under-approximation: the end
// of a lifetime is no event of its own, so an access by another thread is
// reported when it runs after the return in an explored execution (always
// when a join or the owner's later steps order it after the return; an
// access racing with the return may be explored only before it). alloca
// memory is not freed at return.
// Memory leaks are not reported by the front end; the interpreter checks
// them on request (interp.Config.Leaks, for SV-COMP's valid-memtrack and
// valid-memcleanup) at the end of every complete execution and at the
// process-ending calls, whose assume of false carries ir.MsgExit.
//
// # Statements and functions
//
// All statements are supported except asm (other than the compiler
// barriers asm("") and asm volatile("" ::: "memory"), which are no-ops)
// and computed goto: if, switch
// (with fall-through and default), while, do, for, break, continue, return,
// goto and labels, GNU statement expressions, __auto_type and typeof. Loops
// get an ILoopHead with bound 0 (the global --unroll): a thread that would
// start one more iteration stops with "bound hit" and the verdict becomes
// unknown. A counted loop, for (i = a; i < b; i++) with constants a and b
// (const globals included) and a body that does not write i, gets its trip
// count as its bound, which it never hits. A backward goto is bounded in the
// same way as a loop. An empty-bodied loop whose condition only reads
// (while (c); while (c) {}) is a spin loop: it becomes a spin-assume of !c
// (see docs/cir.md, "await").
//
// Under tso and pso (Options.Hardware; every command sets it through
// Options.ForModel) atomic accesses get the fences of the usual C11
// mappings to that hardware, which itself ignores the orders: under tso a
// seq_cst store is followed by fence(sc); under pso a release store is
// preceded by fence(sc), a seq_cst store also followed by one, and a
// release, acq_rel or seq_cst fence is fence(sc) (TestHardwareFences).
// atomic_fetch_add/sub on an atomic pointer adds elements (C11, clang) as a
// compare-exchange loop; gcc's __sync_ builtins on a pointer to an object
// wider than a byte (which gcc counts in bytes) are unsupported.
// atomic_flag_test_and_set and atomic_flag_clear access the flag's one
// cell.
//
// With Options.DropDeadLoads (ncmc verify under sc, tso and pso without
// --races), a load of a global (a constant address that cannot fail)
// whose value no instruction reads is a no-op (deadload.go): under an
// interleaving model it changes no state, so no final state or violation is
// lost or added; only executions that differ in what it read are merged
// (TestDropDeadLoads). It is not done under ra and rc11, where an acquire
// load orders what follows it, nor for data races.
// More generally (spin.go), in a loop whose paths back to its head only
// read shared memory (loads, compare-exchanges, fences) and assign locals,
// an iteration in which no compare-exchange succeeded and every local
// written on those paths and live at the head is unchanged ends with a
// failed spin-assume: it changed nothing, so dropping the executions that
// contain it loses no reachable state, and such a spin loop never hits the
// loop bound. gcc's atomic min and max are such compare-exchange loops; a
// narrow atomic add or sub is one IRMW whose result wraps at the type's
// width (ir.IntWrap).
//
// Functions are IR functions; a function may be called before its
// definition (through a prototype), recursively and mutually recursively.
// Only those main can reach (by calls, as thread start routines or as
// values) are translated. A function of the program used as a value is a
// pointer to a block of its own; a call through a pointer tries the
// program's functions used as values whose signature matches (funcptr.go),
// and an invalid pointer is a runtime error. Pointers to library
// functions, variadic functions, and main reading argc/argv are
// unsupported. Calls of
// functions neither defined in the program nor listed below are
// unsupported.
//
// # Under-approximation
//
// With Options.UnderApproximate some unsupported constructs are translated
// by keeping only part of their behaviour, so that every execution of the
// result is (a prefix of) an execution of the C program: a violation found
// is real, but finding none proves nothing (ncmc sweep then answers
// unknown, never true). CompileApprox lists each approximation with its
// position:
//
//   - a __VERIFIER_nondet_X() call with too many values explores 0..4, -1
//     and -2 (signed types) and the two smallest and two largest values of
//     X;
//   - time(NULL) returns 0 (a clock that stays in the first second);
//   - a call of a function that is neither defined nor modelled cuts the
//     calling thread off there (an assume of false, arguments unevaluated);
//   - main runs with argc = 1 and argv a null pointer (when neither has
//     its address taken);
//   - a variable-length array gets a fixed capacity of 64 elements: an
//     access beyond it is a runtime error (out of bounds), never a value.
//
// # Library and SV-COMP functions
//
//   - reach_error() and __VERIFIER_error() are the SV-COMP error
//     functions: a call is an IFail with message MsgReachError or
//     MsgVerifierError (IsErrorCall recognizes them), whatever body the
//     program gives them. assert() (glibc's __assert_fail) is an IFail
//     "assertion failed: <condition>".
//   - abort(), exit() and friends stop the calling thread for good (an
//     IAssume of false): the execution is discarded as blocked. Other
//     threads keep running, which is sound for reachability because the
//     real process could have delayed the exiting thread; an execution
//     where main returns while threads run is treated the same way.
//   - __VERIFIER_assume(c) is IAssume(c); so is assume_abort_if_not(c) when
//     the program does not define it (when it does, its body is used).
//     __VERIFIER_assert(c) without a definition calls reach_error if !c.
//   - __VERIFIER_atomic_begin() and __VERIFIER_atomic_end() are
//     IAtomicBegin and IAtomicEnd; a function whose name starts with
//     __VERIFIER_atomic_ runs as one atomic section (its body is wrapped in
//     them, also around each return). A section may block on an assume.
//     Every section starts with a relaxed fence, a visible no-op, so that
//     other threads can run between the thread's previous step and the
//     section (the interpreter starts a section right after that step).
//   - __VERIFIER_nondet_X() is INondet over the values of X's return type,
//     when there are at most Options.MaxNondetValues (256) of them (bool,
//     char, unsigned char). For wider types the front end narrows the range
//     exactly or reports "unsupported: unbounded nondeterministic input":
//     the range is narrowed when the call's value is only used as a truth
//     value (if (__VERIFIER_nondet_int()), or a local only ever tested for
//     zero), which explores 0 and 1, and when the value is assigned to a
//     variable and the very next statement assumes a constant range of it
//     (x = __VERIFIER_nondet_uint(); if (!(x >= 5 && x <= 10)) abort(); or
//     assume_abort_if_not / __VERIFIER_assume), which explores that range
//     and keeps the assumption. For a global the narrowing is only done in
//     main before any thread can have been created. Nondeterministic values
//     are thus never explored over a partial range: a verdict covers every
//     value.
//   - pthread_create (the start routine must be a function of the program;
//     attributes are ignored), pthread_join (with the thread's result),
//     pthread_exit (in thread start routines and main only),
//     pthread_self, pthread_equal; pthread_mutex_lock, unlock and trylock
//     (0 or EBUSY), init and destroy (mutexes start unlocked; see
//     "Memory safety" for destroy);
//     pthread_cond_wait, signal, broadcast, init, destroy. Condition
//     variables have no spurious wake-ups (the IR's semantics).
//   - Thread-specific keys (keys.go): pthread_key_create, setspecific,
//     getspecific, key_delete and C11's tss_create, tss_set, tss_get,
//     tss_delete. A key is a number from a hidden seq_cst counter; each
//     thread has 8 thread registers, one per key, NULL at its start. A 9th
//     key in one execution is a bound hit (unknown); a destructor is
//     unsupported (its calls at thread exit are not modelled).
//     pthread_create and the mutex functions always succeed and return 0.
//     Barriers (pthread_barrier_*, barrier.go: reusable, one
//     PTHREAD_BARRIER_SERIAL_THREAD per round) and read-write locks
//     (pthread_rwlock_*, rwlock.go: no writer preference) are lowered onto
//     seq_cst read-modify-writes, compare-exchange loops and
//     spin-assumes (a barrier's wait is ir.AssumeBarrier, which the trust
//     explorer runs only once the round is complete); a thread that can
//     never pass one is blocked, not a deadlock. C11 <threads.h> (thrd_*, mtx_* without mtx_recursive,
//     cnd_*) is the pthread model. Semaphores (sem_init, wait, trywait,
//     post, getvalue, destroy) and spin locks (pthread_spin_*) are one
//     cell each, lowered in the same way (sem.go); so is pthread_once (the
//     first caller runs the init routine, the others await its end).
//     Thread-specific keys, recursive mutexes and timed waits are
//     unsupported.
//   - Thread-local variables (__thread, _Thread_local): an integer one
//     whose address is never taken is a thread register (ir.Program.TLS,
//     ITLSLoad/ITLSStore; every thread starts with the initial value; not
//     a scheduling point, as no other thread can reach it). Any other is a
//     per-thread block, allocated with the variable's initial value by each
//     thread on its first access and found through a table indexed by the
//     thread handle (the IR global NAME.tls, 256 entries: a thread beyond
//     that gets a runtime error). Each access loads the thread's table
//     entry.
//   - C11 <stdatomic.h> operations (through gcc's __atomic builtins) and the
//     __sync builtins: loads, stores, exchange, fetch-and-op and op-and-fetch
//     (add, sub, and, or, xor), compare-exchange strong and weak (a weak one
//     may also fail spuriously), test-and-set, clear and fences, with their
//     memory orders (consume is treated as acquire). A compare-exchange
//     failure order of release or acq_rel, which C forbids, is accepted as
//     compilers do: as its load part, relaxed or acquire (clang's choice;
//     gcc uses seq_cst, whose behaviours are a subset). Read-modify-writes are
//     IRMW/ICAS, except add and sub on integers narrower than 64 bits
//     (an IRMW computes in 64 bits): a relaxed load of the old value and
//     a compare-exchange of it with the wrapped-around result, with the
//     RMW's order, repeated while it fails; a failed iteration changes
//     nothing and is discarded (spin loops, below), so what remains is one
//     compare-exchange that reads and writes as the RMW, under every
//     model. gcc's __atomic_fetch_max/min, __atomic_max/min_fetch and
//     __sync_fetch_and_(u)max/(u)min are such loops too (compared in the
//     pointee's signedness, or unsigned for umax/umin).
//   - Output (printf, puts, ...) and sleep/usleep/sched_yield are
//     no-ops whose arguments are still evaluated; using the result of an
//     output function is unsupported. __builtin_expect(e, c) is e.
//
// # GenMC's genmc.h
//
// #include <genmc.h> gives GenMC's verification interface GenMC's meaning
// where it has one for safety, and ignores pure hints (genmcHeader):
//   - __VERIFIER_assume(c) is IAssume(c); __VERIFIER_nondet_int() is a
//     nondeterministic int under the rules above (GenMC returns a
//     pseudo-random sequence instead).
//   - __VERIFIER_spawn(f, arg) and __VERIFIER_join(t) are pthread_create
//     (returning the thread) and pthread_join (returning its result);
//     __VERIFIER_spawn_symmetric and __VERIFIER_join_symmetric, hints to
//     GenMC's symmetry reduction, are the same.
//   - __VERIFIER_spin_end(c) is a spin-assume of c (ir.AssumeSpin: an
//     iteration of a marked spin loop that ends with c false blocks, as in
//     GenMC); __VERIFIER_loop_begin() and __VERIFIER_spin_start() are
//     markers without effect.
//   - Hints, translated as their statement or expression alone:
//     __VERIFIER_local_write, __VERIFIER_final_write, __VERIFIER_helped_CAS,
//     __VERIFIER_helping_CAS, __VERIFIER_speculative_read,
//     __VERIFIER_confirming_read, __VERIFIER_confirming_CAS,
//     __VERIFIER_final_CAS.
//   - __VERIFIER_optional(s): s may run, and an execution that runs it is
//     then discarded (GenMC ends the block with an assume of false).
//   - Not modelled, so a program using them is rejected: hazard pointers
//     (__VERIFIER_hp_*), persistency (__VERIFIER_palloc, __VERIFIER_pbarrier,
//     __VERIFIER_persistent_storage) and recovery routines.
//
// The evaluation order of operands (unspecified in C) is left to right.
package c
