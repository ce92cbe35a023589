package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestSoftLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name                   string
		live, total, heap, max int64
		want                   int64
	}{
		{"small live heap: 64 MB headroom", 20 * mb, 100 * mb, 90 * mb, 0, 20*mb + 64*mb + 10*mb},
		{"large live heap: twice the live heap", 500 * mb, 1200 * mb, 1150 * mb, 0, 1500*mb + 50*mb},
		{"at the machine bound", 500 * mb, 1200 * mb, 1150 * mb, 1000 * mb, 1000 * mb},
		{"no runtime memory reported", 10 * mb, 0, 50 * mb, 0, 74 * mb},
	} {
		if got := softLimit(c.live, c.total, c.heap, c.max); got != c.want {
			t.Errorf("%s: softLimit = %d MB, want %d MB", c.name, got/mb, c.want/mb)
		}
	}
}

// TestGCTuner checks that the tuner sets the limit at start and again
// after collections (it re-arms itself), and never above its bound.
func TestGCTuner(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	const bound = 1 << 40
	tu := startGCTuner(bound)
	defer tu.stop()
	first := debug.SetMemoryLimit(-1)
	if first <= minHeadroom || first > bound {
		t.Fatalf("limit after start = %d, want in (%d, %d]", first, minHeadroom, bound)
	}
	// Keep 200 MB live: after collections the limit must follow the live
	// heap (at least 3 × 200 MB).
	keep := make([][]byte, 200)
	for i := range keep {
		keep[i] = make([]byte, 1<<20)
		keep[i][0] = 1
	}
	for i := 0; i < 5; i++ {
		runtime.GC()
	}
	// Finalizers run on their own goroutine: give it time.
	for i := 0; i < 100 && debug.SetMemoryLimit(-1) < 3*200<<20; i++ {
		runtime.Gosched()
		runtime.GC()
	}
	if got := debug.SetMemoryLimit(-1); got < 3*200<<20 || got > bound {
		t.Errorf("limit with 200 MB live = %d MB, want ≥ 600 MB", got>>20)
	}
	runtime.KeepAlive(keep)
}
