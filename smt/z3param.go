package smt

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// globalParamMu serialises SetGlobalParam (Z3_global_param_get returns a
// pointer into a shared buffer).
var globalParamMu sync.Mutex

// SetGlobalParam sets a process-wide Z3 parameter, such as
// "smt.arith.solver" = "1" (Z3's sparse difference-logic solver) or
// "smt.relevancy" = "0". Parameters of the "smt" module cannot be set per
// Solver through the binding this package uses, so this is the only way to
// tune them.
//
// This is global state shared by every Solver in the process: call it at
// program start, before any Solver runs a Z3 check (Z3 configures a solver
// when it first uses it), and never concurrently with running Solvers. No
// Solver calls it by itself. It returns an error if Z3 does not know the
// parameter (Z3 may also print a warning on stderr).
func SetGlobalParam(name, value string) error {
	globalParamMu.Lock()
	defer globalParamMu.Unlock()
	cn, cv := C.CString(name), C.CString(value)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cv))
	C.Z3_global_param_set(cn, cv)
	var out C.Z3_string
	if !bool(C.Z3_global_param_get(cn, &out)) {
		return fmt.Errorf("smt: unknown Z3 parameter %q", name)
	}
	return nil
}
