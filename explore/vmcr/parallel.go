package vmcr

import (
	"sync"
	"sync/atomic"
)

// Parallel exploration. Sibling subtrees (the value groups of one frontier
// read, the alternatives of one choice) are independent but for two
// things, both handled so that the result does not depend on the number of
// workers or on timing:
//
//   - runs in a subtree mark the frames of its ancestors (newW). Marks
//     only ever go from false to true, and a frame reads them only after
//     every subtree of its current read has finished, so the order of the
//     marks does not matter.
//   - leaves must reach Options.Leaf in the order of the sequential
//     search (it may stop the exploration). Every subtree explored by
//     another goroutine gets its own stream of leaves, placed in its
//     parent's stream where the sequential search would have reported it
//     (when the goroutine that owns the sibling set comes to it); a cursor
//     walks the streams in that order and hands each leaf to Options.Leaf
//     as soon as every leaf before it has been handed over.
//
// Which goroutine explores what: sibling subtrees wait in a pool until
// their owner comes to them, and a free worker takes the last one not
// begun of the set nearest the root (siblings, dispatch). The owner
// never waits for a worker, so the leftmost unfinished subtree is always
// being explored and the streams always drain.

// shared is the state the goroutines of one exploration share.
type shared struct {
	mu      sync.Mutex // guards the streams, the cursor and Leaf
	cursor  []cursorAt
	leaf    func(*Trace) bool
	fold    func(prev, cur any) bool // Options.Fold
	payload *Trace                   // hands summaries to leaf
	drained *sync.Cond               // signalled when pump hands leaves over and goroutines wait for it
	waiting int                      // goroutines waiting for their stream to drain
	// maxBuffered: a stream holding this many leaves waits (maxBuffered
	// above; tests make it small).
	maxBuffered int

	stopped atomic.Bool
	errMu   sync.Mutex
	err     error

	// tokens limits the goroutines that explore at once: dispatch takes
	// one (without waiting) to start a goroutine on a subtree of the
	// pool; a goroutine gives its token back when it ends and while it
	// waits for subtrees other goroutines took from its sibling sets;
	// after the wait it takes one again if one is free and goes on without
	// otherwise (no goroutine ever waits for a token).
	tokens chan struct{}
	ids    locIDs

	poolMu sync.Mutex
	pool   []*siblings // sibling sets with subtrees other goroutines may take
}

// stream is the leaves of one subtree in order; an entry is a leaf or the
// stream of a subtree explored by another goroutine.
type stream struct {
	items  []entry
	closed bool
}

type entry struct {
	leaf  any // a *Trace, or Options.Summary's result
	child *stream
	err   error // the search failed here (explorer.fail)
}

type cursorAt struct {
	s *stream
	i int
}

// maxBuffered bounds the leaves a stream holds while earlier leaves are
// not handed over yet: its goroutine then waits (without its token), so
// memory stays bounded. (1 << 16 held lastzero N=15's peak at 227 MB
// under sc and 306 MB under tso with two workers; 1 << 12: 149 and 211 MB.
// With the CLI's soft memory limit, cmd/ncmc/gctune.go, two workers on an
// idle 2-core machine: 1 << 12 lastzero N=15 tso 123 MB, fib_bench NUM=5
// sc 6.3 s wall; 1 << 14 127-130 MB, 3.9-5.4 s; 1 << 16 180 MB, 4.7 s:
// a goroutine that waits with a full buffer leaves its core idle.)
const maxBuffered = 1 << 14

// emit appends a leaf to s and hands over every leaf that is due.
func (sh *shared) emit(s *stream, leaf any) {
	sh.mu.Lock()
	if n := len(s.items); n > 0 && sh.fold != nil {
		// A leaf not handed over yet (pump clears those it hands over)
		// may take this one in.
		if last := s.items[n-1]; last.leaf != nil && sh.fold(last.leaf, leaf) {
			sh.mu.Unlock()
			return
		}
	}
	s.items = append(s.items, entry{leaf: leaf})
	sh.pump()
	if len(s.items) < sh.maxBuffered || sh.tokens == nil {
		sh.mu.Unlock()
		return
	}
	// Wait with the token: the goroutines holding buffers stay at most
	// the workers. The goroutine that hands leaves over never waits here
	// nor for a token, so this ends.
	sh.waiting++
	for len(s.items) >= (sh.maxBuffered+1)/2 && !sh.stopped.Load() {
		sh.drained.Wait()
	}
	sh.waiting--
	sh.mu.Unlock()
}

// emitErr appends an error to s: the exploration fails with it when the
// leaves before it have been handed over.
func (sh *shared) emitErr(s *stream, err error) {
	sh.mu.Lock()
	s.items = append(s.items, entry{err: err})
	sh.pump()
	sh.mu.Unlock()
}

// link appends stream c of a subtree explored by another goroutine to s.
func (sh *shared) link(s, c *stream) {
	sh.mu.Lock()
	s.items = append(s.items, entry{child: c})
	sh.pump()
	sh.mu.Unlock()
}

