package seg

import (
	"fmt"
	"sort"
)

// The built-in memory models. Each is a declarative definition evaluated by
// the one engine of model.go; they follow herd7's model files (herdtools7
// herd/libdir: sc.cat, x86tso.cat, rc11.cat) with three systematic
// adaptations to ncmc's graphs, described in the package documentation of
// relations (space.go):
//
//   - An RMW (and a lock) is ONE node in R ∩ W, not herd's read and write
//     events linked by rmw. The base relation rmw is therefore the identity on
//     RMW nodes, and fr = (rf⁻¹;mo) \ id drops the RMW's self edge. Atomicity
//     is "empty rmw & (fr;mo)": no write lies mo-between an RMW and the write
//     it reads from.
//   - Every location has its own initial-write node (the set IW), first in mo.
//   - po is intra-thread program order. Thread creation and joining are the
//     base relations spawn (spawn event → first event of the child) and join
//     (last event of the child → join event). Under SC, TSO and PSO they are
//     part of the global order; under RA and RC11 they are part of sw (C11
//     [thread.thread.constr]: the completion of the thread constructor
//     synchronizes with the start of the new thread; [thread.thread.member]:
//     the thread's completion synchronizes with the return of join).
//
// Locks and unlocks are accesses to the mutex location: a KLock is an RMW
// that reads from the previous KUnlock (or the initial write) and a KUnlock is
// a write, so mutual exclusion is RMW atomicity on the mutex's mo. Under RA
// and RC11 a lock is an acquire and an unlock a release (EffectiveOrder), so
// unlock → next lock is in sw through rf. Under TSO and PSO both are locked
// instructions that act as full fences, as pthread mutexes do on x86.

const scModel = `
(* Sequential consistency (Lamport 1979), as herd7's sc.cat:
   acyclic po | rf | co | fr, plus atomicity of read-modify-writes.
   Memory orders are ignored. *)

let sync = spawn | join
let com = rf | mo | fr

empty rmw & (fr; mo) as atomicity
acyclic po | sync | com as sc
`

const tsoModel = `
(* x86-TSO (Owens, Sarkar, Sewell, "A better x86 memory model: x86-TSO",
   TPHOLs 2009), in the axiomatic form of herd7's x86tso.cat (Alglave,
   Maranget, Tautschnig, "Herding cats", TOPLAS 2014, section 4.6).
   Memory orders of accesses are ignored, as when a C program is compiled
   to plain x86 moves; a seq_cst fence is MFENCE and other fences have no
   effect. RMWs, locks, unlocks and failed trylocks (reads of a mutex) are
   locked instructions; spawn, join, signal and broadcast are full fences
   too. This matches the interpreter's store buffers, which every visible
   operation except a load, a store and a non-seq_cst fence drains. *)

(* thread creation and join order everything before them before everything after *)
let sync = (po?; spawn; po?) | (po?; join; po?)

let com = rf | mo | fr
let po-loc = po & loc
let rfe = rf & ext

(* preserved program order: everything but a write followed by a read *)
let ppo = ([W]; po; [W]) | ([R]; po; [M])
let locked = RMW | U | (R & domain(loc; [L | U]))
let implied = ([M]; po; [locked]) | ([locked]; po; [M])
let barrier = (F & SC) | SPAWN | JOIN | SIG
let mfence = [M]; po; [barrier]; po; [M]
let ghb = mfence | implied | ppo | rfe | fr | mo | [M]; sync; [M]

show rfe

empty rmw & (fr; mo) as atomicity
acyclic po-loc | com as uniproc
acyclic ghb as tso
`

const psoModel = `
(* SPARC PSO (partial store order; The SPARC Architecture Manual, Version 9,
   appendix D), in the style of the TSO model: as TSO, but a write may also
   be overtaken by a later write to a different location (per-location
   store buffers). herd7 has no PSO model, so this definition is not
   validated against herd. Memory orders of accesses are ignored; a seq_cst
   fence is a full fence (membar #StoreLoad|#StoreStore…); a release or
   acq_rel fence orders earlier writes before later writes (membar
   #StoreStore, the C11 mapping of a release fence); other fences have no
   effect. RMWs, locks and unlocks act as full fences. *)

let sync = (po?; spawn; po?) | (po?; join; po?)

let com = rf | mo | fr
let po-loc = po & loc
let rfe = rf & ext

(* reads are ordered before everything after them; writes only before
   later writes to the same location *)
let ppo = ([R]; po; [M]) | ([W]; po-loc; [W])
let locked = RMW | U | (R & domain(loc; [L | U]))
let implied = ([M]; po; [locked]) | ([locked]; po; [M])
let barrier = (F & SC) | SPAWN | JOIN | SIG
let mfence = [M]; po; [barrier]; po; [M]
let ghb = mfence | implied | ppo | rfe | fr | mo | [M]; sync; [M]

show rfe

empty rmw & (fr; mo) as atomicity
acyclic po-loc | com as uniproc
acyclic ghb as pso
`

