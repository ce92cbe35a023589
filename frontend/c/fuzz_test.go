package c

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

// FuzzC feeds arbitrary text to the C front end, seeded with the SV-COMP
// task files. The front end must not crash (a panic in the translator is
// turned into an "internal error" Unsupported, which the fuzzer reports as
// a failure), and every program it accepts must be well-formed IR that the
// interpreter can run for a few executions without an internal error.
//
//	go test ./frontend/c -run '^$' -fuzz FuzzC -fuzztime 60s -parallel 1
func FuzzC(f *testing.F) {
	dir := *svcompDir
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.c"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err == nil {
			f.Add(strings.Contains(file, "thesis"), src)
		}
	}
	f.Add(false, []byte("int main(void) { return 0; }\n"))
	f.Add(false, []byte(prelude+"int x;\nvoid *t(void *a) { x++; return 0; }\nint main(void) { pthread_t p; pthread_create(&p, 0, t, 0); pthread_join(p, 0); assert(x == 1); }\n"))
	f.Fuzz(func(t *testing.T, thesis bool, src []byte) {
		sub := "more"
		if thesis {
			sub = "thesis"
		}
		// A hang is a bug too: crash the worker so the fuzzer keeps the input.
		watchdog := time.AfterFunc(20*time.Second, func() {
			panic(fmt.Sprintf("FuzzC: no answer after 20s for input %q", src))
		})
		defer watchdog.Stop()
		if os.Getenv("FUZZC_TRACE") != "" {
			t0 := time.Now()
			defer func() {
				if f, err := os.OpenFile(os.Getenv("FUZZC_TRACE"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
					fmt.Fprintf(f, "%s %d bytes in %s\n", time.Now().Format("15:04:05"), len(src), time.Since(t0))
					f.Close()
				}
			}()
		}
		// The file name puts the task's local headers on the quote path.
		name := filepath.Join(dir, sub, "fuzz.c")
		p, err := Compile(name, src, Options{})
		if err != nil {
			if strings.Contains(err.Error(), "internal error in the C front end") {
				t.Fatalf("translator crashed: %v", err)
			}
			return
		}
		if msg := checkIR(p); msg != "" {
			t.Fatalf("malformed IR: %s\n%s", msg, p)
		}
		res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", Unroll: 2,
			MaxExecutions: 4, MaxSteps: 300, Timeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatalf("verify: %v", err)
		}
		if strings.Contains(res.Reason, "internal error") {
			t.Fatalf("interpreter internal error: %s\n%s", res.Reason, p)
		}
	})
}

// checkIR reports a structural error of p ("" if none): jump targets,
// local slots, globals, callees and operands in range.
func checkIR(p *ir.Program) string {
	if p.Main == nil {
		return "no main"
	}
	funcs := map[*ir.Func]bool{}
	for _, f := range p.Funcs {
		funcs[f] = true
	}
	if !funcs[p.Main] {
		return "main is not in Funcs"
	}
	for i, g := range p.Globals {
		if g.Block != i+1 || len(g.Init) != g.Type.Size() {
			return fmt.Sprintf("global %s: block %d, %d initial cells for size %d", g.Name, g.Block, len(g.Init), g.Type.Size())
		}
	}
	for _, f := range p.Funcs {
		if f.NumParams > len(f.Locals) || f.Result == nil {
			return fmt.Sprintf("%s: bad signature", f.Name)
		}
		var expr func(e *ir.Expr) string
		expr = func(e *ir.Expr) string {
			if e == nil {
				return ""
			}
			switch e.Kind {
			case ir.ELocal:
				if e.Local < 0 || e.Local >= len(f.Locals) {
					return fmt.Sprintf("local %d out of range", e.Local)
				}
			case ir.EGlobalAddr:
				if e.Global < 0 || e.Global >= len(p.Globals) {
					return fmt.Sprintf("global %d out of range", e.Global)
				}
			case ir.EIndex:
				if e.A == nil || e.B == nil || e.Len <= 0 || e.Stride < 0 {
					return "bad index expression"
				}
			case ir.EUnary, ir.ECast, ir.EField:
				if e.A == nil {
					return "missing operand"
				}
			case ir.EBinary:
				if e.A == nil || e.B == nil {
					return "missing operand"
				}
			}
			if e.Kind == ir.ECast && e.Type == nil {
				return "cast without a type"
			}
			if m := expr(e.A); m != "" {
				return m
			}
			return expr(e.B)
		}
		for i := range f.Body {
			in := &f.Body[i]
			where := fmt.Sprintf("%s[%d] %s", f.Name, i, ir.InstrString(in, f, p))
			for _, d := range []int{in.Dst, in.Dst2} {
				if d < -1 || d >= len(f.Locals) {
					return where + ": destination out of range"
				}
			}
			switch in.Op {
			case ir.IJump:
				if in.Target < 0 || in.Target >= len(f.Body) {
					return where + ": jump target out of range"
				}
			case ir.IBranch:
				if in.Target < 0 || in.Target >= len(f.Body) || in.Target2 < 0 || in.Target2 >= len(f.Body) || in.A == nil {
					return where + ": bad branch"
				}
			case ir.ICall, ir.ISpawn:
				if in.Func == nil || !funcs[in.Func] || len(in.Args) != in.Func.NumParams {
					return where + ": bad callee or argument count"
				}
			case ir.ILoad, ir.IRMW, ir.ICAS, ir.ITryLock, ir.INondet, ir.IAlloc, ir.ILoopHead, ir.ISelf:
				if in.Dst < 0 {
					return where + ": no destination"
				}
			}
			switch in.Op {
			case ir.ILoad, ir.IStore, ir.IRMW, ir.ICAS, ir.ILock, ir.IUnlock, ir.ITryLock, ir.IWait, ir.ISignal, ir.IBroadcast:
				if in.Addr == nil {
					return where + ": no address"
				}
			case ir.IAlloc:
				if in.Record == nil || len(in.Args) > in.Record.Size {
					return where + ": bad allocation"
				}
			}
			for _, e := range append([]*ir.Expr{in.Addr, in.A, in.B}, in.Args...) {
				if m := expr(e); m != "" {
					return where + ": " + m
				}
			}
		}
		if n := len(f.Body); n == 0 || f.Body[n-1].Op != ir.IReturn {
			return f.Name + ": body does not end with a return"
		}
	}
	return ""
}

// TestCheckIRTasks runs the IR checker over every translated task file.
func TestCheckIRTasks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(*svcompDir, "*", "*.c"))
	if len(files) == 0 {
		t.Skip("no task files")
	}
	for _, file := range files {
		p, err := CompileFile(file, Options{})
		if err != nil {
			continue
		}
		if msg := checkIR(p); msg != "" {
			t.Errorf("%s: %s", file, msg)
		}
	}
}
