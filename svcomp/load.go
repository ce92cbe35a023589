package svcomp

import (
	"errors"
	"path/filepath"
	"strings"

	"ncmc/frontend"
	cfront "ncmc/frontend/c"
	"ncmc/ir"
)

// Load translates the program of a task, a C file (.c, .i) under
// dataModel (ILP32 or LP64; "" is ILP32) or a CIR file, for property p,
// to be explored under sc (SV-COMP's tasks are sequentially consistent;
// the stages of Check explore under sc). For NoDataRace a call of the
// program's reach_error runs its body (cfront.Options.NoDataRace): it is
// no error there, and a body such as {} lets the program go on, maybe to a
// race.
func Load(file, dataModel string, p Property) (*ir.Program, error) {
	return LoadModel(file, dataModel, p, "sc")
}

// LoadModel is Load for a program explored under the memory model model
// (a name of package memmodel): C is translated for the model as ncmc
// verify translates it (cfront.Options.ForModel), so that the task's
// program means the same whichever command reads it.
func LoadModel(file, dataModel string, p Property, model string) (*ir.Program, error) {
	if IsC(file) {
		return cfront.CompileFile(file, cOptions(dataModel, p, model))
	}
	return frontend.LoadFile(file)
}

// cOptions are the C front end's options for a task's program checked for
// p under model.
func cOptions(dataModel string, p Property, model string) cfront.Options {
	return cfront.Options{DataModel: CDataModel(dataModel), NoDataRace: p == NoDataRace, ZeroHeap: true}.ForModel(model, p == NoDataRace)
}

// Program is a task's program as Check explores it.
type Program struct {
	Prog *ir.Program
	// Approx lists what an under-approximated translation left out (nil
	// for an exact one): then a violation found is real, but the answer
	// True cannot be given.
	Approx []string
	// Rejected is why the exact translation rejected the program when
	// Approx is set.
	Rejected error
}

// LoadApprox is Load, retried for a C program the exact translation
// rejects as unsupported (*frontend.Unsupported) with a translation that
// keeps only part of the program's behaviour (cfront.CompileFileApprox).
// On failure it returns the error of the exact translation.
func LoadApprox(file, dataModel string, p Property) (*Program, error) {
	prog, err := Load(file, dataModel, p)
	if err == nil {
		return &Program{Prog: prog}, nil
	}
	return approx(file, dataModel, p, err)
}

// approx is LoadApprox's retry after the exact translation failed with err.
func approx(file, dataModel string, p Property, err error) (*Program, error) {
	var un *frontend.Unsupported
	if !errors.As(err, &un) || !IsC(file) || p.memory() {
		// not for the memory properties: an under-approximation (a
		// variable-length array's fixed capacity) could make an invalid
		// dereference of its own
		return nil, err
	}
	opts := cOptions(dataModel, p, "sc")
	opts.UnderApproximate = true
	prog, approx, err2 := cfront.CompileFileApprox(file, opts)
	if err2 != nil {
		return nil, err
	}
	if approx == nil {
		approx = []string{} // Approx is nil only for an exact translation
	}
	return &Program{Prog: prog, Approx: approx, Rejected: err}, nil
}

// IsC reports whether file is a C program (.c or .i).
func IsC(file string) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".c", ".i":
		return true
	}
	return false
}

// CDataModel is a task's data model for the C front end (ILP32 if the
// task names none).
func CDataModel(dataModel string) cfront.DataModel {
	if dm := cfront.DataModel(dataModel); dm != "" {
		return dm
	}
	return cfront.ILP32
}
