package hunt

import (
	"math"
	"math/rand/v2"

	"ncmc/interp"
	"ncmc/memmodel"
)

// PCT (probabilistic concurrency testing, Burckhardt, Kothari, Musuvathi and
// Nagarakatte, ASPLOS 2010). A run:
//
//  1. gives every schedulable entity a distinct random initial priority in
//     d, d+1, ...: an entity seen for the first time is inserted at a
//     uniformly random rank among the entities with initial priorities, which
//     makes the ranks a uniformly random permutation;
//  2. draws d-1 distinct change points k_1..k_{d-1} uniformly from [1, k];
//  3. at every step runs the enabled entity with the highest priority; when
//     the step number equals k_i, the entity about to run first gets priority
//     i (below every initial priority) and the choice is made again.
//
// Entities are threads; under TSO/PSO a thread's store buffer (per location
// under PSO) is an entity of its own, scheduled like a thread. Every step
// counts, forced ones included, so k is the length of a run. A run hits any
// bug of depth d with probability >= 1/(n·k^(d-1)) when no run is longer
// than k steps. Nondeterministic choices (nondet, which waiter a signal wakes)
// are drawn uniformly.
type pctSched struct {
	d      int
	kFixed int // k given by the user, 0: estimate
	k      int // k in force (0 until the calibration run is done)
	kUsed  int // k of the current run (0: the calibration run, no change points)
	model  memmodel.Exec

	rng    *rand.Rand
	rank   []pctKey       // entities with initial priorities, highest first
	low    map[pctKey]int // lowered entities and their priorities 1..d-1
	seen   map[pctKey]bool
	change map[int]int // step number -> change point index

	maxEntities int
	pctRuns     int
	longer      int // runs longer than the k they used
	estimated   bool
}

type pctKey struct {
	t     int32
	flush bool
	loc   int64
}

func newPCT(d, k int, model memmodel.Exec) *pctSched {
	return &pctSched{d: d, kFixed: k, k: k, model: model,
		low: map[pctKey]int{}, seen: map[pctKey]bool{}, change: map[int]int{}}
}

func (p *pctSched) key(a interp.Action) pctKey {
	switch {
	case !a.Flush:
		return pctKey{t: a.T}
	case p.model == memmodel.StoreBufferPerLoc:
		return pctKey{t: a.T, flush: true, loc: a.Loc}
	}
	return pctKey{t: a.T, flush: true}
}

func (p *pctSched) begin(_ int, rng *rand.Rand) {
	p.rng = rng
	p.rank = p.rank[:0]
	clear(p.low)
	clear(p.seen)
	clear(p.change)
	p.kUsed = p.k
	if p.k == 0 {
		return // calibration run: measure k, no change points
	}
	p.pctRuns++
	m := min(p.d-1, p.k)
	for i := 1; i <= m; {
		s := 1 + p.rng.IntN(p.k)
		if _, dup := p.change[s]; dup {
			continue
		}
		p.change[s] = i
		i++
	}
}

// prio returns the priority of entity e (higher runs first).
func (p *pctSched) prio(e pctKey) int {
	if l, ok := p.low[e]; ok {
		return l
	}
	for i, r := range p.rank {
		if r == e {
			return p.d + len(p.rank) - 1 - i
		}
	}
	return math.MinInt // not reached: every enabled entity is ranked
}

func (p *pctSched) best(en []interp.Action) interp.Action {
	best, bp := en[0], math.MinInt
	for _, a := range en {
		if pr := p.prio(p.key(a)); pr > bp {
			best, bp = a, pr
		}
	}
	return best
}

func (p *pctSched) pick(x *interp.Execution, en []interp.Action) interp.Action {
	for _, a := range en {
		e := p.key(a)
		if p.seen[e] {
			continue
		}
		p.seen[e] = true
		i := p.rng.IntN(len(p.rank) + 1)
		p.rank = append(p.rank, pctKey{})
		copy(p.rank[i+1:], p.rank[i:])
		p.rank[i] = e
	}
	p.maxEntities = max(p.maxEntities, len(p.seen))
	a := p.best(en)
	if i, ok := p.change[x.Steps()+1]; ok {
		e := p.key(a)
		for j, r := range p.rank {
			if r == e {
				p.rank = append(p.rank[:j], p.rank[j+1:]...)
				break
			}
		}
		p.low[e] = i
		a = p.best(en)
	}
	return a
}

func (p *pctSched) end(steps int) {
	steps = max(steps, 1)
	switch {
	case p.kUsed == 0:
		p.k = steps
		p.estimated = true
	case steps > p.kUsed:
		p.longer++
		if p.kFixed == 0 {
			p.k = max(p.k, steps)
		}
	}
}

// info summarises the guarantee after runs runs.
func (p *pctSched) info(runs int) *PCTInfo {
	n := max(p.maxEntities, 1)
	k := max(p.k, 1)
	per := 1 / (float64(n) * math.Pow(float64(k), float64(p.d-1)))
	return &PCTInfo{Threads: n, Steps: k, Depth: p.d, PerRun: per, PCTRuns: p.pctRuns,
		MissProb: missProb(per, p.pctRuns), Estimated: p.estimated, Grown: p.longer}
}

// randomWalk picks an enabled action uniformly at every step (threads and,
// under TSO/PSO, store-buffer flushes alike).
type randomWalk struct{ rng **rand.Rand }

func (r randomWalk) begin(_ int, rng *rand.Rand) { *r.rng = rng }

func (r randomWalk) pick(_ *interp.Execution, en []interp.Action) interp.Action {
	return en[(*r.rng).IntN(len(en))]
}

func (r randomWalk) end(int) {}
