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
//     parent's stream where the sequential search would have reported it;
//     a cursor walks the streams in that order and hands each leaf to
//     Options.Leaf as soon as every leaf before it has been handed over.

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

	// tokens limits the goroutines that explore at once: a goroutine
	// takes one (without waiting) to start a subtree on another
	// goroutine, and gives it back while it waits for its subtrees; after
	// the wait it takes one again if one is free and goes on without
	// otherwise (no goroutine ever waits for a token).
	tokens chan struct{}
	ids    locIDs
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

// open appends a new stream for a subtree to s.
func (sh *shared) open(s *stream) *stream {
	c := &stream{}
	sh.mu.Lock()
	s.items = append(s.items, entry{child: c})
	sh.mu.Unlock()
	return c
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

// fork returns an explorer for a subtree explored by another goroutine:
// the same path (frames are shared), its own stream, statistics and
// search buffers.
func (e *explorer) fork(out *stream) *explorer {
	return &explorer{ctx: e.ctx, run: e.run, opts: e.opts, sh: e.sh, out: out, obsID: e.obsID,
		stack: append([]*frame(nil), e.stack...), token: true}
}

// siblings explores sibling subtrees, some of them on other goroutines
// when a worker is free. Call spawn(f) for each subtree in order, then
// wait.
type siblings struct {
	e    *explorer
	wg   sync.WaitGroup
	subs []*explorer
}

// spawn explores a subtree with f: on another goroutine if a worker is
// free and this is not the last sibling (last), else here.
func (s *siblings) spawn(last bool, f func(e *explorer)) {
	e := s.e
	if !last && e.sh.tokens != nil {
		select {
		case e.sh.tokens <- struct{}{}:
			sub := e.fork(e.sh.open(e.out))
			s.subs = append(s.subs, sub)
			s.wg.Add(1)
			go func() {
				defer func() {
					e.sh.close(sub.out)
					if sub.token {
						<-e.sh.tokens
					}
					s.wg.Done()
				}()
				f(sub)
			}()
			return
		default:
		}
	}
	f(e)
}

// wait waits for the subtrees on other goroutines and adds up their
// statistics.
func (s *siblings) wait() {
	if len(s.subs) == 0 {
		return
	}
	e := s.e
	// Give this goroutine's token back while it waits.
	if e.token {
		<-e.sh.tokens
	}
	s.wg.Wait()
	select {
	case e.sh.tokens <- struct{}{}:
		e.token = true
	default:
		e.token = false
	}
	for _, sub := range s.subs {
		e.stats.add(sub.stats)
	}
	s.subs = s.subs[:0]
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
