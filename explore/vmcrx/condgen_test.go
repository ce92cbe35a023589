package vmcrx_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// condProgram generates a CIR program whose outcomes turn on condition
// variables: 1–3 waiters and 1–2 signallers (maxThreads threads at most, main included) on one or two condition
// variables guarded by m. A waiter waits for a token in a while loop (or,
// in one of three, in a bare if: a lost or stolen wake-up then lets it go
// without one), appends its id to joined before each wait, takes the
// token and appends its id to woke: the final state ties the order of the
// waits to the order of the wake-ups; a signaller (main is the last) adds a token and signals or
// broadcasts, inside the critical section or after it. main joins the
// other threads (a waiter never woken is a deadlock) and may assert over woke.
func condProgram(rng *rand.Rand, maxThreads int) string {
	var b strings.Builder
	conds := 1 + rng.IntN(2)
	waiters, signallers := 1+rng.IntN(3), 1+rng.IntN(2)
	if waiters+signallers > maxThreads {
		signallers = 1 // main signals
		waiters = min(waiters, maxThreads-1)
	}
	b.WriteString("global m: mutex;\nglobal tok: int;\nglobal woke: int;\nglobal joined: int;\nglobal last: int;\n")
	for c := 0; c < conds; c++ {
		fmt.Fprintf(&b, "global c%d: cond;\n", c)
	}
	for w := 1; w <= waiters; w++ {
		c := rng.IntN(conds)
		fmt.Fprintf(&b, "fn waiter%d() {\n    lock(m);\n", w)
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "    if (tok == 0) {\n        joined = joined * 4 + %d;\n        wait(c%d, m);\n    }\n", w, c)
		} else {
			fmt.Fprintf(&b, "    while (tok == 0) @unroll(3) {\n        joined = joined * 4 + %d;\n        wait(c%d, m);\n    }\n", w, c)
		}
		fmt.Fprintf(&b, "    tok = tok - 1;\n    woke = woke * 4 + %d;\n    unlock(m);\n", w)
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "    last = %d;\n", w)
		}
		b.WriteString("}\n")
	}
	for s := 1; s <= signallers; s++ {
		c := rng.IntN(conds)
		op := "signal"
		if rng.IntN(3) == 0 {
			op = "broadcast"
		}
		fmt.Fprintf(&b, "fn signaller%d() {\n    lock(m);\n    tok = tok + 1;\n", s)
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "    %s(c%d);\n    unlock(m);\n", op, c)
		} else {
			fmt.Fprintf(&b, "    unlock(m);\n    %s(c%d);\n", op, c)
		}
		b.WriteString("}\n")
	}
	// main spawns the threads in a random order, runs the last signaller
	// itself, then joins the threads.
	var names []string
	for w := 1; w <= waiters; w++ {
		names = append(names, fmt.Sprintf("waiter%d", w))
	}
	for s := 1; s < signallers; s++ {
		names = append(names, fmt.Sprintf("signaller%d", s))
	}
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	b.WriteString("fn main() {\n")
	for i, n := range names {
		fmt.Fprintf(&b, "    let t%d = spawn %s();\n", i, n)
	}
	fmt.Fprintf(&b, "    signaller%d();\n", signallers)
	for i := range names {
		fmt.Fprintf(&b, "    join(t%d);\n", i)
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "    assert(woke != %d);\n", 1+rng.IntN(4*4*4))
	}
	b.WriteString("}\n")
	return b.String()
}