// close ends stream s.
func (sh *shared) close(s *stream) {
	sh.mu.Lock()
	s.closed = true
	sh.pump()
	sh.mu.Unlock()
}

// pump hands every due leaf to Leaf (sh.mu held).
func (sh *shared) pump() {
	if sh.waiting > 0 {
		defer sh.drained.Broadcast()
	}
	for len(sh.cursor) > 0 {
		if sh.stopped.Load() {
			return
		}
		top := &sh.cursor[len(sh.cursor)-1]
		s := top.s
		if top.i < len(s.items) {
			it := s.items[top.i]
			s.items[top.i] = entry{}
			top.i++
			if top.i == len(s.items) {
				// Everything handed over: reuse the buffer.
				s.items, top.i = s.items[:0], 0
			}
			if it.child != nil {
				sh.cursor = append(sh.cursor, cursorAt{s: it.child})
				continue
			}
			if it.err != nil {
				sh.setErr(it.err)
				sh.stopped.Store(true)
				return
			}
			tr, ok := it.leaf.(*Trace)
			if !ok {
				// A summary: Leaf gets it in one Trace, reused (Options.Leaf).
				if sh.payload == nil {
					sh.payload = &Trace{}
				}
				tr = sh.payload
				tr.Payload = it.leaf
			}
			if sh.leaf != nil && sh.leaf(tr) {
				sh.stopped.Store(true)
				return
			}
			continue
		}
		if !s.closed {
			return
		}
		sh.cursor = sh.cursor[:len(sh.cursor)-1]
	}
}

func (sh *shared) fail(err error) {
	sh.setErr(err)
	sh.stopped.Store(true)
	sh.mu.Lock()
	sh.drained.Broadcast()
	sh.mu.Unlock()
}

// setErr records err unless an error was recorded first.
func (sh *shared) setErr(err error) {
	sh.errMu.Lock()
	if sh.err == nil {
		sh.err = err
	}
	sh.errMu.Unlock()
}

// siblings explores sibling subtrees in order, some of them on other
// goroutines: add subtrees, explore the ones added (runPending), add more
// if they are due, and finish. The subtrees wait in a pool of the
// exploration (shared.pool) until this goroutine comes to them; a
// goroutine that is free meanwhile (a worker token is free) takes one
// (steal). It takes the last subtree not begun of the set with the fewest
// sets above it on its goroutine's path, the subtree most likely to be
// large, so that a free core finds work as soon as there is any rather
// than when the goroutines that hold it next reach a branch.
type siblings struct {
	e *explorer
	// under shared.poolMu once pooled:
	tasks  []sibTask
	subs   []*explorer
	next   int // the owner's next task
	pooled bool
	waited int      // subs whose statistics are added
	depth  int      // sets above this one on its goroutine's path
	stack  []*frame // the path for a stolen task (its owner's, fixed)
	curs   []int    // the path's reads being branched on (explorer.curs)
	wg     sync.WaitGroup
}

// sibTask is a subtree: f explores it; cur (-1: none) is the read of the
// frame on top of the path whose value group it is (explorer.curs).
type sibTask struct {
	f     func(e *explorer)
	cur   int
	state sibState // once the set is pooled
	out   *stream  // the stream of a stolen task
}

type sibState uint8

const (
	sibPending sibState = iota // not begun
	sibOwned                   // explored (or given up) by the owner
	sibStolen                  // explored by another goroutine
)

// add appends a subtree, explored by f; cur as in sibTask.
func (s *siblings) add(cur int, f func(e *explorer)) {
	e := s.e
	sh := e.sh
	t := sibTask{f: f, cur: cur}
	if s.pooled {
		sh.poolMu.Lock()
		s.tasks = append(s.tasks, t)
		sh.poolMu.Unlock()
		sh.dispatch()
		return
	}
	s.tasks = append(s.tasks, t)
	if sh.tokens == nil || len(s.tasks)-s.next < 2 {
		return
	}
	// Two subtrees not begun: others may take one.
	for k := range s.next {
		s.tasks[k].state = sibOwned
	}
	s.depth = e.sibDepth
	s.stack, s.curs = e.stack[:len(e.stack):len(e.stack)], e.curs[:len(e.curs):len(e.curs)]
	s.pooled = true
	sh.poolMu.Lock()
	sh.pool = append(sh.pool, s)
	sh.poolMu.Unlock()
	sh.dispatch()
}

// runPending explores, in order, every subtree added and not begun, and
// links the streams of those others took; it returns when each has been
// begun (or the exploration stopped).
func (s *siblings) runPending() {
	e := s.e
	sh := e.sh
	for !e.stopped() {
		var t sibTask
		if s.pooled {
			sh.poolMu.Lock()
			if s.next == len(s.tasks) {
				sh.poolMu.Unlock()
				return
			}
			k := s.next
			s.next++
			t = s.tasks[k]
			if t.state == sibPending {
				s.tasks[k].state = sibOwned
			}
			sh.poolMu.Unlock()
			if t.state == sibStolen {
				sh.link(e.out, t.out)
				continue
			}
		} else {
			if s.next == len(s.tasks) {
				return
			}
			t = s.tasks[s.next]
			s.next++
		}
		if t.cur >= 0 {
			e.curs[len(e.curs)-1] = t.cur
		}
		e.sibDepth++
		t.f(e)
		e.sibDepth--
	}
}

