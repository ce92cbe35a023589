package interp

import (
	"maps"

	"ncmc/seg"
)

// Clone returns an independent copy of x that chooses with ch: the
// DPOR explorer snapshots the state before each step of its DFS path, and
// the stateful explorer at branching points, and run from a copy instead
// of re-executing the path from the start. Memory,
// threads, frames, the execution graph and the unfinished invocations are
// copied; finished invocations and the graph's past events are immutable
// and shared (slices are capped so that appends never write into the
// other execution's arrays). It returns nil for executions with graph
// exploration or race detection state, which it does not copy.
func (x *Execution) Clone(ch Chooser) *Execution {
	if x.rx != nil || x.races != nil || x.collecting {
		return nil
	}
	y := *x
	y.chooser = ch
	invs := x.copyState(&y)
	y.G = cloneGraph(x.G.Clone(), invs)
	return &y
}

// copyState gives y (a copy of x's fields) its own memory, threads,
// frames, locals and waiters; the logs are shared (capped). It returns
// the copies of the unfinished invocations.
func (x *Execution) copyState(y *Execution) map[*seg.Invocation]*seg.Invocation {
	// Memory: one array for all blocks (each block capped).
	n := 0
	for _, b := range x.mem {
		n += len(b)
	}
	cells := make([]int64, 0, n)
	y.mem = make([][]int64, len(x.mem))
	for i, b := range x.mem {
		if b != nil {
			k := len(cells)
			cells = append(cells, b...)
			y.mem[i] = cells[k:len(cells):len(cells)]
		}
	}
	// Threads, frames and locals, each kind in one array.
	nt, nf, nl := 0, 0, 0
	for _, t := range x.threads {
		if t != nil {
			nt++
			nf += len(t.frames)
			for _, f := range t.frames {
				nl += len(f.locals)
			}
		}
	}
	ths := make([]Thread, 0, nt)
	frs := make([]Frame, 0, nf)
	locs := make([]int64, 0, nl)
	var invs map[*seg.Invocation]*seg.Invocation
	y.threads = make([]*Thread, len(x.threads))
	for i, t := range x.threads {
		if t == nil {
			continue
		}
		ths = append(ths, *t)
		u := &ths[len(ths)-1]
		k := len(frs)
		for _, f := range t.frames {
			l := len(locs)
			locs = append(locs, f.locals...)
			f.locals = locs[l:len(locs):len(locs)]
			if f.inv != nil && !f.inv.Done {
				if invs == nil {
					invs = map[*seg.Invocation]*seg.Invocation{}
				}
				c, ok := invs[f.inv]
				if !ok {
					cp := *f.inv
					c = &cp
					invs[f.inv] = c
				}
				f.inv = c
			}
			frs = append(frs, f)
		}
		u.frames = frs[k:len(frs):len(frs)]
		u.buf = append([]bufEntry(nil), t.buf...)
		if t.tls != nil {
			u.tls = append([]int64(nil), t.tls...)
		}
		y.threads[i] = u
	}
	y.live = x.live[:len(x.live):len(x.live)]
	y.waiters = make(map[int64][]int32, len(x.waiters))
	for k, v := range x.waiters {
		y.waiters[k] = v[:len(v):len(v)]
	}
	if x.owner != nil {
		y.owner = maps.Clone(x.owner)
	}
	y.Trace = x.Trace[:len(x.Trace):len(x.Trace)]
	y.Log = x.Log[:len(x.Log):len(x.Log)]
	y.Commits = x.Commits[:len(x.Commits):len(x.Commits)]
	y.Choices = x.Choices[:len(x.Choices):len(x.Choices)]
	return invs
}

// cloneGraph makes the begin events of the unfinished invocations of g, a
// copy of a graph that shares its events, name their copies invs.
func cloneGraph(g *seg.Graph, invs map[*seg.Invocation]*seg.Invocation) *seg.Graph {
	// The begin events of the unfinished invocations name the copies.
	copied := map[int32]bool{}
	for old, c := range invs {
		id := old.Begin
		if id.IsInit() || int(id.T) >= len(g.Threads) || int(id.I) >= len(g.Threads[id.T]) {
			continue
		}
		if !copied[id.T] {
			evs := append([]seg.Event(nil), g.Threads[id.T]...)
			g.Threads[id.T] = evs[:len(evs):len(evs)]
			copied[id.T] = true
		}
		if ev := &g.Threads[id.T][id.I]; ev.Inv == old {
			ev.Inv = c
		}
	}
	return g
}
