package litmus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/explore/trustx"
	"ncmc/interp"
	"ncmc/ir"
)

const sbC = `C SB+rlx
"the doc"
Cycle=Fre PodWR Fre PodWR
{ [x] = 0; [y] = 0; }

P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
}

P1 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(y, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
}

exists (0:r0=0 /\ 1:r0=0)
`

func mustParse(t *testing.T, name, src string) *Test {
	t.Helper()
	lt, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := ir.Validate(lt.Prog); err != nil {
		t.Fatalf("%s: invalid program: %v\n%s", name, err, lt.Prog)
	}
	return lt
}

func TestParseC(t *testing.T) {
	lt := mustParse(t, "sb.litmus", sbC)
	if lt.Arch != "C" || lt.Name != "SB+rlx" || lt.Doc != "the doc" || lt.Threads != 2 {
		t.Errorf("header: %q %q %q %d", lt.Arch, lt.Name, lt.Doc, lt.Threads)
	}
	if len(lt.Info) != 1 || lt.Info[0] != [2]string{"Cycle", "Fre PodWR Fre PodWR"} {
		t.Errorf("info %v", lt.Info)
	}
	if got := strings.Join(lt.Locations, ","); got != "x,y" {
		t.Errorf("locations %s", got)
	}
	if got := lt.Cond.String(); got != `exists (0:r0=0 /\ 1:r0=0)` {
		t.Errorf("condition %s", got)
	}
	var names []string
	for _, g := range lt.Prog.Globals {
		names = append(names, g.Name)
	}
	if got := strings.Join(names, ","); got != "x,y,0:r0,1:r0" {
		t.Errorf("globals %s", got)
	}
	p0 := lt.Prog.FuncByName("P0")
	var ops []string
	for _, in := range p0.Body {
		s := in.Op.String()
		if in.Op == ir.ILoad || in.Op == ir.IStore {
			s += "." + in.Order.String()
		}
		ops = append(ops, s)
	}
	// store x, load y, r0 = load, store 0:r0 (na), return
	if got := strings.Join(ops, " "); got != "store.rlx load.rlx assign store.na return" {
		t.Errorf("P0 lowered to %s", got)
	}
	if len(lt.Prog.Main.Body) != 3 || lt.Prog.Main.Body[0].Op != ir.ISpawn || lt.Prog.Main.Body[0].Func != p0 {
		t.Errorf("main: %v", lt.Prog.Main.Body)
	}
	if got := lt.Outcome(func(l Loc) int64 { return int64(len(l.Name)) }); got != "0:r0=2; 1:r0=2;" {
		t.Errorf("outcome %q", got)
	}
}

func TestParseCFeatures(t *testing.T) {
	src := `C feat
{ x = 1; int y = 2; _Atomic int z = 3; int *p = &x; e = 5; 1:r9 = 7 }
void P0 (volatile int* x, atomic_int *y, int* e, atomic_int* z) {
  int a = -1, b;
  b = *x + 2 * (atomic_load(y) - 1) / 1;
  if (b == 3 && atomic_load_explicit(z, memory_order_acquire)) { *x = 4; } else a = 5;
  int c = atomic_fetch_add_explicit(z, 2, memory_order_acq_rel);
  atomic_exchange_explicit(y, a, memory_order_release);
  int ok = atomic_compare_exchange_strong_explicit(z, e, 9, memory_order_seq_cst, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  while (a < 0) a = (int) a + 1; // unrolled twice
  /* a comment with exists inside */
}
P1 (int *p) {
  int r9;
  int r = *p;
  atomic_store(p, r9);
}
locations [x; 0:c;]
filter (0:a = -1 \/ true)
exists (0:b=3 /\ not (0:ok=1) /\ ~[x]=4 \/ 1:r=x /\ p=x /\ [z] != 7 => y<>2)
`
	lt := mustParse(t, "feat.litmus", src)
	if got := strings.Join(lt.Locations, ","); got != "x,y,z,p,e" {
		t.Errorf("locations %s", got)
	}
	if lt.Init[Loc{-1, "p"}] != ir.MakePtr(1, 0) || lt.Init[Loc{1, "r9"}] != 7 || lt.Init[Loc{-1, "z"}] != 3 {
		t.Errorf("init %v", lt.Init)
	}
	// => binds tighter than /\ (herd's precedence), so no parentheses
	want := `exists (0:b=3 /\ not (0:ok=1) /\ not ([x]=4) \/ 1:r=x /\ [p]=x /\ not ([z]=7) => not ([y]=2))`
	if got := lt.Cond.String(); got != want {
		t.Errorf("condition\n got %s\nwant %s", got, want)
	}
	if lt.Filter == nil || lt.Filter.String() != `0:a=-1 \/ true` {
		t.Errorf("filter %v", lt.Filter)
	}
	if len(lt.Extra) != 2 || lt.Extra[1] != (Loc{0, "c"}) {
		t.Errorf("locations section %v", lt.Extra)
	}
	obs := lt.Observed()
	if len(obs) == 0 || obs[0] != (Loc{0, "b"}) {
		t.Errorf("observed %v", obs)
	}
	count := map[ir.Op]int{}
	for _, in := range lt.Prog.FuncByName("P0").Body {
		count[in.Op]++
	}
	if count[ir.IRMW] != 2 || count[ir.ICAS] != 1 || count[ir.IFence] != 1 || count[ir.IAssume] != 1 {
		t.Errorf("P0 ops %v", count)
	}
}

