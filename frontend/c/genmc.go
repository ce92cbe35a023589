package c

// genmcHeader is the text of <genmc.h> as the front end provides it (in a
// virtual include directory searched after all others, so a genmc.h of the
// program's own, or one found through -I, takes precedence). It declares
// the part of GenMC's interface that ncmc gives a meaning to; it is written
// for ncmc, not taken from GenMC. What each name means (see doc.go,
// "GenMC's genmc.h"):
//
//   - __VERIFIER_assume(c): IAssume(c), as in GenMC.
//   - __VERIFIER_nondet_int(): a nondeterministic int, with the front end's
//     usual range rules (GenMC returns a fixed pseudo-random sequence
//     instead; ncmc explores every value or reports the call).
//   - __VERIFIER_thread_t, __VERIFIER_spawn(f, arg), __VERIFIER_join(t):
//     pthread_t, pthread_create and pthread_join with the result returned;
//     the _symmetric variants are GenMC's symmetry-reduction hints and
//     behave as the plain ones.
//   - __VERIFIER_loop_begin(), __VERIFIER_spin_start(): markers, no
//     effect. __VERIFIER_spin_end(c): a spin-assume of c (an iteration that
//     ends with c false blocks), GenMC's meaning.
//   - __VERIFIER_local_write, __VERIFIER_final_write, __VERIFIER_helped_CAS,
//     __VERIFIER_helping_CAS, __VERIFIER_speculative_read,
//     __VERIFIER_confirming_read, __VERIFIER_confirming_CAS and
//     __VERIFIER_final_CAS: hints to GenMC's reductions; each is its
//     statement or expression.
//   - __VERIFIER_optional(s): s may run, and an execution that runs it is
//     discarded at its end (as in GenMC, where the block ends with an
//     assume(0)).
//
// Hazard pointers (__VERIFIER_hp_*), persistency (__VERIFIER_palloc,
// __VERIFIER_pbarrier, __VERIFIER_persistent_storage) and the recovery
// routine are not declared: a program using them is rejected.
const genmcHeader = `/* genmc.h: GenMC's verification interface, as modelled by ncmc's C front end. */
#ifndef __GENMC_H__
#define __GENMC_H__
#include <stdbool.h>
#include <pthread.h>

void __VERIFIER_assume(bool);
int __VERIFIER_nondet_int(void);
_Bool __VERIFIER_nondet_bool(void);

typedef pthread_t __VERIFIER_thread_t;
__VERIFIER_thread_t __VERIFIER_spawn(void *(*)(void *), void *);
__VERIFIER_thread_t __VERIFIER_spawn_symmetric(void *(*)(void *), void *, __VERIFIER_thread_t);
void *__VERIFIER_join(__VERIFIER_thread_t);
void __VERIFIER_join_symmetric(__VERIFIER_thread_t);

void __VERIFIER_loop_begin(void);
void __VERIFIER_spin_start(void);
void __VERIFIER_spin_end(bool);

#define __VERIFIER_local_write(s) do { s; } while (0)
#define __VERIFIER_final_write(s) do { s; } while (0)
#define __VERIFIER_helped_CAS(c) do { c; } while (0)
#define __VERIFIER_helping_CAS(c) do { c; } while (0)
#define __VERIFIER_speculative_read(c) (c)
#define __VERIFIER_confirming_read(c) (c)
#define __VERIFIER_confirming_CAS(c) (c)
#define __VERIFIER_final_CAS(c) (c)
#define __VERIFIER_optional(s) do { if (__VERIFIER_nondet_bool()) { s; __VERIFIER_assume(0); } } while (0)

#endif
`
