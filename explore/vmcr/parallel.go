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
	mu     sync.Mutex // guards the streams, the cursor and Leaf
	cursor []cursorAt
	leaf   func(*Trace) bool

	stopped atomic.Bool
	errMu   sync.Mutex
	err     error

	// tokens limits the goroutines that explore at once: a goroutine
	// holds one while it works and gives it back while it waits for its
	// subtrees.
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
	leaf  *Trace
	child *stream
}

type cursorAt struct {
	s *stream
	i int
}

// emit appends a leaf to s and hands over every leaf that is due.
func (sh *shared) emit(s *stream, tr *Trace) {
	sh.mu.Lock()
	s.items = append(s.items, entry{leaf: tr})
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
			if sh.leaf != nil && sh.leaf(it.leaf) {
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
	sh.errMu.Lock()
	if sh.err == nil {
		sh.err = err
	}
	sh.errMu.Unlock()
	sh.stopped.Store(true)
}

// fork returns an explorer for a subtree explored by another goroutine:
// the same path (frames are shared), its own stream, statistics and
// search buffers.
func (e *explorer) fork(out *stream) *explorer {
	return &explorer{ctx: e.ctx, run: e.run, opts: e.opts, sh: e.sh, out: out, obsID: e.obsID,
		stack: append([]*frame(nil), e.stack...)}
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
					<-e.sh.tokens
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
	<-e.sh.tokens
	s.wg.Wait()
	e.sh.tokens <- struct{}{}
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
}
