package c

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/ncmc"
)

// TestGenMCHeader checks the meaning of each name of <genmc.h> (see
// genmcHeader), each with a correct and a buggy program, under every model
// with its default explorer (translated as ncmc verify translates, ForModel).
func TestGenMCHeader(t *testing.T) {
	const pre = "#include <stdatomic.h>\n#include <assert.h>\n#include <genmc.h>\n"
	cases := []struct {
		name string
		src  string
		want ncmc.Verdict
	}{
		{"assume", `int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x == 3); assert(x == 3); return 0; }`, ncmc.Verified},
		{"assume-buggy", `int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 3 && x <= 4); assert(x == 3); return 0; }`, ncmc.Violation},
		{"spawn-join", `atomic_int x;
void *t(void *a) { atomic_fetch_add(&x, (int)(long)a); return (void *)7; }
int main(void) {
	__VERIFIER_thread_t a = __VERIFIER_spawn(t, (void *)1);
	__VERIFIER_thread_t b = __VERIFIER_spawn_symmetric(t, (void *)2, a);
	void *r = __VERIFIER_join(a);
	__VERIFIER_join_symmetric(b);
	assert((long)r == 7 && x == 3);
	return 0;
}`, ncmc.Verified},
		{"spawn-join-buggy", `atomic_int x;
void *t(void *a) { atomic_fetch_add(&x, 1); return 0; }
int main(void) {
	__VERIFIER_thread_t a = __VERIFIER_spawn(t, 0);
	__VERIFIER_spawn(t, 0);
	__VERIFIER_join(a);
	assert(x == 2);
	return 0;
}`, ncmc.Violation},
		{"spin-markers", `atomic_int flag, data;
void *prod(void *a) { atomic_store(&data, 42); atomic_store(&flag, 1); return 0; }
int main(void) {
	__VERIFIER_spawn(prod, 0);
	int f;
	for (__VERIFIER_loop_begin(); __VERIFIER_spin_start(), f = atomic_load(&flag), __VERIFIER_spin_end(f == 1), f != 1; ) {}
	assert(atomic_load(&data) == 42);
	return 0;
}`, ncmc.Verified},
		{"spin-markers-buggy", `atomic_int flag, data;
void *prod(void *a) { atomic_store(&flag, 1); atomic_store(&data, 42); return 0; }
int main(void) {
	__VERIFIER_spawn(prod, 0);
	int f;
	for (__VERIFIER_loop_begin(); __VERIFIER_spin_start(), f = atomic_load(&flag), __VERIFIER_spin_end(f == 1), f != 1; ) {}
	assert(atomic_load(&data) == 42);
	return 0;
}`, ncmc.Violation},
		{"hints", `atomic_int x;
int main(void) {
	int e = 0;
	__VERIFIER_local_write(atomic_store(&x, 1));
	__VERIFIER_final_write(atomic_store(&x, 2));
	int r = __VERIFIER_speculative_read(atomic_load(&x));
	__VERIFIER_helped_CAS(atomic_compare_exchange_strong(&x, &r, 3));
	e = 3;
	__VERIFIER_helping_CAS(atomic_compare_exchange_strong(&x, &e, 4));
	e = 4;
	int ok = __VERIFIER_confirming_CAS(atomic_compare_exchange_strong(&x, &e, 5));
	assert(r == 2 && ok && __VERIFIER_confirming_read(atomic_load(&x)) == 5 && __VERIFIER_final_CAS(1));
	return 0;
}`, ncmc.Verified},
		{"hints-buggy", `atomic_int x;
int main(void) {
	__VERIFIER_local_write(atomic_store(&x, 1));
	assert(__VERIFIER_speculative_read(atomic_load(&x)) == 0);
	return 0;
}`, ncmc.Violation},
		{"optional", `atomic_int x;
int main(void) {
	__VERIFIER_optional(atomic_store(&x, 1));
	assert(atomic_load(&x) == 0);
	return 0;
}`, ncmc.Verified},
		{"optional-buggy", `int main(void) {
	__VERIFIER_optional(assert(0));
	return 0;
}`, ncmc.Violation},
	}
	for _, c := range cases {
		for _, m := range allModels {
			t.Run(c.name+"/"+m, func(t *testing.T) {
				p, err := Compile("g.c", []byte(pre+c.src), Options{}.ForModel(m, false))
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Unroll: 4, Timeout: 60 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != c.want {
					t.Fatalf("verdict %v (%s), want %v", res.Verdict, res.Reason, c.want)
				}
			})
		}
	}
	// Names of GenMC's interface that are not modelled are rejected.
	_, err := Compile("g.c", []byte(pre+"int main(void) { __VERIFIER_hp_t *hp = __VERIFIER_hp_alloc(); return 0; }\n"), Options{})
	if err == nil {
		t.Errorf("hazard pointers accepted")
	}
}

// TestDefinesIncludes checks Options.Defines and Options.IncludePaths as
// cc -D and -I: a -I directory is searched for quoted includes after the
// file's own directory, and for <...> before the system's; a program's own
// genmc.h found through -I replaces the front end's.
func TestDefinesIncludes(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc")
	own := filepath.Join(dir, "own")
	for _, d := range []string{inc, own} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(inc, "lim.h"), "#define LIMIT 3\n")
	write(filepath.Join(inc, "sys.h"), "#define SYS 4\n")
	write(filepath.Join(dir, "lim.h"), "#define LIMIT 5\n") // next to the file: found first for "lim.h"
	write(filepath.Join(own, "genmc.h"), "#define OWN_GENMC 1\n")
	prog := filepath.Join(dir, "p.c")
	write(prog, `#include <assert.h>
#include "lim.h"
#include <sys.h>
#include <genmc.h>
#ifndef N
#define N 1
#endif
int main(void) { assert(N * LIMIT * SYS == WANT); return 0; }
`)
	cases := []struct {
		name     string
		defines  []string
		includes []string
		want     string // "" verified, "violation", or a substring of the error
	}{
		{"no-flags", nil, nil, "include file not found: <sys.h>"},
		{"include", []string{"WANT=20"}, []string{inc}, ""},
		{"define", []string{"N=3", "WANT=60"}, []string{inc}, ""},
		{"define-buggy", []string{"N=3", "WANT=20"}, []string{inc}, "violation"},
		{"define-no-value", []string{"N", "WANT=20"}, []string{inc}, ""},
		{"own-genmc", []string{"WANT=20 * OWN_GENMC"}, []string{inc, own}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := CompileFile(prog, Options{Defines: c.defines, IncludePaths: c.includes})
			if err != nil {
				if c.want == "" || c.want == "violation" || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("compile: %v, want %q", err, c.want)
				}
				return
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", Unroll: 4})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res.Verdict == ncmc.Violation {
				got = "violation"
			} else if res.Verdict != ncmc.Verified {
				got = string(res.Verdict)
			}
			if got != c.want {
				t.Fatalf("got %q (%s), want %q", got, res.Reason, c.want)
			}
		})
	}
}