func TestParseX86(t *testing.T) {
	intel := `X86 T
"doc"
{ x=0; 0:EAX=3; }
 P0          | P1           ;
 MOV [x],$1  | MOV EAX,[x]  ;
 MFENCE      | MOV EBX,EAX  ;
 LOCK ADD [y],$2 | XCHG [y],EBX ;
 LFENCE      |              ;
exists (0:EAX=3 /\ 1:EAX=1 /\ 1:EBX=0 /\ y=2)
`
	lt := mustParse(t, "intel.litmus", intel)
	if lt.Threads != 2 || strings.Join(lt.Locations, ",") != "x,y" {
		t.Fatalf("threads %d locations %v", lt.Threads, lt.Locations)
	}
	var p0, p1 []string
	for _, in := range lt.Prog.FuncByName("P0").Body {
		p0 = append(p0, in.Op.String()+"."+in.Order.String())
	}
	for _, in := range lt.Prog.FuncByName("P1").Body {
		p1 = append(p1, in.Op.String()+"."+in.Order.String())
	}
	if got := strings.Join(p0, " "); !strings.HasPrefix(got, "assign.na store.rel fence.sc rmw.sc") {
		t.Errorf("P0: %s", got)
	}
	if got := strings.Join(p1, " "); !strings.HasPrefix(got, "load.acq assign.na assign.na rmw.sc") {
		t.Errorf("P1: %s", got)
	}
	att := `X86_64 T
{ uint64_t y; uint64_t x; uint64_t 1:rax; }
 P0            | P1            ;
 movq $1,(x)   | movl (x),%eax ;
 mfence        | xchgq %rbx,(y) ;
exists (1:rax=1 /\ 1:rbx=0)
`
	lt = mustParse(t, "att.litmus", att)
	p1 = nil
	for _, in := range lt.Prog.FuncByName("P1").Body {
		p1 = append(p1, in.Op.String())
	}
	if got := strings.Join(p1, " "); got != "load assign rmw assign store store return" {
		t.Errorf("P1: %s", got)
	}
	if lt.Prog.GlobalByName("1:rax") == nil || lt.Prog.GlobalByName("1:rbx") == nil {
		t.Errorf("register globals missing")
	}
}

func TestEval(t *testing.T) {
	lt := mustParse(t, "e.litmus", `C e
{}
P0 (atomic_int* x) { int r = 1; }
exists (0:r=1 /\ ([x]=2 \/ 0:r=5) => false)
`)
	vals := map[Loc]int64{{0, "r"}: 1, {-1, "x"}: 2}
	all := func(l Loc) (int64, bool) { v, ok := vals[l]; return v, ok }
	// parsed as 0:r=1 /\ (([x]=2 \/ 0:r=5) => false)
	if r, k := lt.Cond.Prop.Eval3(all); r || !k {
		t.Errorf("Eval3 = %v %v", r, k)
	}
	regOnly := func(l Loc) (int64, bool) {
		if l.IsReg() {
			return vals[l], true
		}
		return 0, false
	}
	if _, k := lt.Cond.Prop.Eval3(regOnly); k {
		t.Errorf("unknown memory should leave the result open")
	}
	vals[Loc{0, "r"}] = 0
	if r, k := lt.Cond.Prop.Eval3(regOnly); r || !k {
		t.Errorf("0:r=0 decides the conjunction: %v %v", r, k)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "e.litmus:1:1: empty file"},
		{"ARM T\n{}\n", "e.litmus:1:1: unsupported litmus architecture \"ARM\""},
		{"C\n{}\n", "missing test name"},
		{"C T\nP0 (int* x)\n", "missing init section"},
		{"C T\nP0 (int* x) { }\n", "e.litmus:3:1: the test has no threads"}, // herd too takes the first { as the init section
		{"C T\n{ x = 0;\nP0(int* x) {}\n", "init section '{' is not closed"},
		{"C T\n{ x = ; }\nP0(int* x) { }\n", "e.litmus:2:7: expected an initial value"},
		{"C T\n{}\nP1 (int* x) { }\n", "e.litmus:3:1: threads must be P0, P1, … in order: expected P0, found P1"},
		{"C T\n{}\nP0 (int* x) {\n  *y = 1;\n}\n", "e.litmus:4:4: unknown location y"},
		{"C T\n{}\nP0 (int* x) {\n  int r = atomic_load_explicit(x, memory_order_bogus);\n}\n", "e.litmus:4:35: expected a memory order"},
		{"C T\n{}\nP0 (int* x) {\n  int r = frob(x);\n}\n", "e.litmus:4:11: unknown function frob"},
		{"C T\n{}\nP0 (int* x) {\n  x = 1;\n}\n", "x is a shared location"},
		{"C T\n{}\nP0 (int* x) {\n  int r = 1\n}\n", "e.litmus:5:1: expected \";\" after the declaration"},
		{"C T\n{}\nP0 (int* x) {\n  for (;;) {}\n}\n", "'for' is not supported"},
		{"C T\n{}\nP0 (int* x) {\n  r = q;\n}\n", "e.litmus:4:7: undeclared variable q"},
		{"C T\n{}\nP0 (int* x) { }\nexists (0:r0 = )\n", "e.litmus:4:16: expected a value"},
		{"C T\n{}\nP0 (int* x) { }\nexists (3:r0 = 1)\n", "e.litmus:4:9: 3:r0 names thread 3, but the test has 1 thread(s)"},
		{"C T\n{}\nP0 (int* x) { }\nexists (x = 1) junk\n", "e.litmus:4:16: unexpected 'junk' after the final condition"},
		{"C T\n{}\nP0 (int* x) { }\ncases (x = 1)\n", "\"cases\" conditions are not supported"},
		{"C T\n{}\nP0 (int* x) { /* open\n", "comment /* is not closed"},
		{"C T\n{}\nP0 (int* x) { lock(x); int r = atomic_load(x); }\n", "x is used as a mutex"},
		{"X86 T\n{}\n P0 | P1 ;\n MOV [x],$1 | FOO EAX ;\n", "e.litmus:4:15: unsupported instruction FOO"},
		{"X86 T\n{}\n P0 ;\n MOV [x],[y] ;\n", "MOV cannot move from memory to memory"},
		{"X86 T\n{}\n P0 ;\n JMP L9 ;\n", "label L9 is not defined in P0"},
		{"X86 T\n{}\n P1 ;\n MOV [x],$1 ;\n", "e.litmus:3:2: expected the thread name P0"},
		{"X86_64 T\n{}\n P0 ;\n movq $1,(%rax) ;\n", "indirect and absolute memory operands are not supported"},
	}
	for _, tc := range tests {
		_, err := Parse("e.litmus", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %q", tc.src, err, tc.want)
		}
		if !strings.HasPrefix(err.Error(), "e.litmus:") {
			t.Errorf("%q: error without position: %v", tc.src, err)
		}
	}
}

