// Package memmodel names the memory models ncmc checks programs under. A
// model is one value: its name and doc, its axioms (the declarative
// definition in seg/models/*.cat, evaluated by seg's engine), how the
// interpreter runs it (Exec), which of its flagged axioms defines data
// races, and the prose herd uses to explain why it forbids out-of-thin-air
// cycles. Every other package asks Lookup, All or Names; none keeps its
// own list of model names.
//
// Adding a model that is explored only by graph search is one .cat file in
// seg/models plus one entry in the table below (Exec GraphOnly).
package memmodel

import (
	"fmt"
	"strings"

	"ncmc/seg"
)

// Exec says how the interpreter runs programs under a model.
type Exec uint8

// Execution kinds.
const (
	// Interleaving: stores are visible to every thread at once (sc).
	Interleaving Exec = iota
	// StoreBuffer: one FIFO store buffer per thread (tso).
	StoreBuffer
	// StoreBufferPerLoc: one FIFO store buffer per thread and location (pso).
	StoreBufferPerLoc
	// GraphOnly: no operational semantics; the interpreter builds the
	// execution graph event by event and chooses reads-from and
	// modification order, keeping only choices consistent under the
	// model's axioms (graph exploration; ra, rc11).
	GraphOnly
)

func (e Exec) String() string {
	switch e {
	case Interleaving:
		return "interleaving"
	case StoreBuffer:
		return "store buffer"
	case StoreBufferPerLoc:
		return "store buffer per location"
	case GraphOnly:
		return "graph only"
	}
	return fmt.Sprintf("Exec(%d)", uint8(e))
}

// Model is a memory model.
type Model struct {
	Name string
	// Doc is one line for help texts.
	Doc string
	// Axioms is the declarative definition (seg/models/<Name>.cat): graph
	// consistency, explanations of forbidden graphs, pictures.
	Axioms *seg.Model
	// Exec is how the interpreter runs the model.
	Exec Exec
	// Race names the flagged axiom of Axioms that defines data races
	// ("data-race"), or "" if the model has no notion of data race (sc,
	// tso, pso: there the vector-clock detector of the reference explorer
	// uses sc's happens-before).
	Race string
	// ThinAir says which axiom of the model forbids cycles in po ∪ rf
	// (herd's explanations).
	ThinAir string
}

// String returns the model's name.
func (m *Model) String() string { return m.Name }

// Operational reports whether the interpreter has an operational semantics
// for the model (interleavings, with store buffers under tso and pso), so
// that explorers other than graph exploration apply.
func (m *Model) Operational() bool { return m.Exec != GraphOnly }

// models is the registry, in the order help texts list the models. It is
// built once and never changed.
var models = func() []*Model {
	defs := []struct {
		name, doc string
		exec      Exec
		race      string
		thinAir   string
	}{
		{"sc", "sequential consistency: every store is visible at once", Interleaving, "",
			"sc forbids them: po and rf are both in its acyclic relation (axiom sc: acyclic po | rf | mo | fr)"},
		{"tso", "x86-TSO: one FIFO store buffer per thread", StoreBuffer, "",
			"tso forbids them: a read is ordered before every later access of its thread (ppo) and rfe is in ghb, so such a cycle is a ghb cycle (axiom tso), or breaks uniproc"},
		{"pso", "SPARC PSO: one FIFO store buffer per thread and location", StoreBufferPerLoc, "",
			"pso forbids them: a read is ordered before every later access of its thread (ppo) and rfe is in ghb, so such a cycle is a ghb cycle (axiom pso), or breaks uniproc"},
		{"ra", "release/acquire: graph exploration, data races on non-atomic accesses", GraphOnly, "data-race",
			"ra forbids them: hb = (po | rf)+ would be cyclic (axiom coherence: irreflexive hb; eco?)"},
		{"rc11", "repaired C11: graph exploration, data races on non-atomic accesses", GraphOnly, "data-race",
			"rc11 forbids them (axiom no-thin-air: acyclic sb | rf)"},
	}
	out := make([]*Model, len(defs))
	for i, d := range defs {
		ax := seg.LookupModel(d.name)
		if ax == nil {
			panic("memmodel: no seg model " + d.name)
		}
		if d.race != "" && !hasFlag(ax, d.race) {
			panic("memmodel: model " + d.name + " has no flagged axiom " + d.race)
		}
		out[i] = &Model{Name: d.name, Doc: d.doc, Axioms: ax, Exec: d.exec, Race: d.race, ThinAir: d.thinAir}
	}
	return out
}()

func hasFlag(m *seg.Model, name string) bool {
	for _, a := range m.Axioms() {
		if a.Flag && a.Name == name {
			return true
		}
	}
	return false
}

// All returns the models in registry order (sc, tso, pso, ra, rc11). The
// slice is fresh; the models are shared and must not be changed.
func All() []*Model { return append([]*Model(nil), models...) }

// Names returns the names of the models in registry order.
func Names() []string { return NamesWhere(nil) }

// NamesWhere returns the names of the models for which keep returns true
// (all if keep is nil), in registry order.
func NamesWhere(keep func(*Model) bool) []string {
	var out []string
	for _, m := range models {
		if keep == nil || keep(m) {
			out = append(out, m.Name)
		}
	}
	return out
}

// Operational returns the names of the models with an operational
// semantics (Model.Operational).
func Operational() []string { return NamesWhere((*Model).Operational) }

// Lookup returns the model called name. The error lists the models there
// are.
func Lookup(name string) (*Model, error) {
	for _, m := range models {
		if m.Name == name {
			return m, nil
		}
	}
	return nil, fmt.Errorf("memory model %q is not supported (supported: %s)", name, strings.Join(Names(), ", "))
}

// SC returns the sequential consistency model, the default.
func SC() *Model { return models[0] }

// ExecOf returns m.Exec, or Interleaving for nil (the default model, sc).
func ExecOf(m *Model) Exec {
	if m == nil {
		return Interleaving
	}
	return m.Exec
}
