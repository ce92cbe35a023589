package c

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ncmc/frontend/diag"
	"ncmc/ir"
	"ncmc/ncmc"
)

// svcompDir is the directory of the SV-COMP tasks, whose C files seed the
// fuzzers and the translation tests.
var svcompDir = flag.String("svcomp.dir", "../../../shared/bench/svcomp", "directory of the SV-COMP tasks")

// FuzzC feeds arbitrary text to the C front end, seeded with the SV-COMP
// task files. The input is a source text plus a list of line-level edits
// (delete, duplicate, swap lines, change a number, a comparison or a logical
// operator, insert a statement): byte mutations of the text mostly break
// the syntax, the edits mostly keep it valid C and reach the translator and
// the interpreter. The front end must not crash (a panic in the translator
// is turned into an "internal error" Unsupported, which the fuzzer reports
// as a failure), and every program it accepts must be well-formed IR that
// the interpreter can run for a few executions without an internal error.
//
//	go test ./frontend/c -run '^$' -fuzz FuzzC -fuzztime 60s -parallel 1
func FuzzC(f *testing.F) {
	dir := *svcompDir
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.c"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err == nil {
			f.Add(strings.Contains(file, "thesis"), src, []byte{})
		}
	}
	f.Add(false, []byte("int main(void) { return 0; }\n"), []byte{3, 0, 7})
	f.Add(false, []byte(prelude+"int x;\nvoid *t(void *a) { x++; return 0; }\nint main(void) { pthread_t p; pthread_create(&p, 0, t, 0); pthread_join(p, 0); assert(x == 1); }\n"), []byte{1, 14, 14, 4, 15, 2})
	f.Fuzz(func(t *testing.T, thesis bool, src, edits []byte) {
		sub := "more"
		if thesis {
			sub = "thesis"
		}
		// The file name puts the task's local headers on the quote path.
		fuzzOne(t, filepath.Join(dir, sub, "fuzz.c"), applyEdits(src, edits))
	})
}

// FuzzCEdits is FuzzC on the task files with line-level edits only: the
// input picks a task file and the edits to apply, so most inputs stay valid
// C and exercise the translator and the interpreter rather than the parser.
//
//	go test ./frontend/c -run '^$' -fuzz FuzzCEdits -fuzztime 60s -parallel 1
func FuzzCEdits(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(*svcompDir, "*", "*.c"))
	sort.Strings(files)
	if len(files) == 0 {
		f.Skip("no task files")
	}
	srcs := make([][]byte, len(files))
	for i, file := range files {
		srcs[i], _ = os.ReadFile(file)
		f.Add(uint8(i), []byte{})
	}
	f.Fuzz(func(t *testing.T, task uint8, edits []byte) {
		i := int(task) % len(files)
		fuzzOne(t, filepath.Join(filepath.Dir(files[i]), "fuzz.c"), applyEdits(srcs[i], edits))
	})
}

// fuzzOne checks one fuzz input: no crash, well-formed IR, a few
// executions without an internal error, and an answer within 20s.
func fuzzOne(t *testing.T, name string, src []byte) {
	// A hang is a bug too: crash the worker so the fuzzer keeps the input.
	watchdog := time.AfterFunc(20*time.Second, func() {
		panic(fmt.Sprintf("FuzzC: no answer after 20s for input %q", src))
	})
	defer watchdog.Stop()
	outcome := "translated"
	if trace := os.Getenv("FUZZC_TRACE"); trace != "" {
		t0 := time.Now()
		defer func() {
			if f, err := os.OpenFile(trace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintf(f, "%s %d bytes in %s: %s\n", time.Now().Format("15:04:05"), len(src), time.Since(t0), outcome)
				f.Close()
			}
		}()
	}
	p, err := Compile(name, src, Options{})
	if err != nil {
		if strings.Contains(err.Error(), "internal error in the C front end") {
			t.Fatalf("translator crashed: %v", err)
		}
		outcome = "rejected"
		if _, ok := err.(*Unsupported); ok {
			outcome = "unsupported"
		}
		return
	}
	if err := ir.Validate(p); err != nil {
		t.Fatalf("malformed IR: %v\n%s", err, p)
	}
	res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", Unroll: 2,
		MaxExecutions: 4, MaxSteps: 300, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if strings.Contains(res.Reason, "internal error") {
		t.Fatalf("interpreter internal error: %s\n%s", res.Reason, p)
	}
}

// TestCheckIRTasks runs the IR validator over every translated task file.
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
		if err := ir.Validate(p); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// applyEdits applies line-level edits to src: each edit is 3 bytes (kind,