// benchFiles lists the .litmus files of bench/litmus ($NCMC_LITMUS or
// shared/bench/litmus in a parent directory), or nil.
func benchFiles(tb testing.TB) (string, []string) {
	dir := os.Getenv("NCMC_LITMUS")
	if dir == "" {
		wd, _ := os.Getwd()
		for d := wd; ; d = filepath.Dir(d) {
			c := filepath.Join(d, "shared", "bench", "litmus")
			if _, err := os.Stat(filepath.Join(c, "expected.csv")); err == nil {
				dir = c
				break
			}
			if filepath.Dir(d) == d {
				return "", nil
			}
		}
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".litmus") {
			files = append(files, p)
		}
		return nil
	})
	return dir, files
}

// TestBenchCorpus parses every test of bench/litmus, and every prefix of
// each (cut at line ends) without panicking.
func TestBenchCorpus(t *testing.T) {
	dir, files := benchFiles(t)
	if len(files) == 0 {
		t.Skip("bench/litmus not found (set NCMC_LITMUS)")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		mustParse(t, rel, string(src))
		for i := range src {
			if src[i] == '\n' || src[i] == ' ' && i%7 == 0 {
				Parse(rel, src[:i]) // must not panic
			}
		}
	}
	t.Logf("%d bench tests parse", len(files))
}

func FuzzLitmus(f *testing.F) {
	f.Add([]byte(sbC))
	f.Add([]byte("X86 SB\n{ x=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[x] ;\n LOCK XADD [x],EAX | JE L0 ;\n L0: | ;\nexists (1:EAX=0)\n"))
	f.Add([]byte("X86_64 T\n{ uint64_t x; }\n P0 ;\n movq $1,(x) ;\n lock incq (x) ;\nforall (x=2 \\/ ~x=1)\n"))
	f.Add([]byte("C W\n{}\nP0 (int* x) { int r = 0; while (r < 3) { r = r + atomic_fetch_add(x, 1); } if (r) lock(m); }\nfilter true\n~exists (0:r=1)\n"))
	if _, files := benchFiles(f); len(files) > 0 {
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lt, err := Parse("f.litmus", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.litmus:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if err := ir.Validate(lt.Prog); err != nil {
			t.Fatalf("invalid program: %v", err)
		}
		// the program runs (a few executions) without crashing the checker
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err := trustx.Enumerate(ctx, lt.Prog, trustx.EnumOptions{Model: "rc11", MaxExecutions: 3, MaxSteps: 300, Unroll: 2},
			func(x *interp.Execution) bool { return true }); err != nil {
			t.Fatalf("exploration: %v", err)
		}
		// the normal form of the condition parses back to itself
		again := fmt.Sprintf("C R\n{}\nP0 (int* dummy) { }\n%s\n", lt.Cond)
		if lt2, err := Parse("r.litmus", []byte(again)); err == nil && lt2.Cond.String() != lt.Cond.String() {
			t.Fatalf("condition %q reparses as %q", lt.Cond, lt2.Cond)
		}
	})
}
