package ncmc

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ncmc/frontend"
	cfront "ncmc/frontend/c"
	"ncmc/ir"
)

// raceCase is a program with its expected data-race verdict: no race
// (lines nil) or a race between the accesses on lines[0] and lines[1] (in
// either order).
type raceCase struct {
	name  string
	src   string
	lines []int
}

var cirRaceCases = []raceCase{
	{name: "unprotected", lines: []int{4, 8}, src: `global x: int;
global r: int;
fn t() {
    x = 1;
}
fn main() {
    let h = spawn t();
    r = x;
    join(h);
}
`},
	{name: "before-spawn-after-join", src: `global x: int;
fn t() {
    x = x + 1;
}
fn main() {
    x = 1;
    let h = spawn t();
    join(h);
    x = 3;
}
`},
	{name: "same-mutex", src: `global m: mutex;
global x: int;
fn t() {
    lock(m);
    x = x + 1;
    unlock(m);
}
fn main() {
    let h = spawn t();
    lock(m);
    x = x + 1;
    unlock(m);
    join(h);
}
`},
	{name: "different-mutexes", lines: []int{6, 13}, src: `global m: mutex;
global n: mutex;
global x: int;
fn t() {
    lock(m);
    x = 1;
    unlock(m);
}
fn main() {
    let h = spawn t();
    lock(n);
    let v = 0;
    v = x;
    unlock(n);
    join(h);
}
`},
	{name: "read-read", src: `global x: int = 5;
global r: int;
fn t() {
    let v = x;
}
fn main() {
    let h = spawn t();
    let w = x;
    join(h);
}
`},
	{name: "atomic-blocks", src: `global x: int;
fn t() {
    atomic { x = x + 1; }
}
fn main() {
    let h = spawn t();
    atomic { x = x + 2; }
    join(h);
}
`},
	{name: "atomic-block-vs-plain", lines: []int{3, 7}, src: `global x: int;
fn t() {
    atomic { x = 1; }
}
fn main() {
    let h = spawn t();
    x = 2;
    join(h);
}
`},
	{name: "message-passing-rel-acq", src: `global data: int;
atomic global flag: int;
fn writer() {
    data = 42;
    store(flag, 1, rel);
}
fn main() {
    let w = spawn writer();
    let f = load(flag, acq);
    if (f == 1) {
        let d = data;
    }
    join(w);
}
`},
	{name: "message-passing-rlx", lines: []int{4, 11}, src: `global data: int;
atomic global flag: int;
fn writer() {
    data = 42;
    store(flag, 1, rlx);
}
fn main() {
    let w = spawn writer();
    let f = load(flag, rlx);
    if (f == 1) {
        let d = data;
    }
    join(w);
}
`},
	{name: "atomics-only", src: `atomic global x: int;
fn t() {
    fetch_add(x, 1);
}
fn main() {
    let h = spawn t();
    store(x, 5, rlx);
    join(h);
}
`},
}

var cRaceCases = []raceCase{
	{name: "c-mutexes", lines: []int{8, 16}, src: `#include <pthread.h>
int g;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;

void *t(void *arg) {
  pthread_mutex_lock(&m1);
  g = g + 1;
  pthread_mutex_unlock(&m1);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_mutex_lock(&m2);
  g = g + 1;
  pthread_mutex_unlock(&m2);
  pthread_join(id, 0);
  return 0;
}
`},
	{name: "c-one-mutex", src: `#include <pthread.h>
int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t(void *arg) {
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  pthread_join(id, 0);
  return g;
}
`},
	{name: "c-verifier-atomic", src: `#include <pthread.h>
void __VERIFIER_atomic_inc(int *p) { *p = *p + 1; }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g;
void *t(void *arg) {
  __VERIFIER_atomic_inc(&g);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  __VERIFIER_atomic_begin();
  g = g + 2;
  __VERIFIER_atomic_end();
  pthread_join(id, 0);
  return 0;
}
`},
}

// TestDataRaces checks race detection on small CIR and C programs: the
// verdict, and for a race both accesses' lines.
func TestDataRaces(t *testing.T) {
	type prog struct {
		raceCase
		p *ir.Program
	}
	var progs []prog
	for _, c := range cirRaceCases {
		p, err := frontend.ParseCIR(c.name+".cir", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		progs = append(progs, prog{c, p})
	}
	for _, c := range cRaceCases {
		p, err := cfront.Compile(c.name+".c", []byte(c.src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		progs = append(progs, prog{c, p})
	}
	for _, c := range progs {
		t.Run(c.name, func(t *testing.T) {
			for _, explorer := range []string{"auto", "reference", "mcr"} {
				res, err := Verify(context.Background(), c.p, Options{Races: true, Explorer: explorer})
				if err != nil {
					t.Fatal(err)
				}
				if c.lines == nil {
					if res.Verdict != Verified {
						t.Fatalf("%s: want verified (no race), got %s: %s", explorer, res.Verdict, res.Reason)
					}
					continue
				}
				if res.Verdict != Violation || res.Kind != "data-race" {
					t.Fatalf("%s: want a data race, got %s: %s", explorer, res.Verdict, res.Reason)
				}
				for _, l := range c.lines {
					if !strings.Contains(res.Reason, fmt.Sprintf(":%d:", l)) {
						t.Errorf("%s: race %q does not name line %d", explorer, res.Reason, l)
					}
				}
				if n := len(res.Counterexample); n == 0 || !strings.HasPrefix(res.Counterexample[n-1].What, "data race") {
					t.Errorf("%s: the counterexample does not end at the race", explorer)
				}
			}
			// Without Races the same program has no violation.
			res, err := Verify(context.Background(), c.p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Verified {
				t.Errorf("without race detection: %s: %s", res.Verdict, res.Reason)
			}
		})
	}
}

// TestDataRacesTSO: race detection is only available under sc, ra and rc11.
func TestDataRacesTSO(t *testing.T) {
	p, err := frontend.ParseCIR("r.cir", []byte(cirRaceCases[0].src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(context.Background(), p, Options{Races: true, Model: "tso"}); err == nil {
		t.Fatal("want an error for races under tso")
	}
}
