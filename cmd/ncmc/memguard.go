package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"sync"
	"time"
)

// errMemory is the cause of a cancellation by the memory guard.
var errMemory = errors.New("memory bound hit")

// defaultMemoryShare is the part of the machine's memory the explorations
// of one ncmc process may hold (--max-memory 0) before the memory guard
// stops them: past it the machine would start swapping and then kill the
// process, losing every answer.
const defaultMemoryShare = 0.6

// memoryLimit returns the heap limit in bytes for --max-memory mb (0: the
// default share of the machine's memory; 0 is returned, no limit, if the
// machine's memory is unknown).
func memoryLimit(mb int) uint64 {
	if mb > 0 {
		return uint64(mb) << 20
	}
	return uint64(float64(totalMemory()) * defaultMemoryShare)
}

// memGuard cancels the contexts it hands out, with the cause errMemory,
// when the Go heap grows past its limit: every exploration running then
// ends with "unknown" (memory bound hit), and later ones run as usual.
type memGuard struct {
	limit uint64
	mu    sync.Mutex
	live  map[int]context.CancelCauseFunc // by the number with() gave them
	next  int
}

// newMemGuard starts a guard that looks at the heap every 100 ms until
// ctx is done; limit 0 means no guard (contexts are only cancellable).
func newMemGuard(ctx context.Context, limit uint64) *memGuard {
	g := &memGuard{limit: limit, live: map[int]context.CancelCauseFunc{}}
	if limit == 0 {
		return g
	}
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > g.limit {
				g.cancelAll()
			}
		}
	}()
	return g
}

// with returns a context that the guard cancels when memory runs out, and
// a function to call when the work with it is done.
func (g *memGuard) with(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	g.mu.Lock()
	id := g.next
	g.next++
	g.live[id] = cancel
	g.mu.Unlock()
	return ctx, func() {
		g.mu.Lock()
		delete(g.live, id)
		g.mu.Unlock()
		cancel(nil)
	}
}

func (g *memGuard) cancelAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for id, cancel := range g.live {
		cancel(errMemory)
		delete(g.live, id)
	}
}

// memoryReason is the reason of an answer cut short by the guard.
func (g *memGuard) memoryReason() string {
	return fmt.Sprintf("memory bound hit (the explorations held more than %d MB; --max-memory)", g.limit>>20)
}
