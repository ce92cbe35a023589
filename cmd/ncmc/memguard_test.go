package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMemGuard: past its limit the guard cancels the contexts it handed
// out with errMemory; contexts handed out later work until it fires again.
func TestMemGuard(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	g := newMemGuard(ctx, 1) // 1 byte: always exceeded
	c1, done1 := g.with(ctx)
	defer done1()
	select {
	case <-c1.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the guard did not cancel")
	}
	if !errors.Is(context.Cause(c1), errMemory) {
		t.Errorf("cause %v, want errMemory", context.Cause(c1))
	}
	none := newMemGuard(ctx, 0)
	c2, done2 := none.with(ctx)
	time.Sleep(300 * time.Millisecond)
	if c2.Err() != nil {
		t.Errorf("a guard without a limit cancelled: %v", context.Cause(c2))
	}
	done2()
}

// TestSweepMemoryBound: a task stopped by the memory guard is unknown
// with the memory reason, and the sweep goes on to the end.
func TestSweepMemoryBound(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	// Every thread increments a counter: no stage ends before the time
	// limit, so the guard (1 MB, always exceeded) stops it first.
	src := `#include <pthread.h>
void reach_error(void) {}
unsigned value;
void *inc(void *a) { unsigned v = value; value = v + 1; if (value == 0) reach_error(); return 0; }
int main(void) { pthread_t t; while (1) pthread_create(&t, 0, inc, 0); }
`
	writeTask(t, dir, "counter", src, "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n")
	t0 := time.Now()
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "20s", "--max-memory", "1", dir)
	if code != 0 || !strings.Contains(stdout, "1 (task, property) pairs: 0 correct, 0 wrong, 1 unknown") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if !strings.Contains(string(data), "memory bound hit") || time.Since(t0) > 15*time.Second {
		t.Errorf("the task should stop early for memory (%s):\n%s", time.Since(t0), data)
	}
}
