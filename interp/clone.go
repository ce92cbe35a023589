package interp

import (
	"maps"

	"ncmc/ir"

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
	invs := x.copyState(&y, nil)
	y.alloc = append([]ir.AllocKind(nil), x.alloc...)
	y.G = cloneGraph(x.G.Clone(), invs)
	return &y
}

// copyState gives y (a copy of x's fields) its own memory, threads,
// frames, locals and waiters; the logs are shared (capped). It returns
// the copies of the unfinished invocations. fs (nil: none) holds arrays
// of a dead copy to reuse; it is given the arrays y uses.
func (x *Execution) copyState(y *Execution, fs *forkStore) map[*seg.Invocation]*seg.Invocation {
	if fs == nil {
		fs = &forkStore{}
	}
	// Memory: one array for all blocks (each block capped).
	n := 0
	for _, b := range x.mem {
		n += len(b)
	}
	cells := grab(fs.cells, n)
	y.mem = grab(fs.mem, len(x.mem))[:len(x.mem)]
	for i, b := range x.mem { // (every entry set: no clear first)
		if b == nil {
			y.mem[i] = nil
			continue
		}
		k := len(cells)
		cells = append(cells, b...)
		y.mem[i] = cells[k:len(cells):len(cells)]
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
	// Each store buffer has room for a few more stores in the array.
	const bufRoom = 4
	nb := 0
	for _, t := range x.threads {
		if t != nil {
			nb += len(t.buf) + bufRoom
		}
	}
	bufs := grab(fs.bufs, nb)
	ths := grab(fs.ths, nt)
	frs := grab(fs.frs, nf)
	locs := grab(fs.locs, nl)
	var invs map[*seg.Invocation]*seg.Invocation
	y.threads = grab(fs.threads, len(x.threads))[:len(x.threads)]
	for i, t := range x.threads { // (every entry set: no clear first)
		if t == nil {
			y.threads[i] = nil
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
		// The store buffers share one array (each capped past its room).
		k = len(bufs)
		bufs = append(bufs, t.buf...)
		u.buf = bufs[k : len(bufs) : len(bufs)+bufRoom]
		bufs = bufs[:len(bufs)+bufRoom]
		if t.tls != nil {
			u.tls = append([]int64(nil), t.tls...)
		}
		y.threads[i] = u
	}
	fs.cells, fs.mem, fs.ths, fs.frs, fs.locs, fs.threads, fs.bufs = cells, y.mem, ths, frs, locs, y.threads, bufs
	y.live = x.live[:len(x.live):len(x.live)]
	if fs.waiters != nil {
		if len(fs.waiters) > 0 {
			clear(fs.waiters)
		}
		y.waiters = fs.waiters
	} else {
		y.waiters = make(map[int64][]int32, len(x.waiters))
	}
	fs.waiters = y.waiters
	if len(x.waiters) > 0 { // (an iteration costs even when empty)
		for k, v := range x.waiters {
			y.waiters[k] = v[:len(v):len(v)]
		}
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
	if len(invs) == 0 {
		return g
	}
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

// forkStore holds the arrays of a copy made by ForkDriven, which a later
// ForkDriven reuses once that copy is dead.
type forkStore struct {
	cells   []int64
	mem     [][]int64
	ths     []Thread
	frs     []Frame
	locs    []int64
	threads []*Thread
	bufs    []bufEntry
	mo      []seg.EventID
	waiters map[int64][]int32
	g       *seg.Graph
	rx      *relaxed
}

// grab returns buf emptied if it has room for n elements, else a new
// slice with that room.
func grab[T any](buf []T, n int) []T {
	if cap(buf) >= n {
		return buf[:0]
	}
	return make([]T, 0, n)
}

// Fork returns an independent copy of x that chooses with ch: memory,
// threads, frames, the execution graph and the logs are all copied, so
// either may go on, be released (Release) or be dropped without affecting
// the other. The vmcr explorer keeps a fork of a run at the end of its
// witness and resumes the runs of later witnesses that share that prefix
// from a fork of it instead of running them from the start. dead (nil:
// none) is an execution Fork returned before that is no longer used (not
// released either): the copy reuses its storage. Fork returns nil for
// executions that Clone does not copy (graph exploration, race detection,
// traces).
func (x *Execution) Fork(ch Chooser, dead *Execution) *Execution {
	if x.rx != nil || x.races != nil || x.collecting {
		return nil
	}
	var fs *forkStore
	var oldEv [][]seg.Event
	// The arrays of the dead copy that y reuses.
	var old struct {
		scratch []int64
		Log     []StepInfo
		Commits []CommitRec
		Choices []ChoiceRec
		alloc   []ir.AllocKind
		live    []int32
	}
	if dead != nil && dead != x && dead.fork != nil {
		fs, oldEv = dead.fork, dead.G.Threads
		old.scratch, old.Log, old.Commits, old.Choices = dead.scratch, dead.Log, dead.Commits, dead.Choices
		old.alloc, old.live = dead.alloc, dead.live
	} else {
		fs, dead = &forkStore{}, new(Execution)
	}
	y := dead
	*y = *x
	y.chooser = ch
	y.fork = fs
	y.spare, y.scratch = spare{}, old.scratch
	invs := x.copyState(y, fs)
	// copyState shares the logs: copy them into the dead copy's arrays
	y.Log = append(old.Log[:0], x.Log...)
	y.Commits = append(old.Commits[:0], x.Commits...)
	y.Choices = append(old.Choices[:0], x.Choices...)
	y.Trace = nil
	y.alloc = append(old.alloc[:0], x.alloc...)
	y.live = append(old.live[:0], x.live...)
	if len(y.waiters) > 0 {
		for k, v := range y.waiters {
			y.waiters[k] = append([]int32(nil), v...)
		}
	}
	if x.owner != nil {
		y.owner = maps.Clone(x.owner)
	}
	if fs.g == nil {
		fs.g = new(seg.Graph)
	}
	g := fs.g
	mo := g.MO
	names, parent, spawned := g.Names, g.Parent, g.SpawnedBy
	*g = *x.G
	const room = 8
	ths := grab(oldEv, len(x.G.Threads)+2)
	for t, evs := range x.G.Threads {
		var buf []seg.Event
		if t < len(oldEv) {
			buf = oldEv[t]
		}
		if cap(buf) < len(evs)+room {
			buf = make([]seg.Event, 0, 2*len(evs)+room)
		}
		buf = append(buf[:0], evs...)
		ths = append(ths, buf)
	}
	g.Threads = ths
	g.Names = append(names[:0], x.G.Names...)
	g.Parent = append(parent[:0], x.G.Parent...)
	g.SpawnedBy = append(spawned[:0], x.G.SpawnedBy...)
	if mo == nil {
		mo = make(map[int64][]seg.EventID, len(x.G.MO))
	}
	// The dead copy's map mostly has x's locations: they are overwritten,
	// and the map is cleared only when it has others (clearing costs as
	// much as the map is large). The writes of every location are copied
	// into one array, each with room for a few more (later writes are
	// appended; past the room, an append copies). When the array is full
	// a larger one continues it: the slices already made stay in the old
	// one, whose room is theirs.
	const moRoom = 8
	if len(mo) > len(x.G.MO) {
		clear(mo)
	}
	mb := fs.mo[:0]
	for {
		for k, v := range x.G.MO {
			if cap(mb)-len(mb) < len(v)+moRoom {
				mb = make([]seg.EventID, 0, 2*cap(mb)+len(v)+moRoom)
			}
			i := len(mb)
			mb = append(mb, v...)
			mo[k] = mb[i : len(mb) : len(mb)+moRoom]
			mb = mb[:len(mb)+moRoom]
		}
		if len(mo) == len(x.G.MO) {
			break
		}
		clear(mo) // it had locations x has not: again from empty
		mb = mb[:0]
	}
	fs.mo = mb
	g.MO = mo
	// The initial values are shared until one of the two allocates
	// (copy on write; traces of either run may keep the map).
	if !x.initShared {
		x.initShared = true
	}
	y.initShared = true
	y.G = cloneGraph(g, invs)
	return y
}

// Forked reports whether x was made by Fork (its storage can be handed to
// a later Fork as dead).
func (x *Execution) Forked() bool { return x.fork != nil && x.rx == nil }