// a, b), line numbers taken modulo the number of lines.
func applyEdits(src, edits []byte) []byte {
	if len(edits) < 3 {
		return src
	}
	lines := strings.Split(string(src), "\n")
	cmps := []string{"<=", ">=", "==", "!=", "<", ">"}
	stmts := []string{"x++;", "sched_yield();", "if (0) abort();", "__VERIFIER_atomic_begin(); __VERIFIER_atomic_end();",
		"while (0) {}", "{ int t = 1; t++; }", "return 0;", "break;", "continue;", "goto ERROR;", "ERROR: ;", "reach_error();"}
	for i := 0; i+2 < len(edits) && i < 30; i += 3 {
		n := len(lines)
		a, b := int(edits[i+1])%n, int(edits[i+2])%n
		switch edits[i] % 8 {
		case 0:
			lines = append(lines[:a], lines[a+1:]...)
		case 1:
			lines = append(lines[:b], append([]string{lines[a]}, lines[b:]...)...)
		case 2:
			lines[a], lines[b] = lines[b], lines[a]
		case 3:
			lines[a] = replaceFirstNumber(lines[a], int(edits[i+2])-64)
		case 4:
			for _, c := range cmps {
				if j := strings.Index(lines[a], c); j >= 0 {
					lines[a] = lines[a][:j] + cmps[int(edits[i+2])%len(cmps)] + lines[a][j+len(c):]
					break
				}
			}
		case 5:
			if strings.Contains(lines[a], "&&") {
				lines[a] = strings.Replace(lines[a], "&&", "||", 1)
			} else {
				lines[a] = strings.Replace(lines[a], "||", "&&", 1)
			}
		case 6:
			lines = append(lines[:a], append([]string{stmts[int(edits[i+2])%len(stmts)]}, lines[a:]...)...)
		case 7:
			lines[a] = strings.Replace(lines[a], "++", "--", 1)
		}
		if len(lines) == 0 {
			lines = []string{""}
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// replaceFirstNumber replaces the first decimal literal of line by v.
func replaceFirstNumber(line string, v int) string {
	for i := 0; i < len(line); i++ {
		if line[i] >= '0' && line[i] <= '9' && (i == 0 || !isIdentByte(line[i-1])) {
			j := i
			for j < len(line) && isIdentByte(line[j]) {
				j++
			}
			return line[:i] + fmt.Sprint(v) + line[j:]
		}
	}
	return line
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// FuzzCFrontEnd feeds arbitrary bytes to the C front end, seeded with
// every task file of the SV-COMP bench and small snippets (committed in
// testdata/fuzz/FuzzCFrontEnd). The front end must not panic, and every
// error must be positioned: a diag.ErrorList, or an *Unsupported listing
// its constructs, whose entries all name the file and a line.
//
//	go test ./frontend/c -run '^$' -fuzz '^FuzzCFrontEnd$' -fuzztime 60s -parallel 1
func FuzzCFrontEnd(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(*svcompDir, "*", "*.c"))
	sort.Strings(files)
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	for _, s := range frontEndSnippets {
		f.Add([]byte(s))
	}
	name := filepath.Join(*svcompDir, "thesis", "fuzz.c") // the thesis headers are on the quote path
	// FUZZ_COUNT=file appends a byte per input to file: the fuzzer's own
	// exec count is reported late (when a worker returns) and can be
	// stale at the end of a run.
	count := os.Getenv("FUZZ_COUNT")
	f.Fuzz(func(t *testing.T, src []byte) {
		checkPositioned(t, name, src)
		if count != "" {
			if f, err := os.OpenFile(count, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Write([]byte{'.'})
				f.Close()
			}
		}
	})
}

// frontEndSnippets are small C inputs, valid and not, for FuzzCFrontEnd
// and TestErrorsPositioned.
var frontEndSnippets = []string{
	"int main(void) { return 0; }\n",
	"int main(void) { return 0 }\n",
	"int main(void) {\n",
	"#include <pthread.h>\nint x;\nvoid *t(void *a) { x++; return 0; }\nint main(void) { pthread_t p; pthread_create(&p, 0, t, 0); pthread_join(p, 0); return x; }\n",
	"#include <pthread.h>\npthread_mutex_t m;\nint main(void) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }\n",
	"int f(int);\nint main(void) { return f(1); }\n",
	"struct s { int a; } v;\nint main(void) { return v.b; }\n",
	"int main(void) { int a[2]; a[5] = 1; return a[0] / 0; }\n",
	"int main(void) { goto L; L: return 0; }\n",
	"#define X(\nint main(void) { return 0; }\n",
	"#include \"nosuchfile.h\"\nint main(void) { return 0; }\n",
	"int main(void) { int *p = 0; return *p; }\n",
	"double d; int main(void) { d = 1.5; return (int)d; }\n",
	"int main(void) { while (1) { } }\n",
	"",
	"main",
	"\x00\xff",
}

// checkPositioned compiles src and fails on a panic or an error that is
// not positioned.
func checkPositioned(t *testing.T, name string, src []byte) {
	t.Helper()
	// A hang is a bug too: crash the worker so the fuzzer keeps the input.
	watchdog := time.AfterFunc(20*time.Second, func() {
		panic(fmt.Sprintf("FuzzCFrontEnd: no answer after 20s for input %q", src))
	})
	defer watchdog.Stop()
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("panic: %v", p)
			}
		}()
		_, err = Compile(name, src, Options{})
	}()
	if err == nil {
		return
	}
	if strings.Contains(err.Error(), "internal error in the C front end") {
		t.Fatalf("translator crashed: %v", err)
	}
	var list diag.ErrorList
	switch e := err.(type) {
	case diag.ErrorList:
		list = e
	case *Unsupported:
		list = e.Errs
	default:
		t.Fatalf("error of type %T, want diag.ErrorList or *Unsupported: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("empty error list (%T)", err)
	}
	for _, e := range list {
		if e.Pos.File == "" || e.Pos.Line < 1 {
			t.Errorf("unpositioned error %q at %+v", e.Msg, e.Pos)
		}
	}
	if !strings.HasPrefix(err.Error(), list[0].Pos.File+":") {
		t.Errorf("error does not start with its file: %q", err.Error())
	}
}

// TestErrorsPositioned runs the FuzzCFrontEnd checks over the snippets
// and broken copies of the thesis's task files (cut in the middle, which
// ends the input inside a declaration: errors at the end of the input).
func TestErrorsPositioned(t *testing.T) {
	name := filepath.Join(*svcompDir, "thesis", "fuzz.c")
	for i, s := range frontEndSnippets {
		t.Run(fmt.Sprint("snippet", i), func(t *testing.T) { checkPositioned(t, name, []byte(s)) })
	}
	files, _ := filepath.Glob(filepath.Join(*svcompDir, "thesis", "*.c"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			checkPositioned(t, filepath.Join(filepath.Dir(file), "fuzz.c"), src[:len(src)/2])
		})
	}
}