// waitStolen waits for the subtrees others took (runPending has begun
// every subtree, so no more are taken) and adds up their statistics.
func (s *siblings) waitStolen() {
	if !s.pooled {
		return
	}
	e := s.e
	sh := e.sh
	sh.poolMu.Lock()
	subs := s.subs
	sh.poolMu.Unlock()
	if s.waited == len(subs) {
		return
	}
	// Give this goroutine's token back while it waits.
	if e.token {
		<-sh.tokens
		sh.dispatch()
	}
	s.wg.Wait()
	select {
	case sh.tokens <- struct{}{}:
		e.token = true
	default:
		e.token = false
	}
	for _, sub := range subs[s.waited:] {
		e.stats.add(sub.stats)
	}
	s.waited = len(subs)
}

// finish ends the set: the subtrees not begun (the exploration stopped)
// are given up, and finish waits for those others took.
func (s *siblings) finish() {
	if !s.pooled {
		return
	}
	sh := s.e.sh
	sh.poolMu.Lock()
	for k := range s.tasks {
		if s.tasks[k].state == sibPending {
			s.tasks[k].state = sibOwned
		}
	}
	sh.unpool(s)
	sh.poolMu.Unlock()
	s.waitStolen()
}

// run explores the subtrees added, in order, and finishes the set.
func (s *siblings) run() {
	s.runPending()
	s.finish()
}

// unpool removes s from the pool (poolMu held).
func (sh *shared) unpool(s *siblings) {
	for i, x := range sh.pool {
		if x == s {
			last := len(sh.pool) - 1
			sh.pool[i] = sh.pool[last]
			sh.pool[last] = nil
			sh.pool = sh.pool[:last]
			return
		}
	}
}

// dispatch starts a goroutine on a subtree of the pool for every free
// worker token while there are subtrees not begun. Every change that may
// allow one (subtrees added, a token given back) calls it.
func (sh *shared) dispatch() {
	for !sh.stopped.Load() {
		select {
		case sh.tokens <- struct{}{}:
		default:
			return
		}
		s, k, sub := sh.steal()
		if s == nil {
			<-sh.tokens
			return
		}
		go s.explore(k, sub)
	}
}

// steal takes the last subtree not begun of the set with the fewest sets
// above it, with the explorer for it, or returns nil if there is none.
func (sh *shared) steal() (*siblings, int, *explorer) {
	sh.poolMu.Lock()
	defer sh.poolMu.Unlock()
	var best *siblings
	bestK := -1
	for _, s := range sh.pool {
		if best != nil && s.depth >= best.depth {
			continue
		}
		for k := len(s.tasks) - 1; k >= 0; k-- {
			if s.tasks[k].state == sibPending {
				best, bestK = s, k
				break
			}
		}
	}
	if best == nil {
		return nil, -1, nil
	}
	s := best
	out := &stream{}
	s.tasks[bestK].state, s.tasks[bestK].out = sibStolen, out
	e := s.e
	// The owner sets the top entry of its curs for each subtree with a
	// cur of its own (runPending), so that entry is not read here; the
	// entries below stay as they are while the owner explores the set.
	var curs []int
	if c := s.tasks[bestK].cur; c >= 0 {
		curs = append(append(curs, s.curs[:len(s.curs)-1]...), c)
	} else {
		curs = append(curs, s.curs...)
	}
	sub := &explorer{ctx: e.ctx, run: e.run, opts: e.opts, sh: sh, out: out, obsID: e.obsID,
		stack: append([]*frame(nil), s.stack...), curs: curs, token: true, sibDepth: s.depth + 1}
	s.subs = append(s.subs, sub)
	s.wg.Add(1)
	return s, bestK, sub
}

// explore explores stolen subtree k of s with sub on this goroutine,
// which holds a worker token.
func (s *siblings) explore(k int, sub *explorer) {
	sh := sub.sh
	sh.poolMu.Lock()
	f := s.tasks[k].f
	sh.poolMu.Unlock()
	f(sub)
	sh.close(sub.out)
	if sub.token {
		<-sh.tokens
	}
	s.wg.Done()
	sh.dispatch()
}

func (s *Stats) add(o Stats) {
	s.Nodes += o.Nodes
	s.Runs += o.Runs
	s.Reused += o.Reused
	s.Leaves += o.Leaves
	s.Discarded += o.Discarded
	s.Searches += o.Searches
	s.SearchStates += o.SearchStates
	s.Infeasible += o.Infeasible
	s.Duplicates += o.Duplicates
	s.Barren += o.Barren
	s.Children += o.Children
	s.Dead += o.Dead
	s.FailLeaves += o.FailLeaves
	s.Fallbacks += o.Fallbacks
	s.OracleUnknown += o.OracleUnknown
	s.OracleBad += o.OracleBad
	s.Unmarked += o.Unmarked
}
