package seg

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

// The built-in memory models. Each is a declarative definition (models/*.cat) evaluated by
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

// The model texts live in models/*.cat, one file per model, embedded at
// build time.
//
//go:embed models/*.cat
var modelFiles embed.FS

// builtinDocs are one-line docs of the built-in models; a model file
// without one here is described by the first line of its leading comment.
var builtinDocs = map[string]string{
	"sc":   "sequential consistency (herd sc.cat)",
	"tso":  "x86-TSO (herd x86tso.cat); memory orders ignored, seq_cst fences are MFENCE",
	"pso":  "SPARC PSO: TSO plus write-write reordering across locations",
	"ra":   "release/acquire: RC11 with every atomic access release/acquire",
	"rc11": "repaired C11 (Lahav et al., PLDI 2017; herd rc11.cat)",
}

// builtinModels are the models of models/*.cat, by file name: adding a
// file adds a model.
var builtinModels = func() map[string]*Model {
	files, err := modelFiles.ReadDir("models")
	if err != nil {
		panic(fmt.Sprintf("seg: built-in models: %v", err))
	}
	out := map[string]*Model{}
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name(), ".cat")
		if !ok {
			continue
		}
		b, err := modelFiles.ReadFile("models/" + f.Name())
		if err != nil {
			panic(fmt.Sprintf("seg: built-in model %s: %v", name, err))
		}
		src := string(b)
		doc := builtinDocs[name]
		if doc == "" {
			doc = firstCommentLine(src, name)
		}
		m, err := ParseModel(name, doc, src)
		if err != nil {
			panic(fmt.Sprintf("seg: built-in model: %v", err))
		}
		out[name] = m
	}
	return out
}()

// firstCommentLine returns the first line of src's leading (* … *)
// comment, or def.
func firstCommentLine(src, def string) string {
	s := strings.TrimSpace(src)
	if !strings.HasPrefix(s, "(*") {
		return def
	}
	line, _, _ := strings.Cut(strings.TrimSpace(s[2:]), "\n")
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "*)"))
	if line == "" {
		return def
	}
	return line
}

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
