// Package cir is the front end of CIR, ncmc's small concurrent input
// language (see docs/cir.md): a lexer, a recursive-descent parser producing
// an AST with positions on every node, a checker (names, types and the
// language's static rules) and the lowering of checked programs to
// ir.Program.
//
// Errors are reported as a diag.ErrorList: every lexical and syntax error of
// the file, or, if there are none, every semantic error, sorted by position.
package cir

import (
	"ncmc/frontend/diag"
	"ncmc/ir"
)

// Compile parses, checks and lowers the CIR program src read from file
// filename. On failure the error is a diag.ErrorList.
func Compile(filename string, src []byte) (*ir.Program, error) {
	prog, errs := compile(filename, src)
	if len(errs) > 0 {
		return nil, errs
	}
	return prog, nil
}

// compile runs the pipeline; it stops after parsing if there are syntax
// errors (semantic errors on a damaged tree would mostly be noise).
func compile(filename string, src []byte) (*ir.Program, diag.ErrorList) {
	errs := diag.NewCollector(filename, src)
	f := parse(filename, src, errs)
	if errs.Len() > 0 {
		return nil, errs.Errors()
	}
	c, prog := checkFile(f, src, errs)
	if prog == nil {
		return nil, errs.Errors()
	}
	lower(f, prog, c, true)
	return prog, nil
}