const raModel = `
(* Release/acquire (Lahav, Giannarakis, Vafeiadis, "Taming release-acquire
   consistency", POPL 2016), defined as herd7's rc11.cat applied to the
   program with every access made release/acquire (reads acquire, writes
   release, RMWs acq_rel), which is how bench/litmus/expected.csv defines
   the ra rows. Then sw = rf and hb = (po | rf)+. Memory orders of accesses
   are ignored (non-atomic accesses too, so RA has no data races).
   seq_cst fences keep their RC11 meaning: the psc axiom restricted to
   fences. Other fences have no effect. *)

let sync = spawn | join
let hb = (po | rf | sync)+
let eco = (rf | mo | fr)+

let FSC = F & SC
let sbl = po \ loc
let hbl = hb & loc
let scb = po | sbl; hb; sbl | hbl | mo | fr
let pscb = [FSC]; hb?; scb; hb?; [FSC]
let pscf = [FSC]; (hb | hb; eco; hb); [FSC]
let psc = pscb | pscf

empty rmw & (fr; mo) as atomicity
irreflexive hb; eco? as coherence
irreflexive rmw; eco as coherence-rmw
acyclic psc as sc-fences
(* no-thin-air, acyclic (po | rf), holds because hb is irreflexive *)
`

const rc11Model = `
(* RC11: Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing sequential
   consistency in C/C++11", PLDI 2017, section 3 and figure 3, transcribed
   from herd7's rc11.cat (herdtools7 herd/libdir/rc11.cat). Release
   sequences follow the PLDI 2017 definition, which includes later writes
   of the releasing thread to the location (C++20, P0982, drops them). *)

let sb = po

(* release sequence: a write, optionally a later same-thread atomic write
   to the location, then a chain of RMWs each reading the previous write *)
let rs = [W]; (sb & loc)?; [W & (RLX | REL | ACQ_REL | ACQ | SC)]; (rf; rmw)*

(* synchronises-with, with release/acquire fences; plus thread creation
   and join (C11's additional synchronises-with). An unlock is a release
   write and a lock an acquire RMW, so unlock -> next lock is in sw. *)
let sw = [REL | ACQ_REL | SC]; ([F]; sb)?; rs; rf; [R & (RLX | REL | ACQ | ACQ_REL | SC)]; (sb; [F])?; [ACQ | ACQ_REL | SC]
       | spawn | join
let hb = (sb | sw)+

(* extended coherence order *)
let eco = (rf | mo | fr)+

(* partial SC order *)
let sbl = sb \ loc
let hbl = hb & loc
let scb = sb | sbl; hb; sbl | hbl | mo | fr
let pscb = ([SC] | [F & SC]; hb?); scb; ([SC] | hb?; [F & SC])
let pscf = [F & SC]; (hb | hb; eco; hb); [F & SC]
let psc = pscb | pscf

(* data races: conflicting accesses of different threads, not both
   atomic, unordered by hb (initial writes never race) *)
let cnf = ((W * _) | (_ * W)) & loc \ ((IW * _) | (_ * IW))
let dr = (cnf & ext) \ (hb | hb^-1 | A * A)

show sw

empty rmw & (fr; mo) as atomicity
irreflexive hb; eco? as coherence
irreflexive rmw; eco as coherence-rmw
acyclic psc as sc
acyclic sb | rf as no-thin-air
flag empty dr as data-race
`

var builtinModels = func() map[string]*Model {
	defs := []struct{ name, doc, src string }{
		{"sc", "sequential consistency (herd sc.cat)", scModel},
		{"tso", "x86-TSO (herd x86tso.cat); memory orders ignored, seq_cst fences are MFENCE", tsoModel},
		{"pso", "SPARC PSO: TSO plus write-write reordering across locations", psoModel},
		{"ra", "release/acquire: RC11 with every access release/acquire", raModel},
		{"rc11", "repaired C11 (Lahav et al., PLDI 2017; herd rc11.cat)", rc11Model},
	}
	out := map[string]*Model{}
	for _, d := range defs {
		m, err := ParseModel(d.name, d.doc, d.src)
		if err != nil {
			panic(fmt.Sprintf("seg: built-in model: %v", err))
		}
		out[d.name] = m
	}
	return out
}()

// Models returns the built-in memory models by name: "sc", "tso", "pso",
// "ra" and "rc11". The map is a fresh copy; the models are shared and
// immutable.
func Models() map[string]*Model {
	out := make(map[string]*Model, len(builtinModels))
	for k, v := range builtinModels {
		out[k] = v
	}
	return out
}

// ModelNames lists the names of the built-in models in sorted order.
func ModelNames() []string {
	var out []string
	for k := range builtinModels {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// LookupModel returns the built-in model called name, or nil.
func LookupModel(name string) *Model { return builtinModels[name] }
