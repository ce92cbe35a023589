package ncmc

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ncmc/frontend"
)

// symmetricPrograms have several threads running the same code.
var symmetricPrograms = map[string]string{
	"handles": `global x: int;
global h: thread;
fn inc() {
    x = x + 1;
}
fn main() {
    let a = spawn inc();
    h = spawn inc();
    join(a);
    join(h);
}
`,
	"lost-update": `global x: int;
fn inc() {
    let t = x;
    x = t + 1;
}
fn main() {
    let a = spawn inc();
    let b = spawn inc();
    let c = spawn inc();
    join(a);
    join(b);
    join(c);
    assert(x == 3, "lost update");
}
`,
	"unjoined": `global x: int;
global y: int;
fn inc() {
    let t = x;
    x = t + 1;
}
fn check() {
    let v = x;
    y = v;
}
fn main() {
    let i = 0;
    spawn check();
    while (i < 4) {
        spawn inc();
        i = i + 1;
    }
}
`,
	"locked": `global m: mutex;
global x: int;
fn inc() {
    lock(m);
    let t = x;
    x = t + 1;
    unlock(m);
}
fn main() {
    let a = spawn inc();
    let b = spawn inc();
    let c = spawn inc();
    join(a);
    join(b);
    join(c);
    assert(x == 3);
}
`,
}

// TestSymmetry: the state cache with thread symmetry finds the same
// outcomes and verdict as without it.
func TestSymmetry(t *testing.T) {
	progs := map[string][]byte{}
	for name, src := range symmetricPrograms {
		progs[name] = []byte(src)
	}
	files, _ := filepath.Glob("../examples/*.cir")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs[filepath.Base(f)] = src
	}
	for name, src := range progs {
		t.Run(name, func(t *testing.T) {
			p, err := frontend.ParseCIR(name, src)
			if err != nil {
				t.Skip(err) // examples with specs or other syntax the plain parser rejects
			}
			run := func(sym bool) *Result {
				res, err := Verify(context.Background(), p, Options{Explorer: "reference", StateCache: true, Symmetry: sym, KeepGoing: true, Unroll: 3})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			plain, sym := run(false), run(true)
			if plain.Verdict != sym.Verdict || plain.Reason != sym.Reason {
				t.Errorf("verdict: %s (%s) without symmetry, %s (%s) with", plain.Verdict, plain.Reason, sym.Verdict, sym.Reason)
			}
			keys := func(r *Result) []string {
				var ks []string
				for _, o := range r.Outcomes {
					ks = append(ks, o.State+" / "+o.Violation)
				}
				return ks
			}
			if !reflect.DeepEqual(keys(plain), keys(sym)) {
				t.Errorf("outcomes differ:\nwithout: %q\nwith:    %q", keys(plain), keys(sym))
			}
			if name == "unjoined" && sym.Stats.Executions+sym.Stats.Pruned >= plain.Stats.Executions+plain.Stats.Pruned {
				t.Errorf("symmetry did not shrink the search: %d+%d runs with, %d+%d without",
					sym.Stats.Executions, sym.Stats.Pruned, plain.Stats.Executions, plain.Stats.Pruned)
			}
		})
	}
}
