package trust

import "ncmc/ir"

// TSO consistency (seg/models/tso.cat, after herd's x86tso.cat):
//
//	uniproc:    acyclic po-loc | rf | mo | fr
//	atomicity:  empty rmw & (fr; mo)
//	tso:        acyclic ghb, ghb = ppo | rfe | fr | mo | mfence | implied | sync
//
// where ppo is program order except from a write to a read, mfence and
// implied order everything before a barrier (seq_cst fence, spawn, join)
// or a locked instruction (RMW, unlock, failed lock) before everything
// after it, and sync orders a thread's events before the spawn before the
// child's events, and the child's events before the join after it.
//
// uniproc and atomicity are checked as under RA and RC11: the coherence
// lower bound (Graph.lowerBound) of a new event from its derived hb view,
// which under TSO is the (po ∪ spawn ∪ join)* prefix (every write in it, or
// read by a read in it, is po-loc or ghb-before the new event, so reading
// or being placed coherence-before it closes a uniproc or ghb cycle), and
// RMW atomicity (Graph.rmwReader).
//
// ghb is checked per added event by a search: a new event e is the last of
// its thread, so its only outgoing ghb edges are a read's fr edges to the
// writes coherence-after the write it reads, and a write's mo edges to the
// writes coherence-after it; all of those are reachable from s, the first
// write coherence-after e's source (a read) or after e itself (a write)
// through mo. So the graph is inconsistent iff s reaches e in ghb (tsoOK).
// A read of the coherence-latest write and a write placed coherence-last
// have no outgoing edge and need no search.
//
// The search follows a transitive reduction of ghb: within a thread, a
// plain write goes to the next write or barrier, a read or a barrier to the
// next event and, if that is a plain write, to the next read or barrier
// after it; a write goes to its coherence successor (mo) and to its readers
// in other threads (rfe); a read goes to the first write coherence-after
// the write it reads (fr); a spawn goes to the child's first events as a
// barrier does, and a thread's end event, reached from all its events, to
// the joins of the thread. Events without a memory effect (and fences
// other than seq_cst ones) are skipped.

// tsoClass is an event's part in ghb.
type tsoClass uint8

const (
	tsoNone    tsoClass = iota // no memory effect: not in ghb
	tsoRead                    // a plain read
	tsoWrite                   // a plain write
	tsoBarrier                 // ordered with everything before and after it in its thread
)

func tsoClassOf(l *Label) tsoClass {
	switch l.Kind {
	case Read:
		if l.Excl != nil && l.Excl.Lock {
			return tsoBarrier // a failed lock: a locked read
		}
		return tsoRead
	case Write:
		if l.Unlock {
			return tsoBarrier
		}
		return tsoWrite
	case RMW, Spawn, Join, End:
		return tsoBarrier
	case Fence:
		if l.Order == ir.OrderSC {
			return tsoBarrier
		}
	}
	return tsoNone
}

// tsoOK reports whether the event e just added to g (the last of its
// thread; a read with its RF set, or a write at its coherence position)
// closes no ghb cycle.
func tsoOK(g *Graph, e Ref) bool {
	l := g.Label(e)
	co := g.co[l.Loc]
	var s Ref
	switch {
	case l.isWrite():
		i := g.coIndex(l.Loc, e)
		if i < 0 || i+1 >= len(co) {
			return true
		}
		s = co[i+1]
	case l.isRead():
		i := g.coIndex(l.Loc, l.RF) + 1 // -1 for the initial write
		if i >= len(co) {
			return true
		}
		s = co[i]
	default:
		return true
	}
	return !g.tsoReaches(s, e)
}

// tsoReaches reports whether from reaches to in ghb (a search over the
// reduction described above).
func (g *Graph) tsoReaches(from, to Ref) bool {
	g.mark++
	if g.mark == 0 { // wrapped: clear
		for t := range g.seen {
			clear(g.seen[t])
		}
		g.mark = 1
	}
	for len(g.seen) < len(g.ev) {
		g.seen = append(g.seen, nil)
	}
	for t := range g.ev {
		if n := len(g.ev[t]); len(g.seen[t]) < n {
			g.seen[t] = append(g.seen[t], make([]uint32, n-len(g.seen[t]))...)
		}
	}
	stack := g.stack[:0]
	found := false
	push := func(r Ref) {
		if found || r.IsInit() {
			return
		}
		if r == to {
			found = true
			return
		}
		if m := &g.seen[r.T][r.I]; *m != g.mark {
			*m = g.mark
			stack = append(stack, r)
		}
	}
	push(from)
	for len(stack) > 0 && !found {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		l := &g.ev[x.T][x.I]
		cl := tsoClassOf(l)
		g.tsoThreadSucc(x.T, int(x.I), cl == tsoWrite, push)
		if l.isWrite() {
			co := g.co[l.Loc]
			if i := g.coIndex(l.Loc, x); i >= 0 && i+1 < len(co) {
				push(co[i+1]) // mo
			}
			for _, r := range g.readers[x] {
				if r.T != x.T {
					push(r) // rfe
				}
			}
		}
		if l.isRead() {
			co := g.co[l.Loc]
			i := g.coIndex(l.Loc, l.RF) + 1
			if i < len(co) && co[i] == x {
				i++ // an RMW: its own mo successor
			}
			if i < len(co) {
				push(co[i]) // fr
			}
		}
		switch l.Kind {
		case Spawn:
			if int(l.Other) < len(g.ev) {
				g.tsoThreadSucc(l.Other, -1, false, push)
			}
		case End:
			for t := range g.ev {
				for i := range g.ev[t] {
					if j := &g.ev[t][i]; j.Kind == Join && j.Other == x.T {
						push(Ref{int32(t), int32(i)})
					}
				}
			}
		}
	}
	g.stack = stack[:0]
	return found
}

// tsoThreadSucc calls push with the ghb successors of event i of thread t
// in its thread (i = -1: the thread's start, which its spawn precedes):
// after a plain write (write) the next write or barrier; after anything
// else the next event and, if that is a plain write, the next read or
// barrier after it.
func (g *Graph) tsoThreadSucc(t int32, i int, write bool, push func(Ref)) {
	th := g.ev[t]
	j := i + 1
	if write {
		for ; j < len(th); j++ {
			if c := tsoClassOf(&th[j]); c == tsoWrite || c == tsoBarrier {
				push(Ref{t, int32(j)})
				return
			}
		}
		return
	}
	for ; j < len(th); j++ {
		c := tsoClassOf(&th[j])
		if c == tsoNone {
			continue
		}
		push(Ref{t, int32(j)})
		if c != tsoWrite {
			return
		}
		break
	}
	for j++; j < len(th); j++ {
		if c := tsoClassOf(&th[j]); c == tsoRead || c == tsoBarrier {
			push(Ref{t, int32(j)})
			return
		}
	}
}
