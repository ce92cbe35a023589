package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// minHeadroom is the least the heap may grow past its live size before the
// collector runs again (the soft memory limit never asks for less).
const minHeadroom = 64 << 20

// headroomFactor bounds the growth past the live heap for large live
// heaps: headroom is max(minHeadroom, headroomFactor × live). Under
// defaultGCPercent alone the heap grows to five times its live size
// between collections; with this it grows to at most three times (and by
// at most 64 MB while the live heap is under 32 MB).
const headroomFactor = 2

// gcTuner keeps the runtime's soft memory limit at the live heap plus a
// headroom plus the runtime's own memory, re-set after every collection,
// so that a small live heap (most explorations keep 20-40 MB: the search
// path and the leaves a parallel exploration holds) does not take five
// times its size under defaultGCPercent, while a large one (a state
// cache) is collected no more often than under GOGC=200. The limit never
// exceeds bound: the machine-wide bound the process had before.
//
// The CLI turns the collector's percentage target off while the tuner
// runs (main), so the collector runs when the limit is reached. The limit
// is always at least minHeadroom above the live heap, so it cannot make
// the collector run back to back.
type gcTuner struct {
	bound   int64
	samples []metrics.Sample
	stopped atomic.Bool
}

const (
	mLive     = "/gc/heap/live:bytes"
	mTotal    = "/memory/classes/total:bytes"
	mObjects  = "/memory/classes/heap/objects:bytes"
	mUnused   = "/memory/classes/heap/unused:bytes"
	mFree     = "/memory/classes/heap/free:bytes"
	mReleased = "/memory/classes/heap/released:bytes"
)

// startGCTuner sets the soft memory limit from the live heap now and after
// every collection, never above bound (0: no bound), until stop.
func startGCTuner(bound int64) *gcTuner {
	t := &gcTuner{bound: bound}
	for _, name := range []string{mLive, mTotal, mObjects, mUnused, mFree, mReleased} {
		t.samples = append(t.samples, metrics.Sample{Name: name})
	}
	t.tune()
	t.arm()
	return t
}

// stop ends the tuning (the limit stays as last set).
func (t *gcTuner) stop() { t.stopped.Store(true) }

// gcSentinel is garbage as soon as it is made: its finalizer runs after
// the next collection. It holds a pointer so that it is not a tiny
// allocation (whose finalizers may be delayed).
type gcSentinel struct {
	t *gcTuner
	_ [2]int64
}

func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{t: t}, func(s *gcSentinel) {
		if s.t.stopped.Load() {
			return
		}
		s.t.tune()
		s.t.arm()
	})
}

// limit returns the memory limit for the sampled metrics.
func (t *gcTuner) limit() int64 {
	v := func(i int) int64 {
		if t.samples[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(t.samples[i].Value.Uint64())
	}
	return softLimit(v(0), v(1), v(2)+v(3)+v(4)+v(5), t.bound)
}

// softLimit is the soft memory limit for a live heap of live bytes when
// the runtime holds total bytes, heap of them for the heap (the rest are
// stacks, metadata and other runtime memory, which the limit also
// counts): live plus the headroom plus the runtime's own memory, at most
// bound (if bound > 0).
func softLimit(live, total, heap, bound int64) int64 {
	limit := live + max(minHeadroom, headroomFactor*live) + max(total-heap, 0)
	if bound > 0 && limit > bound {
		limit = bound
	}
	return limit
}

func (t *gcTuner) tune() {
	metrics.Read(t.samples)
	debug.SetMemoryLimit(t.limit())
}
