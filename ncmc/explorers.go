package ncmc

import (
	"fmt"
	"strings"

	"ncmc/explore/coverability"
	"ncmc/explore/dpor"
	"ncmc/explore/graph"
	"ncmc/explore/mcrx"
	"ncmc/explore/reference"
	"ncmc/explore/trustx"
	"ncmc/explore/vmcrx"
)

// Explorers returns the explorers in the order help texts list them. This
// is the one list: the CLI's --explorer values and help, the error for an
// unknown name and Verify's plan (plan.go) all come from it. Adding an
// explorer is its implementation plus one line here.
func Explorers() []Explorer {
	return []Explorer{
		reference.Explorer{},
		reference.Stateful{},
		mcrx.Explorer{},
		vmcrx.Explorer{},
		dpor.Explorer{},
		dpor.Explorer{Specs: true},
		mcrx.Thesis{},
		graph.Explorer{},
		trustx.Explorer{},
		coverability.Explorer{},
	}
}

// AutoExplorer is the name of the default: Verify's plan picks the
// explorers (plan.go).
const AutoExplorer = "auto"

// ExplorerNames lists "auto" and the names of Explorers, in order.
func ExplorerNames() []string {
	out := []string{AutoExplorer}
	for _, e := range Explorers() {
		out = append(out, e.Name())
	}
	return out
}

// ExplorerHelp describes auto and every explorer, one "name: doc" each,
// joined by "; ".
func ExplorerHelp() string {
	parts := []string{AutoExplorer + ": " + autoDoc}
	for _, e := range Explorers() {
		parts = append(parts, e.Name()+": "+e.Doc())
	}
	return strings.Join(parts, "; ")
}

// LookupExplorer returns the explorer called name; the error lists the
// explorers there are. "auto" is not an explorer but a plan (plan.go).
func LookupExplorer(name string) (Explorer, error) {
	for _, e := range Explorers() {
		if e.Name() == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("explorer %q is not available (available: %s)", name, strings.Join(ExplorerNames(), ", "))
}
